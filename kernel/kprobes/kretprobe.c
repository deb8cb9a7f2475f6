// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Return probes.
 *
 * A kretprobe is an entry kprobe plus a pool of preallocated instances.
 * On entry an instance is taken, the architecture swaps the return address
 * for arch_kretprobe_trampoline() and the instance is pushed on the calling
 * task's own list (task_struct::kretprobe_instances).  On return the
 * trampoline calls kretprobe_trampoline_handler(), which finds the
 * instances of the returning frame on that list, runs the handlers and
 * hands back the real return address.  Keying instances by task, not by
 * stack address, needs no knowledge of the stack layout and lets
 * kprobe_flush_task() reclaim whatever a dead task left behind.
 *
 * Task lists: only the owner pushes and pops, LIFO (an interrupt pops its
 * own instances before it returns).  Nodes are published with a release
 * store because unwinders walk the list from NMIs and other CPUs.  Several
 * kretprobes on one function push several instances with the same ri->fp;
 * only the oldest saw the real return address, the newer ones saw the
 * trampoline.  Instances stay linked while the return handlers run, so a
 * stack trace taken in a handler still unwinds through the trampoline.
 *
 * Pools: the free instances form a lock-free stack whose top is one 64-bit
 * word, a generation tag (high half) and the top instance's token (low
 * half).  Every update bumps the tag, so a pop that read a stale top fails
 * its cmpxchg instead of installing a stale "next" (ABA).  Both ends work
 * in NMI context without locks or allocation: an empty pool is the only
 * way a hit can miss.
 *
 * Where the CPU has no 64-bit cmpxchg (CONFIG_GENERIC_ATOMIC64: 32-bit
 * mips and powerpc, parisc, ARMv6, ...) the atomic64 operations are
 * themselves a hashed spinlock taken with interrupts off; the stack is
 * then a plain list under an arch_spinlock_t of the pool's own, taken the
 * same way: fewer instructions, the same guarantees (an NMI that hit a
 * kretprobe while its CPU held the lock would deadlock with either).
 *
 * Lifetime: while its kretprobe is registered a pool counts nothing, so
 * an entry and a return touch the free stack only.  Unregistering orphans
 * the pool (clears its back-pointer: get_kretprobe() then returns NULL)
 * and waits for a grace period; every return that still found the
 * back-pointer has then pushed its instance, and every later one finds
 * it NULL and only counts itself out of @out instead (it will never be
 * taken again).  Nothing moves on the free stack any more, so
 * kretprobe_pool_retire(), the unregistration's tail, counts what is on
 * it and adds the number of instances that were out to @out: whoever
 * brings @out to zero, that call or the last orphaned return, frees the
 * pool, the latter through an irq_work (it may be in an NMI).
 */
#include "internal.h"

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/llist.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

/**
 * struct kretprobe_pool - the instances of one kretprobe
 * @free: top of the free stack: tag in bits 63..32, token in bits 31..0;
 *	a token is an instance's byte offset in @slots plus one, 0 is none,
 *	and each free instance's @free_next holds the next one's
 * @lock: with CONFIG_GENERIC_ATOMIC64, guards @free, whose tag is then
 *	unused (pool_take_locked())
 * @out: 0 until the pool is orphaned; then each orphaned return
 *	subtracts one and kretprobe_pool_retire() adds the instances
 *	that were out: zero when all are home, and it never passes zero
 *	on the way (the file's opening comment).  At most @size, which
 *	kretprobe_pool_addressable() keeps far below INT_MAX.
 * @size: the number of instances (the caller's maxactive may change)
 * @rp: the owner; NULL from the moment unregistration starts
 * @reap: link on kretprobe_reap_list once the last instance is home
 * @slots: the instances, each followed by its private data
 */
struct kretprobe_pool {
	atomic64_t free;
	arch_spinlock_t lock;
	atomic_t out;
	unsigned int size;
	struct kretprobe __rcu *rp;
	struct llist_node reap;
	u8 slots[] __aligned(8);
};

