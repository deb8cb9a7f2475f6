// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sh kprobes: what a hit does with each instruction, and the parts of a
 * hit that compute an instruction instead of running it.
 *
 * Every SH-4 instruction is one 16-bit word; the fields used here are
 * the top nibble (the major opcode), n (bits 8..11, a destination or
 * the register a jump reads) and the low byte or twelve bits of
 * displacement.  A pc-relative operand is relative to the instruction's
 * address plus 4 (for long-word accesses, with the low two bits of that
 * address cleared), which a copy in a slot would get wrong: those are
 * computed.  So are bt and bf, whose target is pc-relative too.
 *
 * The delayed branches are decided in the trap.  Their target and the
 * link (PR of bsr, bsrf, jsr) come from the registers as the probe found
 * them, as the CPU reads them before it runs the delay slot; the
 * delay-slot instruction then runs from the slot, no longer in a delay
 * slot, which makes no difference to anything but a pc-relative
 * operand (refused there) and to what may not sit in a delay slot at all
 * (a branch or trapa: an illegal slot instruction the compiler never
 * emits).  bt/s and bf/s not taken just go on with the next word, their
 * delay slot included.
 */
#include "sh-kprobes.h"

#include <linux/bits.h>
#include <linux/errno.h>

#define SH_N(insn)		(((insn) >> 8) & 0xf)
#define SH_DISP8(insn)		((s32)(s8)((insn) & 0xff))
#define SH_DISP12(insn)		(sign_extend32((insn) & 0xfff, 11))

/* Delayed branches (each has a delay slot). */
#define SH_IS_BRA(i)	(((i) & 0xf000) == 0xa000)	/* bra disp */
#define SH_IS_BSR(i)	(((i) & 0xf000) == 0xb000)	/* bsr disp */
#define SH_IS_BRAF(i)	(((i) & 0xf0ff) == 0x0023)	/* braf Rn */
#define SH_IS_BSRF(i)	(((i) & 0xf0ff) == 0x0003)	/* bsrf Rn */
#define SH_IS_JMP(i)	(((i) & 0xf0ff) == 0x402b)	/* jmp @Rn */
#define SH_IS_JSR(i)	(((i) & 0xf0ff) == 0x400b)	/* jsr @Rn */
#define SH_IS_RTS(i)	((i) == 0x000b)			/* rts */
#define SH_IS_RTE(i)	((i) == 0x002b)			/* rte */
#define SH_IS_BTS(i)	(((i) & 0xff00) == 0x8d00)	/* bt/s disp */
#define SH_IS_BFS(i)	(((i) & 0xff00) == 0x8f00)	/* bf/s disp */

/* Conditional branches without a delay slot. */
#define SH_IS_BT(i)	(((i) & 0xff00) == 0x8900)	/* bt disp */
#define SH_IS_BF(i)	(((i) & 0xff00) == 0x8b00)	/* bf disp */

/* Operands relative to the pc. */
#define SH_IS_MOVW_PC(i)	(((i) & 0xf000) == 0x9000) /* mov.w @(d,PC),Rn */
#define SH_IS_MOVL_PC(i)	(((i) & 0xf000) == 0xd000) /* mov.l @(d,PC),Rn */
#define SH_IS_MOVA(i)		(((i) & 0xff00) == 0xc700) /* mova @(d,PC),R0 */

/* Status register and the rest. */
#define SH_IS_STC_SR(i)		(((i) & 0xf0ff) == 0x0002) /* stc SR,Rn */
#define SH_IS_STCL_SR(i)	(((i) & 0xf0ff) == 0x4003) /* stc.l SR,@-Rn */
#define SH_IS_LDC_SR(i)		(((i) & 0xf0ff) == 0x400e) /* ldc Rm,SR */
#define SH_IS_LDCL_SR(i)	(((i) & 0xf0ff) == 0x4007) /* ldc.l @Rm+,SR */
#define SH_IS_TRAPA(i)		(((i) & 0xff00) == 0xc300) /* trapa #imm */
#define SH_IS_SLEEP(i)		((i) == 0x001b)		   /* sleep */
#define SH_IS_MOVLI(i)		(((i) & 0xf0ff) == 0x0063) /* movli.l @Rm,R0 */
#define SH_IS_MOVCO(i)		(((i) & 0xf0ff) == 0x0073) /* movco.l R0,@Rn */
#define SH_NOP			0x0009

/**
 * kprobe_sh_has_delay_slot() - is @insn a delayed branch
 * @insn: an instruction
 *
 * Return: true for bra, bsr, braf, bsrf, jmp, jsr, rts, rte, bt/s, bf/s.
 */
