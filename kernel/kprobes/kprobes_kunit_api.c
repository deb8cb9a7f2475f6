// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suite "kprobes_api": struct kprobe through <linux/kprobes.h>, black-box
 * (kprobes_kunit.h has the layout).  Registration by address and by
 * symbol, every refusal with its error code, aggregated probes, enabling
 * and disabling, re-entrancy, execution path changes, faults in handlers
 * and in probed instructions, arming and disarming under load.
 */

/* First: it defines pr_fmt.  For kprobe_part_base_len() and the slots. */
#include "internal.h"

#include <linux/bsearch.h>
#include <linux/delay.h>
#include <linux/extable.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/sort.h>
#include <linux/static_call.h>
#include <linux/stringhash.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kprobes_kunit.h"

/* ------------------------------------------------------------------
 * Suite kprobes_api
 * ------------------------------------------------------------------
 */

static void kpkt_register_by_addr(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, true);

	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), KPKT_NARGS);
}

static void kpkt_register_by_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, true);
	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
}

/* symbol_name + offset, on the second instruction of the body. */
static void kpkt_register_by_symbol_offset(struct kunit *test)
{
	struct kpkt_text t;
	struct kpkt_probe *pp;
	struct kpkt_ref ref;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	KUNIT_ASSERT_GE(test, t.nr, 2U);
	kpkt_ref_init(&ref, kpkt_arith);
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", t.off[1]);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, false);
	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
}

static void kpkt_reject_addr_and_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, kpkt_arith, "kpkt_arith",
					       0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "addr and symbol_name");
	kpkt_run(test, &ref, "not probed");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
}

static void kpkt_reject_unknown_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL,
					       "kpkt_no_such_symbol_anywhere",
					       0);

	kpkt_expect_reject(test, &pp->kp, -ENOENT, "unknown symbol");
}

/*
 * NULL to any entry point is refused or ignored (it used to Oops inside
 * kprobe_mutex, leaving kprobes unusable).
 */
static void kpkt_null_args(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kprobe *kps[2] = { &pp->kp, NULL };
	struct kretprobe *rps[1] = { NULL };

	KUNIT_EXPECT_EQ(test, register_kprobe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kprobes(NULL, 1), -EINVAL);
	/* The good one before the NULL is unregistered again. */
	KUNIT_EXPECT_EQ(test, register_kprobes(kps, 2), -EINVAL);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, get_kprobe((void *)kpkt_arith), NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, enable_kprobe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, disable_kprobe(NULL), -EINVAL);
	unregister_kprobe(NULL);
	unregister_kprobes(NULL, 1);
	unregister_kprobes(kps + 1, 1);
	KUNIT_EXPECT_EQ(test, register_kretprobe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kretprobes(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kretprobes(rps, 1), -EINVAL);
	unregister_kretprobe(NULL);
	unregister_kretprobes(NULL, 1);
	unregister_kretprobes(rps, 1);
	/* kprobes still work. */
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	KUNIT_EXPECT_EQ(test, kpkt_register(test, &pp->kp), 0);
}

/* "module:" with an empty symbol is an unknown symbol. */
static void kpkt_reject_empty_module_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL,
					       "kprobes_test_target:", 0);

	kpkt_expect_reject(test, &pp->kp, -ENOENT, "module:");
	pp = kpkt_probe_new(test, NULL, ":kpkt_arith", 0);
	kpkt_expect_reject(test, &pp->kp, -ENOENT, ":symbol");
}

/*
 * User text that is_kernel_text() and kallsyms count as kernel (x86-64's
 * vsyscall page, as "_end+off") is not a kernel address to probe:
 * -EINVAL, as upstream.  It used to fail later, by accident (-EILSEQ).
 */
static void kpkt_reject_vsyscall(struct kunit *test)
{
	unsigned long addr = kpkt_arch_user_text();
	struct kpkt_probe *pp;

	if (!addr)
		kunit_skip(test, "no user text among kernel addresses here");
	pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "vsyscall page");
}

/*
 * As upstream: symbol + offset is re-based on the function that covers it,
 * so an offset to the end of kpkt_arith is the next function's entry.
 */
static void kpkt_offset_into_next_function(struct kunit *test)
{
	unsigned long start = (unsigned long)kpkt_arith, size, off, nsize;
	struct kpkt_probe *pp, *next;

	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(start, &size, &off));
	if (!kallsyms_lookup_size_offset(start + size, &nsize, &off) || off ||
	    within_kprobe_blacklist(start + size))
		kunit_skip(test, "no probe-able function right after kpkt_arith");
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", size);
	pp->kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_TRUE(test, pp->kp.flags & KPROBE_FLAG_ON_FUNC_ENTRY);
	/*
	 * Where an entry probe on that function lands: its first byte, or
	 * past what the architecture skips there (riscv: ftrace's nops).
	 */
	next = kpkt_probe_new(test, (void *)(start + size), NULL, 0);
	next->kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &next->kp), 0);
	KUNIT_EXPECT_PTR_EQ(test, pp->kp.addr, next->kp.addr);
	KUNIT_EXPECT_GE(test, (unsigned long)pp->kp.addr, start + size);
	KUNIT_EXPECT_LT(test, (unsigned long)pp->kp.addr, start + size + nsize);
}

/* As upstream: an address that no symbol covers (here, heap) is -ENOENT. */
static void kpkt_reject_no_symbol(struct kunit *test)
{
	void *heap = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct kpkt_probe *pp;

	KUNIT_ASSERT_NOT_NULL(test, heap);
	pp = kpkt_probe_new(test, heap, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -ENOENT, "heap address");
}

