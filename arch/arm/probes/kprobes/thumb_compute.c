// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kprobes, Thumb-2 kernels: the Thumb instructions the trap
 * computes although a copy could run them, the counterpart of
 * arm_compute.c.  A copy costs a second UDF trap at its step end; these
 * are what function entries and hot code are made of:
 *
 *   16-bit  lsl/lsr/asr #imm (movs Rd, Rm), add/sub with imm3, imm8 or a
 *           register, mov/cmp #imm8, the register data-processing group
 *           (and ... mvn, mul), add/cmp/mov with high registers, add/sub
 *           sp, #imm, sxt/uxt and rev, ldr/str of each size with imm5,
 *           a register or sp-relative, push, pop (without the pc),
 *           ldm/stm;
 *   32-bit  data processing with a modified immediate or a shifted
 *           register (mov.w, add.w, sub.w, cmp.w, and.w ...), addw/subw,
 *           movw/movt, ldr/str of each size with imm12, imm8 (pre- or
 *           post-indexed, write-back) or a shifted register, and
 *           ldm/stm (push.w/stmdb sp!, pop.w without the pc).
 *
 * A flag-setting form sets N, Z, C and V as the ARM ARM's pseudocode
 * does: a 16-bit data-processing instruction outside an IT block (thumb.c
 * refuses probes inside one) always sets them.  Logical operations take C
 * from the shifter (or the modified immediate's expansion) and keep V.
 *
 * thumb.c calls kprobe_thumb_compute_pick() once its decoder has accepted
 * an instruction for a slot: the decoder's refusals (the pc, unpredictable
 * registers) stand, and the slot stays for what a computation declines.
 * As on ARM: memory goes through the fault-safe accessors, and a fault
 * declines, so that the copy takes it in place; a store below the probed
 * context's sp and its MAX_STACK_SIZE bytes, onto the trap's own frame,
 * declines too; sites with an exception table entry are never computed.
 * Nothing is changed before a computation knows it succeeds.
 */
#include "arm-kprobes.h"
#include "compute.h"

#include <linux/swab.h>
#include <linux/uaccess.h>

/* Register fields of 16-bit instructions. */
#define KP_T16_R(insn, at)	(((insn) >> (at)) & 7)

/* ---------------------------------------------------------------------
 * Shared steps
 * ---------------------------------------------------------------------
 */

static nokprobe_inline u32 kp_tc_carry(struct pt_regs *regs)
{
	return (regs->ARM_cpsr >> KP_C_SHIFT) & 1;
}

/*
 * The flags of a result: N and Z from @res, C from @c; V from @v unless
 * @v is negative (logical operations keep it).
 */
static nokprobe_inline void kp_tc_flags(struct pt_regs *regs, u32 res,
					u32 c, int v)
{
	u32 cpsr = regs->ARM_cpsr & ~(PSR_N_BIT | PSR_Z_BIT | PSR_C_BIT);

	if (res & BIT(31))
		cpsr |= PSR_N_BIT;
	if (!res)
		cpsr |= PSR_Z_BIT;
	if (c)
		cpsr |= PSR_C_BIT;
	if (v >= 0)
		cpsr = v ? cpsr | PSR_V_BIT : cpsr & ~PSR_V_BIT;
	regs->ARM_cpsr = cpsr;
}

/*
 * An immediate shift (type, #imm5) of @v as the ARM ARM's DecodeImmShift
 * gives it: lsr and asr #0 are #32, ror #0 is rrx; lsl #0 keeps @c.
 */
static nokprobe_inline u32 kp_tc_shift_imm(u32 v, unsigned int type,
					   unsigned int n, u32 c, u32 *carry)
{
	*carry = c;
	if (!n) {
		if (type == KP_LSL)
			return v;
		if (type == KP_ROR) {
			*carry = v & 1;
			return (c << 31) | (v >> 1);
		}
		n = 32;
	}
	return kprobe_alu_shift(v, type, n, carry);
}

/* Load @size bytes (1, 2, 4) at @addr, sign-extended if @sign. */
static nokprobe_inline bool kp_tc_load(unsigned long addr, unsigned int size,
				       bool sign, u32 *val)
{
	u16 h;
	u8 b;

	switch (size) {
	case 1:
		if (get_kernel_nofault(b, (u8 *)addr))
			return false;
		*val = sign ? (u32)(s8)b : b;
		return true;
	case 2:
		if (get_kernel_nofault(h, (u16 *)addr))
			return false;
		*val = sign ? (u32)(s16)h : h;
		return true;
	default:
		return !get_kernel_nofault(*val, (u32 *)addr);
	}
}

