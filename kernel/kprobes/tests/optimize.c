// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit tests of jump optimization: suite "kprobes_opt".
 *
 * The targets are small assembly functions of known shape
 * (kprobes_kunit_opt_targets.S), so that whether a probe may be optimized
 * does not depend on the compiler: one that can take a jump at its entry,
 * one whose region is a single rip-relative load, and three that must be
 * refused (a call inside the region, a jump into it, an indirect jump in
 * the function).  Every probe must keep working either way: each case
 * checks the results of the calls, the number of handler runs and what
 * the handlers saw in pt_regs.
 *
 * The optimizer is driven through its own helpers, exported to KUnit
 * only: kprobe_opt_wait() (wait_for_kprobe_optimizer()), the sysctl's
 * setter and its proc handler.
 */
/* First: it defines pr_fmt.  Also has the optimizer's KUnit hooks. */
#include "../internal.h"

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <asm/ibt.h>
#include <asm/text-patching.h>
#include <asm/unwind.h>

#include "optimize.h"

/* What each target must return. */
static long kpopt_good_ref(long x)
{
	return ((x + 0x11) * 3) ^ 0x5a5a;
}

static long kpopt_rip_ref(long x)
{
	return READ_ONCE(kpopt_rip_data) + x;
}

static long kpopt_call_ref(long x)
{
	return x + 8;
}

static long kpopt_jump_in_ref(long x)
{
	do
		x += 2;
	while (x < 100);
	return x;
}

static long kpopt_indirect_ref(long x)
{
	return (x + 7) * 5;
}

/* Every call of a target goes through kpopt_invoke(). */
static long kpopt_call_fn(kpopt_fn_t fn, long x)
{
	return kpopt_invoke(fn, x);
}

/* The probe address of a target's entry: after the ENDBR, if any. */
static unsigned long kpopt_entry(kpopt_fn_t fn)
{
	unsigned long addr = (unsigned long)fn;

	return is_endbr(*(u32 *)addr) ? addr + ENDBR_INSN_SIZE : addr;
}

/* ------------------------------------------------------------------
 * Probes
 * ------------------------------------------------------------------
 */

/**
 * struct kpopt_probe - a kprobe and what its handlers saw
 * @kp: the kprobe
 * @hits: pre handler runs
 * @post_hits: post handler runs
 * @arg_sum: sum of the argument register (kpopt_arg()) over the runs
 * @bad: runs whose context or pt_regs were not those of an int3 hit
 * @found: runs whose stack trace reached kpopt_invoke()
 * @set_arg: when non-zero, the pre handler stores it in the argument
 *	register
 * @in_irq: the target is called from interrupts: do not check pt_regs
 */
struct kpopt_probe {
	struct kprobe kp;
	atomic_t hits;
	atomic_t post_hits;
	atomic_long_t arg_sum;
	atomic_t bad;
	atomic_t found;
	long set_arg;
	bool in_irq;
};

/*
 * The register of a target's argument: %rdi, or %eax on i386 (the kernel
 * is built with regparm(3) there).
 */
static unsigned long *kpopt_arg(struct pt_regs *regs)
{
	return IS_ENABLED(CONFIG_X86_64) ? &regs->di : &regs->ax;
}

static bool kpopt_regs_ok(struct kprobe *p, struct pt_regs *regs)
{
	/* The targets push nothing: kpopt_invoke()'s return is on top. */
	unsigned long ret = *(unsigned long *)regs->sp;

	/*
	 * The targets run with interrupts on.  The int3 exception, entered
	 * like an NMI, turns them off; a detour leaves them on.
	 */
	return regs->ip == (unsigned long)p->addr + INT3_INSN_SIZE &&
	       ret == kpopt_invoke_ret_addr &&
	       (regs->flags & X86_EFLAGS_IF) &&
	       irqs_disabled() == !!in_nmi() && !preemptible();
}

static int kpopt_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);

	atomic_inc(&pp->hits);
	atomic_long_add(*kpopt_arg(regs), &pp->arg_sum);
	if (!pp->in_irq && !kpopt_regs_ok(p, regs))
		atomic_inc(&pp->bad);
	if (pp->set_arg)
		*kpopt_arg(regs) = pp->set_arg;
	return 0;
}

