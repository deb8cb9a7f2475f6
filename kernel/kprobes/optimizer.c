// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Jump optimization: replacing a site's int3 by a jump to a detour.
 *
 * A detour (built by the architecture, arch_optprobe_prepare()) saves the
 * registers, runs the site's pre handlers, restores the registers, runs a
 * copy of the instructions the jump overwrites (the *region*) and jumps
 * back after them.  A hit then costs no trap at all.
 *
 * Every site starts as an int3 probe.  It is a *candidate* while it is
 * armed with an int3 (not through ftrace), has an enabled member and no
 * post handler, and the sysctl allows it.  The way of a candidate, one
 * struct kprobe_opt per site, all under kprobe_mutex (internal.h draws
 * the whole diagram, kprobe_opt_set_state() checks it):
 *
 *   IDLE --update--> QUEUED --worker--> WAITING --worker--> OPTIMIZED
 *     ^                 |                  |                    |
 *     +-----------------+------stop--------+--------------------+
 *
 *   QUEUED     kprobe_opt_update() saw a candidate; the worker looks at
 *              it some jiffies later, with whatever came in meanwhile.
 *   WAITING    the worker built the detour (once per site; a refusal is
 *              final, REFUSED) and found no other site inside the region.
 *              From now on an int3 hit does not step the probed
 *              instruction in place but goes to the region's copy in the
 *              detour (@resume), so no CPU enters the region any more.
 *              A task may still be stopped inside it, interrupted or
 *              preempted; synchronize_rcu_tasks() outlasts every such
 *              task, on preemptible and non-preemptible kernels alike.
 *   OPTIMIZED  after that wait the jump goes into the text
 *              (arch_optprobe_patch(), the whole batch at once).  A
 *              region of a single instruction has no inside to drain:
 *              its jump goes in right after publication, without the
 *              wait (which on a preemptible kernel takes a while).
 *   IDLE       also where the worker leaves a candidate with another site
 *              inside its region; such a record waits on the *blocked*
 *              list, and the death of a site in its region queues it
 *              again (kprobe_opt_unblock()).
 *   stop       (kprobe_opt_stop(), synchronous) no longer a candidate, or
 *              the int3 is about to go, or a new site appears inside the
 *              region (kprobe_opt_make_room()): @resume is cleared and a
 *              jump is replaced by the int3 and the original bytes again
 *              before the caller goes on.
 *
 * A dead site's record loses its site pointer before the grace period
 * that precedes the site's freeing, so the detour's handler finds NULL or
 * a live site.  The record and its detour are freed by the worker after
 * synchronize_rcu_tasks() (no task left inside the detour) and
 * synchronize_rcu() (no trap handler still reading @resume).
 *
 * The text of a GONE site is never written: its jump stays in the dying
 * text with the detour it points to, until the site is freed.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/cpu.h>
#include <linux/list_sort.h>
#include <linux/memory.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>

/*
 * Let registrations that come in a burst share the worker's waits: the
 * worker runs at once for the first candidate after a quiet period, and
 * this many jiffies later while candidates keep coming.
 */
#define KPROBE_OPT_DELAY	5

/* Sites looked at per round, so that kprobe_mutex is not held for long. */
#define KPROBE_OPT_BATCH	256

/* The sysctl; kprobe_mutex for writers. */
static bool kprobe_opt_on = true;

/* Candidates not looked at yet (QUEUED); kprobe_mutex */
static LIST_HEAD(kprobe_opt_queue);
/* Published detours, waiting for the region to drain (WAITING); kprobe_mutex */
static LIST_HEAD(kprobe_opt_waiting);
/* Records of dead sites, to be freed; kprobe_mutex */
static LIST_HEAD(kprobe_opt_dying);
/* IDLE candidates with another site inside their region; kprobe_mutex */
static LIST_HEAD(kprobe_opt_blocked);

static void kprobe_opt_worker(struct work_struct *work);
static DECLARE_DELAYED_WORK(kprobe_opt_work, kprobe_opt_worker);

/* When the worker last started; kprobe_mutex. */
static unsigned long kprobe_opt_last_run;

/*
 * Legal changes of kprobe_opt::state, one bit per target state (the
 * diagram at enum kprobe_opt_state).  REFUSED is final.
 */
static const u8 kprobe_opt_next[] = {
	[KPROBE_OPT_IDLE]	= BIT(KPROBE_OPT_QUEUED),
	[KPROBE_OPT_QUEUED]	= BIT(KPROBE_OPT_IDLE) | BIT(KPROBE_OPT_WAITING) |
				  BIT(KPROBE_OPT_REFUSED),
	[KPROBE_OPT_WAITING]	= BIT(KPROBE_OPT_IDLE) | BIT(KPROBE_OPT_OPTIMIZED),
	[KPROBE_OPT_OPTIMIZED]	= BIT(KPROBE_OPT_IDLE),
	[KPROBE_OPT_REFUSED]	= 0,
};

