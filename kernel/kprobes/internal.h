/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kprobes core: internal design, shared by the files of kernel/kprobes/.
 *
 * Files and what each owns
 * ------------------------
 *   core.c       init, the exported register/unregister/enable/disable API,
 *                kprobe_mutex, current_kprobe, busy sections, die notifier
 *   site.c       probe sites: state, members, the dispatchers that run
 *                every member's handlers, the hit-path offers of the arch
 *                contract (kprobe_hit_*())
 *   table.c      the address table: an RCU hash table of sites, no policy
 *   arm.c        arming/disarming one site or all of them (debugfs "enabled")
 *   address.c    symbol+offset resolution and address validation
 *   blacklist.c  NOKPROBE_SYMBOL ranges, arch areas, debugfs "blacklist"
 *   slots.c      executable instruction slots
 *   registry.c   which struct kprobe are registered, and on which site
 *   module.c     module notifier (GONE), freeing of init text
 *   ftrace.c     sites armed through ftrace instead of an int3
 *   kretprobe.c  return probes: instance pools and the trampoline handler
 *   debugfs.c    /sys/kernel/debug/kprobes/{list,enabled,blacklist}
 *   optimizer.c  jump optimization: which sites get a jump, and when
 *   sysctl.c     /proc/sys/debug/kprobes-optimization
 *
 * The architecture sees none of this header: what it implements and what
 * the core offers it is <linux/kprobes_arch.h>, included below.  Its
 * "locked" context is kprobe_mutex held.
 *
 * Sites and members
 * -----------------
 * Every probed address has exactly one struct kprobe_site.  The site starts
 * with the struct kprobe_hit_site that the table, the architecture and the
 * hit path see; it is not a struct kprobe, so a site costs what it holds
 * (96 bytes on 64-bit), not a second struct kprobe.  Users' kprobes
 * are *members* of the site, linked through kprobe::list, and the one whose
 * handler runs is current_kprobe (kprobe_hit_pre()).  A registered user
 * kprobe therefore always has a non-empty kprobe::list (tracing code
 * relies on it) and its site is in the table or on the GONE list.  The
 * converse does not hold: whether a kprobe is registered, and on which
 * site, is asked of the registry (registry.c, kprobe_site_of_member()),
 * which only the core writes.  Every field of a struct kprobe is its
 * owner's: one that was never registered may hold anything, and a
 * registered one may have had its addr or symbol_name changed since.
 * Registration initialises the core fields; unregistration gives addr
 * back the probed address.
 *
 * Site states (kprobe_site::hit.state, changed only by
 * kprobe_site_set_state() under kprobe_mutex):
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
 *             the table, never written again; on the GONE list until its
 *             members are unregistered.
 *   DEAD      out of the table and the GONE list, on its unregistering
 *             caller's reap list; freed after an RCU grace period.
 *
 * There is no list of all sites: the live ones (DISARMED, ARMED) are the
 * table's entries, and for_each_kprobe_site() walks the table, then the
 * GONE list.  A site costs no list node for being findable twice.
 *
 * Lock order (outermost first)
 * ----------------------------
 *   kprobe_mutex            every registration change, site state, counts,
 *                           the optimizer's lists (optimizer.c)
 *     cpus_read_lock()      (optimizer, ftrace registration, text
 *                           writes: kprobe_text_lock())
 *       jump_label_lock()   reserved-text checks while preparing a site
 *         text_mutex        any write to kernel text (arch_arm/disarm)
 *
 * Handler context
 * ---------------
 * The hit path (a breakpoint trap, the optimized detour, the ftrace
 * handler, the kretprobe trampoline) runs with preemption off, may be in
 * NMI context (x86 and riscv enter breakpoint traps like NMIs), and takes
 * no sleeping lock, no non-raw spinlock and allocates nothing.  Interrupts
 * are off in a breakpoint trap; the detours, the ftrace handler and the
 * return trampoline keep the probed context's interrupt state
 * (Documentation/trace/kprobes.rst, "Handler context", per architecture).
 * It reads the table and the members lists under RCU (an int3 is an RCU
 * read-side section on x86).
 * Everything it touches is NOKPROBE_SYMBOL or nokprobe_inline.  The
 * core's functions that every hit calls (dispatchers, kretprobe entry and
 * return) are notrace as well, and so are the architectures' trap,
 * detour and trampoline handlers (x86 and riscv annotate them, powerpc
 * builds its kprobes objects without ftrace): an fentry pad costs every
 * hit an instruction, and the function tracer can watch the handlers
 * themselves.
 */
