// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The two cases every computed-instruction suite runs (kprobes_kunit.h,
 * struct kpkt_insn_suite): its targets' results written down, first
 * unprobed, then with a probe on the instruction under test.
 */

#include <kunit/visibility.h>
#include <linux/kprobes_arch.h>
#include <linux/rcupdate.h>

#include "kprobes_kunit.h"

static void kpkt_insn_expect(struct kunit *test,
			     const struct kpkt_insn_suite *s,
			     const struct kpkt_insn_target *t)
{
	unsigned int j;

	for (j = 0; j < KPKT_INSN_NARGS; j++) {
		unsigned long got = kpkt_call(t->fn, s->args[j]);
		unsigned long want = t->want[j];

		if (s->low32) {
			got = (u32)got;
			want = (u32)want;
		}
		KUNIT_EXPECT_EQ_MSG(test, got, want, "%s (x = %ld)", t->insn,
				    s->args[j]);
	}
}

/* Is the site at @addr there, and computed as @s's back-end says? */
static bool kpkt_insn_computed(const struct kpkt_insn_suite *s,
			       unsigned long addr)
{
	struct kprobe_hit_site *p;
	bool ret;

	rcu_read_lock();
	p = kprobe_hit_find(addr);
	ret = p && s->computed(p);
	rcu_read_unlock();
	return ret;
}

/**
 * kpkt_insn_unprobed() - each target gives what @s writes down
 * @test: the case
 * @s: the suite
 */
void kpkt_insn_unprobed(struct kunit *test, const struct kpkt_insn_suite *s)
{
	unsigned int i;

	for (i = 0; i < s->count; i++)
		kpkt_insn_expect(test, s, &s->targets[i]);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_insn_unprobed);

/**
 * kpkt_insn_probed() - the same with a probe on each instruction
 * @test: the case
 * @s: the suite
 *
 * Both handlers run once per call, and the site is computed or stepped
 * as the target's row says.
 */
void kpkt_insn_probed(struct kunit *test, const struct kpkt_insn_suite *s)
{
	unsigned int i;

	for (i = 0; i < s->count; i++) {
		const struct kpkt_insn_target *t = &s->targets[i];
		unsigned long addr = *t->at;
		struct kpkt_probe *pp = kpkt_probe_new(test, (void *)addr,
						       NULL, 0);

		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_insn_computed(s, addr),
				    t->computed, "%s: computed", t->insn);
		kpkt_insn_expect(test, s, t);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), KPKT_INSN_NARGS,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp), KPKT_INSN_NARGS,
				    "%s", t->insn);
		kpkt_unregister(test, &pp->kp);
	}
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_insn_probed);

/**
 * kpkt_insn_case_init() - skip unless built in, then kpkt_case_init()
 * @test: the case
 *
 * Return: kpkt_case_init()'s.
 */
int kpkt_insn_case_init(struct kunit *test)
{
	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_hit_find(): " KPKT_NO_HELPERS);
	return kpkt_case_init(test);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_insn_case_init);
