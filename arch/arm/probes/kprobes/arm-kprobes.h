/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 32-bit ARM kprobes: what the files of the back-end share.  The per-CPU
 * state machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves
 * are on ARM is in <asm/kprobes.h>; what the generic core offers and
 * expects is the contract in <linux/kprobes_arch.h>, the only core header
 * used here.
 *
 *   core.c       deciding how an instruction runs, prepare/arm/disarm/
 *                remove, the two undefined-instruction hooks and the fault
 *                handler, the blacklist
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 *   opt.c + opt_detour.S   jump optimization: the detours and their area
 *
 * The instruction decoder (../decode.c, ../decode-arm.c) and its few
 * simulations of branches, MRS and "mov ip, sp" are shared with uprobes;
 * this back-end gives the decoder its own table of what to do with each
 * class of instruction.
 */
#ifndef _ARM_PROBES_KPROBES_ARM_KPROBES_H
#define _ARM_PROBES_KPROBES_ARM_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm-generic/kprobes-step.h>

/* core.c: the hooks do_undefinstr() calls through call_undef_hook() */
int kprobe_arm_udf_hit(struct pt_regs *regs, unsigned int instr);
int kprobe_arm_udf_step_end(struct pt_regs *regs, unsigned int instr);

/* kretprobe.c, called from kretprobe_trampoline.S */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);

/*
 * opt_detour.S: the detour template that opt.c completes, the routine
 * every detour calls, and the area of the kernel text detours live in
 * (which core.c blacklists).  Instruction words, little-endian.
 */
extern const u32 kprobe_opt_template[], kprobe_opt_template_call[],
	kprobe_opt_template_copy[], kprobe_opt_template_oi[],
	kprobe_opt_template_end[];
extern u32 kprobe_opt_area[], kprobe_opt_area_end[];
void kprobe_opt_common(void);

/* opt.c, called from kprobe_opt_common */
struct kprobe_opt_insn;
__visible void arch_optprobe_handler(struct kprobe_opt_insn *oi,
				     struct pt_regs *regs);

#endif /* _ARM_PROBES_KPROBES_ARM_KPROBES_H */
