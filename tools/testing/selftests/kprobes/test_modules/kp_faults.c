// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kp_faults - registrations for fault_inject.sh to fail one allocation of.
 *
 * Writing an operation's name to /sys/module/kp_faults/parameters/op runs
 * it in the writing task, so that the task's fault injection
 * (/proc/self/fail-nth: its Nth failslab or fail_page_alloc point fails)
 * reaches the allocations the registration makes:
 *
 *	kprobe     register_kprobe() at the entry of a function without an
 *	           ftrace site (an int3 site, queued for jump optimization)
 *	batch      register_kprobes() of six probes on three functions (two
 *	           share each site)
 *	kretprobe  register_kretprobe() with a pool of 64 instances of 256
 *	           bytes of data each (too big for one slab object: a
 *	           kvzalloc() that goes to the page allocator, then vmalloc())
 *	hold       register_kprobe() of a probe that stays (for the jump
 *	           optimizer's worker to work on), and
 *	release    its check and unregistration
 *
 * Whatever the registration returns, the operation then checks what it
 * left: if it succeeded, every probe fires once per call of its function
 * and is unregistered; if it failed, no handler runs and the functions
 * still compute what they should.  Afterwards the text of every function
 * must be what it was before.  The outcome is the "result" parameter:
 *
 *	op=kprobe ret=-12 hits=0 want=0 text=original calls=right
 *
 * "ret" is the registration's return value, "hits" the handler calls seen
 * (-1: a handler ran after unregistration), "want" what they should be,
 * "text" original or CHANGED, "calls" whether the functions computed the
 * right values afterwards.  The write itself fails only if the operation
 * is unknown.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define KPF_TEXT	16	/* bytes compared at each function's entry */
#define KPF_TARGETS	3
#define KPF_BATCH	(2 * KPF_TARGETS)

static char kpf_result[128] = "none";
module_param_string(result, kpf_result, sizeof(kpf_result), 0644);
MODULE_PARM_DESC(result, "outcome of the last operation (writable: the test resets it)");

/* Arithmetic that a mis-executed instruction would change; no ftrace site. */
static notrace noinline long kpf_target0(long x)
{
	long y = x * 7;

	OPTIMIZER_HIDE_VAR(y);
	return y + 3;
}

static notrace noinline long kpf_target1(long x)
{
	long y = x * 11;

	OPTIMIZER_HIDE_VAR(y);
	return y + 5;
}

static notrace noinline long kpf_target2(long x)
{
	long y = x * 13;

	OPTIMIZER_HIDE_VAR(y);
	return y + 9;
}

static long (*const kpf_targets[KPF_TARGETS])(long x) = {
	kpf_target0, kpf_target1, kpf_target2,
};

static const long kpf_mul[KPF_TARGETS] = { 7, 11, 13 };
static const long kpf_add[KPF_TARGETS] = { 3, 5, 9 };

static atomic_t kpf_hits;

static int kpf_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&kpf_hits);
	return 0;
}

static int kpf_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_inc(&kpf_hits);
	return 0;
}

struct kpf_text {
	u8 bytes[KPF_TARGETS][KPF_TEXT];
};

static void kpf_read_text(struct kpf_text *t)
{
	int i;

	for (i = 0; i < KPF_TARGETS; i++)
		if (copy_from_kernel_nofault(t->bytes[i], kpf_targets[i], KPF_TEXT))
			memset(t->bytes[i], 0, KPF_TEXT);
}

/*
 * Call every function once; false if one computed a wrong value.  The
 * calls go through a pointer the compiler cannot see through, so that
 * they are real calls of the probed text.
 */
static bool kpf_call_all(void)
{
	long (*fn)(long x);
	bool good = true;
	int i;

	for (i = 0; i < KPF_TARGETS; i++) {
		fn = kpf_targets[i];
		OPTIMIZER_HIDE_VAR(fn);
		if (fn(i + 2) != (i + 2) * kpf_mul[i] + kpf_add[i])
			good = false;
	}
	return good;
}

static int kpf_op_kprobe(int *want)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)kpf_target0,
		.pre_handler = kpf_pre,
	};
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	*want = 1;
	kpf_call_all();
	unregister_kprobe(&kp);
	return 0;
}

