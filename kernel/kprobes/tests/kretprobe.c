// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suite "kprobes_kretprobe": struct kretprobe through
 * <linux/kprobes.h>, black-box (kprobes_kunit.h has the layout) but for
 * one count of the core's, the pools not yet freed.  Return values and
 * entry data, refusals, the instance pool running dry, recursion, probes
 * unregistered while calls are in flight, asleep, or in a task that
 * exits, and when their pools go.
 */

/* First: it defines pr_fmt, and declares kretprobe_pools_alive(). */
#include "../internal.h"

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "kprobes_kunit.h"

/* ------------------------------------------------------------------
 * Suite kprobes_kretprobe
 * ------------------------------------------------------------------
 */

#define KPKT_MAX_REC	16
#define KPKT_MAGIC	0x6b706b74UL	/* "kpkt" */

/* What the entry handler leaves in kretprobe_instance::data. */
struct kpkt_ri_data {
	unsigned long cookie;
	long arg;
};

/**
 * struct kpkt_ret - a kretprobe and what its handlers observed
 * @rp: the kretprobe
 * @entries: entry handler calls
 * @returns: return handler calls
 * @refuse_odd: the entry handler declines calls with an odd argument
 * @bad: handler-side checks that failed (data cookie, get_kretprobe, task)
 * @ret: return values in the order the return handler saw them
 * @arg: the matching arguments, from the instance data (if any)
 * @ret_addr: the return address of the last instance
 */
struct kpkt_ret {
	struct kretprobe rp;
	atomic_t entries;
	atomic_t returns;
	bool refuse_odd;
	atomic_t bad;
	long ret[KPKT_MAX_REC];
	long arg[KPKT_MAX_REC];
	unsigned long ret_addr;
};

/* Handler calls for instances whose kretprobe get_kretprobe() lost. */
static atomic_t kpkt_ret_orphans;

static int kpkt_ret_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kpkt_ret *kr = container_of(rp, struct kpkt_ret, rp);
	struct kpkt_ri_data *d = (struct kpkt_ri_data *)ri->data;
	long arg = regs_get_kernel_argument(regs, 0);

	if (!rp) {
		atomic_inc(&kpkt_ret_orphans);
		return 1;
	}
	atomic_inc(&kr->entries);
	if (kr->refuse_odd && (arg & 1))
		return 1;
	if (kr->rp.data_size >= sizeof(*d)) {
		d->cookie = KPKT_MAGIC ^ (unsigned long)ri;
		d->arg = arg;
	}
	return 0;
}

static int kpkt_ret_handler(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kpkt_ret *kr = container_of(rp, struct kpkt_ret, rp);
	struct kpkt_ri_data *d = (struct kpkt_ri_data *)ri->data;
	int n;

	if (!rp) {
		atomic_inc(&kpkt_ret_orphans);
		return 0;
	}
	n = atomic_inc_return(&kr->returns) - 1;
	if (ri->task != current)
		atomic_inc(&kr->bad);
	kr->ret_addr = get_kretprobe_retaddr(ri);
	if (n >= KPKT_MAX_REC)
		return 0;
	kr->ret[n] = regs_return_value(regs);
	kr->arg[n] = LONG_MIN;
	if (kr->rp.entry_handler && kr->rp.data_size >= sizeof(*d)) {
		if (d->cookie != (KPKT_MAGIC ^ (unsigned long)ri))
			atomic_inc(&kr->bad);
		kr->arg[n] = d->arg;
	}
	return 0;
}

static struct kpkt_ret *kpkt_ret_new(struct kunit *test, const char *sym,
				     bool with_entry)
{
	struct kpkt_ret *kr = kunit_kzalloc(test, sizeof(*kr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, kr);
	kr->rp.kp.symbol_name = sym;
	kr->rp.handler = kpkt_ret_handler;
	if (with_entry) {
		kr->rp.entry_handler = kpkt_ret_entry;
		kr->rp.data_size = sizeof(struct kpkt_ri_data);
	}
	kr->rp.maxactive = 8;
	return kr;
}

static int kpkt_ret_register(struct kunit *test, struct kpkt_ret *kr)
{
	int ret = register_kretprobe(&kr->rp);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, kpkt_unregister_ret_action,
					 &kr->rp);
}

