// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The registry: which struct kprobe are registered, and on which site.
 *
 * "Is this kprobe registered?" is answered here and nowhere else.  Every
 * field of a struct kprobe is its owner's memory: a module may change
 * addr, symbol_name or offset between two calls, or reuse the struct for
 * another probe while it is still registered.  Such a kprobe must still
 * be found registered (a second registration is refused), and
 * unregistering, enabling or disabling it must act on the probe as it was
 * registered.  So the core keeps the answer itself, keyed by the
 * struct's own address, and never infers it from the struct's fields.
 *
 * The registry is an open-addressing hash set of (kprobe, site) pairs:
 * linear probing, at most half full, deletion by shifting the rest of a
 * run back (no tombstones), halved when less than an eighth full.  It
 * grows only in kprobe_registry_reserve(), which a registration calls
 * before it changes anything, so that kprobe_registry_add() cannot fail.
 *
 * Locking: every function here and every variable below are kprobe_mutex's.
 * The hit path never looks here: it finds sites by address (table.c).
 *
 * Memory: two pointers a slot, kept between a half and an eighth full:
 * 32 to 128 bytes a registered kprobe on 64-bit.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/slab.h>

struct kprobe_registry_entry {
	struct kprobe *p;		/* NULL: a free slot */
	struct kprobe_site *site;	/* the site @p is a member of */
};

#define KPROBE_REGISTRY_MIN_BITS	6

static struct kprobe_registry_entry *kprobe_registry;
static unsigned int kprobe_registry_bits;	/* 1 << bits slots */
static unsigned int kprobe_registry_used;

static inline unsigned int kprobe_registry_mask(void)
{
	return (1U << kprobe_registry_bits) - 1;
}

/* The first slot @p may take. */
static inline unsigned int kprobe_registry_home(const struct kprobe *p)
{
	return hash_ptr(p, kprobe_registry_bits);
}

/* The slot that holds @p, or the free slot that ends its run. */
static unsigned int kprobe_registry_slot(const struct kprobe *p)
{
	unsigned int i = kprobe_registry_home(p);

	while (kprobe_registry[i].p && kprobe_registry[i].p != p)
		i = (i + 1) & kprobe_registry_mask();
	return i;
}

/* Rehash into 1 << @bits slots; on -ENOMEM the registry is unchanged. */
static int kprobe_registry_resize(unsigned int bits)
{
	struct kprobe_registry_entry *old = kprobe_registry;
	unsigned int old_slots = old ? 1U << kprobe_registry_bits : 0;
	struct kprobe_registry_entry *new;
	unsigned int i;

	new = kvcalloc(1U << bits, sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	kprobe_registry = new;
	kprobe_registry_bits = bits;
	for (i = 0; i < old_slots; i++)
		if (old[i].p)
			new[kprobe_registry_slot(old[i].p)] = old[i];
	kvfree(old);
	return 0;
}

/**
 * kprobe_registry_reserve() - make room for one more registered kprobe
 *
 * Context: kprobe_mutex held.
 * Return: 0, or -ENOMEM (nothing changed).
 */
int kprobe_registry_reserve(void)
{
	lockdep_assert_held(&kprobe_mutex);
	if (kprobe_registry &&
	    2 * (kprobe_registry_used + 1) <= (1U << kprobe_registry_bits))
		return 0;
	return kprobe_registry_resize(kprobe_registry ?
				      kprobe_registry_bits + 1 :
				      KPROBE_REGISTRY_MIN_BITS);
}

/**
 * kprobe_registry_add() - record that @p is a member of @site
 * @p: a kprobe that is not registered
 * @site: the site it joins
 *
 * Context: kprobe_mutex held, kprobe_registry_reserve() done since the
 * last addition.
 */
void kprobe_registry_add(struct kprobe *p, struct kprobe_site *site)
{
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	/* A bug of the core: registration reserves first. */
	if (WARN_ON_ONCE(!kprobe_registry || 2 * (kprobe_registry_used + 1) >
			 (1U << kprobe_registry_bits)))
		return;
	i = kprobe_registry_slot(p);
	if (WARN_ON_ONCE(kprobe_registry[i].p))
		return;
	kprobe_registry[i].p = p;
	kprobe_registry[i].site = site;
	kprobe_registry_used++;
}

/**
 * kprobe_registry_site() - the site @p is registered on
 * @p: any pointer; only its value is used, @p is not read
 *
 * Context: kprobe_mutex held.
 * Return: the site, or NULL if @p is not registered.
 */
struct kprobe_site *kprobe_registry_site(const struct kprobe *p)
{
	lockdep_assert_held(&kprobe_mutex);
	if (!kprobe_registry || !p)
		return NULL;
	/* A free slot's site is NULL. */
	return kprobe_registry[kprobe_registry_slot(p)].site;
}

/**
 * kprobe_registry_del() - @p is no longer registered
 * @p: a registered kprobe (anything else is ignored)
 *
 * Context: kprobe_mutex held.
 */
void kprobe_registry_del(const struct kprobe *p)
{
	unsigned int mask, hole, j, home;

	lockdep_assert_held(&kprobe_mutex);
	if (!kprobe_registry)
		return;
	hole = kprobe_registry_slot(p);
	if (!kprobe_registry[hole].p)
		return;
	/*
	 * Close the hole: an entry further along the run moves into it if
	 * its home is not between the hole and itself (cyclically), which
	 * keeps every entry reachable from its home without a gap.
	 */
	mask = kprobe_registry_mask();
	for (j = (hole + 1) & mask; kprobe_registry[j].p; j = (j + 1) & mask) {
		home = kprobe_registry_home(kprobe_registry[j].p);
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			kprobe_registry[hole] = kprobe_registry[j];
			hole = j;
		}
	}
	kprobe_registry[hole].p = NULL;
	kprobe_registry[hole].site = NULL;
	kprobe_registry_used--;
	/* Smaller when sparse; without the memory it just stays as it is. */
	if (kprobe_registry_bits > KPROBE_REGISTRY_MIN_BITS &&
	    8 * kprobe_registry_used < (1U << kprobe_registry_bits))
		kprobe_registry_resize(kprobe_registry_bits - 1);
}
