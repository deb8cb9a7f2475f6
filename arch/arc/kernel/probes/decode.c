// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arc kprobes: which instructions can be probed.  A hit steps every
 * accepted instruction in place and finds where it goes on with the base
 * decoder (disasm_next_pc(), arch/arc/kernel/disasm.c), so what is
 * refused here is what that cannot follow or what must not run with
 * the step's traps around it.  Refused, with -EINVAL (encodings as the
 * ARCv2 assembler writes them; a 32-bit instruction is its first
 * halfword in the high half of the word):
 *
 *   - unimp_s, trap_s, brk_s and the zero-operand group of major opcode 4
 *     (sleep, swi, sync aside: rtie, brk, seti, clri): exceptions of
 *     their own, an exception return, or a change of STATUS32.IE that
 *     the end of the step would undo;
 *   - flag and kflag: they write STATUS32;
 *   - leave_s (a return the decoder does not know), ei_s and jli_s
 *     (execute or call through a table), bi and bih (a branch indexed by
 *     a register), dbnz (a loop branch): the decoder would plant the
 *     trap at the wrong successor, and the step would never end;
 *   - a jump through r13 - r25: the instruction error path does not save
 *     the callee-saved registers, so the target is not known at the hit;
 *   - an instruction in a branch's delay slot: the halfword breakpoint
 *     changes the length the branch's link and BTA are computed with.
 */
#include "arc-kprobes.h"

#include <linux/string.h>
#include <asm/disasm.h>

/* 16-bit encodings (the halfword at the probe address). */
#define KPROBE_ARC_TRAP_S_MASK	0xf81fU		/* trap_s u6 */
#define KPROBE_ARC_TRAP_S	0x781eU
#define KPROBE_ARC_BRK_S	0x7fffU
#define KPROBE_ARC_MAJOR_S(hw)	(((hw) >> 11) & 0x1f)
#define KPROBE_ARC_OP_EI_S	11		/* ei_s, jli_s */
#define KPROBE_ARC_OP_SP	24		/* sp-based group, leave_s */

/* 32-bit encodings, major opcode 4: the sub-opcode in bits 21..16. */
#define KPROBE_ARC_MAJOR(w)	(((w) >> 27) & 0x1f)
#define KPROBE_ARC_SUBOP(w)	(((w) >> 16) & 0x3f)
#define KPROBE_ARC_FORMAT(w)	(((w) >> 22) & 0x3)
#define KPROBE_ARC_OP_MAJOR_4	4
#define KPROBE_ARC_SUB_DBNZ	0x0c
#define KPROBE_ARC_SUB_BI	0x24
#define KPROBE_ARC_SUB_BIH	0x25
#define KPROBE_ARC_SUB_FLAG	0x29
#define KPROBE_ARC_SUB_SOP	0x2f		/* one operand; 0x3f below: none */
#define KPROBE_ARC_ZOP		0x3f
#define KPROBE_ARC_ZOP_SYNC	3		/* bits 26..24 of a zero-operand */

/* A 32-bit instruction starts with a major opcode below 0x0b. */
static bool kprobe_arc_is_long(u16 hw)
{
	return KPROBE_ARC_MAJOR_S(hw) < 0x0b;
}

static int kprobe_arc_refuse_short(u16 hw, const char **why)
{
	if (hw == ARC_KPROBES_UNIMP_S || hw == KPROBE_ARC_BRK_S ||
	    (hw & KPROBE_ARC_TRAP_S_MASK) == KPROBE_ARC_TRAP_S) {
		*why = "a trap instruction";
		return -EINVAL;
	}
	if (KPROBE_ARC_MAJOR_S(hw) == KPROBE_ARC_OP_EI_S) {
		*why = "ei_s/jli_s: the successor is in a table";
		return -EINVAL;
	}
	/* sp group, sub-opcode 6: pop_s has bit 0 set, leave_s clear. */
	if (KPROBE_ARC_MAJOR_S(hw) == KPROBE_ARC_OP_SP &&
	    ((hw >> 5) & 0x7) == 6 && !(hw & 1)) {
		*why = "leave_s: a return the decoder does not follow";
		return -EINVAL;
	}
	return 0;
}

