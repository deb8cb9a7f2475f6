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
 * Lock sequence for a text write: kprobe_mutex, then text_mutex around
 * arch_arm_kprobe()/arch_disarm_kprobe().  Sites on an ftrace call site go
 * through ftrace.c instead and take ftrace's own locks.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/memory.h>

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

int kprobe_site_arm(struct kprobe_site *site)
{
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	if (kprobe_ftrace(&site->kp)) {
		if (READ_ONCE(kprobe_ftrace_killed))
			return -ENODEV;
		ret = kprobe_ftrace_arm(site);
		if (ret)
			return ret;
	} else {
		mutex_lock(&text_mutex);
		arch_arm_kprobe(&site->kp);
		mutex_unlock(&text_mutex);
	}
	kprobe_site_set_state(site, KPROBE_SITE_ARMED);
	return 0;
}

void kprobe_site_disarm(struct kprobe_site *site)
{
	lockdep_assert_held(&kprobe_mutex);
	if (kprobe_ftrace(&site->kp)) {
		kprobe_ftrace_disarm(site);
	} else {
		mutex_lock(&text_mutex);
		arch_disarm_kprobe(&site->kp);
		mutex_unlock(&text_mutex);
	}
	kprobe_site_set_state(site, KPROBE_SITE_DISARMED);
}

int kprobe_site_sync(struct kprobe_site *site)
{
	bool want = site->nr_enabled && READ_ONCE(kprobes_all_armed);

	lockdep_assert_held(&kprobe_mutex);
	if (site->state == KPROBE_SITE_DISARMED && want)
		return kprobe_site_arm(site);
	if (site->state == KPROBE_SITE_ARMED && !want)
		kprobe_site_disarm(site);
	return 0;
}

/* Flip the global switch and bring every site in line with it. */
static int kprobes_set_all_armed(bool armed)
{
	struct kprobe_site *site;
	unsigned int failed = 0;
	int ret, first = 0;

	mutex_lock(&kprobe_mutex);
	WRITE_ONCE(kprobes_all_armed, armed);
	for_each_kprobe_site(site) {
		ret = kprobe_site_sync(site);
		if (ret && !failed++)
			first = ret;
	}
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

void kprobe_site_kill(struct kprobe_site *site)
{
	struct kprobe *m;

	lockdep_assert_held(&kprobe_mutex);
	/*
	 * An int3 stays in the dying text: writing it would race with the
	 * freeing.  An ftrace site must leave the ftrace_ops filter, or a
	 * later module loaded at the same address would be hooked; ftrace
	 * still knows the call site while the module is GOING.
	 */
	if (site->state == KPROBE_SITE_ARMED && kprobe_ftrace(&site->kp))
		kprobe_site_disarm(site);
	kprobe_table_remove(site);
	kprobe_site_set_state(site, KPROBE_SITE_GONE);
	site->mod = NULL;
	WRITE_ONCE(site->kp.flags, site->kp.flags | KPROBE_FLAG_GONE);
	list_for_each_entry(m, &site->members, list)
		WRITE_ONCE(m->flags, m->flags | KPROBE_FLAG_GONE);
	kprobe_site_recount(site);
}
