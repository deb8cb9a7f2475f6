// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LoongArch kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless a hit
 * computes it in the trap, writes it into a slot followed by a second
 * break.  Arming writes "break 10" over the instruction.  A hit then
 * goes:
 *
 *   1. do_bp() calls kprobe_breakpoint_handler() with ERA at the probe
 *      address; it disables interrupts, finds the site and runs the pre
 *      handler (state HANDLER);
 *   2. a pc-relative instruction or a branch is simulated
 *      (arch_simulate_insn()) and the hit is over here (state POST or
 *      IDLE);
 *   3. else ERA becomes the slot, with PRMD.PIE clear so that the
 *      exception return leaves interrupts off while the copy runs, and
 *      preemption disabled (state STEPPING);
 *   4. the "break 11" after the copy reaches kprobe_singlestep_handler():
 *      ERA goes past the probe, PIE and preemption come back, the post
 *      handler runs (state POST, then IDLE).
 *
 * Probes hit while another one is active on the CPU run without handlers
 * (kprobe_la_reenter()).  A page fault of the copy is made a fault at the
 * probe address (kprobe_fault_handler()).
 */
#include "loongarch-kprobes.h"

#include <linux/cacheflush.h>
#include <linux/execmem.h>
#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <asm/inst.h>
#include <asm/loongarch.h>
#include <asm-generic/kprobes-slot.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/* Compute @p's instruction in the trap: ERA is the probe address. */
static void kprobe_la_simulate(struct kprobe_hit_site *p,
			       struct pt_regs *regs)
{
	union loongarch_instruction in = { .word = p->opcode };

	arch_simulate_insn(in, regs);
}

NOKPROBE_SYMBOL(kprobe_la_simulate);

/*
 * Send the CPU to @p's slot.  The exception return loads CRMD.IE from
 * PRMD.PIE: with it clear, and preemption disabled until the second
 * break, the task stays on this CPU while its state points at the slot.
 */
static void kprobe_la_start_step(struct kprobe_hit_site *p,
				 struct pt_regs *regs,
				 struct kprobe_ctlblk *kcb)
{
	kcb->site = p;
	kcb->saved_irq = regs->csr_prmd & CSR_PRMD_PIE;
	regs->csr_prmd &= ~CSR_PRMD_PIE;
	regs->csr_era = (unsigned long)p->ainsn.slot;
	preempt_disable();
}

NOKPROBE_SYMBOL(kprobe_la_start_step);

/* The step of this nesting level is over or abandoned: go on at @era. */
static void kprobe_la_end_step(struct pt_regs *regs,
			       struct kprobe_ctlblk *kcb, unsigned long era)
{
	regs->csr_prmd = (regs->csr_prmd & ~CSR_PRMD_PIE) | kcb->saved_irq;
	regs->csr_era = era;
	preempt_enable_no_resched();
}

NOKPROBE_SYMBOL(kprobe_la_end_step);

/* A hit on an idle CPU: the handlers run. */
static void kprobe_la_hit(struct kprobe_hit_site *p, struct pt_regs *regs,
			  struct kprobe_cpu c)
{
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved ERA: nothing else runs */

	if (p->ainsn.simulate) {
		kprobe_la_simulate(p, regs);
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_la_start_step(p, regs, c.kcb);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_la_hit);

/*
 * A hit while this CPU is already busy with a probe: from a handler, a
 * busy section, or the fault path of a copy.  The handlers do not run
 * (the hit counts as missed), but the probed instruction must.
 */
static void kprobe_la_reenter(struct kprobe_hit_site *p,
			      struct pt_regs *regs,
			      struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);

	/* A simulation completes right here: there is nothing to save. */
	if (p->ainsn.simulate) {
		kprobe_la_simulate(p, regs);
		return;
	}
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_la_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_la_reenter);

