// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the "kprobes_optimize" suite must know of 32-bit ARM (ARM-mode
 * kernels; optimize.h), and a suite of ARM's own,
 * "kprobes_optimize_arm", for the refusals and the detour's layout.
 *
 * The targets are assembly leaves (optimize_arm_targets.S).  A "b" into
 * the detour area replaces the one probed word, or the UDF.  The
 * handlers of a hit see pt_regs at the probed instruction whichever path
 * the hit took: pc the probe address, SVC mode with interrupts on (the
 * context's), lr the return into kpopt_arm_call(), sp 8-byte aligned,
 * and the flags of kpopt_arm_good's CMP.  Among the good points are a
 * conditional instruction, "mov ip, sp" (simulated on the UDF path,
 * copied in the detour) and a push below sp.  Refused, each for its
 * reason: what the UDF path simulates because it reads the pc, an STM of
 * the pc, an instruction with an exception-table entry.
 */
/* First: it defines pr_fmt.  Also has the optimizer's KUnit hooks. */
#include "../internal.h"

#include <linux/kallsyms.h>
#include <linux/preempt.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/domain.h>
#include <asm/opcodes.h>

#include "optimize.h"

#define KPOPT_ARM_INSN		4
/* kpopt_arm_good(x) compares x with this, and adds 1 if it is less. */
#define KPOPT_ARM_CMP		0x20

static long kpopt_arm_good_ref(long x)
{
	return (((x + 0x11) * 3) ^ 0x5a5a) + (x < KPOPT_ARM_CMP);
}

/* r0 before the instructions at +8 and at +20 */
static long kpopt_arm_good_r0_8(long x)
{
	return x + 0x11;
}

static long kpopt_arm_good_r0_20(long x)
{
	return ((x + 0x11) * 3) ^ 0x5a5a;
}

/*
 * What kpopt_arm_good returns when r0 is v at +4, +8 and +20.  The flags
 * are still those of the CMP of the original x, which the cases call with
 * 1 and 2: below KPOPT_ARM_CMP, so the ADDLT adds 1.
 */
static long kpopt_arm_good_from_4(long v)
{
	return (((v + 0x11) * 3) ^ 0x5a5a) + 1;
}

static long kpopt_arm_good_from_8(long v)
{
	return ((v * 3) ^ 0x5a5a) + 1;
}

static long kpopt_arm_good_from_20(long v)
{
	return v + 1;
}

/* kpopt_arm_ipsp, kpopt_arm_push and every refused target: x + 1. */
static long kpopt_arm_plus_one(long x)
{
	return x + 1;
}

/*
 * The cases use the first two most (+4, with the CMP's flags live across
 * it, and an entry), the last alone with a post handler: the ADDLT,
 * which reads the flags itself.
 */
static const struct kpopt_point kpopt_arm_good_points[] = {
	{ "kpopt_arm_good+4", kpopt_arm_good, kpopt_arm_good_ref, 4,
	  NULL, kpopt_arm_good_from_4 },
	{ "kpopt_arm_good", kpopt_arm_good, kpopt_arm_good_ref, 0,
	  NULL, kpopt_arm_good_ref },
	{ "kpopt_arm_good+8", kpopt_arm_good, kpopt_arm_good_ref, 8,
	  kpopt_arm_good_r0_8, kpopt_arm_good_from_8 },
	{ "mov ip, sp", kpopt_arm_ipsp, kpopt_arm_plus_one, 0,
	  NULL, kpopt_arm_plus_one },
	{ "push", kpopt_arm_push, kpopt_arm_plus_one, 0,
	  NULL, kpopt_arm_plus_one },
	{ "kpopt_arm_good+20", kpopt_arm_good, kpopt_arm_good_ref, 20,
	  kpopt_arm_good_r0_20, kpopt_arm_good_from_20 },
};

static const struct kpopt_point kpopt_arm_refused[] = {
	{ "branch", kpopt_arm_branch, kpopt_arm_plus_one },
	{ "literal load", kpopt_arm_literal, kpopt_arm_plus_one },
	{ "stm of the pc", kpopt_arm_stm_pc, kpopt_arm_plus_one },
	{ "exception table", kpopt_arm_extable, kpopt_arm_plus_one, 4 },
};

static unsigned long kpopt_arm_entry(kpopt_fn_t fn)
{
	return (unsigned long)fn;
}

/*
 * Through a pointer the compiler cannot see through, and not as a tail
 * call: the target's lr points back in here (kpopt_arm_regs_ok()).
 */
static noinline long kpopt_arm_call(kpopt_fn_t fn, long x)
{
	kpopt_fn_t target = READ_ONCE(fn);
	long ret = target(x);

	barrier();
	return ret;
}

static unsigned long *kpopt_arm_arg(struct pt_regs *regs)
{
	return &regs->ARM_r0;
}

static bool kpopt_arm_from_call(unsigned long ret)
{
	unsigned long size, off;

	return kallsyms_lookup_size_offset(ret, &size, &off) &&
	       ret - off == (unsigned long)kpopt_arm_call;
}

/*
 * Between kpopt_arm_good's CMP and ADDLT: are N != V ("less than") as the
 * CMP of the original x left them?  r0 at +4 is x, at +8 x + 0x11.
 */
static bool kpopt_arm_flags_ok(unsigned long addr, struct pt_regs *regs)
{
	unsigned long off = addr - (unsigned long)kpopt_arm_good;
	long x = regs->ARM_r0;
	bool lt;

	if (off == 8)
		x -= 0x11;
	else if (off != 4)
		return true;
	lt = !(regs->ARM_cpsr & PSR_N_BIT) != !(regs->ARM_cpsr & PSR_V_BIT);
	return lt == (x < KPOPT_ARM_CMP);
}

static bool kpopt_arm_regs_ok(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)p->addr;

	return regs->ARM_pc == addr && processor_mode(regs) == SVC_MODE &&
	       !thumb_mode(regs) && interrupts_enabled(regs) &&
	       !preemptible() && !(regs->ARM_sp & 7) &&
	       kpopt_arm_from_call(regs->ARM_lr) &&
	       kpopt_arm_flags_ok(addr, regs);
}