static void kpkt_ret_unregister(struct kunit *test, struct kpkt_ret *kr)
{
	kunit_release_action(test, kpkt_unregister_ret_action, &kr->rp);
}

static void kpkt_ret_expect_reject(struct kunit *test, struct kpkt_ret *kr,
				   int err, const char *what)
{
	int ret = register_kretprobe(&kr->rp);

	if (!ret)
		unregister_kretprobe(&kr->rp);
	KUNIT_EXPECT_EQ_MSG(test, ret, err, "register_kretprobe(%s)", what);
}

static void kpkt_ret_reset(struct kpkt_ret *kr)
{
	atomic_set(&kr->entries, 0);
	atomic_set(&kr->returns, 0);
}

/* Every return seen, in call order, with the value the caller got. */
static void kpkt_ret_check(struct kunit *test, struct kpkt_ret *kr,
			   const struct kpkt_ref *ref)
{
	unsigned int i;
	int calls;

	kpkt_ret_reset(kr);
	calls = kpkt_run(test, ref, "kretprobe'd");
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), calls);
	if (kr->rp.entry_handler)
		KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), calls);
	for (i = 0; i < KPKT_NARGS; i++) {
		KUNIT_EXPECT_EQ(test, kr->ret[i], ref->want[i]);
		if (kr->rp.entry_handler)
			KUNIT_EXPECT_EQ(test, kr->arg[i], kpkt_args[i]);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);
}

static void return_value_seen(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", false);
	char *where = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	char *want = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	struct kpkt_ref ref;
	unsigned long seen;
	long got;

	KUNIT_ASSERT_NOT_NULL(test, where);
	KUNIT_ASSERT_NOT_NULL(test, want);
	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);

	/*
	 * The instance reports where the function really returns to.  Read
	 * it before anything else can call the target again (the expectation
	 * below may evaluate its operands by calling kpkt_arith directly).
	 */
	got = kpkt_ret_caller(kpkt_arith, kpkt_args[0]);
	seen = READ_ONCE(kr->ret_addr);
	KUNIT_EXPECT_EQ(test, got, ref.want[0]);
	snprintf(where, KSYM_SYMBOL_LEN, "%ps", (void *)seen);
	snprintf(want, KSYM_SYMBOL_LEN, "%ps", kpkt_ret_caller);
	KUNIT_EXPECT_STREQ(test, where, want);

	kpkt_ret_unregister(test, kr);
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
}

static void entry_handler_data(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_rip", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_rip);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
}

static void entry_handler_refuses(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;
	unsigned int i, n = 0, odd = 0;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->refuse_odd = true;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	calls = kpkt_run(test, &ref, "entry handler refusing odd");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), calls);
	for (i = 0; i < KPKT_NARGS; i++) {
		if (kpkt_args[i] & 1) {
			odd++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, kr->arg[n], kpkt_args[i]);
		KUNIT_EXPECT_EQ(test, kr->ret[n], ref.want[i]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), (int)n);
	/*
	 * As upstream: nmissed only counts calls that found no instance.
	 * Declined calls are the debugfs breakdown's "refused".
	 */
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_refused, (unsigned long)odd);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_empty, 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
}

