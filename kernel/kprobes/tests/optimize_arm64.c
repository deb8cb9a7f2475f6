// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the "kprobes_optimize" suite must know of arm64 (optimize.h), and
 * a suite of arm64's own, "kprobes_optimize_arm64", for the refusals and
 * the detour's layout.
 *
 * The targets are assembly leaves (optimize_arm64_targets.S).  A branch
 * replaces the one probed instruction: the probed word is "B" into the
 * detour area, or the BRK.  The handlers of a hit see pt_regs at the
 * probed instruction, with every exception masked, whichever path the
 * hit took: pc the probe address, x30 the return into kpopt_a64_call(),
 * and the condition flags of kpopt_a64_good's CMP.  Instructions the BRK
 * path simulates (they read the pc), instructions with an exception-table
 * entry and, with BTI in use, landing pads are refused, each with its
 * reason.
 *
 * User access (PAN) has a case of its own: the handlers of an optimized
 * probe where user access is open run with it closed.
 */
/* First: it defines pr_fmt.  Also has the optimizer's KUnit hooks. */
#include "../internal.h"

#include <linux/cpufeature.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/preempt.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/insn.h>
#include <asm/sysreg.h>

#include "optimize.h"

/* kpopt_a64_good(x) compares x with this, and adds 1 if it is less. */
#define KPOPT_A64_CMP	0x20

static long kpopt_a64_good_ref(long x)
{
	return (((x + 0x11) * 3) ^ 0x5a5a) + (x < KPOPT_A64_CMP);
}

/* x0 before the instructions at +8 and at +20 */
static long kpopt_a64_good_x0_8(long x)
{
	return x + 0x11;
}

static long kpopt_a64_good_x0_20(long x)
{
	return ((x + 0x11) * 3) ^ 0x5a5a;
}

/*
 * What kpopt_a64_good returns when x0 is v at +4, +8 and +20.  The flags
 * are still those of the CMP of the original x, which the cases call with
 * 1 and 2: below KPOPT_A64_CMP, so the CINC adds 1.
 */
static long kpopt_a64_good_from_4(long v)
{
	return ((((v + 0x11) * 3) ^ 0x5a5a)) + 1;
}

static long kpopt_a64_good_from_8(long v)
{
	return ((v * 3) ^ 0x5a5a) + 1;
}

static long kpopt_a64_good_from_20(long v)
{
	return v + 1;
}

/* Every refused target returns x + 1 (optimize_arm64_targets.S). */
static long kpopt_a64_plus_one(long x)
{
	return x + 1;
}

/*
 * The cases use the first two most (+4, with the CMP's flags live across
 * it, and the entry), the last alone with a post handler: the CINC, which
 * reads the flags itself.
 */
static const struct kpopt_point kpopt_a64_good_points[] = {
	{ "kpopt_a64_good+4", kpopt_a64_good, kpopt_a64_good_ref, 4,
	  NULL, kpopt_a64_good_from_4 },
	{ "kpopt_a64_good", kpopt_a64_good, kpopt_a64_good_ref, 0,
	  NULL, kpopt_a64_good_ref },
	{ "kpopt_a64_good+8", kpopt_a64_good, kpopt_a64_good_ref, 8,
	  kpopt_a64_good_x0_8, kpopt_a64_good_from_8 },
	{ "kpopt_a64_good+20", kpopt_a64_good, kpopt_a64_good_ref, 20,
	  kpopt_a64_good_x0_20, kpopt_a64_good_from_20 },
};

/* The last one only where BTI is in use (kpopt_arch()). */
static const struct kpopt_point kpopt_a64_refused[] = {
	{ "branch", kpopt_a64_branch, kpopt_a64_plus_one },
	{ "literal load", kpopt_a64_literal, kpopt_a64_plus_one },
	{ "exception table", kpopt_a64_extable, kpopt_a64_plus_one, 4 },
	{ "bti", kpopt_a64_bti, kpopt_a64_plus_one, 4, kpopt_a64_plus_one },
};

