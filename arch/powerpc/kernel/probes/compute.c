// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: register arithmetic, computed.
 *
 * The single-step library (sstep.c) can emulate almost anything, but a
 * hit pays for its generality: analyse_instr() decodes the word again,
 * clears and fills a struct instruction_op, and emulate_update_regs()
 * writes the result back.  The instructions below are decoded once, when
 * the probe is prepared, into an operation and its register numbers
 * (struct arch_specific_insn::compute and its operands); a hit then does
 * the operation and nothing else:
 *
 *   addi, addis (li, lis)        rD = (rA|0) + immediate
 *   ori, oris, xori, xoris (nop) rA = rS op unsigned immediate
 *   or, and, xor, nor, andc, orc (mr, not), Rc = 0
 *   add, subf, neg, OE = 0 and Rc = 0
 *   extsb, extsh, extsw (64-bit), Rc = 0
 *   mflr, mtlr, mfctr, mtctr
 *
 * None of them reads memory, the CR or the XER, or writes anything but
 * one GPR, LR or CTR, so the computation cannot fault and needs no slot.
 * The forms that record (Rc = 1) or overflow (OE = 1) are left to the
 * library, as is everything else.
 */
#include "ppc-kprobes.h"

#include <asm/ppc-opcode.h>
#include <asm/reg.h>

#define KPC_RT(w)	(((w) >> 21) & 0x1f)	/* also RS */
#define KPC_RA(w)	(((w) >> 16) & 0x1f)
#define KPC_RB(w)	(((w) >> 11) & 0x1f)
#define KPC_XO(w)	(((w) >> 1) & 0x3ff)

/* @ai computes @op with result register @rd and sources @rs, @rb. */
static bool kpc_set(struct arch_specific_insn *ai, enum kprobe_ppc_op op,
		    u32 rd, u32 rs, u32 rb, long imm)
{
	ai->compute = op;
	ai->rd = rd;
	ai->rs = rs;
	ai->rb = rb;
	ai->imm = imm;
	return true;
}

/* The X and XO forms of primary opcode 31. */
static bool kpc_decode_31(u32 w, struct arch_specific_insn *ai)
{
	u32 rt = KPC_RT(w), ra = KPC_RA(w), rb = KPC_RB(w);
	u32 spr = ra | (rb << 5);	/* mfspr/mtspr swap the halves */

	switch (KPC_XO(w)) {
	case 339:	/* mfspr */
		if (spr == SPRN_LR)
			return kpc_set(ai, KPPC_MFLR, rt, 0, 0, 0);
		if (spr == SPRN_CTR)
			return kpc_set(ai, KPPC_MFCTR, rt, 0, 0, 0);
		return false;
	case 467:	/* mtspr */
		if (spr == SPRN_LR)
			return kpc_set(ai, KPPC_MTLR, 0, rt, 0, 0);
		if (spr == SPRN_CTR)
			return kpc_set(ai, KPPC_MTCTR, 0, rt, 0, 0);
		return false;
	}

	if (w & 1)		/* Rc: the result goes to CR0 as well */
		return false;

	/* X-form logical: rA = rS op rB */
	switch (KPC_XO(w)) {
	case 444:
		return kpc_set(ai, KPPC_OR, ra, rt, rb, 0);
	case 28:
		return kpc_set(ai, KPPC_AND, ra, rt, rb, 0);
	case 316:
		return kpc_set(ai, KPPC_XOR, ra, rt, rb, 0);
	case 124:
		return kpc_set(ai, KPPC_NOR, ra, rt, rb, 0);
	case 60:
		return kpc_set(ai, KPPC_ANDC, ra, rt, rb, 0);
	case 412:
		return kpc_set(ai, KPPC_ORC, ra, rt, rb, 0);
	case 954:	/* extsb */
		return kpc_set(ai, KPPC_EXTSB, ra, rt, 0, 0);
	case 922:	/* extsh */
		return kpc_set(ai, KPPC_EXTSH, ra, rt, 0, 0);
	case 986:	/* extsw */
		return IS_ENABLED(CONFIG_PPC64) &&
		       kpc_set(ai, KPPC_EXTSW, ra, rt, 0, 0);
	}

	/* XO-form arithmetic, OE (bit 10) clear: rD = rA op rB */
	switch (KPC_XO(w)) {
	case 266:
		return kpc_set(ai, KPPC_ADD, rt, ra, rb, 0);
	case 40:	/* subf: rB - rA */
		return kpc_set(ai, KPPC_SUBF, rt, ra, rb, 0);
	case 104:
		return rb == 0 && kpc_set(ai, KPPC_NEG, rt, ra, 0, 0);
	}
	return false;
}