static int kprobe_arc_refuse_long(u32 w, const char **why)
{
	if (KPROBE_ARC_MAJOR(w) != KPROBE_ARC_OP_MAJOR_4)
		return 0;
	switch (KPROBE_ARC_SUBOP(w)) {
	case KPROBE_ARC_SUB_SOP:
		if ((w & 0x3f) == KPROBE_ARC_ZOP &&
		    ((w >> 24) & 0x7) != KPROBE_ARC_ZOP_SYNC) {
			*why = "a trap, exception return or interrupt mask change";
			return -EINVAL;
		}
		return 0;
	case KPROBE_ARC_SUB_FLAG:
		*why = "flag/kflag writes STATUS32";
		return -EINVAL;
	case KPROBE_ARC_SUB_BI:
	case KPROBE_ARC_SUB_BIH:
		*why = "bi/bih: a branch the decoder does not follow";
		return -EINVAL;
	case KPROBE_ARC_SUB_DBNZ:
		if (KPROBE_ARC_FORMAT(w) == 2) {
			*why = "dbnz: a branch the decoder does not follow";
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}

/*
 * Does the branch at @addr take its target from a callee-saved register?
 * Decoded twice with two different sets of r13 - r25: a target that
 * changes is one.
 */
static bool kprobe_arc_callee_target(unsigned long addr)
{
	struct callee_regs a, b;
	struct disasm_state sa, sb;
	struct pt_regs regs;

	memset(&regs, 0, sizeof(regs));
	memset(&a, 0, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	disasm_instr(addr, &sa, 0, &regs, &a);
	disasm_instr(addr, &sb, 0, &regs, &b);
	return sa.is_branch && sa.target != sb.target;
}

/*
 * Is @addr the delay slot of the branch of @len bytes before it?  The
 * decoder reads the live text: a branch with a probe of its own armed
 * looks like the breakpoint, and the position is accepted.
 */
static bool kprobe_arc_follows_delayed(unsigned long addr, int len)
{
	unsigned long size, offset;
	struct disasm_state st;
	bool want_long = len == 4;
	struct pt_regs regs;
	u16 hw;

	/* Only look back inside the probed function. */
	if (!kprobe_sym_size_offset(addr, &size, &offset) || offset < len)
		return false;
	if (kprobe_copy_original_text(&hw, addr - len, sizeof(hw)))
		return false;
	if (kprobe_arc_is_long(hw) != want_long)
		return false;
	memset(&regs, 0, sizeof(regs));
	disasm_instr(addr - len, &st, 0, &regs, NULL);
	return st.instr_len == len && st.is_branch && st.delay_slot;
}

/**
 * kprobe_arc_decode() - may the instruction at @addr be probed
 * @addr: the probe address, halfword aligned, holding its original text
 * @ai: filled with what a hit needs
 * @why: the reason for a refusal
 *
 * Context: locked; the text at @addr is the original (kprobes_arch.h).
 * Return: 0, -EINVAL (refused, *@why set) or -EFAULT.
 */
int kprobe_arc_decode(unsigned long addr, struct arch_specific_insn *ai,
		      const char **why)
{
	u16 hw[2];
	int ret;

	if (kprobe_copy_original_text(&hw[0], addr, sizeof(hw[0]))) {
		*why = "cannot read the probed text";
		return -EFAULT;
	}
	if (!kprobe_arc_is_long(hw[0])) {
		ret = kprobe_arc_refuse_short(hw[0], why);
		ai->len = 2;
	} else {
		if (kprobe_copy_original_text(&hw[1], addr + 2, sizeof(hw[1]))) {
			*why = "cannot read the probed text";
			return -EFAULT;
		}
		ret = kprobe_arc_refuse_long((u32)hw[0] << 16 | hw[1], why);
		ai->len = 4;
	}
	if (ret)
		return ret;
	if (kprobe_arc_callee_target(addr)) {
		*why = "a jump through a callee-saved register";
		return -EINVAL;
	}
	if (kprobe_arc_follows_delayed(addr, 2) ||
	    kprobe_arc_follows_delayed(addr, 4)) {
		*why = "in a branch's delay slot";
		return -EINVAL;
	}
	return 0;
}