static u32 kpopt_arm_word(unsigned long addr)
{
	return __mem_to_opcode_arm(READ_ONCE(*(u32 *)addr));
}

/* Where the "b" at @addr goes: pc + 8 + the signed word offset. */
static unsigned long kpopt_arm_b_target(unsigned long addr, u32 insn)
{
	return addr + 8 + ((long)(insn << 8) >> 6);
}

/* Optimized, as the text says: "b" (always) into a detour buffer. */
static bool kpopt_arm_jumps(unsigned long addr)
{
	u32 insn = kpopt_arm_word(addr);

	if ((insn & 0xff000000) != 0xea000000)
		return false;
	return is_kprobe_optinsn_slot(kpopt_arm_b_target(addr, insn));
}

static bool kpopt_arm_traps(unsigned long addr)
{
	return kpopt_arm_word(addr) == BREAKPOINT_INSTRUCTION;
}

/*
 * The detour's frame record links the probe address to the probed
 * code's frames, so a stack trace from the handler shows it.
 */
static bool kpopt_arm_unwinds(struct kprobe *p)
{
	unsigned long entries[32];
	unsigned int n, i;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++)
		if (entries[i] == (unsigned long)p->addr)
			return true;
	return false;
}

/* The user domain's access as the handler of the user access case saw it. */
static unsigned int kpopt_arm_handler_dacr;

static int kpopt_arm_pre_dacr(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(kpopt_arm_handler_dacr, get_domain());
	return 0;
}

static bool kpopt_arm_user_open(unsigned int dacr)
{
	return (dacr & domain_mask(DOMAIN_USER)) ==
	       domain_val(DOMAIN_USER, DOMAIN_CLIENT);
}

KUNIT_DEFINE_ACTION_WRAPPER(kpopt_arm_unregister_action, unregister_kprobe,
			    struct kprobe *);

/*
 * A probe where user access is open: its handlers run with the user
 * domain closed, as after the UDF's exception entry, and the probed code
 * goes on with it open (the target returns the DACR after the probe).
 */