#ifndef _KERNEL_KPROBES_INTERNAL_H
#define _KERNEL_KPROBES_INTERNAL_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>

struct dentry;
struct kprobe_site;

/*
 * Only an architecture with OPTPROBES sizes detour buffers
 * (<linux/kprobes_arch.h>); without it the detour allocator in slots.c is
 * built all the same, never called, and sized like an instruction slot.
 */
#ifndef KPROBE_OPTSLOT_BYTES
#define KPROBE_OPTSLOT_BYTES	KPROBE_SLOT_BYTES
#endif

/*
 * rcu_dereference() for what the hit path reads.  Hits run with preemption
 * or interrupts disabled, which makes them RCU readers, so !preemptible()
 * is tested first: under CONFIG_PROVE_LOCKING rcu_read_lock_any_held()
 * walks the held-lock stack three times, which costs more than the rest
 * of a hit.  @cond names the other legal readers (the writers' lock).
 */
#define kprobe_hit_dereference(p, cond)					\
	rcu_dereference_check(p, !preemptible() ||			\
			      rcu_read_lock_any_held() || (cond))

/* ---- core.c ---- */

/*
 * Busy sections.  current_kprobe is the core's, the rest of the per-CPU
 * state the architecture's: arch_kprobe_busy_begin() enters its busy
 * state and hands back what to restore.  Sections nest (an NMI may start
 * one inside another, or inside a handler), each level with a save of
 * its own: it saves what it finds, makes the CPU busy and puts back what
 * it saved.  A level's slot is taken by the depth++ before it is written
 * and given back by the depth-- after it is read, so an NMI anywhere in
 * between, even in the middle of another level's enter or leave, uses
 * the next slot and leaves the CPU as it found it; the CPU is busy for
 * the whole of every section.  Beyond KPROBE_BUSY_NEST levels a section
 * only counts (the CPU is busy already: some level below made it so and
 * has not ended).  kprobe_busy_begin()/end() are the exported calls.  (A
 * kretprobe return is busy only while a return handler runs, through
 * current_kprobe alone, see kretprobe_call().)
 */
#define KPROBE_BUSY_NEST	4

struct kprobe_busy_save {
	unsigned int depth;
	struct {
		struct kprobe *kp;
		unsigned long arch;
	} level[KPROBE_BUSY_NEST];
};

DECLARE_PER_CPU(struct kprobe_busy_save, kprobe_busy_save);
extern struct kprobe kprobe_busy;

static __always_inline void kprobe_busy_enter(void)
{
	struct kprobe_busy_save *s;
	unsigned int d;

	preempt_disable();
	s = this_cpu_ptr(&kprobe_busy_save);
	d = s->depth++;
	if (d >= KPROBE_BUSY_NEST)
		return;
	/* Slot d is ours from here: an NMI takes the one after it. */
	barrier();
	s->level[d].kp = __this_cpu_read(current_kprobe);
	/* current_kprobe first: an NMI in between sees a busy CPU. */
	__this_cpu_write(current_kprobe, &kprobe_busy);
	barrier();
	s->level[d].arch = arch_kprobe_busy_begin();
}