/*
 * The only bound on maxactive (upstream has none): the pool is one
 * kvzalloc(), at most INT_MAX bytes, which also keeps every token (a byte
 * offset into @slots plus one) in 32 bits.  That is some 40 million
 * instances without data, half a million at the largest data_size; a pool
 * beyond it gets -E2BIG.
 */
static bool kretprobe_pool_addressable(const struct kretprobe *rp)
{
	u64 stride = ALIGN(sizeof(struct kretprobe_instance) + rp->data_size, 8);

	return sizeof(struct kretprobe_pool) + (u64)rp->maxactive * stride <=
	       INT_MAX;
}

/* Pools allocated and not yet freed: the KUnit suite's lifetime cases. */
static atomic_t kretprobe_pools = ATOMIC_INIT(0);

int kretprobe_pools_alive(void)
{
	return atomic_read(&kretprobe_pools);
}
EXPORT_SYMBOL_IF_KUNIT(kretprobe_pools_alive);

/* Any context: kvfree() defers a vfree() from hard irq by itself. */
static void kretprobe_pool_free(struct kretprobe_pool *pool)
{
	kvfree(pool);
	atomic_dec(&kretprobe_pools);
}

static LLIST_HEAD(kretprobe_reap_list);

static void kretprobe_reap(struct irq_work *work)
{
	struct kretprobe_pool *pool, *tmp;

	llist_for_each_entry_safe(pool, tmp, llist_del_all(&kretprobe_reap_list),
				  reap)
		kretprobe_pool_free(pool);
}

static DEFINE_IRQ_WORK(kretprobe_reap_work, kretprobe_reap);

static nokprobe_inline struct kretprobe_instance *
pool_slot(struct kretprobe_pool *pool, u32 token)
{
	return (void *)&pool->slots[token - 1];
}

static nokprobe_inline u32 pool_token(struct kretprobe_pool *pool,
				      struct kretprobe_instance *ri)
{
	return (u8 *)ri - pool->slots + 1;
}

/* The new top word: next generation, @token on top. */
static nokprobe_inline s64 pool_top(s64 old, u32 token)
{
	return (s64)(((((u64)old >> 32) + 1) << 32) | token);
}

/*
 * The top word as a first guess for the cmpxchg that takes or gives back
 * an instance.  A 32-bit kernel reads it with plain loads: atomic64_read()
 * is a cmpxchg8b there, or a hashed spinlock.  A torn guess is still a
 * tag and a token that were each in the word once, so a valid slot (or
 * none), and the cmpxchg then fails and hands back the real word.
 */
static nokprobe_inline s64 pool_guess(struct kretprobe_pool *pool)
{
	if (IS_ENABLED(CONFIG_64BIT))
		return atomic64_read(&pool->free);
	return READ_ONCE(pool->free.counter);
}

/* kretprobe_pool_take() where a 64-bit cmpxchg would be a lock anyway. */
static nokprobe_inline struct kretprobe_instance *
pool_take_locked(struct kretprobe_pool *pool)
{
	struct kretprobe_instance *ri = NULL;
	unsigned long flags;
	u32 top;

	/* Under the lock @free is just the top token. */
	local_irq_save(flags);
	arch_spin_lock(&pool->lock);
	top = pool->free.counter;
	if (top) {
		ri = pool_slot(pool, top);
		pool->free.counter = ri->free_next;
	}
	arch_spin_unlock(&pool->lock);
	local_irq_restore(flags);
	return ri;
}

/* __kretprobe_recycle()'s push, the same way. */
static nokprobe_inline void pool_give_locked(struct kretprobe_pool *pool,
					     struct kretprobe_instance *ri)
{
	unsigned long flags;

	local_irq_save(flags);
	arch_spin_lock(&pool->lock);
	ri->free_next = pool->free.counter;
	pool->free.counter = pool_token(pool, ri);
	arch_spin_unlock(&pool->lock);
	local_irq_restore(flags);
}

