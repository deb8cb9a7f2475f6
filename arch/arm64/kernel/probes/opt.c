// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 jump optimization: the architecture half of optimizer.c.
 *
 * An optimized probe has "B detour" at its address instead of the BRK.
 * The branch replaces exactly the probed instruction, so the region is
 * that one instruction: nothing can be inside it, no other instruction is
 * covered.  BRK and B are both in the set of instructions the
 * architecture lets one CPU replace by another while other CPUs execute
 * them, so the branch and the breakpoint replace each other with one
 * aligned word store and the cache maintenance of
 * aarch64_insn_patch_text_nosync(), without stopping the machine (which
 * the BRK over an ordinary instruction needs, see <asm/kprobes.h>).  The
 * detour (opt_detour.S) saves pt_regs, runs the handlers with every
 * exception masked, as the BRK path does, then the instruction from its
 * copy, and branches back after the probe.
 *
 * So only what the copy could do differently from the original matters.
 * A site is refused when its instruction
 *
 *   - reads the pc (branches, ADR/ADRP, literal loads; the BRK path
 *     simulates them): only what could run from a slot runs from a
 *     detour;
 *   - has an exception-table entry: a fault of the copy would find no
 *     fixup at the detour's address;
 *   - is a landing pad of indirect branches in a kernel that checks them
 *     (BTI, PACIASP, PACIBSP with BTI in use): a B there would take a
 *     branch target exception after an indirect branch;
 *
 * or when the detour area is out of the branch's reach (module text
 * outside the 128 MiB window around the kernel image), which says so in
 * the log.
 */
#include "arm64-kprobes.h"

#include <linux/bitops.h>
#include <linux/cpufeature.h>
#include <linux/extable.h>
#include <linux/irqflags.h>
#include <linux/memory.h>
#include <linux/sizes.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <asm/arch_gicv3.h>
#include <asm/insn.h>
#include <asm/patching.h>
#include <asm/ptrace.h>
#include <asm-generic/kprobes-opt.h>

#include "decode-insn.h"

/* A detour's length in instructions (see opt_detour.S). */
#define KPROBE_OPT_WORDS	(KPROBE_OPTSLOT_BYTES / AARCH64_INSN_SIZE)

/* ---------------------------------------------------------------------
 * The detour's C half
 * ---------------------------------------------------------------------
 */

/*
 * What the handlers of a detour change of the CPU's state, to be put back
 * after them: the exception mask (and with pseudo-NMIs the priority
 * mask), lockdep's view of it, and user access (PAN).
 */
struct kprobe_opt_ctx {
	unsigned long daif;
	unsigned long pmr;
	bool lockdep_on;
	bool pan_opened;
};

/*
 * Mask every exception and tell lockdep, as the exception entry of the
 * BRK path does (arm64_enter_el1_dbg()), whatever lockdep believed at the
 * probe: the probe may sit in local_irq_restore() between lockdep's
 * update and the write of DAIF.  User access closes, as on any exception
 * entry (SCTLR_EL1.SPAN is clear with ARM64_PAN).
 */
static __always_inline void kprobe_opt_enter(struct kprobe_opt_ctx *c,
					     struct pt_regs *regs)
{
	c->daif = read_sysreg(daif);
	asm volatile("msr daifset, #0xf" : : : "memory");
	if (system_uses_irq_prio_masking()) {
		c->pmr = read_sysreg_s(SYS_ICC_PMR_EL1);
		gic_write_pmr(GIC_PRIO_IRQON | GIC_PRIO_PSR_I_SET);
	}
	c->lockdep_on = lockdep_hardirqs_enabled();
	lockdep_hardirqs_off(CALLER_ADDR0);
	trace_hardirqs_off_finish();
	c->pan_opened = system_uses_hw_pan() && !(regs->pstate & PSR_PAN_BIT);
	if (c->pan_opened)
		__uaccess_enable_hw_pan();
}

/* And back, as arm64_exit_el1_dbg() and the exception return do. */
static __always_inline void kprobe_opt_exit(const struct kprobe_opt_ctx *c)
{
	if (c->pan_opened)
		__uaccess_disable_hw_pan();
	if (c->lockdep_on) {
		trace_hardirqs_on_prepare();
		lockdep_hardirqs_on_prepare();
		lockdep_hardirqs_on(CALLER_ADDR0);
	}
	if (system_uses_irq_prio_masking()) {
		gic_write_pmr(c->pmr);
		pmr_sync();
	}
	write_sysreg(c->daif, daif);
}

/**
 * arch_optprobe_handler() - run an optimized probe's handlers
 * @oi: the probe's record (the detour carries its address)
 * @regs: saved by kprobe_opt_common, as a BRK at the probe shows them
 *
 * See kprobe_opt_hit().  The handlers run with D, A, I and F masked, as
 * on the BRK path; changes to pc and sp are ignored, the detour always
 * goes on with the copy of the instruction.
 */
__visible notrace void arch_optprobe_handler(struct kprobe_opt_insn *oi,
					     struct pt_regs *regs)
{
	struct kprobe_opt_ctx c;