static void refuse_bad_fields(struct kunit *test)
{
	struct kpkt_ret *kr;

	kr = kpkt_ret_new(test, "kpkt_arith", false);
	kr->rp.maxactive = INT_MAX;
	kpkt_ret_expect_reject(test, kr, -E2BIG, "maxactive too big");

	kr = kpkt_ret_new(test, "kpkt_arith", true);
	kr->rp.data_size = KRETPROBE_MAX_DATA_SIZE + 1;
	kpkt_ret_expect_reject(test, kr, -E2BIG, "data_size too big");

	kr = kpkt_ret_new(test, "kpkt_no_such_symbol_anywhere", false);
	kpkt_ret_expect_reject(test, kr, -ENOENT, "unknown symbol");

	kr = kpkt_ret_new(test, "kpkt_arith", false);
	kr->rp.kp.addr = (void *)kpkt_arith;
	kpkt_ret_expect_reject(test, kr, -EINVAL, "addr and symbol_name");

	kr = kpkt_ret_new(test, "kpkt_nokprobe", false);
	kpkt_ret_expect_reject(test, kr, -EINVAL, "blacklisted");

	/*
	 * mips switches tasks in resume(), parisc in _switch_to(); sparc64
	 * in switch_to(), a macro of inline assembly, with no function to
	 * refuse
	 */
	if (IS_ENABLED(CONFIG_SPARC64))
		return;
	kr = kpkt_ret_new(test, IS_ENABLED(CONFIG_MIPS) ? "resume" :
			  IS_ENABLED(CONFIG_PARISC) ? "_switch_to" : "__switch_to",
			  false);
	kpkt_ret_expect_reject(test, kr, -EINVAL, "__switch_to");
}

/* Core-owned flag bits are dropped, as for kprobes: registered, enabled. */
static void core_flags_dropped(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.kp.flags = KPROBE_FLAG_GONE | 0x100;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_gone(&kr->rp.kp));
	KUNIT_EXPECT_FALSE(test, kprobe_disabled(&kr->rp.kp));
	kpkt_ret_check(test, kr, &ref);
}

/*
 * A kretprobe taken apart through its kprobe (unregister_kprobe(&rp->kp),
 * then unregister_kretprobe()) gives its pool back at the first call: it
 * used to stay allocated, with a back-pointer to the kretprobe.
 */
static void unregister_through_kprobe(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.maxactive = 1000;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&kr->rp), 0);
	KUNIT_EXPECT_NOT_NULL(test, rcu_access_pointer(kr->rp.pool));
	unregister_kprobe(&kr->rp.kp);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(kr->rp.pool));
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "after unregister_kprobe()");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	unregister_kretprobe(&kr->rp);
	KUNIT_EXPECT_NULL(test, kr->rp.kp.addr);
	/* And it can be registered again. */
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
}

/*
 * maxactive <= 0 picks the default, whatever the pool bound says of it;
 * the same kretprobe twice in one unregister_kretprobes() is unregistered
 * once, its pool given back.
 */
static void default_maxactive_twice_unregistered(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kretprobe *rps[2] = { &kr->rp, &kr->rp };
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.maxactive = -1;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&kr->rp), 0);
	KUNIT_EXPECT_GT(test, kr->rp.maxactive, 0);
	unregister_kretprobes(rps, 2);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(kr->rp.pool));
	KUNIT_EXPECT_NOT_NULL(test, kr->rp.kp.addr);
	kr->rp.kp.addr = NULL;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
}

/* As upstream, maxactive has no fixed limit: 8192 instances register. */
static void large_maxactive(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.maxactive = 8192;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
}

/* Garbage in every field the user does not set (kmalloc()): registers. */
static void register_uninitialised_struct(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	memset(&kr->rp, 0x5a, sizeof(kr->rp));
	kr->rp.kp.addr = NULL;
	kr->rp.kp.symbol_name = "kpkt_arith";
	kr->rp.kp.offset = 0;
	kr->rp.kp.flags = 0;
	kr->rp.handler = kpkt_ret_handler;
	kr->rp.entry_handler = kpkt_ret_entry;
	kr->rp.data_size = sizeof(struct kpkt_ri_data);
	kr->rp.maxactive = 8;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
	kpkt_ret_check(test, kr, &ref);
	KUNIT_EXPECT_EQ(test, register_kretprobe(&kr->rp), -EINVAL);
	kpkt_ret_check(test, kr, &ref);
}

/*
 * Unregistering a kretprobe that is not registered clears its kp.addr
 * (documented; upstream does the same) and touches nothing else, not even
 * a pool pointer full of garbage.
 */