static void kpopt_arm_user_access(struct kunit *test)
{
	unsigned long addr = (unsigned long)kpopt_arm_dacr;
	unsigned int flags;
	struct kprobe *kp;
	long seen;

	if (!IS_ENABLED(CONFIG_CPU_SW_DOMAIN_PAN))
		kunit_skip(test, "user access is not guarded by a domain (CPU_SW_DOMAIN_PAN)");
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (kprobe_opcode_t *)addr;
	kp->pre_handler = kpopt_arm_pre_dacr;
	KUNIT_ASSERT_EQ(test, register_kprobe(kp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpopt_arm_unregister_action,
						  kp), 0);
	kprobe_opt_wait();
	KUNIT_ASSERT_TRUE(test, kpopt_arm_jumps(addr));

	WRITE_ONCE(kpopt_arm_handler_dacr, 0);
	preempt_disable();
	flags = uaccess_save_and_enable();
	seen = kpopt_arm_call(kpopt_arm_dacr, 0);
	uaccess_restore(flags);
	preempt_enable();

	KUNIT_EXPECT_FALSE(test,
			   kpopt_arm_user_open(READ_ONCE(kpopt_arm_handler_dacr)));
	KUNIT_EXPECT_TRUE(test, kpopt_arm_user_open(seen));
}

static const struct kpopt_arch kpopt_arm = {
	.good		= kpopt_arm_good_points,
	.nr_good	= ARRAY_SIZE(kpopt_arm_good_points),
	.refused	= kpopt_arm_refused,
	.nr_refused	= ARRAY_SIZE(kpopt_arm_refused),
	.inner_off	= 0,
	.patch_len	= KPOPT_ARM_INSN,
	.entry		= kpopt_arm_entry,
	.call		= kpopt_arm_call,
	.arg		= kpopt_arm_arg,
	.regs_ok	= kpopt_arm_regs_ok,
	.jumps		= kpopt_arm_jumps,
	.traps		= kpopt_arm_traps,
	.unwinds	= kpopt_arm_unwinds,
	.user_access	= kpopt_arm_user_access,
};

const struct kpopt_arch *kpopt_arch(void)
{
	return &kpopt_arm;
}

/* ------------------------------------------------------------------
 * "kprobes_optimize_arm": arch_optprobe_prepare() asked directly
 * ------------------------------------------------------------------
 */

/**
 * struct kpopt_arm_try - a site prepared as the core would, and its record
 * @site: prepared by arch_kprobe_prepare() (a slot, or a simulation)
 * @oi: the record arch_optprobe_prepare() is given
 * @why: its reason for a refusal
 * @detour: the detour it wrote, when it wrote one
 * @buf: where that was
 */
struct kpopt_arm_try {
	struct kprobe_hit_site site;
	struct kprobe_opt_insn oi;
	const char *why;
	u32 detour[KPROBE_OPTSLOT_BYTES / KPOPT_ARM_INSN];
	unsigned long buf;
};

/*
 * Prepare the probe point @addr as the core would, with the record
 * saying @at (the probe address as the branch sees it), and ask
 * arch_optprobe_prepare().  A detour it built is copied and released.
 * The caller checks that no probe is at @addr.  Only built in: the
 * back-end is not exported.
 * Return: what arch_optprobe_prepare() returned.
 */
static int kpopt_arm_try(struct kunit *test, struct kpopt_arm_try *t,
			 unsigned long addr, unsigned long at)
{
	const char *why = NULL;
	int ret;

	memset(t, 0, sizeof(*t));
	t->site.addr = (kprobe_opcode_t *)addr;
	t->oi.addr = at;
	t->oi.probe = &t->site;
	mutex_lock(&kprobe_mutex);
	ret = arch_kprobe_prepare(&t->site, &why);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%pS: %s", (void *)addr, why);
	if (!ret) {
		ret = arch_optprobe_prepare(&t->oi, &t->why);
		if (!ret) {
			t->buf = (unsigned long)t->oi.buf;
			memcpy(t->detour, t->oi.buf, sizeof(t->detour));
			arch_optprobe_release(&t->oi);
		}
		arch_remove_kprobe(&t->site);
	}
	mutex_unlock(&kprobe_mutex);
	return ret;
}

