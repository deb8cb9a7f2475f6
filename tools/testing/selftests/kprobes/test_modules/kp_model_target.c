// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kp_model_target - module text for kp_model.ko's random sequence, which
 * loads and unloads this module (model.sh) while probes are registered on
 * it: probes on module text that goes away, and on init text that goes
 * away when the module's init returns.
 *
 *	insmod kp_model_target.ko boot_calls=N [fail=1]
 *
 * calls kpmt_boot(), in init text, N times and fails to load (-EIO) if a
 * probe broke it, or (-EAGAIN) if asked to.  kpmt_t0() and kpmt_t1() are
 * called by kp_model.ko only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "kp_model_target.h"

static uint boot_calls;
module_param(boot_calls, uint, 0444);
MODULE_PARM_DESC(boot_calls, "calls of kpmt_boot() by the module's init");

static bool fail;
module_param(fail, bool, 0444);
MODULE_PARM_DESC(fail, "fail to load (-EAGAIN) after the calls");

noinline long kpmt_t0(long x)
{
	long y = x * 19;

	OPTIMIZER_HIDE_VAR(y);
	return y - 6;
}
EXPORT_SYMBOL_GPL(kpmt_t0);

notrace noinline long kpmt_t1(long x)
{
	long y = x + 29;

	OPTIMIZER_HIDE_VAR(y);
	return y ^ 0x33;
}
EXPORT_SYMBOL_GPL(kpmt_t1);

/* notrace: a probe at its entry is a plain one on every architecture. */
static notrace noinline long __init kpmt_boot(long x)
{
	long y = x * 13;

	OPTIMIZER_HIDE_VAR(y);
	return y - 4;
}

static int __init kp_model_target_init(void)
{
	long (*fn)(long x) = kpmt_boot;
	uint i;

	for (i = 0; i < boot_calls; i++) {
		/* Through a hidden pointer: no clone, no inlining. */
		OPTIMIZER_HIDE_VAR(fn);
		if (fn(i) != (long)i * 13 - 4) {
			pr_err("kpmt_boot(%u) returned a wrong value\n", i);
			return -EIO;
		}
	}
	return fail ? -EAGAIN : 0;
}

/* Without an exit function the module could not be unloaded. */
static void __exit kp_model_target_exit(void)
{
}

module_init(kp_model_target_init);
module_exit(kp_model_target_exit);
MODULE_DESCRIPTION("Module text that kp_model.ko loads, probes and unloads");
MODULE_LICENSE("GPL");