static int kpf_op_batch(int *want)
{
	struct kprobe kps[KPF_BATCH] = {};
	struct kprobe *list[KPF_BATCH];
	int i, ret;

	for (i = 0; i < KPF_BATCH; i++) {
		kps[i].addr = (kprobe_opcode_t *)kpf_targets[i % KPF_TARGETS];
		kps[i].pre_handler = kpf_pre;
		list[i] = &kps[i];
	}
	ret = register_kprobes(list, KPF_BATCH);
	if (ret)
		return ret;
	*want = KPF_BATCH;
	kpf_call_all();
	unregister_kprobes(list, KPF_BATCH);
	return 0;
}

static int kpf_op_kretprobe(int *want)
{
	struct kretprobe rp = {
		.kp.addr = (kprobe_opcode_t *)kpf_target1,
		.handler = kpf_ret,
		.data_size = 256,
		.maxactive = 64,
	};
	int ret;

	ret = register_kretprobe(&rp);
	if (ret)
		return ret;
	*want = 1;
	kpf_call_all();
	unregister_kretprobe(&rp);
	return 0;
}

/*
 * "hold" registers a probe and leaves it, for the jump optimizer's worker
 * to work on (fault_inject.sh fails its allocations meanwhile); "release"
 * then checks that the probe fires once per call and unregisters it.
 * The text is compared with what it was before "hold".
 */
static struct kprobe kpf_held;
static bool kpf_holding;
static struct kpf_text kpf_held_before;

static int kpf_op_hold(int *want)
{
	int ret;

	if (kpf_holding)
		return -EBUSY;
	memset(&kpf_held, 0, sizeof(kpf_held));
	kpf_held.addr = (kprobe_opcode_t *)kpf_target2;
	kpf_held.pre_handler = kpf_pre;
	ret = register_kprobe(&kpf_held);
	kpf_holding = !ret;
	return ret;
}

static int kpf_op_release(int *want)
{
	if (!kpf_holding)
		return -ENOENT;
	*want = 1;
	kpf_call_all();
	unregister_kprobe(&kpf_held);
	kpf_holding = false;
	return 0;
}

static const struct {
	const char *name;
	int (*run)(int *want);
	bool holds;	/* the probe stays: "text" compares with before "hold" */
} kpf_ops[] = {
	{ "kprobe", kpf_op_kprobe },
	{ "batch", kpf_op_batch },
	{ "kretprobe", kpf_op_kretprobe },
	{ "hold", kpf_op_hold, true },
	{ "release", kpf_op_release, true },
};

static int kpf_op_set(const char *val, const struct kernel_param *kparam)
{
	struct kpf_text before, after;
	int i, ret, want = 0, hits;
	bool good;

	for (i = 0; i < ARRAY_SIZE(kpf_ops); i++)
		if (sysfs_streq(val, kpf_ops[i].name))
			break;
	if (i == ARRAY_SIZE(kpf_ops))
		return -EINVAL;

	if (kpf_ops[i].holds && !kpf_holding)
		kpf_read_text(&kpf_held_before);
	kpf_read_text(&before);
	atomic_set(&kpf_hits, 0);
	ret = kpf_ops[i].run(&want);
	hits = atomic_read(&kpf_hits);
	if (kpf_holding) {
		/* "hold": the probe is armed; nothing else to check yet. */
		snprintf(kpf_result, sizeof(kpf_result), "op=%s ret=%d",
			 kpf_ops[i].name, ret);
		return 0;
	}
	/* Nothing may fire any more, and the functions must still work. */
	good = kpf_call_all();
	if (atomic_read(&kpf_hits) != hits)
		hits = -1;
	kpf_read_text(&after);
	if (kpf_ops[i].holds)
		before = kpf_held_before;

	snprintf(kpf_result, sizeof(kpf_result),
		 "op=%s ret=%d hits=%d want=%d text=%s calls=%s",
		 kpf_ops[i].name, ret, hits, want,
		 memcmp(&before, &after, sizeof(before)) ? "CHANGED" : "original",
		 good ? "right" : "WRONG");
	return 0;
}

static const struct kernel_param_ops kpf_op_ops = {
	.set = kpf_op_set,
};
module_param_cb(op, &kpf_op_ops, NULL, 0200);
MODULE_PARM_DESC(op, "run an operation: kprobe, batch, kretprobe, hold or release");

static void __exit kpf_exit(void)
{
	if (kpf_holding)
		unregister_kprobe(&kpf_held);
}
module_exit(kpf_exit);

MODULE_DESCRIPTION("kprobes kselftest: registrations under fault injection");
MODULE_LICENSE("GPL");
