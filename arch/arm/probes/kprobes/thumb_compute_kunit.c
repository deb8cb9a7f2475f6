// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of what a Thumb-2 kernel's trap computes in place of a step
 * (thumb_compute.c), on the helpers of the generic kprobes suites
 * (kernel/kprobes/tests/):
 *
 *   kprobes_thumb_compute  each computed class, in a target of
 *                          thumb_compute_kunit_targets.S, run on a set
 *                          of register values and flags first as it is
 *                          (the CPU's own answer) and then probed: r0 -
 *                          r8, the flags, how far sp moved and the
 *                          memory the targets load from and store to
 *                          must come out the same; the site is
 *                          computed, and the pre and post handlers run
 *                          once per call.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "kprobes_kunit.h"
#include "thumb_compute_kunit.h"

/* A target's state: what thumb_compute_kunit_targets.S reads and writes. */
enum {
	KPTC_R0 = 0,		/* r0 - r7 */
	KPTC_CPSR = 8,		/* in: the flags; out: the CPSR */
	KPTC_R8 = 9,
	KPTC_SP_IN = 10,	/* the target's own */
	KPTC_SP_MOVED = 11,
	KPTC_WORDS = 12,
};

/* The CPSR bits a target may change: N, Z, C, V, Q. */
#define KPTC_FLAGS	0xf8000000U

/* The memory the targets use; their pointers are to its middle. */
#define KPTC_MEM_WORDS	48
#define KPTC_MEM_MIDDLE	16
static u32 kptc_mem[KPTC_MEM_WORDS];

/* The values the registers take, and the flags (NZCV) beside them. */
static const u32 kptc_vals[] = {
	0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x12345678, 31, 32, 33,
	0xff, 0x80000001, 0xfffe0000,
};

static const u32 kptc_nzcv[] = { 0x0, 0x2, 0x1, 0xf, 0x4, 0x8 };

#define KPTC_VECTORS	24

/* Run @t once on input vector @v: @st and kptc_mem get the outcome. */
static noinline void kptc_run(const struct kptc_target *t, unsigned int v,
			      u32 *st)
{
	unsigned int i;

	for (i = 0; i < KPTC_MEM_WORDS; i++)
		kptc_mem[i] = (i + 1) * 0x9e3779b9U;
	memset(st, 0, KPTC_WORDS * sizeof(*st));
	for (i = 0; i < 9; i++) {
		u32 val = kptc_vals[(v * 5 + i * 7 + v / 3) %
				    ARRAY_SIZE(kptc_vals)];

		if (t->regs & BIT(i))
			val = (u32)(unsigned long)&kptc_mem[KPTC_MEM_MIDDLE];
		else if (t->regs & BIT(8 + i))
			val = (v + i) & 3;
		st[i == 8 ? KPTC_R8 : KPTC_R0 + i] = val;
	}
	st[KPTC_CPSR] = kptc_nzcv[v % ARRAY_SIZE(kptc_nzcv)] << 28;
	t->fn(st);
	st[KPTC_CPSR] &= KPTC_FLAGS;
	st[KPTC_SP_IN] = 0;
}

/* Is the site at @addr computed in the trap, with a slot to decline to? */
static bool kptc_computed(unsigned long addr)
{
	struct kprobe_hit_site *p;
	bool ret;

	rcu_read_lock();
	p = kprobe_hit_find(addr);
	ret = p && p->ainsn.compute && p->ainsn.slot;
	rcu_read_unlock();
	return ret;
}

static const char *const kptc_names[KPTC_WORDS] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "flags", "r8", "sp",
	"sp moved",
};

/* What a run leaves: the state, then kptc_mem. */
#define KPTC_OUT_WORDS	(KPTC_WORDS + KPTC_MEM_WORDS)

static void kptc_expect_same(struct kunit *test, const struct kptc_target *t,
			     unsigned int v, const u32 *got, const u32 *want)
{
	unsigned int i;

	for (i = 0; i < KPTC_WORDS; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], want[i], "%s, vector %u: %s",
				    t->insn, v, kptc_names[i]);
	for (i = 0; i < KPTC_MEM_WORDS; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[KPTC_WORDS + i],
				    want[KPTC_WORDS + i],
				    "%s, vector %u: word %d", t->insn, v,
				    (int)i - KPTC_MEM_MIDDLE);
}

/*
 * Every target's outcome with a probe on it is the CPU's own, taken first
 * without the probe.
 */
static void targets_probed(struct kunit *test)
{
	u32 *want = kunit_kcalloc(test, KPTC_VECTORS * KPTC_OUT_WORDS,
				  sizeof(u32), GFP_KERNEL);
	u32 *got = kunit_kcalloc(test, KPTC_OUT_WORDS, sizeof(u32),
				 GFP_KERNEL);
	const struct kptc_target *t;
	unsigned int v;

	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	/* the table is there (a bad section name would leave it empty) */
	KUNIT_ASSERT_GT(test, kptc_table_end - kptc_table, 100);
	for (t = kptc_table; t < kptc_table_end; t++) {
		struct kpkt_probe *pp;

		for (v = 0; v < KPTC_VECTORS; v++) {
			u32 *w = want + v * KPTC_OUT_WORDS;

			kptc_run(t, v, w);
			memcpy(w + KPTC_WORDS, kptc_mem, sizeof(kptc_mem));
		}
		pp = kpkt_probe_new(test, (void *)t->at, NULL, 0);
		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
				    "%s", t->insn);
		KUNIT_EXPECT_TRUE_MSG(test, kptc_computed(t->at),
				      "%s: computed", t->insn);
		for (v = 0; v < KPTC_VECTORS; v++) {
			kptc_run(t, v, got);
			memcpy(got + KPTC_WORDS, kptc_mem, sizeof(kptc_mem));
			kptc_expect_same(test, t, v, got,
					 want + v * KPTC_OUT_WORDS);
		}
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), KPTC_VECTORS,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp), KPTC_VECTORS,
				    "%s", t->insn);
		kpkt_unregister(test, &pp->kp);
	}
}

static int kptc_case_init(struct kunit *test)
{
	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_hit_find(): " KPKT_NO_HELPERS);
	return kpkt_case_init(test);
}

static struct kunit_case kptc_cases[] = {
	KUNIT_CASE(targets_probed),
	{}
};

static struct kunit_suite kptc_suite = {
	.name = "kprobes_thumb_compute",
	.init = kptc_case_init,
	.test_cases = kptc_cases,
};

kunit_test_suite(kptc_suite);

MODULE_DESCRIPTION("KUnit suite of the Thumb instructions ARM kprobes compute");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
