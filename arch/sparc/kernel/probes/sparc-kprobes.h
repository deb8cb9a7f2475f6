/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparc64 kprobes: what the files of the back-end share.  The per-CPU
 * state machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves
 * are on sparc64 is in <asm/kprobes.h>; what the generic core offers and
 * expects is the contract in <linux/kprobes_arch.h>, the only core header
 * used here.
 *
 *   decode.c     pure: an instruction in, how a hit runs it or why it is
 *                refused out
 *   core.c       prepare/arm/disarm/remove, the two traps and the fault
 *                handler, the blacklist
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 */
#ifndef _SPARC_KERNEL_PROBES_KPROBES_H
#define _SPARC_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm-generic/kprobes-step.h>

/* decode.c */
int kprobe_sparc_decode(u32 insn, struct arch_specific_insn *ai,
			const char **why);
bool kprobe_sparc_is_dcti(u32 insn);

#ifdef CONFIG_KRETPROBES
/* kretprobe.c: the trampoline's trap, in kprobe_trap() */
void kprobe_sparc_kretprobe_return(struct pt_regs *regs);
#else
static inline void kprobe_sparc_kretprobe_return(struct pt_regs *regs)
{
}
#endif

#endif /* _SPARC_KERNEL_PROBES_KPROBES_H */