static __always_inline void kprobe_busy_leave(void)
{
	struct kprobe_busy_save *s = this_cpu_ptr(&kprobe_busy_save);
	unsigned int d = s->depth - 1;

	if (d < KPROBE_BUSY_NEST) {
		/* The state first: current_kprobe may become NULL. */
		arch_kprobe_busy_end(s->level[d].arch);
		barrier();
		__this_cpu_write(current_kprobe, s->level[d].kp);
		/* Restored before an NMI could take slot d again. */
		barrier();
	}
	s->depth = d;
	preempt_enable();
}

/*
 * A NULL kprobe, kretprobe or array passed to the API: refused (-EINVAL,
 * or nothing done by the void calls) with one warning per boot and file,
 * rather than an Oops inside kprobe_mutex that would leave kprobes
 * unusable until the next boot.
 */
#define kprobe_null_arg(ptr)						\
	(unlikely(!(ptr)) &&						\
	 ({ pr_warn_once("%s: NULL argument, ignored\n", __func__); true; }))

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
 * single RCU grace period (kprobe_wait_handlers()):
 *
 *	struct kprobe_site *reap = NULL;
 *	mutex_lock(&kprobe_mutex);
 *	for each p: kprobe_detach_locked(p, &reap);	(-EINVAL: skip p)
 *	mutex_unlock(&kprobe_mutex);
 *	kprobe_wait_handlers();		no handler of a detached p still runs
 *	kprobe_reap(reap);		frees the sites left without members
 *	for each p: kprobe_detach_done(p);	p->list empty: reusable
 *
 * __unregister_kprobes_many() does exactly this for an array of kprobes.
 */
int kprobe_detach_locked(struct kprobe *p, struct kprobe_site **reap);

/*
 * Was @p detached by this unregistration call already (it is in the array
 * twice)?  list_del_rcu() leaves LIST_POISON2 in @p->list.prev until
 * kprobe_detach_done(); such a @p keeps its addr, so that the call still
 * finishes it.  Only asked of a @p that kprobe_detach_locked() refused.
 */
static inline bool kprobe_detached_here(struct kprobe *p)
{
	return p->list.prev == LIST_POISON2;
}

void kprobe_wait_handlers(void);
void kprobe_reap(struct kprobe_site *reap);
void kprobe_detach_done(struct kprobe *p);
void __unregister_kprobes_many(struct kprobe **kps, int num);

/* ---- site.c ---- */

enum kprobe_site_state {
	KPROBE_SITE_NEW,
	KPROBE_SITE_DISARMED,
	KPROBE_SITE_ARMED,
	KPROBE_SITE_GONE,
	KPROBE_SITE_DEAD,
};

/**
 * struct kprobe_site - everything probing one address
 * @hit: what the table, the architecture and the hit path see (struct
 *	kprobe_hit_site in <linux/kprobes_arch.h>): addr, solo, resume,
 *	ainsn, flags (GONE/OPTIMIZED/FTRACE/ON_FUNC_ENTRY), opcode and post
 *	(an enabled member has a post handler)
 * @members: user kprobes (kprobe::list); RCU for readers, kprobe_mutex
 *	for writers
 * @opt: jump optimization (optimizer.c), NULL until the site was first a
 *	candidate; set under kprobe_mutex, read by the trap path
 * @next: the next site on the GONE list while GONE, on the caller's reap
 *	list once DEAD, else unused; kprobe_mutex.  Neither list is read by
 *	the hit path, so one link serves both.
 *
 * hit.state is the site's enum kprobe_site_state (kprobe_mutex).  Whether
 * a member is enabled is asked of the members (kprobe_site_enabled()),
 * not counted: a site has one member or a few.
 *
 * hit.solo is the only enabled member if it has a pre handler, else NULL;
 * hit.resume is the detour's copy of the region while it is published
 * (optimizer.c), else 0.  Both are written under kprobe_mutex and read by
 * the hit path.
 *
 * A dead site is freed by whoever unlinked it, after the grace period that
 * unregistration waits for anyway (kprobe_reap()); a site needs no
 * rcu_head.  Which module owns its text is asked of the address when the
 * module goes (module.c), not remembered.
 */
