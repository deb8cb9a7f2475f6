// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM jump optimization (ARM-mode kernels): the architecture half
 * of optimizer.c.
 *
 * An optimized probe has "b detour" in place of its UDF: one word for
 * one word, so the region is the probed instruction alone and no task can
 * be inside it.  The detour (opt_detour.S) saves pt_regs, runs the
 * handlers through kprobe_opt_hit() with the interrupt mask as the probed
 * context had it, takes its frame off the stack and runs a copy of the
 * instruction, then branches back after the probe.
 *
 * Writing the branch.  ARMv7 allows one CPU to rewrite an instruction
 * that others may be executing only between B, BL, NOP, BKPT, SVC, HVC
 * and SMC; a UDF is none of them, so a UDF becomes a B, and a B a UDF,
 * with every other CPU held in stop_machine(), as the UDF itself is put
 * over an instruction (core.c).  The optimizer calls the patch and
 * unpatch hooks for a batch of sites and then the flush: the words are
 * queued and written in one stop for the batch.
 *
 * The copy runs where the detour is, with the context's registers, sp
 * and flags: what runs from an instruction slot on the UDF path runs
 * there too, and what the UDF path simulates because it reads the pc
 * (branches, literal loads, adr, ldm of the pc) does not.  A site is
 * refused when its instruction
 *
 *   - is simulated and reads the pc: the copy would compute with the
 *     detour's address.  "mov ip, sp", mrs and preloads are simulated
 *     only to spare the slot and run from the copy as in place;
 *   - is an stm that stores the pc (an APCS prologue's push {..., pc}):
 *     it would store the detour's address, which the UDF path corrects
 *     after the step;
 *   - has an exception-table entry: a fault of the copy would find no
 *     fixup at the detour's address (the UDF path puts a faulting copy
 *     back at the probe; a detour cannot);
 *
 * or when the detour area is out of the branch's reach of the probe (a
 * module far from the image), which is logged.  Stores below sp need no
 * refusal: the frame is off the stack before the copy runs, and an
 * interrupt could have clobbered anything below sp at any time anyway.
 */
#include "arm-kprobes.h"

#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/extable.h>
#include <linux/memory.h>
#include <linux/stop_machine.h>
#include <asm/domain.h>
#include <asm/insn.h>
#include <asm/opcodes.h>
#include <asm/patch.h>
#include <asm-generic/kprobes-opt.h>

#include "../decode-arm.h"

#define KPROBE_OPT_WORDS	(KPROBE_OPTSLOT_BYTES / KPROBE_ARM_INSN_SIZE)

/**
 * arch_optprobe_handler() - run an optimized probe's handlers
 * @oi: the probe's record (the detour carries its address)
 * @regs: filled by kprobe_opt_common as a UDF at the probe shows them
 *
 * See kprobe_opt_hit(): interrupts stay as the probed context had them.
 * User access is closed while the handlers run, as svc_entry closes it
 * for the UDF path's, when the kernel guards it with the domain of user
 * memory (CPU_SW_DOMAIN_PAN), and given back after.  Changes to pc and sp
 * are ignored: the detour goes on with the copy.
 */
__visible void arch_optprobe_handler(struct kprobe_opt_insn *oi,
				     struct pt_regs *regs)
{
	unsigned int dacr = 0;

	if (IS_ENABLED(CONFIG_CPU_SW_DOMAIN_PAN)) {
		dacr = get_domain();
		set_domain(DACR_UACCESS_DISABLE);
	}
	kprobe_opt_hit(oi, regs);
	if (IS_ENABLED(CONFIG_CPU_SW_DOMAIN_PAN))
		set_domain(dacr);
}

NOKPROBE_SYMBOL(arch_optprobe_handler);

/* ---------------------------------------------------------------------
 * The detour area: pages for the core's detour buffers
 * ---------------------------------------------------------------------
 */

static unsigned long kprobe_opt_area_map;

