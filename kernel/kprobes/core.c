// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kprobes core: the registration API and initialisation.
 *
 * A user's kprobe never goes into the text or the table itself: it joins
 * the site of its address as a member (table.c), and the site is armed
 * while it has an enabled member (arm.c).  Registering is therefore:
 * resolve the address, find the site or create one (check the address,
 * let the architecture prepare the instruction, insert it in the table),
 * link the member, bring the site's arming up to date.  Unregistering is
 * the reverse, with one (expedited) RCU grace period between unlinking and
 * freeing so that no handler of the probe still runs when it returns.
 *
 * kprobe_mutex serialises every change to sites, members and the table.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/kdebug.h>
#include <linux/slab.h>
#include <asm/sections.h>

DEFINE_PER_CPU(struct kprobe *, current_kprobe);
/* Serialises registration and every change of a site; see internal.h. */
DEFINE_MUTEX(kprobe_mutex);
bool kprobes_all_armed = true;

/* init_kprobes() succeeded; kprobe_mutex */
static bool kprobes_ready;

/* Busy sections: see kprobe_busy_enter() in internal.h. */
DEFINE_PER_CPU(struct kprobe_busy_save, kprobe_busy_save);

/* Stands in for current_kprobe during a busy section. */
struct kprobe kprobe_busy = {
	.addr = (kprobe_opcode_t *)kprobe_busy_begin,
};

/*
 * Stands in for current_kprobe while a site is hit but none of its
 * members' handlers runs (<linux/kprobes_arch.h>).
 */
struct kprobe kprobe_hit_marker = {
	.addr = (kprobe_opcode_t *)kprobe_hit_pre_all,
};

/**
 * kprobe_busy_begin() - make probes hitting on this CPU count as missed
 *
 * Until kprobe_busy_end(), a probe hit on this CPU skips its handlers and
 * bumps nmissed, as if a handler were running.  Disables preemption.
 */
void kprobe_busy_begin(void)
{
	kprobe_busy_enter();
}

NOKPROBE_SYMBOL(kprobe_busy_begin);

/**
 * kprobe_busy_end() - end the section kprobe_busy_begin() started
 */
void kprobe_busy_end(void)
{
	kprobe_busy_leave();
}

NOKPROBE_SYMBOL(kprobe_busy_end);

/**
 * kprobe_assert_locked() - the caller must hold the registration lock
 *
 * For architecture code, which does not see kprobe_mutex: a lockdep
 * assertion, nothing without CONFIG_LOCKDEP.
 */
void kprobe_assert_locked(void)
{
	lockdep_assert_held(&kprobe_mutex);
}

/**
 * dump_kprobe() - print a kprobe, for fatal error reports
 * @kp: the kprobe
 */
void dump_kprobe(struct kprobe *kp)
{
	pr_err("kprobe at %pS: symbol %s offset %u flags %#x\n",
	       kp->addr, kp->symbol_name ?: "-", kp->offset, kp->flags);
}

NOKPROBE_SYMBOL(dump_kprobe);

/**
 * wait_for_kprobe_optimizer() - wait until queued (un)optimizations ran
 *
 * Jump optimization is deferred (see optimizer.c).  When this returns,
 * every probe that can be optimized is, and the detours of dead probes
 * are freed.  Unoptimization never waits: it is done by the time the
 * call that caused it returns.
 *
 * Context: process context, not under kprobe_mutex; sleeps.
 */
void wait_for_kprobe_optimizer(void)
{
	kprobe_opt_wait();
}

/* A new site at @t, in the table and on the list, without members. */
static struct kprobe_site *kprobe_site_create(struct kprobe *p,
					      struct kprobe_target *t)
{
	struct kprobe_site *site;
	const char *why = NULL;
	int ret;