static void kpkt_reject_blacklisted(struct kunit *test)
{
	const char *const *name;
	struct kpkt_probe *pp;

	/* NOKPROBE_SYMBOL() of the base kernel (kernel/notifier.c). */
	pp = kpkt_probe_new(test, NULL, "notifier_call_chain", 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "notifier_call_chain");

	/* NOKPROBE_SYMBOL() of this file, by name and by address. */
	pp = kpkt_probe_new(test, NULL, "kpkt_nokprobe", 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "kpkt_nokprobe by name");
	pp = kpkt_probe_new(test, kpkt_nokprobe, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "kpkt_nokprobe by addr");

	/* .kprobes.text */
	pp = kpkt_probe_new(test, kpkt_kprobes_text, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "kpkt_kprobes_text");

	/* The architecture's kprobes trap handlers and the like. */
	for (name = kpkt_arch_refused; *name; name++) {
		pp = kpkt_probe_new(test, NULL, *name, 0);
		kpkt_expect_reject(test, &pp->kp, -EINVAL, *name);
	}
}

/* Documented: __switch_to() takes no kprobe (nor kretprobe). */
static void kpkt_reject_switch_to(struct kunit *test)
{
	struct kpkt_probe *pp;

	if (IS_ENABLED(CONFIG_MIPS))
		kunit_skip(test, "mips switches tasks in resume(): kpkt_arch_refused");
	pp = kpkt_probe_new(test, NULL, "__switch_to", 0);

	kpkt_expect_reject(test, &pp->kp, -EINVAL, "__switch_to");
}

/*
 * The first address in @fn that @reserved (jump_label_text_reserved() or
 * static_call_text_reserved()) claims, or 0.
 */
static unsigned long kpkt_patched_addr(struct kunit *test, kpkt_fn_t fn,
				       int (*reserved)(void *, void *))
{
	unsigned long start = (unsigned long)fn, size, off, addr;
	bool found = false;

	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(start, &size, &off));
	/* As kprobes asks: the site tables change under this lock. */
	jump_label_lock();
	for (addr = start; addr < start + size && !found; addr++)
		found = reserved((void *)addr, (void *)addr);
	jump_label_unlock();
	return found ? addr - 1 : 0;
}

/* Jump label and static call sites: -EINVAL, as upstream (not -EBUSY). */
static void kpkt_reject_patched_sites(struct kunit *test)
{
	struct kpkt_probe *pp;
	unsigned long addr;
	bool tried = false;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "site tables: " KPKT_NO_HELPERS);
	if (IS_ENABLED(CONFIG_JUMP_LABEL)) {
		addr = kpkt_patched_addr(test, kpkt_keyed,
					 jump_label_text_reserved);
		KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no jump label in %ps",
				    kpkt_keyed);
		pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
		kpkt_expect_reject(test, &pp->kp, -EINVAL, "jump label site");
		tried = true;
	}
	if (IS_ENABLED(CONFIG_HAVE_STATIC_CALL_INLINE)) {
		addr = kpkt_patched_addr(test, kpkt_static_caller,
					 static_call_text_reserved);
		KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no static call in %ps",
				    kpkt_static_caller);
		pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
		kpkt_expect_reject(test, &pp->kp, -EINVAL, "static call site");
		tried = true;
	}
	if (!tried)
		kunit_skip(test, "no jump labels, no inline static calls");
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_keyed, 1), 2L);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_static_caller, 1),
			kpkt_call(kpkt_leaf, 1) + 1);
}

/* Which symbol names are parts of another function (blacklist.c). */
static void kpkt_part_names(struct kunit *test)
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
static void kpkt_reject_blacklisted_parts(struct kunit *test)
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

/* An address one byte into a multi-byte instruction: not a boundary. */
static void kpkt_reject_mid_instruction(struct kunit *test)
{
	struct kpkt_probe *pp;
	struct kpkt_text t;
	unsigned int i;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	for (i = 0; i < t.nr && t.len[i] < 2; i++)
		;
	KUNIT_ASSERT_LT_MSG(test, i, t.nr, "no multi-byte instruction");

	pp = kpkt_probe_new(test, (void *)(t.start + t.off[i] + 1), NULL, 0);
	kpkt_expect_reject(test, &pp->kp, kpkt_arch_mid_insn_err(),
			   "addr inside an insn");
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", t.off[i] + 1);
	kpkt_expect_reject(test, &pp->kp, kpkt_arch_mid_insn_err(),
			   "symbol+offset inside");
}

/* Finding a name that several text symbols carry, through kallsyms. */
#define KPKT_MAX_SYMS	SZ_256K
#define KPKT_MAX_DUPS	4096U

struct kpkt_dups {
	u32 *hash;
	unsigned int nr;
	u32 *dup;
	unsigned int nr_dup;
	char name[KSYM_NAME_LEN];
};

/* Compiler clones and prefix symbols are not names users probe. */
static bool kpkt_plain_text_sym(const char *name, unsigned long addr)
{
	return is_kernel_text(addr) && !strchr(name, '.') &&
	       !strstarts(name, "__pfx_") && !strstarts(name, "__cfi_");
}

static u32 kpkt_name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

