// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suite "kprobes_ftrace" (CONFIG_KPROBES_ON_FTRACE; kprobes_kunit.h has
 * the layout): a probe on a function's ftrace call next to the other
 * users ftrace lets on the same function, a plain ftrace_ops and one that
 * moves the instruction pointer (what a live patch does), registered
 * before and after the probe.  On x86-64 kprobes' ftrace_ops has a
 * trampoline of its own: the text must show the fentry call going there
 * exactly while the probe is the function's only ftrace user.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "kprobes_kunit.h"

/* x86: "call rel32" */
#define KPFT_CALL_LEN	5

/**
 * struct kpft_ops - an ftrace_ops on a kpkt target, counting its calls
 * @ops: the ops; SAVE_REGS where ftrace has them, plus IPMODIFY when @to
 *	is set
 * @to: if set, every call of the target goes there instead
 * @hits: callback calls
 */
struct kpft_ops {
	struct ftrace_ops ops;
	unsigned long to;
	atomic_t hits;
};

static notrace void kpft_ops_func(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op,
				  struct ftrace_regs *fregs)
{
	struct kpft_ops *o = container_of(op, struct kpft_ops, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);

	atomic_inc(&o->hits);
	if (!o->to)
		return;
	/*
	 * SAVE_REGS: regs, also where ftrace_regs cannot set ip (i386); on
	 * DYNAMIC_FTRACE_WITH_ARGS alone (arm64) there are none.
	 */
	if (regs)
		instruction_pointer_set(regs, o->to);
	else
		ftrace_regs_set_instruction_pointer(fregs, o->to);
}

static void kpft_ops_release(void *data)
{
	struct kpft_ops *o = data;

	unregister_ftrace_function(&o->ops);
	ftrace_free_filter(&o->ops);
}

/* Register an ftrace_ops on @fn, released when the case ends. */
static struct kpft_ops *kpft_ops_add(struct kunit *test, kpkt_fn_t fn,
				     kpkt_fn_t to)
{
	struct kpft_ops *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, o);
	o->ops.func = kpft_ops_func;
	/* Without DYNAMIC_FTRACE_WITH_REGS (arm64) ftrace_regs only. */
	o->ops.flags = FTRACE_OPS_FL_SAVE_REGS |
		       FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED;
	if (to) {
		o->ops.flags |= FTRACE_OPS_FL_IPMODIFY;
		o->to = (unsigned long)to;
	}
	ret = ftrace_set_filter_ip(&o->ops, ftrace_location((unsigned long)fn),
				   0, 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = register_ftrace_function(&o->ops);
	if (ret)
		ftrace_free_filter(&o->ops);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "register_ftrace_function(%ps)", fn);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kpft_ops_release,
							o), 0);
	return o;
}

/* A probe on kpkt_arith's entry, which must be its ftrace call. */
static struct kpkt_probe *kpft_probe_add(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_ASSERT_TRUE_MSG(test, kprobe_ftrace(&pp->kp),
			      "%pS is not probed through ftrace", pp->kp.addr);
	KUNIT_EXPECT_EQ(test, (unsigned long)pp->kp.addr,
			ftrace_location((unsigned long)kpkt_arith));
	return pp;
}

static int kpft_init(struct kunit *test)
{
	if (!ftrace_location((unsigned long)kpkt_arith))
		kunit_skip(test, "kpkt_arith has no ftrace call site");
	return kpkt_case_init(test);
}

/*
 * Whether the call at @site goes to the trampoline of kprobes' ftrace_ops
 * (x86-64: "call rel32" to kprobe_ftrace_tramp).
 */
static bool kpft_calls_tramp(unsigned long site)
{
	char name[KSYM_SYMBOL_LEN];
	u8 call[KPFT_CALL_LEN];
	s32 rel;

	if (copy_from_kernel_nofault(call, (void *)site, sizeof(call)) ||
	    call[0] != 0xe8)
		return false;
	memcpy(&rel, &call[1], sizeof(rel));
	snprintf(name, sizeof(name), "%ps", (void *)(site + sizeof(call) + rel));
	return !strcmp(name, "kprobe_ftrace_tramp");
}

/*
 * The text says how a site is reached: on x86-64 the fentry call of a
 * probed function that nothing else traces goes to kprobes' trampoline;
 * with another ftrace_ops on the function it goes to ftrace's caller, and
 * back to the trampoline when that ops leaves; never once the probe is
 * gone.  The probe hits every call throughout.
 */
