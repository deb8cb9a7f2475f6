// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suites of arm64's back-end, on the helpers of the generic kprobes
 * suites (kernel/kprobes/tests/kprobes_kunit.h), one module:
 *
 *   kprobes_arm64_simulate  register-only instructions computed in the
 *                           BRK handler (simulate.c): each kind gives the
 *                           result the CPU gives, in its 64- and 32-bit
 *                           forms, takes one exception (post handler
 *                           included), and what must stay in a slot does
 *   kprobes_arm64_entry     where a function's entry probe goes past a
 *                           landing pad (entry_kunit.c)
 *
 * Whether a site is simulated is asked of the architecture
 * (arch_kprobe_boostable(), <linux/kprobes_arch.h>): those checks run
 * when the suite is built in.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#include "kprobes_kunit.h"
#include "simulate_kunit.h"

/*
 * The probe offset of the targets (simulate_kunit_targets.S): arm64's
 * SYM_FUNC_START() opens every function with "bti c", BTI or not.
 */
#define KPAS_OFF	AARCH64_INSN_SIZE

/* What a target returns for x: written out, not asked of the CPU. */
enum kpas_result {
	KPAS_X,		/* x */
	KPAS_W,		/* x, zero-extended from 32 bits */
	KPAS_ZERO,
	KPAS_MOVZ,	/* 0x1234 << 32 */
	KPAS_MOVN_W,	/* ~(0x1234 << 16), 32 bits */
	KPAS_MOVK,	/* x with 0xbeef in bits 16-31 */
	KPAS_MOVK_W,	/* x with 0xbeef in bits 0-15, 32 bits */
	KPAS_ADD,	/* x + 0x123 */
	KPAS_ADD_SH,	/* x + 0x5000 */
	KPAS_SUB_W,	/* x - 1, 32 bits */
	KPAS_INC,	/* x + 1 */
	KPAS_SP,	/* stack-dependent: an unprobed call's result */
};

struct kpas_target {
	const char *insn;
	kpkt_fn_t fn;
	enum kpas_result result;
	bool simulated;
};

static const struct kpas_target kpas_targets[] = {
	{ "mov x2, x0",			kpas_mov,	KPAS_X,		true },
	{ "mov w2, w0",			kpas_mov_w,	KPAS_W,		true },
	{ "mov x0, xzr",		kpas_mov_zr,	KPAS_ZERO,	true },
	{ "movz x0, #0x1234, lsl #32",	kpas_movz,	KPAS_MOVZ,	true },
	{ "movn w0, #0x1234, lsl #16",	kpas_movn_w,	KPAS_MOVN_W,	true },
	{ "movk x0, #0xbeef, lsl #16",	kpas_movk,	KPAS_MOVK,	true },
	{ "movk w0, #0xbeef",		kpas_movk_w,	KPAS_MOVK_W,	true },
	{ "add x0, x0, #0x123",		kpas_add,	KPAS_ADD,	true },
	{ "add x0, x0, #0x5, lsl #12",	kpas_add_sh,	KPAS_ADD_SH,	true },
	{ "sub w0, w0, #1",		kpas_sub_w,	KPAS_SUB_W,	true },
	{ "add x0, sp, #16",		kpas_add_sp,	KPAS_SP,	true },
	{ "nop",			kpas_nop,	KPAS_INC,	true },
	{ "sub sp, sp, #16",		kpas_sub_sp,	KPAS_X,		false },
	{ "adds x0, x0, #1",		kpas_adds,	KPAS_INC,	false },
	{ "str x0, [sp, #-16]!",	kpas_str,	KPAS_X,		false },
};

