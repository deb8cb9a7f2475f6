/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parisc kprobes: what the files of the back-end share.  The per-CPU
 * state machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves
 * are on parisc is in <asm/kprobes.h>; what the generic core offers and
 * expects is the contract in <linux/kprobes_arch.h>, the only core header
 * used here.
 *
 *   decode.c     pure: an instruction in, how a hit runs it or why it is
 *                refused out; the branch evaluator, the computed
 *                instructions
 *   core.c       prepare/arm/disarm/remove, the break, step and fault
 *                handlers, the blacklist
 *   ftrace.c     probes on the patchable function entries
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 */
#ifndef _PARISC_KERNEL_PROBES_KPROBES_H
#define _PARISC_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm-generic/kprobes-step.h>

/*
 * The nops gcc puts before a function's entry for ftrace
 * (-fpatchable-function-entry=N,N-1): ftrace writes its call stub there
 * while the function is traced.
 */
#ifdef FTRACE_PATCHABLE_FUNCTION_SIZE
#define KPROBE_PARISC_FTRACE_PAD	(FTRACE_PATCHABLE_FUNCTION_SIZE - 1)
#else
#define KPROBE_PARISC_FTRACE_PAD	0
#endif

/*
 * syscall.S: the page user space enters the kernel through, kernel text
 * that runs at the user's addresses.
 */
extern const u32 linux_gateway_page[];

/* decode.c */
int kprobe_parisc_decode(u32 insn, struct arch_specific_insn *ai,
			 const char **why);
bool kprobe_parisc_branch(const struct arch_specific_insn *ai,
			  struct pt_regs *regs, unsigned long addr,
			  unsigned long *target, bool *nullify);
void kprobe_parisc_compute(const struct arch_specific_insn *ai,
			   struct pt_regs *regs);

#endif /* _PARISC_KERNEL_PROBES_KPROBES_H */
