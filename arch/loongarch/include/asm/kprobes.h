/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LoongArch side of the kprobes architecture contract
 * (<linux/kprobes_arch.h>).
 *
 * A probe is "break 10" over the probed word; do_bp() (traps.c) passes it
 * to kprobe_breakpoint_handler().  LoongArch has no single-step a kernel
 * can use here: an instruction that reads the pc (pcaddi, pcaddu12i,
 * pcaddu18i, pcalau12i) or is a branch or jump is computed in the trap
 * with the base's simulator (arch_simulate_insn(), arch/loongarch/kernel/
 * inst.c); any other runs from a slot [insn, "break 11"], whose second
 * break reaches kprobe_singlestep_handler() and sends the CPU back after
 * the probe.  Refused: the AM* atomics, ll/sc and their llacq/screl
 * forms, sc.q (the exception return between an ll and its sc breaks the
 * reservation, and the atomics are refused as upstream), bceqz/bcnez
 * (the simulator has no floating-point condition flags), break, dbcl,
 * syscall, ertn and idle (their exception or return reports the slot's
 * address), and writes of CRMD, PRMD or ERA (the slot runs with the
 * interrupt enable its end puts back).  Probes on ftrace's patchable
 * entries are armed through ftrace; kretprobes use the core's instance
 * pool and a trampoline of this back-end.  The code is in
 * arch/loongarch/kernel/probes/.
 */
#ifndef _ASM_LOONGARCH_KPROBES_H
#define _ASM_LOONGARCH_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/types.h>

struct pt_regs;

typedef u32 kprobe_opcode_t;

/* "break 10" (BRK_KPROBE_BP): the probe, also what fills unused slots. */
#define LOONGARCH_KPROBES_BREAK		0x002a000aU
/* "break 11" (BRK_KPROBE_SSTEPBP): where a step from a slot ends. */
#define LOONGARCH_KPROBES_SS_BREAK	0x002a000bU

#define BREAKPOINT_INSTRUCTION	LOONGARCH_KPROBES_BREAK
#define KPROBE_STEP_BREAK	LOONGARCH_KPROBES_SS_BREAK

/* Every instruction is one aligned word. */
#define MAX_INSN_SIZE		1

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole:
 *
 *   slot + 0	the probed instruction
 *   slot + 4	second break: the step is over
 *   slot + 8	BREAKPOINT_INSTRUCTION, never reached
 *   slot + 12	BREAKPOINT_INSTRUCTION, never reached
 */
#define KPROBE_SLOT_INSNS	4
#define KPROBE_SLOT_BYTES	(KPROBE_SLOT_INSNS * sizeof(kprobe_opcode_t))

/**
 * struct arch_specific_insn - LoongArch per-probe data
 * @slot: the slot of a stepped instruction, NULL for a simulated one
 *	(and for a probe armed through ftrace)
 * @simulate: the instruction is computed in the trap
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	bool simulate;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On LoongArch a hit is the first break; a simulated instruction
 * completes in the trap (moves (2), (4)), anything else is stepped from
 * the slot and the step is over (moves (5), (6), pop) at the second
 * break.  A re-entered hit pushes only to step a copy.
 *
 * do_bp() enables interrupts when the trapping context had them: the
 * handlers disable them, and a step runs its copy with PRMD.PIE clear
 * (the exception return leaves interrupts off) and preemption disabled
 * from the first break to the second.
 */
#include <asm-generic/kprobes-cpu.h>

/* traps.c's do_bp(): the two breaks; false when the break is not ours. */
bool kprobe_breakpoint_handler(struct pt_regs *regs);
bool kprobe_singlestep_handler(struct pt_regs *regs);

/* Called by the page fault path through kprobe_page_fault(). */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
void arch_kretprobe_trampoline(void);

#else /* !CONFIG_KPROBES */

/* traps.c calls them whatever the configuration. */
static inline bool kprobe_breakpoint_handler(struct pt_regs *regs)
{
	return false;
}

static inline bool kprobe_singlestep_handler(struct pt_regs *regs)
{
	return false;
}

#endif /* CONFIG_KPROBES */

#endif /* _ASM_LOONGARCH_KPROBES_H */