static void unregister_unregistered_changes_nothing(struct kunit *test)
{
	struct kpkt_ret *live = kpkt_ret_new(test, "kpkt_arith", false);
	struct kpkt_ret *stranger = kpkt_ret_new(test, NULL, false);
	struct kpkt_ret *garbage = kpkt_ret_new(test, NULL, false);
	struct kpkt_ret *once = kpkt_ret_new(test, "kpkt_rip", false);
	struct kretprobe *rps[] = { &stranger->rp, &live->rp };
	struct kpkt_ref ref;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, live), 0);

	/* At the live one's address, never registered. */
	stranger->rp.kp.addr = live->rp.kp.addr;
	unregister_kretprobe(&stranger->rp);
	KUNIT_EXPECT_NULL(test, stranger->rp.kp.addr);

	memset(&garbage->rp, 0x5a, sizeof(garbage->rp));
	garbage->rp.kp.addr = live->rp.kp.addr;
	garbage->rp.kp.symbol_name = NULL;
	unregister_kretprobe(&garbage->rp);
	KUNIT_EXPECT_NULL(test, garbage->rp.kp.addr);
	kpkt_ret_check(test, live, &ref);

	/* Unregistered already: the second time it is a stranger too. */
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, once), 0);
	kpkt_ret_unregister(test, once);
	KUNIT_EXPECT_NOT_NULL(test, once->rp.kp.addr);
	unregister_kretprobe(&once->rp);
	KUNIT_EXPECT_NULL(test, once->rp.kp.addr);

	/* In a batch, with a registered one after it. */
	stranger->rp.kp.addr = live->rp.kp.addr;
	unregister_kretprobes(rps, ARRAY_SIZE(rps));
	kunit_remove_action(test, kpkt_unregister_ret_action, &live->rp);
	KUNIT_EXPECT_NULL(test, stranger->rp.kp.addr);
	KUNIT_EXPECT_NOT_NULL(test, live->rp.kp.addr);
	kpkt_ret_reset(live);
	calls = kpkt_run(test, &ref, "after batch unregister");
	KUNIT_EXPECT_GT(test, calls, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&live->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);
}

/* A return probe is only possible at a function entry. */
static void refuse_not_function_entry(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", false);
	struct kpkt_text t;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	kr->rp.kp.offset = t.off[t.nr > 1 ? 1 : 0];
	kpkt_ret_expect_reject(test, kr, -EINVAL, "offset past the entry");
}

static void two_kretprobes_one_function(struct kunit *test)
{
	struct kpkt_ret *k1 = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ret *k2 = kpkt_ret_new(test, "kpkt_arith", false);
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, k1), 0);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, k2), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);

	kpkt_ret_reset(k2);
	kpkt_ret_check(test, k1, &ref);
	KUNIT_EXPECT_EQ(test, atomic_read(&k2->returns), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, k2->ret[KPKT_NARGS - 1], ref.want[KPKT_NARGS - 1]);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);

	kpkt_ret_unregister(test, k1);
	kpkt_ret_reset(k1);
	kpkt_ret_check(test, k2, &ref);
	KUNIT_EXPECT_EQ(test, atomic_read(&k1->returns), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 2 * KPKT_NARGS);

	kpkt_unregister(test, &pp->kp);
	calls = kpkt_run(test, &ref, "kprobe gone, kretprobe stays");
	KUNIT_EXPECT_EQ(test, atomic_read(&k2->returns), 2 * calls);
}

/* Returns come back innermost first, each with its own value. */
static void hit_inside_handler_is_missed(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_rsum", true);
	const long depth = 5;
	long i;

	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_rsum, depth),
			depth * (depth + 1) / 2);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), (int)depth + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), (int)depth + 1);
	for (i = 0; i <= depth; i++) {
		KUNIT_EXPECT_EQ(test, kr->arg[i], i);
		KUNIT_EXPECT_EQ(test, kr->ret[i], i * (i + 1) / 2);
	}
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
}

/* What kpkt_ret_calls_inner() saw, for the case below. */
static struct kprobe *kpkt_ret_running;
static long kpkt_ret_nested;

static int kpkt_ret_calls_inner(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	kpkt_ret_running = kprobe_running();
	kpkt_ret_nested = kpkt_call(kpkt_inner, 5);
	return 0;
}

/*
 * A return handler runs as its kretprobe: kprobe_running() is its kprobe,
 * and a probe hit from the handler is missed (no handler of it runs, its
 * nmissed grows, the function it probes still works).  Once the call
 * has returned, that probe hits as usual and the CPU runs no probe.
 */