void *arch_kprobe_optslot_page_alloc(void)
{
	return kprobe_opt_area_page_get(kprobe_opt_area, kprobe_opt_area_end,
					&kprobe_opt_area_map);
}

/*
 * Every buffer of @page was overwritten with UDFs when its detour was
 * released (arch_optprobe_release()), the rest never held anything else.
 */
void arch_kprobe_optslot_page_free(void *page)
{
	kprobe_opt_area_page_put(kprobe_opt_area, page, &kprobe_opt_area_map);
}

/* ---------------------------------------------------------------------
 * Building a detour (locked)
 * ---------------------------------------------------------------------
 */

/* Simulated on the UDF path, but not for a pc of their own. */
static bool kprobe_opt_sim_runs_anywhere(probes_insn_handler_t *sim)
{
	return sim == simulate_mov_ipsp || sim == simulate_mrs ||
	       sim == probes_simulate_nop;
}

static const char *kprobe_opt_refusal(struct kprobe_hit_site *p)
{
	const struct arch_specific_insn *ai = &p->ainsn;

	if (WARN_ON_ONCE(KPROBE_OPT_USED > KPROBE_OPT_WORDS))
		return "the detour template is too big";
	if (ai->simulate && !kprobe_opt_sim_runs_anywhere(ai->simulate))
		return "the instruction reads the pc: it is simulated";
	if (ai->stm_pc)
		return "an stm that stores the pc";
	if (search_exception_tables((unsigned long)p->addr))
		return "an exception-table entry at the address";
	return NULL;
}

/* "b" or "bl" at @from to @to, or 0 when out of reach. */
static u32 kprobe_opt_b(const void *from, unsigned long to, bool link)
{
	return __arm_gen_branch((unsigned long)from, to, link, false);
}

/*
 * @img = the detour of @oi for the buffer @buf: the template, its call,
 * the copy, the way back and the record.  Return: false when one of the
 * three branches (in, to kprobe_opt_common, back) does not reach.
 */
static bool kprobe_opt_fill(u32 *img, const kprobe_opcode_t *buf,
			    struct kprobe_opt_insn *oi)
{
	unsigned int i;

	for (i = 0; i < KPROBE_OPT_WORDS; i++)
		img[i] = i < KPROBE_OPT_USED ? kprobe_opt_template[i] :
					       BREAKPOINT_INSTRUCTION;
	img[KPROBE_OPT_CALL] = kprobe_opt_b(&buf[KPROBE_OPT_CALL],
					    (unsigned long)kprobe_opt_common,
					    true);
	img[KPROBE_OPT_COPY] = oi->probe->ainsn.insn;
	img[KPROBE_OPT_COPY + 1] = kprobe_opt_b(&buf[KPROBE_OPT_COPY + 1],
						oi->addr + KPROBE_ARM_INSN_SIZE,
						false);
	img[KPROBE_OPT_OI] = (unsigned long)oi;
	return kprobe_opt_b((void *)oi->addr, (unsigned long)buf, false) &&
	       img[KPROBE_OPT_CALL] && img[KPROBE_OPT_COPY + 1];
}

/**
 * arch_optprobe_prepare() - check a site and write its detour
 * @oi: the record; @oi->addr is an armed UDF site with no post handler
 * @why: the reason for a refusal
 *
 * The detour is written word by word through the text-patching alias;
 * each write makes the caches coherent for it, and the stop_machine() of
 * arch_optprobe_flush() synchronises every CPU's context before the first
 * branch to it.
 *
 * Context: locked; takes text_mutex.
 * Return: 0, or a negative errno with *@why set.
 */