static void kpopt_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);

	atomic_inc(&pp->post_hits);
}

static struct kpopt_probe *kpopt_probe_new(struct kunit *test,
					   unsigned long addr, bool post)
{
	struct kpopt_probe *pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pp);
	pp->kp.addr = (kprobe_opcode_t *)addr;
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
 * Call @fn KPOPT_CALLS times, checking each result against @ref, and
 * check that @pp (if any) saw each call exactly once with sane pt_regs.
 */
static void kpopt_run(struct kunit *test, kpopt_fn_t fn, kpopt_fn_t ref,
		      struct kpopt_probe *pp, const char *what)
{
	long i, sum = 0, bad = 0;

	if (pp)
		kpopt_probe_clear(pp);
	for (i = 0; i < KPOPT_CALLS; i++) {
		if (kpopt_call_fn(fn, i) != ref(i))
			bad++;
		sum += i;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%s: wrong results", what);
	if (!pp)
		return;
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&pp->hits), KPOPT_CALLS,
			    "%s: pre handler runs", what);
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&pp->arg_sum), sum,
			    "%s: argument register in the handler", what);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&pp->bad), 0,
			    "%s: context or pt_regs in the handler", what);
}

static bool kpopt_optimized(struct kprobe *kp)
{
	return READ_ONCE(kp->flags) & KPROBE_FLAG_OPTIMIZED;
}

/* ------------------------------------------------------------------
 * Cases
 * ------------------------------------------------------------------
 */

/* The good target gets a jump; handlers and results stay right. */
static void kpopt_good_is_optimized(struct kunit *test)
{
	unsigned long addr = kpopt_entry(kpopt_good);
	struct kpopt_probe *pp = kpopt_probe_new(test, addr, false);
	u8 before[JMP32_INSN_SIZE];
	long want;

	memcpy(before, (void *)addr, sizeof(before));
	kpopt_register(test, &pp->kp);
	kpopt_run(test, kpopt_good, kpopt_good_ref, pp, "int3 (or detour)");

	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_EQ(test, *(u8 *)addr, JMP32_INSN_OPCODE);
	kpopt_run(test, kpopt_good, kpopt_good_ref, pp, "optimized");

	/* A change of a register in pt_regs reaches the function. */
	pp->set_arg = 1000;
	want = kpopt_good_ref(1000);
	KUNIT_EXPECT_EQ(test, kpopt_call_fn(kpopt_good, 1), want);
	KUNIT_EXPECT_EQ(test, kpopt_call_fn(kpopt_good, 2), want);
	pp->set_arg = 0;

	kpopt_unregister(test, &pp->kp);
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_EQ(test, memcmp(before, (void *)addr, sizeof(before)), 0);
	kpopt_run(test, kpopt_good, kpopt_good_ref, NULL, "unregistered");
	kprobe_opt_wait();
}

/* A rip-relative region is re-aimed in the detour. */
static void kpopt_rip_relative(struct kunit *test)
{
	struct kpopt_probe *pp;

	pp = kpopt_probe_new(test, kpopt_entry(kpopt_rip), false);
	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&pp->kp));
	kpopt_run(test, kpopt_rip, kpopt_rip_ref, pp, "rip-relative");
	WRITE_ONCE(kpopt_rip_data, 2000);
	kpopt_run(test, kpopt_rip, kpopt_rip_ref, pp, "rip-relative, new data");
	WRITE_ONCE(kpopt_rip_data, 1000);
}

/* Regions that cannot take a jump: refused, but the probes work. */
static void kpopt_refused(struct kunit *test)
{
	static const struct {
		kpopt_fn_t fn;
		kpopt_fn_t ref;
		const char *why;
	} bad[] = {
		{ kpopt_call, kpopt_call_ref, "call in the region" },
		{ kpopt_jump_in, kpopt_jump_in_ref, "jump into the region" },
		{ kpopt_indirect, kpopt_indirect_ref, "indirect jump" },
	};
	struct kpopt_probe *pp[ARRAY_SIZE(bad)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		pp[i] = kpopt_probe_new(test, kpopt_entry(bad[i].fn), false);
		kpopt_register(test, &pp[i]->kp);
	}
	kprobe_opt_wait();
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_FALSE_MSG(test, kpopt_optimized(&pp[i]->kp), "%s",
				       bad[i].why);
		KUNIT_EXPECT_EQ_MSG(test, *(u8 *)pp[i]->kp.addr,
				    INT3_INSN_OPCODE, "%s", bad[i].why);
		kpopt_run(test, bad[i].fn, bad[i].ref, pp[i], bad[i].why);
	}
}

