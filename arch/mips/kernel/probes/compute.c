// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mips kprobes: the instructions a hit computes in the trap instead of
 * stepping a copy, which saves the second break (516) and its exception.
 *
 * Computed are the integer instructions that only read and write general
 * registers and cannot trap: addu, subu, and, or, xor, nor, slt, sltu,
 * the six shifts (sll, srl, sra and their variable forms; not rotr, an R2
 * instruction whose encoding an R1 CPU reserves), addiu, slti, sltiu,
 * andi, ori, xori and lui ("move" and "nop" are addu/or and sll).  Not
 * computed, so stepped as before: add, addi and sub (they trap on
 * overflow), anything that names k0 or k1 (pt_regs does not hold them:
 * the exception entry neither saves nor restores them), and gp as a
 * destination (the kernel's current-thread pointer, which only entry and
 * switch code write; a copy in the slot behaves there as before).
 *
 * A 64-bit kernel (the back-end is built for 32-bit ones, but nothing
 * here depends on it) sign-extends the 32-bit results of addu, subu,
 * addiu, lui and the shifts, as the CPU does; the logical ones and the
 * comparisons use the whole register.
 */
#include "mips-kprobes.h"

#include <asm/inst.h>

#define KPROBE_MIPS_K0	26
#define KPROBE_MIPS_K1	27
#define KPROBE_MIPS_GP	28

/* A source register: k0 and k1 are the exception's, gp is fine. */
static bool kprobe_mips_src_ok(unsigned int r)
{
	return r != KPROBE_MIPS_K0 && r != KPROBE_MIPS_K1;
}

/* A destination: neither k0, k1 nor gp; $zero is (writes nothing). */
static bool kprobe_mips_dst_ok(unsigned int r)
{
	return kprobe_mips_src_ok(r) && r != KPROBE_MIPS_GP;
}

/* Which SPECIAL functions are computed (the reserved fields zero). */
static bool kprobe_mips_special_ok(const union mips_instruction mi)
{
	const struct r_format *r = &mi.r_format;

	switch (r->func) {
	case sll_op:
	case srl_op:		/* rs = 1 is rotr */
	case sra_op:
		return !r->rs;
	case sllv_op:
	case srlv_op:		/* sa = 1 is rotrv */
	case srav_op:
	case addu_op:
	case subu_op:
	case and_op:
	case or_op:
	case xor_op:
	case nor_op:
	case slt_op:
	case sltu_op:
		return !r->re;
	}
	return false;
}

/**
 * kprobe_mips_computable() - can a hit compute @insn in the trap
 * @insn: the probed instruction (not in a delay slot: those are refused)
 *
 * Return: true for the register-only instructions of the file comment.
 */
bool kprobe_mips_computable(u32 insn)
{
	const union mips_instruction mi = { .word = insn };

	switch (mi.i_format.opcode) {
	case spec_op:
		return kprobe_mips_special_ok(mi) &&
		       kprobe_mips_src_ok(mi.r_format.rs) &&
		       kprobe_mips_src_ok(mi.r_format.rt) &&
		       kprobe_mips_dst_ok(mi.r_format.rd);
	case lui_op:		/* rs != 0 is R6's aui */
		if (mi.i_format.rs)
			return false;
		fallthrough;
	case addiu_op:
	case slti_op:
	case sltiu_op:
	case andi_op:
	case ori_op:
	case xori_op:
		return kprobe_mips_src_ok(mi.i_format.rs) &&
		       kprobe_mips_dst_ok(mi.i_format.rt);
	}
	return false;
}

/* A 32-bit result as the CPU leaves it in a register: sign-extended. */
static nokprobe_inline unsigned long kprobe_mips_sext32(u32 v)
{
	return (unsigned long)(long)(s32)v;
}

static nokprobe_inline unsigned long kprobe_mips_reg(struct pt_regs *regs,
						     unsigned int r)
{
	return r ? regs->regs[r] : 0;
}

/* SPECIAL: rd = rs op rt (shifts: rt by sa or by rs). */
static nokprobe_inline unsigned long
kprobe_mips_special(const union mips_instruction mi, unsigned long s,
		    unsigned long t)
{
	unsigned int sa = mi.r_format.re;

	switch (mi.r_format.func) {
	case sll_op:
		return kprobe_mips_sext32((u32)t << sa);
	case srl_op:
		return kprobe_mips_sext32((u32)t >> sa);
	case sra_op:
		return kprobe_mips_sext32((s32)t >> sa);
	case sllv_op:
		return kprobe_mips_sext32((u32)t << (s & 31));
	case srlv_op:
		return kprobe_mips_sext32((u32)t >> (s & 31));
	case srav_op:
		return kprobe_mips_sext32((s32)t >> (s & 31));
	case addu_op:
		return kprobe_mips_sext32((u32)s + (u32)t);
	case subu_op:
		return kprobe_mips_sext32((u32)s - (u32)t);
	case and_op:
		return s & t;
	case or_op:
		return s | t;
	case xor_op:
		return s ^ t;
	case nor_op:
		return ~(s | t);
	case slt_op:
		return (long)s < (long)t;
	default:		/* sltu: kprobe_mips_special_ok() has no other */
		return s < t;
	}
}

/* Immediate forms: rt = rs op imm. */
static nokprobe_inline unsigned long
kprobe_mips_immediate(const union mips_instruction mi, unsigned long s)
{
	u16 imm = mi.i_format.simmediate;
	unsigned long simm = (unsigned long)(long)(s16)imm;

	switch (mi.i_format.opcode) {
	case addiu_op:
		return kprobe_mips_sext32((u32)s + (u32)simm);
	case slti_op:
		return (long)s < (long)simm;
	case sltiu_op:
		return s < simm;
	case andi_op:
		return s & imm;
	case ori_op:
		return s | imm;
	case xori_op:
		return s ^ imm;
	default:		/* lui */
		return kprobe_mips_sext32((u32)imm << 16);
	}
}

/**
 * kprobe_mips_compute() - run a computable instruction on @regs
 * @insn: an instruction kprobe_mips_computable() accepted
 * @regs: the registers of the probed context; the pc is not moved
 */
void kprobe_mips_compute(u32 insn, struct pt_regs *regs)
{
	const union mips_instruction mi = { .word = insn };
	unsigned long s = kprobe_mips_reg(regs, mi.i_format.rs);
	unsigned int dst;
	unsigned long v;

	if (mi.i_format.opcode == spec_op) {
		dst = mi.r_format.rd;
		v = kprobe_mips_special(mi, s, kprobe_mips_reg(regs, mi.r_format.rt));
	} else {
		dst = mi.i_format.rt;
		v = kprobe_mips_immediate(mi, s);
	}
	if (dst)
		regs->regs[dst] = v;
}

NOKPROBE_SYMBOL(kprobe_mips_compute);
