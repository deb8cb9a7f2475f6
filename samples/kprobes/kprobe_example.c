// SPDX-License-Identifier: GPL-2.0-only
/*
 * kprobe_example - log every hit of a probe on one kernel function.
 *
 *	insmod kprobe_example.ko symbol=kernel_clone
 *
 * Each time the function is entered, the pre handler logs the probed
 * address with two registers, and the post handler logs them again after
 * the probed instruction ran.  Unloading the module reports how many hits
 * were missed (hits while another probe handler ran on the same CPU).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>

static char *symbol = "kernel_clone";
module_param(symbol, charp, 0444);
MODULE_PARM_DESC(symbol, "function to probe (default kernel_clone)");

/*
 * Pick what to print from a probe hit; the same for both handlers.  Only
 * the portable accessors of <asm/ptrace.h>, so that the sample builds on
 * every architecture with kprobes.
 */
static void log_hit(const char *stage, struct kprobe *p, struct pt_regs *regs)
{
	pr_info("%s %s (%pS): ip=%pS sp=%#lx\n", stage, p->symbol_name,
		p->addr, (void *)instruction_pointer(regs),
		kernel_stack_pointer(regs));
}

static int on_hit(struct kprobe *p, struct pt_regs *regs)
{
	log_hit("before", p, regs);
	/* 0: let the probed instruction run (then on_step is called). */
	return 0;
}

static void on_step(struct kprobe *p, struct pt_regs *regs,
		    unsigned long flags)
{
	log_hit("after", p, regs);
}

static struct kprobe probe = {
	.pre_handler	= on_hit,
	.post_handler	= on_step,
};

static int __init kprobe_example_init(void)
{
	int err;

	probe.symbol_name = symbol;
	err = register_kprobe(&probe);
	if (err) {
		pr_err("cannot probe %s: %d\n", symbol, err);
		return err;
	}
	pr_info("probing %s at %pS\n", symbol, probe.addr);
	return 0;
}

static void __exit kprobe_example_exit(void)
{
	unregister_kprobe(&probe);
	pr_info("stopped probing %s, %lu hit(s) missed\n", symbol,
		probe.nmissed);
}

module_init(kprobe_example_init);
module_exit(kprobe_example_exit);
MODULE_DESCRIPTION("Log the hits of a kprobe on one function");
MODULE_LICENSE("GPL");
