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
 *   kprobe_pool::lock       (raw, leaf) a kretprobe instance pool
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

/* ---- core.c ---- */

extern struct mutex kprobe_mutex;
/* false while debugfs "enabled" is 0; kprobe_mutex */
extern bool kprobes_all_armed;

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

/* ---- arm.c ---- */

int kprobe_site_arm(struct kprobe_site *site);
void kprobe_site_disarm(struct kprobe_site *site);
/* Bring the site's text in line with its members and the global switch. */
int kprobe_site_sync(struct kprobe_site *site);
int kprobes_arm_all(void);
int kprobes_disarm_all(void);

/* ---- address.c ---- */

int kprobe_resolve_addr(struct kprobe *p);
int kprobe_check_addr(struct kprobe *p, struct module **modp);

/* ---- blacklist.c ---- */

int kprobe_blacklist_init(void);
const char *kprobe_blacklist_reason(unsigned long addr);

/* ---- slots.c ---- */

kprobe_opcode_t *kprobe_slot_alloc(void);
void kprobe_slot_free(kprobe_opcode_t *slot);

/* ---- module.c ---- */

int kprobe_module_init(void);

/* ---- ftrace.c ---- */

bool kprobe_site_on_ftrace(unsigned long addr);
int kprobe_ftrace_arm(struct kprobe_site *site);
void kprobe_ftrace_disarm(struct kprobe_site *site);

/* ---- kretprobe.c ---- */

void kretprobe_unregister_tail(struct kretprobe *rp);

/* ---- debugfs.c ---- */

int kprobe_debugfs_init(void);

/* ---- arch, private to the subsystem (arch/x86/kernel/kprobes/) ---- */

/* -EILSEQ unless @addr starts an instruction of its function. */
int arch_kprobe_check_insn_boundary(unsigned long addr);

/*
 * Copy @len bytes of text at @addr into @dst with the original bytes of
 * every probe site put back.  For the instruction decoder.
 */
int kprobe_copy_original_text(void *dst, unsigned long addr, size_t len);

#endif /* _KERNEL_KPROBES_INTERNAL_H */
