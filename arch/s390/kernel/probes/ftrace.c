// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes on ftrace sites.
 *
 * A traceable function opens with ftrace's six-byte "brcl" (a no-op
 * until traced).  A probe there is armed by the core attaching an
 * ftrace_ops (kernel/kprobes/ftrace.c) instead of writing a breakpoint.
 * ftrace_regs_caller passes a full pt_regs, with the PSW address just
 * past the brcl, and resumes at regs->psw.addr once the callbacks are
 * done; a kretprobe's entry handler diverts the return through %r14,
 * which ftrace_common reloads from the pt_regs.  The hit itself is
 * <asm-generic/kprobes-ftrace.h>'s, shared with x86 and powerpc.
 *
 * This file is built without the ftrace hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "s390-kprobes.h"

#include <linux/ftrace.h>
#include <linux/kmsan-checks.h>
#include <asm-generic/kprobes-ftrace.h>

/**
 * arch_prepare_kprobe_ftrace() - prepare a site armed through ftrace
 * @p: the site, at an ftrace call
 *
 * Return: 0; there is no copy to make.
 */
int arch_prepare_kprobe_ftrace(struct kprobe_hit_site *p)
{
	p->ainsn.slot = NULL;
	p->ainsn.len = MCOUNT_INSN_SIZE;
	p->ainsn.fixup = 0;
	return 0;
}

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: address of the ftrace call, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: registers saved by ftrace_regs_caller
 *
 * The pre handler sees the PSW address at the call, where a breakpoint
 * hit shows it (kprobe_bpt() puts it back on the probe address).  The
 * registers were stored by assembly: KMSAN is told they are initialized.
 */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	kmsan_unpoison_memory(fregs, ftrace_regs_size());
	kprobe_ftrace_dispatch(ip, fregs, 0);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
