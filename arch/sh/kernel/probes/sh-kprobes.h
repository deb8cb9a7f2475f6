/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sh kprobes: what the files of the back-end share.  The per-CPU state
 * machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves are on
 * sh is in <asm/kprobes.h>; what the generic core offers and expects is
 * the contract in <linux/kprobes_arch.h>, the only core header used here.
 *
 *   decode.c     an instruction (and its delay slot) in, how a hit runs
 *                it or why it is refused out; the branch evaluator and
 *                the simulation of what reads the pc, for the trap
 *   core.c       prepare/arm/disarm/remove, the die notifier and the
 *                breakpoint, step and fault handlers, the blacklist
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 */
#ifndef _SH_KERNEL_PROBES_KPROBES_H
#define _SH_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm-generic/kprobes-step.h>

/* How many halfwords before a probe are searched for an open movli.l. */
#define KPROBE_SH_LLSC_WINDOW	16

/* decode.c, locked */
bool kprobe_sh_has_delay_slot(u16 insn);
bool kprobe_sh_is_movli(u16 insn);
bool kprobe_sh_is_movco(u16 insn);
int kprobe_sh_decode(u16 insn, u16 delay, struct arch_specific_insn *ai,
		     const char **why);

/* decode.c, hit */
bool kprobe_sh_branch(const struct kprobe_hit_site *p, struct pt_regs *regs);
void kprobe_sh_simulate(const struct kprobe_hit_site *p, struct pt_regs *regs);

/* kretprobe.c, called from kretprobe_trampoline.S */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);

#endif /* _SH_KERNEL_PROBES_KPROBES_H */
