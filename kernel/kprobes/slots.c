// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Executable instruction slots: where the architecture puts the copy of a
 * probed instruction that the CPU steps out of line.
 *
 * Slots are carved out of read-only executable pages; the architecture
 * writes a slot with text_poke().  A slot is one or more consecutive
 * 16-byte units of a page, as many as the architecture asks for (an x86
 * slot holds what its instruction needs, not what the longest one would):
 * each page has a bitmap of used units and one of the units that end a
 * slot, which is how kprobe_slot_free() knows a slot's size.
 * Pages are on an RCU list because kernel_text_address() asks, from any
 * context (unwinders, NMIs), whether an address is inside one.
 *
 * A freed slot is not reused at once.  Its probe is gone and an RCU grace
 * period has passed, so no CPU is still in the probe's handlers; but a
 * CPU may have been sent from there into a copy that runs with interrupts
 * on and returns without a trap (an x86 boosted copy).  That CPU can take
 * an interrupt inside the slot, which may count as a quiescent state for
 * RCU, and on a preemptible kernel its task can even be preempted there.
 * So freed slots are only marked; a worker then waits for every task to
 * pass a voluntary context switch (RCU tasks, on preemptible kernels) and
 * for every CPU to schedule, which cannot happen while a CPU is in a slot
 * without preemption, and only then makes them free.  A page whose slots
 * are all free leaves the list and is freed after a further grace period,
 * so that no lookup still walks it.
 *
 * kprobe_slot_lock protects the list (for writers), the bitmaps and the
 * counts.  It is a leaf lock, taken under kprobe_mutex or on its own.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/bitmap.h>
#include <linux/execmem.h>
#include <linux/kallsyms.h>
#include <linux/set_memory.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

/* Slots are made of KPROBE_SLOT_UNIT units and start at a unit's boundary. */
#define KPROBE_SLOT_UNITS	(PAGE_SIZE / KPROBE_SLOT_UNIT)
static_assert(KPROBE_SLOT_BYTES <= PAGE_SIZE);

/**
 * struct kprobe_slot_page - one page of instruction slots
 * @list: on kprobe_slot_pages; RCU readers, kprobe_slot_lock writers
 * @base: the executable page
 * @used: units handed out or not yet reusable; kprobe_slot_lock
 * @map: which units are handed out or not yet reusable; kprobe_slot_lock
 * @last: which units of @map end a slot; kprobe_slot_lock
 * @freed: units freed since the last reclaim started; kprobe_slot_lock
 * @reclaiming: units the running reclaim makes reusable; kprobe_slot_lock
 * @free_work: frees the page after a grace period
 *
 * Detour buffers (below) use @map alone, one bit per buffer.
 */
struct kprobe_slot_page {
	struct list_head list;
	void *base;
	unsigned int used;
	DECLARE_BITMAP(map, KPROBE_SLOT_UNITS);
	DECLARE_BITMAP(last, KPROBE_SLOT_UNITS);
	DECLARE_BITMAP(freed, KPROBE_SLOT_UNITS);
	DECLARE_BITMAP(reclaiming, KPROBE_SLOT_UNITS);
	struct rcu_work free_work;
};

static LIST_HEAD(kprobe_slot_pages);
static DEFINE_MUTEX(kprobe_slot_lock);

/* Jiffies between the first free and the reclaim that covers it. */
#define KPROBE_SLOT_RECLAIM_DELAY	(HZ / 10)

static void kprobe_slot_reclaim(struct work_struct *work);
static DECLARE_DELAYED_WORK(kprobe_slot_reclaim_work, kprobe_slot_reclaim);

/* Documented in <linux/kprobes_arch.h>. */
void *kprobe_trap_page_alloc(enum execmem_type type)
{
	kprobe_opcode_t *page = execmem_alloc(type, PAGE_SIZE);
	unsigned int i;

	if (!page)
		return NULL;
	for (i = 0; i < PAGE_SIZE / sizeof(*page); i++)
		page[i] = BREAKPOINT_INSTRUCTION;
	if (set_memory_rox((unsigned long)page, 1)) {
		execmem_free(page);
		return NULL;
	}
	return page;
}

/**
 * alloc_insn_page() - allocate one page for instruction slots
 *
 * The page is filled with breakpoints, so a stray jump into an unused slot
 * traps, and then made read-only and executable.  Architectures with other
 * needs may override this.
 *
 * Return: the page, or NULL.
 */
void * __weak alloc_insn_page(void)
{
	return kprobe_trap_page_alloc(EXECMEM_KPROBES);
}

static void kprobe_slot_nop(struct work_struct *work)
{
}

