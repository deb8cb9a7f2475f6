// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit tests of jump optimization: suite "kprobes_optimize".
 *
 * The cases are the same on every architecture with OPTPROBES; what
 * differs, the targets and how to read the text and pt_regs, each
 * architecture describes in optimize_<arch>.c (optimize.h).  The targets
 * are small assembly functions of known shape, so that whether a probe may
 * be optimized does not depend on the compiler.  Every probe must keep
 * working whether it is optimized or refused: each case checks the
 * results of the calls, the number of handler runs and what the handlers
 * saw in pt_regs, and reads from the text whether the probe is a jump or
 * the breakpoint.
 *
 * White-box: the optimizer is driven through its own helpers, exported
 * to KUnit only: kprobe_opt_wait() (wait_for_kprobe_optimizer()), the
 * sysctl's setter and its proc handler, and one case reads a site's state.
 */
/* First: it defines pr_fmt.  Also has the optimizer's KUnit hooks. */
#include "../internal.h"

#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#include "optimize.h"

/* See optimize.h; optimize_<arch>.c overrides it. */
const struct kpopt_arch * __weak kpopt_arch(void)
{
	return NULL;
}

/* The architecture's description, set by the suite's init. */
static const struct kpopt_arch *kpa;

/* ------------------------------------------------------------------
 * Probes
 * ------------------------------------------------------------------
 */

/**
 * struct kpopt_probe - a kprobe and what its handlers saw
 * @kp: the kprobe
 * @pt: the point it is on
 * @hits: pre handler runs
 * @post_hits: post handler runs
 * @arg_sum: sum of the argument register over the runs
 * @bad: runs whose context or pt_regs were not those of a hit at the
 *	probe, or whose nested call went wrong
 * @found: runs whose stack trace reached the target's caller
 * @set_arg: when non-zero, the pre handler stores it in the argument
 *	register
 * @in_irq: the target is called from interrupts: do not check pt_regs
 */
struct kpopt_probe {
	struct kprobe kp;
	const struct kpopt_point *pt;
	atomic_t hits;
	atomic_t post_hits;
	atomic_long_t arg_sum;
	atomic_t bad;
	atomic_t found;
	long set_arg;
	bool in_irq;
};

static int kpopt_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);
	unsigned long *arg = kpa->arg(regs);

	atomic_inc(&pp->hits);
	atomic_long_add(*arg, &pp->arg_sum);
	if (!pp->in_irq && !kpa->regs_ok(p, regs))
		atomic_inc(&pp->bad);
	if (pp->set_arg)
		*arg = pp->set_arg;
	return 0;
}

static void kpopt_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);

	atomic_inc(&pp->post_hits);
}

static struct kpopt_probe *kpopt_probe_new(struct kunit *test,
					   const struct kpopt_point *pt,
					   unsigned int off, bool post)
{
	struct kpopt_probe *pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pp);
	pp->pt = pt;
	pp->kp.addr = (kprobe_opcode_t *)(kpopt_addr(kpa, pt) + off);
	pp->kp.pre_handler = kpopt_pre;
	if (post)
		pp->kp.post_handler = kpopt_post;
	return pp;
}

static void kpopt_probe_clear(struct kpopt_probe *pp)
{
	atomic_set(&pp->hits, 0);
	atomic_set(&pp->post_hits, 0);
	atomic_long_set(&pp->arg_sum, 0);
	atomic_set(&pp->bad, 0);
}

KUNIT_DEFINE_ACTION_WRAPPER(kpopt_unregister_action, unregister_kprobe,
			    struct kprobe *);
KUNIT_DEFINE_ACTION_WRAPPER(kpopt_unregister_ret_action, unregister_kretprobe,
			    struct kretprobe *);

/* Register @kp, to be unregistered however the case ends. */
static void kpopt_register(struct kunit *test, struct kprobe *kp)
{
	KUNIT_ASSERT_EQ(test, register_kprobe(kp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, kpopt_unregister_action,
						  kp), 0);
}

static void kpopt_unregister(struct kunit *test, struct kprobe *kp)
{
	kunit_release_action(test, kpopt_unregister_action, kp);
}

#define KPOPT_CALLS	64

