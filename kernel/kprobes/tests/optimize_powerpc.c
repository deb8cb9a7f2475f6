// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the "kprobes_optimize" suite must know of powerpc (optimize.h).
 *
 * The targets are assembly leaves (optimize_powerpc_targets.S), so the
 * instruction under each probe does not depend on the compiler: every
 * instruction of one of them but its blr can take a jump, and one starts
 * with a branch, which reads its own address.  A jump replaces the one
 * probed word: the probed word is "b" to a detour buffer, or the trap.
 * The handlers of a hit see pt_regs at the probed instruction.
 *
 * User access (KUAP) has a case of its own here: the handlers of an
 * optimized probe inside a user access window must run with it closed.
 */
/* First: it defines pr_fmt.  Also has the optimizer's KUnit hooks. */
#include "../internal.h"

#include <linux/irqflags.h>
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

/* r3 of kpopt_ppc_good(x) before its second and its third instruction */
static long kpopt_ppc_good_r3_1(long x)
{
	return x + 0x11;
}

static long kpopt_ppc_good_r3_2(long x)
{
	return (x + 0x11) * 3;
}

/* What kpopt_ppc_good returns when r3 is v there. */
static long kpopt_ppc_good_from_1(long v)
{
	return (v * 3) ^ 0x5a5a;
}

static long kpopt_ppc_good_from_2(long v)
{
	return v ^ 0x5a5a;
}

static long kpopt_ppc_branch_ref(long x)
{
	return x + 1;
}

/*
 * Every instruction of kpopt_ppc_good but its blr.  The cases use the
 * first two most (apart, so that each has a word of its own around it),
 * the last alone with a post handler.
 */
static const struct kpopt_point kpopt_ppc_good_points[] = {
	{ "kpopt_ppc_good+8", kpopt_ppc_good, kpopt_ppc_good_ref, 8,
	  kpopt_ppc_good_r3_2, kpopt_ppc_good_from_2 },
	{ "kpopt_ppc_good", kpopt_ppc_good, kpopt_ppc_good_ref, 0,
	  NULL, kpopt_ppc_good_ref },
	{ "kpopt_ppc_good+4", kpopt_ppc_good, kpopt_ppc_good_ref, 4,
	  kpopt_ppc_good_r3_1, kpopt_ppc_good_from_1 },
};

static const struct kpopt_point kpopt_ppc_refused[] = {
	{ "branch", kpopt_ppc_branch, kpopt_ppc_branch_ref },
};

static unsigned long kpopt_ppc_entry(kpopt_fn_t fn)
{
	return ppc_function_entry(fn);
}

/* Calls through a pointer the compiler cannot see through. */
static long kpopt_ppc_call(kpopt_fn_t fn, long x)
{
	kpopt_fn_t f = READ_ONCE(fn);

	return f(x);
}

static unsigned long *kpopt_ppc_arg(struct pt_regs *regs)
{
	return &regs->gpr[3];
}

static bool kpopt_ppc_regs_ok(struct kprobe *p, struct pt_regs *regs)
{
	return regs->nip == (unsigned long)p->addr && !user_mode(regs) &&
	       !preemptible();
}

/* Optimized, as the text says: "b" (I-form, no AA/LK) to a detour buffer. */
static bool kpopt_ppc_jumps(unsigned long addr)
{
	u32 word = READ_ONCE(*(u32 *)addr);

	if ((word & 0xfc000003) != 0x48000000)
		return false;
	return is_kprobe_optinsn_slot(branch_target((u32 *)addr));
}

static bool kpopt_ppc_traps(unsigned long addr)
{
	return READ_ONCE(*(u32 *)addr) == BREAKPOINT_INSTRUCTION;
}

/*
 * The user access state, and its value with user access closed: AMR on
 * 64-bit Book3S; on 32-bit Book3S the thread's open window (the segment
 * of the user address that may be written: it only ever closes writes);
 * BookE's PID register (0: only the kernel's mappings, whose TID 0
 * matches any PID); 8xx's MD_AP.
 *
 * kpopt_ppc_task_pid() and kpopt_ppc_task_pid_restore() are for BookE,
 * which opens the window by loading the task's thread.pid (its mm's
 * context number) into PID: the suite's task may have no mm of its own,
 * so it gets a context number for the window's time (with preemption
 * off; no user address is touched under it).
 */
