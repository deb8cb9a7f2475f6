// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the "kprobes_optimize" suite must know of riscv (optimize.h), and
 * a suite of riscv's own, "kprobes_optimize_riscv", for the refusals and
 * the detour's layout.
 *
 * The targets are assembly leaves (optimize_riscv_targets.S).  A "jal
 * zero" replaces the one probed 32-bit instruction: the probed word is
 * that jal into a detour, or the breakpoint over its first parcel.  The
 * handlers of a hit see pt_regs at the probed instruction whichever path
 * the hit took: epc the probe address, ra the return into
 * kpopt_rv_call(), interrupts enabled at the probe.  Refused, each with
 * its reason: instructions that read the pc (simulated on the ebreak
 * path), an exception-table entry, and with the C extension a compressed
 * instruction and a 32-bit one that is not 4-byte aligned.
 */
/* First: it defines pr_fmt.  Also has the optimizer's KUnit hooks. */
#include "../internal.h"

#include <linux/kallsyms.h>
#include <linux/preempt.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <asm/insn.h>

#include "optimize.h"

static long kpopt_rv_good_ref(long x)
{
	return ((x + 0x11) * 3) ^ 0x5a5a;
}

/* a0 before the mul (+8) and before the xor (+20) */
static long kpopt_rv_good_a0_8(long x)
{
	return x + 0x11;
}

static long kpopt_rv_good_a0_20(long x)
{
	return (x + 0x11) * 3;
}

/* What kpopt_rv_good returns when a0 is v at +8 and at +20. */
static long kpopt_rv_good_from_8(long v)
{
	return (v * 3) ^ 0x5a5a;
}

static long kpopt_rv_good_from_20(long v)
{
	return v ^ 0x5a5a;
}

/* Every refused target returns x + 1 (optimize_riscv_targets.S). */
static long kpopt_rv_plus_one(long x)
{
	return x + 1;
}

/*
 * The mul at +8 (stepped on the ebreak path) is the one most cases use;
 * the entry is simulated, and so is the xor, which a case uses alone
 * with a post handler.
 */
static const struct kpopt_point kpopt_rv_good_points[] = {
	{ "kpopt_rv_good+8", kpopt_rv_good, kpopt_rv_good_ref, 8,
	  kpopt_rv_good_a0_8, kpopt_rv_good_from_8 },
	{ "kpopt_rv_good", kpopt_rv_good, kpopt_rv_good_ref, 0,
	  NULL, kpopt_rv_good_ref },
	{ "kpopt_rv_good+20", kpopt_rv_good, kpopt_rv_good_ref, 20,
	  kpopt_rv_good_a0_20, kpopt_rv_good_from_20 },
};

/* The last two only with the C extension (kpopt_arch()). */
static const struct kpopt_point kpopt_rv_refused[] = {
	{ "auipc", kpopt_rv_auipc, kpopt_rv_plus_one },
	{ "jal", kpopt_rv_jump, kpopt_rv_plus_one },
	{ "exception table", kpopt_rv_extable, kpopt_rv_plus_one, 4 },
	{ "compressed",
	  IS_ENABLED(CONFIG_RISCV_ISA_C) ? kpopt_rv_compressed : NULL,
	  kpopt_rv_plus_one },
	{ "2-byte aligned",
	  IS_ENABLED(CONFIG_RISCV_ISA_C) ? kpopt_rv_unaligned : NULL,
	  kpopt_rv_plus_one, 2 },
};

#define KPOPT_RV_REFUSED_RVC	2

static unsigned long kpopt_rv_entry(kpopt_fn_t fn)
{
	return (unsigned long)fn;
}

/*
 * Calls through a pointer the compiler cannot see through, and not as a
 * tail call: the target's ra points back in here (kpopt_rv_regs_ok()).
 */
static noinline long kpopt_rv_call(kpopt_fn_t fn, long x)
{
	kpopt_fn_t f = READ_ONCE(fn);
	long ret = f(x);

	barrier();
	return ret;
}

static unsigned long *kpopt_rv_arg(struct pt_regs *regs)
{
	return &regs->a0;
}

/* Is @ret a return address into kpopt_rv_call()? */
static bool kpopt_rv_from_call(unsigned long ret)
{
	unsigned long size, off;

	return kallsyms_lookup_size_offset(ret, &size, &off) &&
	       ret - off == (unsigned long)kpopt_rv_call;
}

static bool kpopt_rv_regs_ok(struct kprobe *p, struct pt_regs *regs)
{
	return regs->epc == (unsigned long)p->addr && !user_mode(regs) &&
	       !regs_irqs_disabled(regs) && !preemptible() &&
	       !(regs->sp & 15) && kpopt_rv_from_call(regs->ra);
}

/* "addi sp, sp, -n": the first instruction of every detour. */
static bool kpopt_rv_is_detour(unsigned long addr)
{
	u32 insn;

	if (copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)))
		return false;
	return (insn & 0x000fffff) == 0x00010113 && (insn & BIT(31));
}

/* Optimized, as the text says: "jal zero" into a detour. */
static bool kpopt_rv_jumps(unsigned long addr)
{
	u32 insn = READ_ONCE(*(u32 *)addr);

	if ((insn & 0xfff) != RVG_OPCODE_JAL)
		return false;
	return kpopt_rv_is_detour(addr + riscv_insn_extract_jtype_imm(insn));
}

static bool kpopt_rv_traps(unsigned long addr)
{
	return READ_ONCE(*(kprobe_opcode_t *)addr) == BREAKPOINT_INSTRUCTION;
}

/* A stack walk's search for one return address. */
struct kpopt_rv_walk {
	unsigned long want;
	bool found;
};