static void probe_hit_in_return_handler_is_missed(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", false);
	struct kpkt_probe *inner = kpkt_probe_new(test, kpkt_inner, NULL, 0);
	long want_inner = kpkt_call(kpkt_inner, 5);
	long want = kpkt_call(kpkt_arith, 3);
	struct kprobe *after;

	kr->rp.handler = kpkt_ret_calls_inner;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &inner->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_running = NULL;
	kpkt_ret_nested = 0;

	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_arith, 3), want);
	KUNIT_EXPECT_PTR_EQ(test, kpkt_ret_running, &kr->rp.kp);
	KUNIT_EXPECT_EQ(test, kpkt_ret_nested, want_inner);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), 0);
	KUNIT_EXPECT_EQ(test, inner->kp.nmissed, 1UL);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);

	preempt_disable();
	after = kprobe_running();
	preempt_enable();
	KUNIT_EXPECT_NULL(test, after);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inner, 5), want_inner);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), 1);

	kpkt_ret_unregister(test, kr);
	kpkt_unregister(test, &inner->kp);
}

/*
 * Calls of kpkt_inflight() from kthreads.  A worker makes @calls calls; the
 * one worker kpkt_gated points to stops inside its call, its instance
 * taken, until the case opens the gate, and then returns or, with @exit,
 * exits right there so that its instance never comes back by the
 * trampoline.
 */
struct kpkt_worker {
	struct task_struct *task;
	unsigned int calls;
	long want;
	int wrong;
	bool exit;
	struct completion inside;
	struct completion open;
	struct completion done;
};

static struct kpkt_worker *kpkt_gated;

/* The kpkt_inflight_hook of the cases that use a gated worker. */
static void kpkt_gate_hook(void)
{
	struct kpkt_worker *w = READ_ONCE(kpkt_gated);
	bool exit;

	if (!w || w->task != current)
		return;
	exit = w->exit;
	complete(&w->inside);
	wait_for_completion(&w->open);
	if (exit)
		kthread_exit(0);
}

static int kpkt_worker_fn(void *data)
{
	struct kpkt_worker *w = data;
	unsigned int i;

	for (i = 0; i < w->calls; i++)
		if (kpkt_call(kpkt_inflight, 9) != w->want)
			w->wrong++;
	complete(&w->done);
	return 0;
}

/*
 * Let @w go and wait until it has exited: only then is it sure not to
 * touch @w (even a completion it waited on) any more.  The kthread exits
 * by itself, so kthread_stop() is not used; exit_state is set once the
 * task is past everything it ran of ours.
 */
static void kpkt_worker_reap(void *data)
{
	struct kpkt_worker *w = data;
	unsigned long deadline = jiffies + 60 * HZ;

	complete_all(&w->open);
	while (!READ_ONCE(w->task->exit_state) && time_before(jiffies, deadline))
		msleep(20);
	WARN_ON(!READ_ONCE(w->task->exit_state));
	put_task_struct(w->task);
}

static struct kpkt_worker *kpkt_worker_new(struct kunit *test,
					   unsigned int calls, long want)
{
	struct kpkt_worker *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->calls = calls;
	w->want = want;
	init_completion(&w->inside);
	init_completion(&w->open);
	init_completion(&w->done);
	return w;
}

/* Start @w on @cpu (anywhere if @cpu >= nr_cpu_ids); reaped at case end. */
static void kpkt_worker_run(struct kunit *test, struct kpkt_worker *w,
			    unsigned int cpu)
{
	struct task_struct *tsk;

	tsk = kthread_create(kpkt_worker_fn, w, "kpkt_worker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
	if (cpu < nr_cpu_ids)
		kthread_bind(tsk, cpu);
	/* Kept until kpkt_worker_reap(): the cases look at the dead task. */
	w->task = get_task_struct(tsk);
	wake_up_process(tsk);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kpkt_worker_reap,
							w), 0);
}

static void kpkt_worker_wait(struct kunit *test, struct completion *c,
			     const char *what)
{
	KUNIT_ASSERT_NE_MSG(test, wait_for_completion_timeout(c, 30 * HZ), 0,
			    "worker %s", what);
}

