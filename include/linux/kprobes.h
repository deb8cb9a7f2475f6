/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel probes: dynamic breakpoints on (almost) any kernel instruction.
 *
 * The header is in four parts:
 *
 *   1. types shared by users and the core (struct kprobe, struct kretprobe);
 *   2. the user API (register/unregister/enable/disable), kernel-doc'd in
 *      kernel/kprobes/core.c and kernel/kprobes/kretprobe.c;
 *   3. helpers that may be used from a handler or from the trap path;
 *   4. the architecture contract: what an architecture implements and what
 *      the core provides to it.
 *
 * The design (probe states, lock order, handler context rules) is written
 * down in kernel/kprobes/internal.h and Documentation/trace/kprobes.rst.
 */
#ifndef _LINUX_KPROBES_H
#define _LINUX_KPROBES_H

#include <linux/compiler.h>
#include <linux/linkage.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/notifier.h>
#include <linux/smp.h>
#include <linux/bug.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <linux/ftrace.h>
#include <linux/refcount.h>
#include <asm/kprobes.h>

#ifndef CONFIG_KPROBES
/*
 * Without kprobes the architecture defines neither type.  struct kprobe
 * stays declared all the same, so that code which embeds one and calls
 * the API behind IS_ENABLED(CONFIG_KPROBES) builds in every configuration.
 */
typedef unsigned char kprobe_opcode_t;
struct arch_specific_insn {
	char unused;
};
#endif

struct kprobe;
struct pt_regs;
struct kretprobe;
struct kretprobe_instance;

/* ---------------------------------------------------------------------
 * 1. Types
 * ---------------------------------------------------------------------
 */

/**
 * typedef kprobe_pre_handler_t - called before the probed instruction runs
 * @p: the registered kprobe that was hit
 * @regs: the registers at the hit; the instruction pointer is where a
 *	breakpoint reports the hit: the probe address + 1 on x86 (past the
 *	int3), the probe address itself on riscv and powerpc
 *
 * Return 0 to let the probed instruction run (then the post handler, if
 * any, is called).  Return non-zero after changing regs->ip to resume
 * somewhere else: the probed instruction and the post handler are skipped.
 * A probe without post handlers may be jump-optimized (CONFIG_OPTPROBES),
 * and then a changed regs->ip is ignored; see "Jump optimization" in
 * Documentation/trace/kprobes.rst.
 */
typedef int (*kprobe_pre_handler_t)(struct kprobe *p, struct pt_regs *regs);

/**
 * typedef kprobe_post_handler_t - called after the probed instruction ran
 * @p: the registered kprobe that was hit
 * @regs: the registers after the instruction, as if it had run in place
 * @flags: always 0
 */
typedef void (*kprobe_post_handler_t)(struct kprobe *p, struct pt_regs *regs,
				      unsigned long flags);

/* Bits of kprobe::flags.  Users may set KPROBE_FLAG_DISABLED before
 * registering; every other bit belongs to the core.
 */
#define KPROBE_FLAG_GONE		0x1	/* the probed text is gone */
#define KPROBE_FLAG_DISABLED		0x2	/* registered, not firing */
#define KPROBE_FLAG_OPTIMIZED		0x4	/* a jump replaced the int3 */
#define KPROBE_FLAG_FTRACE		0x8	/* armed through ftrace */
#define KPROBE_FLAG_ON_FUNC_ENTRY	0x10	/* at a function's entry */

/**
 * struct kprobe - one breakpoint probe
 * @addr: address to probe, or NULL to use @symbol_name + @offset
 * @symbol_name: symbol to probe (with @offset); exclusive with @addr
 * @offset: byte offset from @symbol_name (or from @addr)
 * @pre_handler: called before the probed instruction runs
 * @post_handler: called after the probed instruction ran (may be NULL)
 * @flags: KPROBE_FLAG_*; only KPROBE_FLAG_DISABLED may be set by users
 * @nmissed: hits whose handlers were skipped because the CPU was busy
 *	with kprobes (in a handler, stepping a copy, or a busy section)
 * @list: core-owned; linked while the probe is attached to a probe site
 * @hlist: core-owned; hashed while the probe is the primary entry of a site
 * @opcode: core-owned; the original first byte(s) of the probed instruction
 * @ainsn: core-owned; architecture's copy of the probed instruction
 *
 * The fields up to @nmissed are the user's; the rest belong to the core
 * from registration until unregister_kprobe() returns.
 */