/* Store the low @size bytes of @val at @addr (little-endian kernels). */
static nokprobe_inline bool kp_tc_store(unsigned long addr, unsigned int size,
					u32 val, struct pt_regs *regs)
{
	return kprobe_may_store(addr, size, regs) &&
	       !copy_to_kernel_nofault((void *)addr, &val, size);
}

/*
 * One load or store of Rt at @addr, then Rn = @wb_val when @wback; a
 * load's Rt is written after Rn (they differ when @wback).
 */
static nokprobe_inline bool kp_tc_single(struct pt_regs *regs, bool load,
					 unsigned int size, bool sign,
					 unsigned int rt, unsigned long addr,
					 unsigned int rn, bool wback,
					 unsigned long wb_val)
{
	u32 val;

	if (load) {
		if (!kp_tc_load(addr, size, sign, &val))
			return false;
	} else if (!kp_tc_store(addr, size, regs->uregs[rt], regs)) {
		return false;
	}
	if (wback)
		regs->uregs[rn] = wb_val;
	if (load)
		regs->uregs[rt] = val;
	return true;
}

/*
 * The @n registers of @list (not the pc) from or to the words at @start
 * upwards, lowest register first.
 */
static nokprobe_inline bool kp_tc_multiple(struct pt_regs *regs, bool load,
					   unsigned int list, unsigned int n,
					   unsigned long start)
{
	/* Written before it is read: no INIT_STACK_ALL_ZERO memset. */
	u32 words[16] __uninitialized;

	if (load) {
		if (copy_from_kernel_nofault(words, (void *)start, 4 * n))
			return false;
		kprobe_list_scatter(regs, list, words);
		return true;
	}
	kprobe_list_gather(regs, list, words);
	return kprobe_may_store(start, 4 * n, regs) &&
	       !copy_to_kernel_nofault((void *)start, words, 4 * n);
}

/*
 * The data-processing operations both sizes share, by the 32-bit
 * encoding's opcode (bits 24:21): @a op @b with the shifter's carry @sc;
 * the flags, when @setflags, as the operation sets them.
 */
enum {
	KP_TC_AND = 0x0, KP_TC_BIC = 0x1, KP_TC_ORR = 0x2, KP_TC_ORN = 0x3,
	KP_TC_EOR = 0x4, KP_TC_ADD = 0x8, KP_TC_ADC = 0xa, KP_TC_SBC = 0xb,
	KP_TC_SUB = 0xd, KP_TC_RSB = 0xe,
};

static nokprobe_inline u32 kp_tc_alu(struct pt_regs *regs, unsigned int op,
				     u32 a, u32 b, u32 sc, bool setflags)
{
	u32 c = kp_tc_carry(regs), res, ac, av;

	switch (op) {
	case KP_TC_AND:
		res = a & b;
		break;
	case KP_TC_BIC:
		res = a & ~b;
		break;
	case KP_TC_ORR:
		res = a | b;
		break;
	case KP_TC_ORN:
		res = a | ~b;
		break;
	case KP_TC_EOR:
		res = a ^ b;
		break;
	case KP_TC_ADD:
		res = kprobe_alu_adc(a, b, 0, &ac, &av);
		goto arith;
	case KP_TC_ADC:
		res = kprobe_alu_adc(a, b, c, &ac, &av);
		goto arith;
	case KP_TC_SBC:
		res = kprobe_alu_adc(a, ~b, c, &ac, &av);
		goto arith;
	case KP_TC_SUB:
		res = kprobe_alu_adc(a, ~b, 1, &ac, &av);
		goto arith;
	default:	/* rsb */
		res = kprobe_alu_adc(b, ~a, 1, &ac, &av);
		goto arith;
	}
	if (setflags)
		kp_tc_flags(regs, res, sc, -1);
	return res;
arith:
	if (setflags)
		kp_tc_flags(regs, res, ac, av);
	return res;
}

/* ---------------------------------------------------------------------
 * 16-bit instructions
 * ---------------------------------------------------------------------
 */

/* mov Rd, Rm with high registers (0100 0110 D Rm Rd): no flags */
static bool kp_tc16_mov_hi(u32 insn, struct pt_regs *regs)
{
	regs->uregs[(insn & 7) | KP_BIT(insn, 7) << 3] =
		regs->uregs[(insn >> 3) & 0xf];
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_mov_hi);

