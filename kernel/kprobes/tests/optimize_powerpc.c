// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit tests of jump optimization on powerpc: suite "kprobes_opt".
 *
 * Whether a probe is optimized is read from the text: the probed word is
 * "b" to a detour buffer, or the trap.  The targets are assembly leaves
 * (kprobes_kunit_opt_targets_powerpc.S), so the instruction under each
 * probe does not depend on the compiler.  Every case also checks the
 * results of the calls, the handler runs and what the handlers saw.
 */
/* First: it defines pr_fmt.  Also has the optimizer's KUnit hooks. */
#include "../internal.h"

#include <kunit/test.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <asm/code-patching.h>
#include <asm/kup.h>
#include <asm/mmu.h>
#include <asm/ppc-opcode.h>
#include <asm/reg.h>

#include "optimize.h"

static long kpopt_ppc_good_ref(long x)
{
	return ((x + 0x11) * 3) ^ 0x5a5a;
}

static long kpopt_ppc_branch_ref(long x)
{
	return x + 1;
}

/* r3 of kpopt_ppc_good(x) before its second and its third instruction */
static long kpopt_ppc_good_r3_1(long x)
{
	return x + 0x11;
}

static long kpopt_ppc_good_r3_2(long x)
{
	return (x + 0x11) * 3;
}

/* Calls through a pointer the compiler cannot see through. */
static long kpopt_ppc_call(kpopt_fn_t fn, long x)
{
	kpopt_fn_t f = READ_ONCE(fn);

	return f(x);
}

/* The address of the instruction @n words into @fn. */
static unsigned long kpopt_ppc_at(kpopt_fn_t fn, unsigned int n)
{
	return ppc_function_entry(fn) + n * sizeof(u32);
}

/* Where the word at @addr branches to, if it is "b" (I-form, no AA/LK). */
static bool kpopt_ppc_jump(unsigned long addr, unsigned long *target)
{
	u32 word = READ_ONCE(*(u32 *)addr);

	if ((word & 0xfc000003) != 0x48000000)
		return false;
	*target = branch_target((u32 *)addr);
	return true;
}

/* Optimized, as the text says: a branch to a detour buffer. */
static bool kpopt_ppc_optimized(unsigned long addr)
{
	unsigned long target;

	return kpopt_ppc_jump(addr, &target) && is_kprobe_optinsn_slot(target);
}

static bool kpopt_ppc_trapped(unsigned long addr)
{
	return READ_ONCE(*(u32 *)addr) == BREAKPOINT_INSTRUCTION;
}

/**
 * struct kpopt_ppc_probe - a kprobe and what its handlers saw
 * @kp: the kprobe
 * @hits: pre handler runs
 * @post_hits: post handler runs
 * @arg_sum: sum of r3 over the runs
 * @bad: runs whose pt_regs were not those of a hit at the probe address
 * @r3: r3 at the probe for an argument x, when not x itself
 * @set_arg: when non-zero, the pre handler stores it in r3
 * @recurse: the pre handler calls the good target once more
 */
struct kpopt_ppc_probe {
	struct kprobe kp;
	atomic_t hits;
	atomic_t post_hits;
	atomic_long_t arg_sum;
	atomic_t bad;
	kpopt_fn_t r3;
	long set_arg;
	bool recurse;
};

static int kpopt_ppc_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpopt_ppc_probe *pp = container_of(p, struct kpopt_ppc_probe,
						  kp);

	atomic_inc(&pp->hits);
	atomic_long_add(regs->gpr[3], &pp->arg_sum);
	if (regs->nip != (unsigned long)p->addr || user_mode(regs) ||
	    preemptible())
		atomic_inc(&pp->bad);
	if (pp->set_arg)
		regs->gpr[3] = pp->set_arg;
	if (pp->recurse &&
	    kpopt_ppc_call(kpopt_ppc_good, 5) != kpopt_ppc_good_ref(5))
		atomic_inc(&pp->bad);
	return 0;
}

static void kpopt_ppc_post(struct kprobe *p, struct pt_regs *regs,
			   unsigned long flags)
{
	struct kpopt_ppc_probe *pp = container_of(p, struct kpopt_ppc_probe,
						  kp);

	atomic_inc(&pp->post_hits);
}