struct kprobe {
	kprobe_opcode_t *addr;
	const char *symbol_name;
	unsigned int offset;
	kprobe_pre_handler_t pre_handler;
	kprobe_post_handler_t post_handler;
	u32 flags;
	unsigned long nmissed;

	struct list_head list;
	struct hlist_node hlist;
	kprobe_opcode_t opcode;
	struct arch_specific_insn ainsn;
};

/**
 * typedef kretprobe_handler_t - kretprobe entry or return handler
 * @ri: the instance of this call: ri->data holds the kretprobe's
 *	data_size bytes, private to the call
 * @regs: at entry, the registers of the probed function's first
 *	instruction; at return, those at its return (the return value in
 *	regs_return_value())
 *
 * As an entry handler, a non-zero return means "do not track this call":
 * the return handler will not run for it.
 */
typedef int (*kretprobe_handler_t)(struct kretprobe_instance *ri,
				   struct pt_regs *regs);

struct kretprobe_pool;

/**
 * struct kretprobe - a probe on a function's return
 * @kp: the entry probe (set @kp.addr or @kp.symbol_name)
 * @handler: called when the probed function returns
 * @entry_handler: optional, called on function entry
 * @maxactive: instances to preallocate; <= 0 picks a default
 * @nmissed: returns not probed because no instance was free (as upstream
 *	counts; the other causes are in @missed_refused and @kp.nmissed)
 * @data_size: bytes of per-instance private data (kretprobe_instance::data)
 * @pool: core-owned instance pool; outlives the kretprobe while instances
 *	are still on some task's stack
 * @missed_empty: core-owned; misses because the pool was empty (the
 *	recursion misses are @kp.nmissed)
 * @missed_refused: core-owned; calls the entry handler declined
 */
struct kretprobe {
	struct kprobe kp;
	kretprobe_handler_t entry_handler;
	kretprobe_handler_t handler;
	size_t data_size;
	int maxactive;
	int nmissed;

	unsigned long missed_empty;
	unsigned long missed_refused;
	struct kretprobe_pool __rcu *pool;
};

#define KRETPROBE_MAX_DATA_SIZE		4096
/* No fixed maxactive limit: see kretprobe_pool_addressable(). */

/**
 * struct kretprobe_instance - one tracked call of a kretprobe'd function
 * @llist: core-owned; links the instance on its task's stack of instances
 * @pool: core-owned; the pool this instance belongs to
 * @task: the task that made the call
 * @ret_addr: the real return address, replaced by the trampoline's
 * @fp: the stack slot that held @ret_addr (identifies the frame)
 * @free_next: core-owned; free-list link inside the pool (the next free
 *	instance's token)
 * @data: @kretprobe::data_size bytes for the handlers
 */
struct kretprobe_instance {
	struct llist_node llist;
	struct kretprobe_pool *pool;
	struct task_struct *task;
	kprobe_opcode_t *ret_addr;
	void *fp;
	unsigned long free_next;
	char data[];
};

/**
 * struct kprobe_blacklist_entry - an address range that may not be probed
 * @list: link on the blacklist
 * @start_addr: first byte of the range
 * @end_addr: one past its last byte
 */
struct kprobe_blacklist_entry {
	struct list_head list;
	unsigned long start_addr;
	unsigned long end_addr;
};

/*
 * Flag tests usable whether or not kprobes is built in, on a struct kprobe
 * and on the hit path's struct kprobe_hit_site (<linux/kprobes_arch.h>),
 * which has the same flags.
 */