/*
 * The only place a record changes state.  An illegal change is an
 * optimizer bug: reported, and recorded anyway, because the text already
 * is what the new state says.
 */
static void kprobe_opt_set_state(struct kprobe_opt *o,
				 enum kprobe_opt_state state)
{
	lockdep_assert_held(&kprobe_mutex);
	WARN_ONCE(!(kprobe_opt_next[o->state] & BIT(state)),
		  "kprobe opt %pS: illegal state change %u -> %u\n",
		  (void *)o->insn.addr, o->state, state);
	o->state = state;
}

static void kprobe_opt_kick(void)
{
	unsigned long delay = KPROBE_OPT_DELAY;

	lockdep_assert_held(&kprobe_mutex);
	if (time_after(jiffies, kprobe_opt_last_run + KPROBE_OPT_DELAY))
		delay = 0;
	/* The worker sleeps a long time in RCU waits: not on a bound queue. */
	queue_delayed_work(system_unbound_wq, &kprobe_opt_work, delay);
}

/* Show whether the jump is in on the site and on each member. */
static void kprobe_opt_mark(struct kprobe_site *site, bool optimized)
{
	struct kprobe *m;
	u32 set = optimized ? KPROBE_FLAG_OPTIMIZED : 0;

	WRITE_ONCE(site->hit.flags,
		   (site->hit.flags & ~KPROBE_FLAG_OPTIMIZED) | set);
	list_for_each_entry(m, &site->members, list)
		WRITE_ONCE(m->flags, (m->flags & ~KPROBE_FLAG_OPTIMIZED) | set);
}

static bool kprobe_opt_candidate(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	return kprobe_opt_on && site->hit.state == KPROBE_SITE_ARMED &&
	       !kprobe_ftrace(&site->hit) && !site->hit.post &&
	       kprobe_site_enabled(site);
}

/*
 * Is another site inside the region (other than at its first byte)?
 * Before the region is known, inside the bytes the jump would replace.
 */
static bool kprobe_opt_region_busy(struct kprobe_opt *o)
{
	unsigned long addr = (unsigned long)o->site->hit.addr;
	unsigned int i, len = o->insn.len ?: KPROBE_OPT_PATCH_MAX;

	for (i = 1; i < len; i++)
		if (kprobe_site_find(addr + i))
			return true;
	return false;
}

/*
 * Take @o off its way to a jump.  A jump that is in live text goes on
 * @jumps for the caller to take out; one in GONE text stays there.
 */
static void kprobe_opt_detach(struct kprobe_opt *o, struct list_head *jumps)
{
	struct kprobe_site *site = o->site;

	lockdep_assert_held(&kprobe_mutex);
	switch (o->state) {
	case KPROBE_OPT_IDLE:
		/* Off the blocked list, if it was there. */
		list_del_init(&o->list);
		return;
	case KPROBE_OPT_QUEUED:
	case KPROBE_OPT_WAITING:
		list_del_init(&o->list);
		/* Hits that already read it finish in the detour, which stays. */
		WRITE_ONCE(site->hit.resume, 0);
		kprobe_opt_set_state(o, KPROBE_OPT_IDLE);
		return;
	case KPROBE_OPT_OPTIMIZED:
		kprobe_opt_mark(site, false);
		kprobe_opt_set_state(o, KPROBE_OPT_IDLE);
		if (site->hit.state == KPROBE_SITE_GONE) {
			/* The jump stays in the dying text, never hit again. */
			WRITE_ONCE(site->hit.resume, 0);
			return;
		}
		/* The int3 must still be under the jump: see kprobe_opt_stop(). */
		WARN_ON_ONCE(site->hit.state != KPROBE_SITE_ARMED);
		/* @resume goes once the int3 is back, in kprobe_opt_unpatch(). */
		list_add_tail(&o->list, jumps);
		return;
	default:
		return;
	}
}

static int kprobe_opt_cmp(void *priv, const struct list_head *a,
			  const struct list_head *b)
{
	const struct kprobe_opt *oa = list_entry(a, struct kprobe_opt, list);
	const struct kprobe_opt *ob = list_entry(b, struct kprobe_opt, list);

	return oa->insn.addr > ob->insn.addr;
}

/*
 * Put the jumps of the records on @opts into the text (@patch), or the
 * int3s and the original bytes back: one architecture batch, in
 * ascending address order as the contract promises.
 */