static void kprobe_slot_page_free(struct work_struct *work)
{
	struct kprobe_slot_page *sp =
		container_of(to_rcu_work(work), struct kprobe_slot_page,
			     free_work);

	execmem_free(sp->base);
	kfree(sp);
}

static struct kprobe_slot_page *kprobe_slot_page_new(void)
{
	struct kprobe_slot_page *sp = kzalloc(sizeof(*sp), GFP_KERNEL);

	if (!sp)
		return NULL;
	sp->base = alloc_insn_page();
	if (!sp->base) {
		kfree(sp);
		return NULL;
	}
	INIT_RCU_WORK(&sp->free_work, kprobe_slot_page_free);
	list_add_tail_rcu(&sp->list, &kprobe_slot_pages);
	return sp;
}

/* The first of @n free consecutive units of @sp, or KPROBE_SLOT_UNITS. */
static unsigned long kprobe_slot_find(struct kprobe_slot_page *sp,
				      unsigned int n)
{
	if (sp->used + n > KPROBE_SLOT_UNITS)
		return KPROBE_SLOT_UNITS;
	return bitmap_find_next_zero_area(sp->map, KPROBE_SLOT_UNITS, 0, n, 0);
}

/**
 * kprobe_slot_alloc() - get an instruction slot
 * @bytes: its size, at most KPROBE_SLOT_BYTES
 *
 * Context: process context; sleeps.
 * Return: a slot of @bytes (rounded up to 16) in read-only executable
 * memory, 16-byte aligned (the architecture writes it with text_poke();
 * a reused one holds what its last user wrote), or NULL.
 */
kprobe_opcode_t *kprobe_slot_alloc(size_t bytes)
{
	unsigned int n = DIV_ROUND_UP(bytes, KPROBE_SLOT_UNIT);
	struct kprobe_slot_page *sp;
	kprobe_opcode_t *slot = NULL;
	unsigned long i;

	if (WARN_ON_ONCE(!n || bytes > KPROBE_SLOT_BYTES))
		return NULL;
	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry(sp, &kprobe_slot_pages, list) {
		i = kprobe_slot_find(sp, n);
		if (i < KPROBE_SLOT_UNITS)
			goto found;
	}
	sp = kprobe_slot_page_new();
	if (!sp)
		goto out;
	i = 0;
found:
	bitmap_set(sp->map, i, n);
	__set_bit(i + n - 1, sp->last);
	sp->used += n;
	slot = sp->base + i * KPROBE_SLOT_UNIT;
out:
	mutex_unlock(&kprobe_slot_lock);
	return slot;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_slot_alloc);

/**
 * kprobe_slot_free() - give back a slot from kprobe_slot_alloc()
 * @slot: the slot; its probe is gone and no CPU is in its handlers any
 *	more (an RCU grace period passed since it was disarmed)
 *
 * The slot becomes reusable later, see the top of this file.
 */
void kprobe_slot_free(kprobe_opcode_t *slot)
{
	unsigned long off, i, end;
	struct kprobe_slot_page *sp;

	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry(sp, &kprobe_slot_pages, list) {
		off = (unsigned long)slot - (unsigned long)sp->base;
		if (off >= PAGE_SIZE)
			continue;
		i = off / KPROBE_SLOT_UNIT;
		/* A slot's first unit: used, after a free unit or a slot's end. */
		if (WARN_ON_ONCE(off % KPROBE_SLOT_UNIT || !test_bit(i, sp->map) ||
				 (i && test_bit(i - 1, sp->map) &&
				  !test_bit(i - 1, sp->last)) ||
				 test_bit(i, sp->freed) ||
				 test_bit(i, sp->reclaiming)))
			break;
		end = find_next_bit(sp->last, KPROBE_SLOT_UNITS, i);
		bitmap_set(sp->freed, i, end - i + 1);
		/*
		 * A little later, so that the frees of a batch share one
		 * reclaim; it may block on RCU tasks for a while, hence the
		 * long queue.
		 */
		queue_delayed_work(system_long_wq, &kprobe_slot_reclaim_work,
				   KPROBE_SLOT_RECLAIM_DELAY);
		break;
	}
	mutex_unlock(&kprobe_slot_lock);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_slot_free);

/* Wait until no task or CPU can still be inside a slot freed before. */
static int kprobe_slot_quiesce(void)
{
	/*
	 * On a preemptible kernel a task can be preempted in a slot: wait
	 * for every task to switch voluntarily.  Elsewhere this is a plain
	 * grace period, which is not enough on its own.
	 */
	synchronize_rcu_tasks();
	/*
	 * A CPU that schedules is not in a slot, unless its task was
	 * preempted there, which the wait above covered.  Idle tasks, which
	 * RCU tasks leaves out, cannot be preempted.
	 */
	return schedule_on_each_cpu(kprobe_slot_nop);
}