/**
 * kprobe_ppc_compute_decode() - can hits compute this instruction?
 * @word: the instruction (not a prefix)
 * @ai: gets the operation and its operands when they can
 *
 * Return: true if @ai->compute is set.
 */
bool kprobe_ppc_compute_decode(u32 word, struct arch_specific_insn *ai)
{
	u32 rt = KPC_RT(word), ra = KPC_RA(word);
	long si = (s16)word;
	unsigned long ui = word & 0xffff;

	ai->compute = KPPC_NONE;
	switch (word >> 26) {
	case 14:	/* addi; li when rA is 0 */
		return kpc_set(ai, ra ? KPPC_ADDI : KPPC_LI, rt, ra, 0, si);
	case 15:	/* addis; lis: the shifted word sign-extends */
		si = (s32)(ui << 16);
		return kpc_set(ai, ra ? KPPC_ADDI : KPPC_LI, rt, ra, 0, si);
	case 24:	/* ori: rA = rS | ui; "ori 0,0,0" is the nop */
		return kpc_set(ai, KPPC_ORI, ra, rt, 0, ui);
	case 25:	/* oris */
		return kpc_set(ai, KPPC_ORI, ra, rt, 0, ui << 16);
	case 26:	/* xori */
		return kpc_set(ai, KPPC_XORI, ra, rt, 0, ui);
	case 27:	/* xoris */
		return kpc_set(ai, KPPC_XORI, ra, rt, 0, ui << 16);
	case 31:
		if (kpc_decode_31(word, ai))
			return true;
		ai->compute = KPPC_NONE;
		return false;
	}
	return false;
}

/**
 * kprobe_ppc_compute() - do what a decoded instruction does
 * @ai: a site's instruction, @ai->compute set
 * @regs: the registers at the trap; nip moves past the instruction
 *
 * Context: the trap, interrupts off.
 * Return: false (with a warning) if @ai->compute is no operation.
 */
bool kprobe_ppc_compute(const struct arch_specific_insn *ai,
			struct pt_regs *regs)
{
	unsigned long s = regs->gpr[ai->rs], b = regs->gpr[ai->rb], v;

	switch (ai->compute) {
	case KPPC_LI:
		v = ai->imm;
		break;
	case KPPC_ADDI:
		v = s + ai->imm;
		break;
	case KPPC_ORI:
		v = s | ai->imm;
		break;
	case KPPC_XORI:
		v = s ^ ai->imm;
		break;
	case KPPC_OR:
		v = s | b;
		break;
	case KPPC_AND:
		v = s & b;
		break;
	case KPPC_XOR:
		v = s ^ b;
		break;
	case KPPC_NOR:
		v = ~(s | b);
		break;
	case KPPC_ANDC:
		v = s & ~b;
		break;
	case KPPC_ORC:
		v = s | ~b;
		break;
	case KPPC_ADD:
		v = s + b;
		break;
	case KPPC_SUBF:
		v = b - s;
		break;
	case KPPC_NEG:
		v = -s;
		break;
	case KPPC_EXTSB:
		v = (long)(s8)s;
		break;
	case KPPC_EXTSH:
		v = (long)(s16)s;
		break;
	case KPPC_EXTSW:
		v = (long)(s32)s;
		break;
	case KPPC_MFLR:
		v = regs->link;
		break;
	case KPPC_MFCTR:
		v = regs->ctr;
		break;
	case KPPC_MTLR:
		regs->link = s;
		goto done;
	case KPPC_MTCTR:
		regs->ctr = s;
		goto done;
	default:
		WARN_ON_ONCE(1);
		return false;
	}
	regs->gpr[ai->rd] = v;
done:
	regs_add_return_ip(regs, 4);
	return true;
}

NOKPROBE_SYMBOL(kprobe_ppc_compute);
