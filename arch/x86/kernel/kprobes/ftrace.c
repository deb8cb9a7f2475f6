// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes on ftrace sites.
 *
 * A probe on a function's fentry call is armed by the core attaching an
 * ftrace_ops (kernel/kprobes/ftrace.c) instead of writing an int3.  On
 * x86-64 the ops has a trampoline of its own, ftrace_tramp.S, which the
 * fentry call of a function with no other ftrace user calls directly;
 * otherwise ftrace_regs_caller passes a full pt_regs to the ops' callback.
 * The hit itself is <asm-generic/kprobes-ftrace.h>'s, shared with powerpc.
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
 * @p: the site, at a fentry call
 *
 * Return: 0; there is no copy to make.
 */
int arch_prepare_kprobe_ftrace(struct kprobe_hit_site *p)
{
	p->ainsn.kind = KPROBE_INSN_STEP;
	p->ainsn.len = MCOUNT_INSN_SIZE;
	p->ainsn.slot = NULL;
	return 0;
}

/**
 * arch_kprobe_ftrace_trampoline() - the trampoline of the core's ftrace_ops
 *
 * Return: kprobe_ftrace_tramp on x86-64, 0 (ftrace's own) on i386.
 */
unsigned long arch_kprobe_ftrace_trampoline(void)
{
	if (!IS_ENABLED(CONFIG_X86_64))
		return 0;
	return (unsigned long)kprobe_ftrace_tramp;
}

/**
 * kprobe_ftrace_tramp_handler() - the hit of a site called from its trampoline
 * @regs: built by kprobe_ftrace_tramp; ip is the fentry call's address + 1,
 *	as after an int3 on it
 *
 * ftrace calls the trampoline only from a site that has no other ftrace
 * user, so the call returns just past itself, not where a live patch
 * would send it (that makes two users: the live patch goes through
 * kprobe_ftrace_handler()).  Runs with interrupts as the probed function
 * was entered.  There is no ftrace recursion lock: the trampoline and
 * this are not traced, and a hit while this CPU runs a probe (a handler
 * calling the probed function, an NMI) only counts as missed, as at a
 * breakpoint.  Preemption is disabled before the site is looked up: that
 * keeps the per-CPU state ours and makes this an RCU reader.  A site
 * already gone (a task preempted before that point) is out of the table,
 * so not run.
 *
 * Return: where the trampoline returns to: past the call, or where a pre
 * handler redirected execution (fail_function's override).
 */
__visible unsigned long kprobe_ftrace_tramp_handler(struct pt_regs *regs)
{
	unsigned long resume;
	struct kprobe_hit_site *p;

	/* The trampoline backs ip up by MCOUNT_INSN_SIZE - 1. */
	BUILD_BUG_ON(INT3_INSN_SIZE != 1);
	preempt_disable_notrace();
	/* Every site in the table is live: GONE ones left it first. */
	p = kprobe_hit_find(regs->ip - INT3_INSN_SIZE);
	if (!p) {
		resume = regs->ip - INT3_INSN_SIZE + MCOUNT_INSN_SIZE;
	} else {
		if (unlikely(kprobe_running()))
			kprobe_hit_missed(p);
		else if (kprobe_ftrace_hit(kprobe_cpu_this(), p, regs))
			goto redirected;
		/* From @p: nothing else has to live across the calls. */
		resume = (unsigned long)p->addr + MCOUNT_INSN_SIZE;
	}
	preempt_enable_notrace();
	return resume;

redirected:
	preempt_enable_notrace();
	return regs->ip;
}

NOKPROBE_SYMBOL(kprobe_ftrace_tramp_handler);

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
	kprobe_ftrace_dispatch(ip, fregs, INT3_INSN_SIZE);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