/*
 * One gated worker on @cpu, returned once it is asleep inside
 * kpkt_inflight() with its instance taken; with @exit it exits there
 * when the case opens the gate.
 */
static struct kpkt_worker *kpkt_worker_inside(struct kunit *test, long want,
					      unsigned int cpu, bool exit)
{
	struct kpkt_worker *w = kpkt_worker_new(test, 1, want);

	w->exit = exit;
	WRITE_ONCE(kpkt_inflight_hook, kpkt_gate_hook);
	WRITE_ONCE(kpkt_gated, w);
	kpkt_worker_run(test, w, cpu);
	kpkt_worker_wait(test, &w->inside, "never entered the target");
	return w;
}

/*
 * The only instance is held by a call asleep on one CPU while another
 * thread calls the function on the other CPU: each of those calls misses,
 * without its entry handler, and nothing else does.
 */
static void instance_pool_exhausted(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);
	unsigned int cpu = cpumask_first(cpu_online_mask);
	unsigned int other = cpumask_next(cpu, cpu_online_mask);
	struct kpkt_worker *blocker, *caller;
	const int misses = 5;

	/* With one CPU the blocker sleeps anyway; only the placement differs. */
	if (other >= nr_cpu_ids)
		other = cpu;
	kr->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	blocker = kpkt_worker_inside(test, want, cpu, false);

	caller = kpkt_worker_new(test, misses, want);
	kpkt_worker_run(test, caller, other);
	kpkt_worker_wait(test, &caller->done, "calls did not finish");
	KUNIT_EXPECT_EQ(test, caller->wrong, 0);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, misses);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_empty, misses);
	KUNIT_EXPECT_EQ(test, kr->rp.kp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);

	/* The blocked call returns through the trampoline and is reported. */
	complete_all(&blocker->open);
	kpkt_worker_wait(test, &blocker->done, "did not return");
	KUNIT_EXPECT_EQ(test, blocker->wrong, 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), 1);
	KUNIT_EXPECT_EQ(test, kr->arg[0], 9L);
	KUNIT_EXPECT_EQ(test, kr->ret[0], want);

	/* Its instance is back: the next call is tracked, no new miss. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 2);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, misses);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
}

/* One instance for three nested calls: the nested two are missed. */
static void instance_pool_exhausted_nested(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_rsum", true);

	kr->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_rsum, 2), 3L);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 2);
	/* Documented: no instance, no entry handler either. */
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), 1);
	KUNIT_EXPECT_EQ(test, kr->arg[0], 2L);
	KUNIT_EXPECT_EQ(test, kr->ret[0], 3L);

	/* The instance came back: the next call is tracked again. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_rsum, 0), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 2);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 2);
}

static void disable_then_enable(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_run(test, &ref, "registered disabled");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);

	KUNIT_EXPECT_EQ(test, enable_kretprobe(&kr->rp), 0);
	kpkt_ret_check(test, kr, &ref);

	KUNIT_EXPECT_EQ(test, disable_kretprobe(&kr->rp), 0);
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "disabled");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	KUNIT_EXPECT_EQ(test, enable_kretprobe(&kr->rp), 0);
	kpkt_ret_check(test, kr, &ref);
}

/* Unregistered while an instance is on the stack: the call still returns. */
static struct kunit *kpkt_inflight_test;
static struct kpkt_ret *kpkt_inflight_kr;

static void kpkt_unregister_inflight(void)
{
	kpkt_ret_unregister(kpkt_inflight_test, kpkt_inflight_kr);
}

static void unregister_with_returns_in_flight(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);

	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_inflight_test = test;
	kpkt_inflight_kr = kr;
	WRITE_ONCE(kpkt_inflight_hook, kpkt_unregister_inflight);
	KUNIT_EXPECT_EQ(test, kpkt_ret_caller(kpkt_inflight, 9), want);
	WRITE_ONCE(kpkt_inflight_hook, NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	/* Its kretprobe is gone: no handler may run for the instance. */
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);

	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
}