#ifdef CONFIG_PPC_BOOK3S_64
static unsigned long kpopt_ppc_kuap_state(void)
{
	return mfspr(SPRN_AMR);
}

#define KPOPT_PPC_KUAP_CLOSED	AMR_KUAP_BLOCKED
#elif defined(CONFIG_PPC_KUAP) && defined(CONFIG_BOOKE)
static unsigned long kpopt_ppc_kuap_state(void)
{
	return mfspr(SPRN_PID);
}

#define KPOPT_PPC_KUAP_CLOSED	0

static unsigned long kpopt_ppc_task_pid(void)
{
	unsigned long pid = current->thread.pid;

	if (!pid)
		current->thread.pid = 1;
	return pid;
}

static void kpopt_ppc_task_pid_restore(unsigned long pid)
{
	current->thread.pid = pid;
}
#elif defined(CONFIG_PPC_KUAP) && defined(CONFIG_PPC_8xx)
static unsigned long kpopt_ppc_kuap_state(void)
{
	return mfspr(SPRN_MD_AP);
}

#define KPOPT_PPC_KUAP_CLOSED	MD_APG_KUAP
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

#if !defined(CONFIG_PPC_KUAP) || !defined(CONFIG_BOOKE)
static unsigned long kpopt_ppc_task_pid(void)
{
	return 0;
}

static void kpopt_ppc_task_pid_restore(unsigned long pid)
{
}
#endif

/* What the handler of the KUAP case saw. */
static unsigned long kpopt_ppc_handler_amr;

static int kpopt_ppc_pre_amr(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(kpopt_ppc_handler_amr, kpopt_ppc_kuap_state());
	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(kpopt_ppc_unregister_action, unregister_kprobe,
			    struct kprobe *);

/*
 * A probe inside a user-access window: the handlers run with user access
 * closed (AMR locked; on 32-bit the thread's window closed, BookE's PID
 * 0, 8xx's MD_AP locked), as after any kernel entry, and the probed code
 * goes on with the window open.
 * On 64-bit the target reads AMR itself; on 32-bit the state is read
 * after it returns.
 */
static void kpopt_ppc_user_access(struct kunit *test)
{
	unsigned long addr = kpopt_ppc_entry(kpopt_ppc_amr);
	void __user *user = (void __user *)0;
	unsigned long open, seen, pid;
	struct kprobe *kp;

	if (!IS_ENABLED(CONFIG_PPC_KUAP) || !mmu_has_feature(MMU_FTR_KUAP))
		kunit_skip(test, "no KUAP on this machine");
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (kprobe_opcode_t *)addr;
	kp->pre_handler = kpopt_ppc_pre_amr;
	KUNIT_ASSERT_EQ(test, register_kprobe(kp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpopt_ppc_unregister_action,
						  kp), 0);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_ppc_jumps(addr));

	/* The window is not kept across a context switch: no preemption. */
	preempt_disable();
	pid = kpopt_ppc_task_pid();
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
	kpopt_ppc_task_pid_restore(pid);
	preempt_enable();

	KUNIT_EXPECT_NE(test, open, (unsigned long)KPOPT_PPC_KUAP_CLOSED);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kpopt_ppc_handler_amr),
			(unsigned long)KPOPT_PPC_KUAP_CLOSED);
	KUNIT_EXPECT_EQ(test, seen, open);
}

static const struct kpopt_arch kpopt_ppc = {
	.good		= kpopt_ppc_good_points,
	.nr_good	= ARRAY_SIZE(kpopt_ppc_good_points),
	.refused	= kpopt_ppc_refused,
	.nr_refused	= ARRAY_SIZE(kpopt_ppc_refused),
	.inner_off	= 0,
	.patch_len	= sizeof(u32),
	.entry		= kpopt_ppc_entry,
	.call		= kpopt_ppc_call,
	.arg		= kpopt_ppc_arg,
	.regs_ok	= kpopt_ppc_regs_ok,
	.jumps		= kpopt_ppc_jumps,
	.traps		= kpopt_ppc_traps,
	.user_access	= kpopt_ppc_user_access,
};

const struct kpopt_arch *kpopt_arch(void)
{
	return &kpopt_ppc;
}
