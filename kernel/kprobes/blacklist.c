// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The blacklist: text that must never get a probe (the kprobes machinery
 * itself, entry code, noinstr code, whatever NOKPROBE_SYMBOL() marks).
 *
 * All ranges sit in one array sorted by start address, published with RCU
 * and replaced as a whole on every change (boot, module load and unload).
 * A lookup is a binary search plus, when ranges overlap, a short walk back
 * bounded by @reach: every registration asks, so this must stay cheap.
 *
 * kprobe_bl_lock serialises writers; it nests inside kprobe_mutex.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <asm/sections.h>

/**
 * struct kprobe_bl_range - one blacklisted range
 * @start: first byte
 * @end: one past the last byte
 * @reach: the largest @end among this range and those sorted before it
 * @kind: enum kprobe_bl_kind
 */
struct kprobe_bl_range {
	unsigned long start;
	unsigned long end;
	unsigned long reach;
	enum kprobe_bl_kind kind;
};

struct kprobe_bl_table {
	unsigned int nr;
	struct rcu_head rcu;
	struct kprobe_bl_range range[];
};

static struct kprobe_bl_table __rcu *kprobe_bl;
static DEFINE_MUTEX(kprobe_bl_lock);

/*
 * Ranges collected between kprobe_blacklist_begin() and _end(), by the task
 * that called begin (the arch callbacks at boot add through the public
 * helpers, which land here).
 */
static struct kprobe_bl_table *kprobe_bl_pending;
static unsigned int kprobe_bl_pending_max;
static struct task_struct *kprobe_bl_collector;

static const char *const kprobe_bl_why[] = {
	[KPROBE_BL_SYMBOL]	 = "in the kprobe blacklist",
	[KPROBE_BL_KPROBES_TEXT] = "in .kprobes.text",
	[KPROBE_BL_NOINSTR]	 = "in noinstr text",
	[KPROBE_BL_ENTRY]	 = "in entry text",
	[KPROBE_BL_AREA]	 = "in a blacklisted area",
};

static struct kprobe_bl_table *kprobe_bl_alloc(unsigned int nr)
{
	struct kprobe_bl_table *t;

	t = kvmalloc(struct_size(t, range, nr), GFP_KERNEL);
	if (t)
		t->nr = 0;
	return t;
}

