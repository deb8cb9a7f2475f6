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
 * diverts the return).  The handlers are shown what a trap probe would
 * show them: nip at the probe address during the pre handler, just past
 * the 4-byte call afterwards.  Nothing is stepped: the probed instruction
 * is the ftrace call, which has no effect of its own.  Unless a pre
 * handler redirects execution (returns non-zero), regs->nip is given
 * back as ftrace passed it.
 *
 * This file is built without the ftrace hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "ppc-kprobes.h"

#include <linux/ftrace.h>
#include <linux/trace_recursion.h>

/**
 * arch_prepare_kprobe_ftrace() - prepare a site armed through ftrace
 * @p: the site's kprobe, at an ftrace call
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

/* Run @p's handlers on an idle CPU, with nip as a trap probe has it. */
static nokprobe_inline void kprobe_ftrace_hit(struct kprobe *p,
					      struct pt_regs *regs,
					      unsigned long ip)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	unsigned long resume = regs->nip;
	kprobe_post_handler_t post;

	__this_cpu_write(current_kprobe, p);
	kprobe_move_state(kcb, KPROBE_CPU_IDLE, KPROBE_CPU_HANDLER);

	regs->nip = ip;
	/* Non-zero: a handler chose regs->nip, and ftrace resumes there. */
	if (kprobe_hit_pre(p, regs)) {
		kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
		reset_current_kprobe();
		return;
	}
	post = READ_ONCE(p->post_handler);
	if (post) {
		/* As if the call had run. */
		regs->nip = ip + MCOUNT_INSN_SIZE;
		kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_POST);
		kprobe_hit_post(p, post, regs);
		kprobe_move_state(kcb, KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	}
	/* Where ftrace was going to resume (a live patch may have chosen). */
	regs->nip = resume;
	reset_current_kprobe();
}

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: address of the ftrace call, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: registers saved by ftrace_regs_caller
 *
 * Runs with preemption disabled and possibly with interrupts on: a trap
 * probe hit from an interrupt meanwhile is a re-entry (see core.c).
 */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct kprobe *p;
	int bit;

	/* The core's ops ask for SAVE_REGS; without them there is no probe. */
	if (unlikely(!regs))
		return;

	/* Also disables preemption: the per-CPU state stays ours. */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;

	p = kprobe_hit_find(ip);
	if (p && !kprobe_disabled(p)) {
		if (kprobe_running())
			kprobes_inc_nmissed_count(p);
		else
			kprobe_ftrace_hit(p, regs, ip);
	}
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
