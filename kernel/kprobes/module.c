// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probes on module text.
 *
 * Registration holds a reference on the module only while it runs, so a
 * probed module can still be unloaded.  When it goes (MODULE_STATE_GOING),
 * or when its init text is freed (MODULE_STATE_LIVE), the sites on that
 * text become GONE: out of the table, never written again, kept on the
 * GONE list until their members are unregistered.  The module's own
 * NOKPROBE_SYMBOL()s, .kprobes.text and noinstr text join the blacklist
 * while it is loaded.  Symbol lookups of module addresses go through a
 * per-module index (below).
 *
 * Built only with CONFIG_MODULES (see the stubs in internal.h).
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/module.h>
#include <linux/module_symbol.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/sort.h>

/*
 * Symbol index of a module.  kallsyms finds the function around a module
 * address by scanning every symbol of the module, and registration asks
 * two or three times per probe: probing many functions of a big module
 * took time quadratic in its size.  The first question about a module
 * builds a sorted array of its symbol addresses; later ones are a binary
 * search.  The index is dropped when the module's init text is freed
 * (the symbols of init text go with it) and when the module goes.
 */
struct kprobe_symidx {
	struct list_head list;
	struct module *mod;
	unsigned int nr;
	unsigned int cap;
	unsigned long addr[] __counted_by(cap);
};

/* Every index; kprobe_mutex. */
static LIST_HEAD(kprobe_symidxs);

static int kprobe_symidx_count(void *data, const char *name,
			       unsigned long addr)
{
	(*(unsigned int *)data)++;
	return 0;
}

/* The symbols kallsyms would consider (find_kallsyms_symbol()). */
static int kprobe_symidx_add(void *data, const char *name,
			     unsigned long addr)
{
	struct kprobe_symidx *idx = data;

	if (!*name || is_mapping_symbol(name))
		return 0;
	/* The module may have gained a symbol since the count: stop. */
	if (idx->nr == idx->cap)
		return 1;
	idx->addr[idx->nr++] = addr;
	return 0;
}

static int kprobe_symidx_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static struct kprobe_symidx *kprobe_symidx_get(struct module *mod)
{
	struct kprobe_symidx *idx;
	unsigned int n = 0;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(idx, &kprobe_symidxs, list)
		if (idx->mod == mod)
			return idx;

	module_kallsyms_on_each_symbol(mod->name, kprobe_symidx_count, &n);
	idx = kvmalloc(struct_size(idx, addr, n), GFP_KERNEL);
	if (!idx)
		return NULL;
	idx->mod = mod;
	idx->nr = 0;
	idx->cap = n;
	module_kallsyms_on_each_symbol(mod->name, kprobe_symidx_add, idx);
	sort(idx->addr, idx->nr, sizeof(idx->addr[0]), kprobe_symidx_cmp, NULL);
	list_add(&idx->list, &kprobe_symidxs);
	return idx;
}

static void kprobe_symidx_drop(struct module *mod)
{
	struct kprobe_symidx *idx;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(idx, &kprobe_symidxs, list) {
		if (idx->mod == mod) {
			list_del(&idx->list);
			kvfree(idx);
			return;
		}
	}
}

/* The module text area around @addr, as kallsyms bounds a lookup. */
static bool kprobe_module_area(struct module *mod, unsigned long addr,
			       unsigned long *start, unsigned long *end)
{
	for_each_mod_mem_type(type) {
		if (mod_mem_type_is_text(type) &&
		    within_module_mem_type(addr, mod, type)) {
			*start = (unsigned long)mod->mem[type].base;
			*end = *start + mod->mem[type].size;
			return true;
		}
	}
	return false;
}