/* Past the BTI C that SYM_FUNC_START puts first with BTI. */
static unsigned long kpopt_a64_entry(kpopt_fn_t fn)
{
	unsigned long addr = (unsigned long)fn;

	if (aarch64_insn_is_bti(le32_to_cpu(*(__le32 *)addr)))
		addr += AARCH64_INSN_SIZE;
	return addr;
}

/*
 * Calls through a pointer the compiler cannot see through, and not as a
 * tail call: the target's x30 points back in here (kpopt_a64_regs_ok()).
 */
static noinline long kpopt_a64_call(kpopt_fn_t fn, long x)
{
	kpopt_fn_t f = READ_ONCE(fn);
	long ret = f(x);

	barrier();
	return ret;
}

static unsigned long *kpopt_a64_arg(struct pt_regs *regs)
{
	return (unsigned long *)&regs->regs[0];
}

/* Is @ret a return address into kpopt_a64_call()? */
static bool kpopt_a64_from_call(unsigned long ret)
{
	unsigned long size, off;

	return kallsyms_lookup_size_offset(ret, &size, &off) &&
	       ret - off == (unsigned long)kpopt_a64_call;
}

/*
 * Between kpopt_a64_good's CMP and CINC: are N != V ("less than") as the
 * CMP of the original x left them?  x0 at +4 is x, at +8 x + 0x11.
 */
static bool kpopt_a64_flags_ok(unsigned long addr, struct pt_regs *regs)
{
	unsigned long off = addr - kpopt_a64_entry(kpopt_a64_good);
	long x = regs->regs[0];
	bool lt;

	if (off == 8)
		x -= 0x11;
	else if (off != 4)
		return true;
	lt = !(regs->pstate & PSR_N_BIT) != !(regs->pstate & PSR_V_BIT);
	return lt == (x < KPOPT_A64_CMP);
}

static bool kpopt_a64_regs_ok(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)p->addr;

	return regs->pc == addr && !user_mode(regs) &&
	       interrupts_enabled(regs) && irqs_disabled() && !preemptible() &&
	       !(regs->sp & 15) && kpopt_a64_from_call(regs->regs[30]) &&
	       kpopt_a64_flags_ok(addr, regs);
}

/* Optimized, as the text says: "B" into the detour area. */
static bool kpopt_a64_jumps(unsigned long addr)
{
	u32 insn = le32_to_cpu(READ_ONCE(*(__le32 *)addr));

	if (!aarch64_insn_is_b(insn))
		return false;
	return is_kprobe_optinsn_slot(addr + aarch64_get_branch_offset(insn));
}

static bool kpopt_a64_traps(unsigned long addr)
{
	return le32_to_cpu(READ_ONCE(*(__le32 *)addr)) ==
	       BREAKPOINT_INSTRUCTION;
}

/* A stack walk's search for one return address. */
struct kpopt_a64_walk {
	unsigned long want;
	bool found;
};

static bool kpopt_a64_walk_entry(void *cookie, unsigned long pc)
{
	struct kpopt_a64_walk *w = cookie;

	if (pc == w->want)
		w->found = true;
	return !w->found;
}

/*
 * The frame record in the detour's pt_regs links the probe address to
 * the probed code's frames, as the exception entry's does: a walk from
 * the handler shows the probe address.
 */
static bool kpopt_a64_unwinds(struct kprobe *p)
{
	struct kpopt_a64_walk w = { .want = (unsigned long)p->addr };

	arch_stack_walk(kpopt_a64_walk_entry, &w, current, NULL);
	return w.found;
}

/* PAN as the handler of the user access case saw it (1: closed). */
static unsigned long kpopt_a64_handler_pan;

#define KPOPT_A64_SYS_PAN	sys_reg(3, 0, 4, 2, 3)

