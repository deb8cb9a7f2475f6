/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arc kprobes: what the files of the back-end share.  The per-CPU state
 * machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves are on
 * arc is in <asm/kprobes.h>; what the generic core offers and expects is
 * the contract in <linux/kprobes_arch.h>, the only core header used here.
 *
 *   decode.c     which instructions may be probed
 *   core.c       prepare/arm/disarm/remove, the in-place step (the
 *                breakpoint, the planted traps, the fault path), the
 *                blacklist
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 */
#ifndef _ARC_KERNEL_PROBES_KPROBES_H
#define _ARC_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm-generic/kprobes-step.h>

/* decode.c */
int kprobe_arc_decode(unsigned long addr, struct arch_specific_insn *ai,
		      const char **why);

/* kretprobe.c, called from kretprobe_trampoline.S */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);

#endif /* _ARC_KERNEL_PROBES_KPROBES_H */
