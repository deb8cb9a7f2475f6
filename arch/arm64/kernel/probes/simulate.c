// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes: instructions computed in the breakpoint handler.
 *
 * A probed instruction run from a slot costs a second exception, the BRK
 * after the copy.  The common register-only instructions cost nothing to
 * compute from pt_regs instead, and their hit then takes one exception:
 *
 *   NOP, BTI        nothing but the pc (the BRK already stood in for them)
 *   MOV (register)  ORR Rd, ZR, Rm without shift
 *   MOVZ/MOVN/MOVK  a 16-bit immediate at a 16-bit position
 *   ADD/SUB (imm)   without flags, SP allowed as the source
 *
 * Each of these reads only general-purpose registers, SP or its own
 * immediate, and writes one general-purpose register.  Left to the slot:
 * anything that sets flags, reads or writes memory, writes SP (an EL1
 * exception returns with SP at the top of its frame, so regs->sp is not
 * restored), or involves the pc (simulate-insn.c handles those).  A
 * 32-bit form writes its register zero-extended.
 *
 * Context: hit (the breakpoint handler, interrupts masked).
 */
#include "arm64-kprobes.h"

#include <linux/bits.h>
#include <asm/insn.h>

#define KPROBE_A64_SF		BIT(31)		/* 64-bit form */
#define KPROBE_A64_ADDSUB_MASK	0x7f800000U	/* op, S, 100010 */
#define KPROBE_A64_ADD_IMM	0x11000000U
#define KPROBE_A64_SUB_IMM	0x51000000U
#define KPROBE_A64_ADDSUB_SH	BIT(22)		/* imm12 << 12 */
#define KPROBE_A64_REG_SP	31		/* Rn of ADD/SUB (imm) */

/*
 * The fields, taken apart here rather than by the aarch64_insn_decode_*()
 * helpers, which are not NOKPROBE_SYMBOL()s.
 */
#define KPROBE_A64_RD(insn)	((insn) & 0x1f)
#define KPROBE_A64_RN(insn)	(((insn) >> 5) & 0x1f)
#define KPROBE_A64_RM(insn)	(((insn) >> 16) & 0x1f)
#define KPROBE_A64_IMM16(insn)	(((insn) >> 5) & 0xffff)
#define KPROBE_A64_HW(insn)	(((insn) >> 21) & 3)
#define KPROBE_A64_IMM12(insn)	(((insn) >> 10) & 0xfff)

static nokprobe_inline void kprobe_a64_next(long addr, struct pt_regs *regs)
{
	instruction_pointer_set(regs, addr + AARCH64_INSN_SIZE);
}

/* Write Rd of @insn, zero-extended for a 32-bit form; XZR drops it. */
static nokprobe_inline void kprobe_a64_set_rd(u32 insn, struct pt_regs *regs,
					      u64 val)
{
	if (!(insn & KPROBE_A64_SF))
		val = lower_32_bits(val);
	pt_regs_write_reg(regs, KPROBE_A64_RD(insn), val);
}

static void kprobe_sim_nop(u32 insn, long addr, struct pt_regs *regs)
{
	kprobe_a64_next(addr, regs);
}
NOKPROBE_SYMBOL(kprobe_sim_nop);

static void kprobe_sim_mov_reg(u32 insn, long addr, struct pt_regs *regs)
{
	/* Register 31 is XZR here, which pt_regs_read_reg() reads as 0. */
	kprobe_a64_set_rd(insn, regs,
			  pt_regs_read_reg(regs, KPROBE_A64_RM(insn)));
	kprobe_a64_next(addr, regs);
}
NOKPROBE_SYMBOL(kprobe_sim_mov_reg);

static void kprobe_sim_mov_wide(u32 insn, long addr, struct pt_regs *regs)
{
	unsigned int shift = KPROBE_A64_HW(insn) * 16;
	u64 imm = (u64)KPROBE_A64_IMM16(insn) << shift;
	u64 val;

	if (aarch64_insn_is_movz(insn))
		val = imm;
	else if (aarch64_insn_is_movn(insn))
		val = ~imm;
	else	/* movk: the other bits of Rd stay */
		val = (pt_regs_read_reg(regs, KPROBE_A64_RD(insn)) &
		       ~(0xffffULL << shift)) | imm;
	kprobe_a64_set_rd(insn, regs, val);
	kprobe_a64_next(addr, regs);
}
NOKPROBE_SYMBOL(kprobe_sim_mov_wide);

static void kprobe_sim_addsub_imm(u32 insn, long addr, struct pt_regs *regs)
{
	unsigned int rn = KPROBE_A64_RN(insn);
	u64 imm = KPROBE_A64_IMM12(insn);
	u64 src;

	if (insn & KPROBE_A64_ADDSUB_SH)
		imm <<= 12;
	src = rn == KPROBE_A64_REG_SP ? regs->sp : pt_regs_read_reg(regs, rn);
	if ((insn & KPROBE_A64_ADDSUB_MASK) == KPROBE_A64_SUB_IMM)
		imm = -imm;
	kprobe_a64_set_rd(insn, regs, src + imm);
	kprobe_a64_next(addr, regs);
}
NOKPROBE_SYMBOL(kprobe_sim_addsub_imm);

/* The hints whose whole effect, once a BRK replaced them, is done. */
static bool kprobe_a64_is_nop_hint(u32 insn)
{
	if (!aarch64_insn_is_hint(insn))
		return false;
	switch (insn & 0xfe0) {
	case AARCH64_INSN_HINT_NOP:
	case AARCH64_INSN_HINT_BTI:
	case AARCH64_INSN_HINT_BTIC:
	case AARCH64_INSN_HINT_BTIJ:
	case AARCH64_INSN_HINT_BTIJC:
		return true;
	}
	return false;
}

/**
 * kprobe_a64_register_sim() - the simulation of a register-only instruction
 * @insn: the probed instruction
 *
 * Context: locked (preparing a site).
 * Return: the routine that computes @insn in the breakpoint handler, or
 * NULL when @insn is not one of the kinds above.
 */
probes_handler_t *kprobe_a64_register_sim(u32 insn)
{
	if (kprobe_a64_is_nop_hint(insn))
		return kprobe_sim_nop;
	if (aarch64_insn_is_mov_reg(insn))
		return kprobe_sim_mov_reg;
	/* hw 2 and 3 are unallocated in the 32-bit forms */
	if ((aarch64_insn_is_movz(insn) || aarch64_insn_is_movn(insn) ||
	     aarch64_insn_is_movk(insn)) &&
	    ((insn & KPROBE_A64_SF) || KPROBE_A64_HW(insn) < 2))
		return kprobe_sim_mov_wide;
	/* Rd 31 is SP here: not written through pt_regs (see above) */
	if (((insn & KPROBE_A64_ADDSUB_MASK) == KPROBE_A64_ADD_IMM ||
	     (insn & KPROBE_A64_ADDSUB_MASK) == KPROBE_A64_SUB_IMM) &&
	    KPROBE_A64_RD(insn) != KPROBE_A64_REG_SP)
		return kprobe_sim_addsub_imm;
	return NULL;
}