/*
 * Unregistered while another task sleeps inside the function: that call
 * returns later with the right value and no handler runs for it.
 */
static void unregister_with_sleeping_caller(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);
	struct kpkt_worker *w;

	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	w = kpkt_worker_inside(test, want, nr_cpu_ids, false);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);

	kpkt_ret_unregister(test, kr);
	complete_all(&w->open);
	kpkt_worker_wait(test, &w->done, "did not return");
	KUNIT_EXPECT_EQ(test, w->wrong, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);

	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
}

/*
 * A pool outlives its kretprobe while an instance is out, and goes when
 * that instance comes home: unregistration counts what is out itself
 * (the owner's maxactive, changed meanwhile, must not matter), the call
 * that comes back counts itself home, and neither frees the pool early.
 * With nothing out, unregistration frees it there and then.
 */
static void pool_freed_when_last_instance_home(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", false);
	long want = kpkt_call(kpkt_inflight, 9);
	int before = kretprobe_pools_alive();
	unsigned long deadline;
	struct kpkt_worker *w;

	kr->rp.maxactive = 4;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_EQ(test, kretprobe_pools_alive(), before + 1);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	kpkt_ret_unregister(test, kr);
	KUNIT_EXPECT_EQ(test, kretprobe_pools_alive(), before);

	/* Registered again, as a user re-arms one: by its symbol. */
	kpkt_ret_reset(kr);
	kr->rp.kp.addr = NULL;
	kr->rp.maxactive = 4;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	w = kpkt_worker_inside(test, want, nr_cpu_ids, false);
	/* One instance out, one taken and given back meanwhile. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 1);
	kr->rp.maxactive = 100;

	kpkt_ret_unregister(test, kr);
	KUNIT_EXPECT_EQ_MSG(test, kretprobe_pools_alive(), before + 1,
			    "freed with an instance out");
	complete_all(&w->open);
	kpkt_worker_wait(test, &w->done, "did not return");
	KUNIT_EXPECT_EQ(test, w->wrong, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 1);

	/* Freed by the irq_work the last return queued. */
	deadline = jiffies + 10 * HZ;
	while (kretprobe_pools_alive() != before && time_before(jiffies, deadline))
		msleep(20);
	KUNIT_EXPECT_EQ_MSG(test, kretprobe_pools_alive(), before,
			    "not freed once its last instance was home");
}

/*
 * A kthread exits inside the function, so its instance never returns by
 * the trampoline.  kprobe_flush_task() must hand it back when the task is
 * freed: with a single instance, the call made meanwhile misses and the
 * one made after the task is gone is tracked.
 */
static void task_exits_with_instance_in_flight(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);
	unsigned long deadline;
	struct kpkt_worker *w;
	struct llist_head *left;

	kr->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	w = kpkt_worker_inside(test, want, nr_cpu_ids, true);

	/* The worker holds the only instance. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);

	/*
	 * Let it exit, then wait until its task_struct has been released
	 * (an RCU callback after its last schedule): that is where the
	 * instance is flushed.  The worker's reference keeps the struct.
	 */
	complete_all(&w->open);
	left = &w->task->kretprobe_instances;
	deadline = jiffies + 30 * HZ;
	while (!llist_empty(left) && time_before(jiffies, deadline)) {
		rcu_barrier();
		msleep(20);
	}
	KUNIT_ASSERT_TRUE_MSG(test, llist_empty(left),
			      "the dead task's instance was not reclaimed");
	KUNIT_EXPECT_NE(test, READ_ONCE(w->task->exit_state), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);

	/* Back in the pool: tracked, no new miss. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 2);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), 1);
	KUNIT_EXPECT_EQ(test, kr->arg[0], 9L);
	KUNIT_EXPECT_EQ(test, kr->ret[0], want);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 1);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_empty, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);

	kpkt_ret_unregister(test, kr);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);
}

static void batch_failure_rolls_back(struct kunit *test)
{
	struct kpkt_ret *good = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ret *bad = kpkt_ret_new(test, "kpkt_no_such_symbol_anywhere",
					    false);
	struct kretprobe *rps[] = { &good->rp, &bad->rp };
	struct kpkt_ref ref;
	int ret;

	kpkt_ref_init(&ref, kpkt_arith);
	ret = register_kretprobes(rps, ARRAY_SIZE(rps));
	if (!ret)
		unregister_kretprobes(rps, ARRAY_SIZE(rps));
	KUNIT_EXPECT_EQ(test, ret, -ENOENT);
	kpkt_run(test, &ref, "after a failed batch");
	KUNIT_EXPECT_EQ(test, atomic_read(&good->entries), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&good->returns), 0);

	good->rp.kp.addr = NULL;
	good->rp.kp.flags = 0;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, good), 0);
	kpkt_ret_check(test, good, &ref);
}

/*
 * A registered kretprobe whose owner changed kp.addr or kp.symbol_name is
 * still the one registered: registering it again is refused and changes
 * nothing, disabling and unregistering act on it where it was registered,
 * and its pool is given back (kmemleak would see it kept).
 */