static nokprobe_inline struct kretprobe_instance *
kretprobe_pool_take(struct kretprobe_pool *pool)
{
	struct kretprobe_instance *ri;
	s64 old;
	u32 next;

	if (IS_ENABLED(CONFIG_GENERIC_ATOMIC64))
		return pool_take_locked(pool);

	old = pool_guess(pool);
	do {
		/* Token 0: the stack is empty. */
		if (!(u32)old)
			return NULL;
		ri = pool_slot(pool, (u32)old);
		/*
		 * If another CPU takes @ri meanwhile, @next is stale, but the
		 * tag has moved on and the cmpxchg fails.  The memory stays
		 * valid: the registration holds the pool while entries run.
		 */
		next = READ_ONCE(ri->free_next);
	} while (!atomic64_try_cmpxchg(&pool->free, &old, pool_top(old, next)));

	return ri;
}

static void kretprobe_pool_release(struct kretprobe_pool *pool)
{
	llist_add(&pool->reap, &kretprobe_reap_list);
	irq_work_queue(&kretprobe_reap_work);
}

NOKPROBE_SYMBOL(kretprobe_pool_release);

/* An instance of an orphaned pool is home: one fewer out. */
static void kretprobe_pool_home(struct kretprobe_pool *pool)
{
	if (atomic_dec_and_test(&pool->out))
		kretprobe_pool_release(pool);
}

NOKPROBE_SYMBOL(kretprobe_pool_home);

/*
 * Return @ri to its pool; the pool may be freed once this returns.  Call
 * inside one RCU read-side section from the test of the back-pointer to
 * the push: unregistration's grace period then tells the two cases apart
 * (the file's opening comment).
 */
static nokprobe_inline void __kretprobe_recycle(struct kretprobe_instance *ri)
{
	struct kretprobe_pool *pool = ri->pool;
	s64 old;

	if (unlikely(!rcu_access_pointer(pool->rp))) {
		kretprobe_pool_home(pool);
		return;
	}
	if (IS_ENABLED(CONFIG_GENERIC_ATOMIC64)) {
		pool_give_locked(pool, ri);
		return;
	}

	old = pool_guess(pool);
	do {
		WRITE_ONCE(ri->free_next, (u32)old);
	} while (!atomic64_try_cmpxchg(&pool->free, &old,
				       pool_top(old, pool_token(pool, ri))));
}

/*
 * The end of an orphaned pool, in task context after the grace period:
 * no entry takes an instance any more and no return pushes one, so the
 * free stack holds still while it is counted.  Those not on it are out;
 * if they are all home already (or none ever left), the pool goes here.
 */
static void kretprobe_pool_retire(struct kretprobe_pool *pool)
{
	unsigned int home = 0;
	u32 token;

	might_sleep();
	for (token = (u32)atomic64_read(&pool->free); token;
	     token = pool_slot(pool, token)->free_next) {
		if (!(++home % 4096))
			cond_resched();
	}
	if (!atomic_add_return(pool->size - home, &pool->out))
		kretprobe_pool_free(pool);
}

/*
 * The same, out of line, for the paths that are not every return: an
 * entry handler's refusal (a hit: preemption is off already) and a dead
 * task's flush (an RCU callback).  The section is made explicit all the
 * same; not rcu_read_lock(), whose out-of-line half is a probeable
 * function.
 */
