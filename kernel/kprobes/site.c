// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe sites: one per probed address.  A site has a state (internal.h
 * draws the diagram), members (the users' kprobes) and the dispatchers
 * that run every enabled member's handlers when it is hit.  The hit path
 * reads a site through the contract's view of it, struct kprobe_hit_site
 * (<linux/kprobes_arch.h>), with the inline kprobe_hit_*() helpers.
 *
 * Sites change under kprobe_mutex; the hit path reads them under RCU.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/slab.h>
#include <linux/uaccess.h>

/* GONE sites, linked through kprobe_site::next; kprobe_mutex. */
static struct kprobe_site *kprobe_gone_sites;

/*
 * Legal state changes, one bit per target state.  A site is NEW until it
 * is in the table, moves between DISARMED and ARMED while members come and
 * go, and ends DEAD, possibly after being GONE with its text.
 */
static const u8 kprobe_site_step[] = {
	[KPROBE_SITE_NEW]	= BIT(KPROBE_SITE_DISARMED) | BIT(KPROBE_SITE_DEAD),
	[KPROBE_SITE_DISARMED]	= BIT(KPROBE_SITE_ARMED) | BIT(KPROBE_SITE_GONE) |
				  BIT(KPROBE_SITE_DEAD),
	[KPROBE_SITE_ARMED]	= BIT(KPROBE_SITE_DISARMED) | BIT(KPROBE_SITE_GONE),
	[KPROBE_SITE_GONE]	= BIT(KPROBE_SITE_DEAD),
	[KPROBE_SITE_DEAD]	= 0,
};

/*
 * The only place a site changes state.  An illegal change is a core bug;
 * it is reported but still recorded, because the caller has already done
 * to the text what the new state describes.
 */
void kprobe_site_set_state(struct kprobe_site *site,
			   enum kprobe_site_state state)
{
	lockdep_assert_held(&kprobe_mutex);
	WARN_ONCE(!(kprobe_site_step[site->hit.state] & BIT(state)),
		  "kprobe site %pS: illegal state change %d -> %d\n",
		  site->hit.addr, site->hit.state, state);
	site->hit.state = state;
	/* Armed sites may get a jump; the others lose theirs. */
	kprobe_opt_update(site);
}

/*
 * Run the pre handler of every enabled member, each as current_kprobe;
 * stop at the first veto.  current_kprobe stays the last member that ran
 * (still non-NULL, which is all the rest of the hit needs): putting the
 * marker back would cost every such hit a store.
 */
notrace int kprobe_hit_pre_all(struct kprobe_hit_site *p, struct pt_regs *regs)
{
	struct kprobe_site *site = kprobe_to_site(p);
	struct kprobe *m;
	int ret = 0;

	list_for_each_entry_rcu(m, &site->members, list) {
		if (kprobe_member_off(m) || !m->pre_handler)
			continue;
		__this_cpu_write(current_kprobe, m);
		ret = m->pre_handler(m, regs);
		if (ret)
			break;
	}
	return ret;
}

NOKPROBE_SYMBOL(kprobe_hit_pre_all);

notrace void kprobe_hit_post_all(struct kprobe_hit_site *p,
				 struct pt_regs *regs)
{
	struct kprobe_site *site = kprobe_to_site(p);
	struct kprobe *m;

	list_for_each_entry_rcu(m, &site->members, list) {
		if (kprobe_member_off(m) || !m->post_handler)
			continue;
		__this_cpu_write(current_kprobe, m);
		m->post_handler(m, regs, 0);
	}
}

NOKPROBE_SYMBOL(kprobe_hit_post_all);

/* Every member of the site missed the hit, so each member's count grows. */
void kprobe_hit_missed(struct kprobe_hit_site *p)
{
	struct kprobe *m;

	list_for_each_entry_rcu(m, &kprobe_to_site(p)->members, list)
		m->nmissed++;
}

NOKPROBE_SYMBOL(kprobe_hit_missed);

/**
 * kprobes_inc_nmissed_count() - count a hit whose handlers were skipped
 * @p: the kprobe that missed it
 */
void kprobes_inc_nmissed_count(struct kprobe *p)
{
	p->nmissed++;
}

NOKPROBE_SYMBOL(kprobes_inc_nmissed_count);

/*
 * Recompute the member counts and @solo, the member that the hit path
 * (kprobe_hit_pre() and _post() in kprobes_arch.h) calls without walking
 * the list while it is the only enabled one.
 */
void kprobe_site_recount(struct kprobe_site *site)
{
	unsigned int enabled = 0, post = 0;
	struct kprobe *m, *solo = NULL;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(m, &site->members, list) {
		if (kprobe_disabled(m))
			continue;
		enabled++;
		solo = m;
		if (m->post_handler)
			post++;
	}
	/* The inline dispatch (internal.h) calls its pre handler unchecked. */
	if (enabled != 1 || !solo->pre_handler)
		solo = NULL;
	/*
	 * A hit that reads a stale @solo still calls a member that is valid
	 * for the hit (unregistration waits for a grace period); one that
	 * reads NULL walks the list.
	 */
	WRITE_ONCE(site->hit.solo, solo);
	/*
	 * Read by the architecture on the first trap to decide whether to
	 * come back for a post handler at all.
	 */
	WRITE_ONCE(site->hit.post, post != 0);
	/* A post handler, or no enabled member, rules out a jump. */
	kprobe_opt_update(site);
}

/*
 * Does any member of @site take hits?  Asked only where registrations
 * change or sites are armed, of a site with one member or a few.
 */
bool kprobe_site_enabled(const struct kprobe_site *site)
{
	struct kprobe *m;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry(m, &site->members, list)
		if (!kprobe_disabled(m))
			return true;
	return false;
}

struct kprobe_site *kprobe_site_alloc(kprobe_opcode_t *addr)
{
	struct kprobe_site *site = kzalloc(sizeof(*site), GFP_KERNEL);

	/* The state lives in a byte of the hit record's padding. */
	BUILD_BUG_ON(KPROBE_SITE_DEAD > U8_MAX);
	if (!site)
		return NULL;
	site->hit.addr = addr;
	INIT_LIST_HEAD(&site->members);
	site->hit.state = KPROBE_SITE_NEW;
	return site;
}

/* @site has just become GONE: out of the table, onto the GONE list. */
void kprobe_site_gone_add(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	site->next = kprobe_gone_sites;
	kprobe_gone_sites = site;
}

/* @site, GONE, is about to be DEAD: off the GONE list. */
void kprobe_site_gone_del(struct kprobe_site *site)
{
	struct kprobe_site **link;

	lockdep_assert_held(&kprobe_mutex);
	for (link = &kprobe_gone_sites; *link; link = &(*link)->next) {
		if (*link == site) {
			*link = site->next;
			site->next = NULL;
			return;
		}
	}
	WARN_ONCE(1, "kprobe site %pS: GONE but not on the GONE list\n",
		  site->hit.addr);
}

/**
 * kprobe_site_next() - the site after @site in for_each_kprobe_site()
 * @site: a live or GONE site, or NULL for the first one
 *
 * Live sites come in table order, then GONE ones, newest first.
 * Context: kprobe_mutex held since the walk began.
 * Return: the next site, or NULL after the last.
 */
struct kprobe_site *kprobe_site_next(struct kprobe_site *site)
{
	unsigned long pos = 0;
	struct kprobe_site *next;

	lockdep_assert_held(&kprobe_mutex);
	if (site && site->hit.state == KPROBE_SITE_GONE)
		return site->next;
	if (site)
		pos = kprobe_table_pos(site) + 1;
	next = kprobe_table_next(&pos);
	return next ?: kprobe_gone_sites;
}

/* Free a prepared site; no CPU may still see it (after a grace period). */
void kprobe_site_free(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	arch_remove_kprobe(&site->hit);
	kfree(site);
}

/**
 * get_kprobe() - a kprobe registered at @addr
 * @addr: a probed address
 *
 * Context: preemption disabled, or an RCU reader, or kprobe_mutex held;
 * the kprobe may be unregistered once that ends.
 * Return: the first of the kprobes at @addr, or NULL when nothing probes
 * @addr.
 */
struct kprobe *get_kprobe(void *addr)
{
	struct kprobe_site *site = kprobe_site_find((unsigned long)addr);

	return site ? list_first_or_null_rcu(&site->members, struct kprobe,
					     list) : NULL;
}

NOKPROBE_SYMBOL(get_kprobe);

/*
 * The site @p is a member of, or NULL if @p is not registered: the
 * registry's answer.  None of @p's fields is read (see registry.c).
 */
struct kprobe_site *kprobe_site_of_member(struct kprobe *p)
{
	return kprobe_registry_site(p);
}

/**
 * kprobe_copy_original_text() - read text as it was before any probe
 * @dst: buffer of @len bytes
 * @addr: kernel text address
 * @len: bytes to copy
 *
 * Every armed breakpoint inside the range is replaced by the original
 * bytes its site saved, so the instruction decoder sees the real code.
 * Sites armed through ftrace left the text to ftrace and are not undone.
 *
 * Context: kprobe_mutex held, so that no site is armed meanwhile.
 * Return: 0, or -EFAULT if the text cannot be read.
 */
int kprobe_copy_original_text(void *dst, unsigned long addr, size_t len)
{
	struct kprobe_site *site;
	size_t i;

	lockdep_assert_held(&kprobe_mutex);
	if (copy_from_kernel_nofault(dst, (void *)addr, len))
		return -EFAULT;
	for (i = 0; i < len; i++) {
		site = kprobe_site_find(addr + i);
		if (site && site->hit.state == KPROBE_SITE_ARMED &&
		    !kprobe_ftrace(&site->hit))
			memcpy(dst + i, &site->hit.opcode,
			       min(sizeof(site->hit.opcode), len - i));
	}
	/* An optimized site's jump covers more than its first byte. */
	kprobe_opt_original_text(dst, addr, len);
	return 0;
}
