// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Arming: putting a site's breakpoint into the text (or its ip into the
 * kprobes ftrace_ops) and taking it out again.
 *
 * Whether a site should be armed is a pure function of three things, all
 * under kprobe_mutex: it has an enabled member, kprobes are not globally
 * disarmed (debugfs "enabled"), and its text still exists (not GONE).
 * kprobe_site_sync() compares that with the site's state and does the one
 * step that is missing, so every caller that changes one of the three just
 * calls it.
 *
 * Lock sequence for a text write: kprobe_mutex, then kprobe_text_lock()
 * (cpus_read_lock() and text_mutex) around arch_arm_kprobe() and
 * arch_disarm_kprobe().  Sites on an ftrace call site go through ftrace.c
 * instead and take ftrace's own locks.
 *
 * Each int3 write is followed by a synchronisation of all CPUs.  Callers
 * that change many sites at once (register_kprobes(), unregister_kprobes(),
 * debugfs "enabled") open a batch: the site states change as usual, the
 * writes wait in a queue and go out together, one synchronisation for the
 * lot (internal.h describes the rules).
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <kunit/visibility.h>
#include <linux/cpu.h>
#include <linux/memory.h>
#include <linux/overflow.h>
#include <linux/slab.h>

/* Queue size limit; a longer batch just writes every this many sites. */
#define KPROBE_BATCH_MAX	4096U

/**
 * struct kprobe_batch - text writes waiting for the end of a batch
 * @nr: queued writes in @kps
 * @max: room in @kps and in @retired
 * @arming: the queued writes put int3s in (else they take them out)
 * @nr_retired: sites in @retired
 * @retired: sites to take out of the table once the writes are done
 * @kps: the sites to write
 */
struct kprobe_batch {
	unsigned int nr;
	unsigned int max;
	bool arming;
	unsigned int nr_retired;
	struct kprobe_site **retired;
	struct kprobe_hit_site *kps[];
};

/* The open batch, or NULL; kprobe_mutex. */
static struct kprobe_batch *kprobe_open_batch;

bool kprobe_ftrace_killed;

/**
 * kprobe_ftrace_kill() - stop arming probes through ftrace
 *
 * Called by ftrace when it hits a fatal error and disables itself.  Takes
 * no lock and may run in any context; sites already armed stay as they
 * are (ftrace no longer calls anyone), new ones fail to arm.
 */
void kprobe_ftrace_kill(void)
{
	WRITE_ONCE(kprobe_ftrace_killed, true);
}

/*
 * Architecture defaults: one write (and one synchronisation) per site.
 * Callers hold kprobe_mutex, cpus_read_lock() and text_mutex.
 */
void __weak arch_arm_kprobes_batch(struct kprobe_hit_site **kps,
				   unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		arch_arm_kprobe(kps[i]);
}

void __weak arch_disarm_kprobes_batch(struct kprobe_hit_site **kps,
				      unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		arch_disarm_kprobe(kps[i]);
}

bool __weak arch_kprobe_boostable(struct kprobe_hit_site *p)
{
	return false;
}

/*
 * The locks of a text write, in internal.h's order.  CPU hotplug is held
 * off too, so that an architecture may write with every other CPU stopped
 * (arm64: stop_machine_cpuslocked()); for the others it costs a per-CPU
 * read lock.
 */
static void kprobe_text_lock(void)
{
	cpus_read_lock();
	mutex_lock(&text_mutex);
}

static void kprobe_text_unlock(void)
{
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
}

/* Do the queued writes, then the table removals that waited for them. */
static void kprobe_batch_write(struct kprobe_batch *b)
{
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	if (b->nr) {
		kprobe_text_lock();
		if (b->arming)
			arch_arm_kprobes_batch(b->kps, b->nr);
		else
			arch_disarm_kprobes_batch(b->kps, b->nr);
		kprobe_text_unlock();
		b->nr = 0;
	}
	if (!b->nr_retired)
		return;
	for (i = 0; i < b->nr_retired; i++)
		kprobe_table_remove(b->retired[i]);
	b->nr_retired = 0;
	kprobe_table_trim();
}

/* Queue the write of @site's first byte; false: write it now instead. */
static bool kprobe_batch_queue(struct kprobe_site *site, bool arming)
{
	struct kprobe_batch *b = kprobe_open_batch;

	lockdep_assert_held(&kprobe_mutex);
	if (!b)
		return false;
	/* One way at a time, so the text sees the steps in their order. */
	if (b->nr && (b->arming != arming || b->nr == b->max))
		kprobe_batch_write(b);
	b->arming = arming;
	b->kps[b->nr++] = &site->hit;
	return true;
}

struct kprobe_batch *kprobe_batch_begin(unsigned int max)
{
	struct kprobe_batch *b;

	lockdep_assert_held(&kprobe_mutex);
	if (WARN_ON_ONCE(kprobe_open_batch) || max <= 1)
		return NULL;
	max = min(max, KPROBE_BATCH_MAX);
	/* @kps, then @retired, in one allocation. */
	b = kvzalloc(struct_size(b, kps, 2 * (size_t)max), GFP_KERNEL);
	if (!b)
		return NULL;
	b->max = max;
	b->retired = (struct kprobe_site **)&b->kps[max];
	kprobe_open_batch = b;
	return b;
}

void kprobe_batch_flush(void)
{
	lockdep_assert_held(&kprobe_mutex);
	if (kprobe_open_batch)
		kprobe_batch_write(kprobe_open_batch);
}

void kprobe_batch_end(struct kprobe_batch *batch)
{
	lockdep_assert_held(&kprobe_mutex);
	if (!batch)
		return;
	kprobe_batch_write(batch);
	kprobe_open_batch = NULL;
	kvfree(batch);
}

