// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv jump optimization: the architecture half of optimizer.c.
 *
 * An optimized probe has "jal zero, detour" in place of its instruction.
 * The design question on riscv is the width of that jump.  auipc + jalr
 * reaches anywhere, but it is two instructions: a task preempted between
 * them, or a hart that fetched the first before the second was written,
 * would run half of the old text and half of the new, and taking such a
 * pair out again would need the core to keep the second instruction
 * until every task has left it (an asynchronous unoptimizing state).  A
 * single jal is one aligned 32-bit store, which another hart sees whole
 * or not at all, exactly like the breakpoint: a naturally aligned 32-bit
 * instruction fetch is atomic (Ziccif, part of the RVA profiles), so a
 * hart runs either the jal or the breakpoint, and the core's synchronous
 * patch and unpatch work unchanged.  Its price is reach, +/- 1 MiB, so:
 *
 *   - only a 32-bit instruction at a 4-byte aligned address is
 *     optimized: a jal over a compressed instruction would cover the
 *     next one as well (two instructions again), and one that straddles
 *     a word could not be written in one store;
 *   - a detour must lie within 1 MiB of its probe.  The kernel image has
 *     areas of detours in its text, placed by the link order
 *     (<asm/kprobes-detour.h>: with arch/riscv at the start of the text,
 *     with arch/riscv/lib after lib/), which reach most of the kernel's
 *     core text but not all of a large kernel's drivers and networking;
 *     for module text, pages are taken from the module area, where
 *     modules are placed from the bottom up, so that a page allocated
 *     after a module usually lies right beside it.  A probe out of reach
 *     of both stays an ebreak probe, with one line in the log.
 *
 * The detour saves pt_regs, runs the pre handlers with interrupts as
 * they were at the probe (see kprobe_opt_hit()), then the instruction
 * from its copy, and jumps back after the probe.  A site is refused when
 * its instruction reads the pc (auipc, jal, jalr, branches: the ebreak
 * path simulates them) or has an exception-table entry (a fault of the
 * copy would find no fixup at the detour's address).  The register-only
 * instructions the ebreak path simulates run from the copy as they are.
 */
#include "riscv-kprobes.h"

#include <linux/cacheflush.h>
#include <linux/execmem.h>
#include <linux/extable.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <asm/insn.h>
#include <asm/kprobes-detour.h>
#include <asm/patch.h>
#include <asm-generic/kprobes-opt.h>

/* Offsets into a detour (<asm/kprobes-detour.h>, opt_detour.S). */
#define KPROBE_OPT_CALL		KPROBE_OPT_DETOUR_CALL
#define KPROBE_OPT_COPY		KPROBE_OPT_DETOUR_COPY
#define KPROBE_OPT_OI		KPROBE_OPT_DETOUR_OI
#define KPROBE_OPT_WORDS	(KPROBE_OPTSLOT_BYTES / 4)

/* The jump is one "jal zero": 32 bits at a 4-byte aligned address. */
#define KPROBE_OPT_JAL_BYTES	4

/* The kernel image's areas of detours, KPROBE_OPT_AREA_BYTES each. */
static u8 *const kprobe_opt_areas[] = {
	kprobe_opt_area,
	kprobe_opt_area_lib,
};

/**
 * arch_optprobe_handler() - run an optimized probe's handlers
 * @oi: the probe's record (the detour carries its address)
 * @regs: saved by kprobe_opt_common, as an ebreak at the probe shows them
 *
 * See kprobe_opt_hit().  Changes to epc and sp are ignored: the detour
 * always goes on with the copy of the instruction.
 */
__visible notrace void arch_optprobe_handler(struct kprobe_opt_insn *oi,
					     struct pt_regs *regs)
{
	BUILD_BUG_ON(offsetof(struct kprobe_opt_insn, addr) != 0);
	kprobe_opt_hit(oi, regs);
}

NOKPROBE_SYMBOL(arch_optprobe_handler);

/* ---------------------------------------------------------------------
 * Where detours are: the image's area and pages of the module area
 * ---------------------------------------------------------------------
 */

/**
 * struct kprobe_opt_pool - detours in one piece of executable memory
 * @list: on kprobe_opt_pools
 * @base: the first detour
 * @nr: detours in the pool
 * @used: of them handed out
 * @image: the kernel image's area (never freed), else a module-area page
 * @map: one bit per detour, set while it is handed out
 */
struct kprobe_opt_pool {
	struct list_head list;
	u8 *base;
	unsigned int nr;
	unsigned int used;
	bool image;
	unsigned long map[];
};

/* Guards the pools: taken by prepare (locked) and release (not). */
static DEFINE_MUTEX(kprobe_opt_pool_lock);
static LIST_HEAD(kprobe_opt_pools);

/*
 * Empty pages of the module area kept for the next probes: freeing one
 * (a vfree() that resets its permissions and flushes the TLB) and taking
 * a new one for every probe registered and removed in turn on a module
 * costs more than the probes themselves.  The next page would most
 * likely be the same, since the area fills from the bottom up.
 */
#define KPROBE_OPT_SPARE_PAGES	4
static unsigned int kprobe_opt_spare;

/* Can "jal zero" at @from reach @to? */
static bool kprobe_opt_reaches(unsigned long from, unsigned long to)
{
	long off = (long)(to - from);

	return off >= -(long)SZ_1M && off < (long)SZ_1M;
}

/* Do the jump in and the jump back of a detour at @buf reach @addr? */
static bool kprobe_opt_fits(unsigned long addr, unsigned long buf)
{
	return kprobe_opt_reaches(addr, buf) &&
	       kprobe_opt_reaches(buf + KPROBE_OPT_COPY + 4,
				  addr + KPROBE_OPT_JAL_BYTES);
}

static struct kprobe_opt_pool *kprobe_opt_pool_new(u8 *base, size_t bytes,
						   bool image)
{
	unsigned int nr = bytes / KPROBE_OPTSLOT_BYTES;
	struct kprobe_opt_pool *pool;

	pool = kzalloc(struct_size(pool, map, BITS_TO_LONGS(nr)), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->base = base;
	pool->nr = nr;
	pool->image = image;
	list_add_tail(&pool->list, &kprobe_opt_pools);
	return pool;
}

/* A free detour of @pool that reaches @addr, taken; or NULL. */
static u8 *kprobe_opt_pool_take(struct kprobe_opt_pool *pool,
				unsigned long addr)
{
	unsigned long buf;
	unsigned int i;

	for_each_clear_bit(i, pool->map, pool->nr) {
		buf = (unsigned long)pool->base + i * KPROBE_OPTSLOT_BYTES;
		if (kprobe_opt_fits(addr, buf)) {
			__set_bit(i, pool->map);
			if (!pool->used++ && !pool->image)
				kprobe_opt_spare--;
			return (u8 *)buf;
		}
	}
	return NULL;
}

/*
 * A new page of the module area for @addr in module text, kept if it is
 * within reach.  Context: kprobe_opt_pool_lock held.
 */
static u8 *kprobe_opt_module_page(unsigned long addr)
{
	struct kprobe_opt_pool *pool;
	u8 *page, *buf;

	if (!is_module_text_address(addr))
		return NULL;
	page = kprobe_trap_page_alloc(EXECMEM_MODULE_TEXT);
	if (!page)
		return NULL;
	if (!kprobe_opt_fits(addr, (unsigned long)page) ||
	    !kprobe_opt_fits(addr, (unsigned long)page + PAGE_SIZE -
				   KPROBE_OPTSLOT_BYTES)) {
		execmem_free(page);
		return NULL;
	}
	pool = kprobe_opt_pool_new(page, PAGE_SIZE, false);
	if (!pool) {
		execmem_free(page);
		return NULL;
	}
	/* An empty page, a spare until the detour below is taken. */
	kprobe_opt_spare++;
	buf = kprobe_opt_pool_take(pool, addr);
	WARN_ON_ONCE(!buf);
	return buf;
}

/* A detour within reach of @addr, or NULL. */
static u8 *kprobe_opt_detour_alloc(unsigned long addr)
{
	struct kprobe_opt_pool *pool;
	u8 *buf = NULL;

	unsigned int i;

	mutex_lock(&kprobe_opt_pool_lock);
	if (list_empty(&kprobe_opt_pools))
		for (i = 0; i < ARRAY_SIZE(kprobe_opt_areas); i++)
			kprobe_opt_pool_new(kprobe_opt_areas[i],
					    KPROBE_OPT_AREA_BYTES, true);
	list_for_each_entry(pool, &kprobe_opt_pools, list) {
		buf = kprobe_opt_pool_take(pool, addr);
		if (buf)
			break;
	}
	if (!buf)
		buf = kprobe_opt_module_page(addr);
	mutex_unlock(&kprobe_opt_pool_lock);
	return buf;
}

/*
 * Give @buf back; nothing runs in it any more.  An emptied page of the
 * module area is kept as a spare, or freed if there are enough.
 */
static void kprobe_opt_detour_free(u8 *buf)
{
	struct kprobe_opt_pool *pool, *found = NULL;
	unsigned long off;

	mutex_lock(&kprobe_opt_pool_lock);
	list_for_each_entry(pool, &kprobe_opt_pools, list) {
		off = buf - pool->base;
		if (off < (unsigned long)pool->nr * KPROBE_OPTSLOT_BYTES) {
			found = pool;
			break;
		}
	}
	if (!WARN_ON_ONCE(!found)) {
		__clear_bit(off / KPROBE_OPTSLOT_BYTES, found->map);
		if (--found->used || found->image) {
			found = NULL;
		} else if (kprobe_opt_spare < KPROBE_OPT_SPARE_PAGES) {
			kprobe_opt_spare++;
			found = NULL;
		} else {
			list_del(&found->list);
		}
	}
	mutex_unlock(&kprobe_opt_pool_lock);
	if (found) {
		execmem_free(found->base);
		kfree(found);
	}
}

/**
 * kprobe_opt_blacklist() - keep probes out of the image's detour areas
 *
 * Return: 0 or a negative errno.
 */
int kprobe_opt_blacklist(void)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(kprobe_opt_areas) && !ret; i++)
		ret = kprobe_add_area_blacklist((unsigned long)kprobe_opt_areas[i],
						(unsigned long)kprobe_opt_areas[i] +
						KPROBE_OPT_AREA_BYTES);
	return ret;
}

