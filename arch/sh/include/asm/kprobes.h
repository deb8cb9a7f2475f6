/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sh side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is "trapa #0x3a" over the probed instruction, one aligned
 * 16-bit word.  The trapa exception reaches debug_trap_handler() of
 * traps.c through the debug-trap table, which raises DIE_TRAP with TRA
 * (the trap number shifted left by two) as the trap number and the pc
 * rewound to the trapa; the die notifier of the back-end takes 0x3a, and
 * 0x3b, which ends a step.
 *
 * The probed instruction runs out of line, from a slot [copy, trapa
 * #0x3b], with the interrupt mask raised in the frame the CPU returns
 * with; it is never run in place, so other CPUs never see the probe
 * taken out.  What reads the pc is computed in the trap instead: bt and
 * bf, mova, mov.w and mov.l @(disp,PC), stc SR (the step changes SR's
 * interrupt mask).  A delayed branch (bra, bsr, braf, bsrf, jmp, jsr, rts,
 * bt/s, bf/s) is decided in the trap, from the registers as the probe
 * found them, as the CPU decides it before its delay slot; the
 * instruction in its delay slot then runs in the slot (or nowhere, for a
 * nop), after which the CPU resumes at the branch's outcome.  Refused:
 * a probe in a delay slot, rte, sleep, trapa, writes of SR, stc.l SR, a
 * delay slot holding a pc-relative instruction, and movli.l/movco.l
 * sequences (SH-4A).  The code is in arch/sh/kernel/probes/.
 */
#ifndef _ASM_SH_KPROBES_H
#define _ASM_SH_KPROBES_H

#include <asm-generic/kprobes.h>

/* trapa #imm: 0xc3 in the high byte, imm in the low one */
#define KPROBE_SH_TRAPA(imm)	(0xc300U | (imm))
/* The trap number DIE_TRAP reports for trapa #imm: TRA, imm << 2. */
#define KPROBE_SH_TRA(imm)	((imm) << 2)

#define KPROBE_SH_BP_IMM	0x3a	/* the probe */
#define KPROBE_SH_STEP_IMM	0x3b	/* the end of a step */

/* The probe's breakpoint; it also fills unused slot space. */
#define BREAKPOINT_INSTRUCTION	KPROBE_SH_TRAPA(KPROBE_SH_BP_IMM)

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>

typedef u16 kprobe_opcode_t;

/* Where a step from a slot ends. */
#define KPROBE_STEP_TRAPA	KPROBE_SH_TRAPA(KPROBE_SH_STEP_IMM)

/* A probed instruction is one halfword (a branch's delay slot is read too). */
#define MAX_INSN_SIZE		1

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole:
 *
 *   slot + 0	the probed instruction, or a branch's delay-slot instruction
 *   slot + 2	trapa #0x3b, where the step ends
 *   slot + 4	six BREAKPOINT_INSTRUCTIONs, never reached
 */
#define KPROBE_SLOT_INSNS	8
#define KPROBE_SLOT_BYTES	(KPROBE_SLOT_INSNS * sizeof(kprobe_opcode_t))

/**
 * enum kprobe_sh_kind - how a hit runs the probed instruction
 * @KPROBE_SH_STEP: the copy in the slot, then back after the probe
 * @KPROBE_SH_SIMULATE: computed in the trap (bt, bf, pc-relative loads,
 *	mova, stc SR)
 * @KPROBE_SH_BRANCH: a delayed branch decided in the trap; its delay
 *	slot is nothing to run (a nop)
 * @KPROBE_SH_BRANCH_STEP: a delayed branch decided in the trap; the
 *	delay-slot instruction runs in the slot, then the CPU goes where
 *	the branch decided
 */
enum kprobe_sh_kind {
	KPROBE_SH_STEP,
	KPROBE_SH_SIMULATE,
	KPROBE_SH_BRANCH,
	KPROBE_SH_BRANCH_STEP,
};

/**
 * struct arch_specific_insn - sh per-probe data
 * @slot: the slot (STEP and BRANCH_STEP), else NULL
 * @insn: the probed instruction
 * @delay: the instruction in its delay slot (the BRANCH kinds)
 * @kind: enum kprobe_sh_kind
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	u16 insn;
	u16 delay;
	u8 kind;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On sh a hit is trapa #0x3a; an instruction computed in the
 * trap, or a branch with nothing in its delay slot, completes there
 * (moves (2), (4)); anything else is stepped from the slot and the step
 * is over (moves (5), (6), pop) at trapa #0x3b.  A re-entered hit pushes
 * only to step a copy.
 *
 * Exception handlers run with SR.IMASK at 15, and the copy runs with
 * IMASK 15 in the frame it returns with (kprobe_ctlblk::saved_irq keeps
 * the probed context's mask), preemption disabled from the first trap to
 * the second: only a fault of the copy can come in between, which
 * bounds the depth.
 */
#include <asm-generic/kprobes-cpu.h>

/* Called by do_page_fault() through kprobe_page_fault(). */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
asmlinkage void arch_kretprobe_trampoline(void);

#endif /* CONFIG_KPROBES */

/*
 * do_illegal_slot_inst() (traps_32.c) asks whether a branch's delay slot
 * held a probe: never here, a probe in a delay slot is refused.
 */
static inline int kprobe_handle_illslot(unsigned long pc)
{
	return -1;
}

#endif /* _ASM_SH_KPROBES_H */
