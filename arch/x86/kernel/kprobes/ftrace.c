// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes on ftrace sites.
 *
 * A probe on a function's fentry call is armed by the core attaching an
 * ftrace_ops (kernel/kprobes/ftrace.c) instead of writing an int3.
 * ftrace_regs_caller passes a full pt_regs and, once the callbacks are
 * done, resumes at regs->ip.  The handlers are shown what an int3 probe
 * would show them: regs->ip just past the breakpoint during the pre
 * handler, just past the 5-byte call afterwards.  Nothing is stepped: the
 * probed instruction is the fentry call, which has no effect of its own.
 * Unless a pre handler redirects execution (returns non-zero), regs->ip
 * is given back as ftrace passed it.
 *
 * This file is built without the fentry hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "x86-kprobes.h"

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/trace_recursion.h>
#include <asm/text-patching.h>

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

/* Run @p's handlers on an idle CPU, with regs->ip as an int3 probe has it. */
static nokprobe_inline void kprobe_ftrace_hit(struct kprobe *p,
					      struct pt_regs *regs,
					      unsigned long ip)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	unsigned long resume = regs->ip;
	kprobe_post_handler_t post;

	__this_cpu_write(current_kprobe, p);
	kprobe_move_state(kcb, KPROBE_CPU_IDLE, KPROBE_CPU_HANDLER);

	regs->ip = ip + INT3_INSN_SIZE;
	/* Non-zero: a handler chose regs->ip, and ftrace resumes there. */
	if (kprobe_hit_pre(p, regs))
		goto idle;
	post = READ_ONCE(p->post_handler);
	if (post) {
		/* As if the call had run. */
		regs->ip = ip + MCOUNT_INSN_SIZE;
		kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_POST);
		kprobe_hit_post(p, post, regs);
		kprobe_move_state(kcb, KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	}
	/*
	 * Where ftrace was going to resume, which another ftrace_ops (a live
	 * patch) may have chosen: kprobes changes it only when a handler
	 * asks to, so its ftrace_ops needs no FTRACE_OPS_FL_IPMODIFY.
	 */
	regs->ip = resume;
	reset_current_kprobe();
	return;
idle:
	kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	reset_current_kprobe();
}

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: address of the fentry call, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: registers saved by ftrace_regs_caller
 *
 * Runs with preemption disabled and possibly with interrupts on: an int3
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