KUNIT_DEFINE_ACTION_WRAPPER(kpopt_ppc_unregister_action, unregister_kprobe,
			    struct kprobe *);
KUNIT_DEFINE_ACTION_WRAPPER(kpopt_ppc_unregister_ret_action,
			    unregister_kretprobe, struct kretprobe *);

static struct kpopt_ppc_probe *kpopt_ppc_probe_add(struct kunit *test,
						   unsigned long addr,
						   bool post)
{
	struct kpopt_ppc_probe *pp = kunit_kzalloc(test, sizeof(*pp),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pp);
	pp->kp.addr = (kprobe_opcode_t *)addr;
	pp->kp.pre_handler = kpopt_ppc_pre;
	if (post)
		pp->kp.post_handler = kpopt_ppc_post;
	KUNIT_ASSERT_EQ(test, register_kprobe(&pp->kp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpopt_ppc_unregister_action,
						  &pp->kp), 0);
	return pp;
}

#define KPOPT_PPC_CALLS	32

/* Call @fn KPOPT_PPC_CALLS times; @pp (if any) must see each call once. */
static void kpopt_ppc_run(struct kunit *test, kpopt_fn_t fn,
			  kpopt_fn_t ref, struct kpopt_ppc_probe *pp,
			  const char *what)
{
	long i, sum = 0, wrong = 0;

	if (pp) {
		atomic_set(&pp->hits, 0);
		atomic_set(&pp->post_hits, 0);
		atomic_long_set(&pp->arg_sum, 0);
		atomic_set(&pp->bad, 0);
	}
	for (i = 0; i < KPOPT_PPC_CALLS; i++) {
		if (kpopt_ppc_call(fn, i) != ref(i))
			wrong++;
		sum += pp && pp->r3 ? pp->r3(i) : i;
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "%s: wrong results", what);
	if (!pp)
		return;
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&pp->hits), KPOPT_PPC_CALLS,
			    "%s: pre handler runs", what);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&pp->bad), 0,
			    "%s: pt_regs in the handler", what);
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&pp->arg_sum), sum,
			    "%s: r3 in the handler", what);
}

/* The middle of the good target gets a jump; everything stays right. */
static void kpopt_ppc_good_is_optimized(struct kunit *test)
{
	unsigned long addr = kpopt_ppc_at(kpopt_ppc_good, 1);
	u32 before = *(u32 *)addr;
	struct kpopt_ppc_probe *pp;

	pp = kpopt_ppc_probe_add(test, addr, false);
	pp->r3 = kpopt_ppc_good_r3_1;
	kpopt_ppc_run(test, kpopt_ppc_good, kpopt_ppc_good_ref, pp,
		      "trap (or detour)");
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_ppc_optimized(addr));
	KUNIT_EXPECT_TRUE(test, pp->kp.flags & KPROBE_FLAG_OPTIMIZED);
	kpopt_ppc_run(test, kpopt_ppc_good, kpopt_ppc_good_ref, pp,
		      "optimized");

	/* A register changed in pt_regs reaches the probed instruction. */
	pp->set_arg = 1000;
	KUNIT_EXPECT_EQ(test, kpopt_ppc_call(kpopt_ppc_good, 1),
			(1000 * 3) ^ 0x5a5a);
	pp->set_arg = 0;

	kunit_release_action(test, kpopt_ppc_unregister_action, &pp->kp);
	KUNIT_EXPECT_EQ(test, *(u32 *)addr, before);
	kpopt_ppc_run(test, kpopt_ppc_good, kpopt_ppc_good_ref, NULL,
		      "unregistered");
	kprobe_opt_wait();
}

/* A branch reads its own address: the probe keeps its trap. */
static void kpopt_ppc_branch_refused(struct kunit *test)
{
	unsigned long addr = kpopt_ppc_at(kpopt_ppc_branch, 0);
	struct kpopt_ppc_probe *pp;

	pp = kpopt_ppc_probe_add(test, addr, false);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_ppc_trapped(addr));
	KUNIT_EXPECT_FALSE(test, pp->kp.flags & KPROBE_FLAG_OPTIMIZED);
	kpopt_ppc_run(test, kpopt_ppc_branch, kpopt_ppc_branch_ref, pp,
		      "branch");
}

