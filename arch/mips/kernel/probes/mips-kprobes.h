/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mips kprobes: what the files of the back-end share.  The per-CPU state
 * machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves are on
 * mips is in <asm/kprobes.h>; what the generic core offers and expects is
 * the contract in <linux/kprobes_arch.h>, the only core header used here.
 *
 *   decode.c     pure: an instruction (and its delay slot) in, how a hit
 *                runs it or why it is refused out
 *   compute.c    the register-only instructions a hit computes in the
 *                trap instead of stepping them
 *   core.c       prepare/arm/disarm/remove, the die notifier and the
 *                breakpoint, step and fault handlers, the blacklist
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 *
 * Branches are evaluated by __compute_return_epc_for_insn() (branch.c),
 * which the kernel's emulators and uprobes use too; which instructions
 * have a delay slot is probes-common.h's __insn_has_delay_slot().
 */
#ifndef _MIPS_KERNEL_PROBES_KPROBES_H
#define _MIPS_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm/inst.h>
#include <asm-generic/kprobes-step.h>

/* How many words before a probe are searched for an unfinished ll. */
#define KPROBE_LLSC_WINDOW	16

/*
 * How many words after a module's mcount site the "b 1f" that ftrace
 * leaves there while the function is not traced jumps over: 5 where gcc
 * also passes the return address's slot (-mmcount-ra-address, 32-bit),
 * else 4, as arch/mips/kernel/ftrace.c's private MCOUNT_OFFSET_INSNS;
 * none without dynamic ftrace.
 */
#if !defined(CONFIG_DYNAMIC_FTRACE)
#define KPROBE_MIPS_MCOUNT_SKIP	0
#elif defined(KBUILD_MCOUNT_RA_ADDRESS) && defined(CONFIG_32BIT)
#define KPROBE_MIPS_MCOUNT_SKIP	5
#else
#define KPROBE_MIPS_MCOUNT_SKIP	4
#endif

/* decode.c */
bool kprobe_mips_has_delay_slot(u32 insn);
bool kprobe_mips_is_ll(u32 insn);
bool kprobe_mips_is_sc(u32 insn);
bool kprobe_mips_is_likely(u32 insn);
int kprobe_mips_decode(u32 insn, u32 delay, struct arch_specific_insn *ai,
		       const char **why);

/* compute.c */
bool kprobe_mips_computable(u32 insn);
void kprobe_mips_compute(u32 insn, struct pt_regs *regs);

/* kretprobe.c, called from kretprobe_trampoline.S */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);

#endif /* _MIPS_KERNEL_PROBES_KPROBES_H */