struct kprobe_site {
	struct kprobe_hit_site hit;
	struct list_head members;
	struct kprobe_opt *opt;
	struct kprobe_site *next;
};

static inline struct kprobe_site *kprobe_to_site(struct kprobe_hit_site *p)
{
	return container_of(p, struct kprobe_site, hit);
}

static nokprobe_inline bool kprobe_member_off(struct kprobe *m)
{
	return READ_ONCE(m->flags) & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE);
}

/*
 * Walk every live site, then every GONE one; kprobe_mutex held, and the
 * body moves no site in or out of the table or the GONE list.
 */
#define for_each_kprobe_site(site)					\
	for (site = kprobe_site_next(NULL); site;			\
	     site = kprobe_site_next(site))

/*
 * Walk the live sites only, by table bucket (@pos: unsigned long); the
 * body may take the current site out (kprobe_site_kill()), but nothing
 * may shrink or grow the table until the walk ends (kprobe_kill_sites()
 * trims it afterwards).
 */
#define for_each_live_kprobe_site(site, pos)				\
	for (pos = 0; (site = kprobe_table_next(&pos)); pos++)

/* ---- the address table (table.c) ---- */

#define KPROBE_TABLE_MIN_ORDER	6

/*
 * The table itself is struct kprobe_hit_table (<linux/kprobes_arch.h>):
 * the hit path searches it inline.  A removed entry is a tombstone:
 * searches continue past it, inserts may reuse it.  It is a site whose
 * address (NULL) is never probed, so that a search compares addresses
 * without testing for it first.
 */
extern struct kprobe_hit_site kprobe_tombstone;
#define KPROBE_TOMBSTONE	(&kprobe_tombstone)

/* site.c */
void kprobe_site_set_state(struct kprobe_site *site,
			   enum kprobe_site_state state);
struct kprobe_site *kprobe_site_alloc(kprobe_opcode_t *addr);
void kprobe_site_free(struct kprobe_site *site);	/* after RCU */
struct kprobe_site *kprobe_site_find(unsigned long addr);	/* RCU */
struct kprobe_site *kprobe_site_of_member(struct kprobe *p); /* mutex */

/* registry.c: kprobe_mutex held */
int kprobe_registry_reserve(void);
void kprobe_registry_add(struct kprobe *p, struct kprobe_site *site);
struct kprobe_site *kprobe_registry_site(const struct kprobe *p);
void kprobe_registry_del(const struct kprobe *p);
struct kprobe_site *kprobe_site_next(struct kprobe_site *site); /* mutex */
void kprobe_site_gone_add(struct kprobe_site *site);	/* mutex */
void kprobe_site_gone_del(struct kprobe_site *site);	/* mutex */
bool kprobe_site_enabled(const struct kprobe_site *site); /* mutex */
void kprobe_site_recount(struct kprobe_site *site);

/* table.c: kprobe_mutex held */
int kprobe_table_insert(struct kprobe_site *site);
void kprobe_table_remove(struct kprobe_site *site);	/* no shrinking */
void kprobe_table_trim(void);		/* shrink if sparse */
struct kprobe_site *kprobe_table_next(unsigned long *pos);
unsigned long kprobe_table_pos(struct kprobe_site *site);
int kprobe_table_init(void);

/* Is @site in the table (its text exists and it has members)? */
static inline bool kprobe_site_live(const struct kprobe_site *site)
{
	return site->hit.state == KPROBE_SITE_DISARMED ||
	       site->hit.state == KPROBE_SITE_ARMED;
}

/* ---- arm.c ---- */

int kprobe_site_arm(struct kprobe_site *site);
void kprobe_site_disarm(struct kprobe_site *site);
/* Bring the site's text in line with its members and the global switch. */
int kprobe_site_sync(struct kprobe_site *site);
int kprobes_arm_all(void);
int kprobes_disarm_all(void);
/*
 * Text is being freed (a module, init text): every live site on it goes
 * GONE, out of the table and onto the GONE list, with its members.  Its
 * text is never written again.
 */