/* ---------------------------------------------------------------------
 * Building a detour (locked)
 * ---------------------------------------------------------------------
 */

/* "jal zero, @to" at @from; kprobe_opt_reaches() said it can. */
static u32 kprobe_opt_jal(unsigned long from, unsigned long to)
{
	u32 insn = RVG_OPCODE_JAL;

	riscv_insn_insert_jtype_imm(&insn, (s32)(to - from));
	return insn;
}

/*
 * Does @p's instruction read the pc?  Those are simulated on the ebreak
 * path because a copy elsewhere would compute something else; the
 * register-only ones are simulated only to spare the second ebreak.
 */
static bool kprobe_opt_reads_pc(struct kprobe_hit_site *p)
{
	kprobe_simulate_fn fn = p->ainsn.simulate;

	if (p->ainsn.kind != KPROBE_INSN_SIMULATE)
		return false;
	return fn != kprobe_sim_addi && fn != kprobe_sim_op_imm &&
	       fn != kprobe_sim_op && fn != kprobe_sim_lui;
}

static const char *kprobe_opt_check(struct kprobe_opt_insn *oi)
{
	struct kprobe_hit_site *p = oi->probe;

	if (WARN_ON_ONCE(kprobe_opt_template_end - kprobe_opt_template !=
			 KPROBE_OPTSLOT_BYTES))
		return "the detour template is not as <asm/kprobes-detour.h> says";
	if (p->ainsn.len != KPROBE_OPT_JAL_BYTES)
		return "a compressed instruction: a jal would cover the next one";
	if (oi->addr & (KPROBE_OPT_JAL_BYTES - 1))
		return "not 4-byte aligned: no single store could write a jal";
	if (kprobe_opt_reads_pc(p))
		return "the instruction reads the pc: it is simulated";
	if (search_exception_tables(oi->addr))
		return "an exception-table entry at the address";
	return NULL;
}