/*
 * Call @pt's target KPOPT_CALLS times, checking each result, and check
 * that @pp (if any, a probe at @pt) saw each call exactly once, with the
 * argument register and pt_regs a hit there must show.
 */
static void kpopt_run(struct kunit *test, const struct kpopt_point *pt,
		      struct kpopt_probe *pp, const char *what)
{
	long i, sum = 0, bad = 0;

	if (pp)
		kpopt_probe_clear(pp);
	for (i = 0; i < KPOPT_CALLS; i++) {
		if (kpa->call(pt->fn, i) != pt->ref(i))
			bad++;
		sum += pt->arg_at ? pt->arg_at(i) : i;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%s, %s: wrong results", pt->what,
			    what);
	if (!pp)
		return;
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&pp->hits), KPOPT_CALLS,
			    "%s, %s: pre handler runs", pt->what, what);
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&pp->arg_sum), sum,
			    "%s, %s: argument register in the handler",
			    pt->what, what);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&pp->bad), 0,
			    "%s, %s: context or pt_regs in the handler",
			    pt->what, what);
}

static bool kpopt_optimized(struct kprobe *kp)
{
	return READ_ONCE(kp->flags) & KPROBE_FLAG_OPTIMIZED;
}

static bool kpopt_jumps(struct kprobe *kp)
{
	return kpa->jumps((unsigned long)kp->addr);
}

static bool kpopt_traps(struct kprobe *kp)
{
	return kpa->traps((unsigned long)kp->addr);
}

/* A good point at a function entry (kretprobes go only there). */
static const struct kpopt_point *kpopt_entry_point(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < kpa->nr_good; i++)
		if (!kpa->good[i].off)
			return &kpa->good[i];
	KUNIT_FAIL_AND_ABORT(test, "no good probe point at a function entry");
	return NULL;
}

/* ------------------------------------------------------------------
 * Cases
 * ------------------------------------------------------------------
 */

/*
 * Each good point gets a jump; handlers, pt_regs and results stay right,
 * a register changed in pt_regs reaches the target, and unregistering
 * gives the text back.
 */
static void optimized_probe_runs_handlers(struct kunit *test)
{
	const struct kpopt_point *pt;
	struct kpopt_probe *pp;
	u8 before[16];
	unsigned int i;
	void *addr;

	KUNIT_ASSERT_LE(test, kpa->patch_len, sizeof(before));
	for (i = 0; i < kpa->nr_good; i++) {
		pt = &kpa->good[i];
		pp = kpopt_probe_new(test, pt, 0, false);
		addr = pp->kp.addr;
		memcpy(before, addr, kpa->patch_len);
		kpopt_register(test, &pp->kp);
		kpopt_run(test, pt, pp, "breakpoint (or detour)");

		kprobe_opt_wait();
		KUNIT_ASSERT_TRUE_MSG(test, kpopt_optimized(&pp->kp), "%s",
				      pt->what);
		KUNIT_EXPECT_TRUE_MSG(test, kpopt_jumps(&pp->kp), "%s",
				      pt->what);
		kpopt_run(test, pt, pp, "optimized");

		/* A change of a register in pt_regs reaches the target. */
		pp->set_arg = 1000;
		KUNIT_EXPECT_EQ_MSG(test, kpa->call(pt->fn, 1),
				    pt->after(1000), "%s", pt->what);
		KUNIT_EXPECT_EQ_MSG(test, kpa->call(pt->fn, 2),
				    pt->after(1000), "%s", pt->what);
		pp->set_arg = 0;

		kpopt_unregister(test, &pp->kp);
		KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));
		KUNIT_EXPECT_EQ_MSG(test, memcmp(before, addr, kpa->patch_len),
				    0, "%s: text after unregistering",
				    pt->what);
		kpopt_run(test, pt, NULL, "unregistered");
		kprobe_opt_wait();
	}
}

/* A region that loads PC-relative is re-aimed in the detour. */
static void pc_relative_region_relocated(struct kunit *test)
{
	const struct kpopt_point *pt = NULL;
	struct kpopt_probe *pp;
	unsigned int i;
	long old;

	for (i = 0; i < kpa->nr_good && !pt; i++)
		if (kpa->good[i].data)
			pt = &kpa->good[i];
	if (!pt)
		kunit_skip(test, "no PC-relative target on this architecture");
	pp = kpopt_probe_new(test, pt, 0, false);
	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&pp->kp));
	kpopt_run(test, pt, pp, "PC-relative");
	old = READ_ONCE(*pt->data);
	WRITE_ONCE(*pt->data, old + 1000);
	kpopt_run(test, pt, pp, "PC-relative, new data");
	WRITE_ONCE(*pt->data, old);
}

