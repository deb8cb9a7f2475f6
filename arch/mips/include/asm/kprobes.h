/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mips side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is "break 515" (BRK_KPROBE_BP) over the probed instruction,
 * one aligned 32-bit word.  do_bp() (traps.c) raises DIE_BREAK for that
 * code and DIE_SSTEPBP for "break 516" (BRK_KPROBE_SSTEPBP); the die
 * notifier of the back-end takes both.  Only 32-bit MIPS encodings are
 * handled: a microMIPS or MIPS16e kernel cannot have kprobes.
 *
 * mips has no single-step.  The probed instruction runs from a slot,
 * [copy, break 516]: the CPU returns into the slot with Status.IE clear
 * in the frame it returns to, runs the copy and traps back.  Branches
 * and jumps are evaluated in software instead (__compute_return_epc_for_
 * insn() of branch.c, which uprobes uses too): they read the pc, and
 * their delay slot belongs to them.  The instruction in a branch's delay
 * slot runs after the branch has been decided, as on hardware: in the
 * trap when it is a nop or a branch-likely nullifies it, else as the copy
 * in the slot, after which the CPU resumes at the branch's outcome.  A
 * probe in a delay slot, ll/sc sequences, eret/deret, trap and break
 * instructions, R6 compact branches, FPU/coprocessor/DSP branches and
 * jalx are refused.  The code is in arch/mips/kernel/probes/.
 */
#ifndef _ASM_MIPS_KPROBES_H
#define _ASM_MIPS_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>
#include <asm/break.h>

typedef u32 kprobe_opcode_t;

/* "break code": SPECIAL opcode, the code in bits 6..25, function 0x0d. */
#define KPROBE_MIPS_BREAK(code)	(((u32)(code) << 6) | 0x0000000dU)

/* The probe's breakpoint; it also fills unused slot space. */
#define BREAKPOINT_INSTRUCTION	KPROBE_MIPS_BREAK(BRK_KPROBE_BP)
/* Where a step from a slot ends. */
#define KPROBE_STEP_BREAK	KPROBE_MIPS_BREAK(BRK_KPROBE_SSTEPBP)

/* A probed instruction is one word (a branch's delay slot is read too). */
#define MAX_INSN_SIZE		1

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole:
 *
 *   slot + 0	the probed instruction, or a branch's delay-slot instruction
 *   slot + 4	break 516, where the step ends
 *   slot + 8	two BREAKPOINT_INSTRUCTIONs, never reached
 */
#define KPROBE_SLOT_INSNS	4
#define KPROBE_SLOT_BYTES	(KPROBE_SLOT_INSNS * sizeof(kprobe_opcode_t))

/**
 * enum kprobe_mips_kind - how a hit runs the probed instruction
 * @KPROBE_MIPS_STEP: the copy in the slot, then back after the probe
 * @KPROBE_MIPS_COMPUTE: computed in the trap (compute.c), no slot
 * @KPROBE_MIPS_BRANCH: the branch is evaluated in the trap; its delay
 *	slot is nothing to run (a nop)
 * @KPROBE_MIPS_BRANCH_STEP: the branch is evaluated in the trap, the
 *	delay-slot instruction runs in the slot, then the CPU goes where
 *	the branch decided
 */
enum kprobe_mips_kind {
	KPROBE_MIPS_STEP,
	KPROBE_MIPS_COMPUTE,
	KPROBE_MIPS_BRANCH,
	KPROBE_MIPS_BRANCH_STEP,
};

/**
 * struct arch_specific_insn - mips per-probe data
 * @slot: the slot (STEP and BRANCH_STEP), else NULL
 * @insn: the probed instruction
 * @delay: the instruction in its delay slot (the BRANCH kinds)
 * @kind: enum kprobe_mips_kind
 * @likely: a branch-likely: not taken, it nullifies its delay slot
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	u32 insn;
	u32 delay;
	u8 kind;
	bool likely;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On mips a hit is break 515; a branch with nothing in its delay
 * slot completes in the trap (moves (2), (4)), anything else is stepped
 * from the slot and the step is over (moves (5), (6), pop) at break 516.
 * A re-entered hit pushes only to step a copy.
 *
 * do_bp() runs with interrupts enabled: the handlers disable them, and
 * a step keeps preemption disabled from the first break to the second,
 * so the task cannot leave the CPU whose state points at the slot while
 * do_bp() of break 516 has interrupts on.  While the copy runs, the
 * frame it returns with has Status.IE clear (kprobe_ctlblk::saved_irq
 * keeps the probed context's IE), so only a fault of the copy or an
 * interrupt in do_bp() can come in between, which bounds the depth.
 */
#include <asm-generic/kprobes-cpu.h>

/* Called through the die notifier (DIE_PAGE_FAULT of do_page_fault()). */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
asmlinkage void arch_kretprobe_trampoline(void);

#endif /* CONFIG_KPROBES */

#endif /* _ASM_MIPS_KPROBES_H */