static void kretprobe_recycle(struct kretprobe_instance *ri)
{
	preempt_disable_notrace();
	__kretprobe_recycle(ri);
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(kretprobe_recycle);

static struct kretprobe_pool *kretprobe_pool_create(struct kretprobe *rp)
{
	unsigned int stride, i;
	struct kretprobe_pool *pool;
	struct kretprobe_instance *ri;

	stride = ALIGN(sizeof(*ri) + rp->data_size, 8);
	/* A pool too large for memory is -ENOMEM, not a warning. */
	pool = kvzalloc(size_add(sizeof(*pool), size_mul(rp->maxactive, stride)),
			GFP_KERNEL | __GFP_NOWARN);
	if (!pool)
		return NULL;

	atomic_inc(&kretprobe_pools);
	pool->size = rp->maxactive;
	pool->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	RCU_INIT_POINTER(pool->rp, rp);
	for (i = 0; i < rp->maxactive; i++) {
		if (!(i % 4096))
			cond_resched();
		ri = pool_slot(pool, i * stride + 1);
		ri->pool = pool;
		ri->free_next = i + 1 < rp->maxactive ? (i + 1) * stride + 1 : 0;
	}
	atomic64_set(&pool->free, 1);	/* tag 0, slot 0 on top */
	return pool;
}

static nokprobe_inline struct kretprobe_instance *to_ri(struct llist_node *n)
{
	return container_of(n, struct kretprobe_instance, llist);
}

/* The first node from @n on that belongs to the frame at @fp, or NULL. */
static nokprobe_inline struct llist_node *frame_first(struct llist_node *n,
						      void *fp)
{
	while (n && to_ri(n)->fp != fp)
		n = READ_ONCE(n->next);
	return n;
}

/* The oldest instance of the frame starting at @n: it holds the real address. */
static nokprobe_inline struct llist_node *frame_last(struct llist_node *n)
{
	struct llist_node *next;

	while ((next = READ_ONCE(n->next)) && to_ri(next)->fp == to_ri(n)->fp)
		n = next;
	return n;
}

/* get_kretprobe(), inline for the trampoline handler. */
static nokprobe_inline struct kretprobe *
kretprobe_of(struct kretprobe_instance *ri)
{
	return kprobe_hit_dereference(ri->pool->rp, false);
}

/**
 * get_kretprobe() - the kretprobe an instance was taken for
 * @ri: an instance passed to an entry or return handler
 *
 * Return: the kretprobe, or NULL when it has been unregistered since the
 * instance was taken (its handlers must not be called any more).  Call
 * with preemption disabled, as every kretprobe handler runs.
 */
struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return kretprobe_of(ri);
}
EXPORT_SYMBOL_GPL(get_kretprobe);
NOKPROBE_SYMBOL(get_kretprobe);

static nokprobe_inline void kretprobe_count(unsigned long *counter)
{
	/* Statistics, bumped on many CPUs: a lost increment is acceptable. */
	data_race((*counter)++);
}

static unsigned long kretprobe_stat(unsigned long *counter)
{
	/* A racy snapshot of a counter other CPUs keep bumping. */
	return data_race(*counter);
}

/*
 * Put @ri on the current task's list, then divert the probed function's
 * return to the trampoline.  In this order an unwinder (an NMI's, on this
 * CPU) that meets the trampoline's address on the stack always finds the
 * instance; until arch_prepare_kretprobe() gives it its frame, the
 * instance has none (fp NULL matches no frame), so one that walks the
 * list meanwhile cannot take it for an older frame's.
 */
static nokprobe_inline void kretprobe_divert(struct kretprobe_instance *ri,
					     struct pt_regs *regs)
{
	struct llist_head *head = &current->kretprobe_instances;

	ri->fp = NULL;
	ri->llist.next = head->first;
	/* Unwinders may walk the list right away: publish a linked node. */
	smp_store_release(&head->first, &ri->llist);
	arch_prepare_kretprobe(ri, regs);
}

/*
 * A kretprobe with an entry handler: out of line, so that the common
 * entry makes no call but arch_prepare_kretprobe() and saves no register.
 * A call the entry handler declined is the user's choice, not a lost
 * event: not in nmissed, only in the debugfs breakdown.
 */
static noinline notrace int kretprobe_entry_handler(struct kretprobe *rp,
						    struct kretprobe_instance *ri,
						    struct pt_regs *regs)
{
	if (rp->entry_handler(ri, regs)) {
		kretprobe_recycle(ri);
		kretprobe_count(&rp->missed_refused);
		return 0;
	}
	kretprobe_divert(ri, regs);
	return 0;
}

NOKPROBE_SYMBOL(kretprobe_entry_handler);