int arch_optprobe_prepare(struct kprobe_opt_insn *oi, const char **why)
{
	u32 img[KPROBE_OPT_WORDS];
	kprobe_opcode_t *buf;
	unsigned int i;

	kprobe_assert_locked();
	BUILD_BUG_ON(offsetof(struct kprobe_opt_insn, addr) != 0);
	BUILD_BUG_ON(KPROBE_OPTSLOT_BYTES % 16);
	*why = kprobe_opt_refusal(oi->probe);
	if (*why)
		return -EINVAL;
	buf = kprobe_optslot_alloc();
	if (!buf) {
		*why = "no free detour buffer";
		return -ENOMEM;
	}
	if (!kprobe_opt_fill(img, buf, oi)) {
		kprobe_optslot_free(buf);
		*why = "no detour within branch range (+/- 32 MiB)";
		pr_info("not optimizing %pS: %s\n", (void *)oi->addr, *why);
		return -ERANGE;
	}
	mutex_lock(&text_mutex);
	for (i = 0; i < KPROBE_OPT_WORDS; i++)
		__patch_text(&buf[i], img[i]);
	mutex_unlock(&text_mutex);

	kprobe_opt_set_single(oi, buf, &buf[KPROBE_OPT_COPY], &oi->probe->opcode,
			      KPROBE_ARM_INSN_SIZE);
	return 0;
}

/* ---------------------------------------------------------------------
 * Branches in and out of the text (text_mutex and cpus_read_lock() held)
 * ---------------------------------------------------------------------
 */

/* Words waiting for arch_optprobe_flush(); text_mutex guards them. */
#define KPROBE_OPT_QUEUE	32

static struct kprobe_opt_write {
	void *addr;
	u32 insn;
} kprobe_opt_queue[KPROBE_OPT_QUEUE];
static unsigned int kprobe_opt_queued;

static int kprobe_opt_write_cb(void *unused)
{
	unsigned int i;

	for (i = 0; i < kprobe_opt_queued; i++)
		__patch_text(kprobe_opt_queue[i].addr, kprobe_opt_queue[i].insn);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_opt_write_cb);

/**
 * arch_optprobe_flush() - write the queued words, every CPU stopped
 *
 * Each CPU leaves stop_machine() through an exception return or a
 * context switch, so none executes an old word afterwards.
 */
void arch_optprobe_flush(void)
{
	lockdep_assert_held(&text_mutex);
	lockdep_assert_cpus_held();
	if (!kprobe_opt_queued)
		return;
	stop_machine_cpuslocked(kprobe_opt_write_cb, NULL, NULL);
	kprobe_opt_queued = 0;
}

static void kprobe_opt_queue_word(unsigned long addr, u32 insn)
{
	lockdep_assert_held(&text_mutex);
	if (kprobe_opt_queued == KPROBE_OPT_QUEUE)
		arch_optprobe_flush();
	kprobe_opt_queue[kprobe_opt_queued].addr = (void *)addr;
	kprobe_opt_queue[kprobe_opt_queued].insn = insn;
	kprobe_opt_queued++;
}

/**
 * arch_optprobe_patch() - queue the branch over a site's UDF
 * @oi: a prepared record
 */
void arch_optprobe_patch(struct kprobe_opt_insn *oi)
{
	kprobe_opt_queue_word(oi->addr, kprobe_opt_b((void *)oi->addr,
						     (unsigned long)oi->buf,
						     false));
}

/**
 * arch_optprobe_unpatch() - queue the UDF back over a site's branch
 * @oi: an optimized site's record
 */
void arch_optprobe_unpatch(struct kprobe_opt_insn *oi)
{
	kprobe_opt_queue_word(oi->addr, BREAKPOINT_INSTRUCTION);
}

/**
 * arch_optprobe_release() - free a detour
 * @oi: a dead site's record; no task is inside its detour any more
 *
 * Context: process context, text_mutex not held (optimizer.c).
 */
void arch_optprobe_release(struct kprobe_opt_insn *oi)
{
	unsigned int i;

	/* A stray branch into the dead detour traps. */
	mutex_lock(&text_mutex);
	for (i = 0; i < KPROBE_OPT_WORDS; i++)
		__patch_text(&oi->buf[i], BREAKPOINT_INSTRUCTION);
	mutex_unlock(&text_mutex);
	kprobe_optslot_free(oi->buf);
	oi->buf = NULL;
}
