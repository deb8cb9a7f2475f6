// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suite "kprobes_hit": what a probe does when it is hit, black-box: only
 * <linux/kprobes.h> (kprobes_kunit.h has the layout).  Every instruction
 * of the targets probed in turn, several probes at one address, a probe
 * hit from inside a handler, pre handlers that move the instruction
 * pointer or change an argument, faults in handlers and in probed
 * instructions, and arming and disarming while another CPU calls.
 */

#include <linux/delay.h>
#include <linux/extable.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

#include "kprobes_kunit.h"

/* Probe each instruction of @fn in turn; @exact: straight-line code. */
static void kpkt_probe_each_insn(struct kunit *test, kpkt_fn_t fn, bool exact)
{
	struct kpkt_text t;
	struct kpkt_probe *pp;
	struct kpkt_ref ref;
	unsigned int i;
	int calls, ret;

	kpkt_decode_or_skip(test, fn, exact, &t);
	kpkt_ref_init(&ref, fn);
	for (i = 0; i < t.nr; i++) {
		pp = kpkt_probe_new(test, (void *)(t.start + t.off[i]), NULL, 0);
		ret = kpkt_register(test, &pp->kp);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%ps+%#x", fn, t.off[i]);
		if (ret)
			continue;
		calls = kpkt_run(test, &ref, "one instruction probed");
		if (exact)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), calls,
					    "%ps+%#x", fn, t.off[i]);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp),
				    kpkt_pre_hits(pp), "%ps+%#x", fn, t.off[i]);
		kpkt_unregister(test, &pp->kp);
	}
}

static void every_instruction_runs_probed(struct kunit *test)
{
	kpkt_probe_each_insn(test, kpkt_arith, true);
	kpkt_probe_each_insn(test, kpkt_rip, true);
	kpkt_probe_each_insn(test, kpkt_caller, true);
	kpkt_probe_each_insn(test, kpkt_leaf, true);
	kpkt_probe_each_insn(test, kpkt_branch, false);
}

static void kpkt_zero(struct kpkt_probe *pp)
{
	atomic_set(&pp->pre_hits, 0);
	atomic_set(&pp->post_hits, 0);
}

/* Run the target once per argument; check each probe's pre handler count. */
static void kpkt_expect_hits(struct kunit *test, const struct kpkt_ref *ref,
			     struct kpkt_probe **pp, const int *hits,
			     unsigned int nr, const char *phase)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		kpkt_zero(pp[i]);
	kpkt_run(test, ref, phase);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp[i]),
				    hits[i] * KPKT_NARGS,
				    "probe %c, %s", 'a' + i, phase);
}

/*
 * Three probes on one address: independent enable, disable and removal.
 * c (no post handler) comes first, so the site is armed before members
 * with post handlers join it, and it outlives them.
 */
static void kpkt_aggregate_at(struct kunit *test, void *addr, bool at_entry)
{
	struct kpkt_probe *pp[3];
	struct kpkt_probe *a, *b, *c;
	struct kpkt_ref ref;
	const int n = KPKT_NARGS;

	kpkt_ref_init(&ref, kpkt_arith);
	a = kpkt_probe_new(test, addr, NULL, 0);
	b = kpkt_probe_new(test, addr, NULL, 0);
	c = kpkt_probe_new(test, addr, NULL, 0);
	c->kp.post_handler = NULL;
	pp[0] = a;
	pp[1] = b;
	pp[2] = c;

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "c");
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &b->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 1, 1 }, 3, "c, a, b");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(c), 0);
	if (at_entry) {
		KUNIT_EXPECT_EQ(test, (long)a->arg0, kpkt_args[n - 1]);
		KUNIT_EXPECT_EQ(test, (long)c->arg0, kpkt_args[n - 1]);
	}

	KUNIT_EXPECT_EQ(test, disable_kprobe(&a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 1, 1 }, 3, "a disabled");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&b->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "a, b disabled");
	KUNIT_EXPECT_EQ(test, disable_kprobe(&c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 0 }, 3, "all disabled");

	/* Each handler ran as its own kprobe (bpf_get_func_ip() reads it). */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->not_running), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->not_running), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->not_running), 0);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 0 }, 3, "a enabled");
	/* Alone at its site: called without the walk, still as itself. */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->not_running), 0);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&b->kp), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 1, 1 }, 3, "all enabled");

	kpkt_unregister(test, &a->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 1, 1 }, 3, "a removed");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	kpkt_unregister(test, &b->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "b removed");

	/* The first one comes back to a site that kept running. */
	kpkt_probe_reset(a);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 1 }, 3, "a is back");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);

	/* The site's first member leaves before the last one. */
	kpkt_unregister(test, &c->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 0 }, 3, "c removed");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, a->kp.nmissed + b->kp.nmissed + c->kp.nmissed,
			0UL);
	kpkt_unregister(test, &a->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 0 }, 3, "all removed");
}