static int kpopt_a64_pre_pan(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(kpopt_a64_handler_pan,
		   !!(read_sysreg_s(KPOPT_A64_SYS_PAN) & PSR_PAN_BIT));
	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(kpopt_a64_unregister_action, unregister_kprobe,
			    struct kprobe *);

/*
 * A probe where user access is open (PAN clear): the handlers run with
 * PAN set, as after any exception entry, and the probed code goes on
 * with it clear (the target reads it after the probe).
 */
static void kpopt_a64_user_access(struct kunit *test)
{
	unsigned long addr = kpopt_a64_entry(kpopt_a64_pan);
	struct kprobe *kp;
	long seen;

	if (!system_uses_hw_pan())
		kunit_skip(test, "no PAN on this machine");
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (kprobe_opcode_t *)addr;
	kp->pre_handler = kpopt_a64_pre_pan;
	KUNIT_ASSERT_EQ(test, register_kprobe(kp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpopt_a64_unregister_action,
						  kp), 0);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_a64_jumps(addr));

	WRITE_ONCE(kpopt_a64_handler_pan, 0);
	preempt_disable();
	__uaccess_disable_hw_pan();
	seen = kpopt_a64_call(kpopt_a64_pan, 0);
	__uaccess_enable_hw_pan();
	preempt_enable();

	KUNIT_EXPECT_EQ(test, READ_ONCE(kpopt_a64_handler_pan), 1UL);
	KUNIT_EXPECT_EQ(test, seen, 0L);
}

static struct kpopt_arch kpopt_a64 = {
	.good		= kpopt_a64_good_points,
	.nr_good	= ARRAY_SIZE(kpopt_a64_good_points),
	.refused	= kpopt_a64_refused,
	.nr_refused	= ARRAY_SIZE(kpopt_a64_refused),
	.inner_off	= 0,
	.patch_len	= AARCH64_INSN_SIZE,
	.entry		= kpopt_a64_entry,
	.call		= kpopt_a64_call,
	.arg		= kpopt_a64_arg,
	.regs_ok	= kpopt_a64_regs_ok,
	.jumps		= kpopt_a64_jumps,
	.traps		= kpopt_a64_traps,
	.unwinds	= kpopt_a64_unwinds,
	.user_access	= kpopt_a64_user_access,
};

const struct kpopt_arch *kpopt_arch(void)
{
	/* Without BTI a landing pad is a hint like any other. */
	if (!system_supports_bti_kernel())
		kpopt_a64.nr_refused = ARRAY_SIZE(kpopt_a64_refused) - 1;
	return &kpopt_a64;
}

/* ------------------------------------------------------------------
 * "kprobes_optimize_arm64": arch_optprobe_prepare() asked directly
 * ------------------------------------------------------------------
 */

/**
 * struct kpopt_a64_ask - a site prepared as the core would, and its record
 * @site: prepared by arch_kprobe_prepare() (a slot, or a simulation)
 * @oi: the record arch_optprobe_prepare() is given
 * @why: its reason for a refusal
 * @buf: where the detour was, when one was built
 * @copy: where the copy of the instruction was in it
 */
struct kpopt_a64_ask {
	struct kprobe_hit_site site;
	struct kprobe_opt_insn oi;
	const char *why;
	unsigned long buf;
	unsigned long copy;
};

/*
 * Ask arch_optprobe_prepare() about the probe point @addr, the record
 * saying @at (the probe address as the branch sees it).  Return its
 * result; a detour it built is released.  The caller checks that no
 * probe is at @addr.  Only built in: the back-end is not exported.
 */
static int kpopt_a64_ask(struct kunit *test, struct kpopt_a64_ask *a,
			 unsigned long addr, unsigned long at, __le32 *detour)
{
	const char *why = NULL;
	int ret;

	memset(a, 0, sizeof(*a));
	a->site.addr = (kprobe_opcode_t *)addr;
	a->oi.addr = at;
	a->oi.probe = &a->site;
	mutex_lock(&kprobe_mutex);
	ret = arch_kprobe_prepare(&a->site, &why);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%pS: %s", (void *)addr, why);
	if (!ret) {
		ret = arch_optprobe_prepare(&a->oi, &a->why);
		if (!ret) {
			a->buf = (unsigned long)a->oi.buf;
			a->copy = a->oi.copy;
			if (detour)
				memcpy(detour, a->oi.buf, KPROBE_OPTSLOT_BYTES);
			arch_optprobe_release(&a->oi);
		}
		arch_remove_kprobe(&a->site);
	}
	mutex_unlock(&kprobe_mutex);
	return ret;
}