/* @img = the detour of @oi, to be written at @buf. */
static void kprobe_opt_build(u32 *img, u8 *buf, struct kprobe_opt_insn *oi)
{
	unsigned long call = (unsigned long)buf + KPROBE_OPT_CALL;
	unsigned long back = (unsigned long)buf + KPROBE_OPT_COPY + 4;
	unsigned int i;

	for (i = 0; i < KPROBE_OPT_WORDS; i++)
		img[i] = 0x00100073;		/* ebreak */
	memcpy(img, kprobe_opt_template,
	       kprobe_opt_template_end - kprobe_opt_template);
	riscv_insn_insert_utype_itype_imm(&img[KPROBE_OPT_CALL / 4],
					  &img[KPROBE_OPT_CALL / 4 + 1],
					  (s32)((unsigned long)kprobe_opt_common -
						call));
	img[KPROBE_OPT_COPY / 4] = oi->probe->ainsn.insn;
	img[KPROBE_OPT_COPY / 4 + 1] = kprobe_opt_jal(back, oi->addr +
						      KPROBE_OPT_JAL_BYTES);
	memcpy(&img[KPROBE_OPT_OI / 4], &oi, sizeof(oi));
}

/**
 * arch_optprobe_prepare() - check a site and write its detour
 * @oi: the record; @oi->addr is an armed ebreak site with no post handler
 * @why: the reason for a refusal
 *
 * A detour out of the jal's reach of the probe is the one refusal that
 * depends on where the text is rather than what it is, so it is logged
 * (once per site: the core never asks again).
 *
 * Context: locked; the detour is written through the text patching alias.
 * Return: 0, or a negative errno with *@why set.
 */