/* The first break, interrupts disabled by the caller. */
static bool kprobe_la_break(struct pt_regs *regs)
{
	unsigned long addr = regs->csr_era;
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_hit_site *p;

	p = kprobe_hit_find(addr);
	if (p && !kprobe_ftrace(p)) {
		if (kprobe_cpu_running(c))
			kprobe_la_reenter(p, regs, c.kcb);
		else
			kprobe_la_hit(p, regs, c);
		return true;
	}

	/*
	 * Not a live probe.  One disarmed after this CPU fetched its break
	 * has its instruction back: run it.  A break still there is
	 * somebody else's.
	 */
	return *(kprobe_opcode_t *)addr != BREAKPOINT_INSTRUCTION;
}

NOKPROBE_SYMBOL(kprobe_la_break);

/**
 * kprobe_breakpoint_handler() - a kernel "break 10", a probe's
 * @regs: registers at the trap; ERA is the break's address
 *
 * Called by do_bp() with interrupts as the trapping context had them;
 * they are off while the handlers run.  Kernel text is readable where it
 * traps, so the break is read directly.
 *
 * Return: true if the break was ours and @regs say where to resume.
 */
bool kprobe_breakpoint_handler(struct pt_regs *regs)
{
	unsigned long flags;
	bool ours;

	if (user_mode(regs))
		return false;
	local_irq_save(flags);
	ours = kprobe_la_break(regs);
	local_irq_restore(flags);
	return ours;
}

NOKPROBE_SYMBOL(kprobe_breakpoint_handler);

/* The second break, interrupts disabled by the caller. */
static bool kprobe_la_step_end(struct pt_regs *regs)
{
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_ctlblk *kcb = c.kcb;
	struct kprobe_hit_site *p;

	if (!kprobe_cpu_running(c))
		return false;
	p = kprobe_slot_stepped(kcb, regs->csr_era, LOONGARCH_INSN_SIZE);
	if (!p)
		return false;

	kprobe_la_end_step(regs, kcb,
			   (unsigned long)p->addr + LOONGARCH_INSN_SIZE);
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
	return true;
}

NOKPROBE_SYMBOL(kprobe_la_step_end);

/**
 * kprobe_singlestep_handler() - the "break 11" after a stepped copy
 * @regs: registers at the trap
 *
 * Called by do_bp(), with interrupts off: the copy ran with PIE clear.
 *
 * Return: true if it ended the step this CPU is doing; ERA is then
 * after the probed instruction.
 */
bool kprobe_singlestep_handler(struct pt_regs *regs)
{
	unsigned long flags;
	bool ours;

	if (user_mode(regs))
		return false;
	local_irq_save(flags);
	ours = kprobe_la_step_end(regs);
	local_irq_restore(flags);
	return ours;
}

NOKPROBE_SYMBOL(kprobe_singlestep_handler);

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: the exception code (unused)
 *
 * Called through kprobe_page_fault() first thing in the page fault path.
 * A fault of the copy in the slot is made a fault of the original: ERA
 * is put back at the probe address with the interrupt state of the hit,
 * and the state the hit interrupted is restored, so that the fault is
 * resolved, fixed up or reported at the real address.  A retry hits the
 * probe again.  Faults in handlers are left to the normal path.
 *
 * Return: 0: the caller goes on handling the fault.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p;

	/* Not the copy itself, e.g. a fault of this very fault path. */
	p = kprobe_slot_stepped(kcb, regs->csr_era, 0);
	if (!p)
		return 0;

	kprobe_la_end_step(regs, kcb, (unsigned long)p->addr);
	kprobe_step_abandon(kcb);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/**
 * alloc_insn_page() - a page for instruction slots, full of breakpoints
 *
 * LoongArch patches text with plain stores (larch_insn_write(); kernel
 * text is in a direct mapped window), and has no alias to write a
 * read-only page through.  The slot page therefore stays as execmem
 * hands it out, writable and executable like module text, instead of
 * the core's read-only default.
 *
 * Return: the page, or NULL.
 */
void *alloc_insn_page(void)
{
	kprobe_opcode_t *page = execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);
	unsigned int i;

	if (!page)
		return NULL;
	for (i = 0; i < PAGE_SIZE / sizeof(*page); i++)
		page[i] = BREAKPOINT_INSTRUCTION;
	flush_icache_range((unsigned long)page, (unsigned long)page + PAGE_SIZE);
	return page;
}