static int kpkt_hash_sym(void *data, const char *name, unsigned long addr)
{
	struct kpkt_dups *d = data;

	if (kpkt_plain_text_sym(name, addr) && d->nr < KPKT_MAX_SYMS)
		d->hash[d->nr++] = kpkt_name_hash(name);
	return 0;
}

struct kpkt_match {
	unsigned long first;
	unsigned int nr;
	bool unusable;
};

static int kpkt_count_match(void *data, unsigned long addr)
{
	struct kpkt_match *m = data;

	/* Every copy must be a probeable function at its own address. */
	if (!is_kernel_text(addr) || within_kprobe_blacklist(addr) ||
	    (m->nr && addr == m->first))
		m->unusable = true;
	if (!m->nr)
		m->first = addr;
	m->nr++;
	return 0;
}

static int kpkt_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int kpkt_pick_dup(void *data, const char *name, unsigned long addr)
{
	struct kpkt_dups *d = data;
	struct kpkt_match m = {};
	u32 h;

	if (!kpkt_plain_text_sym(name, addr))
		return 0;
	h = kpkt_name_hash(name);
	if (!bsearch(&h, d->dup, d->nr_dup, sizeof(h), kpkt_cmp_u32))
		return 0;
	kallsyms_on_each_match_symbol(kpkt_count_match, name, &m);
	if (m.nr < 2 || m.unusable)
		return 0;
	strscpy(d->name, name, sizeof(d->name));
	return 1;
}

/* Find a vmlinux function name that several functions share. */
static int kpkt_find_ambiguous(struct kunit *test, struct kpkt_dups *d)
{
	unsigned int i;

	if (!KPKT_BUILTIN)
		return -EOPNOTSUPP;
	d->hash = vmalloc_array(KPKT_MAX_SYMS + KPKT_MAX_DUPS, sizeof(u32));
	if (!d->hash)
		return -ENOMEM;
	kunit_add_action_or_reset(test, kpkt_vfree_action, d->hash);
	d->dup = d->hash + KPKT_MAX_SYMS;

	kallsyms_on_each_symbol(kpkt_hash_sym, d);
	sort(d->hash, d->nr, sizeof(u32), kpkt_cmp_u32, NULL);
	for (i = 1; i < d->nr && d->nr_dup < KPKT_MAX_DUPS; i++)
		if (d->hash[i] == d->hash[i - 1] &&
		    (!d->nr_dup || d->dup[d->nr_dup - 1] != d->hash[i]))
			d->dup[d->nr_dup++] = d->hash[i];
	if (!d->nr_dup)
		return -ENOENT;
	return kallsyms_on_each_symbol(kpkt_pick_dup, d) ? 0 : -ENOENT;
}

/*
 * A name several functions share is not refused: as upstream, the probe
 * goes on the one kallsyms_lookup_name() finds first.  Registered disabled,
 * since that function belongs to somebody else.
 */
static void kpkt_ambiguous_symbol_first(struct kunit *test)
{
	struct kpkt_dups *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	unsigned long addr, size, off, first;
	struct kpkt_probe *pp;
	int ret;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kallsyms iteration: " KPKT_NO_HELPERS);
	KUNIT_ASSERT_NOT_NULL(test, d);
	ret = kpkt_find_ambiguous(test, d);
	if (ret == -ENOENT)
		kunit_skip(test, "no function name is shared by two functions");
	KUNIT_ASSERT_EQ(test, ret, 0);

	kunit_info(test, "ambiguous name: %s\n", d->name);
	first = kallsyms_lookup_name(d->name);
	pp = kpkt_probe_new(test, NULL, d->name, 0);
	pp->kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
			    "register_kprobe(%s)", d->name);
	addr = (unsigned long)pp->kp.addr;
	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(addr, &size, &off));
	KUNIT_EXPECT_EQ_MSG(test, addr - off, first,
			    "%s: probed %pS, first match %pS", d->name,
			    (void *)addr, (void *)first);
}

static void kpkt_reject_registered_twice(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_EQ(test, register_kprobe(&pp->kp), -EINVAL);
	/* Still registered exactly once: one hit per call, not two. */
	kpkt_check_probe(test, pp, &ref, true);
}

/*
 * A registered kprobe stays registered whatever its owner then does to
 * addr, symbol_name or offset (a struct reused for another probe): a
 * second registration is refused, alone or in a batch, and leaves the
 * probe alone; disabling, enabling and unregistering act on the probe
 * where it was registered; unregistering gives addr back the probed
 * address.  Upstream 6.12 links the struct into its table a second time.
 */
static void kpkt_changed_fields(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_probe *other = kpkt_probe_new(test, kpkt_leaf, NULL, 0);
	struct kprobe *batch[] = { &other->kp, &pp->kp };
	kprobe_opcode_t *probed;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	probed = pp->kp.addr;

	pp->kp.addr = (kprobe_opcode_t *)kpkt_leaf;
	KUNIT_EXPECT_EQ(test, register_kprobe(&pp->kp), -EINVAL);
	pp->kp.addr = NULL;
	pp->kp.symbol_name = "kpkt_leaf";
	KUNIT_EXPECT_EQ(test, register_kprobe(&pp->kp), -EINVAL);
	/* The batch fails on it and rolls back the one before it. */
	KUNIT_EXPECT_EQ(test, register_kprobes(batch, ARRAY_SIZE(batch)), -EINVAL);
	kpkt_check_probe(test, pp, &ref, true);
	KUNIT_EXPECT_EQ(test, kpkt_register(test, &other->kp), 0);
	kpkt_unregister(test, &other->kp);

	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), 0);
	atomic_set(&pp->pre_hits, 0);
	kpkt_run(test, &ref, "disabled");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, true);

	kpkt_unregister(test, &pp->kp);
	KUNIT_EXPECT_PTR_EQ(test, pp->kp.addr, probed);
	atomic_set(&pp->pre_hits, 0);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	/* Free again: it registers where it now points. */
	pp->kp.addr = NULL;
	KUNIT_EXPECT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_PTR_NE(test, pp->kp.addr, probed);
}