/* Each refused point is refused for its own reason, which is given. */
static void refusals_name_reason(struct kunit *test)
{
	static const char * const reason[] = {
		"simulated", "simulated", "exception-table", "landing pad",
	};
	struct kpopt_a64_ask *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	const struct kpopt_point *pt;
	unsigned long addr;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(reason) != ARRAY_SIZE(kpopt_a64_refused));
	KUNIT_ASSERT_NOT_NULL(test, a);
	if (!IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST))
		kunit_skip(test, "the back-end is only reachable built in");
	for (i = 0; i < kpopt_arch()->nr_refused; i++) {
		pt = &kpopt_a64_refused[i];
		addr = kpopt_addr(&kpopt_a64, pt);
		KUNIT_EXPECT_EQ_MSG(test, kpopt_a64_ask(test, a, addr, addr,
							NULL),
				    -EINVAL, "%s", pt->what);
		KUNIT_EXPECT_NOT_NULL_MSG(test, a->why, "%s", pt->what);
		if (a->why)
			KUNIT_EXPECT_NOT_NULL_MSG(test,
						  strstr(a->why, reason[i]),
						  "%s: %s", pt->what, a->why);
	}
}

/*
 * The detour of a good point: its call, the copy of the instruction, and
 * the branch back to the next one.  The same point 256 MiB away from
 * where it is cannot reach the detour area: refused, saying why.
 */
static void detour_layout_and_reach(struct kunit *test)
{
	const struct kpopt_point *pt = &kpopt_a64_good_points[0];
	unsigned long addr = kpopt_addr(&kpopt_a64, pt);
	struct kpopt_a64_ask *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	__le32 *detour = kunit_kzalloc(test, KPROBE_OPTSLOT_BYTES, GFP_KERNEL);
	unsigned long back = 0, buf;
	unsigned int i;
	u32 insn;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, detour);
	if (!IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST))
		kunit_skip(test, "the back-end is only reachable built in");
	KUNIT_ASSERT_EQ(test, kpopt_a64_ask(test, a, addr, addr, detour), 0);
	buf = a->buf;
	KUNIT_EXPECT_EQ(test, a->copy - buf, 20UL);
	KUNIT_EXPECT_EQ(test, a->oi.len, (unsigned int)AARCH64_INSN_SIZE);
	KUNIT_EXPECT_TRUE(test, a->oi.single);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(detour[5]),
			le32_to_cpu(*(__le32 *)addr));
	for (i = 0; i < KPROBE_OPTSLOT_BYTES / AARCH64_INSN_SIZE; i++) {
		insn = le32_to_cpu(detour[i]);
		if (i > 5 && aarch64_insn_is_b(insn) && !back)
			back = buf + i * AARCH64_INSN_SIZE +
			       aarch64_get_branch_offset(insn);
	}
	KUNIT_EXPECT_EQ(test, back, addr + AARCH64_INSN_SIZE);
	KUNIT_EXPECT_TRUE(test, aarch64_insn_is_bl(le32_to_cpu(detour[2])));

	KUNIT_EXPECT_EQ(test, kpopt_a64_ask(test, a, addr, addr + SZ_256M,
					    NULL), -ERANGE);
	KUNIT_ASSERT_NOT_NULL(test, a->why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(a->why, "range"), "%s", a->why);
	KUNIT_EXPECT_EQ(test, kpopt_a64_ask(test, a, addr, addr - SZ_256M,
					    NULL), -ERANGE);
}

static struct kunit_case kpopt_a64_cases[] = {
	KUNIT_CASE(refusals_name_reason),
	KUNIT_CASE(detour_layout_and_reach),
	{}
};

static struct kunit_suite kpopt_a64_suite = {
	.name = "kprobes_optimize_arm64",
	.test_cases = kpopt_a64_cases,
};

kunit_test_suite(kpopt_a64_suite);