/*
 * Make the slots freed so far reusable, once no task or CPU can be in them
 * any more; free the pages that end up empty.
 */
static void kprobe_slot_reclaim(struct work_struct *work)
{
	struct kprobe_slot_page *sp, *tmp;

	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry(sp, &kprobe_slot_pages, list) {
		bitmap_or(sp->reclaiming, sp->reclaiming, sp->freed,
			  KPROBE_SLOT_UNITS);
		bitmap_zero(sp->freed, KPROBE_SLOT_UNITS);
	}
	mutex_unlock(&kprobe_slot_lock);

	if (kprobe_slot_quiesce()) {
		/* Out of memory: try again later; @reclaiming stays as is. */
		mod_delayed_work(system_long_wq, &kprobe_slot_reclaim_work, HZ);
		return;
	}

	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry_safe(sp, tmp, &kprobe_slot_pages, list) {
		sp->used -= bitmap_weight(sp->reclaiming, KPROBE_SLOT_UNITS);
		bitmap_andnot(sp->map, sp->map, sp->reclaiming,
			      KPROBE_SLOT_UNITS);
		bitmap_andnot(sp->last, sp->last, sp->reclaiming,
			      KPROBE_SLOT_UNITS);
		bitmap_zero(sp->reclaiming, KPROBE_SLOT_UNITS);
		if (!sp->used) {
			list_del_rcu(&sp->list);
			queue_rcu_work(system_wq, &sp->free_work);
		}
	}
	mutex_unlock(&kprobe_slot_lock);
}

/**
 * kprobe_insn_slot_contains() - is @addr inside an instruction slot page?
 * @addr: any address
 *
 * Context: any; RCU must be watching (kernel_text_address() sees to it).
 * Return: true if @addr is in a page of instruction slots.
 */