/*
 * Flag bits other than KPROBE_FLAG_DISABLED are dropped at registration
 * (as upstream does), not refused: the probe registers, enabled or
 * disabled by that one bit, and the core's own bits are its own again.
 */
static void kpkt_mask_core_flags(struct kunit *test)
{
	static const u32 bad[] = {
		KPROBE_FLAG_GONE, KPROBE_FLAG_OPTIMIZED, KPROBE_FLAG_FTRACE,
		KPROBE_FLAG_ON_FUNC_ENTRY, KPROBE_FLAG_DISABLED | 0x100,
		0x80000000,
	};
	const u32 site_kind = KPROBE_FLAG_ON_FUNC_ENTRY | KPROBE_FLAG_FTRACE;
	struct kpkt_probe *pp[ARRAY_SIZE(bad)];
	struct kpkt_ref ref;
	unsigned int i;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		pp[i] = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
		pp[i]->kp.flags = bad[i];
		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp[i]->kp), 0,
				    "flags %#x", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, pp[i]->kp.flags & ~site_kind,
				    bad[i] & KPROBE_FLAG_DISABLED,
				    "flags %#x", bad[i]);
		KUNIT_EXPECT_FALSE_MSG(test, kprobe_gone(&pp[i]->kp),
				       "flags %#x", bad[i]);
	}
	calls = kpkt_run(test, &ref, "probed");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp[i]),
				    bad[i] & KPROBE_FLAG_DISABLED ? 0 : calls,
				    "flags %#x", bad[i]);
}

/*
 * A kprobe from kmalloc() with only the user's fields set: the core's
 * fields (list, hlist, ...) hold garbage, which registration must neither
 * trust nor follow.  nmissed is reset, as upstream does.
 */
static void kpkt_register_uninitialised(struct kunit *test)
{
	struct kpkt_probe *pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);
	struct kpkt_probe *named = kunit_kzalloc(test, sizeof(*named),
						 GFP_KERNEL);
	struct kpkt_ref ref;

	KUNIT_ASSERT_NOT_NULL(test, pp);
	KUNIT_ASSERT_NOT_NULL(test, named);
	kpkt_ref_init(&ref, kpkt_arith);
	memset(&pp->kp, 0x5a, sizeof(pp->kp));
	memset(&named->kp, 0x5a, sizeof(named->kp));
	pp->kp.addr = (void *)kpkt_arith;
	pp->kp.symbol_name = NULL;
	pp->kp.offset = 0;
	pp->kp.pre_handler = kpkt_pre;
	pp->kp.post_handler = kpkt_post;
	pp->kp.flags = 0;
	/* At the same address, so that the site already exists. */
	named->kp.addr = NULL;
	named->kp.symbol_name = "kpkt_arith";
	named->kp.offset = 0;
	named->kp.pre_handler = kpkt_pre;
	named->kp.post_handler = kpkt_post;
	named->kp.flags = 0;

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &named->kp), 0);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 0UL);
	kpkt_check_probe(test, pp, &ref, true);
	kpkt_check_probe(test, named, &ref, true);
	/* Registered now, whatever its fields held before. */
	KUNIT_EXPECT_EQ(test, register_kprobe(&pp->kp), -EINVAL);

	kpkt_unregister(test, &pp->kp);
	kpkt_check_probe(test, named, &ref, true);
	kpkt_unregister(test, &named->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(named), KPKT_NARGS);
}

/* Probe each instruction of @fn in turn; @exact: straight-line code. */
static void kpkt_probe_each_insn(struct kunit *test, kpkt_fn_t fn, bool exact)
{
	struct kpkt_text t;
	struct kpkt_probe *pp;
	struct kpkt_ref ref;
	unsigned int i;
	int calls, ret;

	kpkt_decode_or_skip(test, fn, exact, &t);
	kpkt_ref_init(&ref, fn);
	for (i = 0; i < t.nr; i++) {
		pp = kpkt_probe_new(test, (void *)(t.start + t.off[i]), NULL, 0);
		ret = kpkt_register(test, &pp->kp);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%ps+%#x", fn, t.off[i]);
		if (ret)
			continue;
		calls = kpkt_run(test, &ref, "one instruction probed");
		if (exact)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), calls,
					    "%ps+%#x", fn, t.off[i]);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp),
				    kpkt_pre_hits(pp), "%ps+%#x", fn, t.off[i]);
		kpkt_unregister(test, &pp->kp);
	}
}

static void kpkt_every_instruction(struct kunit *test)
{
	kpkt_probe_each_insn(test, kpkt_arith, true);
	kpkt_probe_each_insn(test, kpkt_rip, true);
	kpkt_probe_each_insn(test, kpkt_caller, true);
	kpkt_probe_each_insn(test, kpkt_leaf, true);
	kpkt_probe_each_insn(test, kpkt_branch, false);
}

