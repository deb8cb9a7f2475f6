// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of the Thumb-2 half of the arm back-end (thumb.c), on the
 * helpers of the generic kprobes suites (kernel/kprobes/tests/):
 *
 *   kprobes_thumb  each class of instruction that thumb.c simulates, and
 *                  a few that run from a slot, probed in a target of
 *                  thumb_kunit_targets.S: the result with the probe is
 *                  the one written down here (not asked of the CPU), the
 *                  pre and post handlers run once per call, and the site
 *                  is simulated or not as expected; refusals inside an
 *                  IT block and inside a 32-bit instruction.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <asm/ptrace.h>

#include "kprobes_kunit.h"
#include "thumb_kunit.h"

/* What a target returns for x. */
enum kpat_result {
	KPAT_X,		/* x */
	KPAT_X1,	/* x + 1 */
	KPAT_X2,	/* x + 2 */
	KPAT_X3,	/* x + 3 */
	KPAT_X4,	/* x + 4 */
	KPAT_X256,	/* x + 0x100 */
	KPAT_ZERO7,	/* x == 0 ? 7 : 5 */
	KPAT_NONZERO7,	/* x != 0 ? 7 : 5 */
	KPAT_TB10,	/* 10 + x */
	KPAT_TB20,	/* 20 + x */
	KPAT_CONST,	/* the target's constant */
};

struct kpat_target {
	const char *insn;
	kpkt_fn_t fn;
	const unsigned long *at;
	enum kpat_result result;
	long value;
	bool simulated;
};

#define KPAT(name, text, res, val, sim) \
	{ text, kpat_##name, &kpat_##name##_at, res, val, sim }

static const struct kpat_target kpat_targets[] = {
	KPAT(b16,	"b (16-bit)",		KPAT_X,		0, true),
	KPAT(b32,	"b.w",			KPAT_X,		0, true),
	KPAT(beq16,	"beq (16-bit)",		KPAT_ZERO7,	0, true),
	KPAT(bne32,	"bne.w",		KPAT_NONZERO7,	0, true),
	KPAT(cbz,	"cbz",			KPAT_ZERO7,	0, true),
	KPAT(cbnz,	"cbnz",			KPAT_NONZERO7,	0, true),
	KPAT(bl,	"bl (backward)",	KPAT_X3,	0, true),
	KPAT(blx,	"blx r1",		KPAT_X3,	0, true),
	KPAT(bx,	"bx lr",		KPAT_X1,	0, true),
	KPAT(pop_pc,	"pop {r4, pc}",		KPAT_X3,	0, true),
	KPAT(ldm_pc,	"pop.w {r4, r8, pc}",	KPAT_X3,	0, true),
	KPAT(ldr16,	"ldr r0, [pc, #imm]",	KPAT_CONST,	0x12345678, true),
	KPAT(ldrsh,	"ldrsh.w r0, [pc, #imm]", KPAT_CONST,	-32767, true),
	KPAT(ldrw_back,	"ldr.w r0, [pc, #-imm]", KPAT_CONST,	0x25a5a5a5, true),
	KPAT(adr16,	"adr r0, label",	KPAT_CONST,	0xcafe1234, true),
	KPAT(adrw_back,	"subw r0, pc, #imm",	KPAT_CONST,	0x0badf00d, true),
	KPAT(add_sp,	"add r0, sp, #8",	KPAT_CONST,	8, true),
	KPAT(mov_pc,	"mov r0, pc",		KPAT_CONST,	4, true),
	KPAT(add_pc,	"add r0, pc",		KPAT_X4,	0, true),
	KPAT(mov_to_pc,	"mov pc, r1",		KPAT_CONST,	7, true),
	KPAT(tbb,	"tbb [pc, r0]",		KPAT_TB10,	0, true),
	KPAT(tbh,	"tbh [pc, r0, lsl #1]",	KPAT_TB20,	0, true),
	KPAT(it,	"ite eq",		KPAT_ZERO7,	0, true),
	KPAT(mrs,	"mrs r0, cpsr",		KPAT_CONST,	SVC_MODE, true),
	KPAT(adds,	"adds r0, r0, #1",	KPAT_X1,	0, false),
	KPAT(addw,	"add.w r0, r0, #0x100",	KPAT_X256,	0, false),
	KPAT(push,	"push {r4, lr}",	KPAT_X3,	0, false),
	KPAT(ldr_sp,	"ldr r1, [sp, #4]",	KPAT_X2,	0, false),
};

/* The table branches take an index below 3. */
static const long kpat_args[] = { 0, 1, 2 };

static long kpat_want(const struct kpat_target *t, long x)
{
	switch (t->result) {
	case KPAT_X:
		return x;
	case KPAT_X1:
		return x + 1;
	case KPAT_X2:
		return x + 2;
	case KPAT_X3:
		return x + 3;
	case KPAT_X4:
		return x + 4;
	case KPAT_X256:
		return x + 0x100;
	case KPAT_ZERO7:
		return x ? 5 : 7;
	case KPAT_NONZERO7:
		return x ? 7 : 5;
	case KPAT_TB10:
		return 10 + x;
	case KPAT_TB20:
		return 20 + x;
	case KPAT_CONST:
		break;
	}
	return t->value;
}

/* Is the site at @addr simulated (computed in the trap)? */
static bool kpat_simulated(unsigned long addr)
{
	struct kprobe_hit_site *p;
	bool ret;

	rcu_read_lock();
	p = kprobe_hit_find(addr);
	ret = p && p->ainsn.simulate;
	rcu_read_unlock();
	return ret;
}

/* Without a probe, each target gives what is written down above. */
static void targets_unprobed(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(kpat_targets); i++) {
		const struct kpat_target *t = &kpat_targets[i];

		for (j = 0; j < ARRAY_SIZE(kpat_args); j++)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_call(t->fn, kpat_args[j]),
					    kpat_want(t, kpat_args[j]),
					    "%s (x = %ld)", t->insn, kpat_args[j]);
	}
}