bool kprobe_sh_has_delay_slot(u16 insn)
{
	return SH_IS_BRA(insn) || SH_IS_BSR(insn) || SH_IS_BRAF(insn) ||
	       SH_IS_BSRF(insn) || SH_IS_JMP(insn) || SH_IS_JSR(insn) ||
	       SH_IS_RTS(insn) || SH_IS_RTE(insn) || SH_IS_BTS(insn) ||
	       SH_IS_BFS(insn);
}

/**
 * kprobe_sh_is_movli() - does @insn open an SH-4A load-linked sequence
 * @insn: an instruction
 *
 * Return: true for movli.l.
 */
bool kprobe_sh_is_movli(u16 insn)
{
	return SH_IS_MOVLI(insn);
}

/**
 * kprobe_sh_is_movco() - does @insn close an SH-4A load-linked sequence
 * @insn: an instruction
 *
 * Return: true for movco.l.
 */
bool kprobe_sh_is_movco(u16 insn)
{
	return SH_IS_MOVCO(insn);
}

/*
 * Does @insn read or write what the trap between the copy and its end
 * overwrites: SSR, SPC, SGR, DBR, the banked r0 - r7 of the exception
 * handlers?  stc/stc.l/ldc/ldc.l of control register c are 0000 nnnn
 * cccc 0010, 0100 nnnn cccc 0011, 0100 mmmm cccc 1110, 0100 mmmm cccc
 * 0111; SR (c = 0) is handled apart, GBR and VBR (1, 2) are safe.
 */
static bool kprobe_sh_exception_reg(u16 insn)
{
	unsigned int form = insn & 0xf00f, cr = (insn >> 4) & 0xf;

	switch (insn & 0xf0ff) {
	case 0x003a:	/* stc SGR,Rn */
	case 0x4032:	/* stc.l SGR,@-Rn */
	case 0x00fa:	/* stc DBR,Rn */
	case 0x40f2:	/* stc.l DBR,@-Rn */
	case 0x40fa:	/* ldc Rm,DBR */
	case 0x40f6:	/* ldc.l @Rm+,DBR */
		return true;
	}
	if (form != 0x0002 && form != 0x4003 && form != 0x400e &&
	    form != 0x4007)
		return false;
	return cr == 3 || cr == 4 || cr >= 8;
}

/* Why @insn cannot run from a slot at all, or NULL. */
static const char *kprobe_sh_unsteppable(u16 insn)
{
	if (kprobe_sh_exception_reg(insn))
		return "uses SSR, SPC, SGR, DBR or a banked register, which the trap overwrites";
	if (SH_IS_RTE(insn))
		return "rte returns from an exception";
	if (SH_IS_TRAPA(insn))
		return "a trapa instruction";
	if (SH_IS_SLEEP(insn))
		return "sleep would wait with interrupts masked";
	if (SH_IS_LDC_SR(insn) || SH_IS_LDCL_SR(insn))
		return "writes SR, whose interrupt mask the step sets";
	if (SH_IS_STCL_SR(insn))
		return "stores SR, whose interrupt mask the step sets";
	if (SH_IS_MOVLI(insn) || SH_IS_MOVCO(insn))
		return "a movli.l/movco.l, which a trap in between always fails";
	return NULL;
}

/* Does @insn read the pc (computed rather than stepped)? */
static bool kprobe_sh_pc_relative(u16 insn)
{
	return SH_IS_MOVW_PC(insn) || SH_IS_MOVL_PC(insn) || SH_IS_MOVA(insn);
}

/**
 * kprobe_sh_decode() - how a hit runs @insn
 * @insn: the probed instruction
 * @delay: the instruction after it, its delay slot if it is a delayed
 *	branch (not read otherwise)
 * @ai: filled: kind, insn, delay
 * @why: the reason for a refusal
 *
 * Context: locked; pure.
 * Return: 0, or -EILSEQ with *@why set.
 */