/* Unregistering a probe that was never registered changes nothing. */
static void kpkt_unregister_unregistered(struct kunit *test)
{
	struct kpkt_probe *live = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_probe *stranger, *zero, *named;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &live->kp), 0);

	/* Same address as the live probe, but never registered. */
	stranger = kpkt_probe_new(test, live->kp.addr, NULL, 0);
	zero = kpkt_probe_new(test, NULL, NULL, 0);
	named = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	unregister_kprobe(&stranger->kp);
	unregister_kprobe(&zero->kp);
	unregister_kprobe(&named->kp);

	/* Documented: the addr field of an incorrect probe is cleared. */
	KUNIT_EXPECT_NULL(test, stranger->kp.addr);
	kpkt_check_probe(test, live, &ref, true);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(stranger), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(named), 0);
}

static void kpkt_enable_disable_unregistered(struct kunit *test)
{
	struct kpkt_probe *live = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_probe *stranger;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), -EINVAL);

	/* Not registered, at a registered address: must not touch that one. */
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &live->kp), 0);
	stranger = kpkt_probe_new(test, live->kp.addr, NULL, 0);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&stranger->kp), -EINVAL);
	kpkt_check_probe(test, live, &ref, true);

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), 0);
	kpkt_unregister(test, &pp->kp);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), -EINVAL);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	kpkt_check_probe(test, live, &ref, true);
}

/* A failing batch leaves none of its probes registered. */
static void kpkt_batch_rollback(struct kunit *test)
{
	struct kpkt_probe *a = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_probe *b = kpkt_probe_new(test, kpkt_rip, NULL, 0);
	struct kpkt_probe *bad = kpkt_probe_new(test, NULL,
						"kpkt_no_such_symbol_anywhere",
						0);
	struct kprobe *kps[] = { &a->kp, &b->kp, &bad->kp };
	struct kpkt_ref ra, rb;
	int ret;

	kpkt_ref_init(&ra, kpkt_arith);
	kpkt_ref_init(&rb, kpkt_rip);
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	if (!ret)
		unregister_kprobes(kps, ARRAY_SIZE(kps));
	KUNIT_EXPECT_EQ(test, ret, -ENOENT);

	kpkt_run(test, &ra, "after a failed batch");
	kpkt_run(test, &rb, "after a failed batch");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(a), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(b), 0);

	/* Rolled back for real: both can be registered again. */
	kpkt_probe_reset(a);
	kpkt_probe_reset(b);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &b->kp), 0);
	kpkt_check_probe(test, a, &ra, true);
	kpkt_check_probe(test, b, &rb, true);
}

static void kpkt_batch_register_unregister(struct kunit *test)
{
	struct kpkt_probe *a = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_probe *b = kpkt_probe_new(test, kpkt_rip, NULL, 0);
	struct kpkt_probe *c = kpkt_probe_new(test, NULL, "kpkt_caller", 0);
	struct kpkt_probe *never = kpkt_probe_new(test, kpkt_leaf, NULL, 0);
	struct kprobe *kps[] = { &a->kp, &b->kp, &c->kp };
	struct kprobe *unr[] = { &a->kp, &never->kp, &c->kp };
	struct kpkt_ref ra, rb, rc;
	unsigned int i;
	int ret;

	kpkt_ref_init(&ra, kpkt_arith);
	kpkt_ref_init(&rb, kpkt_rip);
	kpkt_ref_init(&rc, kpkt_caller);
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (i = 0; i < ARRAY_SIZE(kps); i++) {
		ret = kunit_add_action_or_reset(test, kpkt_unregister_action,
						kps[i]);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	kpkt_check_probe(test, a, &ra, true);
	kpkt_check_probe(test, b, &rb, true);
	kpkt_check_probe(test, c, &rc, true);

	/* One bad entry in the middle: the others still go away. */
	unregister_kprobes(unr, ARRAY_SIZE(unr));
	kunit_remove_action(test, kpkt_unregister_action, &a->kp);
	kunit_remove_action(test, kpkt_unregister_action, &c->kp);
	KUNIT_EXPECT_NULL(test, never->kp.addr);
	atomic_set(&a->pre_hits, 0);
	atomic_set(&c->pre_hits, 0);
	kpkt_run(test, &ra, "after batch unregister");
	kpkt_run(test, &rc, "after batch unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(a), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(c), 0);
	kpkt_check_probe(test, b, &rb, true);

	kpkt_probe_reset(a);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	kpkt_check_probe(test, a, &ra, true);
}

static void kpkt_disabled_at_registration(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	pp->kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_disabled(&pp->kp));
	kpkt_run(test, &ref, "registered disabled");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_disabled(&pp->kp));
	kpkt_check_probe(test, pp, &ref, true);

	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_disabled(&pp->kp));
	atomic_set(&pp->pre_hits, 0);
	kpkt_run(test, &ref, "disabled again");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), KPKT_NARGS);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, true);
}

static void kpkt_zero(struct kpkt_probe *pp)
{
	atomic_set(&pp->pre_hits, 0);
	atomic_set(&pp->post_hits, 0);
}

/* Run the target once per argument; check each probe's pre handler count. */
static void kpkt_expect_hits(struct kunit *test, const struct kpkt_ref *ref,
			     struct kpkt_probe **pp, const int *hits,
			     unsigned int nr, const char *phase)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		kpkt_zero(pp[i]);
	kpkt_run(test, ref, phase);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp[i]),
				    hits[i] * KPKT_NARGS,
				    "probe %c, %s", 'a' + i, phase);
}