/* ... and the same with a probe on the instruction under test. */
static void targets_probed(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(kpat_targets); i++) {
		const struct kpat_target *t = &kpat_targets[i];
		unsigned long addr = *t->at;
		struct kpkt_probe *pp = kpkt_probe_new(test, (void *)addr,
						       NULL, 0);

		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpat_simulated(addr), t->simulated,
				    "%s: simulated", t->insn);
		for (j = 0; j < ARRAY_SIZE(kpat_args); j++)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_call(t->fn, kpat_args[j]),
					    kpat_want(t, kpat_args[j]),
					    "%s (x = %ld)", t->insn, kpat_args[j]);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp),
				    (int)ARRAY_SIZE(kpat_args), "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp),
				    (int)ARRAY_SIZE(kpat_args), "%s", t->insn);
		kpkt_unregister(test, &pp->kp);
	}
}

/*
 * Inside an IT block, and in the second half of a 32-bit instruction,
 * nothing is registered.
 */
static void refused_sites(struct kunit *test)
{
	struct kpkt_probe *pp;

	pp = kpkt_probe_new(test, (void *)kpat_in_it_at, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "inside an IT block");
	pp = kpkt_probe_new(test, (void *)(kpat_addw_at + 2), NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EILSEQ, "inside add.w");
	/* The IT block still runs as it should. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpat_it, 0), 7);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpat_it, 1), 5);
}

static int kpat_case_init(struct kunit *test)
{
	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_hit_find(): " KPKT_NO_HELPERS);
	return kpkt_case_init(test);
}

static struct kunit_case kpat_cases[] = {
	KUNIT_CASE(targets_unprobed),
	KUNIT_CASE(targets_probed),
	KUNIT_CASE(refused_sites),
	{}
};

static struct kunit_suite kpat_suite = {
	.name = "kprobes_thumb",
	.init = kpat_case_init,
	.test_cases = kpat_cases,
};

kunit_test_suite(kpat_suite);

MODULE_DESCRIPTION("KUnit suite of the Thumb-2 kprobes back-end");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
