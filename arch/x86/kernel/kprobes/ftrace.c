// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes on ftrace sites.
 *
 * A probe on a function's fentry call is armed by the core attaching an
 * ftrace_ops (kernel/kprobes/ftrace.c) instead of writing an int3;
 * ftrace_regs_caller passes a full pt_regs.  The hit itself is
 * <asm-generic/kprobes-ftrace.h>'s, shared with powerpc.
 *
 * This file is built without the fentry hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "x86-kprobes.h"

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <asm/text-patching.h>
#include <asm-generic/kprobes-ftrace.h>

/**
 * arch_prepare_kprobe_ftrace() - prepare a site armed through ftrace
 * @p: the site's kprobe, at a fentry call
 *
 * Return: 0; there is no copy to make.
 */
int arch_prepare_kprobe_ftrace(struct kprobe *p)
{
	p->ainsn.kind = KPROBE_INSN_STEP;
	p->ainsn.len = MCOUNT_INSN_SIZE;
	p->ainsn.slot = NULL;
	return 0;
}

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: address of the fentry call, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: registers saved by ftrace_regs_caller
 *
 * The pre handler sees regs->ip just past the breakpoint, as an int3 hit
 * shows it (<asm-generic/kprobes-ftrace.h> does the rest).
 */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	kprobe_ftrace_dispatch(ip, parent_ip, fregs, INT3_INSN_SIZE);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