/* By start, then end, then kind: the most specific kind of a range first. */
static int kprobe_bl_cmp(const void *a, const void *b)
{
	const struct kprobe_bl_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

/*
 * Sort @t, drop ranges listed twice (the core and the architecture may both
 * add entry text), fill in the reach of each range and make it the
 * blacklist.
 */
static void kprobe_bl_publish(struct kprobe_bl_table *t)
{
	struct kprobe_bl_table *old;
	unsigned long reach = 0;
	unsigned int i, n = 0;

	lockdep_assert_held(&kprobe_bl_lock);
	sort(t->range, t->nr, sizeof(t->range[0]), kprobe_bl_cmp, NULL);
	for (i = 0; i < t->nr; i++) {
		if (n && t->range[i].start == t->range[n - 1].start &&
		    t->range[i].end == t->range[n - 1].end)
			continue;
		t->range[n] = t->range[i];
		reach = max(reach, t->range[n].end);
		t->range[n++].reach = reach;
	}
	t->nr = n;
	old = rcu_replace_pointer(kprobe_bl, t,
				  lockdep_is_held(&kprobe_bl_lock));
	if (old)
		kvfree_rcu(old, rcu);
}

/* Publish the current ranges plus the @nr in @extra. */
static int kprobe_bl_merge(const struct kprobe_bl_range *extra,
			   unsigned int nr)
{
	struct kprobe_bl_table *old, *t;

	lockdep_assert_held(&kprobe_bl_lock);
	old = rcu_dereference_protected(kprobe_bl,
					lockdep_is_held(&kprobe_bl_lock));
	t = kprobe_bl_alloc((old ? old->nr : 0) + nr);
	if (!t)
		return -ENOMEM;
	if (old)
		memcpy(t->range, old->range, old->nr * sizeof(old->range[0]));
	t->nr = old ? old->nr : 0;
	memcpy(t->range + t->nr, extra, nr * sizeof(extra[0]));
	t->nr += nr;
	kprobe_bl_publish(t);
	return 0;
}

static int kprobe_bl_collect(const struct kprobe_bl_range *r)
{
	struct kprobe_bl_table *t = kprobe_bl_pending;
	unsigned int cap;

	if (!t)		/* an earlier addition already failed */
		return -ENOMEM;
	if (t->nr == kprobe_bl_pending_max) {
		cap = 2 * kprobe_bl_pending_max;
		t = kvrealloc(t, struct_size(t, range, cap), GFP_KERNEL);
		if (!t) {
			kvfree(kprobe_bl_pending);
			kprobe_bl_pending = NULL;
			return -ENOMEM;
		}
		kprobe_bl_pending = t;
		kprobe_bl_pending_max = cap;
	}
	t->range[t->nr++] = *r;
	return 0;
}

/**
 * kprobe_blacklist_add() - refuse probes in [@start, @end)
 * @start: first byte
 * @end: one past the last byte
 * @kind: why, for the refusal message
 *
 * Return: 0, -EINVAL for an empty range, or -ENOMEM.
 */
int kprobe_blacklist_add(unsigned long start, unsigned long end,
			 enum kprobe_bl_kind kind)
{
	struct kprobe_bl_range r = { .start = start, .end = end, .kind = kind };
	int ret;

	if (start >= end)
		return -EINVAL;
	if (READ_ONCE(kprobe_bl_collector) == current)
		return kprobe_bl_collect(&r);
	mutex_lock(&kprobe_bl_lock);
	ret = kprobe_bl_merge(&r, 1);
	mutex_unlock(&kprobe_bl_lock);
	return ret;
}

/* Start a batch of additions; only the calling task may add until _end(). */
void kprobe_blacklist_begin(void)
{
	mutex_lock(&kprobe_bl_lock);
	kprobe_bl_pending_max = 64;
	kprobe_bl_pending = kprobe_bl_alloc(kprobe_bl_pending_max);
	WRITE_ONCE(kprobe_bl_collector, current);
}

/*
 * Parts of functions
 * ------------------
 * The compiler splits a function or specialises it into parts named after
 * it: foo.cold (the unlikely paths), foo.isra.0, foo.constprop.0,
 * foo.part.0, foo.llvm.123 (clang LTO), or several of those in a row.  A
 * part of a blacklisted function runs in the same context as the function,
 * so it is blacklisted too, and so are the function and its other parts
 * when NOKPROBE_SYMBOL() caught only a part (the address it recorded is
 * named foo.llvm.123, say).
 *
 * The names are matched when a batch is published (at boot for vmlinux,
 * at load for a module), with one walk over the symbols of the image the
 * batch is about.  The walk only looks closer at names with a dot, and the
 * functions of the batch are a sorted array of names, searched with
 * bsearch(): the boot cost is the walk itself.
 */

/* Suffix tags, and whether the number after the tag may be missing. */
static const struct {
	const char *tag;
	bool bare;
} kprobe_part_tags[] = {
	{ "cold", true }, { "isra", false }, { "constprop", false },
	{ "part", false }, { "llvm", false },
};

/* Step over one ".tag[.N]" of @s; NULL if @s does not start with one. */
static const char *kprobe_part_skip_tag(const char *s)
{
	unsigned int i;
	size_t len;

	if (*s++ != '.')
		return NULL;
	for (i = 0; i < ARRAY_SIZE(kprobe_part_tags); i++) {
		len = strlen(kprobe_part_tags[i].tag);
		if (!strncmp(s, kprobe_part_tags[i].tag, len) &&
		    (s[len] == '.' || !s[len]))
			break;
	}
	if (i == ARRAY_SIZE(kprobe_part_tags))
		return NULL;
	s += len;
	if (s[0] == '.' && isdigit(s[1])) {
		for (s++; isdigit(*s); s++)
			;
	} else if (!kprobe_part_tags[i].bare) {
		return NULL;
	}
	return s;
}

/**
 * kprobe_part_base_len() - is @name a part of another function?
 * @name: a symbol name
 *
 * Return: the length of the function name that @name is a part of
 * ("foo" for foo.cold, foo.isra.0, foo.constprop.0.isra.0, ...), or 0 if
 * @name is not such a part.
 */
size_t kprobe_part_base_len(const char *name)
{
	const char *dot = strchr(name, '.'), *s = dot;

	if (!dot || dot == name)
		return 0;
	while (s && *s)
		s = kprobe_part_skip_tag(s);
	return s ? dot - name : 0;
}

/**
 * struct kprobe_bl_base - the name of a blacklisted function
 * @name: without any part suffix
 * @whole: the symbol of that name itself is to be added too (only a part
 *	of it was blacklisted)
 */
struct kprobe_bl_base {
	char *name;
	bool whole;
};

/**
 * struct kprobe_bl_parts - what the symbol walk looks for
 * @base: the blacklisted functions, sorted by name, unique
 * @nr: entries in @base
 * @whole: some entry has @whole set
 */
struct kprobe_bl_parts {
	struct kprobe_bl_base *base;
	unsigned int nr;
	bool whole;
};

static int kprobe_bl_base_sort(const void *a, const void *b)
{
	const struct kprobe_bl_base *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Binary search for the name made of the first @len bytes of @key. */
static struct kprobe_bl_base *kprobe_bl_base_find(struct kprobe_bl_parts *pt,
						  const char *key, size_t len)
{
	unsigned int lo = 0, hi = pt->nr, mid;
	int cmp;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		cmp = strncmp(key, pt->base[mid].name, len);
		if (!cmp && pt->base[mid].name[len])
			cmp = -1;	/* the entry is longer than the key */
		if (!cmp)
			return &pt->base[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The kallsyms walk: blacklist each part (or whole) of a listed function. */
static int kprobe_bl_part_sym(void *data, const char *name, unsigned long addr)
{
	struct kprobe_bl_parts *pt = data;
	struct kprobe_bl_range r = { .kind = KPROBE_BL_SYMBOL };
	struct kprobe_bl_base *b;
	unsigned long size, off;
	size_t len;

	len = kprobe_part_base_len(name);
	if (len) {
		b = kprobe_bl_base_find(pt, name, len);
	} else {
		if (!pt->whole)
			return 0;
		b = kprobe_bl_base_find(pt, name, strlen(name));
		if (b && !b->whole)
			b = NULL;
	}
	if (!b)
		return 0;
	if (!core_kernel_text(addr) && !is_module_text_address(addr))
		return 0;
	if (!kallsyms_lookup_size_offset(addr, &size, &off) || off || !size)
		return 0;
	r.start = addr;
	r.end = addr + size;
	/* A failure is final for the batch: kprobe_blacklist_end() sees it. */
	kprobe_bl_collect(&r);
	return 0;
}

/* Collect the NOKPROBE_SYMBOL() functions of the pending batch, by name. */
static int kprobe_bl_parts_init(struct kprobe_bl_parts *pt,
				const struct kprobe_bl_table *t)
{
	unsigned int i, n;
	size_t len;
	char *sym;

	pt->base = kvcalloc(t->nr, sizeof(*pt->base), GFP_KERNEL);
	sym = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!pt->base || !sym)
		goto nomem;
	for (i = 0; i < t->nr; i++) {
		if (t->range[i].kind != KPROBE_BL_SYMBOL ||
		    lookup_symbol_name(t->range[i].start, sym))
			continue;
		len = kprobe_part_base_len(sym);
		pt->base[pt->nr].whole = len;
		pt->base[pt->nr].name = kstrndup(sym, len ?: strlen(sym),
						 GFP_KERNEL);
		if (!pt->base[pt->nr].name)
			goto nomem;
		pt->nr++;
	}
	kfree(sym);
	sort(pt->base, pt->nr, sizeof(*pt->base), kprobe_bl_base_sort, NULL);
	/* One entry per name; "whole" if any of its entries said so. */
	for (i = 0, n = 0; i < pt->nr; i++) {
		if (n && !strcmp(pt->base[n - 1].name, pt->base[i].name)) {
			pt->base[n - 1].whole |= pt->base[i].whole;
			kfree(pt->base[i].name);
			continue;
		}
		pt->base[n++] = pt->base[i];
	}
	pt->nr = n;
	for (i = 0; i < n; i++)
		pt->whole |= pt->base[i].whole;
	return 0;

nomem:
	kfree(sym);
	return -ENOMEM;
}

static void kprobe_bl_parts_free(struct kprobe_bl_parts *pt)
{
	unsigned int i;

	for (i = 0; pt->base && i < pt->nr; i++)
		kfree(pt->base[i].name);
	kvfree(pt->base);
}

/*
 * Add the parts of the pending batch's NOKPROBE_SYMBOL() functions to it.
 * A batch is about vmlinux (boot) or one module (its load): the first
 * symbol range says which image to walk.
 */
static int kprobe_bl_add_parts(void)
{
	struct kprobe_bl_table *t = kprobe_bl_pending;
	struct kprobe_bl_parts pt = {};
	char modname[MODULE_NAME_LEN];
	struct module *mod = NULL;
	unsigned long first = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < t->nr && !first; i++)
		if (t->range[i].kind == KPROBE_BL_SYMBOL)
			first = t->range[i].start;
	if (!first)
		return 0;
	if (!core_kernel_text(first)) {
		preempt_disable();
		mod = __module_address(first);
		if (mod)
			strscpy(modname, module_name(mod), sizeof(modname));
		preempt_enable();
		if (!mod)
			return 0;
	}

	ret = kprobe_bl_parts_init(&pt, t);
	if (!ret && pt.nr) {
		if (mod)
			module_kallsyms_on_each_symbol(modname, kprobe_bl_part_sym,
						       &pt);
		else
			kallsyms_on_each_symbol(kprobe_bl_part_sym, &pt);
	}
	kprobe_bl_parts_free(&pt);
	return ret;
}

/* Publish the batch; -ENOMEM if any addition failed (none is published). */
int kprobe_blacklist_end(void)
{
	struct kprobe_bl_table *t;
	int ret = -ENOMEM;

	if (kprobe_bl_pending && kprobe_bl_add_parts()) {
		kvfree(kprobe_bl_pending);
		kprobe_bl_pending = NULL;
	}
	t = kprobe_bl_pending;
	WRITE_ONCE(kprobe_bl_collector, NULL);
	kprobe_bl_pending = NULL;
	if (t)
		ret = kprobe_bl_merge(t->range, t->nr);
	kvfree(t);
	mutex_unlock(&kprobe_bl_lock);
	return ret;
}

/* Forget every range inside @mod (it is going away). */
void kprobe_blacklist_remove_module(struct module *mod)
{
	struct kprobe_bl_table *old, *t;
	unsigned int i;

	mutex_lock(&kprobe_bl_lock);
	old = rcu_dereference_protected(kprobe_bl,
					lockdep_is_held(&kprobe_bl_lock));
	t = old ? kprobe_bl_alloc(old->nr) : NULL;
	if (t) {
		for (i = 0; i < old->nr; i++)
			if (!within_module(old->range[i].start, mod))
				t->range[t->nr++] = old->range[i];
		kprobe_bl_publish(t);
	}
	/* Without memory the stale ranges stay; they only refuse probes. */
	mutex_unlock(&kprobe_bl_lock);
}

/**
 * kprobe_add_ksym_blacklist() - blacklist the function containing @entry
 * @entry: an address inside a function
 *
 * Return: the size of the function, or a negative errno.
 */
int kprobe_add_ksym_blacklist(unsigned long entry)
{
	unsigned long size, offset;
	int ret;

	if (!kallsyms_lookup_size_offset(entry, &size, &offset))
		return -EINVAL;
	ret = kprobe_blacklist_add(entry - offset, entry - offset + size,
				   KPROBE_BL_SYMBOL);
	return ret ?: size;
}

/**
 * kprobe_add_area_blacklist() - blacklist [@start, @end)
 * @start: first byte
 * @end: one past the last byte
 *
 * Return: 0 or a negative errno.
 */
int kprobe_add_area_blacklist(unsigned long start, unsigned long end)
{
	return kprobe_blacklist_add(start, end, KPROBE_BL_AREA);
}

/**
 * kprobe_blacklist_ksyms() - blacklist functions given by name
 * @names: symbol names; one the build lacks is skipped
 * @nr: how many
 *
 * For a back-end's arch_populate_kprobe_blacklist(): the trap path's
 * assembly, which has no C declaration to take the address of, and static
 * helpers of the base.
 *
 * Return: 0 or a negative errno.
 */
int kprobe_blacklist_ksyms(const char *const *names, unsigned int nr)
{
	unsigned long entry;
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++) {
		entry = kallsyms_lookup_name(names[i]);
		if (!entry)
			continue;
		ret = kprobe_add_ksym_blacklist(entry);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/**
 * arch_populate_kprobe_blacklist() - add the architecture's ranges at boot
 *
 * Return: 0 or a negative errno.  The default adds nothing.
 */
int __weak arch_populate_kprobe_blacklist(void)
{
	return 0;
}

/**
 * arch_within_kprobe_blacklist() - architecture-specific refusals
 * @addr: a text address
 *
 * Return: true to refuse probes at @addr.  The default refuses nothing.
 */
bool __weak arch_within_kprobe_blacklist(unsigned long addr)
{
	return false;
}

static const struct kprobe_bl_range *
kprobe_bl_find(const struct kprobe_bl_table *t, unsigned long addr)
{
	unsigned int lo = 0, hi = t->nr, mid;

	/* lo = the number of ranges starting at or before addr */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->range[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Walk back while some range at or before lo can still cover addr. */
	while (lo-- > 0 && t->range[lo].reach > addr)
		if (t->range[lo].end > addr)
			return &t->range[lo];
	return NULL;
}

/**
 * kprobe_blacklist_reason() - why @addr may not be probed
 * @addr: a text address
 *
 * Return: a short phrase for the refusal message, or NULL if @addr is not
 * blacklisted.
 */
const char *kprobe_blacklist_reason(unsigned long addr)
{
	const struct kprobe_bl_table *t;
	const struct kprobe_bl_range *r;
	const char *why = NULL;

	rcu_read_lock();
	t = rcu_dereference(kprobe_bl);
	r = t ? kprobe_bl_find(t, addr) : NULL;
	if (r)
		why = kprobe_bl_why[r->kind];
	rcu_read_unlock();
	if (!why && arch_within_kprobe_blacklist(addr))
		why = "reserved by the architecture";
	return why;
}

/**
 * within_kprobe_blacklist() - may @addr never be probed?
 * @addr: a text address
 *
 * Return: true if @addr is blacklisted.
 */
bool within_kprobe_blacklist(unsigned long addr)
{
	return kprobe_blacklist_reason(addr);
}

int __init kprobe_blacklist_init(void)
{
	unsigned long *entry;

	kprobe_blacklist_begin();
	for (entry = __start_kprobe_blacklist;
	     entry < __stop_kprobe_blacklist; entry++)
		kprobe_add_ksym_blacklist(*entry);
	kprobe_blacklist_add((unsigned long)__kprobes_text_start,
			     (unsigned long)__kprobes_text_end,
			     KPROBE_BL_KPROBES_TEXT);
	if ((unsigned long)__entry_text_end != (unsigned long)__entry_text_start)
		kprobe_blacklist_add((unsigned long)__entry_text_start,
				     (unsigned long)__entry_text_end,
				     KPROBE_BL_ENTRY);
	kprobe_blacklist_add((unsigned long)__noinstr_text_start,
			     (unsigned long)__noinstr_text_end,
			     KPROBE_BL_NOINSTR);
	arch_populate_kprobe_blacklist();
	return kprobe_blacklist_end();
}

/*
 * debugfs "blacklist": one function per line, "0xSTART-0xEND<TAB>name",
 * as the implementation this one replaces prints it: scripts grep it for
 * a function's name.  A range that covers several functions (entry text,
 * noinstr text, .kprobes.text, an architecture's area) is cut at the
 * symbols kallsyms knows inside it; the table keeps it whole, for the
 * lookups.  The ranges come in the table's order (by start), so a
 * function that has a range of its own inside an area is listed twice,
 * the second time after the area's last function: the old code's list
 * had such repeats and was not in address order either.
 *
 * The cursor is a line: its range in the table and its bounds.  Every
 * start() walks from the first line to *pos, because the table may have
 * been replaced since the last read (a module came or went); a few
 * hundred lines of kallsyms lookups cost nothing next to a read(2).
 */
struct kprobe_bl_cursor {
	const struct kprobe_bl_table *t;
	unsigned int idx;
	unsigned long start;
	unsigned long end;
};

/* The end of the line that starts at @c->start in range @c->idx. */
static void kprobe_bl_cut(struct kprobe_bl_cursor *c)
{
	unsigned long range_end = c->t->range[c->idx].end;
	unsigned long size, off;

	c->end = range_end;
	if (kallsyms_lookup_size_offset(c->start, &size, &off) && size > off)
		c->end = min(range_end, c->start - off + size);
}

/* Move @c to the next line; false past the last. */
static bool kprobe_bl_step(struct kprobe_bl_cursor *c)
{
	if (c->end < c->t->range[c->idx].end) {
		c->start = c->end;
	} else {
		if (++c->idx >= c->t->nr)
			return false;
		c->start = c->t->range[c->idx].start;
	}
	kprobe_bl_cut(c);
	return true;
}

static void *kprobe_bl_seq_start(struct seq_file *m, loff_t *pos)
	__acquires(RCU)
{
	struct kprobe_bl_cursor *c = m->private;
	loff_t i;

	rcu_read_lock();
	c->t = rcu_dereference(kprobe_bl);
	if (!c->t || !c->t->nr)
		return NULL;
	c->idx = 0;
	c->start = c->t->range[0].start;
	kprobe_bl_cut(c);
	for (i = 0; i < *pos; i++)
		if (!kprobe_bl_step(c))
			return NULL;
	return c;
}

static void *kprobe_bl_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return kprobe_bl_step(v) ? v : NULL;
}

static void kprobe_bl_seq_stop(struct seq_file *m, void *v)
	__releases(RCU)
{
	rcu_read_unlock();
}

static int kprobe_bl_seq_show(struct seq_file *m, void *v)
{
	const struct kprobe_bl_cursor *c = v;
	bool show = kallsyms_show_value(m->file->f_cred);

	seq_printf(m, "0x%0*lx-0x%0*lx\t%ps\n",
		   KPROBE_ADDR_WIDTH, show ? c->start : 0,
		   KPROBE_ADDR_WIDTH, show ? c->end : 0, (void *)c->start);
	return 0;
}

static const struct seq_operations kprobe_bl_seq_sops = {
	.start	= kprobe_bl_seq_start,
	.next	= kprobe_bl_seq_next,
	.stop	= kprobe_bl_seq_stop,
	.show	= kprobe_bl_seq_show,
};

static int kprobe_bl_seq_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &kprobe_bl_seq_sops,
				sizeof(struct kprobe_bl_cursor));
}

static const struct file_operations kprobe_bl_seq_fops = {
	.open		= kprobe_bl_seq_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

void __init kprobe_blacklist_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("blacklist", 0400, dir, NULL, &kprobe_bl_seq_fops);
}
