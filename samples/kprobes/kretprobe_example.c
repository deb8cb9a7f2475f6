// SPDX-License-Identifier: GPL-2.0-only
/*
 * kretprobe_example - time the calls of one kernel function.
 *
 *	insmod kretprobe_example.ko func=kernel_clone [maxactive=N]
 *
 * The entry handler stamps the call in the instance's private data; the
 * return handler logs the return value and how long the call took.  Calls
 * made while all instances were in use are not timed; unloading the module
 * reports how many.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/timekeeping.h>

static char *func = "kernel_clone";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "function whose calls are timed (default kernel_clone)");

static int maxactive;
module_param(maxactive, int, 0444);
MODULE_PARM_DESC(maxactive, "calls tracked at once (default: chosen by kprobes)");

/* What travels from a call's entry to its return (kretprobe_instance::data). */
struct call_stamp {
	u64 start_ns;
};

static int call_begins(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_stamp *stamp = (struct call_stamp *)ri->data;

	/* The NMI-safe clock: the probed function may run in any context. */
	stamp->start_ns = ktime_get_mono_fast_ns();
	return 0;
}

static int call_ends(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_stamp *stamp = (struct call_stamp *)ri->data;
	u64 took = ktime_get_mono_fast_ns() - stamp->start_ns;

	pr_info("%s() = %ld (%#lx) in %llu ns\n", func,
		(long)regs_return_value(regs), regs_return_value(regs), took);
	return 0;
}

static struct kretprobe timer = {
	.entry_handler	= call_begins,
	.handler	= call_ends,
	.data_size	= sizeof(struct call_stamp),
};

static int __init kretprobe_example_init(void)
{
	int err;

	timer.kp.symbol_name = func;
	timer.maxactive = maxactive;
	err = register_kretprobe(&timer);
	if (err) {
		pr_err("cannot probe the return of %s: %d\n", func, err);
		return err;
	}
	pr_info("timing %s at %pS with %d instance(s)\n", func, timer.kp.addr,
		timer.maxactive);
	return 0;
}

static void __exit kretprobe_example_exit(void)
{
	unregister_kretprobe(&timer);
	pr_info("stopped timing %s, %d call(s) missed\n", func, timer.nmissed);
}

module_init(kretprobe_example_init);
module_exit(kretprobe_example_exit);
MODULE_DESCRIPTION("Time the calls of one function with a kretprobe");
MODULE_LICENSE("GPL");