unsigned int kprobe_kill_sites(bool (*doomed)(unsigned long addr, void *data),
			       void *data);
/* Set by kprobe_ftrace_kill(); no site is armed through ftrace after it. */
extern bool kprobe_ftrace_killed;

/*
 * Batched text writes.  Between kprobe_batch_begin() and kprobe_batch_end(),
 * inside one hold of kprobe_mutex, kprobe_site_arm()/kprobe_site_disarm()
 * of int3 sites change the site's state at once but only queue the text
 * write; kprobe_site_retire() of a site whose write is queued waits for it
 * too.  kprobe_batch_end() (or kprobe_batch_flush(), which keeps the batch
 * open) does the queued writes with one cross-CPU synchronisation for the
 * lot, then takes the retired sites out of the table.  Queued writes are
 * one way at a time: a disarm while arms are queued (or the reverse)
 * flushes first, so the text always goes through the same steps as
 * without batching.  @max is a size hint.  kprobe_batch_begin() returns
 * NULL if it cannot open a batch (no memory, or one is open already) or
 * need not (@max of 1: one write shares nothing, and a single
 * register_kprobe() or unregister_kprobe() saves the batch's allocation);
 * writes are then done at once, as outside a batch, and
 * kprobe_batch_end(NULL) does nothing.
 * Until a retired site is out of the table, no registration may look it
 * up: flush before anything but more detaching.
 */
struct kprobe_batch;
struct kprobe_batch *kprobe_batch_begin(unsigned int max);
void kprobe_batch_flush(void);
void kprobe_batch_end(struct kprobe_batch *batch);
/* Take a DISARMED site that lost its last member out of the table. */
void kprobe_site_retire(struct kprobe_site *site);

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
/* The one pr_info line of a refused registration (rate-limited). */
void kprobe_refuse(const struct kprobe *p, const char *why);
/* kprobe_on_func_entry() for @p, with kprobe_refuse() when it fails. */
int kprobe_check_func_entry(struct kprobe *p);

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
/* "foo" of foo.cold, foo.isra.0, ...: its length, or 0 if not a part. */
/*
 * The entry text (ENTRY_TEXT in the linker script) is where x86 and riscv
 * enter the kernel from user space and interrupts; powerpc's linker
 * script has no such section (its vectors are refused by the
 * architecture).  Weak references for blacklist.c: both 0 where the
 * section is missing.
 */
extern char __entry_text_start[] __weak;
extern char __entry_text_end[] __weak;

size_t kprobe_part_base_len(const char *name);

/* NOKPROBE_SYMBOL() records (asm-generic/kprobes.h, vmlinux.lds.h) */
extern unsigned long __start_kprobe_blacklist[];
extern unsigned long __stop_kprobe_blacklist[];

/* ---- slots.c: the allocators are in <linux/kprobes_arch.h> ---- */

/* ---- module.c (CONFIG_MODULES only) ---- */

/*
 * An upper bound of the bytes a jump entry patches on any architecture,
 * checked before jump_entry_size(), which x86 computes by decoding the
 * instruction (a few hundred instructions per entry).
 */
#define KPROBE_JUMP_ENTRY_MAX	16

#ifdef CONFIG_JUMP_LABEL
/*
 * Whether one of the jump entries [@e, @stop) patches text in [@start,
 * @end] (inclusive, as jump_label_text_reserved()).  Entries of init text
 * count only while @init (the text is still there).  jump_label_lock()
 * held.
 */
static inline bool kprobe_jump_entries_reserved(struct jump_entry *e,
						struct jump_entry *stop,
						bool init,
						unsigned long start,
						unsigned long end)
{
	unsigned long code;

	for (; e < stop; e++) {
		code = jump_entry_code(e);
		if (code > end || code + KPROBE_JUMP_ENTRY_MAX <= start)
			continue;
		if (!init && jump_entry_is_init(e))
			continue;
		if (code + jump_entry_size(e) > start)
			return true;
	}
	return false;
}