static void fentry_call_reaches_trampoline(struct kunit *test)
{
	struct kpkt_probe *pp;
	struct kpkt_ref ref;
	struct kpft_ops *o;
	unsigned long site;

	if (!IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "kprobes have no ftrace trampoline here");
	kpkt_ref_init(&ref, kpkt_arith);
	site = ftrace_location((unsigned long)kpkt_arith);
	KUNIT_EXPECT_FALSE(test, kpft_calls_tramp(site));

	pp = kpft_probe_add(test);
	KUNIT_EXPECT_TRUE_MSG(test, kpft_calls_tramp(site), "%pS: %*ph",
			      (void *)site, KPFT_CALL_LEN, (void *)site);
	kpkt_check_probe(test, pp, &ref, true);

	o = kpft_ops_add(test, kpkt_arith, NULL);
	KUNIT_EXPECT_FALSE(test, kpft_calls_tramp(site));
	kpkt_check_probe(test, pp, &ref, true);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->hits), KPKT_NARGS);

	kunit_release_action(test, kpft_ops_release, o);
	KUNIT_EXPECT_TRUE(test, kpft_calls_tramp(site));
	kpkt_check_probe(test, pp, &ref, true);

	kpkt_unregister(test, &pp->kp);
	KUNIT_EXPECT_FALSE(test, kpft_calls_tramp(site));
	KUNIT_EXPECT_EQ(test, kpkt_run(test, &ref, "unprobed"), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
}

/* A plain ftrace_ops on the probed function, before or after the probe. */
static void kpft_with_ops(struct kunit *test, bool ops_first)
{
	struct kpkt_probe *pp = NULL;
	struct kpft_ops *o;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	if (!ops_first)
		pp = kpft_probe_add(test);
	o = kpft_ops_add(test, kpkt_arith, NULL);
	if (ops_first)
		pp = kpft_probe_add(test);

	kpkt_check_probe(test, pp, &ref, true);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->hits), KPKT_NARGS);

	/* Either one alone again. */
	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "ops alone");
	KUNIT_EXPECT_EQ(test, atomic_read(&o->hits), 2 * KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
}

static void ftrace_ops_then_probe(struct kunit *test)
{
	kpft_with_ops(test, true);
}

static void probe_then_ftrace_ops(struct kunit *test)
{
	kpft_with_ops(test, false);
}

/*
 * An ftrace_ops that sends every call of kpkt_arith to kpkt_alt, as a live
 * patch would: the probe still sees each call at kpkt_arith's entry, and
 * the callers get kpkt_alt's results.
 */
static void kpft_with_ipmodify(struct kunit *test, bool ops_first)
{
	struct kpkt_probe *pp = NULL;
	struct kpkt_ref alt;
	struct kpft_ops *o;
	int calls;

	kpkt_ref_init(&alt, kpkt_alt);
	alt.fn = kpkt_arith;
	if (!ops_first)
		pp = kpft_probe_add(test);
	o = kpft_ops_add(test, kpkt_arith, kpkt_alt);
	if (ops_first)
		pp = kpft_probe_add(test);

	calls = kpkt_run(test, &alt, "patched to kpkt_alt and probed");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->hits), calls);
	KUNIT_EXPECT_EQ(test, pp->arg0, (unsigned long)kpkt_args[calls - 1]);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 0UL);

	/* The patch alone again. */
	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &alt, "patched to kpkt_alt");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
}

static void ipmodify_ops_then_probe(struct kunit *test)
{
	kpft_with_ipmodify(test, true);
}

static void probe_then_ipmodify_ops(struct kunit *test)
{
	kpft_with_ipmodify(test, false);
}

/*
 * Calls kpkt_arith(@x) and does something with the result afterwards, so
 * that the call is not a tail call: the target returns here, and the
 * return address its entry sees is inside this function.
 */
static noinline long kpft_caller(long x)
{
	long r = kpkt_call(kpkt_arith, x);

	OPTIMIZER_HIDE_VAR(r);
	return r;
}

/* Is @addr inside kpft_caller()?  (%ps adds " [module]" in a module.) */
static bool kpft_in_caller(unsigned long addr)
{
	char name[KSYM_SYMBOL_LEN];

	snprintf(name, sizeof(name), "%ps", (void *)addr);
	return !strncmp(name, "kpft_caller", strlen("kpft_caller")) &&
	       (!name[strlen("kpft_caller")] ||
		name[strlen("kpft_caller")] == ' ');
}

/**
 * struct kpft_regs - a probe that keeps the registers its handlers saw
 * @kp: the probe
 * @pre: the pre handler's registers
 * @post: the post handler's registers
 * @hits: pre handler calls
 */
struct kpft_regs {
	struct kprobe kp;
	struct pt_regs pre;
	struct pt_regs post;
	atomic_t hits;
};

static int kpft_regs_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpft_regs *r = container_of(p, struct kpft_regs, kp);

	r->pre = *regs;
	atomic_inc(&r->hits);
	return 0;
}

static void kpft_regs_post(struct kprobe *p, struct pt_regs *regs,
			   unsigned long flags)
{
	struct kpft_regs *r = container_of(p, struct kpft_regs, kp);

	r->post = *regs;
}