/* Each refused point is refused for its own reason, which is given. */
static void refusals_name_reason(struct kunit *test)
{
	static const char * const reason[] = {
		"simulated", "simulated", "stores the pc", "exception-table",
	};
	struct kpopt_arm_try *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	const struct kpopt_point *pt;
	unsigned long addr;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(reason) != ARRAY_SIZE(kpopt_arm_refused));
	KUNIT_ASSERT_NOT_NULL(test, t);
	if (!IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST))
		kunit_skip(test, "the back-end is only reachable built in");
	for (i = 0; i < ARRAY_SIZE(kpopt_arm_refused); i++) {
		pt = &kpopt_arm_refused[i];
		addr = kpopt_addr(&kpopt_arm, pt);
		KUNIT_EXPECT_EQ_MSG(test, kpopt_arm_try(test, t, addr, addr),
				    -EINVAL, "%s", pt->what);
		KUNIT_EXPECT_NOT_NULL_MSG(test, t->why, "%s", pt->what);
		if (t->why)
			KUNIT_EXPECT_NOT_NULL_MSG(test,
						  strstr(t->why, reason[i]),
						  "%s: %s", pt->what, t->why);
	}
}

/*
 * The detour of a good point: the bl to the common part, the copy of
 * the instruction five words in, the branch back after the probe, the
 * record.  The same point 64 MiB away cannot reach the detour area:
 * refused, saying why.
 */
static void detour_layout_and_reach(struct kunit *test)
{
	const struct kpopt_point *pt = &kpopt_arm_good_points[0];
	unsigned long addr = kpopt_addr(&kpopt_arm, pt);
	struct kpopt_arm_try *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned long back;

	KUNIT_ASSERT_NOT_NULL(test, t);
	if (!IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST))
		kunit_skip(test, "the back-end is only reachable built in");
	KUNIT_ASSERT_EQ(test, kpopt_arm_try(test, t, addr, addr), 0);
	KUNIT_EXPECT_EQ(test, t->oi.copy - t->buf, 20UL);
	KUNIT_EXPECT_EQ(test, t->oi.len, (unsigned int)KPOPT_ARM_INSN);
	KUNIT_EXPECT_EQ(test, t->oi.patch_len, (size_t)KPOPT_ARM_INSN);
	KUNIT_EXPECT_TRUE(test, t->oi.single);
	/* bl, always */
	KUNIT_EXPECT_EQ(test, t->detour[2] & 0xff000000, 0xeb000000);
	KUNIT_EXPECT_EQ(test, t->detour[5], kpopt_arm_word(addr));
	KUNIT_EXPECT_EQ(test, t->detour[6] & 0xff000000, 0xea000000);
	back = kpopt_arm_b_target(t->buf + 6 * KPOPT_ARM_INSN, t->detour[6]);
	KUNIT_EXPECT_EQ(test, back, addr + KPOPT_ARM_INSN);
	KUNIT_EXPECT_EQ(test, t->detour[8], (u32)(unsigned long)&t->oi);
	KUNIT_EXPECT_EQ(test, t->oi.orig[0] | t->oi.orig[1] << 8 |
			t->oi.orig[2] << 16 | (u32)t->oi.orig[3] << 24,
			kpopt_arm_word(addr));

	KUNIT_EXPECT_EQ(test, kpopt_arm_try(test, t, addr, addr + SZ_64M),
			-ERANGE);
	KUNIT_ASSERT_NOT_NULL(test, t->why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(t->why, "range"), "%s", t->why);
	KUNIT_EXPECT_EQ(test, kpopt_arm_try(test, t, addr, addr - SZ_64M),
			-ERANGE);
}

static struct kunit_case kpopt_arm_cases[] = {
	KUNIT_CASE(refusals_name_reason),
	KUNIT_CASE(detour_layout_and_reach),
	{}
};

static struct kunit_suite kpopt_arm_suite = {
	.name = "kprobes_optimize_arm",
	.test_cases = kpopt_arm_cases,
};

kunit_test_suite(kpopt_arm_suite);