/* A member with a post handler needs the int3 back, at once. */
static void kpopt_post_member(struct kunit *test)
{
	unsigned long addr = kpopt_entry(kpopt_good);
	struct kpopt_probe *pp = kpopt_probe_new(test, addr, false);
	struct kpopt_probe *post = kpopt_probe_new(test, addr, true);

	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));

	kpopt_register(test, &post->kp);
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&post->kp));
	KUNIT_EXPECT_EQ(test, *(u8 *)addr, INT3_INSN_OPCODE);
	kpopt_probe_clear(post);
	kpopt_run(test, kpopt_good, kpopt_good_ref, pp, "with a post member");
	KUNIT_EXPECT_EQ(test, atomic_read(&post->hits), KPOPT_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&post->post_hits), KPOPT_CALLS);
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));

	kpopt_unregister(test, &post->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&pp->kp));
	kpopt_run(test, kpopt_good, kpopt_good_ref, pp, "post member gone");
}

/* Disabling takes the jump out at once; enabling brings it back. */
static void kpopt_disable_enable(struct kunit *test)
{
	unsigned long addr = kpopt_entry(kpopt_good);
	struct kpopt_probe *pp = kpopt_probe_new(test, addr, false);

	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));
	KUNIT_ASSERT_EQ(test, disable_kprobe(&pp->kp), 0);
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_NE(test, *(u8 *)addr, JMP32_INSN_OPCODE);
	kpopt_run(test, kpopt_good, kpopt_good_ref, NULL, "disabled");
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), 0);
	KUNIT_ASSERT_EQ(test, enable_kprobe(&pp->kp), 0);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&pp->kp));
	kpopt_run(test, kpopt_good, kpopt_good_ref, pp, "enabled again");
}

/*
 * A probe inside an optimized region unoptimizes the region's probe, which
 * is optimized again when the probe inside goes (whether that one could
 * be optimized itself, @inner_post false, or not).
 */
static void kpopt_probe_in_region_one(struct kunit *test, bool inner_post)
{
	unsigned long addr = kpopt_entry(kpopt_good);
	struct kpopt_probe *outer = kpopt_probe_new(test, addr, false);
	/* The second instruction, "addq" ("addl" on i386), 3 bytes in. */
	struct kpopt_probe *inner = kpopt_probe_new(test, addr + 3, inner_post);

	kpopt_register(test, &outer->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&outer->kp));

	kpopt_register(test, &inner->kp);
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&outer->kp));
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&outer->kp));
	kpopt_probe_clear(inner);
	kpopt_run(test, kpopt_good, kpopt_good_ref, outer, "outer");
	KUNIT_EXPECT_EQ(test, atomic_read(&inner->hits), KPOPT_CALLS);

	if (inner_post)
		KUNIT_EXPECT_EQ(test, atomic_read(&inner->post_hits),
				KPOPT_CALLS);

	kpopt_unregister(test, &inner->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_optimized(&outer->kp));
	kpopt_run(test, kpopt_good, kpopt_good_ref, outer, "inner gone");
	kpopt_unregister(test, &outer->kp);
}

static void kpopt_probe_in_region(struct kunit *test)
{
	kpopt_probe_in_region_one(test, false);
	kpopt_probe_in_region_one(test, true);
}

/* A handler that calls its own target: the inner hit is missed. */
static int kpopt_pre_recurse(struct kprobe *p, struct pt_regs *regs)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);

	atomic_inc(&pp->hits);
	if (kpopt_call_fn(kpopt_good, 5) != kpopt_good_ref(5))
		atomic_inc(&pp->bad);
	return 0;
}

static void kpopt_recursion_missed(struct kunit *test)
{
	unsigned long addr = kpopt_entry(kpopt_good);
	struct kpopt_probe *pp = kpopt_probe_new(test, addr, false);

	pp->kp.pre_handler = kpopt_pre_recurse;
	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_EQ(test, kpopt_call_fn(kpopt_good, 9), kpopt_good_ref(9));
	KUNIT_EXPECT_EQ(test, kpopt_call_fn(kpopt_good, 8), kpopt_good_ref(8));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->bad), 0);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 2UL);
}