int arch_optprobe_prepare(struct kprobe_opt_insn *oi, const char **why)
{
	u32 img[KPROBE_OPT_WORDS];
	u32 orig;
	u8 *buf;
	int ret;

	kprobe_assert_locked();
	BUILD_BUG_ON(KPROBE_OPT_OI % 8);
	*why = kprobe_opt_check(oi);
	if (*why)
		return -EINVAL;
	buf = kprobe_opt_detour_alloc(oi->addr);
	if (!buf) {
		*why = "no free detour within jal range (+/- 1 MiB)";
		pr_info("not optimizing %pS: %s\n", (void *)oi->addr, *why);
		return -ERANGE;
	}
	kprobe_opt_build(img, buf, oi);
	mutex_lock(&text_mutex);
	ret = patch_text_nosync(buf, img, sizeof(img));
	mutex_unlock(&text_mutex);
	if (ret) {
		kprobe_opt_detour_free(buf);
		*why = "cannot write the detour";
		return -EFAULT;
	}

	orig = oi->probe->ainsn.insn;
	kprobe_opt_set_single(oi, (kprobe_opcode_t *)buf,
			      buf + KPROBE_OPT_COPY, &orig, sizeof(orig));
	return 0;
}

/* ---------------------------------------------------------------------
 * Jumps in and out of the text (text_mutex and cpus_read_lock() held)
 * ---------------------------------------------------------------------
 */

/* One aligned 32-bit store, which another hart sees whole or not at all. */
static void kprobe_opt_store(struct kprobe_opt_insn *oi, u32 word)
{
	lockdep_assert_held(&text_mutex);
	WARN_ON_ONCE(patch_insn_write((void *)oi->addr, &word, sizeof(word)));
}

/**
 * arch_optprobe_patch() - replace a site's ebreak with its jal
 * @oi: a prepared record
 *
 * The word holds the breakpoint in its first parcel (and, with the C
 * extension, the instruction's second parcel); a hart fetches either it
 * or the jal, and either way ends up in the handlers.
 */
void arch_optprobe_patch(struct kprobe_opt_insn *oi)
{
	kprobe_opt_store(oi, kprobe_opt_jal(oi->addr, (unsigned long)oi->buf));
}

/**
 * arch_optprobe_unpatch() - put a site's breakpoint back over its jal
 * @oi: an optimized site's record
 *
 * The breakpoint and the rest of the original instruction, in one store.
 */
void arch_optprobe_unpatch(struct kprobe_opt_insn *oi)
{
	u32 word;

	memcpy(&word, oi->orig, sizeof(word));
	memcpy(&word, &(kprobe_opcode_t){ BREAKPOINT_INSTRUCTION },
	       sizeof(kprobe_opcode_t));
	kprobe_opt_store(oi, word);
}

/**
 * arch_optprobe_flush() - make every hart fetch the new words
 *
 * patch_insn_write() fenced only the writing hart's instruction fetch.
 */
void arch_optprobe_flush(void)
{
	lockdep_assert_held(&text_mutex);
	flush_icache_all();
}

/**
 * arch_optprobe_release() - free a detour
 * @oi: a dead site's record; no task is inside its detour any more
 *
 * Context: process context, text_mutex not held (optimizer.c).
 */
void arch_optprobe_release(struct kprobe_opt_insn *oi)
{
	u8 *buf = (u8 *)oi->buf;

	/* A stray jump into the dead detour traps: zero is no instruction. */
	mutex_lock(&text_mutex);
	WARN_ON_ONCE(patch_text_set_nosync(buf, 0, KPROBE_OPTSLOT_BYTES));
	mutex_unlock(&text_mutex);
	kprobe_opt_detour_free(buf);
	oi->buf = NULL;
}