	site = kprobe_site_alloc(t->addr);
	if (!site) {
		kprobe_refuse(p, "out of memory");
		return ERR_PTR(-ENOMEM);
	}
	if (t->on_func_entry)
		site->hit.flags |= KPROBE_FLAG_ON_FUNC_ENTRY;
	if (IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) && t->ftrace) {
		site->hit.flags |= KPROBE_FLAG_FTRACE;
		ret = arch_prepare_kprobe_ftrace(&site->hit);
	} else {
		ret = arch_kprobe_prepare(&site->hit, &why);
	}
	if (ret) {
		/* Not prepared, never visible: nothing else to undo. */
		kfree(site);
		kprobe_refuse(p, why ?:
			      "the architecture cannot probe this instruction");
		return ERR_PTR(ret);
	}
	ret = kprobe_table_insert(site);
	if (ret) {
		kprobe_site_free(site);
		kprobe_refuse(p, "out of memory");
		return ERR_PTR(ret);
	}
	kprobe_site_set_state(site, KPROBE_SITE_DISARMED);
	return site;
}

static void kprobe_reap_locked(struct kprobe_site *reap)
{
	struct kprobe_site *site;

	lockdep_assert_held(&kprobe_mutex);
	while ((site = reap)) {
		reap = site->next;
		kprobe_site_free(site);
	}
}

int __register_kprobe_locked(struct kprobe *p)
{
	struct kprobe_target t = {};
	kprobe_opcode_t *user_addr;
	struct kprobe_site *site, *reap = NULL;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	if (kprobe_null_arg(p))
		return -EINVAL;
	user_addr = p->addr;
	if (!kprobes_ready) {
		kprobe_refuse(p, "kprobes are not initialised");
		return -ENODEV;
	}
	/*
	 * Asked of the registry, not of @p's fields: those of a kprobe that
	 * was never registered may hold anything (kmalloc()), and a
	 * registered one's addr may have been changed since.
	 */
	if (kprobe_site_of_member(p)) {
		kprobe_refuse(p, "already registered");
		return -EINVAL;
	}
	/* Room in the registry, before anything changes. */
	if (kprobe_registry_reserve()) {
		kprobe_refuse(p, "out of memory");
		return -ENOMEM;
	}
	/* Not registered: the core-owned fields are ours to set. */
	INIT_LIST_HEAD(&p->list);
	INIT_HLIST_NODE(&p->hlist);
	/* Users may only set KPROBE_FLAG_DISABLED; other bits are dropped. */
	p->flags &= KPROBE_FLAG_DISABLED;
	p->nmissed = 0;
	ret = kprobe_resolve_addr(p, &t);
	if (ret)
		return ret;

	site = kprobe_site_find((unsigned long)t.addr);
	if (!site) {
		/* Before the text there is read: it may be under a jump. */
		kprobe_opt_make_room((unsigned long)t.addr);
		ret = kprobe_check_addr(p, &t);
		if (ret)
			return ret;
		site = kprobe_site_create(p, &t);
		if (IS_ERR(site)) {
			ret = PTR_ERR(site);
			goto out;
		}
	}

	/*
	 * Handlers read p->addr: set it before p is visible on the site.  The
	 * site's kind is the member's too: BPF's bpf_get_func_ip() tests
	 * KPROBE_FLAG_ON_FUNC_ENTRY on the probe it runs for, and modules read
	 * kprobe_ftrace().  kprobe_detach_done() clears both again.
	 */
	p->addr = t.addr;
	p->flags |= site->hit.flags &
		    (KPROBE_FLAG_ON_FUNC_ENTRY | KPROBE_FLAG_FTRACE);
	list_add_tail_rcu(&p->list, &site->members);
	kprobe_registry_add(p, site);
	kprobe_site_recount(site);
	ret = kprobe_site_sync(site);
	if (ret) {
		/* A rare path: wait for a grace period with the mutex held. */
		kprobe_detach_locked(p, &reap);
		/* Inside register_kprobes(): the site must be out of the table. */
		kprobe_batch_flush();
		kprobe_wait_handlers();
		kprobe_reap_locked(reap);
		kprobe_detach_done(p);
		p->addr = user_addr;
		kprobe_refuse(p, "the probe site cannot be armed");
	}
out:
	module_put(t.mod);
	return ret;
}

