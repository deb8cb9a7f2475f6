// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc jump optimization: the architecture half of optimizer.c.
 *
 * An optimized probe has "b detour" at its address instead of the trap.
 * The jump replaces exactly the probed instruction, so the region is that
 * one instruction: nothing can be inside it, no other instruction is
 * covered, and the jump and the trap replace each other with one aligned
 * word store (arch_optprobe_patch(), arch_optprobe_unpatch()).  The
 * detour (opt_detour.S) saves pt_regs, runs the handlers and then the
 * instruction from its copy, and branches back after the probe.
 *
 * So only what the copy could do differently from the original matters.
 * A site is refused when its instruction
 *
 *   - is only ever emulated (it reads its own address: branches, addpcis;
 *     or the MSR, which the copy would read the same but decode.c keeps
 *     emulated), or is prefixed (a second word the jump does not cover);
 *   - has an exception-table entry: a fault of the copy would find no
 *     fixup for the detour's address;
 *
 * or when the detour is out of the branch's reach (module text).
 */
#include "ppc-kprobes.h"

#include <linux/extable.h>
#include <linux/memory.h>
#include <linux/smp.h>
#include <asm/code-patching.h>
#include <asm/kup.h>
#include <asm/ppc-opcode.h>
#include <asm-generic/kprobes-opt.h>

/* A detour's length in words (see opt_detour.S). */
#define KPROBE_OPT_WORDS	(KPROBE_OPTSLOT_BYTES / sizeof(u32))

/* ---------------------------------------------------------------------
 * The detour's C half
 * ---------------------------------------------------------------------
 */

/**
 * arch_optprobe_handler() - run an optimized probe's handlers
 * @oi: the probe's record (the detour carries its address)
 * @regs: saved by kprobe_opt_common; nip is the probe address, as a trap
 *	there shows it
 *
 * See kprobe_opt_hit().  Two things a trap gets from its exception
 * return are done here: nothing runs in real mode (the trap path leaves
 * such a trap alone), and the MSR's FP/VEC/VSX bits that the probed code
 * had are back on after the handlers, which may have given the units up
 * (a handler's memcpy() through enter_vmx_ops()).  On 32-bit the user
 * access state (Book3S: the segment registers' Ks bits and thread.kuap;
 * BookE: the PID; 8xx: MD_AP) is closed for the handlers and put back
 * after them, as the interrupt entry and exit do (64-bit does it in the
 * detour's AMR code, kprobe_opt_common).  An interrupt exit's rfi makes
 * BookE's PID and 8xx's MD_AP take effect; a detour returns with plain
 * branches, so an isync does that here (Book3S's restore synchronizes
 * itself, and without KUAP there is nothing to restore).
 */
void arch_optprobe_handler(struct kprobe_opt_insn *oi, struct pt_regs *regs)
{
	unsigned long units = regs->msr & (MSR_FP | MSR_VEC | MSR_VSX);
	unsigned long msr;

	BUILD_BUG_ON(offsetof(struct kprobe_opt_insn, addr) != 0);
	if (!kprobe_ppc_translated(regs))
		return;
	if (IS_ENABLED(CONFIG_PPC32))
		kuap_save_and_lock(regs);
	kprobe_opt_hit(oi, regs);
	if (IS_ENABLED(CONFIG_PPC32)) {
		kuap_kernel_restore(regs, kuap_get_and_assert_locked());
		if (IS_ENABLED(CONFIG_PPC_KUAP) &&
		    !IS_ENABLED(CONFIG_PPC_BOOK3S_32))
			isync();
	}
	msr = mfmsr();
	if ((msr & units) != units)
		mtmsr_isync(msr | units);
}

NOKPROBE_SYMBOL(arch_optprobe_handler);

/* ---------------------------------------------------------------------
 * The detour area (opt_detour.S): pages for the core's detour buffers
 * ---------------------------------------------------------------------
 */

/* One bit per page of the area (16 at most): handed out.  Atomic bitops. */
static unsigned long kprobe_opt_area_map;

/**
 * arch_kprobe_optslot_page_alloc() - a page of the detour area
 *
 * Return: PAGE_SIZE bytes of the area, full of traps, or NULL once all
 * are in use (a probe then stays a trap probe).
 */
void *arch_kprobe_optslot_page_alloc(void)
{
	BUILD_BUG_ON(KPROBE_OPTSLOT_BYTES % 64);
	return kprobe_opt_area_page_get(kprobe_opt_area, kprobe_opt_area_end,
					&kprobe_opt_area_map);
}

/**
 * arch_kprobe_optslot_page_free() - give a page back to the detour area
 * @page: from arch_kprobe_optslot_page_alloc(); nothing runs in it
 *
 * The old detours are overwritten with traps first, so that a stray
 * branch into the page traps instead of running a dead probe's detour.
 */
void arch_kprobe_optslot_page_free(void *page)
{
	u32 trap = PPC_RAW_TRAP();

	mutex_lock(&text_mutex);
	WARN_ON_ONCE(patch_instructions(page, &trap, PAGE_SIZE, true));
	mutex_unlock(&text_mutex);
	kprobe_opt_area_page_put(kprobe_opt_area, page, &kprobe_opt_area_map);
}

/* ---------------------------------------------------------------------
 * Building a detour (locked)
 * ---------------------------------------------------------------------
 */