/* The pre_handler of every kretprobe's entry kprobe. */
static notrace int kretprobe_entry(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_pool *pool;
	struct kretprobe_instance *ri;

	pool = kprobe_hit_dereference(rp->pool, false);
	ri = likely(pool) ? kretprobe_pool_take(pool) : NULL;
	if (!ri) {
		/*
		 * The one cause rp->nmissed counts (the documented contract):
		 * no free instance.  Statistics, like the breakdown counters.
		 */
		data_race(rp->nmissed++);
		kretprobe_count(&rp->missed_empty);
		return 0;
	}

	ri->task = current;
	if (unlikely(rp->entry_handler))
		return kretprobe_entry_handler(rp, ri, regs);
	kretprobe_divert(ri, regs);
	return 0;
}

NOKPROBE_SYMBOL(kretprobe_entry);

static void __noreturn kretprobe_lost(unsigned long ret)
{
	pr_err("kretprobe BUG!: %s/%d returned into the trampoline without a usable instance (return address %pS)\n",
	       current->comm, task_pid_nr(current), (void *)ret);
	/*
	 * There is no address to return to: going on would jump anywhere.
	 * Oops, so that only this task dies (or panic_on_oops/kdump act).
	 */
	BUG();
}

NOKPROBE_SYMBOL(kretprobe_lost);

/*
 * Run one return handler as its kretprobe's: kprobe_running() is what
 * BPF's bpf_get_func_ip() reads.  Probes hit meanwhile see a busy CPU and
 * count as missed.  current_kprobe is NULL here on every return but one
 * inside a probe handler or a busy section (a function called from
 * there), and it is put back after each handler.  That store alone makes
 * the CPU busy: every hit path tests current_kprobe before anything else,
 * and the architecture's state is left as it is (IDLE on a CPU that was
 * idle: <asm-generic/kprobes-cpu.h> allows current_kprobe set in IDLE).
 * A hit from the handler is re-entered from whatever state it finds and
 * put back to it.  The handler is the only busy part of a return: the
 * instance list and the pools need no exclusion from probes (an NMI
 * pushes and pops its own instances before it returns, and it takes
 * from and gives to a pool as any other context).
 */
static nokprobe_inline void kretprobe_call(struct kretprobe *rp,
					   struct kretprobe_instance *ri,
					   struct pt_regs *regs)
{
	struct kprobe *prev = __this_cpu_read(current_kprobe);

	__this_cpu_write(current_kprobe, &rp->kp);
	rp->handler(ri, regs);
	__this_cpu_write(current_kprobe, prev);
}

/**
 * kretprobe_trampoline_handler() - a kretprobe'd function has returned
 * @regs: registers at the return, as saved by the trampoline
 * @frame_pointer: the stack slot that held the return address (ri->fp)
 *
 * Runs the return handlers of every instance of the returning frame,
 * newest first, with @regs->ip already set to the real return address, and
 * returns the instances to their pools.  Instances above the frame belong
 * to functions that left without returning: reclaimed, no handler run.
 *
 * Return: the real return address, where the trampoline must jump.
 */
notrace unsigned long kretprobe_trampoline_handler(struct pt_regs *regs,
						   void *frame_pointer)
{
	struct llist_head *head = &current->kretprobe_instances;
	struct llist_node *top, *first, *last, *n, *next;
	struct kretprobe_instance *ri;
	struct kretprobe *rp;
	unsigned long ret;

	/* Per-CPU state, and an RCU reader for kretprobe_of(). */
	preempt_disable_notrace();
	top = head->first;
	first = frame_first(top, frame_pointer);
	if (!first)
		kretprobe_lost(0);
	last = frame_last(first);
	ret = (unsigned long)to_ri(last)->ret_addr;
	if (is_kretprobe_trampoline(ret))
		kretprobe_lost(ret);
	if (first != top)
		pr_warn_once("kretprobe: reclaiming instances of functions that never returned\n");

	instruction_pointer_set(regs, ret);
	for (n = first; ; n = n->next) {
		ri = to_ri(n);
		rp = kretprobe_of(ri);
		if (rp && rp->handler)
			kretprobe_call(rp, ri, regs);
		if (n == last)
			break;
	}

	/* Unlink first: a recycled node may be reused on another CPU at once. */
	WRITE_ONCE(head->first, last->next);
	for (n = top; ; n = next) {
		next = n->next;
		__kretprobe_recycle(to_ri(n));
		if (n == last)
			break;
	}
	preempt_enable_notrace();
	return ret;
}

