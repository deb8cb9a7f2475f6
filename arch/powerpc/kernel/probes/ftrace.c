// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes on ftrace sites.
 *
 * A probe on a function's ftrace call (the "bl" after its local entry's
 * "mflr r0") is armed by the core attaching an ftrace_ops
 * (kernel/kprobes/ftrace.c) instead of writing a trap.  ftrace_regs_caller
 * passes a full pt_regs, with link the probed function's return address,
 * and once the callbacks are done resumes at regs->nip with the link
 * register from regs->link (which is how a kretprobe's entry handler
 * diverts the return).  The hit itself is <asm-generic/kprobes-ftrace.h>'s,
 * shared with x86.
 *
 * This file is built without the ftrace hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "ppc-kprobes.h"

#include <linux/ftrace.h>
#include <asm-generic/kprobes-ftrace.h>

/**
 * arch_prepare_kprobe_ftrace() - prepare a site armed through ftrace
 * @p: the site, at an ftrace call
 *
 * Return: 0; there is no copy to make.
 */
int arch_prepare_kprobe_ftrace(struct kprobe_hit_site *p)
{
	p->ainsn.kind = KPROBE_INSN_STEP;
	p->ainsn.compute = KPPC_NONE;
	p->ainsn.len = MCOUNT_INSN_SIZE;
	p->ainsn.slot = NULL;
	return 0;
}

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: address of the ftrace call, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: registers saved by ftrace_regs_caller
 *
 * The pre handler sees nip at the call, as a trap hit shows it
 * (<asm-generic/kprobes-ftrace.h> does the rest).
 */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	kprobe_ftrace_dispatch(ip, fregs, 0);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
