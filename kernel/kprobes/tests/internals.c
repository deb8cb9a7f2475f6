// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suite "kprobes_internals": white-box cases that read or drive what the
 * core keeps behind <linux/kprobes.h> (kernel/kprobes/internal.h): the
 * names the blacklist takes as parts of a function, busy sections, the
 * instruction slot allocator, and taking every site on dying text out in
 * one walk.  They need symbols vmlinux does not export: as a module they
 * skip (kprobes_kunit.h).
 */

/* First: it defines pr_fmt, and declares what these cases read. */
#include "../internal.h"

#include <linux/bsearch.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sort.h>

#include "kprobes_kunit.h"

/* Which symbol names are parts of another function (blacklist.c). */
static void part_names_recognised(struct kunit *test)
{
	static const struct {
		const char *name;
		size_t base_len;
	} names[] = {
		{ "foo.cold", 3 }, { "foo.isra.0", 3 },
		{ "foo.constprop.0", 3 }, { "foo.part.0", 3 },
		{ "foo.llvm.123", 3 }, { "foo.cold.7", 3 },
		{ "foo.constprop.0.isra.0", 3 }, { "foo.part.0.cold", 3 },
		{ "do_it.isra.12", 5 },
		{ "foo", 0 }, { "foo.", 0 }, { ".cold", 0 }, { "foo.isra", 0 },
		{ "foo.coldx", 0 }, { "foo.isra.0x", 0 }, { "foo.cold.", 0 },
		{ "foo..cold", 0 }, { "foo.part.0.bar", 0 },
		{ "foo.localalias", 0 }, { "__func__.12", 0 },
	};
	unsigned int i;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_part_base_len(): " KPKT_NO_HELPERS);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		KUNIT_EXPECT_EQ_MSG(test, kprobe_part_base_len(names[i].name),
				    names[i].base_len, "%s", names[i].name);
}

/**
 * struct kpkt_parts - parts of NOKPROBE_SYMBOL() functions in vmlinux
 * @nokprobe: the functions, by start address, sorted
 * @nr: entries in @nokprobe
 * @found: parts seen
 * @missed: parts the blacklist does not cover
 * @part: the first part seen
 * @bad: the first part not covered
 * @base: scratch: the function name of a part
 */
struct kpkt_parts {
	unsigned long *nokprobe;
	unsigned int nr;
	unsigned int found;
	unsigned int missed;
	char part[KSYM_NAME_LEN];
	char bad[KSYM_NAME_LEN];
	char base[KSYM_NAME_LEN];
};

static int kpkt_cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static int kpkt_check_part(void *data, const char *name, unsigned long addr)
{
	struct kpkt_parts *p = data;
	size_t len = kprobe_part_base_len(name);
	unsigned long base;

	if (!len || !is_kernel_text(addr))
		return 0;
	strscpy(p->base, name, len + 1);
	base = kallsyms_lookup_name(p->base);
	if (!base || !bsearch(&base, p->nokprobe, p->nr, sizeof(base),
			      kpkt_cmp_ulong))
		return 0;
	if (!p->found++)
		strscpy(p->part, name, sizeof(p->part));
	if (!within_kprobe_blacklist(addr) && !p->missed++)
		strscpy(p->bad, name, sizeof(p->bad));
	return 0;
}

static void kpkt_kvfree_action(void *addr)
{
	kvfree(addr);
}

/*
 * The .cold, .isra.N, ... parts of NOKPROBE_SYMBOL() functions that this
 * kernel has are blacklisted too, and refused by name.
 */
static void blacklist_covers_function_parts(struct kunit *test)
{
	struct kpkt_parts *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	unsigned long *entry, size, off;
	struct kpkt_probe *pp;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kallsyms iteration: " KPKT_NO_HELPERS);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->nokprobe = kvmalloc_array(__stop_kprobe_blacklist -
				     __start_kprobe_blacklist,
				     sizeof(*p->nokprobe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->nokprobe);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kpkt_kvfree_action,
							p->nokprobe), 0);
	for (entry = __start_kprobe_blacklist;
	     entry < __stop_kprobe_blacklist; entry++)
		if (kallsyms_lookup_size_offset(*entry, &size, &off))
			p->nokprobe[p->nr++] = *entry - off;
	sort(p->nokprobe, p->nr, sizeof(*p->nokprobe), kpkt_cmp_ulong, NULL);

	kallsyms_on_each_symbol(kpkt_check_part, p);
	if (!p->found)
		kunit_skip(test, "no NOKPROBE_SYMBOL() function has a part here");
	kunit_info(test, "%u part(s), the first: %s\n", p->found, p->part);
	KUNIT_EXPECT_EQ_MSG(test, p->missed, 0U, "%s is not blacklisted",
			    p->bad);
	pp = kpkt_probe_new(test, NULL, p->part, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, p->part);
}