static long kpas_want(const struct kpas_target *t, long x)
{
	switch (t->result) {
	case KPAS_X:
		return x;
	case KPAS_W:
		return (u32)x;
	case KPAS_ZERO:
		return 0;
	case KPAS_MOVZ:
		return 0x1234L << 32;
	case KPAS_MOVN_W:
		return (u32)~(0x1234U << 16);
	case KPAS_MOVK:
		return (x & ~0xffff0000L) | 0xbeef0000L;
	case KPAS_MOVK_W:
		return ((u32)x & 0xffff0000U) | 0xbeef;
	case KPAS_ADD:
		return x + 0x123;
	case KPAS_ADD_SH:
		return x + 0x5000;
	case KPAS_SUB_W:
		return (u32)(x - 1);
	case KPAS_INC:
		return x + 1;
	case KPAS_SP:
		break;
	}
	return kpkt_call(t->fn, x);
}

static const long kpas_args[] = {
	0, 1, -1, 0x0123456789abcdefL, -0x7fffffff00000010L,
};

/*
 * What the post handler saw of the first argument register and the pc,
 * checked against the result and the next instruction.
 */
static unsigned long kpas_post_x0, kpas_post_pc;

static void kpas_post(struct kprobe *p, struct pt_regs *regs,
		      unsigned long flags)
{
	kpkt_post(p, regs, flags);
	kpas_post_x0 = regs->regs[0];
	kpas_post_pc = instruction_pointer(regs);
}

/* Each target gives its result with a probe, and is simulated or not. */
static void register_only_instructions_simulated(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(kpas_targets); i++) {
		const struct kpas_target *t = &kpas_targets[i];
		void *addr = (void *)t->fn + KPAS_OFF;
		struct kpkt_probe *pp = kpkt_probe_new(test, addr, NULL, 0);
		long want[ARRAY_SIZE(kpas_args)];

		for (j = 0; j < ARRAY_SIZE(kpas_args); j++)
			want[j] = kpas_want(t, kpas_args[j]);
		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_site_boostable(addr),
				    t->simulated, "%s: simulated", t->insn);
		for (j = 0; j < ARRAY_SIZE(kpas_args); j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    kpkt_call(t->fn, kpas_args[j]),
					    want[j], "%s (x0 = %#lx)", t->insn,
					    kpas_args[j]);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp),
				    (int)ARRAY_SIZE(kpas_args), "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp),
				    (int)ARRAY_SIZE(kpas_args), "%s", t->insn);
		kpkt_unregister(test, &pp->kp);
	}
}

/*
 * The post handler of a simulated instruction runs in the same exception
 * as the pre handler, and sees the computed register and the next pc.
 */
static void post_handler_sees_the_result(struct kunit *test)
{
	void *addr = (void *)kpas_add + KPAS_OFF;
	struct kpkt_probe *pp = kpkt_probe_new(test, addr, NULL, 0);
	const long x = 0x1000;

	pp->kp.post_handler = kpas_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_ASSERT_TRUE(test, kpkt_site_boostable(addr));
	KUNIT_EXPECT_EQ(test, kpkt_call(kpas_add, x), x + 0x123);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), 1);
	KUNIT_EXPECT_EQ(test, kpas_post_x0, (unsigned long)(x + 0x123));
	KUNIT_EXPECT_EQ(test, kpas_post_pc,
			(unsigned long)addr + AARCH64_INSN_SIZE);
	kpkt_unregister(test, &pp->kp);
}

static int kpas_case_init(struct kunit *test)
{
	if (!KPKT_BUILTIN)
		kunit_skip(test, "arch_kprobe_boostable(): " KPKT_NO_HELPERS);
	return kpkt_case_init(test);
}

static struct kunit_case kpas_cases[] = {
	KUNIT_CASE(register_only_instructions_simulated),
	KUNIT_CASE(post_handler_sees_the_result),
	{}
};

static struct kunit_suite kpas_suite = {
	.name = "kprobes_arm64_simulate",
	.init = kpas_case_init,
	.test_cases = kpas_cases,
};

kunit_test_suite(kpas_suite);

MODULE_DESCRIPTION("KUnit suites of arm64's kprobes back-end");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
