// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The address table the trap path searches: site pointers by address.
 * A data structure only: what a site is and when it goes in or out is
 * site.c's business.
 *
 * The table is an open-addressing array of site pointers, indexed by a hash
 * of the probed address and searched by linear probing.  A removed entry
 * becomes a tombstone so that searches keep walking past it.  When live
 * entries plus tombstones pass half of the array, or live entries are
 * below an eighth of it when a caller is done removing
 * (kprobe_table_trim()), the array is rebuilt at three times the live
 * count rounded up to a power of two (three to six buckets per site right
 * after, two or more until the next rebuild), and the new one is
 * published with rcu_assign_pointer(); the old one is freed after a grace
 * period.  So the lookup on the breakpoint path is a few loads, takes no
 * lock and never allocates, and there is always an empty bucket to stop
 * it.
 *
 * Writers (insert, remove, rebuild) hold kprobe_mutex.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

/* A removed entry (see internal.h): its address, NULL, never matches. */
struct kprobe_hit_site kprobe_tombstone;

/*
 * The table until kprobe_table_init() allocates the first real one: two
 * empty buckets.  So there always is a table, and a search (which an
 * int3 of somebody else's can start very early) never tests for none.
 */
static struct kprobe_hit_site __rcu *kprobe_boot_buckets[2];
static struct kprobe_hit_table kprobe_boot_table = {
	.mult	= KPROBE_HIT_MULT,
	.order	= 1,
	.shift	= BITS_PER_LONG - 1,
	.mask	= 1,
	.bucket	= kprobe_boot_buckets,
};

struct kprobe_hit_table __rcu *kprobe_hit_table =
	RCU_INITIALIZER(&kprobe_boot_table);

/* Readers: kprobe_mutex holders (the most frequent), or RCU readers. */
#define kprobe_table_deref(p)						\
	rcu_dereference_check(p, lockdep_is_held(&kprobe_mutex) ||	\
			      rcu_read_lock_any_held())

static struct kprobe_hit_table *kprobe_table_locked(void)
{
	return rcu_dereference_protected(kprobe_hit_table,
					 lockdep_is_held(&kprobe_mutex));
}

/**
 * kprobe_site_find() - the site probing @addr
 * @addr: a probed address
 *
 * Context: an RCU reader or kprobe_mutex held.
 * Return: the site, or NULL.
 */
struct kprobe_site *kprobe_site_find(unsigned long addr)
{
	struct kprobe_hit_site *p;

	p = kprobe_hit_table_search(kprobe_table_deref(kprobe_hit_table), addr);
	/* Only a search for NULL can end on a tombstone. */
	return p && p != KPROBE_TOMBSTONE ? kprobe_to_site(p) : NULL;
}

NOKPROBE_SYMBOL(kprobe_site_find);


/* Put the site @kp in the first free bucket of its chain. */
static void kprobe_table_place(struct kprobe_hit_table *t,
			       struct kprobe_hit_site *kp)
{
	unsigned long i = kprobe_hit_hash(t, (unsigned long)kp->addr);
	struct kprobe_hit_site *cur;

	for (;;) {
		cur = rcu_dereference_protected(t->bucket[i],
						lockdep_is_held(&kprobe_mutex));
		if (!cur || cur == KPROBE_TOMBSTONE)
			break;
		i = (i + 1) & t->mask;
	}
	if (!cur)
		t->used++;
	t->live++;
	/*
	 * Publish an initialised site; pairs with the rcu_dereference() of
	 * the bucket in kprobe_site_find().
	 */
	rcu_assign_pointer(t->bucket[i], kp);
}

static void kprobe_table_free(struct rcu_head *head)
{
	struct kprobe_hit_table *t = container_of(head, typeof(*t), rcu);

	kvfree(t->bucket);
	kfree(t);
}

/*
 * Replace the table by one sized for @live sites (a third full at most),
 * holding the same sites and no tombstones.
 */
