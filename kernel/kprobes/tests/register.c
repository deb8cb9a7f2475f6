// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suite "kprobes_register": registering, refusing, enabling, disabling
 * and unregistering a struct kprobe, black-box: only <linux/kprobes.h>
 * (kprobes_kunit.h has the layout).  Registration by address, by symbol
 * and by symbol + offset, every refusal with its error code, what a
 * registered struct kprobe does when its owner changes or re-registers
 * it, and batches that fail half-way.
 */

#include <linux/bsearch.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/sort.h>
#include <linux/static_call.h>
#include <linux/stringhash.h>
#include <linux/vmalloc.h>

#include "kprobes_kunit.h"

static void register_by_address(struct kunit *test)
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

static void register_by_symbol(struct kunit *test)
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
static void register_by_symbol_and_offset(struct kunit *test)
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

static void refuse_address_and_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, kpkt_arith, "kpkt_arith",
					       0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "addr and symbol_name");
	kpkt_run(test, &ref, "not probed");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
}

static void refuse_unknown_symbol(struct kunit *test)
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
static void null_arguments_refused_or_ignored(struct kunit *test)
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
static void refuse_empty_module_or_symbol(struct kunit *test)
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
static void refuse_user_text(struct kunit *test)
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
static void offset_past_end_is_next_function(struct kunit *test)
{
	unsigned long start = kpkt_arch_fn_addr(kpkt_arith), size, off, nsize;
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
static void refuse_address_without_symbol(struct kunit *test)
{
	void *heap = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct kpkt_probe *pp;

	KUNIT_ASSERT_NOT_NULL(test, heap);
	pp = kpkt_probe_new(test, heap, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -ENOENT, "heap address");
}

static void refuse_blacklisted(struct kunit *test)
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
static void refuse_switch_to(struct kunit *test)
{
	struct kpkt_probe *pp;

	if (IS_ENABLED(CONFIG_MIPS) || IS_ENABLED(CONFIG_PARISC))
		kunit_skip(test, "resume() (mips), _switch_to() (parisc): kpkt_arch_refused");
	if (IS_ENABLED(CONFIG_SPARC64))
		kunit_skip(test, "sparc64 switches tasks in switch_to(), inline assembly");
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
	unsigned long start = kpkt_arch_fn_addr(fn), size, off, addr;
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
static void refuse_patched_text_sites(struct kunit *test)
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

/* An address one byte into a multi-byte instruction: not a boundary. */
static void refuse_inside_instruction(struct kunit *test)
{
	struct kpkt_probe *pp;
	struct kpkt_text t;
	unsigned int i;

	unsigned int in = kpkt_arch_mid_insn_off();

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	for (i = 0; i < t.nr && t.len[i] <= in; i++)
		;
	KUNIT_ASSERT_LT_MSG(test, i, t.nr, "no instruction longer than %u", in);

	pp = kpkt_probe_new(test, (void *)(t.start + t.off[i] + in), NULL, 0);
	kpkt_expect_reject(test, &pp->kp, kpkt_arch_mid_insn_err(),
			   "addr inside an insn");
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", t.off[i] + in);
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
static void shared_name_takes_first_match(struct kunit *test)
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

static void refuse_second_registration(struct kunit *test)
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
static void fields_changed_after_registration(struct kunit *test)
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
static void core_flags_dropped(struct kunit *test)
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
static void register_uninitialised_struct(struct kunit *test)
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

/* Unregistering a probe that was never registered changes nothing. */
static void unregister_unregistered_changes_nothing(struct kunit *test)
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

static void enable_disable_unregistered_refused(struct kunit *test)
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
static void batch_failure_rolls_back(struct kunit *test)
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

static void batch_register_unregister(struct kunit *test)
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

static void register_disabled_then_enable(struct kunit *test)
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

/* kprobe_on_func_entry() tells function entries from other addresses. */
static void func_entry_query(struct kunit *test)
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

static struct kunit_case kprobes_register_cases[] = {
	KUNIT_CASE(register_by_address),
	KUNIT_CASE(register_by_symbol),
	KUNIT_CASE(register_by_symbol_and_offset),
	KUNIT_CASE(refuse_address_and_symbol),
	KUNIT_CASE(refuse_unknown_symbol),
	KUNIT_CASE(refuse_address_without_symbol),
	KUNIT_CASE(null_arguments_refused_or_ignored),
	KUNIT_CASE(refuse_empty_module_or_symbol),
	KUNIT_CASE(refuse_user_text),
	KUNIT_CASE(offset_past_end_is_next_function),
	KUNIT_CASE(refuse_blacklisted),
	KUNIT_CASE(refuse_switch_to),
	KUNIT_CASE(refuse_patched_text_sites),
	KUNIT_CASE(refuse_inside_instruction),
	KUNIT_CASE(shared_name_takes_first_match),
	KUNIT_CASE(refuse_second_registration),
	KUNIT_CASE(fields_changed_after_registration),
	KUNIT_CASE(core_flags_dropped),
	KUNIT_CASE(register_uninitialised_struct),
	KUNIT_CASE(unregister_unregistered_changes_nothing),
	KUNIT_CASE(enable_disable_unregistered_refused),
	KUNIT_CASE(batch_failure_rolls_back),
	KUNIT_CASE(batch_register_unregister),
	KUNIT_CASE(register_disabled_then_enable),
	KUNIT_CASE(func_entry_query),
	{}
};

static struct kunit_suite kprobes_register_suite = {
	.name = "kprobes_register",
	.suite_init = kpkt_suite_init,
	.init = kpkt_case_init,
	.test_cases = kprobes_register_cases,
};

kunit_test_suite(kprobes_register_suite);
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