/*
 * add Rdn, Rm (no flags) and cmp Rn, Rm with high registers:
 * 0100 01 op D Rm Rdn, op 00 or 01
 */
static bool kp_tc16_hireg(u32 insn, struct pt_regs *regs)
{
	unsigned int rdn = (insn & 7) | KP_BIT(insn, 7) << 3;
	u32 m = regs->uregs[(insn >> 3) & 0xf];

	if (KP_BIT(insn, 8))
		kp_tc_alu(regs, KP_TC_SUB, regs->uregs[rdn], m, 0, true);
	else
		regs->uregs[rdn] += m;
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_hireg);

/* lsl/lsr/asr Rd, Rm, #imm5 (000 op imm5 Rm Rd, op not 11): N, Z, C */
static bool kp_tc16_shift_imm(u32 insn, struct pt_regs *regs)
{
	u32 c, res;

	res = kp_tc_shift_imm(regs->uregs[KP_T16_R(insn, 3)], (insn >> 11) & 3,
			      (insn >> 6) & 0x1f, kp_tc_carry(regs), &c);
	regs->uregs[KP_T16_R(insn, 0)] = res;
	kp_tc_flags(regs, res, c, -1);
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_shift_imm);

/*
 * adds/subs Rd, Rn, Rm (0001 10 S Rm Rn Rd) and Rd, Rn, #imm3
 * (0001 11 S imm3 Rn Rd): N, Z, C, V
 */
static bool kp_tc16_addsub3(u32 insn, struct pt_regs *regs)
{
	u32 b = KP_T16_R(insn, 6);

	if (!KP_BIT(insn, 10))
		b = regs->uregs[b];
	regs->uregs[KP_T16_R(insn, 0)] =
		kp_tc_alu(regs, KP_BIT(insn, 9) ? KP_TC_SUB : KP_TC_ADD,
			  regs->uregs[KP_T16_R(insn, 3)], b, 0, true);
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_addsub3);

/* movs, cmp, adds, subs Rdn, #imm8: 001 op Rdn imm8 */
static bool kp_tc16_imm8(u32 insn, struct pt_regs *regs)
{
	unsigned long *rdn = &regs->uregs[KP_T16_R(insn, 8)];
	u32 imm = insn & 0xff, res;

	switch ((insn >> 11) & 3) {
	case 0:		/* movs: N, Z */
		*rdn = imm;
		kp_tc_flags(regs, imm, kp_tc_carry(regs), -1);
		break;
	case 1:		/* cmp */
		kp_tc_alu(regs, KP_TC_SUB, *rdn, imm, 0, true);
		break;
	case 2:
		*rdn = kp_tc_alu(regs, KP_TC_ADD, *rdn, imm, 0, true);
		break;
	default:
		res = kp_tc_alu(regs, KP_TC_SUB, *rdn, imm, 0, true);
		*rdn = res;
		break;
	}
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_imm8);

/*
 * The register data-processing group: 0100 00 op4 Rm Rdn, every one
 * flag-setting.  Shifts by a register take the bottom byte of Rm, and
 * keep C when it is 0.
 */