/*
 * Three probes on one address: independent enable, disable and removal.
 * c (no post handler) comes first, so the site is armed before members
 * with post handlers join it, and it outlives them.
 */
static void kpkt_aggregate_at(struct kunit *test, void *addr, bool at_entry)
{
	struct kpkt_probe *pp[3];
	struct kpkt_probe *a, *b, *c;
	struct kpkt_ref ref;
	const int n = KPKT_NARGS;

	kpkt_ref_init(&ref, kpkt_arith);
	a = kpkt_probe_new(test, addr, NULL, 0);
	b = kpkt_probe_new(test, addr, NULL, 0);
	c = kpkt_probe_new(test, addr, NULL, 0);
	c->kp.post_handler = NULL;
	pp[0] = a;
	pp[1] = b;
	pp[2] = c;

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "c");
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &b->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 1, 1 }, 3, "c, a, b");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(c), 0);
	if (at_entry) {
		KUNIT_EXPECT_EQ(test, (long)a->arg0, kpkt_args[n - 1]);
		KUNIT_EXPECT_EQ(test, (long)c->arg0, kpkt_args[n - 1]);
	}

	KUNIT_EXPECT_EQ(test, disable_kprobe(&a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 1, 1 }, 3, "a disabled");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&b->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "a, b disabled");
	KUNIT_EXPECT_EQ(test, disable_kprobe(&c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 0 }, 3, "all disabled");

	/* Each handler ran as its own kprobe (bpf_get_func_ip() reads it). */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->not_running), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->not_running), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->not_running), 0);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 0 }, 3, "a enabled");
	/* Alone at its site: called without the walk, still as itself. */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->not_running), 0);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&b->kp), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 1, 1 }, 3, "all enabled");

	kpkt_unregister(test, &a->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 1, 1 }, 3, "a removed");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	kpkt_unregister(test, &b->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "b removed");

	/* The first one comes back to a site that kept running. */
	kpkt_probe_reset(a);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 1 }, 3, "a is back");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);

	/* The site's first member leaves before the last one. */
	kpkt_unregister(test, &c->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 0 }, 3, "c removed");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, a->kp.nmissed + b->kp.nmissed + c->kp.nmissed,
			0UL);
	kpkt_unregister(test, &a->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 0 }, 3, "all removed");
}

static void kpkt_aggregate_entry(struct kunit *test)
{
	kpkt_aggregate_at(test, kpkt_arith, true);
}

static void kpkt_aggregate_mid(struct kunit *test)
{
	void *addr = kpkt_mid_addr(test, kpkt_arith);

	if (!addr)
		kunit_skip(test, "instruction decoder: " KPKT_NO_HELPERS);
	kpkt_aggregate_at(test, addr, false);
}

/*
 * A handler calls a probed function: the inner probe must not run its
 * handlers, count a miss instead, and the function must still work.
 */
static void kpkt_recursion_one(struct kunit *test, void *outer_addr,
			       void *inner_addr, bool from_post)
{
	struct kpkt_probe *outer = kpkt_probe_new(test, outer_addr, NULL, 0);
	struct kpkt_probe *inner = kpkt_probe_new(test, inner_addr, NULL, 0);
	struct kpkt_ref ref, ref_inner;
	long want_inner = kpkt_call(kpkt_inner, 5);
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_ref_init(&ref_inner, kpkt_inner);
	outer->nest_fn = kpkt_inner;
	outer->nest_in_post = from_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &inner->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &outer->kp), 0);

	calls = kpkt_run(test, &ref, "handler calls a probed function");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(outer), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(outer), calls);
	KUNIT_EXPECT_EQ(test, outer->nest_ret, want_inner);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), 0);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(inner), 0);
	KUNIT_EXPECT_EQ(test, inner->kp.nmissed, (unsigned long)calls);
	KUNIT_EXPECT_EQ(test, outer->kp.nmissed, 0UL);

	/* Outside a handler the inner probe works normally. */
	calls = kpkt_run(test, &ref_inner, "inner called directly");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(inner), calls);

	kpkt_unregister(test, &outer->kp);
	kpkt_unregister(test, &inner->kp);
}

static void kpkt_recursion_missed(struct kunit *test)
{
	void *outer_mid = kpkt_mid_addr(test, kpkt_arith);
	void *inner_mid = kpkt_mid_addr(test, kpkt_inner);
	void *outers[] = { kpkt_arith, outer_mid };
	void *inners[] = { kpkt_inner, inner_mid };
	unsigned int o, i, post;

	for (o = 0; o < ARRAY_SIZE(outers); o++)
		for (i = 0; i < ARRAY_SIZE(inners); i++)
			for (post = 0; post < 2; post++)
				if (outers[o] && inners[i])
					kpkt_recursion_one(test, outers[o],
							   inners[i], post);
	if (!outer_mid)
		kunit_info(test, "function-entry probes only; mid-function: "
			   KPKT_NO_HELPERS "\n");
}

/*
 * Busy sections (kprobe_busy_begin()/end(), as fprobe uses them): a probe
 * hit inside one counts as missed, sections nest, and the CPU is as it
 * was after each.  The second part plays an NMI that starts a section
 * while this CPU is in the middle of starting one (its depth taken,
 * nothing else done yet): the NMI's section must be busy all the same,
 * and leave the depth as it found it.
 */
static void kpkt_busy_sections(struct kunit *test)
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