int kprobe_sh_decode(u16 insn, u16 delay, struct arch_specific_insn *ai,
		     const char **why)
{
	ai->insn = insn;
	ai->delay = 0;

	if (kprobe_sh_has_delay_slot(insn)) {
		if (SH_IS_RTE(insn)) {
			*why = "rte returns from an exception";
			return -EILSEQ;
		}
		if (kprobe_sh_has_delay_slot(delay) || SH_IS_BT(delay) ||
		    SH_IS_BF(delay) || SH_IS_TRAPA(delay)) {
			*why = "a branch's delay slot holds an illegal slot instruction";
			return -EILSEQ;
		}
		if (kprobe_sh_pc_relative(delay)) {
			*why = "a pc-relative instruction in the delay slot";
			return -EILSEQ;
		}
		if (SH_IS_STC_SR(delay)) {
			*why = "stc SR in the delay slot";
			return -EILSEQ;
		}
		*why = kprobe_sh_unsteppable(delay);
		if (*why)
			return -EILSEQ;
		ai->delay = delay;
		ai->kind = delay == SH_NOP ? KPROBE_SH_BRANCH :
					     KPROBE_SH_BRANCH_STEP;
		return 0;
	}

	if (SH_IS_BT(insn) || SH_IS_BF(insn) || kprobe_sh_pc_relative(insn) ||
	    SH_IS_STC_SR(insn)) {
		ai->kind = KPROBE_SH_SIMULATE;
		return 0;
	}

	*why = kprobe_sh_unsteppable(insn);
	if (*why)
		return -EILSEQ;
	ai->kind = KPROBE_SH_STEP;
	return 0;
}

/* Is SR.T set in @regs? */
static nokprobe_inline bool kprobe_sh_t(const struct pt_regs *regs)
{
	return regs->sr & BIT(0);
}

/**
 * kprobe_sh_branch() - decide the delayed branch at @p
 * @p: a site of kind KPROBE_SH_BRANCH or KPROBE_SH_BRANCH_STEP
 * @regs: the registers at the probe; pc and, for bsr, bsrf and jsr,
 *	PR are left as the branch leaves them
 *
 * Context: hit.
 * Return: whether the delay-slot instruction is to run from the slot: a
 * branch of kind KPROBE_SH_BRANCH_STEP, taken (bt/s and bf/s not taken go
 * on with the word after them, which is then no delay slot).
 */
bool kprobe_sh_branch(const struct kprobe_hit_site *p, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long next = addr + 4;	/* the pc branches are relative to */
	u16 insn = p->ainsn.insn;
	unsigned long target;

	if (SH_IS_BRA(insn) || SH_IS_BSR(insn)) {
		target = next + 2 * SH_DISP12(insn);
	} else if (SH_IS_BRAF(insn) || SH_IS_BSRF(insn)) {
		target = next + regs->regs[SH_N(insn)];
	} else if (SH_IS_JMP(insn) || SH_IS_JSR(insn)) {
		target = regs->regs[SH_N(insn)];
	} else if (SH_IS_RTS(insn)) {
		target = regs->pr;
	} else {
		/* bt/s, bf/s */
		if (kprobe_sh_t(regs) != SH_IS_BTS(insn)) {
			regs->pc = addr + 2;
			return false;
		}
		target = next + 2 * SH_DISP8(insn);
	}

	if (SH_IS_BSR(insn) || SH_IS_BSRF(insn) || SH_IS_JSR(insn))
		regs->pr = next;
	regs->pc = target;
	return p->ainsn.kind == KPROBE_SH_BRANCH_STEP;
}

NOKPROBE_SYMBOL(kprobe_sh_branch);

/**
 * kprobe_sh_simulate() - compute the instruction at @p
 * @p: a site of kind KPROBE_SH_SIMULATE
 * @regs: the registers at the probe, left as the instruction leaves them
 *
 * The literal a pc-relative load reads is kernel text or rodata next to
 * the function: it is readable wherever the function runs.
 *
 * Context: hit.
 */
void kprobe_sh_simulate(const struct kprobe_hit_site *p, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long next = addr + 2;
	unsigned long lit = (addr & ~3UL) + 4;
	u16 insn = p->ainsn.insn;
	unsigned int n = SH_N(insn);

	if (SH_IS_BT(insn) || SH_IS_BF(insn)) {
		if (kprobe_sh_t(regs) == SH_IS_BT(insn))
			next = addr + 4 + 2 * SH_DISP8(insn);
	} else if (SH_IS_MOVW_PC(insn)) {
		regs->regs[n] = (long)*(s16 *)(addr + 4 + 2 * (insn & 0xff));
	} else if (SH_IS_MOVL_PC(insn)) {
		regs->regs[n] = *(u32 *)(lit + 4 * (insn & 0xff));
	} else if (SH_IS_MOVA(insn)) {
		regs->regs[0] = lit + 4 * (insn & 0xff);
	} else if (SH_IS_STC_SR(insn)) {
		regs->regs[n] = regs->sr;
	}
	regs->pc = next;
}

NOKPROBE_SYMBOL(kprobe_sh_simulate);