/* Regions that cannot take a jump: refused, but the probes work. */
static void unsafe_region_keeps_breakpoint(struct kunit *test)
{
	const struct kpopt_point *pt;
	struct kpopt_probe **pp;
	unsigned int i;

	if (!kpa->nr_refused)
		kunit_skip(test, "no region to refuse on this architecture");
	pp = kunit_kcalloc(test, kpa->nr_refused, sizeof(*pp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pp);
	for (i = 0; i < kpa->nr_refused; i++) {
		pp[i] = kpopt_probe_new(test, &kpa->refused[i], 0, false);
		kpopt_register(test, &pp[i]->kp);
	}
	kprobe_opt_wait();
	for (i = 0; i < kpa->nr_refused; i++) {
		pt = &kpa->refused[i];
		KUNIT_EXPECT_FALSE_MSG(test, kpopt_optimized(&pp[i]->kp), "%s",
				       pt->what);
		KUNIT_EXPECT_TRUE_MSG(test, kpopt_traps(&pp[i]->kp), "%s",
				      pt->what);
		kpopt_run(test, pt, pp[i], pt->what);
	}
}

/*
 * A post handler needs the instruction stepped: a probe with one is not
 * optimized, and a member with one joining an optimized site takes the
 * jump out at once, until it leaves.
 */
static void post_handler_keeps_breakpoint(struct kunit *test)
{
	const struct kpopt_point *last = &kpa->good[kpa->nr_good - 1];
	const struct kpopt_point *pt = &kpa->good[0];
	struct kpopt_probe *alone, *pp, *post;

	alone = kpopt_probe_new(test, last, 0, true);
	kpopt_register(test, &alone->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&alone->kp));
	KUNIT_EXPECT_TRUE(test, kpopt_traps(&alone->kp));
	kpopt_run(test, last, alone, "post handler");
	KUNIT_EXPECT_EQ(test, atomic_read(&alone->post_hits), KPOPT_CALLS);
	kpopt_unregister(test, &alone->kp);

	pp = kpopt_probe_new(test, pt, 0, false);
	post = kpopt_probe_new(test, pt, 0, true);
	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));

	kpopt_register(test, &post->kp);
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&post->kp));
	KUNIT_EXPECT_TRUE(test, kpopt_traps(&pp->kp));
	kpopt_probe_clear(post);
	kpopt_run(test, pt, pp, "with a post member");
	KUNIT_EXPECT_EQ(test, atomic_read(&post->hits), KPOPT_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&post->post_hits), KPOPT_CALLS);
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));

	kpopt_unregister(test, &post->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&pp->kp));
	kpopt_run(test, pt, pp, "post member gone");
}

/* Disabling takes the jump out at once; enabling brings it back. */
static void disable_removes_jump(struct kunit *test)
{
	const struct kpopt_point *pt = &kpa->good[0];
	struct kpopt_probe *pp = kpopt_probe_new(test, pt, 0, false);

	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));
	KUNIT_ASSERT_EQ(test, disable_kprobe(&pp->kp), 0);
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_FALSE(test, kpopt_jumps(&pp->kp));
	kpopt_run(test, pt, NULL, "disabled");
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), 0);
	KUNIT_ASSERT_EQ(test, enable_kprobe(&pp->kp), 0);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&pp->kp));
	kpopt_run(test, pt, pp, "enabled again");
}

/*
 * A probe inside an optimized region unoptimizes the region's probe, which
 * is optimized again when the probe inside goes (whether that one could
 * be optimized itself, @inner_post false, or not).
 */