static void kprobe_opt_write(struct list_head *opts, bool patch)
{
	struct kprobe_opt *o;

	lockdep_assert_held(&kprobe_mutex);
	list_sort(NULL, opts, kprobe_opt_cmp);
	cpus_read_lock();
	mutex_lock(&text_mutex);
	list_for_each_entry(o, opts, list) {
		if (patch)
			arch_optprobe_patch(&o->insn);
		else
			arch_optprobe_unpatch(&o->insn);
	}
	arch_optprobe_flush();
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
}

/* Put the int3s back under the jumps on @jumps; empties the list. */
static void kprobe_opt_unpatch(struct list_head *jumps)
{
	struct kprobe_opt *o, *tmp;

	lockdep_assert_held(&kprobe_mutex);
	if (list_empty(jumps))
		return;
	kprobe_opt_write(jumps, false);
	list_for_each_entry_safe(o, tmp, jumps, list) {
		list_del_init(&o->list);
		WRITE_ONCE(o->site->hit.resume, 0);
	}
}

/**
 * kprobe_opt_stop() - make a site a plain int3 probe, now
 * @site: a site; nothing happens if it never was a candidate
 *
 * When this returns, the site's int3 is in the text with the original
 * bytes after it, and no new hit goes to its detour.  Called before the
 * int3 is taken out, and whenever the site stops being a candidate.
 * Context: kprobe_mutex held.
 */
void kprobe_opt_stop(struct kprobe_site *site)
{
	LIST_HEAD(jumps);

	lockdep_assert_held(&kprobe_mutex);
	if (!site->opt)
		return;
	kprobe_opt_detach(site->opt, &jumps);
	kprobe_opt_unpatch(&jumps);
}

/* From IDLE, on the blocked list or on none. */
static void kprobe_opt_enqueue(struct kprobe_opt *o)
{
	kprobe_opt_set_state(o, KPROBE_OPT_QUEUED);
	list_move_tail(&o->list, &kprobe_opt_queue);
	kprobe_opt_kick();
}

/*
 * The site at @addr is dead: the blocked records whose region may cover
 * it try again.  The list is empty unless probes sit inside each other's
 * regions, so a site's death costs no table lookups.
 */
static void kprobe_opt_unblock(unsigned long addr)
{
	struct kprobe_opt *o, *tmp;
	unsigned long start;

	list_for_each_entry_safe(o, tmp, &kprobe_opt_blocked, list) {
		start = o->insn.addr;
		if (addr <= start || addr - start >= KPROBE_OPT_REGION_MAX)
			continue;
		/* A dead site may stay in the table until a batch ends. */
		if (kprobe_site_live(o->site))
			kprobe_opt_update(o->site);
	}
}

/*
 * @site is dead: hand its record to the worker for freeing, and let the
 * sites whose region it was in try again.
 */
static void kprobe_opt_retire(struct kprobe_site *site)
{
	struct kprobe_opt *o = site->opt;
	LIST_HEAD(jumps);

	kprobe_opt_unblock((unsigned long)site->hit.addr);
	if (!o)
		return;
	/* Dead sites are out of the table and were disarmed or GONE. */
	kprobe_opt_detach(o, &jumps);
	WARN_ON_ONCE(!list_empty(&jumps));
	/*
	 * Pairs with the READ_ONCE() in the detour's handler: before the
	 * grace period that precedes the site's freeing, so the handler
	 * sees NULL or a site that is still there.
	 */
	WRITE_ONCE(o->site, NULL);
	WRITE_ONCE(o->insn.probe, NULL);
	/* Its @resume is 0 (detached above): hits step the instruction. */
	WRITE_ONCE(site->opt, NULL);
	list_add_tail(&o->list, &kprobe_opt_dying);
	kprobe_opt_kick();
}

/**
 * kprobe_opt_update() - follow a change of a site
 * @site: a site whose state, members or counts changed
 *
 * Queues a candidate for the worker, unoptimizes (synchronously) a site
 * that stopped being one, retires the record of a dead site, and shows
 * the site's state in the OPTIMIZED flag of every member.
 * Context: kprobe_mutex held; may sleep.
 */