static bool kp_tc16_dp(u32 insn, struct pt_regs *regs)
{
	unsigned int op = (insn >> 6) & 0xf, rdn = KP_T16_R(insn, 0);
	u32 a = regs->uregs[rdn], m = regs->uregs[KP_T16_R(insn, 3)];
	u32 c = kp_tc_carry(regs), res;

	switch (op) {
	case 0x0:	/* ands */
		res = kp_tc_alu(regs, KP_TC_AND, a, m, c, true);
		break;
	case 0x1:	/* eors */
		res = kp_tc_alu(regs, KP_TC_EOR, a, m, c, true);
		break;
	case 0x2:	/* lsls */
	case 0x3:	/* lsrs */
	case 0x4:	/* asrs */
	case 0x7:	/* rors */
		res = a;
		if (m & 0xff)
			res = kprobe_alu_shift(a, op == 0x7 ? KP_ROR : op - 2,
					       m & 0xff, &c);
		kp_tc_flags(regs, res, c, -1);
		break;
	case 0x5:
		res = kp_tc_alu(regs, KP_TC_ADC, a, m, 0, true);
		break;
	case 0x6:
		res = kp_tc_alu(regs, KP_TC_SBC, a, m, 0, true);
		break;
	case 0x8:	/* tst */
		kp_tc_alu(regs, KP_TC_AND, a, m, c, true);
		return true;
	case 0x9:	/* rsbs Rd, Rm, #0 (negs) */
		a = m;
		res = kp_tc_alu(regs, KP_TC_SUB, 0, a, 0, true);
		break;
	case 0xa:	/* cmp */
		kp_tc_alu(regs, KP_TC_SUB, a, m, 0, true);
		return true;
	case 0xb:	/* cmn */
		kp_tc_alu(regs, KP_TC_ADD, a, m, 0, true);
		return true;
	case 0xc:
		res = kp_tc_alu(regs, KP_TC_ORR, a, m, c, true);
		break;
	case 0xd:	/* muls: N, Z */
		res = a * m;
		kp_tc_flags(regs, res, c, -1);
		break;
	case 0xe:
		res = kp_tc_alu(regs, KP_TC_BIC, a, m, c, true);
		break;
	default:	/* mvns */
		res = kp_tc_alu(regs, KP_TC_ORN, 0, m, c, true);
		break;
	}
	regs->uregs[rdn] = res;
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_dp);

/* add/sub sp, sp, #imm7 * 4: 1011 0000 S imm7 */
static bool kp_tc16_sp_imm(u32 insn, struct pt_regs *regs)
{
	u32 imm = (insn & 0x7f) * 4;

	if (KP_BIT(insn, 7))
		regs->ARM_sp -= imm;
	else
		regs->ARM_sp += imm;
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_sp_imm);

/*
 * sxth, sxtb, uxth, uxtb (1011 0010 op Rm Rd), rev, rev16, revsh
 * (1011 1010 op Rm Rd; op 10 is refused by the decoder)
 */
static bool kp_tc16_extend(u32 insn, struct pt_regs *regs)
{
	u32 m = regs->uregs[KP_T16_R(insn, 3)], res;

	switch ((insn >> 6) & 0x23) {
	case 0x00:
		res = (u32)(s16)m;
		break;
	case 0x01:
		res = (u32)(s8)m;
		break;
	case 0x02:
		res = (u16)m;
		break;
	case 0x03:
		res = (u8)m;
		break;
	case 0x20:
		res = swab32(m);
		break;
	case 0x21:
		res = ((m >> 8) & 0x00ff00ff) | ((m << 8) & 0xff00ff00);
		break;
	default:
		res = (u32)(s16)swab16(m);
		break;
	}
	regs->uregs[KP_T16_R(insn, 0)] = res;
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_extend);

/*
 * ldr/str of each size: Rt, [Rn, Rm] (0101 op3 Rm Rn Rt), Rt, [Rn, #imm5]
 * (011 B L imm5 Rn Rt; 1000 L imm5 Rn Rt for halfwords) and
 * Rt, [sp, #imm8 * 4] (1001 L Rt imm8).  No write-back.
 */
static bool kp_tc16_ldrstr(u32 insn, struct pt_regs *regs)
{
	/* 0101's op3: size, sign and direction */
	static const u8 reg_size[8] = { 4, 2, 1, 1, 4, 2, 1, 2 };
	unsigned int rt = KP_T16_R(insn, 0), size, op;
	unsigned long addr;
	bool load, sign = false;

	switch (insn >> 12) {
	case 0x5:
		op = (insn >> 9) & 7;
		size = reg_size[op];
		load = op >= 3;
		sign = op == 3 || op == 7;
		addr = regs->uregs[KP_T16_R(insn, 3)] +
		       regs->uregs[KP_T16_R(insn, 6)];
		break;
	case 0x9:
		rt = KP_T16_R(insn, 8);
		size = 4;
		load = KP_BIT(insn, 11);
		addr = regs->ARM_sp + (insn & 0xff) * 4;
		break;
	default:
		/* 0110 word, 0111 byte, 1000 halfword */
		size = (insn >> 12) == 0x6 ? 4 : (insn >> 12) == 0x7 ? 1 : 2;
		load = KP_BIT(insn, 11);
		addr = regs->uregs[KP_T16_R(insn, 3)] +
		       ((insn >> 6) & 0x1f) * size;
		break;
	}
	return kp_tc_single(regs, load, size, sign, rt, addr, 0, false, 0);
}

NOKPROBE_SYMBOL(kp_tc16_ldrstr);

