/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kprobes core: internal design, shared by the files of kernel/kprobes/.
 *
 * Files and what each owns
 * ------------------------
 *   core.c       init, the exported register/unregister/enable/disable API,
 *                kprobe_mutex, current_kprobe, busy sections, die notifier
 *   table.c      probe sites: allocation, the address table, the dispatchers
 *                that run every member's handlers
 *   arm.c        arming/disarming one site or all of them (debugfs "enabled")
 *   address.c    symbol+offset resolution and address validation
 *   blacklist.c  NOKPROBE_SYMBOL ranges, arch areas, debugfs "blacklist"
 *   slots.c      executable instruction slots
 *   module.c     module notifier (GONE), freeing of init text
 *   ftrace.c     sites armed through ftrace instead of an int3
 *   kretprobe.c  return probes: instance pools and the trampoline handler
 *   debugfs.c    /sys/kernel/debug/kprobes/{list,enabled,blacklist}
 *
 * Sites and members
 * -----------------
 * Every probed address has exactly one struct kprobe_site.  The site embeds
 * the struct kprobe that the table, the architecture and current_kprobe see
 * (its pre/post handlers are the dispatchers in table.c).  Users' kprobes
 * are *members* of the site, linked through kprobe::list.  A registered
 * user kprobe therefore always has a non-empty kprobe::list (tracing code
 * relies on it) and its site's kp.hlist is on the all-sites list.
 *
 * Site states (kprobe_site::state, changed only by kprobe_site_set_state()
 * under kprobe_mutex):
 *
 *      NEW ----insert----> DISARMED <----disarm/arm----> ARMED
 *                            |   \                          |
 *                            |    \------module gone--------+--> GONE
 *                            |                                    |
 *                            +------last member leaves------------+--> DEAD
 *
 *   NEW       prepared (slot allocated), not visible to the trap path.
 *   DISARMED  in the table; the original instruction is in the text.
 *             (All members disabled, or kprobes globally disarmed.)
 *   ARMED     in the table; an int3 (or the ftrace hook) is in the text.
 *   GONE      the text was freed (module unload, init text freed).  Out of
 *             the table, never written again; kept on the all-sites list
 *             until its members are unregistered.
 *   DEAD      out of the table and the list; freed after an RCU grace
 *             period.
 *
 * Lock order (outermost first)
 * ----------------------------
 *   kprobe_mutex            every registration change, site state, counts
 *     cpus_read_lock()      (optimizer, ftrace registration)
 *       jump_label_lock()   reserved-text checks while preparing a site
 *         text_mutex        any write to kernel text (arch_arm/disarm)
 *
 * Handler context
 * ---------------
 * The trap path (int3, ftrace handler, kretprobe trampoline) runs with
 * interrupts off, may be in NMI context, and takes no sleeping lock, no
 * non-raw spinlock and allocates nothing.  It reads the table and the
 * members lists under RCU (an int3 is an RCU read-side section on x86).
 * Everything it touches is NOKPROBE_SYMBOL or nokprobe_inline.
 */
#ifndef _KERNEL_KPROBES_INTERNAL_H
#define _KERNEL_KPROBES_INTERNAL_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>

struct dentry;

/* ---- core.c ---- */

extern struct mutex kprobe_mutex;
/* false while debugfs "enabled" is 0; kprobe_mutex */
extern bool kprobes_all_armed;

/*
 * Register one kprobe with kprobe_mutex held: resolve and check its address,
 * find or create the site, add @p as a member and arm the site if needed.
 * Logs one pr_info line when it refuses.
 */
int __register_kprobe_locked(struct kprobe *p);

/*
 * Unregistration runs in three steps so that a batch of probes costs a
 * single RCU grace period:
 *
 *	LIST_HEAD(reap);
 *	mutex_lock(&kprobe_mutex);
 *	for each p: kprobe_detach_locked(p, &reap);	(-EINVAL: skip p)
 *	mutex_unlock(&kprobe_mutex);
 *	synchronize_rcu();		no handler of a detached p still runs
 *	kprobe_reap(&reap);		frees the sites left without members
 *	for each p: kprobe_detach_done(p);	p->list empty: reusable
 *
 * __unregister_kprobes_many() does exactly this for an array of kprobes.
 */
int kprobe_detach_locked(struct kprobe *p, struct list_head *reap);
void kprobe_reap(struct list_head *reap);
void kprobe_detach_done(struct kprobe *p);
void __unregister_kprobes_many(struct kprobe **kps, int num);

