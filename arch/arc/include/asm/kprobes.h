/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arc side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is "unimp_s" over the first halfword of the probed instruction:
 * the instruction error exception it raises reaches the die notifier,
 * kprobe_exceptions_notify() (DIE_IERR).  ARC has no single-step a kernel
 * can use, and its instructions are hard to run anywhere but at their
 * own address (pc-relative operands, delay slots, zero-overhead loops),
 * so the probed instruction runs in place: the hit puts the original
 * halfword back and writes "trap_s 2" over the instruction that follows
 * it, and over a branch's target; that trap reaches trap_is_kprobe()
 * (traps.c), which takes the traps out again and re-arms the probe.
 * Writing the text from the trap is sound on one CPU only: other CPUs
 * would run through the restored instruction and the planted traps, and
 * arc's instruction cache invalidation of another CPU is a cross call,
 * which interrupts-off code cannot make.  arch/arc/Kconfig therefore
 * gives SMP kernels no kprobes.  The code is in arch/arc/kernel/probes/.
 */
#ifndef _ASM_ARC_KPROBES_H
#define _ASM_ARC_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/types.h>

struct pt_regs;

/* A halfword: "unimp_s" and "trap_s 2" are 16-bit instructions. */
typedef u16 kprobe_opcode_t;

/* "unimp_s": the probe, an instruction error exception. */
#define ARC_KPROBES_UNIMP_S	0x79e0U
/* "trap_s 2": where an in-place step ends (traps.c, ECR parameter 2). */
#define ARC_KPROBES_TRAP_S_2	0x785eU

#define BREAKPOINT_INSTRUCTION	ARC_KPROBES_UNIMP_S
#define KPROBE_STEP_TRAP	ARC_KPROBES_TRAP_S_2

/* Halfwords of the longest instruction: 32 bits and a long immediate. */
#define MAX_INSN_SIZE		4

/* No slots: the instruction runs in place.  The core's allocator wants a size. */
#define KPROBE_SLOT_BYTES	16

/**
 * struct arch_specific_insn - arc per-probe data
 * @len: length of the probed instruction in bytes (2 or 4, without a
 *	long immediate), for the KUnit suites and diagnostics
 *
 * What a hit needs beyond the original halfword (kprobe_hit_site::opcode)
 * is computed from the registers of the hit: the successors of the
 * instruction (disasm_next_pc(), shared with kgdb and the unaligned
 * access emulation).
 */
struct arch_specific_insn {
	u8 len;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On arc a hit is the unimp_s; the pre handlers run (move (1)),
 * then the instruction is stepped in place (move (3)) and the step is
 * over at the trap_s 2 (moves (5), (6), pop).  Every hit steps, a
 * re-entered hit too (push); each level of nesting has its own planted
 * traps (core.c).  The handlers run with interrupts off; the stepped
 * instruction too (STATUS32.IE cleared in the frame, put back at the
 * trap), and preemption stays disabled from the hit to the trap.
 */
#include <asm-generic/kprobes-cpu.h>

/* traps.c's do_non_swi_trap(): "trap_s 2". */
void trap_is_kprobe(unsigned long address, struct pt_regs *regs);

/* Called by the page fault path through kprobe_page_fault(). */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
void arch_kretprobe_trampoline(void);

#else /* !CONFIG_KPROBES */

struct pt_regs;

/* traps.c calls it whatever the configuration. */
static inline void trap_is_kprobe(unsigned long address,
				  struct pt_regs *regs)
{
}

#endif /* CONFIG_KPROBES */

#endif /* _ASM_ARC_KPROBES_H */