/* A post handler needs the instruction stepped: no jump. */
static void kpopt_ppc_post_not_optimized(struct kunit *test)
{
	unsigned long addr = kpopt_ppc_at(kpopt_ppc_good, 2);
	struct kpopt_ppc_probe *pp;

	pp = kpopt_ppc_probe_add(test, addr, true);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_ppc_trapped(addr));
	kpopt_ppc_run(test, kpopt_ppc_good, kpopt_ppc_good_ref, NULL, "post");
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), KPOPT_PPC_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->post_hits), KPOPT_PPC_CALLS);
}

/* A hit from the handlers of an optimized probe only counts as missed. */
static void kpopt_ppc_recursion_missed(struct kunit *test)
{
	unsigned long addr = kpopt_ppc_at(kpopt_ppc_good, 0);
	struct kpopt_ppc_probe *pp;

	pp = kpopt_ppc_probe_add(test, addr, false);
	pp->recurse = true;
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_ppc_optimized(addr));
	KUNIT_EXPECT_EQ(test, kpopt_ppc_call(kpopt_ppc_good, 9),
			kpopt_ppc_good_ref(9));
	KUNIT_EXPECT_EQ(test, kpopt_ppc_call(kpopt_ppc_good, 8),
			kpopt_ppc_good_ref(8));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->hits), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->bad), 0);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 2UL);
}

static void kpopt_ppc_sysctl_restore(void *unused)
{
	kprobe_opt_set_enabled(true);
	kprobe_opt_wait();
}

/* The sysctl takes the jump out and puts it back. */
static void kpopt_ppc_sysctl(struct kunit *test)
{
	unsigned long addr = kpopt_ppc_at(kpopt_ppc_good, 2);
	struct kpopt_ppc_probe *pp;

	KUNIT_ASSERT_TRUE(test, kprobe_opt_enabled());
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpopt_ppc_sysctl_restore,
						  NULL), 0);
	pp = kpopt_ppc_probe_add(test, addr, false);
	pp->r3 = kpopt_ppc_good_r3_2;
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_ppc_optimized(addr));

	kprobe_opt_set_enabled(false);
	KUNIT_EXPECT_TRUE(test, kpopt_ppc_trapped(addr));
	kpopt_ppc_run(test, kpopt_ppc_good, kpopt_ppc_good_ref, pp, "off");

	kprobe_opt_set_enabled(true);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_ppc_optimized(addr));
	kpopt_ppc_run(test, kpopt_ppc_good, kpopt_ppc_good_ref, pp, "on");
}

/* A kretprobe's entry probe is optimized; LR set in pt_regs is honoured. */
struct kpopt_ppc_ret {
	struct kretprobe rp;
	atomic_t entries;
	atomic_t returns;
	atomic_t bad;
};

static int kpopt_ppc_ret_entry(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	struct kpopt_ppc_ret *r = container_of(get_kretprobe(ri),
					       struct kpopt_ppc_ret, rp);

	atomic_inc(&r->entries);
	*(long *)ri->data = regs->gpr[3];
	return 0;
}

static int kpopt_ppc_ret_handler(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct kpopt_ppc_ret *r = container_of(get_kretprobe(ri),
					       struct kpopt_ppc_ret, rp);

	atomic_inc(&r->returns);
	if (regs_return_value(regs) != kpopt_ppc_good_ref(*(long *)ri->data))
		atomic_inc(&r->bad);
	return 0;
}

static void kpopt_ppc_kretprobe(struct kunit *test)
{
	struct kpopt_ppc_ret *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned long addr = kpopt_ppc_at(kpopt_ppc_good, 0);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->rp.kp.addr = (kprobe_opcode_t *)addr;
	r->rp.entry_handler = kpopt_ppc_ret_entry;
	r->rp.handler = kpopt_ppc_ret_handler;
	r->rp.data_size = sizeof(long);
	KUNIT_ASSERT_EQ(test, register_kretprobe(&r->rp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpopt_ppc_unregister_ret_action,
						  &r->rp), 0);
	kprobe_opt_wait();
	KUNIT_EXPECT_TRUE(test, kpopt_ppc_optimized(addr));
	kpopt_ppc_run(test, kpopt_ppc_good, kpopt_ppc_good_ref, NULL,
		      "kretprobe");
	KUNIT_EXPECT_EQ(test, atomic_read(&r->entries), KPOPT_PPC_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->returns), KPOPT_PPC_CALLS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->bad), 0);
}