static void kpopt_probe_in_region(struct kunit *test, bool inner_post)
{
	const struct kpopt_point *pt = &kpa->good[0];
	struct kpopt_probe *outer = kpopt_probe_new(test, pt, 0, false);
	struct kpopt_probe *inner = kpopt_probe_new(test, pt, kpa->inner_off,
						    inner_post);

	kpopt_register(test, &outer->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&outer->kp));

	kpopt_register(test, &inner->kp);
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&outer->kp));
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&outer->kp));
	kpopt_probe_clear(inner);
	kpopt_run(test, pt, outer, "outer");
	KUNIT_EXPECT_EQ(test, atomic_read(&inner->hits), KPOPT_CALLS);

	if (inner_post)
		KUNIT_EXPECT_EQ(test, atomic_read(&inner->post_hits),
				KPOPT_CALLS);

	kpopt_unregister(test, &inner->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&outer->kp));
	kpopt_run(test, pt, outer, "inner gone");
	kpopt_unregister(test, &outer->kp);
}

static void probe_inside_region_unoptimizes(struct kunit *test)
{
	if (!kpa->inner_off)
		kunit_skip(test, "a region is one instruction here");
	kpopt_probe_in_region(test, false);
	kpopt_probe_in_region(test, true);
}

/*
 * A probe whose region another probe occupies waits for that one to go;
 * unregistered while it waits, it must leave no trace behind: the other
 * probe's unregistration looks for waiting probes in its way.
 */
static void waiting_probe_unregistered_first(struct kunit *test)
{
	const struct kpopt_point *pt = &kpa->good[0];
	struct kpopt_probe *outer, *inner;

	if (!kpa->inner_off)
		kunit_skip(test, "a region is one instruction here");
	outer = kpopt_probe_new(test, pt, 0, false);
	inner = kpopt_probe_new(test, pt, kpa->inner_off, false);

	kpopt_register(test, &inner->kp);
	kpopt_register(test, &outer->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&outer->kp));
	kpopt_unregister(test, &outer->kp);
	/* The outer record is freed. */
	kprobe_opt_wait();
	kpopt_unregister(test, &inner->kp);
	kprobe_opt_wait();

	/* Registered again, alone, the outer probe gets its jump. */
	outer = kpopt_probe_new(test, pt, 0, false);
	kpopt_register(test, &outer->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&outer->kp));
	kpopt_run(test, pt, outer, "alone again");
}

/* A handler that calls its own target: the inner hit is missed. */
static int kpopt_pre_recurse(struct kprobe *p, struct pt_regs *regs)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);

	atomic_inc(&pp->hits);
	if (kpa->call(pp->pt->fn, 5) != pp->pt->ref(5))
		atomic_inc(&pp->bad);
	return 0;
}

static void hit_inside_handler_is_missed(struct kunit *test)
{
	const struct kpopt_point *pt = kpopt_entry_point(test);
	struct kpopt_probe *pp = kpopt_probe_new(test, pt, 0, false);

	pp->kp.pre_handler = kpopt_pre_recurse;
	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));
	KUNIT_ASSERT_TRUE(test, kpopt_jumps(&pp->kp));
	KUNIT_EXPECT_EQ(test, kpa->call(pt->fn, 9), pt->ref(9));
	KUNIT_EXPECT_EQ(test, kpa->call(pt->fn, 8), pt->ref(8));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->bad), 0);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 2UL);
}

/* A stack trace taken in the handler goes through the detour. */
static int kpopt_pre_unwind(struct kprobe *p, struct pt_regs *regs)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);

	atomic_inc(&pp->hits);
	if (kpa->unwinds(p))
		atomic_inc(&pp->found);
	return 0;
}

static void unwind_through_detour(struct kunit *test)
{
	const struct kpopt_point *pt = &kpa->good[0];
	struct kpopt_probe *pp;

	if (!kpa->unwinds)
		kunit_skip(test, "not checked on this architecture");
	pp = kpopt_probe_new(test, pt, 0, false);
	pp->kp.pre_handler = kpopt_pre_unwind;
	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_EQ(test, kpa->call(pt->fn, 3), pt->ref(3));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->found), 1);
}

static void kpopt_sysctl_restore(void *unused)
{
	kprobe_opt_set_enabled(true);
	kprobe_opt_wait();
}

/**
 * struct kpopt_ticker - calls of a target from a timer interrupt
 * @timer: fires every KPOPT_TICK_NS
 * @pt: the target and its probe point
 * @addr: the probe address
 * @calls: calls made
 * @wrong: calls that returned a wrong result
 * @waiting: calls made while the detour was published but the jump not in
 * @stop: set to stop the timer
 */