NOKPROBE_SYMBOL(kretprobe_trampoline_handler);

/**
 * kretprobe_find_ret_addr() - the real return address behind a trampoline
 * @tsk: the task whose stack is being unwound
 * @fp: the stack slot where the unwinder found the trampoline's address
 * @cur: the unwinder's cursor; NULL before the first call of a walk
 *
 * Unwinders meet frames in the order their instances were pushed, newest
 * first, so each search resumes after the instance of the previous match
 * (*@cur).  Within one frame the oldest instance holds the real address;
 * *@cur is left on it so that the next call starts with the caller's frame.
 *
 * Return: the real return address, or 0 when no instance matches @fp.
 */
unsigned long kretprobe_find_ret_addr(struct task_struct *tsk, void *fp,
				      struct llist_node **cur)
{
	struct llist_node *n;

	if (*cur)
		n = READ_ONCE((*cur)->next);
	else	/* Pairs with kretprobe_entry()'s release: a linked node. */
		n = smp_load_acquire(&tsk->kretprobe_instances.first);
	n = frame_first(n, fp);
	if (!n)
		return 0;
	*cur = frame_last(n);
	return (unsigned long)to_ri(*cur)->ret_addr;
}
EXPORT_SYMBOL_GPL(kretprobe_find_ret_addr);
NOKPROBE_SYMBOL(kretprobe_find_ret_addr);

/**
 * kprobe_flush_task() - reclaim the instances a dead task left behind
 * @tk: a task being freed (not current)
 *
 * A task that died inside a kretprobe'd function never went through the
 * trampoline; its instances are still on its list.  No handler runs.
 */
void kprobe_flush_task(struct task_struct *tk)
{
	struct llist_node *n, *next;

	/* Called for every task freed: skip the atomic when there is nothing. */
	if (llist_empty(&tk->kretprobe_instances))
		return;
	for (n = llist_del_all(&tk->kretprobe_instances); n; n = next) {
		next = n->next;
		kretprobe_recycle(to_ri(n));
	}
}

NOKPROBE_SYMBOL(kprobe_flush_task);

/*
 * Functions a return probe must stay away from: they never return to their
 * caller (the instance would only come back at task exit and the handler
 * never run), or they return on another task's stack.  Names absent from
 * this kernel (other architectures' wrappers) simply never match.  x86's
 * __switch_to() is on the blacklist (no probe of either kind there).
 */
static const char * const kretprobe_refused[] = {
	"do_exit", "make_task_dead", "do_group_exit", "do_task_dead",
	"kthread_exit", "kthread_complete_and_exit",
	"__x64_sys_exit", "__x64_sys_exit_group",
	"__ia32_sys_exit", "__ia32_sys_exit_group",
	"__riscv_sys_exit", "__riscv_sys_exit_group",
	/* architectures without syscall wrappers (powerpc) */
	"sys_exit", "sys_exit_group",
	"rewind_stack_and_make_dead", "ret_from_fork_asm", "__switch_to_asm",
};

/* Does @rp target one of the refused functions? */
static bool kretprobe_refused_target(struct kretprobe *rp)
{
	unsigned long addr, size, off;
	unsigned int i;

	if (rp->kp.symbol_name)
		addr = kallsyms_lookup_name(rp->kp.symbol_name);
	else
		addr = (unsigned long)rp->kp.addr;
	if (!addr || !kallsyms_lookup_size_offset(addr + rp->kp.offset, &size, &off))
		return false;
	addr += rp->kp.offset - off;

	for (i = 0; i < ARRAY_SIZE(kretprobe_refused); i++)
		if (kallsyms_lookup_name(kretprobe_refused[i]) == addr)
			return true;
	return false;
}