/*
 * The user access state, and its value with user access closed: AMR on
 * 64-bit Book3S; on 32-bit Book3S the thread's open window (the segment
 * of the user address that may be written: it only ever closes writes).
 */
#ifdef CONFIG_PPC_BOOK3S_64
static unsigned long kpopt_ppc_kuap_state(void)
{
	return mfspr(SPRN_AMR);
}

#define KPOPT_PPC_KUAP_CLOSED	AMR_KUAP_BLOCKED
#elif defined(CONFIG_PPC_KUAP)
static unsigned long kpopt_ppc_kuap_state(void)
{
	return current->thread.kuap;
}

#define KPOPT_PPC_KUAP_CLOSED	KUAP_NONE
#else
static unsigned long kpopt_ppc_kuap_state(void)
{
	return 0;
}

#define KPOPT_PPC_KUAP_CLOSED	0
#endif

/* What the handler of the KUAP case saw. */
static unsigned long kpopt_ppc_handler_amr;

static int kpopt_ppc_pre_amr(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(kpopt_ppc_handler_amr, kpopt_ppc_kuap_state());
	return 0;
}

/*
 * A probe inside a user-access window: the handlers run with user access
 * closed (AMR locked, or on 32-bit the thread's window closed), as after
 * any kernel entry, and the probed code goes on with the window open.
 * On 64-bit the target reads AMR itself; on 32-bit the state is read
 * after it returns.
 */
static void kpopt_ppc_kuap(struct kunit *test)
{
	unsigned long addr = kpopt_ppc_at(kpopt_ppc_amr, 0);
	void __user *user = (void __user *)0;
	struct kpopt_ppc_probe *pp;
	unsigned long open, seen;

	if (!IS_ENABLED(CONFIG_PPC_KUAP) || !mmu_has_feature(MMU_FTR_KUAP))
		kunit_skip(test, "no KUAP on this machine");
	pp = kpopt_ppc_probe_add(test, addr, false);
	pp->kp.pre_handler = kpopt_ppc_pre_amr;
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_ppc_optimized(addr));

	/* The window is not kept across a context switch: no preemption. */
	preempt_disable();
	if (IS_ENABLED(CONFIG_PPC64))
		allow_read_from_user(user, sizeof(long));
	else
		allow_write_to_user(user, sizeof(long));
	open = kpopt_ppc_kuap_state();
	seen = kpopt_ppc_call(kpopt_ppc_amr, 0);
	if (!IS_ENABLED(CONFIG_PPC64))
		seen = kpopt_ppc_kuap_state();
	if (IS_ENABLED(CONFIG_PPC64))
		prevent_read_from_user(user, sizeof(long));
	else
		prevent_write_to_user(user, sizeof(long));
	preempt_enable();

	KUNIT_EXPECT_NE(test, open, (unsigned long)KPOPT_PPC_KUAP_CLOSED);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kpopt_ppc_handler_amr),
			(unsigned long)KPOPT_PPC_KUAP_CLOSED);
	KUNIT_EXPECT_EQ(test, seen, open);
}

static int kpopt_ppc_suite_init(struct kunit_suite *suite)
{
	/* The other suites' probes may still have detours queued. */
	kprobe_opt_wait();
	return 0;
}

static struct kunit_case kpopt_ppc_cases[] = {
	KUNIT_CASE(kpopt_ppc_good_is_optimized),
	KUNIT_CASE(kpopt_ppc_branch_refused),
	KUNIT_CASE(kpopt_ppc_post_not_optimized),
	KUNIT_CASE(kpopt_ppc_recursion_missed),
	KUNIT_CASE(kpopt_ppc_sysctl),
	KUNIT_CASE(kpopt_ppc_kretprobe),
	KUNIT_CASE(kpopt_ppc_kuap),
	{}
};

static struct kunit_suite kpopt_ppc_suite = {
	.name = "kprobes_opt",
	.suite_init = kpopt_ppc_suite_init,
	.test_cases = kpopt_ppc_cases,
};

kunit_test_suite(kpopt_ppc_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