bool kprobe_module_sym_size_offset(unsigned long addr, unsigned long *size,
				   unsigned long *offset)
{
	unsigned long start, end, best, next;
	struct kprobe_symidx *idx;
	unsigned int lo, hi, mid;
	struct module *mod;

	lockdep_assert_held(&kprobe_mutex);
	preempt_disable();
	mod = __module_text_address(addr);
	/*
	 * Not GOING: its GOING notification, which drops the index, is still
	 * to come and waits for kprobe_mutex, so the module stays meanwhile.
	 */
	if (mod && READ_ONCE(mod->state) == MODULE_STATE_GOING)
		mod = NULL;
	preempt_enable();
	if (!mod || !kprobe_module_area(mod, addr, &start, &end))
		return kallsyms_lookup_size_offset(addr, size, offset);
	idx = kprobe_symidx_get(mod);
	if (!idx)
		return kallsyms_lookup_size_offset(addr, size, offset);

	/* lo: the number of symbols at or below @addr. */
	lo = 0;
	hi = idx->nr;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (idx->addr[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || idx->addr[lo - 1] < start)
		return false;
	best = idx->addr[lo - 1];
	next = lo < idx->nr ? min(idx->addr[lo], end) : end;
	*size = next - best;
	*offset = addr - best;
	return true;
}

int kprobe_module_text_get(unsigned long addr, struct module **modp,
			   const char **why)
{
	struct module *mod;
	int ret = 0;

	/* preempt_disable() keeps the module list stable for the lookup. */
	preempt_disable();
	mod = __module_text_address(addr);
	if (!mod) {
		*why = "not in kernel or module text";
		ret = -EINVAL;
	} else if (!try_module_get(mod)) {
		*why = "its module is going away";
		ret = -ENOENT;
	} else if (within_module_init(addr, mod) && !module_is_coming(mod)) {
		/* Init text of a live module is about to be freed. */
		module_put(mod);
		*why = "in module init text that is being freed";
		ret = -ENOENT;
	}
	preempt_enable();
	*modp = ret ? NULL : mod;
	return ret;
}

static int kprobe_module_blacklist(struct module *mod)
{
	unsigned long start;
	unsigned int i;

	kprobe_blacklist_begin();
	for (i = 0; i < mod->num_kprobe_blacklist; i++)
		kprobe_add_ksym_blacklist(mod->kprobe_blacklist[i]);
	start = (unsigned long)mod->kprobes_text_start;
	kprobe_blacklist_add(start, start + mod->kprobes_text_size,
			     KPROBE_BL_KPROBES_TEXT);
	start = (unsigned long)mod->noinstr_text_start;
	kprobe_blacklist_add(start, start + mod->noinstr_text_size,
			     KPROBE_BL_NOINSTR);
	return kprobe_blacklist_end();
}

static bool kprobe_in_module_init(unsigned long addr, void *mod)
{
	return within_module_init(addr, mod);
}

static bool kprobe_in_module(unsigned long addr, void *mod)
{
	return within_module(addr, mod);
}

/* Retire the live sites on @mod's init text (@init_only) or on all of it. */
static void kprobe_module_kill(struct module *mod, bool init_only)
{
	kprobe_kill_sites(init_only ? kprobe_in_module_init : kprobe_in_module,
			  mod);
}

static int kprobe_module_notify(struct notifier_block *nb,
				unsigned long state, void *data)
{
	struct module *mod = data;
	int ret = 0;

	switch (state) {
	case MODULE_STATE_COMING:
		/* Loading a module whose NOKPROBE code is unprotected is worse. */
		ret = kprobe_module_blacklist(mod);
		if (ret)
			pr_warn("cannot blacklist the kprobe-unsafe code of %s (%d)\n",
				mod->name, ret);
		break;
	case MODULE_STATE_LIVE:
		kprobe_module_kill(mod, true);
		break;
	case MODULE_STATE_GOING:
		kprobe_module_kill(mod, false);
		kprobe_blacklist_remove_module(mod);
		break;
	}
	/* Init symbols leave with the init text; everything with the module. */
	if (state == MODULE_STATE_LIVE || state == MODULE_STATE_GOING) {
		mutex_lock(&kprobe_mutex);
		kprobe_symidx_drop(mod);
		mutex_unlock(&kprobe_mutex);
	}
	return notifier_from_errno(ret);
}

static struct notifier_block kprobe_module_nb = {
	.notifier_call = kprobe_module_notify,
};

int __init kprobe_module_init(void)
{
	return register_module_notifier(&kprobe_module_nb);
}