static void several_probes_at_entry(struct kunit *test)
{
	kpkt_aggregate_at(test, kpkt_arith, true);
}

static void several_probes_mid_function(struct kunit *test)
{
	void *addr = kpkt_mid_addr(test, kpkt_arith);

	if (!addr)
		kunit_skip(test, "instruction decoder: " KPKT_NO_HELPERS);
	kpkt_aggregate_at(test, addr, false);
}

/*
 * A handler calls a probed function: the inner probe must not run its
 * handlers, count a miss instead, and the function must still work.
 */
static void kpkt_recursion_one(struct kunit *test, void *outer_addr,
			       void *inner_addr, bool from_post)
{
	struct kpkt_probe *outer = kpkt_probe_new(test, outer_addr, NULL, 0);
	struct kpkt_probe *inner = kpkt_probe_new(test, inner_addr, NULL, 0);
	struct kpkt_ref ref, ref_inner;
	long want_inner = kpkt_call(kpkt_inner, 5);
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_ref_init(&ref_inner, kpkt_inner);
	outer->nest_fn = kpkt_inner;
	outer->nest_in_post = from_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &inner->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &outer->kp), 0);

	calls = kpkt_run(test, &ref, "handler calls a probed function");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(outer), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(outer), calls);
	KUNIT_EXPECT_EQ(test, outer->nest_ret, want_inner);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), 0);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(inner), 0);
	KUNIT_EXPECT_EQ(test, inner->kp.nmissed, (unsigned long)calls);
	KUNIT_EXPECT_EQ(test, outer->kp.nmissed, 0UL);

	/* Outside a handler the inner probe works normally. */
	calls = kpkt_run(test, &ref_inner, "inner called directly");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(inner), calls);

	kpkt_unregister(test, &outer->kp);
	kpkt_unregister(test, &inner->kp);
}

static void hit_inside_handler_is_missed(struct kunit *test)
{
	void *outer_mid = kpkt_mid_addr(test, kpkt_arith);
	void *inner_mid = kpkt_mid_addr(test, kpkt_inner);
	void *outers[] = { kpkt_arith, outer_mid };
	void *inners[] = { kpkt_inner, inner_mid };
	unsigned int o, i, post;

	for (o = 0; o < ARRAY_SIZE(outers); o++)
		for (i = 0; i < ARRAY_SIZE(inners); i++)
			for (post = 0; post < 2; post++)
				if (outers[o] && inners[i])
					kpkt_recursion_one(test, outers[o],
							   inners[i], post);
	if (!outer_mid)
		kunit_info(test, "function-entry probes only; mid-function: "
			   KPKT_NO_HELPERS "\n");
}