/* The same for vmlinux: its init text is there until it runs. */
static inline bool kprobe_core_jump_reserved(unsigned long start,
					     unsigned long end)
{
	return kprobe_jump_entries_reserved(__start___jump_table,
					    __stop___jump_table,
					    system_state < SYSTEM_RUNNING,
					    start, end);
}
#else
static inline bool kprobe_core_jump_reserved(unsigned long start,
					     unsigned long end)
{
	return false;
}
#endif

/* The jump entries of @mod (pinned) and whether its init text is there. */
#if defined(CONFIG_MODULES) && defined(CONFIG_JUMP_LABEL)
static inline bool kprobe_module_jump_reserved(struct module *mod,
					       unsigned long start,
					       unsigned long end)
{
	return kprobe_jump_entries_reserved(mod->jump_entries,
					    mod->jump_entries +
					    mod->num_jump_entries,
					    mod->state == MODULE_STATE_COMING,
					    start, end);
}
#else
static inline bool kprobe_module_jump_reserved(struct module *mod,
					       unsigned long start,
					       unsigned long end)
{
	return false;
}
#endif

#ifdef CONFIG_MODULES
int kprobe_module_init(void);
/*
 * @addr is not core kernel text: find its module and take a reference for
 * the duration of the registration.  On error *why says why.
 */
int kprobe_module_text_get(unsigned long addr, struct module **modp,
			   const char **why);
/*
 * kallsyms_lookup_size_offset() for an address that may be in a module,
 * with kprobe_mutex held: module symbols through an index (module.c).
 */
bool kprobe_module_sym_size_offset(unsigned long addr, unsigned long *size,
				   unsigned long *offset);
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

static inline bool kprobe_module_sym_size_offset(unsigned long addr,
						 unsigned long *size,
						 unsigned long *offset)
{
	return kallsyms_lookup_size_offset(addr, size, offset);
}
#endif

/* ---- ftrace.c (CONFIG_KPROBES_ON_FTRACE only) ---- */

/* Is @addr exactly an ftrace call site (a fentry call)? */
#ifdef CONFIG_DYNAMIC_FTRACE
static inline bool kprobe_ftrace_site(unsigned long addr)
{
	return ftrace_location_range(addr, addr) == addr;
}
#else
static inline bool kprobe_ftrace_site(unsigned long addr)
{
	return false;
}
#endif

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

static inline struct kretprobe *kprobe_to_kretprobe(struct kprobe *p)
{
	return container_of(p, struct kretprobe, kp);
}

#ifdef CONFIG_KRETPROBES
/*
 * Unregistering a kretprobe, in the steps of kprobe_detach_locked(): once
 * its entry probe is detached, kretprobe_orphan_locked() (kprobe_mutex
 * held) stops returns in flight from reaching its handlers; after the
 * grace period kretprobe_unregister_tail() drops its pool.  Both
 * unregister_kretprobes() and unregister_kprobe(&rp->kp) take them, so a
 * kretprobe taken apart through its kprobe leaks nothing.
 */
void kretprobe_orphan_locked(struct kretprobe *rp);
void kretprobe_unregister_tail(struct kretprobe *rp);
/* Is @p the entry probe of a kretprobe (debugfs prints "r")? */
bool kprobe_is_kretprobe(struct kprobe *p);
/* Append " empty=N refused=N" to debugfs "missed" (no newline). */
void kretprobe_show_missed(struct seq_file *m, struct kprobe *p);
/* Instance pools not yet freed (KUnit). */
int kretprobe_pools_alive(void);
#else
static inline void kretprobe_orphan_locked(struct kretprobe *rp) { }
static inline void kretprobe_unregister_tail(struct kretprobe *rp) { }

static inline bool kprobe_is_kretprobe(struct kprobe *p)
{
	return false;
}

