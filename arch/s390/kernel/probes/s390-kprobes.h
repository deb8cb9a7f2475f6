/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * s390 kprobes: what the files of the back-end share.  The per-CPU state
 * machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves are on
 * s390 is in <asm/kprobes.h>; what the generic core offers and expects
 * is the contract in <linux/kprobes_arch.h>, the only core header used
 * here.
 *
 *   core.c       deciding how an instruction runs, its slot, arm/disarm/
 *                remove, the breakpoint and fault paths, the
 *                address and blacklist hooks
 *   branch.c     branches, simulated
 *   move.c       register loads, computed
 *   ftrace.c     probes on ftrace call sites
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 *
 * The opcode tables (which instructions are refused, how a pc is fixed
 * up after a step) are arch/s390/lib/probes.c's, shared with uprobes.
 */
#ifndef _S390_KERNEL_PROBES_KPROBES_H
#define _S390_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>

/*
 * A flag of arch_specific_insn::fixup beside the FIXUP_* of
 * <asm/kprobes.h>: the instruction is a branch, which kprobe_branch()
 * simulates instead of a step.
 */
#define KPROBE_FIXUP_BRANCH	0x80
/* ... and a register load, which kprobe_move() computes (move.c). */
#define KPROBE_FIXUP_MOVE	0x40

/* branch.c */
int kprobe_branch(const u16 *in, struct pt_regs *regs, unsigned long addr,
		  unsigned int len);

/* move.c */
bool kprobe_move(const u16 *in, struct pt_regs *regs);

/* kretprobe.c, called from kretprobe_trampoline.S */
unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);

#endif /* _S390_KERNEL_PROBES_KPROBES_H */