struct kpopt_ticker {
	struct hrtimer timer;
	const struct kpopt_point *pt;
	unsigned long addr;
	atomic_t calls;
	atomic_t wrong;
	atomic_t waiting;
	bool stop;
};

#define KPOPT_TICK_NS	(50 * NSEC_PER_USEC)

/*
 * Is the site at @addr between publishing its detour and its jump?  Only
 * known when built in: the address table is not exported.
 */
static bool kpopt_site_waiting(unsigned long addr)
{
	struct kprobe_hit_site *kp;
	struct kprobe_opt *o;

	if (!IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST))
		return false;
	kp = kprobe_hit_find(addr);
	o = kp ? READ_ONCE(kprobe_to_site(kp)->opt) : NULL;

	return o && READ_ONCE(kp->resume) && kpa->traps(addr);
}

static enum hrtimer_restart kpopt_tick(struct hrtimer *timer)
{
	struct kpopt_ticker *k = container_of(timer, struct kpopt_ticker,
					      timer);
	long i = atomic_inc_return(&k->calls);
	bool waiting = kpopt_site_waiting(k->addr);

	if (kpa->call(k->pt->fn, i) != k->pt->ref(i))
		atomic_inc(&k->wrong);
	if (waiting)
		atomic_inc(&k->waiting);
	if (READ_ONCE(k->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(KPOPT_TICK_NS));
	return HRTIMER_RESTART;
}

/*
 * A timer interrupt calls the target while its probe is registered,
 * optimized, unoptimized and unregistered, over and over: hits from
 * interrupts on the breakpoint and on the jump, and the hits in between,
 * while the optimizer waits for a grace period with the detour published
 * (they take the breakpoint, which must send them through the detour's
 * copy of the region, not into the region in place).  The results must
 * stay right.  How many calls fell into that window depends on how long
 * grace periods take; it is only reported.
 */
static void hits_from_interrupts(struct kunit *test)
{
	struct kpopt_ticker *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	const struct kpopt_point *pt = &kpa->good[0];
	struct kpopt_probe *pp = kpopt_probe_new(test, pt, 0, false);
	unsigned long addr = (unsigned long)pp->kp.addr;
	unsigned int round;

	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, kpopt_sysctl_restore,
						  NULL), 0);
	pp->in_irq = true;
	k->pt = pt;
	k->addr = addr;
	hrtimer_init(&k->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	k->timer.function = kpopt_tick;
	hrtimer_start(&k->timer, ns_to_ktime(KPOPT_TICK_NS), HRTIMER_MODE_REL);
	for (round = 0; round < 8; round++) {
		kpopt_register(test, &pp->kp);
		msleep(20);
		kprobe_opt_wait();
		KUNIT_EXPECT_TRUE(test, kpopt_optimized(&pp->kp));
		msleep(20);
		kprobe_opt_set_enabled(false);
		msleep(20);
		kprobe_opt_set_enabled(true);
		kprobe_opt_wait();
		kpopt_unregister(test, &pp->kp);
		msleep(20);
		pp->kp.addr = (kprobe_opcode_t *)addr;
		pp->kp.flags = 0;
	}
	WRITE_ONCE(k->stop, true);
	hrtimer_cancel(&k->timer);
	kunit_info(test, "%d timer calls, %d while a detour was waiting\n",
		   atomic_read(&k->calls), atomic_read(&k->waiting));
	KUNIT_EXPECT_GT(test, atomic_read(&k->calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&k->wrong), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->bad), 0);
}

/* Write @val to the sysctl through its handler; return its result. */
static int kpopt_sysctl_write(const char *val)
{
	struct ctl_table t = {
		.procname	= "kprobes-optimization",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= kprobe_opt_sysctl_handler,
	};
	char buf[16];
	size_t len = strscpy(buf, val, sizeof(buf));
	loff_t pos = 0;

	return kprobe_opt_sysctl_handler(&t, 1, buf, &len, &pos);
}

/*
 * debug.kprobes-optimization: 0 unoptimizes now, and new probes stay
 * breakpoints; 1 optimizes them all again; anything else is refused.
 */