void kprobe_opt_update(struct kprobe_site *site)
{
	struct kprobe_opt *o = site->opt;

	lockdep_assert_held(&kprobe_mutex);
	if (site->hit.state == KPROBE_SITE_DEAD) {
		kprobe_opt_retire(site);
		return;
	}
	if (!kprobe_opt_candidate(site)) {
		kprobe_opt_stop(site);
	} else if (!o) {
		o = kzalloc(sizeof(*o), GFP_KERNEL);
		/* Without memory the site stays a plain int3 probe. */
		if (!o)
			return;
		o->site = site;
		o->insn.addr = (unsigned long)site->hit.addr;
		o->insn.probe = &site->hit;
		INIT_LIST_HEAD(&o->list);
		/* Pairs with READ_ONCE() of the site's opt. */
		smp_store_release(&site->opt, o);
		kprobe_opt_enqueue(o);
	} else if (o->state == KPROBE_OPT_IDLE) {
		kprobe_opt_enqueue(o);
	}
	if (o)
		kprobe_opt_mark(site, o->state == KPROBE_OPT_OPTIMIZED);
}

/**
 * kprobe_opt_make_room() - no jump may cover a site about to be created
 * @addr: where the new site goes
 *
 * A region containing @addr loses its jump and its detour before the
 * caller reads the text there or puts an int3 in; its site is queued
 * again, and the worker finds the new site in the region if the
 * registration succeeds.
 * Context: kprobe_mutex held.
 */
void kprobe_opt_make_room(unsigned long addr)
{
	struct kprobe_site *site;
	struct kprobe_opt *o;
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	for (i = 1; i < KPROBE_OPT_REGION_MAX; i++) {
		site = kprobe_site_find(addr - i);
		o = site ? site->opt : NULL;
		if (!o || i >= o->insn.len)
			continue;
		if (o->state != KPROBE_OPT_WAITING &&
		    o->state != KPROBE_OPT_OPTIMIZED)
			continue;
		kprobe_opt_stop(site);
		kprobe_opt_update(site);
	}
}

/* Back to IDLE until a site inside the region dies (kprobe_opt_unblock()). */
static void kprobe_opt_block(struct kprobe_opt *o)
{
	kprobe_opt_set_state(o, KPROBE_OPT_IDLE);
	list_add_tail(&o->list, &kprobe_opt_blocked);
}

/*
 * Worker, first half: build and publish the detours of (the start of) the
 * queue.  A site with another one inside its region goes back to IDLE, on
 * the blocked list; it is queued again when that one dies.
 */
static void kprobe_opt_publish(void)
{
	struct kprobe_opt *o, *tmp;
	struct kprobe_site *site;
	const char *why;
	unsigned int n = 0;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry_safe(o, tmp, &kprobe_opt_queue, list) {
		if (n++ == KPROBE_OPT_BATCH)
			break;
		site = o->site;
		list_del_init(&o->list);
		if (!kprobe_opt_candidate(site)) {
			kprobe_opt_set_state(o, KPROBE_OPT_IDLE);
			continue;
		}
		if (kprobe_opt_region_busy(o)) {
			kprobe_opt_block(o);
			continue;
		}
		if (!o->insn.buf) {
			why = NULL;
			if (arch_optprobe_prepare(&o->insn, &why)) {
				pr_debug("not optimizing %pS: %s\n", site->hit.addr,
					 why ?: "refused");
				kprobe_opt_set_state(o, KPROBE_OPT_REFUSED);
				continue;
			}
		}
		if (kprobe_opt_region_busy(o)) {
			kprobe_opt_block(o);
			continue;
		}
		/* The detour is written; pairs with kprobe_hit_resume(). */
		smp_store_release(&site->hit.resume, o->insn.copy);
		kprobe_opt_set_state(o, KPROBE_OPT_WAITING);
		list_add_tail(&o->list, &kprobe_opt_waiting);
	}
}

/*
 * Put the jumps of the WAITING records in: all of them once the regions
 * drained, or before that (@all false) those whose region is a single
 * instruction.  Such a region has no inside where a task could be stopped
 * and resume: a task stopped at its start executes the jump, one stopped
 * after it never sees it.  So their jumps need no RCU-tasks wait.
 */
static void kprobe_opt_patch(bool all)
{
	struct kprobe_opt *o, *tmp;
	LIST_HEAD(now);

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry_safe(o, tmp, &kprobe_opt_waiting, list)
		if (all || o->insn.single)
			list_move_tail(&o->list, &now);
	if (list_empty(&now))
		return;
	kprobe_opt_write(&now, true);
	list_for_each_entry_safe(o, tmp, &now, list) {
		list_del_init(&o->list);
		kprobe_opt_set_state(o, KPROBE_OPT_OPTIMIZED);
		kprobe_opt_mark(o->site, true);
	}
}