/* ---- table.c ---- */

enum kprobe_site_state {
	KPROBE_SITE_NEW,
	KPROBE_SITE_DISARMED,
	KPROBE_SITE_ARMED,
	KPROBE_SITE_GONE,
	KPROBE_SITE_DEAD,
};

/**
 * struct kprobe_site - everything probing one address
 * @kp: what the table and the arch code see: addr, opcode, ainsn, flags
 *	(GONE/OPTIMIZED/FTRACE/ON_FUNC_ENTRY); pre_handler is the member
 *	dispatcher, post_handler is set only while @nr_post > 0
 * @members: user kprobes (kprobe::list); RCU for readers, kprobe_mutex
 *	for writers
 * @state: enum kprobe_site_state; kprobe_mutex
 * @nr_enabled: members not disabled; kprobe_mutex
 * @nr_post: enabled members with a post_handler; kprobe_mutex
 * @mod: module owning the text, or NULL for core kernel text
 * @rcu: deferred free
 */
struct kprobe_site {
	struct kprobe kp;
	struct list_head members;
	enum kprobe_site_state state;
	unsigned int nr_enabled;
	unsigned int nr_post;
	struct module *mod;
	struct rcu_head rcu;
};

static inline struct kprobe_site *kprobe_to_site(struct kprobe *kp)
{
	return container_of(kp, struct kprobe_site, kp);
}

/* Iterate over all live and gone sites; kprobe_mutex or RCU. */
extern struct hlist_head kprobe_all_sites;
#define for_each_kprobe_site(site)					\
	hlist_for_each_entry_rcu(site, &kprobe_all_sites, kp.hlist,	\
				 lockdep_is_held(&kprobe_mutex))

void kprobe_site_set_state(struct kprobe_site *site,
			   enum kprobe_site_state state);
struct kprobe_site *kprobe_site_alloc(kprobe_opcode_t *addr);
void kprobe_site_free(struct kprobe_site *site);	/* after RCU */
struct kprobe_site *kprobe_site_find(unsigned long addr);	/* RCU */
struct kprobe_site *kprobe_site_of_member(struct kprobe *p); /* mutex */
int kprobe_table_insert(struct kprobe_site *site);
void kprobe_table_remove(struct kprobe_site *site);
void kprobe_site_recount(struct kprobe_site *site);
int kprobe_table_init(void);

/*
 * Is @p linked to a site?  True from registration until
 * kprobe_detach_done(); a zeroed kprobe (list.next == NULL) is not.
 */
static inline bool kprobe_listed(const struct kprobe *p)
{
	return p->list.next && !list_empty(&p->list);
}

/* Is @site in the table (its text exists and it has members)? */
static inline bool kprobe_site_live(const struct kprobe_site *site)
{
	return site->state == KPROBE_SITE_DISARMED ||
	       site->state == KPROBE_SITE_ARMED;
}

/* ---- arm.c ---- */

int kprobe_site_arm(struct kprobe_site *site);
void kprobe_site_disarm(struct kprobe_site *site);
/* Bring the site's text in line with its members and the global switch. */
int kprobe_site_sync(struct kprobe_site *site);
int kprobes_arm_all(void);
int kprobes_disarm_all(void);
/*
 * The site's text is being freed: take it out of the table, mark it and its
 * members GONE.  Its text is never written again.
 */
void kprobe_site_kill(struct kprobe_site *site);
/* Set by kprobe_ftrace_kill(); no site is armed through ftrace after it. */
extern bool kprobe_ftrace_killed;

/* ---- address.c ---- */

/**
 * struct kprobe_target - where a kprobe being registered will sit
 * @addr: the final probe address (after symbol lookup and arch adjustment)
 * @mod: module owning @addr, referenced until registration ends, or NULL
 * @on_func_entry: @addr is the entry of its function
 * @ftrace: @addr is an ftrace call site (armed through ftrace)
 */
struct kprobe_target {
	kprobe_opcode_t *addr;
	struct module *mod;
	bool on_func_entry;
	bool ftrace;
};

/* Fill @t->addr and @t->on_func_entry from @p; @p is not modified. */
int kprobe_resolve_addr(struct kprobe *p, struct kprobe_target *t);
/* May @t->addr get a new site?  Sets @t->mod (referenced) and @t->ftrace. */
int kprobe_check_addr(struct kprobe *p, struct kprobe_target *t);
/* The one pr_info line of a refused registration. */
void kprobe_refuse(const struct kprobe *p, const char *why);