#define kprobe_has_flag(p, mask)	(((p)->flags & (mask)) != 0)

#define kprobe_gone(p)		kprobe_has_flag(p, KPROBE_FLAG_GONE)
/* A gone probe counts as disabled: it can never fire again. */
#define kprobe_disabled(p)	\
	kprobe_has_flag(p, KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE)
#define kprobe_optimized(p)	kprobe_has_flag(p, KPROBE_FLAG_OPTIMIZED)
#define kprobe_ftrace(p)	kprobe_has_flag(p, KPROBE_FLAG_FTRACE)

#ifdef CONFIG_KPROBES

/* ---------------------------------------------------------------------
 * 2. User API
 * ---------------------------------------------------------------------
 */
int register_kprobe(struct kprobe *p);
void unregister_kprobe(struct kprobe *p);
int register_kprobes(struct kprobe **kps, int num);
void unregister_kprobes(struct kprobe **kps, int num);
int disable_kprobe(struct kprobe *kp);
int enable_kprobe(struct kprobe *kp);

int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);
int register_kretprobes(struct kretprobe **rps, int num);
void unregister_kretprobes(struct kretprobe **rps, int num);

int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym,
			 unsigned long offset);
bool within_kprobe_blacklist(unsigned long addr);
int kprobe_add_ksym_blacklist(unsigned long entry);
int kprobe_add_area_blacklist(unsigned long start, unsigned long end);
void wait_for_kprobe_optimizer(void);
void kprobe_free_init_mem(void);
void kprobe_ftrace_kill(void);
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym);
kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset);
void dump_kprobe(struct kprobe *kp);

static inline int disable_kretprobe(struct kretprobe *rp)
{
	return disable_kprobe(&rp->kp);
}

static inline int enable_kretprobe(struct kretprobe *rp)
{
	return enable_kprobe(&rp->kp);
}

/* ---------------------------------------------------------------------
 * 3. Handler and trap-path helpers
 * ---------------------------------------------------------------------
 */

/* The probe whose handlers this CPU is running, or NULL. */
DECLARE_PER_CPU(struct kprobe *, current_kprobe);

static nokprobe_inline struct kprobe *kprobe_running(void)
{
	return __this_cpu_read(current_kprobe);
}

static nokprobe_inline void reset_current_kprobe(void)
{
	/*
	 * Not before the stores that ended the hit (the per-CPU state back
	 * to idle): an interrupting hit reads NULL as "idle".
	 */
	barrier();
	__this_cpu_write(current_kprobe, NULL);
}

struct kprobe *get_kprobe(void *addr);
void kprobes_inc_nmissed_count(struct kprobe *p);

/*
 * kprobe_busy_begin/end() - make probes hit in between count as missed.
 * Used around code that runs probe handlers without a breakpoint (the
 * kretprobe trampoline, fprobe's kprobe emulation).
 */
void kprobe_busy_begin(void);
void kprobe_busy_end(void);

static nokprobe_inline bool kprobe_page_fault(struct pt_regs *regs,
					      unsigned int trap)
{
	if (user_mode(regs) || preemptible() || !kprobe_running())
		return false;
	return kprobe_fault_handler(regs, trap);
}

#ifdef CONFIG_KRETPROBES
void kprobe_flush_task(struct task_struct *tk);
unsigned long kretprobe_find_ret_addr(struct task_struct *tsk, void *fp,
				      struct llist_node **cur);

static nokprobe_inline void *kretprobe_trampoline_addr(void)
{
	return dereference_kernel_function_descriptor(arch_kretprobe_trampoline);
}

static nokprobe_inline bool is_kretprobe_trampoline(unsigned long addr)
{
	/*
	 * As integers: gcc compares two pointers on parisc through a call of
	 * its function pointer canonicalizer for each.
	 */
	return addr == (unsigned long)kretprobe_trampoline_addr();
}

/*
 * get_kretprobe() - the kretprobe an instance was taken for, or NULL when
 * that kretprobe has been unregistered while the instance was in flight.
 */