static bool kpopt_rv_walk_entry(void *cookie, unsigned long pc)
{
	struct kpopt_rv_walk *w = cookie;

	if (pc == w->want)
		w->found = true;
	return !w->found;
}

/*
 * The frame record over the detour's pt_regs links the probe address to
 * the probed code's frames: a walk from the handler shows the probe.
 */
static bool kpopt_rv_unwinds(struct kprobe *p)
{
	struct kpopt_rv_walk w = { .want = (unsigned long)p->addr };

	arch_stack_walk(kpopt_rv_walk_entry, &w, current, NULL);
	return w.found;
}

static struct kpopt_arch kpopt_rv = {
	.good		= kpopt_rv_good_points,
	.nr_good	= ARRAY_SIZE(kpopt_rv_good_points),
	.refused	= kpopt_rv_refused,
	.nr_refused	= ARRAY_SIZE(kpopt_rv_refused),
	.inner_off	= 0,
	.patch_len	= 4,
	.entry		= kpopt_rv_entry,
	.call		= kpopt_rv_call,
	.arg		= kpopt_rv_arg,
	.regs_ok	= kpopt_rv_regs_ok,
	.jumps		= kpopt_rv_jumps,
	.traps		= kpopt_rv_traps,
	.unwinds	= kpopt_rv_unwinds,
};

const struct kpopt_arch *kpopt_arch(void)
{
	if (!IS_ENABLED(CONFIG_RISCV_ISA_C))
		kpopt_rv.nr_refused = ARRAY_SIZE(kpopt_rv_refused) -
				      KPOPT_RV_REFUSED_RVC;
	return &kpopt_rv;
}

/* ------------------------------------------------------------------
 * "kprobes_optimize_riscv": arch_optprobe_prepare() asked directly
 * ------------------------------------------------------------------
 */

/**
 * struct kpopt_rv_ask - a site prepared as the core would, and its record
 * @site: prepared by arch_kprobe_prepare() (a slot, or a simulation)
 * @oi: the record arch_optprobe_prepare() is given
 * @why: its reason for a refusal
 * @buf: where the detour was, when one was built
 * @copy: where the copy of the instruction was in it
 */
struct kpopt_rv_ask {
	struct kprobe_hit_site site;
	struct kprobe_opt_insn oi;
	const char *why;
	unsigned long buf;
	unsigned long copy;
};

/*
 * Ask arch_optprobe_prepare() about the probe point @addr, the record
 * saying @at (the probe address as the jal sees it).  Return its result;
 * a detour it built is copied to @detour and released.  The caller checks
 * that no probe is at @addr.  Only built in: the back-end is not
 * exported.
 */
static int kpopt_rv_ask(struct kunit *test, struct kpopt_rv_ask *a,
			unsigned long addr, unsigned long at, u32 *detour)
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
		"reads the pc", "reads the pc", "exception-table",
		"compressed", "aligned",
	};
	struct kpopt_rv_ask *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	const struct kpopt_point *pt;
	unsigned long addr;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(reason) != ARRAY_SIZE(kpopt_rv_refused));
	KUNIT_ASSERT_NOT_NULL(test, a);
	if (!IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST))
		kunit_skip(test, "the back-end is only reachable built in");
	for (i = 0; i < kpopt_arch()->nr_refused; i++) {
		pt = &kpopt_rv_refused[i];
		addr = kpopt_addr(&kpopt_rv, pt);
		KUNIT_EXPECT_EQ_MSG(test, kpopt_rv_ask(test, a, addr, addr,
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
 * The detour of a good point: the copy of the instruction at +24, the
 * jal back to the next instruction after it.  The same point 64 MiB away
 * from where it is (past the kernel text, outside any module) reaches no
 * detour: refused, saying why.
 */
static void detour_layout_and_reach(struct kunit *test)
{
	const struct kpopt_point *pt = &kpopt_rv_good_points[0];
	unsigned long addr = kpopt_addr(&kpopt_rv, pt);
	struct kpopt_rv_ask *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	u32 *detour = kunit_kzalloc(test, KPROBE_OPTSLOT_BYTES, GFP_KERNEL);
	unsigned long back;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, detour);
	if (!IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST))
		kunit_skip(test, "the back-end is only reachable built in");
	KUNIT_ASSERT_EQ(test, kpopt_rv_ask(test, a, addr, addr, detour), 0);
	KUNIT_EXPECT_EQ(test, a->copy - a->buf, 24UL);
	KUNIT_EXPECT_EQ(test, a->oi.len, 4U);
	KUNIT_EXPECT_TRUE(test, a->oi.single);
	KUNIT_EXPECT_TRUE(test, kpopt_rv_is_detour((unsigned long)detour));
	KUNIT_EXPECT_EQ(test, detour[6], *(u32 *)addr);
	KUNIT_ASSERT_EQ(test, detour[7] & 0xfff, (u32)RVG_OPCODE_JAL);
	back = a->buf + 28 + riscv_insn_extract_jtype_imm(detour[7]);
	KUNIT_EXPECT_EQ(test, back, addr + 4);

	KUNIT_EXPECT_EQ(test, kpopt_rv_ask(test, a, addr, addr + SZ_64M, NULL),
			-ERANGE);
	KUNIT_ASSERT_NOT_NULL(test, a->why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(a->why, "range"), "%s", a->why);
	KUNIT_EXPECT_EQ(test, kpopt_rv_ask(test, a, addr, addr - SZ_64M, NULL),
			-ERANGE);
}

static struct kunit_case kpopt_rv_cases[] = {
	KUNIT_CASE(refusals_name_reason),
	KUNIT_CASE(detour_layout_and_reach),
	{}
};

static struct kunit_suite kpopt_rv_suite = {
	.name = "kprobes_optimize_riscv",
	.test_cases = kpopt_rv_cases,
};

kunit_test_suite(kpopt_rv_suite);
