// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobes_test_target - module text for the kprobes kselftests to probe.
 *
 * tools/testing/selftests/kprobes/module_gone.sh puts probes on
 * kpt_target() and needs to know exactly how often it runs, so the module
 * calls it on request only:
 *
 *	echo N > /sys/module/kprobes_test_target/parameters/calls
 *
 * calls it N times (at most KPT_MAX_CALLS per write) and checks each result,
 * failing the write with -EIO if a probe broke the function.  Reading the
 * parameter gives the number of calls made so far.  Unloading the module
 * with probes still on kpt_target() is what makes them "gone".
 *
 * Each of those calls is followed by one of kpt_notrace_target(), which is
 * notrace: it has no ftrace call site, so a kprobe on its entry is an int3
 * (or an optimized jump), never a kprobe on ftrace.  bpf_kprobe.sh probes
 * it there; module_gone.sh counts the calls of kpt_target() only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/module.h>

#define KPT_MAX_CALLS	1000

static unsigned long kpt_calls;

/* Arithmetic that a mis-executed instruction would change. */
static noinline long kpt_target(long x)
{
	long y = x * 7;

	OPTIMIZER_HIDE_VAR(y);
	return y + 3;
}

/* The same arithmetic, without an ftrace call site at its entry. */
static notrace noinline long kpt_notrace_target(long x)
{
	long y = x * 5;

	OPTIMIZER_HIDE_VAR(y);
	return y + 1;
}

static int kpt_calls_set(const char *val, const struct kernel_param *kp)
{
	long (*fn)(long) = kpt_target;
	long (*nfn)(long) = kpt_notrace_target;
	unsigned int n, i;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > KPT_MAX_CALLS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		/* Through a hidden pointer: no clone, no inlining. */
		OPTIMIZER_HIDE_VAR(fn);
		if (fn(i) != (long)i * 7 + 3) {
			pr_err("kpt_target(%u) returned a wrong value\n", i);
			return -EIO;
		}
		OPTIMIZER_HIDE_VAR(nfn);
		if (nfn(i) != (long)i * 5 + 1) {
			pr_err("kpt_notrace_target(%u) returned a wrong value\n", i);
			return -EIO;
		}
		kpt_calls++;
	}
	return 0;
}

static int kpt_calls_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%lu\n", kpt_calls);
}

static const struct kernel_param_ops kpt_calls_ops = {
	.set = kpt_calls_set,
	.get = kpt_calls_get,
};
module_param_cb(calls, &kpt_calls_ops, NULL, 0644);
MODULE_PARM_DESC(calls,
		 "write N: call kpt_target() and kpt_notrace_target() N times; read: calls so far");

MODULE_DESCRIPTION("Module text for the kprobes kselftests to probe");
MODULE_LICENSE("GPL");