/* ---- blacklist.c ---- */

/* Why a range is on the blacklist (selects the refusal message). */
enum kprobe_bl_kind {
	KPROBE_BL_SYMBOL,	/* NOKPROBE_SYMBOL() */
	KPROBE_BL_KPROBES_TEXT,	/* .kprobes.text */
	KPROBE_BL_NOINSTR,	/* noinstr text */
	KPROBE_BL_ENTRY,	/* entry text */
	KPROBE_BL_AREA,		/* added by kprobe_add_area_blacklist() */
};

int kprobe_blacklist_init(void);
const char *kprobe_blacklist_reason(unsigned long addr);
int kprobe_blacklist_add(unsigned long start, unsigned long end,
			 enum kprobe_bl_kind kind);
/* Additions between begin and end are published at once (a module's). */
void kprobe_blacklist_begin(void);
int kprobe_blacklist_end(void);
void kprobe_blacklist_remove_module(struct module *mod);
void kprobe_blacklist_debugfs_init(struct dentry *dir);

/* NOKPROBE_SYMBOL() records (asm-generic/kprobes.h, vmlinux.lds.h) */
extern unsigned long __start_kprobe_blacklist[];
extern unsigned long __stop_kprobe_blacklist[];

/* ---- slots.c ---- */

kprobe_opcode_t *kprobe_slot_alloc(void);
void kprobe_slot_free(kprobe_opcode_t *slot);

/* ---- module.c (CONFIG_MODULES only) ---- */

#ifdef CONFIG_MODULES
int kprobe_module_init(void);
/*
 * @addr is not core kernel text: find its module and take a reference for
 * the duration of the registration.  On error *why says why.
 */
int kprobe_module_text_get(unsigned long addr, struct module **modp,
			   const char **why);
#else
static inline int kprobe_module_init(void)
{
	return 0;
}

static inline int kprobe_module_text_get(unsigned long addr,
					 struct module **modp,
					 const char **why)
{
	*why = "not in kernel text";
	return -EINVAL;
}
#endif

/* ---- ftrace.c (CONFIG_KPROBES_ON_FTRACE only) ---- */

#ifdef CONFIG_KPROBES_ON_FTRACE
int kprobe_ftrace_arm(struct kprobe_site *site);
void kprobe_ftrace_disarm(struct kprobe_site *site);
#else
static inline int kprobe_ftrace_arm(struct kprobe_site *site)
{
	return -ENODEV;
}

static inline void kprobe_ftrace_disarm(struct kprobe_site *site) { }
#endif

/* ---- kretprobe.c ---- */

struct seq_file;

#ifdef CONFIG_KRETPROBES
/* Drop @rp's pool after its entry probe is gone and a grace period passed. */
void kretprobe_unregister_tail(struct kretprobe *rp);
/* Is @p the entry probe of a kretprobe (debugfs prints "r")? */
bool kprobe_is_kretprobe(struct kprobe *p);
/* Append "  missed: empty=N recursion=N refused=N" (no newline). */
void kretprobe_show_extra(struct seq_file *m, struct kprobe *p);
#else
static inline bool kprobe_is_kretprobe(struct kprobe *p)
{
	return false;
}

static inline void kretprobe_show_extra(struct seq_file *m, struct kprobe *p)
{
}
#endif

/* ---- debugfs.c ---- */

int kprobe_debugfs_init(void);
/* Hex digits of an address in debugfs files (all zeros when hidden). */
#define KPROBE_ADDR_WIDTH	((int)(2 * sizeof(unsigned long)))

/* ---- arch, private to the subsystem (arch/x86/kernel/kprobes/) ---- */

/* -EILSEQ unless @addr starts an instruction of its function. */
int arch_kprobe_check_insn_boundary(unsigned long addr);

/*
 * Why the last arch_prepare_kprobe() or arch_kprobe_check_insn_boundary()
 * failed, for the core's message: set by the arch before it returns an
 * error, read by the core; both under kprobe_mutex.  May be NULL.
 */
extern const char *kprobe_arch_reason;

/*
 * Copy @len bytes of text at @addr into @dst with the original bytes of
 * every probe site put back.  For the instruction decoder.
 */
int kprobe_copy_original_text(void *dst, unsigned long addr, size_t len);

#endif /* _KERNEL_KPROBES_INTERNAL_H */