static int kprobe_table_rebuild(unsigned int live)
{
	struct kprobe_hit_table *old = kprobe_table_locked(), *t;
	unsigned int order, i;
	struct kprobe_hit_site *kp;

	order = max_t(unsigned int, order_base_2(3 * (live + 1)),
		      KPROBE_TABLE_MIN_ORDER);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/* A power of two of bytes: exactly what the page allocator gives. */
	t->bucket = kvcalloc(1UL << order, sizeof(*t->bucket), GFP_KERNEL);
	if (!t->bucket) {
		kfree(t);
		return -ENOMEM;
	}
	t->mult = KPROBE_HIT_MULT;
	t->order = order;
	t->shift = BITS_PER_LONG - order;
	t->mask = (1UL << order) - 1;
	for (i = 0; i < (1U << old->order); i++) {
		kp = rcu_dereference_protected(old->bucket[i],
					       lockdep_is_held(&kprobe_mutex));
		if (kp && kp != KPROBE_TOMBSTONE)
			kprobe_table_place(t, kp);
	}
	/*
	 * Pairs with the rcu_dereference() of kprobe_hit_table in
	 * kprobe_site_find(): a reader sees the filled buckets.  Readers still
	 * on the old table are covered by the grace period before it is freed.
	 * A site inserted after this is only in the new table; it is armed
	 * later, and the text poke that arms it orders the publication before
	 * any CPU can hit it.
	 */
	rcu_assign_pointer(kprobe_hit_table, t);
	/* Not kvfree_rcu(): that batches for seconds, this is a grace period. */
	if (old != &kprobe_boot_table)
		call_rcu(&old->rcu, kprobe_table_free);
	return 0;
}

/* Make @site findable by the trap path; kprobe_mutex held. */
int kprobe_table_insert(struct kprobe_site *site)
{
	struct kprobe_hit_table *t = kprobe_table_locked();
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	if (2 * (t->used + 1) > (1U << t->order)) {
		ret = kprobe_table_rebuild(t->live + 1);
		if (ret)
			return ret;
		t = kprobe_table_locked();
	}
	kprobe_table_place(t, &site->hit);
	return 0;
}

/*
 * The bucket holding @site; kprobe_mutex held.  A site that is not in the
 * table is a core bug: warned about, and the table's size returned.
 */
unsigned long kprobe_table_pos(struct kprobe_site *site)
{
	struct kprobe_hit_table *t = kprobe_table_locked();
	unsigned long i;

	lockdep_assert_held(&kprobe_mutex);
	for (i = kprobe_hit_hash(t, (unsigned long)site->hit.addr);
	     rcu_access_pointer(t->bucket[i]) != &site->hit;
	     i = (i + 1) & t->mask) {
		if (WARN_ON_ONCE(!rcu_access_pointer(t->bucket[i])))
			return 1UL << t->order;
	}
	return i;
}

/*
 * The site in the first bucket at or after *@pos, with *@pos moved to its
 * bucket; NULL past the last.  kprobe_mutex held.
 */
struct kprobe_site *kprobe_table_next(unsigned long *pos)
{
	struct kprobe_hit_table *t = kprobe_table_locked();
	struct kprobe_hit_site *kp;

	lockdep_assert_held(&kprobe_mutex);
	for (; *pos < (1UL << t->order); ++*pos) {
		kp = rcu_dereference_protected(t->bucket[*pos],
					       lockdep_is_held(&kprobe_mutex));
		if (kp && kp != KPROBE_TOMBSTONE)
			return kprobe_to_site(kp);
	}
	return NULL;
}

/*
 * Take @site out of the table; kprobe_mutex held.  Readers that found it
 * already may keep using it until the next grace period.  The table keeps
 * its size, so that a walk of it (for_each_live_kprobe_site()) may remove
 * the site it is at; kprobe_table_trim() shrinks it afterwards.
 */
void kprobe_table_remove(struct kprobe_site *site)
{
	struct kprobe_hit_table *t = kprobe_table_locked();
	unsigned long i = kprobe_table_pos(site);

	if (i == 1UL << t->order)
		return;
	/* A constant: readers either still see the site or skip the mark. */
	RCU_INIT_POINTER(t->bucket[i], KPROBE_TOMBSTONE);
	t->live--;
}

/*
 * Rebuild the table smaller when it is less than an eighth full;
 * kprobe_mutex held, no walk of the table under way.  Shrinking is
 * optional: on failure the tombstones simply stay.
 */
void kprobe_table_trim(void)
{
	struct kprobe_hit_table *t = kprobe_table_locked();

	lockdep_assert_held(&kprobe_mutex);
	if (t->order > KPROBE_TABLE_MIN_ORDER && 8 * t->live < (1U << t->order))
		kprobe_table_rebuild(t->live);
}

int __init kprobe_table_init(void)
{
	int ret;

	mutex_lock(&kprobe_mutex);
	ret = kprobe_table_locked() != &kprobe_boot_table ? 0 :
	      kprobe_table_rebuild(0);
	mutex_unlock(&kprobe_mutex);
	return ret;
}
