// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/sys/debug/kprobes-optimization
 *
 * Reads 1 while probes may be jump-optimized, 0 otherwise.  Writing 0
 * turns every optimized probe back into an int3 probe before the write
 * returns and keeps new ones from being optimized; writing 1 lets the
 * optimizer work again (see optimizer.c).  Any other value fails with
 * -EINVAL and changes nothing.
 *
 * Built with CONFIG_OPTPROBES and CONFIG_SYSCTL.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/init.h>
#include <linux/sysctl.h>

#include <kunit/visibility.h>

/**
 * kprobe_opt_sysctl_handler() - read or write debug.kprobes-optimization
 * @table: the sysctl entry
 * @write: true for a write
 * @buffer: kernel copy of the user's buffer
 * @lenp: its length; updated
 * @ppos: file position; updated
 *
 * The value lives in the optimizer; the handler parses into a local int
 * bounded to 0..1, so a refused write leaves it untouched.
 *
 * Return: 0 or a negative errno (-EINVAL for anything but 0 or 1).
 */
int kprobe_opt_sysctl_handler(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	int val = kprobe_opt_enabled();
	struct ctl_table t = *table;
	int ret;

	t.data = &val;
	t.maxlen = sizeof(val);
	t.extra1 = SYSCTL_ZERO;
	t.extra2 = SYSCTL_ONE;
	ret = proc_dointvec_minmax(&t, write, buffer, lenp, ppos);
	if (!ret && write)
		kprobe_opt_set_enabled(val);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_opt_sysctl_handler);

static struct ctl_table kprobe_opt_sysctls[] = {
	{
		.procname	= "kprobes-optimization",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= kprobe_opt_sysctl_handler,
	},
};

static int __init kprobe_opt_sysctl_init(void)
{
	register_sysctl_init("debug", kprobe_opt_sysctls);
	return 0;
}
subsys_initcall(kprobe_opt_sysctl_init);