/**
 * register_kprobe() - put a probe on a kernel address
 * @p: the kprobe; set @p->addr or @p->symbol_name (with @p->offset), the
 *	handlers, and optionally KPROBE_FLAG_DISABLED in @p->flags.  Other
 *	flag bits are cleared, and so is @p->nmissed; the core-owned fields
 *	(@p->list and after) need not be initialised.
 *
 * On success @p->addr is the probed address.  A symbol name that several
 * functions share means the first one kallsyms finds.  Any refusal is
 * explained by one "kprobes: refusing ..." line in the kernel log; the
 * "Errors" table of Documentation/trace/kprobes.rst has every condition
 * of each error.
 *
 * Context: process context; takes kprobe_mutex.
 * Return:
 * * 0 - registered
 * * -EINVAL - bad arguments, already registered, not probe-able text,
 *   blacklisted, a jump label or static call site, or (x86) an
 *   instruction that cannot be probed
 * * -ENOENT - unknown symbol, an address no symbol covers, or a module
 *   going away
 * * -EILSEQ - not on an instruction boundary, inside an ftrace call
 *   site, or (riscv, powerpc) an instruction that cannot be probed
 * * -EBUSY - (x86) a foreign int3 at the address, or a lock prefix that
 *   SMP alternatives rewrite
 * * -ERANGE - (x86-64) a rip-relative operand out of reach of the slot
 * * -ENOMEM - out of memory or instruction slots
 * * -EFAULT - the text could not be read or the slot not written
 * * -ENODEV - kprobes failed to initialise, or ftrace is shut down
 * * others - the ftrace error when arming a probe on an ftrace site
 */
