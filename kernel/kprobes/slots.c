// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Executable instruction slots: where the architecture puts the copy of a
 * probed instruction that the CPU steps out of line.
 *
 * Slots are carved out of read-only executable pages; the architecture
 * writes a slot with text_poke().  Each page has a bitmap of used slots.
 * Pages are on an RCU list because kernel_text_address() asks, from any
 * context (unwinders, NMIs), whether an address is inside one.  A page that
 * becomes empty leaves the list at once and is freed after a grace period,
 * from a workqueue: no lookup still walks it, and no CPU still executes in
 * it, since its last slot was freed only after its probe's grace period.
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

/* A slot holds KPROBE_SLOT_BYTES; 16-byte slots never straddle a line. */
#define KPROBE_SLOT_SIZE	ALIGN(KPROBE_SLOT_BYTES, 16)
#define KPROBE_SLOTS_PER_PAGE	(PAGE_SIZE / KPROBE_SLOT_SIZE)

/**
 * struct kprobe_slot_page - one page of instruction slots
 * @list: on kprobe_slot_pages; RCU readers, kprobe_slot_lock writers
 * @base: the executable page
 * @used: slots handed out; kprobe_slot_lock
 * @map: which slots are handed out; kprobe_slot_lock
 * @free_work: frees the page after a grace period
 */
struct kprobe_slot_page {
	struct list_head list;
	void *base;
	unsigned int used;
	DECLARE_BITMAP(map, KPROBE_SLOTS_PER_PAGE);
	struct rcu_work free_work;
};

static LIST_HEAD(kprobe_slot_pages);
static DEFINE_MUTEX(kprobe_slot_lock);

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
	kprobe_opcode_t *page = execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);
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

/**
 * kprobe_slot_alloc() - get an instruction slot
 *
 * Context: process context; sleeps.
 * Return: a slot of KPROBE_SLOT_BYTES in read-only executable memory (the
 * architecture writes it with text_poke()), or NULL.
 */
kprobe_opcode_t *kprobe_slot_alloc(void)
{
	struct kprobe_slot_page *sp;
	kprobe_opcode_t *slot = NULL;
	unsigned int i;

	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry(sp, &kprobe_slot_pages, list)
		if (sp->used < KPROBE_SLOTS_PER_PAGE)
			goto found;
	sp = kprobe_slot_page_new();
	if (!sp)
		goto out;
found:
	i = find_first_zero_bit(sp->map, KPROBE_SLOTS_PER_PAGE);
	__set_bit(i, sp->map);
	sp->used++;
	slot = sp->base + i * KPROBE_SLOT_SIZE;
out:
	mutex_unlock(&kprobe_slot_lock);
	return slot;
}

/**
 * kprobe_slot_free() - give back a slot from kprobe_slot_alloc()
 * @slot: the slot; no CPU may still execute in it
 */
void kprobe_slot_free(kprobe_opcode_t *slot)
{
	unsigned long off;
	struct kprobe_slot_page *sp;

	mutex_lock(&kprobe_slot_lock);
	list_for_each_entry(sp, &kprobe_slot_pages, list) {
		off = (unsigned long)slot - (unsigned long)sp->base;
		if (off >= PAGE_SIZE)
			continue;
		if (WARN_ON_ONCE(!__test_and_clear_bit(off / KPROBE_SLOT_SIZE,
						       sp->map)))
			break;
		if (!--sp->used) {
			list_del_rcu(&sp->list);
			queue_rcu_work(system_wq, &sp->free_work);
		}
		break;
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

NOKPROBE_SYMBOL(kprobe_insn_slot_contains);

/**
 * kprobe_optinsn_slot_contains() - is @addr inside an optprobe buffer?
 * @addr: any address
 *
 * Return: false; there are no optimized probes yet.
 */
bool kprobe_optinsn_slot_contains(unsigned long addr)
{
	return false;
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
 * Each slot page appears in /proc/kallsyms as "kprobe_insn_page", so that
 * perf and unwinders can name addresses inside it.  The architecture's
 * entries follow.
 *
 * Return: 0, or -ERANGE past the last entry.
 */
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym)
{
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
	rcu_read_unlock();
	if (ret)
		return arch_kprobe_get_kallsym(&symnum, value, type, sym);
	*type = 't';
	strscpy(sym, "kprobe_insn_page", KSYM_NAME_LEN);
	return 0;
}