static void kprobe_opt_worker(struct work_struct *work)
{
	struct kprobe_opt *o, *tmp;
	LIST_HEAD(dying);
	bool wait;

	mutex_lock(&kprobe_mutex);
	kprobe_opt_last_run = jiffies;
	kprobe_opt_publish();
	kprobe_opt_patch(false);
	/* Another round for what did not fit in this one. */
	if (!list_empty(&kprobe_opt_queue))
		kprobe_opt_kick();
	list_splice_init(&kprobe_opt_dying, &dying);
	wait = !list_empty(&kprobe_opt_waiting) || !list_empty(&dying);
	mutex_unlock(&kprobe_mutex);
	if (!wait)
		return;

	/*
	 * Every task that was inside a region published above, or inside a
	 * dying detour, has left it once each task passed a voluntary
	 * context switch (on a non-preemptible kernel, a plain grace period
	 * gives the same guarantee).  Records stopped meanwhile left the
	 * WAITING list; those queued meanwhile wait for the next round.
	 */
	synchronize_rcu_tasks();

	mutex_lock(&kprobe_mutex);
	/* Everything still WAITING was published before the wait began. */
	kprobe_opt_patch(true);
	mutex_unlock(&kprobe_mutex);

	if (list_empty(&dying))
		return;
	/* And no trap handler still reads a dying record's @resume. */
	synchronize_rcu();
	list_for_each_entry_safe(o, tmp, &dying, list) {
		list_del(&o->list);
		if (o->insn.buf)
			arch_optprobe_release(&o->insn);
		kfree(o);
	}
}

/**
 * kprobe_opt_wait() - wait until the optimizer has nothing left to do
 *
 * Runs the pending work at once instead of after its delay, and again as
 * long as work is queued, so that afterwards every candidate is optimized
 * (or found unable to be) and every dead site's detour is freed.
 * Context: process context, kprobe_mutex not held; sleeps.
 */
void kprobe_opt_wait(void)
{
	bool busy;

	lockdep_assert_not_held(&kprobe_mutex);
	for (;;) {
		mutex_lock(&kprobe_mutex);
		busy = !list_empty(&kprobe_opt_queue) ||
		       !list_empty(&kprobe_opt_waiting) ||
		       !list_empty(&kprobe_opt_dying);
		mutex_unlock(&kprobe_mutex);
		if (!busy)
			break;
		mod_delayed_work(system_unbound_wq, &kprobe_opt_work, 0);
		flush_delayed_work(&kprobe_opt_work);
	}
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_opt_wait);

/**
 * kprobe_opt_original_text() - undo the jumps in a copy of the text
 * @dst: copy of @len bytes of text at @addr
 * @addr: kernel text address
 * @len: bytes
 *
 * Only the bytes after the first of each jump are put back; the first is
 * the int3's, which kprobe_copy_original_text() handles.
 * Context: kprobe_mutex held (no jump comes or goes meanwhile).
 */
void kprobe_opt_original_text(void *dst, unsigned long addr, size_t len)
{
	unsigned long from = addr - min_t(unsigned long, addr,
					  KPROBE_OPT_PATCH_MAX - 1);
	unsigned long a, lo, hi;
	struct kprobe_site *site;
	struct kprobe_opt *o;

	lockdep_assert_held(&kprobe_mutex);
	for (a = from; a < addr + len; a++) {
		site = kprobe_site_find(a);
		o = site ? site->opt : NULL;
		if (!o || o->state != KPROBE_OPT_OPTIMIZED)
			continue;
		lo = max(a + 1, addr);
		hi = min(a + o->insn.patch_len, addr + len);
		if (lo < hi)
			memcpy(dst + (lo - addr), &o->insn.orig[lo - a], hi - lo);
	}
}

/**
 * kprobe_opt_enabled() - the value of debug.kprobes-optimization
 *
 * Return: true if sites may be optimized.
 */
bool kprobe_opt_enabled(void)
{
	return READ_ONCE(kprobe_opt_on);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_opt_enabled);

/**
 * kprobe_opt_set_enabled() - allow or forbid jump optimization
 * @on: the new value
 *
 * Turning it off unoptimizes every site before returning (with a single
 * batch of text writes); turning it on queues every candidate for the
 * worker (see kprobe_opt_wait()).
 * Context: process context; takes kprobe_mutex.
 */
void kprobe_opt_set_enabled(bool on)
{
	struct kprobe_site *site;
	LIST_HEAD(jumps);

	mutex_lock(&kprobe_mutex);
	if (on == kprobe_opt_on)
		goto out;
	WRITE_ONCE(kprobe_opt_on, on);
	for_each_kprobe_site(site) {
		if (on)
			kprobe_opt_update(site);
		else if (site->opt)
			kprobe_opt_detach(site->opt, &jumps);
	}
	kprobe_opt_unpatch(&jumps);
out:
	mutex_unlock(&kprobe_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_opt_set_enabled);