static void sysctl_switches_optimization(struct kunit *test)
{
	const struct kpopt_point *pa = &kpa->good[0], *pb = &kpa->good[1];
	struct kpopt_probe *a, *b;

	if (!IS_ENABLED(CONFIG_PROC_SYSCTL))
		kunit_skip(test, "no /proc/sys");
	KUNIT_ASSERT_TRUE(test, kprobe_opt_enabled());
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, kpopt_sysctl_restore,
						  NULL), 0);
	a = kpopt_probe_new(test, pa, 0, false);
	kpopt_register(test, &a->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&a->kp));
	KUNIT_ASSERT_TRUE(test, kpopt_jumps(&a->kp));

	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("0\n"), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_opt_enabled());
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&a->kp));
	KUNIT_EXPECT_TRUE(test, kpopt_traps(&a->kp));
	kpopt_run(test, pa, a, "sysctl 0");

	/* New probes stay breakpoints. */
	b = kpopt_probe_new(test, pb, 0, false);
	kpopt_register(test, &b->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&b->kp));
	KUNIT_EXPECT_TRUE(test, kpopt_traps(&b->kp));
	kpopt_run(test, pb, b, "registered at 0");

	/* Anything but 0 and 1 is refused and changes nothing. */
	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("2\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("-1\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("yes\n"), -EINVAL);
	KUNIT_EXPECT_FALSE(test, kprobe_opt_enabled());

	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("1\n"), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_opt_enabled());
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&a->kp));
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&b->kp));
	KUNIT_EXPECT_TRUE(test, kpopt_jumps(&a->kp));
	KUNIT_EXPECT_TRUE(test, kpopt_jumps(&b->kp));
	kpopt_run(test, pa, a, "sysctl 1");
	kpopt_run(test, pb, b, "sysctl 1");
	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("7\n"), -EINVAL);
	KUNIT_EXPECT_TRUE(test, kprobe_opt_enabled());
}

/* A kretprobe's entry probe (no post handler) is optimized too. */
struct kpopt_ret {
	struct kretprobe rp;
	const struct kpopt_point *pt;
	atomic_t entries;
	atomic_t returns;
	atomic_t bad;
};

static int kpopt_ret_entry(struct kretprobe_instance *ri,
			   struct pt_regs *regs)
{
	struct kpopt_ret *r = container_of(get_kretprobe(ri), struct kpopt_ret,
					   rp);

	atomic_inc(&r->entries);
	*(long *)ri->data = *kpa->arg(regs);
	return 0;
}

static int kpopt_ret_handler(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct kpopt_ret *r = container_of(get_kretprobe(ri), struct kpopt_ret,
					   rp);

	atomic_inc(&r->returns);
	if (regs_return_value(regs) != r->pt->ref(*(long *)ri->data))
		atomic_inc(&r->bad);
	return 0;
}

static void kretprobe_entry_optimized(struct kunit *test)
{
	struct kpopt_ret *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->pt = kpopt_entry_point(test);
	r->rp.kp.addr = (kprobe_opcode_t *)r->pt->fn;
	r->rp.entry_handler = kpopt_ret_entry;
	r->rp.handler = kpopt_ret_handler;
	r->rp.data_size = sizeof(long);
	KUNIT_ASSERT_EQ(test, register_kretprobe(&r->rp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpopt_unregister_ret_action,
						  &r->rp), 0);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&r->rp.kp));
	KUNIT_EXPECT_TRUE(test, kpopt_jumps(&r->rp.kp));
	kpopt_run(test, r->pt, NULL, "kretprobe");
	KUNIT_EXPECT_EQ(test, atomic_read(&r->entries), KPOPT_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->returns), KPOPT_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->bad), 0);
}

/* Optimized handlers run with user access closed (powerpc: KUAP). */
static void handlers_run_with_user_access_closed(struct kunit *test)
{
	if (!kpa->user_access)
		kunit_skip(test, "no user access window on this architecture");
	kpa->user_access(test);
}

/*
 * Hits on another CPU while probes come and go and the sysctl flips.
 * @a_calls counts the calls of good[0]'s target, before they are made:
 * good[1] may be in the same target (powerpc), whose calls then count too.
 */
struct kpopt_stress {
	atomic_long_t calls;
	atomic_long_t a_calls;
	atomic_t wrong;
};