static void fields_changed_after_registration(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	kprobe_opcode_t *probed;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	probed = kr->rp.kp.addr;

	kr->rp.kp.symbol_name = "kpkt_leaf";
	kr->rp.kp.addr = NULL;
	KUNIT_EXPECT_EQ(test, register_kretprobe(&kr->rp), -EINVAL);
	kr->rp.kp.symbol_name = NULL;
	kr->rp.kp.addr = (kprobe_opcode_t *)kpkt_leaf;
	KUNIT_EXPECT_EQ(test, register_kretprobe(&kr->rp), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, rcu_access_pointer(kr->rp.pool));
	kpkt_ret_check(test, kr, &ref);

	KUNIT_EXPECT_EQ(test, disable_kretprobe(&kr->rp), 0);
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "disabled");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 0);
	KUNIT_EXPECT_EQ(test, enable_kretprobe(&kr->rp), 0);

	kpkt_ret_unregister(test, kr);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(kr->rp.pool));
	KUNIT_EXPECT_PTR_EQ(test, kr->rp.kp.addr, probed);
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
}

static int kprobes_kretprobe_case_init(struct kunit *test)
{
	atomic_set(&kpkt_ret_orphans, 0);
	WRITE_ONCE(kpkt_inflight_hook, NULL);
	kpkt_inflight_test = NULL;
	kpkt_inflight_kr = NULL;
	WRITE_ONCE(kpkt_gated, NULL);
	return 0;
}

static struct kunit_case kprobes_kretprobe_cases[] = {
	KUNIT_CASE(return_value_seen),
	KUNIT_CASE(entry_handler_data),
	KUNIT_CASE(entry_handler_refuses),
	KUNIT_CASE(refuse_bad_fields),
	KUNIT_CASE(refuse_not_function_entry),
	KUNIT_CASE(core_flags_dropped),
	KUNIT_CASE(large_maxactive),
	KUNIT_CASE(default_maxactive_twice_unregistered),
	KUNIT_CASE(unregister_through_kprobe),
	KUNIT_CASE(register_uninitialised_struct),
	KUNIT_CASE(unregister_unregistered_changes_nothing),
	KUNIT_CASE(two_kretprobes_one_function),
	KUNIT_CASE(hit_inside_handler_is_missed),
	KUNIT_CASE(probe_hit_in_return_handler_is_missed),
	KUNIT_CASE(instance_pool_exhausted),
	KUNIT_CASE(instance_pool_exhausted_nested),
	KUNIT_CASE(disable_then_enable),
	KUNIT_CASE(unregister_with_returns_in_flight),
	KUNIT_CASE(unregister_with_sleeping_caller),
	KUNIT_CASE(task_exits_with_instance_in_flight),
	KUNIT_CASE(pool_freed_when_last_instance_home),
	KUNIT_CASE(batch_failure_rolls_back),
	KUNIT_CASE(fields_changed_after_registration),
	{}
};

static struct kunit_suite kprobes_kretprobe_suite = {
	.name = "kprobes_kretprobe",
	.suite_init = kpkt_suite_init,
	.init = kprobes_kretprobe_case_init,
	.test_cases = kprobes_kretprobe_cases,
};

kunit_test_suite(kprobes_kretprobe_suite);