/*
 * A stack trace taken in the handler goes through the detour, which has
 * no ORC data but a frame for the frame-pointer fallback, into the probed
 * function and on to its caller.  With the frame-pointer unwinder (i386,
 * which has no ORC), frameless functions are not seen: the detour's frame
 * names the probed function (probe address + 1, as after an int3), and the
 * next frame is that of a caller of kpopt_invoke().
 */
static unsigned long kpopt_unwind_want(struct kprobe *p)
{
	if (IS_ENABLED(CONFIG_UNWINDER_ORC))
		return kpopt_invoke_ret_addr;
	return (unsigned long)p->addr + INT3_INSN_SIZE;
}

static int kpopt_pre_unwind(struct kprobe *p, struct pt_regs *regs)
{
	struct kpopt_probe *pp = container_of(p, struct kpopt_probe, kp);
	unsigned long want = kpopt_unwind_want(p);
	struct unwind_state state;

	atomic_inc(&pp->hits);
	for (unwind_start(&state, current, NULL, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		if (unwind_get_return_address(&state) == want) {
			atomic_inc(&pp->found);
			break;
		}
	}
	return 0;
}

static void kpopt_unwind(struct kunit *test)
{
	unsigned long addr = kpopt_entry(kpopt_good);
	struct kpopt_probe *pp = kpopt_probe_new(test, addr, false);

	pp->kp.pre_handler = kpopt_pre_unwind;
	kpopt_register(test, &pp->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&pp->kp));
	KUNIT_EXPECT_EQ(test, kpopt_call_fn(kpopt_good, 3), kpopt_good_ref(3));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->found), 1);
}

static void kpopt_sysctl_restore(void *unused)
{
	kprobe_opt_set_enabled(true);
}

/**
 * struct kpopt_ticker - calls of a target from a timer interrupt
 * @timer: fires every KPOPT_TICK_NS
 * @addr: the probe address in the target
 * @calls: calls made
 * @wrong: calls that returned a wrong result
 * @waiting: calls made while the detour was published but the jump not in
 * @stop: set to stop the timer
 */
struct kpopt_ticker {
	struct hrtimer timer;
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

	return o && READ_ONCE(kp->resume) &&
	       *(u8 *)addr == INT3_INSN_OPCODE;
}

static enum hrtimer_restart kpopt_tick(struct hrtimer *timer)
{
	struct kpopt_ticker *k = container_of(timer, struct kpopt_ticker,
					      timer);
	long i = atomic_inc_return(&k->calls);
	bool waiting = kpopt_site_waiting(k->addr);

	if (kpopt_call_fn(kpopt_good, i) != kpopt_good_ref(i))
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
 * interrupts on the int3 and on the jump, and the hits in between, while
 * the optimizer waits for a grace period with the detour published (they
 * take the int3, which must send them through the detour's copy of the
 * region, not into the region in place).  The results must stay right.
 * How many calls fell into that window depends on how long grace periods
 * take; it is only reported.
 */
static void kpopt_hits_from_irq(struct kunit *test)
{
	struct kpopt_ticker *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	unsigned long addr = kpopt_entry(kpopt_good);
	struct kpopt_probe *pp = kpopt_probe_new(test, addr, false);
	unsigned int round;

	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, kpopt_sysctl_restore,
						  NULL), 0);
	pp->in_irq = true;
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