/*
 * Busy sections (kprobe_busy_begin()/end(), as fprobe uses them): a probe
 * hit inside one counts as missed, sections nest, and the CPU is as it
 * was after each.  The second part plays an NMI that starts a section
 * while this CPU is in the middle of starting one (its depth taken,
 * nothing else done yet): the NMI's section must be busy all the same,
 * and leave the depth as it found it.
 */
static void busy_sections_nest(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kprobe *running[5];
	unsigned int depth, nmi_depth;
	struct kprobe_busy_save *s;
	long want, got[4];
	int i;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "the busy save: " KPKT_NO_HELPERS);
	want = kpkt_call(kpkt_arith, kpkt_args[0]);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);

	/* No expectation in here: a failed one allocates. */
	preempt_disable();
	running[0] = kprobe_running();
	kprobe_busy_begin();
	running[1] = kprobe_running();
	got[0] = kpkt_call(kpkt_arith, kpkt_args[0]);
	kprobe_busy_begin();
	running[2] = kprobe_running();
	got[1] = kpkt_call(kpkt_arith, kpkt_args[0]);
	kprobe_busy_end();
	running[3] = kprobe_running();
	got[2] = kpkt_call(kpkt_arith, kpkt_args[0]);
	kprobe_busy_end();
	running[4] = kprobe_running();
	preempt_enable();

	KUNIT_EXPECT_NULL(test, running[0]);
	for (i = 1; i <= 3; i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, running[i], "step %d", i);
	KUNIT_EXPECT_NULL(test, running[4]);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], want, "call %d", i);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 3UL);

	preempt_disable();
	s = this_cpu_ptr(&kprobe_busy_save);
	depth = s->depth++;
	kprobe_busy_begin();
	running[0] = kprobe_running();
	got[3] = kpkt_call(kpkt_arith, kpkt_args[0]);
	kprobe_busy_end();
	running[1] = kprobe_running();
	nmi_depth = s->depth;
	s->depth = depth;
	preempt_enable();

	KUNIT_EXPECT_NOT_NULL(test, running[0]);
	KUNIT_EXPECT_NULL(test, running[1]);
	KUNIT_EXPECT_EQ(test, nmi_depth, depth + 1);
	KUNIT_EXPECT_EQ(test, got[3], want);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 4UL);

	/* And outside any section the probe works. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_arith, kpkt_args[0]), want);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 1);
	kpkt_unregister(test, &pp->kp);
}

/*
 * Instruction slots are as large as asked, in 16-byte units: aligned,
 * disjoint, inside a slot page.  (Their contents are the last user's,
 * breakpoints only on a new page; freed slots become reusable only after
 * a reclaim, not checked here.)
 */
static void slots_aligned_and_disjoint(struct kunit *test)
{
	static const size_t want[] = {
		1, KPROBE_SLOT_BYTES, 1, KPROBE_SLOT_BYTES / 2 + 1, 16,
		KPROBE_SLOT_BYTES, 2, 17,
	};
	kprobe_opcode_t *slot[ARRAY_SIZE(want)];
	size_t size[ARRAY_SIZE(want)];
	unsigned long a, b;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		size[i] = min_t(size_t, want[i], KPROBE_SLOT_BYTES);
		slot[i] = kprobe_slot_alloc(size[i]);
		KUNIT_ASSERT_NOT_NULL_MSG(test, slot[i], "%zu bytes", size[i]);
		a = (unsigned long)slot[i];
		KUNIT_EXPECT_EQ(test, a % KPROBE_SLOT_UNIT, 0);
		KUNIT_EXPECT_TRUE(test, kprobe_insn_slot_contains(a));
		KUNIT_EXPECT_TRUE(test,
				  kprobe_insn_slot_contains(a + size[i] - 1));
		for (j = 0; j < i; j++) {
			b = (unsigned long)slot[j];
			KUNIT_EXPECT_TRUE_MSG(test,
					      a >= b + round_up(size[j],
								KPROBE_SLOT_UNIT) ||
					      b >= a + round_up(size[i],
								KPROBE_SLOT_UNIT),
					      "slots %u (%zu bytes) and %u (%zu) overlap",
					      i, size[i], j, size[j]);
		}
	}
	for (i = 0; i < ARRAY_SIZE(want); i++)
		kprobe_slot_free(slot[i]);
}