struct kretprobe *get_kretprobe(struct kretprobe_instance *ri);

static nokprobe_inline unsigned long
get_kretprobe_retaddr(struct kretprobe_instance *ri)
{
	return (unsigned long)ri->ret_addr;
}

/* Called by the architecture's return trampoline. */
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs,
					   void *frame_pointer);
#else /* !CONFIG_KRETPROBES */
static inline void kprobe_flush_task(struct task_struct *tk) { }
static inline bool is_kretprobe_trampoline(unsigned long addr)
{
	return false;
}

static inline unsigned long kretprobe_find_ret_addr(struct task_struct *tsk,
						    void *fp,
						    struct llist_node **cur)
{
	return 0;
}
#endif /* CONFIG_KRETPROBES */

/* ---------------------------------------------------------------------
 * 4. Instruction slots, for unwinders and the architecture
 * ---------------------------------------------------------------------
 *
 * What an architecture implements and what the core offers it is the
 * contract in <linux/kprobes_arch.h>.
 */

/* Executable pages for instruction slots (weak, overridable). */
void *alloc_insn_page(void);

/* Is @addr inside one of the core's executable instruction slots? */
bool kprobe_insn_slot_contains(unsigned long addr);
bool kprobe_optinsn_slot_contains(unsigned long addr);

static inline bool is_kprobe_insn_slot(unsigned long addr)
{
	return kprobe_insn_slot_contains(addr);
}

static inline bool is_kprobe_optinsn_slot(unsigned long addr)
{
	return kprobe_optinsn_slot_contains(addr);
}

#else /* !CONFIG_KPROBES */

static inline int register_kprobe(struct kprobe *p)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kprobe(struct kprobe *p) { }

static inline int register_kprobes(struct kprobe **kps, int num)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kprobes(struct kprobe **kps, int num) { }

static inline int disable_kprobe(struct kprobe *kp)
{
	return -EOPNOTSUPP;
}

static inline int enable_kprobe(struct kprobe *kp)
{
	return -EOPNOTSUPP;
}

static inline int register_kretprobe(struct kretprobe *rp)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kretprobe(struct kretprobe *rp) { }

static inline int register_kretprobes(struct kretprobe **rps, int num)
{
	return -EOPNOTSUPP;
}

static inline void unregister_kretprobes(struct kretprobe **rps, int num) { }

static inline int disable_kretprobe(struct kretprobe *rp)
{
	return -EOPNOTSUPP;
}

static inline int enable_kretprobe(struct kretprobe *rp)
{
	return -EOPNOTSUPP;
}

static inline struct kprobe *get_kprobe(void *addr)
{
	return NULL;
}

static inline struct kprobe *kprobe_running(void)
{
	return NULL;
}

static inline void kprobe_busy_begin(void) { }
static inline void kprobe_busy_end(void) { }

static inline bool kprobe_page_fault(struct pt_regs *regs, unsigned int trap)
{
	return false;
}

static inline int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	return 0;
}

static inline bool within_kprobe_blacklist(unsigned long addr)
{
	return true;
}

static inline int kprobe_get_kallsym(unsigned int symnum, unsigned long *value,
				     char *type, char *sym)
{
	return -ERANGE;
}

static inline void wait_for_kprobe_optimizer(void) { }
static inline void kprobe_free_init_mem(void) { }
static inline void kprobe_ftrace_kill(void) { }
static inline void kprobe_flush_task(struct task_struct *tk) { }

static inline bool is_kprobe_insn_slot(unsigned long addr)
{
	return false;
}

static inline bool is_kprobe_optinsn_slot(unsigned long addr)
{
	return false;
}

static inline bool is_kretprobe_trampoline(unsigned long addr)
{
	return false;
}

static inline unsigned long kretprobe_find_ret_addr(struct task_struct *tsk,
						    void *fp,
						    struct llist_node **cur)
{
	return 0;
}

#endif /* CONFIG_KPROBES */

#endif /* _LINUX_KPROBES_H */