static const char *kprobe_opt_check(struct kprobe_hit_site *p)
{
	if (p->ainsn.kind != KPROBE_INSN_STEP)
		return "the instruction reads its own address or the MSR";
	if (p->ainsn.len != 4)
		return "a prefixed instruction";
	if (search_exception_tables((unsigned long)p->addr))
		return "an exception-table entry at the address";
	return NULL;
}

/* @img = the detour of @oi, to be written at @buf. */
static const char *kprobe_opt_build(u32 *img, u32 *buf,
				    struct kprobe_opt_insn *oi)
{
	unsigned long back = oi->addr + sizeof(u32);
	ppc_inst_t insn;
	unsigned int i;

	for (i = 0; i < KPROBE_OPT_WORDS; i++)
		img[i] = PPC_RAW_TRAP();
	memcpy(img, kprobe_opt_template,
	       KPROBE_OPT_USED * sizeof(u32));

	if (create_branch(&insn, &buf[KPROBE_OPT_CALL],
			  ppc_function_entry(kprobe_opt_common),
			  BRANCH_SET_LINK))
		return "the detour area is out of reach of kprobe_opt_common";
	img[KPROBE_OPT_CALL] = ppc_inst_val(insn);

	img[KPROBE_OPT_COPY] = oi->probe->ainsn.insn;
	if (create_branch(&insn, &buf[KPROBE_OPT_COPY + 1], back, 0))
		return "the detour is out of reach of the probe";
	img[KPROBE_OPT_COPY + 1] = ppc_inst_val(insn);

	memcpy(&img[KPROBE_OPT_OI], &oi, sizeof(oi));
	return NULL;
}

/**
 * arch_optprobe_prepare() - check a site and write its detour
 * @oi: the record; @oi->addr is an armed trap site with no post handler
 * @why: the reason for a refusal
 *
 * Context: locked; takes text_mutex to write the detour.
 * Return: 0, or a negative errno with *@why set.
 */
int arch_optprobe_prepare(struct kprobe_opt_insn *oi, const char **why)
{
	u32 img[KPROBE_OPT_WORDS];
	ppc_inst_t jump;
	u32 *buf;
	int ret;

	kprobe_assert_locked();
	if (WARN_ONCE(KPROBE_OPT_USED >
		      KPROBE_OPT_WORDS, "kprobes: detour template too big\n")) {
		*why = "the detour template is too big";
		return -E2BIG;
	}
	*why = kprobe_opt_check(oi->probe);
	if (*why)
		return -EINVAL;

	buf = kprobe_optslot_alloc();
	if (!buf) {
		*why = "no free detour buffer";
		return -ENOMEM;
	}
	ret = -ERANGE;
	if (create_branch(&jump, (u32 *)oi->addr, (unsigned long)buf, 0)) {
		*why = "the detour is out of reach of the probe";
		goto fail;
	}
	*why = kprobe_opt_build(img, buf, oi);
	if (*why)
		goto fail;

	mutex_lock(&text_mutex);
	ret = patch_instructions(buf, img, sizeof(img), false);
	mutex_unlock(&text_mutex);
	if (ret) {
		*why = "cannot write the detour";
		ret = -EFAULT;
		goto fail;
	}

	oi->buf = buf;
	oi->copy = (unsigned long)&buf[KPROBE_OPT_COPY];
	oi->len = sizeof(u32);
	oi->single = true;
	oi->patch_len = sizeof(u32);
	memcpy(oi->orig, &oi->probe->opcode, sizeof(u32));
	return 0;
fail:
	kprobe_optslot_free(buf);
	return ret;
}

/* ---------------------------------------------------------------------
 * Jumps in and out of the text (text_mutex and cpus_read_lock() held)
 * ---------------------------------------------------------------------
 */

/**
 * arch_optprobe_patch() - replace a site's trap with its jump
 * @oi: a prepared record
 *
 * One aligned word: a CPU fetches the trap or the jump, and either way
 * ends up in the handlers.
 */
void arch_optprobe_patch(struct kprobe_opt_insn *oi)
{
	lockdep_assert_held(&text_mutex);
	WARN_ON_ONCE(patch_branch((u32 *)oi->addr, (unsigned long)oi->buf, 0));
}

/**
 * arch_optprobe_unpatch() - put a site's trap back over its jump
 * @oi: an optimized site's record
 */
void arch_optprobe_unpatch(struct kprobe_opt_insn *oi)
{
	lockdep_assert_held(&text_mutex);
	WARN_ON_ONCE(patch_instruction((u32 *)oi->addr,
				       ppc_inst(BREAKPOINT_INSTRUCTION)));
}

/**
 * arch_optprobe_flush() - make every CPU fetch the new words
 *
 * patch_instruction() has written them and invalidated the instruction
 * cache lines; an interrupt on each CPU is context synchronizing, so
 * no CPU executes an old word once this returns.
 */
void arch_optprobe_flush(void)
{
	lockdep_assert_held(&text_mutex);
	kick_all_cpus_sync();
}

/**
 * arch_optprobe_release() - free a detour
 * @oi: a dead site's record; no task is inside its detour any more
 *
 * Context: process context, text_mutex not held (optimizer.c).
 */
void arch_optprobe_release(struct kprobe_opt_insn *oi)
{
	/* A stray branch into the dead detour traps. */
	mutex_lock(&text_mutex);
	WARN_ON_ONCE(patch_instruction(oi->buf, ppc_inst(PPC_RAW_TRAP())));
	mutex_unlock(&text_mutex);
	kprobe_optslot_free(oi->buf);
	oi->buf = NULL;
}