/*
 * push {list, lr} (1011 010 M list), pop {list} (1011 110 0 list),
 * stmia Rn!, {list} (1100 0 Rn list) and ldmia Rn{!}, {list}
 * (1100 1 Rn list: write-back unless Rn is in the list)
 */
static bool kp_tc16_ldmstm(u32 insn, struct pt_regs *regs)
{
	unsigned int list = insn & 0xff, rn = KP_T16_R(insn, 8), n;
	bool load = KP_BIT(insn, 11), wback = true;
	unsigned long base, start, end;

	if ((insn & 0xf000) == 0xb000) {
		rn = 13;
		if (!load && KP_BIT(insn, 8))
			list |= BIT(14);
	} else if (load && (list & BIT(rn))) {
		wback = false;
	}
	n = kprobe_list_count(list);
	base = regs->uregs[rn];
	end = base + 4 * n;
	start = rn == 13 && !load ? base - 4 * n : base;
	if (!kp_tc_multiple(regs, load, list, n, start))
		return false;
	if (wback)
		regs->uregs[rn] = start == base ? end : start;
	return true;
}

NOKPROBE_SYMBOL(kp_tc16_ldmstm);

/* ---------------------------------------------------------------------
 * 32-bit instructions (first halfword in the upper half)
 * ---------------------------------------------------------------------
 */

/*
 * The modified immediate i:imm3:imm8 (ThumbExpandImm_C): a byte, repeated
 * in one of three patterns, or 1bcdefgh rotated, which sets the carry.
 */
static nokprobe_inline u32 kp_tc32_expand_imm(u32 insn, u32 c, u32 *carry)
{
	u32 imm12 = KP_BIT(insn, 26) << 11 | ((insn >> 12) & 7) << 8 |
		    (insn & 0xff);
	u32 byte = imm12 & 0xff, v;

	*carry = c;
	if (imm12 & 0xc00) {
		v = ror32(0x80 | (imm12 & 0x7f), imm12 >> 7);
		*carry = v >> 31;
		return v;
	}
	switch (imm12 >> 8) {
	case 0:
		return byte;
	case 1:
		return byte << 16 | byte;
	case 2:
		return byte << 24 | byte << 8;
	default:
		return byte * 0x01010101;
	}
}

/*
 * Data processing, both 32-bit forms: the opcode in bits 24:21, S in 20,
 * Rn in 19:16 (the pc: mov/mvn, which read it as 0), Rd in 11:8 (the pc:
 * tst/teq/cmn/cmp, which write only the flags).
 */
static nokprobe_inline void kp_tc32_dp(u32 insn, struct pt_regs *regs,
				       u32 b, u32 sc)
{
	unsigned int rn = KP_RN(insn), rd = (insn >> 8) & 0xf;
	u32 a = rn == KP_PC ? 0 : regs->uregs[rn];
	u32 res = kp_tc_alu(regs, (insn >> 21) & 0xf, a, b, sc,
			    KP_BIT(insn, 20));

	if (rd != KP_PC)
		regs->uregs[rd] = res;
}

/* ... with a modified immediate: 11110 i 0 op S Rn 0 imm3 Rd imm8 */
static bool kp_tc32_dp_imm(u32 insn, struct pt_regs *regs)
{
	u32 sc, b = kp_tc32_expand_imm(insn, kp_tc_carry(regs), &sc);

	kp_tc32_dp(insn, regs, b, sc);
	return true;
}

NOKPROBE_SYMBOL(kp_tc32_dp_imm);

/*
 * ... with a shifted register: 1110101 op S Rn 0 imm3 Rd imm2 type Rm
 * (mov.w Rd, Rm is orr with Rn the pc)
 */
static bool kp_tc32_dp_reg(u32 insn, struct pt_regs *regs)
{
	unsigned int n = ((insn >> 12) & 7) << 2 | ((insn >> 6) & 3);
	u32 sc, b;

	b = kp_tc_shift_imm(regs->uregs[insn & 0xf], (insn >> 4) & 3, n,
			    kp_tc_carry(regs), &sc);
	kp_tc32_dp(insn, regs, b, sc);
	return true;
}

NOKPROBE_SYMBOL(kp_tc32_dp_reg);

/*
 * addw, subw Rd, Rn, #imm12 (11110 i 10 0 0 0 0 Rn / 1010 Rn) and movw,
 * movt Rd, #imm16 (11110 i 10 0 1 0 0 imm4 / 1100 imm4): no flags
 */