/*
 * What the handlers of a probe armed through ftrace see, on every
 * architecture: the instruction pointer where a breakpoint on the ftrace
 * call reports a hit (at it, or just past an x86 int3) before the call,
 * just past the call in the post handler, the first argument, a kernel
 * context and a stack pointer on this task's stack.  Where the
 * architecture says how (kpkt_arch_ret_addr()), the return address is
 * the caller's; kpkt_arch_ftrace_regs() checks the rest (arm64: the
 * registers a struct ftrace_regs does not hold read as 0).
 */
static void registers_at_ftrace_hit(struct kunit *test)
{
	struct kpft_regs *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	long want = kpkt_call(kpkt_arith, kpkt_args[1]);
	unsigned long addr, ret;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->kp.symbol_name = "kpkt_arith";
	r->kp.pre_handler = kpft_regs_pre;
	r->kp.post_handler = kpft_regs_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &r->kp), 0);
	KUNIT_ASSERT_TRUE(test, kprobe_ftrace(&r->kp));
	addr = (unsigned long)r->kp.addr;

	KUNIT_EXPECT_EQ(test, kpft_caller(kpkt_args[1]), want);
	kpkt_unregister(test, &r->kp);
	KUNIT_ASSERT_EQ(test, atomic_read(&r->hits), 1);

	KUNIT_EXPECT_GE(test, instruction_pointer(&r->pre), addr);
	KUNIT_EXPECT_LT(test, instruction_pointer(&r->pre),
			addr + MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_EQ(test, instruction_pointer(&r->post),
			addr + MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_EQ(test, (long)regs_get_kernel_argument(&r->pre, 0),
			kpkt_args[1]);
	KUNIT_EXPECT_FALSE(test, user_mode(&r->pre));
	KUNIT_EXPECT_TRUE(test, object_is_on_stack((void *)
					kernel_stack_pointer(&r->pre)));
	ret = kpkt_arch_ret_addr(&r->pre);
	if (ret)
		KUNIT_EXPECT_TRUE_MSG(test, kpft_in_caller(ret),
				      "return address %pS", (void *)ret);
	kpkt_arch_ftrace_regs(test, &r->pre);
}

/**
 * struct kpft_ret - a kretprobe whose entry is an ftrace site
 * @rp: the kretprobe
 * @entries: entry handler calls
 * @returns: return handler calls
 * @retval: the last return value
 * @ret_ip: the instruction pointer of the last return handler call
 */
struct kpft_ret {
	struct kretprobe rp;
	atomic_t entries;
	atomic_t returns;
	long retval;
	unsigned long ret_ip;
};

static int kpft_ret_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpft_ret *k = container_of(get_kretprobe(ri), struct kpft_ret,
					  rp);

	atomic_inc(&k->entries);
	return 0;
}

static int kpft_ret_handler(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct kpft_ret *k = container_of(get_kretprobe(ri), struct kpft_ret,
					  rp);

	k->retval = regs_return_value(regs);
	k->ret_ip = instruction_pointer(regs);
	atomic_inc(&k->returns);
	return 0;
}

/*
 * A kretprobe on kpkt_arith: its entry is the ftrace site, and the return
 * is diverted there (arm64: through the link register the ftrace caller
 * restores).  Every call returns to its caller with its own result, and
 * the return handler sees both.
 */
static void kretprobe_entry_on_ftrace(struct kunit *test)
{
	struct kpft_ret *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	long want = kpkt_call(kpkt_arith, kpkt_args[2]);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->rp.kp.symbol_name = "kpkt_arith";
	k->rp.entry_handler = kpft_ret_entry;
	k->rp.handler = kpft_ret_handler;
	k->rp.maxactive = 4;
	ret = register_kretprobe(&k->rp);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = kunit_add_action_or_reset(test, kpkt_unregister_ret_action,
					&k->rp);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, kprobe_ftrace(&k->rp.kp),
			      "%pS is not probed through ftrace", k->rp.kp.addr);

	KUNIT_EXPECT_EQ(test, kpft_caller(kpkt_args[2]), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&k->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&k->returns), 1);
	KUNIT_EXPECT_EQ(test, k->retval, want);
	KUNIT_EXPECT_TRUE_MSG(test, kpft_in_caller(k->ret_ip),
			      "returned to %pS", (void *)k->ret_ip);
	KUNIT_EXPECT_EQ(test, k->rp.nmissed, 0);
}

static struct kunit_case kprobes_ftrace_cases[] = {
	KUNIT_CASE(registers_at_ftrace_hit),
	KUNIT_CASE(kretprobe_entry_on_ftrace),
	KUNIT_CASE(fentry_call_reaches_trampoline),
	KUNIT_CASE(ftrace_ops_then_probe),
	KUNIT_CASE(probe_then_ftrace_ops),
	KUNIT_CASE(ipmodify_ops_then_probe),
	KUNIT_CASE(probe_then_ipmodify_ops),
	{}
};

static struct kunit_suite kprobes_ftrace_suite = {
	.name = "kprobes_ftrace",
	.init = kpft_init,
	.test_cases = kprobes_ftrace_cases,
};

kunit_test_suite(kprobes_ftrace_suite);