/* A pre handler moves the instruction pointer elsewhere and returns 1. */
static void pre_handler_redirects(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref, alt;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_ref_init(&alt, kpkt_alt);
	KUNIT_ASSERT_NE(test, ref.want[0], alt.want[0]);
	pp->redirect = (unsigned long)kpkt_alt;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);

	/* kpkt_arith's callers get kpkt_alt's results. */
	alt.fn = kpkt_arith;
	calls = kpkt_run(test, &alt, "redirected to kpkt_alt");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), 0);

	pp->redirect = 0;
	kpkt_check_probe(test, pp, &ref, true);
}

/* A pre handler at entry changes an argument; the function sees it. */
static void pre_handler_changes_argument(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	long want = kpkt_call(kpkt_arith, 1000);
	unsigned int i;

	pp->set_arg0 = 1000;
	pp->do_set_arg0 = true;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	for (i = 0; i < KPKT_NARGS; i++)
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_arith, kpkt_args[i]), want);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), KPKT_NARGS);
}

/* Handlers that take (and survive) a page fault. */
static void kpkt_fault_in_handler_at(struct kunit *test, void *addr,
				     bool in_post)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, addr, NULL, 0);
	struct kpkt_ref ref;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	pp->fault_in_pre = !in_post;
	pp->fault_in_post = in_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	calls = kpkt_run(test, &ref, "handler faulted");
	KUNIT_EXPECT_EQ(test, pp->fault_ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), calls);

	/* And nothing was left behind by the faults. */
	pp->fault_in_pre = false;
	pp->fault_in_post = false;
	kpkt_check_probe(test, pp, &ref, false);
	kpkt_unregister(test, &pp->kp);
}

static void handler_survives_fault(struct kunit *test)
{
	void *mid;

	kpkt_setup_bad_addr(test);
	kpkt_fault_in_handler_at(test, kpkt_arith, false);
	kpkt_fault_in_handler_at(test, kpkt_arith, true);
	mid = kpkt_mid_addr(test, kpkt_arith);
	if (mid) {
		kpkt_fault_in_handler_at(test, mid, false);
		kpkt_fault_in_handler_at(test, mid, true);
	}
}

/*
 * The probed instruction itself faults and its exception-table fixup must
 * still apply, although it ran out of line.
 */
static void probed_instruction_fault_fixed_up(struct kunit *test)
{
	static long good = 0x5eed;
	struct kpkt_probe *pp;
	struct kpkt_text t;
	unsigned long addr = 0;
	unsigned int i, round;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "exception tables: " KPKT_NO_HELPERS);
	kpkt_decode_or_skip(test, kpkt_peek, false, &t);
	for (i = 0; i < t.nr && !addr; i++)
		if (search_exception_tables(t.start + t.off[i]))
			addr = t.start + t.off[i];
	KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no fixup in kpkt_peek");
	kpkt_setup_bad_addr(test);

	pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
	pp->kp.post_handler = NULL;	/* let it be optimized in round 1 */
	KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
			    "probe on an instruction with a fixup");
	for (round = 0; round < 2; round++) {
		atomic_set(&pp->pre_hits, 0);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)&good), good);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)kpkt_bad_addr),
				(long)-EFAULT);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)&good), good);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), 3, "round %u",
				    round);
		kpkt_settle();
	}
}

/* Probes without a post handler may be optimized; they must still work. */
static void optimizable_probe_hits(struct kunit *test)
{
	struct kpkt_probe *pp, *with_post;
	struct kpkt_ref ref;
	struct kpkt_text t;
	int calls;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	kpkt_ref_init(&ref, kpkt_arith);
	pp = kpkt_probe_new(test, (void *)(t.start + t.off[0]), NULL, 0);
	pp->kp.post_handler = NULL;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_settle();
	calls = kpkt_run(test, &ref, "maybe optimized");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);

	/* A post handler at the same place forces the slow path back. */
	with_post = kpkt_probe_new(test, pp->kp.addr, NULL, 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &with_post->kp), 0);
	kpkt_check_probe(test, with_post, &ref, false);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 2 * calls);
	kpkt_unregister(test, &with_post->kp);
	kpkt_settle();
	kpkt_run(test, &ref, "optimizable again");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 3 * calls);

	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "unregistered");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 3 * calls);
}