/* debug.kprobes-optimization: 0 unoptimizes now, 1 optimizes again. */
static void kpopt_sysctl(struct kunit *test)
{
	struct kpopt_probe *a, *b;

	if (!IS_ENABLED(CONFIG_PROC_SYSCTL))
		kunit_skip(test, "no /proc/sys");
	KUNIT_ASSERT_TRUE(test, kprobe_opt_enabled());
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, kpopt_sysctl_restore,
						  NULL), 0);
	a = kpopt_probe_new(test, kpopt_entry(kpopt_good), false);
	kpopt_register(test, &a->kp);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_optimized(&a->kp));

	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("0\n"), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_opt_enabled());
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&a->kp));
	KUNIT_EXPECT_EQ(test, *(u8 *)a->kp.addr, INT3_INSN_OPCODE);
	kpopt_run(test, kpopt_good, kpopt_good_ref, a, "sysctl 0");

	/* New probes stay int3 probes. */
	b = kpopt_probe_new(test, kpopt_entry(kpopt_rip), false);
	kpopt_register(test, &b->kp);
	kprobe_opt_wait();
	KUNIT_EXPECT_FALSE(test, kpopt_optimized(&b->kp));
	kpopt_run(test, kpopt_rip, kpopt_rip_ref, b, "registered at 0");

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
	kpopt_run(test, kpopt_good, kpopt_good_ref, a, "sysctl 1");
	kpopt_run(test, kpopt_rip, kpopt_rip_ref, b, "sysctl 1");
	KUNIT_EXPECT_EQ(test, kpopt_sysctl_write("7\n"), -EINVAL);
	KUNIT_EXPECT_TRUE(test, kprobe_opt_enabled());
}

/* A kretprobe's entry probe (no post handler) is optimized too. */
struct kpopt_ret {
	struct kretprobe rp;
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
	*(long *)ri->data = *kpopt_arg(regs);
	return 0;
}

static int kpopt_ret_handler(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct kpopt_ret *r = container_of(get_kretprobe(ri), struct kpopt_ret,
					   rp);

	atomic_inc(&r->returns);
	if (regs_return_value(regs) != kpopt_good_ref(*(long *)ri->data))
		atomic_inc(&r->bad);
	return 0;
}

static void kpopt_kretprobe(struct kunit *test)
{
	struct kpopt_ret *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->rp.kp.addr = (kprobe_opcode_t *)kpopt_good;
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
	kpopt_run(test, kpopt_good, kpopt_good_ref, NULL, "kretprobe");
	KUNIT_EXPECT_EQ(test, atomic_read(&r->entries), KPOPT_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->returns), KPOPT_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->bad), 0);
}

/* Hits on another CPU while probes come and go and the sysctl flips. */
struct kpopt_stress {
	atomic_long_t calls;
	atomic_t wrong;
};

static int kpopt_stress_thread(void *data)
{
	struct kpopt_stress *s = data;
	long i = 0;

	while (!kthread_should_stop()) {
		if (kpopt_call_fn(kpopt_good, i) != kpopt_good_ref(i))
			atomic_inc(&s->wrong);
		if (kpopt_call_fn(kpopt_rip, i) != kpopt_rip_ref(i))
			atomic_inc(&s->wrong);
		i++;
		/* See kpkt_stress_thread(): RCU-tasks needs a voluntary switch. */
		if (!(atomic_long_inc_return(&s->calls) % 64))
			usleep_range(50, 100);
		else
			cond_resched();
	}
	return 0;
}

static void kpopt_stress(struct kunit *test)
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
		a = kpopt_probe_new(test, kpopt_entry(kpopt_good), false);
		b = kpopt_probe_new(test, kpopt_entry(kpopt_rip), false);
		post = kpopt_probe_new(test, kpopt_entry(kpopt_good), true);
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
				(int)atomic_long_read(&s->calls));
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
	/* The other suites' probes may still have detours queued. */
	kprobe_opt_wait();
	return 0;
}

static struct kunit_case kpopt_cases[] = {
	KUNIT_CASE(kpopt_good_is_optimized),
	KUNIT_CASE(kpopt_rip_relative),
	KUNIT_CASE(kpopt_refused),
	KUNIT_CASE(kpopt_post_member),
	KUNIT_CASE(kpopt_disable_enable),
	KUNIT_CASE(kpopt_probe_in_region),
	KUNIT_CASE(kpopt_recursion_missed),
	KUNIT_CASE(kpopt_unwind),
	KUNIT_CASE(kpopt_hits_from_irq),
	KUNIT_CASE(kpopt_sysctl),
	KUNIT_CASE(kpopt_kretprobe),
	KUNIT_CASE_SLOW(kpopt_stress),
	{}
};

static struct kunit_suite kpopt_suite = {
	.name = "kprobes_opt",
	.suite_init = kpopt_suite_init,
	.test_cases = kpopt_cases,
};

kunit_test_suite(kpopt_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