/*
 * The slot writer of kprobe_slot_fill(): word by word through the
 * base's text writer, then the instruction cache barrier.
 */
static int kprobe_la_write_slot(kprobe_opcode_t *slot,
				const kprobe_opcode_t *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (larch_insn_write(slot + i, src[i]))
			return -EFAULT;
	flush_icache_range((unsigned long)slot, (unsigned long)(slot + n));
	return 0;
}

/* Fill a new slot: the copy, the second break, breakpoints. */
static int kprobe_la_fill_slot(struct kprobe_hit_site *p, u32 copy,
			       const char **why)
{
	const kprobe_opcode_t head[] = { copy, KPROBE_STEP_BREAK };

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head),
				kprobe_la_write_slot, why);
}

/*
 * Is @addr the second word of ftrace's patchable entry, where ftrace
 * writes its call while the function is traced?  The first word is the
 * ftrace site, probed through ftrace; a break on the second would be
 * written over.
 */
static bool kprobe_la_in_ftrace_entry(unsigned long addr)
{
	unsigned long site = addr - LOONGARCH_INSN_SIZE;

	return IS_ENABLED(CONFIG_DYNAMIC_FTRACE) && ftrace_location(site) == site;
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is a word boundary
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set: -EINVAL for an
 * instruction that cannot be probed (decode.c), -EFAULT if the text
 * cannot be read or the slot not written, -ENOMEM.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	u32 insn;
	int ret;

	kprobe_assert_locked();

	if (kprobe_la_in_ftrace_entry((unsigned long)p->addr)) {
		*why = "ftrace's call in a patchable function entry";
		return -EINVAL;
	}
	ret = kprobe_slot_read_text((unsigned long)p->addr, &insn,
				    sizeof(insn), why);
	if (ret)
		return ret;
	ret = kprobe_loongarch_decode(insn, &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = insn;
	p->ainsn.slot = NULL;
	if (!p->ainsn.simulate)
		return kprobe_la_fill_slot(p, insn, why);
	return 0;
}

/*
 * Write the word at @addr: one aligned store, which another CPU sees
 * whole, and the instruction cache barrier of flush_icache_range().
 */
static void kprobe_la_poke(kprobe_opcode_t *addr, u32 insn)
{
	WARN_ON_ONCE(larch_insn_patch_text(addr, insn));
}

/* Arming and disarming; kprobe_la_break() sees a late hit. */
DEFINE_KPROBE_ARMING(kprobe_la_poke)

/* A copy runs with interrupts off: after the grace period none is left. */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* Every LoongArch instruction is one aligned word. */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, LOONGARCH_INSN_SIZE, why);
}

/* ---------------------------------------------------------------------
 * The blacklist
 * ---------------------------------------------------------------------
 */

/*
 * The exception vectors up to the break handlers (genex.S, tlbex.S), the
 * page fault path the fault handler is called from, and the base's
 * helpers a hit runs: the simulator and the text writer.  A name the
 * build does not have is skipped.
 */
static const char *const kprobe_la_trap_text[] = {
	"handle_bp",
	"handle_ri",
	"handle_ade",
	"handle_ale",
	"handle_tlb_load",
	"handle_tlb_store",
	"handle_tlb_modify",
	"handle_tlb_protect",
	"handle_tlb_refill",
	"do_page_fault",
	"__do_page_fault",
	"no_context",
	"fixup_exception",
	"arch_simulate_insn",
	"simu_pc",
	"simu_branch",
	"larch_insn_write",
	"larch_insn_patch_text",
};

/**
 * arch_populate_kprobe_blacklist() - LoongArch text that is never probed
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	return kprobe_blacklist_ksyms(kprobe_la_trap_text,
				      ARRAY_SIZE(kprobe_la_trap_text));
}

/**
 * arch_init_kprobes() - LoongArch part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