/* Checks before anything is allocated; one refusal line on failure. */
static int kretprobe_check(struct kretprobe *rp)
{
	int ret;

	ret = kprobe_check_func_entry(&rp->kp);
	if (ret)
		return ret;
	if (kretprobe_refused_target(rp)) {
		kprobe_refuse(&rp->kp, "the function does not return to its caller");
		return -EINVAL;
	}
	if (rp->data_size > KRETPROBE_MAX_DATA_SIZE) {
		kprobe_refuse(&rp->kp, "data_size too large");
		return -E2BIG;
	}
	/* maxactive <= 0 picks the default (register_kretprobe()). */
	if (rp->maxactive > 0 && !kretprobe_pool_addressable(rp)) {
		kprobe_refuse(&rp->kp, "maxactive too large for an instance pool");
		return -E2BIG;
	}
	return 0;
}

/**
 * register_kretprobe() - probe the return of a function
 * @rp: the kretprobe; @rp->kp.addr or @rp->kp.symbol_name (+ offset) must
 *	name the entry of a function
 *
 * Preallocates @rp->maxactive instances (a default when <= 0, written
 * back), each with @rp->data_size bytes of private data, and registers the
 * entry probe.  @rp->handler and @rp->entry_handler may each be NULL.
 * The fields owned by the core (@rp->pool, the counters and those of
 * @rp->kp) need not be initialised; @rp->nmissed starts at 0.
 *
 * Context: process context; takes kprobe_mutex.
 * Return: 0, -EINVAL (not a function entry, refused function, already
 * registered), -E2BIG (@data_size above KRETPROBE_MAX_DATA_SIZE, or a
 * @maxactive whose pool is too large to address), -ENOMEM, or
 * an error of the entry probe's registration.
 */
int register_kretprobe(struct kretprobe *rp)
{
	struct kretprobe_pool *pool;
	int ret;

	if (kprobe_null_arg(rp))
		return -EINVAL;
	/*
	 * First, so that a second registration is refused for what it is
	 * (kretprobe_check() would find the address the first one resolved
	 * next to the symbol name); asked again under the lock below.
	 */
	mutex_lock(&kprobe_mutex);
	ret = kprobe_site_of_member(&rp->kp) ? -EINVAL : 0;
	mutex_unlock(&kprobe_mutex);
	if (ret) {
		kprobe_refuse(&rp->kp, "already registered");
		return ret;
	}
	ret = kretprobe_check(rp);
	if (ret)
		return ret;
	if (rp->maxactive <= 0)
		rp->maxactive = max_t(int, 10, 2 * num_possible_cpus());

	pool = kretprobe_pool_create(rp);
	if (!pool) {
		kprobe_refuse(&rp->kp, "out of memory");
		return -ENOMEM;
	}

	mutex_lock(&kprobe_mutex);
	/*
	 * Before any field is touched: a registered kretprobe's pool is in
	 * use.  An unregistered one's core fields may hold anything.
	 */
	if (kprobe_site_of_member(&rp->kp)) {
		kprobe_refuse(&rp->kp, "already registered");
		ret = -EINVAL;
		goto unlock;
	}
	rp->nmissed = 0;
	rp->missed_empty = 0;
	rp->missed_refused = 0;
	rp->kp.pre_handler = kretprobe_entry;
	rp->kp.post_handler = NULL;
	rcu_assign_pointer(rp->pool, pool);
	ret = __register_kprobe_locked(&rp->kp);
	if (ret)
		RCU_INIT_POINTER(rp->pool, NULL);
unlock:
	mutex_unlock(&kprobe_mutex);
	if (ret)
		kretprobe_pool_free(pool);	/* never armed: none out */
	return ret;
}
EXPORT_SYMBOL_GPL(register_kretprobe);

/**
 * register_kretprobes() - register an array of kretprobes
 * @rps: the kretprobes
 * @num: how many
 *
 * All or nothing: on the first failure the ones already registered are
 * unregistered again.
 *
 * Return: 0, -EINVAL when @num <= 0, or the first registration's error.
 */