static bool kp_tc32_plain_imm(u32 insn, struct pt_regs *regs)
{
	u32 imm = KP_BIT(insn, 26) << 11 | ((insn >> 12) & 7) << 8 |
		  (insn & 0xff);
	unsigned long *rd = &regs->uregs[(insn >> 8) & 0xf];

	switch ((insn >> 20) & 0x1f) {
	case 0x00:
		*rd = regs->uregs[KP_RN(insn)] + imm;
		break;
	case 0x0a:
		*rd = regs->uregs[KP_RN(insn)] - imm;
		break;
	case 0x04:
		*rd = KP_RN(insn) << 12 | imm;
		break;
	default:	/* movt */
		*rd = (*rd & 0xffff) | (KP_RN(insn) << 12 | imm) << 16;
		break;
	}
	return true;
}

NOKPROBE_SYMBOL(kp_tc32_plain_imm);

/*
 * ldr/str of each size, 1111100 S U size L Rn Rt ...: U set, #imm12
 * added; U clear, 1 P U W imm8 (P clear: post-indexed) or 000000 imm2 Rm
 * (Rm shifted left by imm2).  S: the load sign-extends.
 */
static bool kp_tc32_ldrstr(u32 insn, struct pt_regs *regs)
{
	unsigned int rn = KP_RN(insn), size = 1U << ((insn >> 21) & 3);
	unsigned long base = regs->uregs[rn], addr, off;
	bool pre = true, wback = false;

	if (KP_BIT(insn, 23)) {
		addr = base + (insn & 0xfff);
		off = addr;
	} else if (KP_BIT(insn, 11)) {
		off = KP_BIT(insn, 9) ? base + (insn & 0xff) :
					base - (insn & 0xff);
		pre = KP_BIT(insn, 10);
		wback = KP_BIT(insn, 8);
		addr = pre ? off : base;
	} else {
		addr = base + (regs->uregs[insn & 0xf] << ((insn >> 4) & 3));
		off = addr;
	}
	return kp_tc_single(regs, KP_BIT(insn, 20), size, KP_BIT(insn, 24),
			    KP_RD(insn), addr, rn, wback, off);
}

NOKPROBE_SYMBOL(kp_tc32_ldrstr);

/*
 * ldm/stm.w, increment after (1110 1000 10 W L Rn) or decrement before
 * (1110 1001 00 W L Rn): push.w is stmdb sp!, pop.w ldmia sp!
 */
static bool kp_tc32_ldmstm(u32 insn, struct pt_regs *regs)
{
	unsigned int list = insn & 0xffff, n = kprobe_list_count(list);
	unsigned long base = regs->uregs[KP_RN(insn)];

	if (!kp_tc_multiple(regs, KP_BIT(insn, 20), list, n,
			    kprobe_ldmstm_start(insn, base, n)))
		return false;
	if (KP_BIT(insn, 21))
		regs->uregs[KP_RN(insn)] = KP_BIT(insn, 23) ? base + 4 * n :
							      base - 4 * n;
	return true;
}

NOKPROBE_SYMBOL(kp_tc32_ldmstm);

/* ---------------------------------------------------------------------
 * Picking
 * ---------------------------------------------------------------------
 */

static kprobe_arm_compute_t *kp_tc16_pick(u32 insn)
{
	switch (insn >> 12) {
	case 0x0:
	case 0x1:
		if ((insn & 0x1800) == 0x1800)
			return kp_tc16_addsub3;
		return kp_tc16_shift_imm;
	case 0x2:
	case 0x3:
		return kp_tc16_imm8;
	case 0x4:
		if ((insn & 0xfc00) == 0x4000)
			return kp_tc16_dp;
		if ((insn & 0xff00) == 0x4600)
			return kp_tc16_mov_hi;
		if ((insn & 0xfe00) == 0x4400)
			return kp_tc16_hireg;
		return NULL;	/* bx/blx, literal loads: simulated */
	case 0x5:
	case 0x6:
	case 0x7:
	case 0x8:
	case 0x9:
		return kp_tc16_ldrstr;
	case 0xb:
		if ((insn & 0xff00) == 0xb000)
			return kp_tc16_sp_imm;
		if ((insn & 0xff00) == 0xb200 || (insn & 0xff00) == 0xba00)
			return kp_tc16_extend;
		if ((insn & 0xfe00) == 0xb400 || (insn & 0xff00) == 0xbc00)
			return kp_tc16_ldmstm;
		return NULL;
	case 0xc:
		/* stmia Rn! with Rn in the list: unpredictable but first */
		if (!KP_BIT(insn, 11) && (insn & BIT(KP_T16_R(insn, 8))))
			return NULL;
		return kp_tc16_ldmstm;
	default:
		return NULL;
	}
}