static int kpopt_stress_thread(void *data)
{
	const struct kpopt_point *pa = &kpa->good[0], *pb = &kpa->good[1];
	struct kpopt_stress *s = data;
	long i = 0;

	while (!kthread_should_stop()) {
		atomic_long_add(pa->fn == pb->fn ? 2 : 1, &s->a_calls);
		if (kpa->call(pa->fn, i) != pa->ref(i))
			atomic_inc(&s->wrong);
		if (kpa->call(pb->fn, i) != pb->ref(i))
			atomic_inc(&s->wrong);
		i++;
		/* See the stress case of hit.c: RCU-tasks needs a voluntary switch. */
		if (!(atomic_long_inc_return(&s->calls) % 64))
			usleep_range(50, 100);
		else
			cond_resched();
	}
	return 0;
}

static void arm_disarm_under_load(struct kunit *test)
{
	struct kpopt_stress *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct kpopt_probe *a, *b, *post;
	struct task_struct *t;
	unsigned int round;
	long calls;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, kpopt_sysctl_restore,
						  NULL), 0);
	t = kthread_create(kpopt_stress_thread, s, "kpopt_stress");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	if (num_online_cpus() > 1)
		kthread_bind(t, cpumask_last(cpu_online_mask));
	get_task_struct(t);
	wake_up_process(t);

	for (round = 0; round < 8; round++) {
		a = kpopt_probe_new(test, &kpa->good[0], 0, false);
		b = kpopt_probe_new(test, &kpa->good[1], 0, false);
		post = kpopt_probe_new(test, &kpa->good[0], 0, true);
		kpopt_register(test, &a->kp);
		kpopt_register(test, &b->kp);
		kprobe_opt_wait();
		KUNIT_EXPECT_TRUE(test, kpopt_optimized(&a->kp));
		msleep(20);
		kprobe_opt_set_enabled(false);
		KUNIT_EXPECT_FALSE(test, kpopt_optimized(&a->kp));
		msleep(20);
		kprobe_opt_set_enabled(true);
		msleep(20);
		kpopt_register(test, &post->kp);
		msleep(20);
		kpopt_unregister(test, &post->kp);
		kprobe_opt_wait();
		KUNIT_EXPECT_TRUE(test, kpopt_optimized(&b->kp));
		msleep(20);
		kpopt_unregister(test, &a->kp);
		kpopt_unregister(test, &b->kp);
		KUNIT_EXPECT_LE(test, atomic_read(&a->hits),
				(int)atomic_long_read(&s->a_calls));
	}

	calls = atomic_long_read(&s->calls);
	msleep(20);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->calls), calls);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->wrong), 0);
	kprobe_opt_wait();
}

static int kpopt_suite_init(struct kunit_suite *suite)
{
	kpa = kpopt_arch();
	/* The other suites' probes may still have detours queued. */
	kprobe_opt_wait();
	return 0;
}

static int kpopt_case_init(struct kunit *test)
{
	if (!kpa)
		kunit_skip(test, "no targets for this architecture (optimize_<arch>.c)");
	if (kpa->nr_good < 2)
		KUNIT_FAIL_AND_ABORT(test, "optimize_<arch>.c: fewer than two good points");
	return 0;
}

static struct kunit_case kpopt_cases[] = {
	KUNIT_CASE(optimized_probe_runs_handlers),
	KUNIT_CASE(pc_relative_region_relocated),
	KUNIT_CASE(unsafe_region_keeps_breakpoint),
	KUNIT_CASE(post_handler_keeps_breakpoint),
	KUNIT_CASE(disable_removes_jump),
	KUNIT_CASE(probe_inside_region_unoptimizes),
	KUNIT_CASE(waiting_probe_unregistered_first),
	KUNIT_CASE(hit_inside_handler_is_missed),
	KUNIT_CASE(unwind_through_detour),
	KUNIT_CASE(hits_from_interrupts),
	KUNIT_CASE(sysctl_switches_optimization),
	KUNIT_CASE(kretprobe_entry_optimized),
	KUNIT_CASE(handlers_run_with_user_access_closed),
	KUNIT_CASE_SLOW(arm_disarm_under_load),
	{}
};

static struct kunit_suite kpopt_suite = {
	.name = "kprobes_optimize",
	.suite_init = kpopt_suite_init,
	.init = kpopt_case_init,
	.test_cases = kpopt_cases,
};

kunit_test_suite(kpopt_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