/* A pre handler moves the instruction pointer elsewhere and returns 1. */
static void kpkt_redirect_ip(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref, alt;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_ref_init(&alt, kpkt_alt);
	KUNIT_ASSERT_NE(test, ref.want[0], alt.want[0]);
	pp->redirect = (unsigned long)kpkt_alt;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);

	/* kpkt_arith's callers get kpkt_alt's results. */
	alt.fn = kpkt_arith;
	calls = kpkt_run(test, &alt, "redirected to kpkt_alt");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), 0);

	pp->redirect = 0;
	kpkt_check_probe(test, pp, &ref, true);
}

/* A pre handler at entry changes an argument; the function sees it. */
static void kpkt_modify_argument(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	long want = kpkt_call(kpkt_arith, 1000);
	unsigned int i;

	pp->set_arg0 = 1000;
	pp->do_set_arg0 = true;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	for (i = 0; i < KPKT_NARGS; i++)
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_arith, kpkt_args[i]), want);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), KPKT_NARGS);
}

/* Handlers that take (and survive) a page fault. */
static void kpkt_fault_in_handler_at(struct kunit *test, void *addr,
				     bool in_post)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, addr, NULL, 0);
	struct kpkt_ref ref;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	pp->fault_in_pre = !in_post;
	pp->fault_in_post = in_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	calls = kpkt_run(test, &ref, "handler faulted");
	KUNIT_EXPECT_EQ(test, pp->fault_ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), calls);

	/* And nothing was left behind by the faults. */
	pp->fault_in_pre = false;
	pp->fault_in_post = false;
	kpkt_check_probe(test, pp, &ref, false);
	kpkt_unregister(test, &pp->kp);
}

static void kpkt_fault_in_handler(struct kunit *test)
{
	void *mid;

	kpkt_setup_bad_addr(test);
	kpkt_fault_in_handler_at(test, kpkt_arith, false);
	kpkt_fault_in_handler_at(test, kpkt_arith, true);
	mid = kpkt_mid_addr(test, kpkt_arith);
	if (mid) {
		kpkt_fault_in_handler_at(test, mid, false);
		kpkt_fault_in_handler_at(test, mid, true);
	}
}

/*
 * The probed instruction itself faults and its exception-table fixup must
 * still apply, although it ran out of line.
 */
static void kpkt_fault_in_probed_insn(struct kunit *test)
{
	static long good = 0x5eed;
	struct kpkt_probe *pp;
	struct kpkt_text t;
	unsigned long addr = 0;
	unsigned int i, round;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "exception tables: " KPKT_NO_HELPERS);
	kpkt_decode_or_skip(test, kpkt_peek, false, &t);
	for (i = 0; i < t.nr && !addr; i++)
		if (search_exception_tables(t.start + t.off[i]))
			addr = t.start + t.off[i];
	KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no fixup in kpkt_peek");
	kpkt_setup_bad_addr(test);

	pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
	pp->kp.post_handler = NULL;	/* let it be optimized in round 1 */
	KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
			    "probe on an instruction with a fixup");
	for (round = 0; round < 2; round++) {
		atomic_set(&pp->pre_hits, 0);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)&good), good);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)kpkt_bad_addr),
				(long)-EFAULT);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)&good), good);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), 3, "round %u",
				    round);
		kpkt_settle();
	}
}

/* Probes without a post handler may be optimized; they must still work. */
static void kpkt_optimizable(struct kunit *test)
{
	struct kpkt_probe *pp, *with_post;
	struct kpkt_ref ref;
	struct kpkt_text t;
	int calls;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	kpkt_ref_init(&ref, kpkt_arith);
	pp = kpkt_probe_new(test, (void *)(t.start + t.off[0]), NULL, 0);
	pp->kp.post_handler = NULL;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_settle();
	calls = kpkt_run(test, &ref, "maybe optimized");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);

	/* A post handler at the same place forces the slow path back. */
	with_post = kpkt_probe_new(test, pp->kp.addr, NULL, 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &with_post->kp), 0);
	kpkt_check_probe(test, with_post, &ref, false);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 2 * calls);
	kpkt_unregister(test, &with_post->kp);
	kpkt_settle();
	kpkt_run(test, &ref, "optimizable again");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 3 * calls);

	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "unregistered");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 3 * calls);
}

/* kprobe_on_func_entry() tells function entries from other addresses. */
static void kpkt_func_entry_query(struct kunit *test)
{
	struct kpkt_text t;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_on_func_entry(): " KPKT_NO_HELPERS);
	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry(NULL, "kpkt_arith", 0), 0);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry((void *)kpkt_arith, NULL, 0),
			0);
	KUNIT_EXPECT_NE(test, kprobe_on_func_entry(NULL, "kpkt_arith",
						   t.off[t.nr - 1]), 0);
	KUNIT_EXPECT_NE(test, kprobe_on_func_entry(NULL,
						   "kpkt_no_such_symbol", 0),
			0);
}

/* A second CPU calls the targets while probes come and go. */
struct kpkt_stress {
	struct kpkt_ref ref[2];
	atomic_t wrong;
	atomic_long_t calls;
};

static int kpkt_stress_thread(void *data)
{
	struct kpkt_stress *s = data;
	unsigned int i, j;

	while (!kthread_should_stop()) {
		for (j = 0; j < ARRAY_SIZE(s->ref); j++)
			for (i = 0; i < KPKT_NARGS; i++)
				if (kpkt_call(s->ref[j].fn, kpkt_args[i]) !=
				    s->ref[j].want[i])
					atomic_inc(&s->wrong);
		/*
		 * Sleep now and then: on a fully preemptible kernel
		 * cond_resched() is a no-op, and the optimizer's RCU-tasks
		 * grace period needs this thread to switch voluntarily.
		 */
		if (!(atomic_long_inc_return(&s->calls) % 64))
			usleep_range(50, 100);
		else
			cond_resched();
	}
	return 0;
}