	BUILD_BUG_ON(offsetof(struct kprobe_opt_insn, addr) != 0);
	kprobe_opt_enter(&c, regs);
	kprobe_opt_hit(oi, regs);
	kprobe_opt_exit(&c);
}

NOKPROBE_SYMBOL(arch_optprobe_handler);

/* ---------------------------------------------------------------------
 * The detour area (opt_detour.S): pages for the core's detour buffers
 * ---------------------------------------------------------------------
 */

/* One bit per page of the area (8 at most): handed out.  Atomic bitops. */
static unsigned long kprobe_opt_area_map;

/**
 * arch_kprobe_optslot_page_alloc() - a page of the detour area
 *
 * Return: PAGE_SIZE bytes of the area, full of breakpoints, or NULL once
 * all are in use (a probe then stays a BRK probe).
 */
void *arch_kprobe_optslot_page_alloc(void)
{
	BUILD_BUG_ON(KPROBE_OPTSLOT_BYTES % 16);
	return kprobe_opt_area_page_get(kprobe_opt_area, kprobe_opt_area_end,
					&kprobe_opt_area_map);
}

/**
 * arch_kprobe_optslot_page_free() - give a page back to the detour area
 * @page: from arch_kprobe_optslot_page_alloc(); nothing runs in it
 *
 * The old detours are overwritten with breakpoints first, so that a stray
 * branch into the page traps instead of running a dead probe's detour.
 */
void arch_kprobe_optslot_page_free(void *page)
{
	WARN_ON_ONCE(!aarch64_insn_set(page, BREAKPOINT_INSTRUCTION, PAGE_SIZE));
	kprobe_opt_area_page_put(kprobe_opt_area, page, &kprobe_opt_area_map);
}

/* ---------------------------------------------------------------------
 * Building a detour (locked)
 * ---------------------------------------------------------------------
 */

/* Can a B or BL at @from reach @to? */
static bool kprobe_opt_reaches(unsigned long from, unsigned long to)
{
	long off = (long)(to - from);

	return off >= -(long)SZ_128M && off < (long)SZ_128M;
}

/*
 * A landing pad of indirect branches in a kernel that checks them (BTI in
 * use: guarded text): BTI, and PACIASP/PACIBSP, which act as "BTI c".  A
 * B in its place would fault after such a branch; the BRK does not (BRK
 * is a valid target of any branch).  Without BTI they are hints like any
 * other.
 */
static bool kprobe_opt_landing_pad(u32 insn)
{
	if (!system_supports_bti_kernel() || !aarch64_insn_is_hint(insn))
		return false;
	if (aarch64_insn_is_bti(insn))
		return true;
	switch (insn & 0xfe0) {
	case AARCH64_INSN_HINT_PACIASP:
	case AARCH64_INSN_HINT_PACIBSP:
		return true;
	}
	return false;
}

/*
 * Does @p's instruction read the pc (branches, ADR/ADRP, literal loads)?
 * Those are simulated on the BRK path because a copy elsewhere would
 * compute something else.  A simulated instruction that the shared
 * decoder finds steppable is simulated only to spare a second exception,
 * and runs from a copy as well as in place.
 */
static bool kprobe_opt_reads_pc(struct kprobe_hit_site *p)
{
	struct arch_probe_insn api = { };
	u32 insn = p->ainsn.insn;

	if (!p->ainsn.simulate)
		return false;
	if (aarch64_insn_is_ldr_lit(insn) || aarch64_insn_is_ldrsw_lit(insn))
		return true;
	return arm_probe_decode_insn(insn, &api) != INSN_GOOD;
}

static const char *kprobe_opt_check(struct kprobe_hit_site *p)
{
	if (WARN_ON_ONCE(KPROBE_OPT_USED >
			 KPROBE_OPT_WORDS))
		return "the detour template is too big";
	if (kprobe_opt_reads_pc(p))
		return "the instruction reads the pc: it is simulated";
	if (search_exception_tables((unsigned long)p->addr))
		return "an exception-table entry at the address";
	if (kprobe_opt_landing_pad(p->ainsn.insn))
		return "a landing pad of indirect branches (BTI)";
	return NULL;
}

static __le32 kprobe_opt_branch(kprobe_opcode_t *from, unsigned long to,
				enum aarch64_insn_branch_type type)
{
	return cpu_to_le32(aarch64_insn_gen_branch_imm((unsigned long)from,
						       to, type));
}

/*
 * @img = the detour of @oi, to be written at @buf, whose three branches
 * (in from the probe, to kprobe_opt_common, back after the probe) must
 * reach.  Return: false if one does not.
 */
static bool kprobe_opt_build(__le32 *img, kprobe_opcode_t *buf,
			     struct kprobe_opt_insn *oi)
{
	kprobe_opcode_t *call = &buf[KPROBE_OPT_CALL];
	kprobe_opcode_t *back = &buf[KPROBE_OPT_COPY + 1];
	unsigned long common = (unsigned long)kprobe_opt_common;
	unsigned long next = oi->addr + AARCH64_INSN_SIZE;
	unsigned int i;

