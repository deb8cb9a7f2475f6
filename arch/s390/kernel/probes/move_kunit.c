// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of the register loads an s390 kernel's trap computes in
 * place of a step (move.c), on the helpers of the generic kprobes suites
 * (kernel/kprobes/tests/):
 *
 *   kprobes_s390_move  each computed load, probed in a target of
 *                      move_kunit_targets.S and called with four
 *                      arguments: the result is the one written down
 *                      here (not asked of the CPU), unprobed and probed;
 *                      the pre and post handlers run once per call; the
 *                      site is computed; agr (it sets the condition
 *                      code) is stepped.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <linux/rcupdate.h>

#include "kprobes_kunit.h"
#include "s390-kprobes.h"
#include "move_kunit.h"

#define KPSM_NARGS	4

/* The last one's low word has the sign bit: the 32-bit forms differ. */
static const long kpsm_args[KPSM_NARGS] = { 0, 1, -1, 0x180000000L };

struct kpsm_target {
	const char *insn;
	kpkt_fn_t fn;
	const unsigned long *at;
	bool computed;
	u64 want[KPSM_NARGS];
};

#define KPSM(name, text, computed, ...) \
	{ text, kpsm_##name, &kpsm_##name##_at, computed, { __VA_ARGS__ } }

static const struct kpsm_target kpsm_targets[] = {
	KPSM(lr, "lr %r3, %r2", true,
	     0x1111111100000000, 0x1111111100000001, 0x11111111ffffffff,
	     0x1111111180000000),
	KPSM(lgr, "lgr %r2, %r2", true,
	     0, 1, 0xffffffffffffffff, 0x180000000),
	KPSM(lgfr, "lgfr %r2, %r2", true,
	     0, 1, 0xffffffffffffffff, 0xffffffff80000000),
	KPSM(llgfr, "llgfr %r2, %r2", true,
	     0, 1, 0xffffffff, 0x80000000),
	KPSM(la, "la %r2, 16(%r2)", true,
	     16, 17, 15, 0x180000010),
	KPSM(la_x, "la %r3, 8(%r2, %r3)", true,
	     0x111111112222222a, 0x111111112222222b, 0x1111111122222229,
	     0x11111112a222222a),
	KPSM(lay, "lay %r2, -0x10000(%r2)", true,
	     0xffffffffffff0000, 0xffffffffffff0001, 0xfffffffffffeffff,
	     0x17fff0000),
	KPSM(lhi, "lhi %r3, -2", true,
	     0x11111111fffffffe, 0x11111111fffffffe, 0x11111111fffffffe,
	     0x11111111fffffffe),
	KPSM(lghi, "lghi %r2, -2", true,
	     0xfffffffffffffffe, 0xfffffffffffffffe, 0xfffffffffffffffe,
	     0xfffffffffffffffe),
	KPSM(agr, "agr %r2, %r2", false,
	     0, 2, 0xfffffffffffffffe, 0x300000000),
};

/* Is the site at @addr computed in the trap? */
static bool kpsm_computed(unsigned long addr)
{
	struct kprobe_hit_site *p;
	bool ret;

	rcu_read_lock();
	p = kprobe_hit_find(addr);
	ret = p && (p->ainsn.fixup & KPROBE_FIXUP_MOVE);
	rcu_read_unlock();
	return ret;
}

static void kpsm_expect_results(struct kunit *test,
				const struct kpsm_target *t)
{
	unsigned int j;

	for (j = 0; j < KPSM_NARGS; j++)
		KUNIT_EXPECT_EQ_MSG(test, (u64)kpkt_call(t->fn, kpsm_args[j]),
				    t->want[j], "%s (x = %ld)", t->insn,
				    kpsm_args[j]);
}

/* Without a probe, each target gives what is written down above. */
static void targets_unprobed(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kpsm_targets); i++)
		kpsm_expect_results(test, &kpsm_targets[i]);
}

/* ... and the same with a probe on the instruction under test. */
static void targets_probed(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kpsm_targets); i++) {
		const struct kpsm_target *t = &kpsm_targets[i];
		unsigned long addr = *t->at;
		struct kpkt_probe *pp = kpkt_probe_new(test, (void *)addr,
						       NULL, 0);

		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpsm_computed(addr), t->computed,
				    "%s: computed", t->insn);
		kpsm_expect_results(test, t);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), KPSM_NARGS,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp), KPSM_NARGS,
				    "%s", t->insn);
		kpkt_unregister(test, &pp->kp);
	}
}

static int kpsm_case_init(struct kunit *test)
{
	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_hit_find(): " KPKT_NO_HELPERS);
	return kpkt_case_init(test);
}

static struct kunit_case kpsm_cases[] = {
	KUNIT_CASE(targets_unprobed),
	KUNIT_CASE(targets_probed),
	{}
};

static struct kunit_suite kpsm_suite = {
	.name = "kprobes_s390_move",
	.init = kpsm_case_init,
	.test_cases = kpsm_cases,
};

kunit_test_suite(kpsm_suite);

MODULE_DESCRIPTION("KUnit suite of the register loads s390 kprobes compute");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
