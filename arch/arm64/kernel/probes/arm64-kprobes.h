/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 kprobes: what the files of the back-end share.  The per-CPU state
 * machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves are on
 * arm64 is in <asm/kprobes.h>; what the generic core offers and expects
 * is the contract in <linux/kprobes_arch.h>, the only core header used
 * here.
 *
 *   core.c       deciding how an instruction runs, prepare/arm/disarm/
 *                remove, the two BRK handlers and the fault handler, the
 *                address and blacklist hooks
 *   simulate.c   register-only instructions computed in the BRK handler
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 *   opt.c + opt_detour.S   jump optimization: the detours and their area
 *   arm64-kprobes-asm.h    pt_regs built by the two assembly files
 *   ftrace.c     probes on ftrace call sites (KPROBES_ON_FTRACE): the
 *                callback and the pt_regs it builds from ftrace_regs
 *
 * The instruction decoder and simulator (decode-insn.c, simulate-insn.c)
 * are arm64's, shared with uprobes; kprobes adds what only kernel text
 * needs (literal loads, exclusive sequences, the return-address checks).
 */
#ifndef _ARM64_KERNEL_PROBES_KPROBES_H
#define _ARM64_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm/probes.h>
#include <asm-generic/kprobes-opt-template.h>
#include <asm-generic/kprobes-step.h>

/* simulate.c */
probes_handler_t *kprobe_a64_register_sim(u32 insn);

/* kretprobe.c, called from kretprobe_trampoline.S */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);


#endif /* _ARM64_KERNEL_PROBES_KPROBES_H */
