// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LoongArch kprobes on ftrace sites.
 *
 * A traceable function opens with two patchable nops: ftrace makes the
 * first "move t0, ra" and, while the function is traced, the second a
 * call of ftrace_caller or ftrace_regs_caller.  The first word is the
 * ftrace site (ftrace_location()), and a probe there is armed by the core
 * attaching an ftrace_ops (kernel/kprobes/ftrace.c) instead of writing a
 * breakpoint.  ftrace_regs_caller saves a full pt_regs, with ERA at the
 * return into the function, and goes on at ERA once the callbacks are
 * done, so that a pre handler may redirect execution.  The hit itself is
 * <asm-generic/kprobes-ftrace.h>'s: the handlers see ERA at the site,
 * where a break on it would report the hit.
 *
 * This file is built without the ftrace hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "loongarch-kprobes.h"

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
	p->ainsn.slot = NULL;
	p->ainsn.simulate = false;
	return 0;
}

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: the function's entry, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: registers saved by ftrace_regs_caller
 */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	kprobe_ftrace_dispatch(ip, fregs, 0);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