/* A second CPU calls the targets while probes come and go. */
struct kpkt_stress {
	struct kpkt_ref ref[2];
	atomic_t wrong;
	atomic_long_t calls;
};

static int kpkt_stress_thread(void *data)
{
	struct kpkt_stress *s = data;
	unsigned int i, j;

	while (!kthread_should_stop()) {
		for (j = 0; j < ARRAY_SIZE(s->ref); j++)
			for (i = 0; i < KPKT_NARGS; i++)
				if (kpkt_call(s->ref[j].fn, kpkt_args[i]) !=
				    s->ref[j].want[i])
					atomic_inc(&s->wrong);
		/*
		 * Sleep now and then: on a fully preemptible kernel
		 * cond_resched() is a no-op, and the optimizer's RCU-tasks
		 * grace period needs this thread to switch voluntarily.
		 */
		if (!(atomic_long_inc_return(&s->calls) % 64))
			usleep_range(50, 100);
		else
			cond_resched();
	}
	return 0;
}

static void kpkt_kthread_stop_action(void *tsk)
{
	kthread_stop(tsk);
}

static void arm_disarm_while_called(struct kunit *test)
{
	struct kpkt_stress *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	void *mid = kpkt_mid_addr(test, kpkt_rip);
	struct kpkt_probe *pe, *pm;
	struct task_struct *tsk;
	unsigned long deadline;
	unsigned int round;
	long seen;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kpkt_ref_init(&s->ref[0], kpkt_arith);
	kpkt_ref_init(&s->ref[1], kpkt_rip);
	tsk = kthread_run(kpkt_stress_thread, s, "kpkt_stress");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kpkt_kthread_stop_action,
							tsk), 0);

	for (round = 0; round < 40; round++) {
		pe = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
		pm = kpkt_probe_new(test, mid ? mid : (void *)kpkt_rip, NULL, 0);
		if (round & 1)
			pm->kp.post_handler = NULL;
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &pe->kp), 0);
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &pm->kp), 0);
		/* Let the other thread run through the armed probes. */
		seen = atomic_long_read(&s->calls);
		deadline = jiffies + HZ;
		while (atomic_long_read(&s->calls) < seen + 2 &&
		       time_before(jiffies, deadline))
			cond_resched();
		KUNIT_EXPECT_EQ(test, disable_kprobe(&pm->kp), 0);
		KUNIT_EXPECT_EQ(test, enable_kprobe(&pm->kp), 0);
		if (round % 8 == 7)
			kpkt_settle();
		kpkt_unregister(test, &pe->kp);
		kpkt_unregister(test, &pm->kp);
	}
	kunit_release_action(test, kpkt_kthread_stop_action, tsk);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->wrong), 0);
	kunit_info(test, "%ld rounds of calls on the other thread\n",
		   atomic_long_read(&s->calls));
}

static struct kunit_case kprobes_hit_cases[] = {
	KUNIT_CASE(every_instruction_runs_probed),
	KUNIT_CASE(several_probes_at_entry),
	KUNIT_CASE(several_probes_mid_function),
	KUNIT_CASE(hit_inside_handler_is_missed),
	KUNIT_CASE(pre_handler_redirects),
	KUNIT_CASE(pre_handler_changes_argument),
	KUNIT_CASE(handler_survives_fault),
	KUNIT_CASE(probed_instruction_fault_fixed_up),
	KUNIT_CASE(optimizable_probe_hits),
	KUNIT_CASE_SLOW(arm_disarm_while_called),
	{}
};

static struct kunit_suite kprobes_hit_suite = {
	.name = "kprobes_hit",
	.suite_init = kpkt_suite_init,
	.init = kpkt_case_init,
	.test_cases = kprobes_hit_cases,
};

kunit_test_suite(kprobes_hit_suite);