	if (!kprobe_opt_reaches(oi->addr, (unsigned long)buf) ||
	    !kprobe_opt_reaches((unsigned long)call, common) ||
	    !kprobe_opt_reaches((unsigned long)back, next))
		return false;
	for (i = 0; i < KPROBE_OPT_WORDS; i++)
		img[i] = cpu_to_le32(BREAKPOINT_INSTRUCTION);
	memcpy(img, kprobe_opt_template,
	       KPROBE_OPT_USED *
	       AARCH64_INSN_SIZE);
	img[KPROBE_OPT_CALL] = kprobe_opt_branch(call, common,
						 AARCH64_INSN_BRANCH_LINK);
	img[KPROBE_OPT_COPY] = cpu_to_le32(oi->probe->ainsn.insn);
	img[KPROBE_OPT_COPY + 1] = kprobe_opt_branch(back, next,
						     AARCH64_INSN_BRANCH_NOLINK);
	memcpy(&img[KPROBE_OPT_OI], &oi, sizeof(oi));
	return true;
}

/*
 * Build the detour of @oi in @buf (NULL: none was free) and write it.
 * Return: 0, or a negative errno with *@why set.
 */
static int kprobe_opt_write(struct kprobe_opt_insn *oi, kprobe_opcode_t *buf,
			    const char **why)
{
	__le32 img[KPROBE_OPT_WORDS];

	if (!buf) {
		*why = "no free detour buffer";
		return -ENOMEM;
	}
	if (!kprobe_opt_build(img, buf, oi)) {
		*why = "no detour within branch range (+/- 128 MiB)";
		pr_info("not optimizing %pS: %s\n", (void *)oi->addr, *why);
		return -ERANGE;
	}
	if (!aarch64_insn_copy(buf, img, sizeof(img))) {
		*why = "cannot write the detour";
		return -EFAULT;
	}
	/*
	 * aarch64_insn_copy() cleaned and invalidated the detour's lines; a
	 * context synchronization on every CPU drops whatever one fetched
	 * of the buffer's previous contents before the first B to it.
	 */
	kick_all_cpus_sync();
	return 0;
}

/**
 * arch_optprobe_prepare() - check a site and write its detour
 * @oi: the record; @oi->addr is an armed BRK site with no post handler
 * @why: the reason for a refusal
 *
 * A detour out of the branch's reach of the probe is the one refusal that
 * depends on where the text is rather than what it is, so it is logged
 * (once per site: the core never asks again).
 *
 * Context: locked; the detour is written through the text patching alias.
 * Return: 0, or a negative errno with *@why set.
 */
int arch_optprobe_prepare(struct kprobe_opt_insn *oi, const char **why)
{
	kprobe_opcode_t *buf;
	__le32 orig;
	int ret;

	kprobe_assert_locked();
	BUILD_BUG_ON(sizeof(struct pt_regs) % 16);
	*why = kprobe_opt_check(oi->probe);
	if (*why)
		return -EINVAL;
	buf = kprobe_optslot_alloc();
	ret = kprobe_opt_write(oi, buf, why);
	if (ret) {
		if (buf)
			kprobe_optslot_free(buf);
		return ret;
	}

	orig = cpu_to_le32(oi->probe->opcode);
	kprobe_opt_set_single(oi, buf, &buf[KPROBE_OPT_COPY], &orig,
			      AARCH64_INSN_SIZE);
	return 0;
}

/* ---------------------------------------------------------------------
 * Branches in and out of the text (text_mutex and cpus_read_lock() held)
 * ---------------------------------------------------------------------
 */

/**
 * arch_optprobe_patch() - replace a site's BRK with its branch
 * @oi: a prepared record
 *
 * One aligned word, BRK to B: a CPU fetches either, and either way ends
 * up in the handlers.
 */
void arch_optprobe_patch(struct kprobe_opt_insn *oi)
{
	u32 b = aarch64_insn_gen_branch_imm(oi->addr, (unsigned long)oi->buf,
					    AARCH64_INSN_BRANCH_NOLINK);

	lockdep_assert_held(&text_mutex);
	WARN_ON_ONCE(aarch64_insn_patch_text_nosync((void *)oi->addr, b));
}

/**
 * arch_optprobe_unpatch() - put a site's BRK back over its branch
 * @oi: an optimized site's record
 */
void arch_optprobe_unpatch(struct kprobe_opt_insn *oi)
{
	lockdep_assert_held(&text_mutex);
	WARN_ON_ONCE(aarch64_insn_patch_text_nosync((void *)oi->addr,
						    BREAKPOINT_INSTRUCTION));
}

/**
 * arch_optprobe_flush() - make every CPU fetch the new words
 *
 * aarch64_insn_patch_text_nosync() has written them and cleaned and
 * invalidated their lines to the point of unification; an interrupt on
 * each CPU is a context synchronization event, so no CPU executes an old
 * word once this returns.
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
	WARN_ON_ONCE(!aarch64_insn_set(oi->buf, BREAKPOINT_INSTRUCTION,
				       KPROBE_OPTSLOT_BYTES));
	kprobe_optslot_free(oi->buf);
	oi->buf = NULL;
}
