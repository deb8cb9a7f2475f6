// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes: register loads, computed.
 *
 * The loads that only read general registers or an immediate and write
 * one general register, without touching the condition code or memory,
 * are computed in the trap instead of stepped from the slot, which saves
 * the second operation exception (the breakpoint after the copy):
 *
 *   lr, lgr, lgfr, llgfr     register to register, 32 or 64 bits
 *   la, lay                  an address (64-bit addressing mode: the
 *                            kernel's), index and base 0 standing for 0
 *   lhi, lghi                a signed 16-bit immediate
 *
 * lr and lhi write the low word only, as the CPU does.  Like a branch's,
 * the computation reads the copy in the slot.
 */
#include "s390-kprobes.h"

/* The instruction's fields (RR, RRE, RX(Y), RI formats). */
#define KM_OP(in)	((in)[0] >> 8)
#define KM_R1(in)	(((in)[0] >> 4) & 0xf)
#define KM_X2(in)	((in)[0] & 0xf)
#define KM_B2(in)	((in)[1] >> 12)
#define KM_D12(in)	((in)[1] & 0xfff)

/* A register as an address component: register 0 stands for zero. */
static nokprobe_inline u64 km_addr_reg(const struct pt_regs *regs,
				       unsigned int r)
{
	return r ? regs->gprs[r] : 0;
}

/* Write the low word of @r1, keeping the high one. */
static nokprobe_inline void km_set_low(struct pt_regs *regs, unsigned int r1,
				       u32 v)
{
	regs->gprs[r1] = (regs->gprs[r1] & ~0xffffffffUL) | v;
}

/* The 20-bit signed displacement of an RXY instruction. */
static nokprobe_inline s64 km_d20(const u16 *in)
{
	u32 d = ((u32)(in[2] >> 8) << 12) | KM_D12(in);

	return (s64)((s32)(d << 12) >> 12);
}

/**
 * kprobe_move() - compute a register load, or tell whether it is one
 * @in: the instruction (the slot's copy)
 * @regs: the registers to update; NULL only asks
 *
 * The pc is not moved.
 *
 * Return: true for the loads of the file comment (computed when @regs),
 * false for any other instruction.
 */
bool kprobe_move(const u16 *in, struct pt_regs *regs)
{
	unsigned int r1 = KM_R1(in);
	u64 v;

	switch (KM_OP(in)) {
	case 0x18:	/* lr */
		if (regs)
			km_set_low(regs, r1, regs->gprs[in[0] & 0xf]);
		return true;
	case 0x41:	/* la */
		if (regs)
			regs->gprs[r1] = KM_D12(in) + km_addr_reg(regs, KM_X2(in)) +
					 km_addr_reg(regs, KM_B2(in));
		return true;
	case 0xe3:	/* RXY: lay */
		if ((in[2] & 0xff) != 0x71)
			return false;
		if (regs)
			regs->gprs[r1] = km_d20(in) + km_addr_reg(regs, KM_X2(in)) +
					 km_addr_reg(regs, KM_B2(in));
		return true;
	case 0xa7:	/* RI: lhi, lghi */
		if ((in[0] & 0xf) == 0x8) {
			if (regs)
				km_set_low(regs, r1, (s32)(s16)in[1]);
			return true;
		}
		if ((in[0] & 0xf) == 0x9) {
			if (regs)
				regs->gprs[r1] = (s64)(s16)in[1];
			return true;
		}
		return false;
	case 0xb9:	/* RRE: lgr, lgfr, llgfr */
		r1 = (in[1] >> 4) & 0xf;
		if (!regs)
			return in[0] == 0xb904 || in[0] == 0xb914 || in[0] == 0xb916;
		v = regs->gprs[in[1] & 0xf];
		switch (in[0]) {
		case 0xb904:	/* lgr */
			break;
		case 0xb914:	/* lgfr */
			v = (s64)(s32)v;
			break;
		case 0xb916:	/* llgfr */
			v = (u32)v;
			break;
		default:
			return false;
		}
		regs->gprs[r1] = v;
		return true;
	}
	return false;
}

NOKPROBE_SYMBOL(kprobe_move);