void kprobe_site_retire(struct kprobe_site *site)
{
	struct kprobe_batch *b = kprobe_open_batch;

	lockdep_assert_held(&kprobe_mutex);
	/*
	 * While its int3 may still be in the text, the site must stay
	 * findable: a CPU that hits the int3 and finds no site leaves the
	 * int3 to someone else, which would be fatal here.
	 */
	if (b && b->nr && b->nr_retired < b->max) {
		b->retired[b->nr_retired++] = site;
		return;
	}
	/* No room left: write what is queued, then remove at once. */
	if (b && b->nr)
		kprobe_batch_write(b);
	kprobe_table_remove(site);
	kprobe_table_trim();
}

int kprobe_site_arm(struct kprobe_site *site)
{
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	if (kprobe_ftrace(&site->hit)) {
		if (READ_ONCE(kprobe_ftrace_killed))
			return -ENODEV;
		ret = kprobe_ftrace_arm(site);
		if (ret)
			return ret;
	} else if (!kprobe_batch_queue(site, true)) {
		kprobe_text_lock();
		arch_arm_kprobe(&site->hit);
		kprobe_text_unlock();
	}
	kprobe_site_set_state(site, KPROBE_SITE_ARMED);
	return 0;
}

void kprobe_site_disarm(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	/* A jump over the int3 goes first, and synchronously. */
	kprobe_opt_stop(site);
	if (kprobe_ftrace(&site->hit)) {
		kprobe_ftrace_disarm(site);
	} else if (!kprobe_batch_queue(site, false)) {
		kprobe_text_lock();
		arch_disarm_kprobe(&site->hit);
		kprobe_text_unlock();
	}
	kprobe_site_set_state(site, KPROBE_SITE_DISARMED);
}

int kprobe_site_sync(struct kprobe_site *site)
{
	bool want = READ_ONCE(kprobes_all_armed) && kprobe_site_enabled(site);

	lockdep_assert_held(&kprobe_mutex);
	if (site->hit.state == KPROBE_SITE_DISARMED && want)
		return kprobe_site_arm(site);
	if (site->hit.state == KPROBE_SITE_ARMED && !want)
		kprobe_site_disarm(site);
	return 0;
}

/* Flip the global switch and bring every site in line with it. */
static int kprobes_set_all_armed(bool armed)
{
	unsigned int failed = 0, nr = 0;
	struct kprobe_site *site;
	struct kprobe_batch *batch;
	int ret, first = 0;

	mutex_lock(&kprobe_mutex);
	WRITE_ONCE(kprobes_all_armed, armed);
	for_each_kprobe_site(site)
		nr++;
	batch = kprobe_batch_begin(nr);
	for_each_kprobe_site(site) {
		ret = kprobe_site_sync(site);
		if (ret && !failed++)
			first = ret;
	}
	kprobe_batch_end(batch);
	mutex_unlock(&kprobe_mutex);
	if (failed)
		pr_warn("%u probe sites could not be armed (first error %d)\n",
			failed, first);
	return first;
}

/* debugfs "enabled" 1: arm every site that has an enabled member. */
int kprobes_arm_all(void)
{
	return kprobes_set_all_armed(true);
}

/* debugfs "enabled" 0: take every breakpoint out; members keep their state. */
int kprobes_disarm_all(void)
{
	return kprobes_set_all_armed(false);
}

/*
 * The site's text is being freed: take it out of the table (which keeps
 * its size, see kprobe_kill_sites()), mark it and its members GONE and
 * put it on the GONE list.
 */
static void kprobe_site_kill(struct kprobe_site *site)
{
	struct kprobe *m;

	lockdep_assert_held(&kprobe_mutex);
	/*
	 * An int3 stays in the dying text: writing it would race with the
	 * freeing.  An ftrace site must leave the ftrace_ops filter, or a
	 * later module loaded at the same address would be hooked; ftrace
	 * still knows the call site while the module is GOING.
	 */
	if (site->hit.state == KPROBE_SITE_ARMED && kprobe_ftrace(&site->hit))
		kprobe_site_disarm(site);
	/* The caller's walk of the table trims it afterwards. */
	kprobe_table_remove(site);
	kprobe_site_set_state(site, KPROBE_SITE_GONE);
	kprobe_site_gone_add(site);
	WRITE_ONCE(site->hit.flags, site->hit.flags | KPROBE_FLAG_GONE);
	list_for_each_entry(m, &site->members, list)
		WRITE_ONCE(m->flags, m->flags | KPROBE_FLAG_GONE);
	kprobe_site_recount(site);
}

/**
 * kprobe_kill_sites() - the live sites on text that is going away go GONE
 * @doomed: asked of each live site's address: is its text going?
 * @data: passed to @doomed
 *
 * One walk of the table, which keeps its size until the walk is done
 * (a smaller table in the middle of it would skip sites), then one trim.
 *
 * Context: process context, kprobe_mutex not held; sleeps.
 * Return: how many sites went GONE.
 */
unsigned int kprobe_kill_sites(bool (*doomed)(unsigned long addr, void *data),
			       void *data)
{
	struct kprobe_site *site;
	unsigned int nr = 0;
	unsigned long pos;

	mutex_lock(&kprobe_mutex);
	for_each_live_kprobe_site(site, pos) {
		if (doomed((unsigned long)site->hit.addr, data)) {
			kprobe_site_kill(site);
			nr++;
		}
	}
	kprobe_table_trim();
	mutex_unlock(&kprobe_mutex);
	return nr;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_kill_sites);