static inline void kretprobe_show_missed(struct seq_file *m, struct kprobe *p)
{
}
#endif

/* ---- optimizer.c (CONFIG_OPTPROBES only) ---- */

/**
 * enum kprobe_opt_state - how far a site is on its way to a jump
 * @KPROBE_OPT_IDLE: nothing pending; the site is a plain int3 probe
 * @KPROBE_OPT_QUEUED: on the optimizer's queue, to be looked at
 * @KPROBE_OPT_WAITING: detour built and handed to the int3 path; the
 *	optimizer waits until no task can be inside the region any more
 * @KPROBE_OPT_OPTIMIZED: the jump to the detour is in the text
 * @KPROBE_OPT_REFUSED: the architecture cannot optimize the site (final)
 *
 * Changed only by kprobe_opt_set_state() (optimizer.c), which checks each
 * change against this diagram:
 *
 *   IDLE --candidate--> QUEUED --detour built--> WAITING --jump in--> OPTIMIZED
 *    ^ ^                 |  |                      |                     |
 *    | +-not a candidate-+  +--arch refuses--> REFUSED                   |
 *    +------------- no longer a candidate, or the region is needed ------+
 *                   (from QUEUED, WAITING or OPTIMIZED)
 */
enum kprobe_opt_state {
	KPROBE_OPT_IDLE,
	KPROBE_OPT_QUEUED,
	KPROBE_OPT_WAITING,
	KPROBE_OPT_OPTIMIZED,
	KPROBE_OPT_REFUSED,
};

struct ctl_table;

#ifdef CONFIG_OPTPROBES
/**
 * struct kprobe_opt - jump optimization of one probe site
 * @site: the site; NULL once it is dead
 * @list: on one of the optimizer's lists; kprobe_mutex
 * @state: enum kprobe_opt_state, changed only by kprobe_opt_set_state();
 *	kprobe_mutex
 * @insn: the architecture's half (<linux/kprobes_arch.h>): the detour,
 *	the region, the replaced bytes; @insn.probe is NULL once the site
 *	is dead (its detour then runs no handler)
 *
 * The record outlives its site until no task can be inside the detour
 * (see optimizer.c).
 */
struct kprobe_opt {
	struct kprobe_site *site;
	struct list_head list;
	u8 state;
	struct kprobe_opt_insn insn;
};

/* A site changed (state, members, counts): queue it, or unoptimize now. */
void kprobe_opt_update(struct kprobe_site *site);
/* The int3 is about to leave the text: no jump, no detour afterwards. */
void kprobe_opt_stop(struct kprobe_site *site);
/* A site is about to be created at @addr: no jump may cover it. */
void kprobe_opt_make_room(unsigned long addr);
/* Wait until the optimizer has nothing queued; not under kprobe_mutex. */
void kprobe_opt_wait(void);
/* Put the bytes that jumps replaced back into @dst, a copy of @addr. */
void kprobe_opt_original_text(void *dst, unsigned long addr, size_t len);

/* The sysctl: false unoptimizes every site before it returns. */
void kprobe_opt_set_enabled(bool on);
bool kprobe_opt_enabled(void);
/* sysctl.c: the handler of debug.kprobes-optimization */
int kprobe_opt_sysctl_handler(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos);
#else
static inline void kprobe_opt_update(struct kprobe_site *site) { }
static inline void kprobe_opt_stop(struct kprobe_site *site) { }
static inline void kprobe_opt_make_room(unsigned long addr) { }
static inline void kprobe_opt_wait(void) { }
static inline void kprobe_opt_original_text(void *dst, unsigned long addr,
					    size_t len)
{
}
#endif

/* ---- debugfs.c ---- */

int kprobe_debugfs_init(void);
/* Hex digits of an address in debugfs files (all zeros when hidden). */
#define KPROBE_ADDR_WIDTH	((int)(2 * sizeof(unsigned long)))

#endif /* _KERNEL_KPROBES_INTERNAL_H */
