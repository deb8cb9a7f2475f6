// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sites on an ftrace call site (the fentry call at a function's entry).
 *
 * Such text belongs to ftrace: an int3 there would fight with ftrace's own
 * patching.  Instead the site's ip joins the filter of one ftrace_ops whose
 * callback, kprobe_ftrace_handler() (arch code), looks the site up and runs
 * its handlers as if the breakpoint had hit.  The ops is registered while
 * at least one ftrace site is armed.  Where the architecture has one, the
 * ops also has a trampoline of its own (arch_kprobe_ftrace_trampoline()),
 * which ftrace calls straight from the fentry call of a function that no
 * other ftrace_ops traces: such a hit skips ftrace's generic caller and
 * the callback.  Other users of the function (the function tracer, a
 * live patch, a BPF trampoline) are never kept out: with them ftrace
 * calls its own caller, and that the callback.
 *
 * Ordering matters because an ops with an empty filter traces every
 * function: the first ip is added before the ops is registered, and the ops
 * is unregistered before the last ip is removed.
 *
 * kprobe_ftrace_users is protected by kprobe_mutex.  This file is built
 * only with CONFIG_KPROBES_ON_FTRACE; kprobe_ftrace_kill() is in arm.c
 * because ftrace calls it whenever the function tracer exists.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/ftrace.h>

/*
 * No FTRACE_OPS_FL_IPMODIFY: the handler gives regs->ip back unchanged
 * unless a pre handler redirects execution, which is the handler's own
 * business (fail_function does it), as with an int3 probe.  Claiming the
 * flag would keep probes off functions that have an ftrace direct call
 * or a live patch.
 */
/*
 * No FTRACE_OPS_FL_RECURSION either: that flag asks ftrace to protect the
 * callback from recursion, by calling it through ftrace_ops_assist_func()
 * whenever the ops alone traces the function.  kprobe_ftrace_handler()
 * needs none: it is not traced itself, and a handler that calls a probed
 * function is a hit on a busy CPU, counted as missed
 * (<asm-generic/kprobes-ftrace.h>).  The trampoline, if the
 * architecture has one, is set before the first registration and never
 * changes.
 */
/*
 * SAVE_REGS only where the callback reads a full pt_regs: on
 * DYNAMIC_FTRACE_WITH_ARGS (HAVE_KPROBES_ON_FTRACE_ARGS) ftrace has none
 * and would refuse the flag; the callback builds its pt_regs from
 * ftrace_regs (<linux/kprobes_arch.h>).
 */
static struct ftrace_ops kprobe_ftrace_ops __read_mostly = {
	.func	= kprobe_ftrace_handler,
	.flags	= IS_ENABLED(CONFIG_HAVE_KPROBES_ON_FTRACE_ARGS) ?
		  0 : FTRACE_OPS_FL_SAVE_REGS,
};

static unsigned int kprobe_ftrace_users;

/**
 * arch_kprobe_ftrace_trampoline() - the architecture's trampoline for the
 *	core's ftrace_ops
 *
 * The default: none; ftrace calls kprobe_ftrace_handler() from its own.
 *
 * Return: the trampoline's address, or 0.
 */
unsigned long __weak arch_kprobe_ftrace_trampoline(void)
{
	return 0;
}

int kprobe_ftrace_arm(struct kprobe_site *site)
{
	unsigned long ip = (unsigned long)site->hit.addr;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	ret = ftrace_set_filter_ip(&kprobe_ftrace_ops, ip, 0, 0);
	if (ret) {
		pr_warn("cannot add %pS to the ftrace filter (%d)\n",
			site->hit.addr, ret);
		return ret;
	}
	if (!kprobe_ftrace_users) {
		if (!kprobe_ftrace_ops.trampoline)
			kprobe_ftrace_ops.trampoline =
				arch_kprobe_ftrace_trampoline();
		ret = register_ftrace_function(&kprobe_ftrace_ops);
		if (ret) {
			pr_warn("cannot register the kprobes ftrace_ops (%d)\n",
				ret);
			ftrace_set_filter_ip(&kprobe_ftrace_ops, ip, 1, 0);
			return ret;
		}
	}
	kprobe_ftrace_users++;
	return 0;
}

void kprobe_ftrace_disarm(struct kprobe_site *site)
{
	unsigned long ip = (unsigned long)site->hit.addr;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	if (WARN_ON_ONCE(!kprobe_ftrace_users))
		return;
	if (kprobe_ftrace_users == 1) {
		ret = unregister_ftrace_function(&kprobe_ftrace_ops);
		/* After kprobe_ftrace_kill() ftrace refuses everything. */
		WARN(ret && !READ_ONCE(kprobe_ftrace_killed),
		     "kprobes: cannot unregister the ftrace_ops (%d)\n", ret);
	}
	kprobe_ftrace_users--;
	ret = ftrace_set_filter_ip(&kprobe_ftrace_ops, ip, 1, 0);
	WARN(ret && !READ_ONCE(kprobe_ftrace_killed),
	     "kprobes: cannot remove %pS from the ftrace filter (%d)\n",
	     site->hit.addr, ret);
}