/*
 * Text that goes away (a module's, init text) takes every live site on it
 * out of the table in one walk, kprobe_kill_sites().  With enough sites
 * the table must shrink afterwards; shrinking in the middle of the walk
 * would skip sites and leave them live on freed text.  The GONE sites are
 * then found by unregistration (on the GONE list, not in the table).
 * The probes are disabled, so no breakpoint is left in the text, which
 * stays in use: only the sites' bookkeeping goes GONE.
 */
#define KPKT_GONE_MAX	64
/* More sites than half of the smallest table: it grew for them. */
#define KPKT_GONE_MIN	33

struct kpkt_doomed {
	unsigned long addr[KPKT_GONE_MAX];
	unsigned int nr;
};

static bool kpkt_is_doomed(unsigned long addr, void *data)
{
	const struct kpkt_doomed *d = data;
	unsigned int i;

	for (i = 0; i < d->nr; i++)
		if (d->addr[i] == addr)
			return true;
	return false;
}

static void dying_text_kills_all_sites(struct kunit *test)
{
	static const struct {
		kpkt_fn_t fn;
		bool to_ret;
	} targets[] = {
		{ kpkt_arith, true }, { kpkt_rip, true }, { kpkt_caller, true },
		{ kpkt_leaf, true }, { kpkt_inner, true },
		{ kpkt_branch, false }, { kpkt_peek, false },
	};
	struct kpkt_probe **pp;
	struct kpkt_doomed *d;
	struct kpkt_text t;
	struct kprobe *found;
	unsigned int i, j;
	void *addr;

	if (!KPKT_BUILTIN)
		kunit_skip(test, KPKT_NO_HELPERS);
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	pp = kunit_kcalloc(test, KPKT_GONE_MAX, sizeof(*pp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_NOT_NULL(test, pp);
	for (i = 0; i < ARRAY_SIZE(targets) && d->nr < KPKT_GONE_MAX; i++) {
		if (kpkt_decode(targets[i].fn, targets[i].to_ret, &t))
			continue;
		for (j = 0; j < t.nr && d->nr < KPKT_GONE_MAX; j++) {
			addr = (void *)(t.start + t.off[j]);
			pp[d->nr] = kpkt_probe_new(test, addr, NULL, 0);
			pp[d->nr]->kp.flags = KPROBE_FLAG_DISABLED;
			if (kpkt_register(test, &pp[d->nr]->kp))
				continue;
			d->addr[d->nr++] = (unsigned long)addr;
		}
	}
	if (d->nr < KPKT_GONE_MIN)
		kunit_skip(test, "%u probeable instructions, %u needed", d->nr,
			   KPKT_GONE_MIN);
	kunit_info(test, "%u sites", d->nr);

	KUNIT_EXPECT_EQ(test, kprobe_kill_sites(kpkt_is_doomed, d), d->nr);
	for (i = 0; i < d->nr; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, kprobe_gone(&pp[i]->kp), "%pS",
				      pp[i]->kp.addr);
		/* A failed expectation allocates: not inside the reader. */
		rcu_read_lock();
		found = get_kprobe(pp[i]->kp.addr);
		rcu_read_unlock();
		KUNIT_EXPECT_NULL_MSG(test, found, "%pS", pp[i]->kp.addr);
	}
	/* Nothing live is left to kill. */
	KUNIT_EXPECT_EQ(test, kprobe_kill_sites(kpkt_is_doomed, d), 0);

	for (i = 0; i < d->nr; i++) {
		kpkt_unregister(test, &pp[i]->kp);
		/* A kprobe unregistration cannot find loses its address. */
		KUNIT_EXPECT_PTR_EQ_MSG(test, (void *)pp[i]->kp.addr,
					(void *)d->addr[i], "#%u", i);
		KUNIT_EXPECT_TRUE(test, list_empty(&pp[i]->kp.list));
		KUNIT_EXPECT_FALSE(test, kprobe_gone(&pp[i]->kp));
	}

	/* The addresses take new, live probes again. */
	kpkt_probe_reset(pp[0]);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp[0]->kp), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_gone(&pp[0]->kp));
	kpkt_unregister(test, &pp[0]->kp);
}

static struct kunit_case kprobes_internals_cases[] = {
	KUNIT_CASE(part_names_recognised),
	KUNIT_CASE(blacklist_covers_function_parts),
	KUNIT_CASE(busy_sections_nest),
	KUNIT_CASE(slots_aligned_and_disjoint),
	KUNIT_CASE(dying_text_kills_all_sites),
	{}
};

static struct kunit_suite kprobes_internals_suite = {
	.name = "kprobes_internals",
	.suite_init = kpkt_suite_init,
	.init = kpkt_case_init,
	.test_cases = kprobes_internals_cases,
};

kunit_test_suite(kprobes_internals_suite);
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