int register_kretprobes(struct kretprobe **rps, int num)
{
	int done, ret = -EINVAL;

	if (num <= 0) {
		pr_info("%s: refusing a batch of %d\n", __func__, num);
		return -EINVAL;
	}
	if (kprobe_null_arg(rps))
		return -EINVAL;
	for (done = 0; done < num; done++) {
		ret = register_kretprobe(rps[done]);
		if (ret) {
			unregister_kretprobes(rps, done);
			break;
		}
	}
	return ret;
}
EXPORT_SYMBOL_GPL(register_kretprobes);

void kretprobe_orphan_locked(struct kretprobe *rp)
{
	struct kretprobe_pool *pool;

	lockdep_assert_held(&kprobe_mutex);
	/* From here on, returns in flight no longer reach the handlers. */
	pool = rcu_dereference_protected(rp->pool,
					 lockdep_is_held(&kprobe_mutex));
	if (pool)
		RCU_INIT_POINTER(pool->rp, NULL);
}

/*
 * The last step of unregistering @rp: its entry probe is detached and a
 * grace period has passed since its pool was orphaned.  Instances still
 * in flight keep the pool alive (kretprobe_pool_retire()).
 */
void kretprobe_unregister_tail(struct kretprobe *rp)
{
	struct kretprobe_pool *pool;

	mutex_lock(&kprobe_mutex);
	pool = rcu_replace_pointer(rp->pool, NULL,
				   lockdep_is_held(&kprobe_mutex));
	mutex_unlock(&kprobe_mutex);
	if (pool)
		kretprobe_pool_retire(pool);
}

/**
 * unregister_kretprobes() - unregister an array of kretprobes
 * @rps: the kretprobes; those not registered only get @kp.addr cleared
 * @num: how many
 *
 * Waits for one RCU grace period for the whole array.  When it returns, no
 * handler of any of them runs or will run, even for calls still in flight.
 *
 * Context: process context; takes kprobe_mutex; sleeps.
 */
void unregister_kretprobes(struct kretprobe **rps, int num)
{
	struct kprobe_site *reap = NULL;
	int i;

	if (num <= 0 || kprobe_null_arg(rps))
		return;

	mutex_lock(&kprobe_mutex);
	for (i = 0; i < num; i++) {
		if (kprobe_null_arg(rps[i]))
			continue;
		/* Not registered: only its addr is cleared, as for kprobes. */
		if (kprobe_detach_locked(&rps[i]->kp, &reap)) {
			if (!kprobe_detached_here(&rps[i]->kp))
				rps[i]->kp.addr = NULL;
			continue;
		}
		kretprobe_orphan_locked(rps[i]);
	}
	mutex_unlock(&kprobe_mutex);

	/*
	 * No entry handler of a detached probe runs after this, and no
	 * trampoline handler that read a back-pointer before it was cleared.
	 */
	kprobe_wait_handlers();
	kprobe_reap(reap);

	for (i = 0; i < num; i++) {
		/* Skipped above: its fields (pool included) were never ours. */
		if (!rps[i] || !rps[i]->kp.addr)
			continue;
		kprobe_detach_done(&rps[i]->kp);
		kretprobe_unregister_tail(rps[i]);
	}
}
EXPORT_SYMBOL_GPL(unregister_kretprobes);

/**
 * unregister_kretprobe() - unregister one kretprobe
 * @rp: the kretprobe
 *
 * See unregister_kretprobes().
 */
void unregister_kretprobe(struct kretprobe *rp)
{
	unregister_kretprobes(&rp, 1);
}
EXPORT_SYMBOL_GPL(unregister_kretprobe);

/* Is @p the entry probe of a kretprobe? */
bool kprobe_is_kretprobe(struct kprobe *p)
{
	return p->pre_handler == kretprobe_entry;
}

/*
 * The kretprobe's own misses, after the entry probe's "missed=N" on its
 * debugfs "missed" line (no newline): returns not tracked for want of an
 * instance, and calls the entry handler declined.
 */
void kretprobe_show_missed(struct seq_file *m, struct kprobe *p)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);

	seq_printf(m, " empty=%lu refused=%lu",
		   kretprobe_stat(&rp->missed_empty),
		   kretprobe_stat(&rp->missed_refused));
}