static void kpkt_kthread_stop_action(void *tsk)
{
	kthread_stop(tsk);
}

static void kpkt_arm_disarm_stress(struct kunit *test)
{
	struct kpkt_stress *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	void *mid = kpkt_mid_addr(test, kpkt_rip);
	struct kpkt_probe *pe, *pm;
	struct task_struct *tsk;
	unsigned long deadline;
	unsigned int round;
	long seen;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kpkt_ref_init(&s->ref[0], kpkt_arith);
	kpkt_ref_init(&s->ref[1], kpkt_rip);
	tsk = kthread_run(kpkt_stress_thread, s, "kpkt_stress");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kpkt_kthread_stop_action,
							tsk), 0);

	for (round = 0; round < 40; round++) {
		pe = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
		pm = kpkt_probe_new(test, mid ? mid : (void *)kpkt_rip, NULL, 0);
		if (round & 1)
			pm->kp.post_handler = NULL;
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &pe->kp), 0);
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &pm->kp), 0);
		/* Let the other thread run through the armed probes. */
		seen = atomic_long_read(&s->calls);
		deadline = jiffies + HZ;
		while (atomic_long_read(&s->calls) < seen + 2 &&
		       time_before(jiffies, deadline))
			cond_resched();
		KUNIT_EXPECT_EQ(test, disable_kprobe(&pm->kp), 0);
		KUNIT_EXPECT_EQ(test, enable_kprobe(&pm->kp), 0);
		if (round % 8 == 7)
			kpkt_settle();
		kpkt_unregister(test, &pe->kp);
		kpkt_unregister(test, &pm->kp);
	}
	kunit_release_action(test, kpkt_kthread_stop_action, tsk);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->wrong), 0);
	kunit_info(test, "%ld rounds of calls on the other thread\n",
		   atomic_long_read(&s->calls));
}

/*
 * Instruction slots are as large as asked, in 16-byte units: aligned,
 * disjoint, inside a slot page.  (Their contents are the last user's,
 * breakpoints only on a new page; freed slots become reusable only after
 * a reclaim, not checked here.)
 */
static void kpkt_slot_sizes(struct kunit *test)
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

static void kpkt_gone_many(struct kunit *test)
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

static struct kunit_case kpkt_cases[] = {
	KUNIT_CASE(kpkt_register_by_addr),
	KUNIT_CASE(kpkt_register_by_symbol),
	KUNIT_CASE(kpkt_register_by_symbol_offset),
	KUNIT_CASE(kpkt_reject_addr_and_symbol),
	KUNIT_CASE(kpkt_reject_unknown_symbol),
	KUNIT_CASE(kpkt_reject_no_symbol),
	KUNIT_CASE(kpkt_null_args),
	KUNIT_CASE(kpkt_reject_empty_module_symbol),
	KUNIT_CASE(kpkt_reject_vsyscall),
	KUNIT_CASE(kpkt_offset_into_next_function),
	KUNIT_CASE(kpkt_reject_blacklisted),
	KUNIT_CASE(kpkt_reject_switch_to),
	KUNIT_CASE(kpkt_reject_patched_sites),
	KUNIT_CASE(kpkt_part_names),
	KUNIT_CASE(kpkt_reject_blacklisted_parts),
	KUNIT_CASE(kpkt_reject_mid_instruction),
	KUNIT_CASE(kpkt_ambiguous_symbol_first),
	KUNIT_CASE(kpkt_reject_registered_twice),
	KUNIT_CASE(kpkt_changed_fields),
	KUNIT_CASE(kpkt_mask_core_flags),
	KUNIT_CASE(kpkt_register_uninitialised),
	KUNIT_CASE(kpkt_every_instruction),
	KUNIT_CASE(kpkt_unregister_unregistered),
	KUNIT_CASE(kpkt_enable_disable_unregistered),
	KUNIT_CASE(kpkt_batch_rollback),
	KUNIT_CASE(kpkt_batch_register_unregister),
	KUNIT_CASE(kpkt_disabled_at_registration),
	KUNIT_CASE(kpkt_aggregate_entry),
	KUNIT_CASE(kpkt_aggregate_mid),
	KUNIT_CASE(kpkt_recursion_missed),
	KUNIT_CASE(kpkt_busy_sections),
	KUNIT_CASE(kpkt_redirect_ip),
	KUNIT_CASE(kpkt_modify_argument),
	KUNIT_CASE(kpkt_fault_in_handler),
	KUNIT_CASE(kpkt_fault_in_probed_insn),
	KUNIT_CASE(kpkt_optimizable),
	KUNIT_CASE(kpkt_func_entry_query),
	KUNIT_CASE(kpkt_slot_sizes),
	KUNIT_CASE(kpkt_gone_many),
	KUNIT_CASE_SLOW(kpkt_arm_disarm_stress),
	{}
};

static struct kunit_suite kpkt_suite = {
	.name = "kprobes_api",
	.suite_init = kpkt_suite_init,
	.init = kpkt_case_init,
	.test_cases = kpkt_cases,
};

kunit_test_suite(kpkt_suite);
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