int register_kprobe(struct kprobe *p)
{
	int ret;

	mutex_lock(&kprobe_mutex);
	ret = __register_kprobe_locked(p);
	mutex_unlock(&kprobe_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(register_kprobe);

/**
 * register_kprobes() - register an array of kprobes
 * @kps: the kprobes
 * @num: how many
 *
 * All or nothing: when one fails, the ones before it are unregistered.
 * The breakpoints of the whole array are written together, with one
 * synchronisation of the CPUs instead of one per probe, so none of the
 * probes fires before the whole array has been gone through.
 *
 * Context: process context; takes kprobe_mutex.
 * Return: 0, -EINVAL if @num <= 0, or the error of the failing kprobe.
 */
int register_kprobes(struct kprobe **kps, int num)
{
	struct kprobe_batch *batch;
	int i, ret = 0;

	if (num <= 0) {
		pr_info("%s: refusing a batch of %d\n", __func__, num);
		return -EINVAL;
	}
	if (kprobe_null_arg(kps))
		return -EINVAL;
	mutex_lock(&kprobe_mutex);
	batch = kprobe_batch_begin(num);
	for (i = 0; i < num; i++) {
		ret = __register_kprobe_locked(kps[i]);
		if (ret)
			break;
	}
	kprobe_batch_end(batch);
	mutex_unlock(&kprobe_mutex);
	if (ret)
		__unregister_kprobes_many(kps, i);
	return ret;
}
EXPORT_SYMBOL_GPL(register_kprobes);

int kprobe_detach_locked(struct kprobe *p, struct kprobe_site **reap)
{
	struct kprobe_site *site;

	lockdep_assert_held(&kprobe_mutex);
	site = kprobe_site_of_member(p);
	if (!site)
		return -EINVAL;
	kprobe_registry_del(p);
	list_del_rcu(&p->list);
	/* The probed address, whatever the owner did to addr meanwhile. */
	p->addr = site->hit.addr;
	kprobe_site_recount(site);
	if (!list_empty(&site->members)) {
		/* Only disarming can follow from losing a member. */
		kprobe_site_sync(site);
		return 0;
	}
	if (site->hit.state == KPROBE_SITE_ARMED)
		kprobe_site_disarm(site);
	if (site->hit.state == KPROBE_SITE_DISARMED)
		kprobe_site_retire(site);
	else if (site->hit.state == KPROBE_SITE_GONE)
		kprobe_site_gone_del(site);
	kprobe_site_set_state(site, KPROBE_SITE_DEAD);
	site->next = *reap;
	*reap = site;
	return 0;
}

/*
 * Wait until no CPU still runs a handler of a probe detached before the
 * call, or reads a site unlinked before it.  Every handler runs with
 * preemption or interrupts disabled, so an RCU grace period is enough.
 *
 * An expedited one: perf and bpftrace detach their probes one at a time,
 * one unregistration per probe, and a normal grace period (several
 * scheduler ticks) each makes a few hundred probes take tens of seconds
 * to go.  The expedited wait interrupts only the CPUs that are in the
 * kernel with RCU watching, not idle or nohz_full ones in user space, and
 * rcupdate.rcu_normal=1 (real-time setups) makes it a normal grace period
 * again.  A batch pays it once.
 */
void kprobe_wait_handlers(void)
{
	synchronize_rcu_expedited();
}

void kprobe_reap(struct kprobe_site *reap)
{
	if (!reap)
		return;
	mutex_lock(&kprobe_mutex);
	kprobe_reap_locked(reap);
	mutex_unlock(&kprobe_mutex);
}

void kprobe_detach_done(struct kprobe *p)
{
	/* list_del_rcu() poisons prev: only a detached kprobe has it. */
	if (p->list.prev != LIST_POISON2)
		return;
	p->flags &= KPROBE_FLAG_DISABLED;
	INIT_LIST_HEAD(&p->list);
}

void __unregister_kprobes_many(struct kprobe **kps, int num)
{
	struct kprobe_site *reap = NULL;
	struct kprobe_batch *batch;
	int i;

	if (num <= 0 || kprobe_null_arg(kps))
		return;
	mutex_lock(&kprobe_mutex);
	/* All the breakpoints go out with one synchronisation of the CPUs. */
	batch = kprobe_batch_begin(num);
	for (i = 0; i < num; i++) {
		if (kprobe_null_arg(kps[i]))
			continue;
		/* A stranger is not ours to touch beyond marking it unusable. */
		if (kprobe_detach_locked(kps[i], &reap)) {
			if (!kprobe_detached_here(kps[i]))
				kps[i]->addr = NULL;
		} else if (kprobe_is_kretprobe(kps[i])) {
			/* unregister_kprobe(&rp->kp): the whole kretprobe goes. */
			kretprobe_orphan_locked(kprobe_to_kretprobe(kps[i]));
		}
	}
	kprobe_batch_end(batch);
	mutex_unlock(&kprobe_mutex);
	kprobe_wait_handlers();
	kprobe_reap(reap);
	for (i = 0; i < num; i++) {
		/* A stranger's list was never ours: not even read. */
		if (!kps[i] || !kps[i]->addr)
			continue;
		kprobe_detach_done(kps[i]);
		if (kprobe_is_kretprobe(kps[i]))
			kretprobe_unregister_tail(kprobe_to_kretprobe(kps[i]));
	}
}

/**
 * unregister_kprobe() - remove a kprobe
 * @p: a registered kprobe
 *
 * When this returns, no handler of @p runs any more and @p may be freed or
 * registered again.  @p->addr keeps the probed address: a kprobe
 * registered by @p->symbol_name needs @p->addr set to NULL before it is
 * registered again.  An unregistered @p only gets its @addr cleared.
 *
 * Context: process context; takes kprobe_mutex; sleeps.
 */
void unregister_kprobe(struct kprobe *p)
{
	__unregister_kprobes_many(&p, 1);
}
EXPORT_SYMBOL_GPL(unregister_kprobe);

/**
 * unregister_kprobes() - remove an array of kprobes
 * @kps: the kprobes
 * @num: how many
 *
 * Like unregister_kprobe() for each, but waits for a single RCU grace
 * period (expedited, see kprobe_wait_handlers()) for the whole array.
 * Entries that are not registered get their @addr cleared and are
 * otherwise left alone; the rest go normally.
 *
 * Context: process context; takes kprobe_mutex; sleeps.
 */
void unregister_kprobes(struct kprobe **kps, int num)
{
	__unregister_kprobes_many(kps, num);
}
EXPORT_SYMBOL_GPL(unregister_kprobes);

/**
 * enable_kprobe() - let a disabled kprobe fire again
 * @kp: a registered kprobe
 *
 * Context: process context; takes kprobe_mutex.
 * Return: 0, -EINVAL if @kp is not registered or its text is gone, or the
 * error of arming its site.
 */
int enable_kprobe(struct kprobe *kp)
{
	struct kprobe_site *site;
	int ret = 0;

	if (kprobe_null_arg(kp))
		return -EINVAL;
	mutex_lock(&kprobe_mutex);
	site = kprobe_site_of_member(kp);
	if (!site || kprobe_gone(kp)) {
		ret = -EINVAL;
		goto out;
	}
	if (!(kp->flags & KPROBE_FLAG_DISABLED))
		goto out;
	WRITE_ONCE(kp->flags, kp->flags & ~KPROBE_FLAG_DISABLED);
	kprobe_site_recount(site);
	ret = kprobe_site_sync(site);
	if (ret) {
		WRITE_ONCE(kp->flags, kp->flags | KPROBE_FLAG_DISABLED);
		kprobe_site_recount(site);
	}
out:
	mutex_unlock(&kprobe_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(enable_kprobe);

/**
 * disable_kprobe() - stop a kprobe from firing, keeping it registered
 * @kp: a registered kprobe
 *
 * Other kprobes on the same address keep firing.  A handler of @kp that
 * already started may still be running when this returns.
 *
 * Context: process context; takes kprobe_mutex.
 * Return: 0, or -EINVAL if @kp is not registered.
 */
int disable_kprobe(struct kprobe *kp)
{
	struct kprobe_site *site;
	int ret = 0;

	if (kprobe_null_arg(kp))
		return -EINVAL;
	mutex_lock(&kprobe_mutex);
	site = kprobe_site_of_member(kp);
	if (site) {
		WRITE_ONCE(kp->flags, kp->flags | KPROBE_FLAG_DISABLED);
		kprobe_site_recount(site);
		kprobe_site_sync(site);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&kprobe_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(disable_kprobe);

/* Is @addr in the kernel's init text?  (kprobe_kill_sites()' predicate) */
static bool kprobe_in_init_text(unsigned long addr, void *unused)
{
	return is_kernel_inittext(addr);
}

/**
 * kprobe_free_init_mem() - the kernel's init text is about to be freed
 *
 * Sites on it become GONE.  Later registrations there are refused since
 * core_kernel_text() stops accepting init text at the same moment.
 */
void kprobe_free_init_mem(void)
{
	kprobe_kill_sites(kprobe_in_init_text, NULL);
}

/**
 * kprobe_exceptions_notify() - the die notifier of a port that needs none
 * @self: the notifier block
 * @val: DIE_*
 * @data: struct die_args
 *
 * Most trap paths call a port's breakpoint and step handlers directly,
 * before anything raises a die event; a port whose breakpoint reaches it
 * through the notifier (x86, s390, mips, sh, arc) overrides this.
 *
 * Return: NOTIFY_DONE.
 */
int __weak kprobe_exceptions_notify(struct notifier_block *self,
				    unsigned long val, void *data)
{
	return NOTIFY_DONE;
}
NOKPROBE_SYMBOL(kprobe_exceptions_notify);

static struct notifier_block kprobe_die_nb = {
	.notifier_call	= kprobe_exceptions_notify,
	/* Ahead of debuggers: a trap may be ours. */
	.priority	= INT_MAX,
};

static int __init init_kprobes(void)
{
	int ret;

	ret = kprobe_blacklist_init();
	if (!ret)
		ret = kprobe_table_init();
	if (!ret)
		ret = arch_init_kprobes();
	if (!ret)
		ret = register_die_notifier(&kprobe_die_nb);
	if (!ret)
		ret = kprobe_module_init();
	if (ret) {
		pr_err("initialisation failed (%d), kprobes are unavailable\n",
		       ret);
		return ret;
	}
	mutex_lock(&kprobe_mutex);
	kprobes_ready = true;
	mutex_unlock(&kprobe_mutex);
	return 0;
}
early_initcall(init_kprobes);

static int __init init_kprobes_debugfs(void)
{
	return kprobe_debugfs_init();
}
fs_initcall(init_kprobes_debugfs);