bool kprobe_insn_slot_contains(unsigned long addr)
{
	struct kprobe_slot_page *sp;
	bool ret = false;

	rcu_read_lock();
	list_for_each_entry_rcu(sp, &kprobe_slot_pages, list) {
		if (addr - (unsigned long)sp->base < PAGE_SIZE) {
			ret = true;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_insn_slot_contains);
NOKPROBE_SYMBOL(kprobe_insn_slot_contains);

/*
 * Detour buffers of optimized probes (optimizer.c) have pages of their
 * own, with the same struct kprobe_slot_page, but are not reclaimed like
 * instruction slots: the optimizer frees a buffer only once no task can
 * be inside it any more, so it is reusable at once.  A page that becomes
 * empty leaves the list and is freed after a grace period, as above,
 * unless it is the last one.
 */
#define KPROBE_OPTSLOT_SIZE		ALIGN(KPROBE_OPTSLOT_BYTES, 16)
#define KPROBE_OPTSLOTS_PER_PAGE	(PAGE_SIZE / KPROBE_OPTSLOT_SIZE)
static_assert(KPROBE_OPTSLOTS_PER_PAGE <= KPROBE_SLOT_UNITS);

static LIST_HEAD(kprobe_optslot_pages);

/**
 * arch_kprobe_optslot_page_alloc() - a page for detour buffers (weak)
 *
 * The default is a page of instruction slots (alloc_insn_page()).  An
 * architecture whose jump to a detour reaches only part of the address
 * space hands out memory it set aside within reach of its text.
 *
 * Return: PAGE_SIZE bytes of executable memory, filled with breakpoints,
 * or NULL.
 */
void * __weak arch_kprobe_optslot_page_alloc(void)
{
	return alloc_insn_page();
}

/**
 * arch_kprobe_optslot_page_free() - give back a page of detour buffers
 * @page: from arch_kprobe_optslot_page_alloc(); nothing runs in it any more
 */
void __weak arch_kprobe_optslot_page_free(void *page)
{
	execmem_free(page);
}

static void kprobe_optslot_page_free(struct work_struct *work)
{
	struct kprobe_slot_page *sp =
		container_of(to_rcu_work(work), struct kprobe_slot_page,
			     free_work);

	arch_kprobe_optslot_page_free(sp->base);
	kfree(sp);
}

/**
 * kprobe_optslot_alloc() - get a detour buffer
 *
 * Context: process context; sleeps.
 * Return: KPROBE_OPTSLOT_BYTES of read-only executable memory (written
 * with text_poke_copy()), or NULL.
 */
kprobe_opcode_t *kprobe_optslot_alloc(void)
{
	struct kprobe_slot_page *sp;
	kprobe_opcode_t *slot = NULL;
	unsigned int i;

	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry(sp, &kprobe_optslot_pages, list)
		if (sp->used < KPROBE_OPTSLOTS_PER_PAGE)
			goto found;
	sp = kzalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		goto out;
	sp->base = arch_kprobe_optslot_page_alloc();
	if (!sp->base) {
		kfree(sp);
		goto out;
	}
	INIT_RCU_WORK(&sp->free_work, kprobe_optslot_page_free);
	list_add_tail_rcu(&sp->list, &kprobe_optslot_pages);
found:
	i = find_first_zero_bit(sp->map, KPROBE_OPTSLOTS_PER_PAGE);
	__set_bit(i, sp->map);
	sp->used++;
	slot = sp->base + i * KPROBE_OPTSLOT_SIZE;
out:
	mutex_unlock(&kprobe_slot_lock);
	return slot;
}

/**
 * kprobe_optslot_free() - give back a buffer from kprobe_optslot_alloc()
 * @slot: the buffer; no task or CPU can be inside it any more
 */
void kprobe_optslot_free(kprobe_opcode_t *slot)
{
	struct kprobe_slot_page *sp;
	unsigned long off;

	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry(sp, &kprobe_optslot_pages, list) {
		off = (unsigned long)slot - (unsigned long)sp->base;
		if (off >= PAGE_SIZE)
			continue;
		if (WARN_ON_ONCE(!__test_and_clear_bit(off / KPROBE_OPTSLOT_SIZE,
						       sp->map)))
			break;
		/*
		 * The last page stays, empty: its memory would come back
		 * only a grace period later, and on powerpc the detour
		 * area may be that one page.
		 */
		if (!--sp->used && !list_is_singular(&kprobe_optslot_pages)) {
			list_del_rcu(&sp->list);
			queue_rcu_work(system_wq, &sp->free_work);
		}
		break;
	}
	mutex_unlock(&kprobe_slot_lock);
}

/**
 * kprobe_optinsn_slot_contains() - is @addr inside a detour buffer page?
 * @addr: any address
 *
 * Context: any; RCU must be watching (kernel_text_address() sees to it).
 * Return: true if @addr is in a page of detour buffers.
 */
bool kprobe_optinsn_slot_contains(unsigned long addr)
{
	struct kprobe_slot_page *sp;
	bool ret = false;

	rcu_read_lock();
	list_for_each_entry_rcu(sp, &kprobe_optslot_pages, list) {
		if (addr - (unsigned long)sp->base < PAGE_SIZE) {
			ret = true;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}

NOKPROBE_SYMBOL(kprobe_optinsn_slot_contains);

/**
 * arch_kprobe_get_kallsym() - the architecture's own kallsyms entries
 * @symnum: index among the architecture's entries; consumed entries are
 *	subtracted
 * @value: the entry's address
 * @type: its kallsyms type
 * @sym: its name (KSYM_NAME_LEN bytes)
 *
 * Return: 0, or -ERANGE past the last entry (the default has none).
 */
int __weak arch_kprobe_get_kallsym(unsigned int *symnum, unsigned long *value,
				   char *type, char *sym)
{
	return -ERANGE;
}

/**
 * kprobe_get_kallsym() - the @symnum-th kallsyms entry owned by kprobes
 * @symnum: index, from 0
 * @value: the entry's address
 * @type: its kallsyms type ('t')
 * @sym: its name (KSYM_NAME_LEN bytes)
 *
 * Each slot page appears in /proc/kallsyms as "kprobe_insn_page", each
 * detour buffer page as "kprobe_optinsn_page", so that perf and unwinders
 * can name addresses inside them.  The architecture's entries follow.
 *
 * Return: 0, or -ERANGE past the last entry.
 */
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym)
{
	const char *name = "kprobe_insn_page";
	struct kprobe_slot_page *sp;
	int ret = -ERANGE;

	rcu_read_lock();
	list_for_each_entry_rcu(sp, &kprobe_slot_pages, list) {
		if (symnum--)
			continue;
		*value = (unsigned long)sp->base;
		ret = 0;
		break;
	}
	if (ret) {
		list_for_each_entry_rcu(sp, &kprobe_optslot_pages, list) {
			if (symnum--)
				continue;
			*value = (unsigned long)sp->base;
			name = "kprobe_optinsn_page";
			ret = 0;
			break;
		}
	}
	rcu_read_unlock();
	if (ret)
		return arch_kprobe_get_kallsym(&symnum, value, type, sym);
	*type = 't';
	strscpy(sym, name, KSYM_NAME_LEN);
	return 0;
}