/* Data-processing opcodes (bits 24:21) computed; pkh (0110) is not. */
#define KP_TC32_DP_OPS	(BIT(KP_TC_AND) | BIT(KP_TC_BIC) | BIT(KP_TC_ORR) | \
			 BIT(KP_TC_ORN) | BIT(KP_TC_EOR) | BIT(KP_TC_ADD) | \
			 BIT(KP_TC_ADC) | BIT(KP_TC_SBC) | BIT(KP_TC_SUB) | \
			 BIT(KP_TC_RSB))

static kprobe_arm_compute_t *kp_tc32_pick_dp(u32 insn,
					     kprobe_arm_compute_t *fn)
{
	unsigned int op = (insn >> 21) & 0xf;

	if (!(KP_TC32_DP_OPS & BIT(op)))
		return NULL;
	/* Rn = pc: only mov/mvn (orr/orn) */
	if (KP_RN(insn) == KP_PC && op != KP_TC_ORR && op != KP_TC_ORN)
		return NULL;
	/* Rd = pc: only tst, teq, cmn, cmp */
	if (((insn >> 8) & 0xf) == KP_PC &&
	    (!KP_BIT(insn, 20) || (op != KP_TC_AND && op != KP_TC_EOR &&
				   op != KP_TC_ADD && op != KP_TC_SUB)))
		return NULL;
	return fn;
}

static kprobe_arm_compute_t *kp_tc32_pick(u32 insn)
{
	unsigned int rt = KP_RD(insn), rn = KP_RN(insn);
	bool wback;

	if ((insn & 0xfe000000) == 0xea000000)
		return kp_tc32_pick_dp(insn, kp_tc32_dp_reg);
	if ((insn & 0xfa008000) == 0xf0000000)
		return kp_tc32_pick_dp(insn, kp_tc32_dp_imm);
	if ((insn & 0xfb008000) == 0xf2000000) {
		switch ((insn >> 20) & 0x1f) {
		case 0x00:
		case 0x0a:
			return rn == KP_PC ? NULL : kp_tc32_plain_imm;
		case 0x04:
		case 0x0c:
			return kp_tc32_plain_imm;
		}
		return NULL;
	}
	if ((insn & 0xfe000000) == 0xf8000000) {
		/* not literal, not a doubleword, not a store with S */
		if (rn == KP_PC || rt == KP_PC || ((insn >> 21) & 3) == 3 ||
		    (KP_BIT(insn, 24) && !KP_BIT(insn, 20)))
			return NULL;
		if (KP_BIT(insn, 23))
			return kp_tc32_ldrstr;
		if (KP_BIT(insn, 11)) {
			/* 1 P U W: P clear is post-indexed, with write-back */
			if (!KP_BIT(insn, 10) && !KP_BIT(insn, 8))
				return NULL;
			wback = KP_BIT(insn, 8) || !KP_BIT(insn, 10);
			if ((insn & 0xf00) == 0xe00 || (wback && rn == rt))
				return NULL;
			return kp_tc32_ldrstr;
		}
		return (insn & 0xfc0) ? NULL : kp_tc32_ldrstr;
	}
	if ((insn & 0xfe400000) == 0xe8000000 &&
	    ((insn >> 23) & 3) != 0 && ((insn >> 23) & 3) != 3 &&
	    !(insn & BIT(KP_PC)))
		return kp_tc32_ldmstm;
	return NULL;
}

/**
 * kprobe_thumb_compute_pick() - the computation of a stepped instruction
 * @insn: the instruction, as kprobe_arch_specific_insn::insn holds it
 * @size: 2 or 4
 *
 * Called for what thumb.c's decoder accepted for a slot, outside IT
 * blocks and exception-table sites.
 *
 * Return: the function that computes @insn in the trap, or NULL (the
 * copy runs from the slot).
 */
kprobe_arm_compute_t *kprobe_thumb_compute_pick(u32 insn, unsigned int size)
{
	return size == 2 ? kp_tc16_pick(insn) : kp_tc32_pick(insn);
}
