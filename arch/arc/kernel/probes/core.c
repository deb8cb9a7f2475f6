// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arc kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe checks its instruction (decode.c); arming writes
 * unimp_s over its first halfword.  A hit then goes:
 *
 *   1. the instruction error exception reaches kprobe_exceptions_notify()
 *      (DIE_IERR), which disables interrupts, finds the site and runs the
 *      pre handler (state HANDLER);
 *   2. the original halfword goes back, and "trap_s 2" is planted over
 *      the instruction's successor, and over a branch's target, both
 *      computed from the registers of the hit by disasm_next_pc(); the
 *      exception returns to the probe address with STATUS32.IE clear in
 *      the frame and preemption disabled (state STEPPING);
 *   3. the instruction runs in place and the CPU reaches one of the traps:
 *      trap_is_kprobe() takes the traps out, writes unimp_s back over the
 *      probe, returns to the trap's address (its original instruction is
 *      back), with interrupts and preemption as before the hit, and runs
 *      the post handler (state POST, then IDLE).
 *
 * Each nesting level of kprobe_ctlblk has its own traps
 * (kprobe_arc_level).  A probe hit while another is active on the CPU
 * (from a handler, the fault path of a stepped instruction) runs without
 * handlers but is stepped the same way on the next level.  A context that
 * runs into a trap of a level below the one being stepped (a fault path
 * crossing an outer step's successor) gets the original instruction
 * there back for the time being; the level's traps are planted again when
 * it is the innermost one again.
 *
 * All of this writes kernel text from the trap, which is only sound with
 * one CPU (see <asm/kprobes.h>); then arming and disarming, which run
 * with interrupts off around their write, can never find a step half
 * done.
 */
#include "arc-kprobes.h"

#include <linux/cacheflush.h>
#include <linux/irqflags.h>
#include <linux/kdebug.h>
#include <linux/preempt.h>
#include <asm/disasm.h>
#include <asm/irqflags.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* The traps a step plants: its successor, and a branch's target. */
#define KPROBE_ARC_TRAPS	2

/**
 * struct kprobe_arc_level - the traps of one nesting level's step
 * @addr: where each trap is
 * @saved: what each trap replaced
 * @lifted: the trap is out for a nested context that ran into it
 * @nr: traps in use
 */
struct kprobe_arc_level {
	unsigned long addr[KPROBE_ARC_TRAPS];
	u16 saved[KPROBE_ARC_TRAPS];
	bool lifted[KPROBE_ARC_TRAPS];
	u8 nr;
};

/* One per nesting level, indexed by kprobe_ctlblk::depth. */
static DEFINE_PER_CPU(struct kprobe_arc_level, kprobe_arc_levels[KPROBE_NEST_MAX + 1]);

/* ---------------------------------------------------------------------
 * Text
 * ---------------------------------------------------------------------
 */

/*
 * Write the halfword at @addr and make the instruction cache see it.
 * arc's kernel and module text are writable; a halfword store is single
 * copy atomic, and flush_icache_range() writes the line back and
 * invalidates it.
 */
static void kprobe_arc_poke(unsigned long addr, u16 insn)
{
	WRITE_ONCE(*(u16 *)addr, insn);
	flush_icache_range(addr, addr + sizeof(u16));
}

NOKPROBE_SYMBOL(kprobe_arc_poke);

static u16 kprobe_arc_peek(unsigned long addr)
{
	return READ_ONCE(*(u16 *)addr);
}

NOKPROBE_SYMBOL(kprobe_arc_peek);

/* Plant a trap of @lv at @addr, unless it has one there already. */
static void kprobe_arc_plant(struct kprobe_arc_level *lv, unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < lv->nr; i++)
		if (lv->addr[i] == addr)
			return;
	lv->addr[i] = addr;
	lv->saved[i] = kprobe_arc_peek(addr);
	lv->lifted[i] = false;
	lv->nr++;
	kprobe_arc_poke(addr, KPROBE_STEP_TRAP);
}

NOKPROBE_SYMBOL(kprobe_arc_plant);

/* Take @lv's traps out, the last planted first. */
static void kprobe_arc_unplant(struct kprobe_arc_level *lv)
{
	while (lv->nr) {
		lv->nr--;
		if (!lv->lifted[lv->nr])
			kprobe_arc_poke(lv->addr[lv->nr], lv->saved[lv->nr]);
	}
}

NOKPROBE_SYMBOL(kprobe_arc_unplant);

/* Plant again the traps of @lv that a nested context had lifted. */
static void kprobe_arc_replant(struct kprobe_arc_level *lv)
{
	unsigned int i;

	for (i = 0; i < lv->nr; i++) {
		if (!lv->lifted[i])
			continue;
		lv->lifted[i] = false;
		kprobe_arc_poke(lv->addr[i], KPROBE_STEP_TRAP);
	}
}

NOKPROBE_SYMBOL(kprobe_arc_replant);

static struct kprobe_arc_level *kprobe_arc_level(unsigned int depth)
{
	return this_cpu_ptr(&kprobe_arc_levels[depth]);
}

NOKPROBE_SYMBOL(kprobe_arc_level);

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/*
 * Step @p's instruction in place: the original halfword back, traps at
 * its successors, the return with interrupts off.  The successors are
 * computed with the original in the text, from the registers of the hit
 * (a conditional branch's outcome, a jump's register).
 */
static void kprobe_arc_start_step(struct kprobe_hit_site *p,
				  struct pt_regs *regs,
				  struct kprobe_ctlblk *kcb)
{
	struct kprobe_arc_level *lv = kprobe_arc_level(kcb->depth);
	unsigned long addr = (unsigned long)p->addr;
	unsigned long next, target = 0;
	bool branch;

	kprobe_arc_poke(addr, p->opcode);
	branch = disasm_next_pc(addr, regs, NULL, &next, &target);
	lv->nr = 0;
	kprobe_arc_plant(lv, next);
	if (branch)
		kprobe_arc_plant(lv, target);
	/*
	 * decode.c refuses delay slots, but cannot see one behind a probed
	 * branch: if the hit is in a taken branch's delay slot, the CPU goes
	 * on at BTA after it, which is trapped too.
	 */
	if (regs->status32 & STATUS_DE_MASK)
		kprobe_arc_plant(lv, regs->bta & ~1UL);

	kcb->site = p;
	kcb->saved_irq = regs->status32 & STATUS_IE_MASK;
	regs->status32 &= ~STATUS_IE_MASK;
	preempt_disable();
}

NOKPROBE_SYMBOL(kprobe_arc_start_step);

/*
 * The step of this nesting level is over (@resume: the trap's address,
 * its original instruction back) or abandoned (@resume: the probe
 * address).  The site is armed again: with one CPU nothing can have
 * disarmed it meanwhile.
 */
static void kprobe_arc_end_step(struct kprobe_hit_site *p,
				struct pt_regs *regs,
				struct kprobe_ctlblk *kcb, unsigned long resume)
{
	kprobe_arc_unplant(kprobe_arc_level(kcb->depth));
	kprobe_arc_poke((unsigned long)p->addr, BREAKPOINT_INSTRUCTION);
	regs->ret = resume;
	regs->status32 = (regs->status32 & ~STATUS_IE_MASK) | kcb->saved_irq;
	preempt_enable_no_resched();
}

NOKPROBE_SYMBOL(kprobe_arc_end_step);

/* After a pop: the level below is the innermost one again. */
static void kprobe_arc_after_pop(struct kprobe_ctlblk *kcb)
{
	if (kcb->state == KPROBE_CPU_STEPPING ||
	    kcb->state == KPROBE_CPU_REENTERED)
		kprobe_arc_replant(kprobe_arc_level(kcb->depth));
}

NOKPROBE_SYMBOL(kprobe_arc_after_pop);

/* A hit on an idle CPU: the handlers run, then the step starts. */
static void kprobe_arc_hit(struct kprobe_hit_site *p, struct pt_regs *regs,
			   struct kprobe_cpu c)
{
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved the pc: nothing else runs */
	kprobe_arc_start_step(p, regs, c.kcb);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_arc_hit);

/*
 * A hit while this CPU is already busy with a probe: the handlers do not
 * run (the hit counts as missed), the instruction is stepped on a level
 * of its own.
 */
static void kprobe_arc_reenter(struct kprobe_hit_site *p,
			       struct pt_regs *regs,
			       struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_arc_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_arc_reenter);

/*
 * The unimp_s, interrupts disabled by the caller.  Return: true if it
 * was a probe's and @regs say where to go on.
 */
static bool kprobe_arc_break(unsigned long addr, struct pt_regs *regs)
{
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_hit_site *p;

	p = kprobe_hit_find(addr);
	if (!p)
		return false;
	if (kprobe_cpu_running(c))
		kprobe_arc_reenter(p, regs, c.kcb);
	else
		kprobe_arc_hit(p, regs, c);
	return true;
}

NOKPROBE_SYMBOL(kprobe_arc_break);

/*
 * Is @addr a trap of a level below the innermost step?  If so it is
 * lifted: a nested context runs the original instruction there.
 */
static bool kprobe_arc_lift(struct kprobe_ctlblk *kcb, unsigned long addr)
{
	struct kprobe_arc_level *lv;
	unsigned int d, i;

	for (d = 0; d < kcb->depth; d++) {
		lv = kprobe_arc_level(d);
		for (i = 0; i < lv->nr; i++) {
			if (lv->addr[i] != addr || lv->lifted[i])
				continue;
			lv->lifted[i] = true;
			kprobe_arc_poke(addr, lv->saved[i]);
			return true;
		}
	}
	return false;
}

NOKPROBE_SYMBOL(kprobe_arc_lift);

/*
 * The trap_s 2, interrupts disabled by the caller.  Return: true if it
 * was one of ours and @regs say where to go on.
 */
static bool kprobe_arc_trap(unsigned long addr, struct pt_regs *regs)
{
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_ctlblk *kcb = c.kcb;
	struct kprobe_arc_level *lv;
	struct kprobe_hit_site *p;
	unsigned int i;

	if (kprobe_cpu_running(c) &&
	    (kcb->state == KPROBE_CPU_STEPPING ||
	     kcb->state == KPROBE_CPU_REENTERED)) {
		p = kcb->site;
		lv = kprobe_arc_level(kcb->depth);
		for (i = 0; i < lv->nr; i++) {
			if (lv->addr[i] != addr || lv->lifted[i])
				continue;
			kprobe_arc_end_step(p, regs, kcb, addr);
			kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
			kprobe_arc_after_pop(kcb);
			return true;
		}
		if (kprobe_arc_lift(kcb, addr)) {
			regs->ret = addr;
			return true;
		}
	}
	/*
	 * A trap that is gone already (an interrupt taken on the way here
	 * ended the step): its instruction is back, run it.  A trap still
	 * there is nobody's: it goes on after it, as traps.c does.
	 */
	if (kprobe_arc_peek(addr) != KPROBE_STEP_TRAP) {
		regs->ret = addr;
		return true;
	}
	return false;
}

NOKPROBE_SYMBOL(kprobe_arc_trap);

/**
 * trap_is_kprobe() - the trap that ends an in-place step
 * @address: the address of the "trap_s 2" (EFA)
 * @regs: registers at the trap; regs->ret is past it
 *
 * Called by do_non_swi_trap() with interrupts enabled by the trap entry;
 * they are off while the step ends and the post handler runs.  A
 * "trap_s 2" from user space, or one in kernel text that no step
 * planted, is left to traps.c, which goes on after it.
 */
void trap_is_kprobe(unsigned long address, struct pt_regs *regs)
{
	unsigned long flags;

	if (user_mode(regs))
		return;
	local_irq_save(flags);
	kprobe_arc_trap(address, regs);
	local_irq_restore(flags);
}

NOKPROBE_SYMBOL(trap_is_kprobe);

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: unused
 *
 * Called through kprobe_page_fault() by do_page_fault(), for a kernel
 * access that cannot be satisfied, before the exception table is
 * searched.  A fault of the instruction being stepped gives the step up:
 * its traps out, the probe armed again, interrupts and the state as the
 * hit found them; the fixup (or the oops) then sees the probe address,
 * where the instruction is.  A retry hits the probe again.  Faults in
 * handlers are left to the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p;
	unsigned long flags;

	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return 0;
	p = kcb->site;
	if (instruction_pointer(regs) != (unsigned long)p->addr)
		return 0;

	local_irq_save(flags);
	kprobe_arc_end_step(p, regs, kcb, (unsigned long)p->addr);
	kprobe_step_abandon(kcb);
	kprobe_arc_after_pop(kcb);
	local_irq_restore(flags);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/**
 * kprobe_exceptions_notify() - the kprobes die notifier
 * @self: the notifier block
 * @val: DIE_*
 * @data: struct die_args
 *
 * The probe's unimp_s raises an instruction error, which traps.c's
 * do_insterror_or_kprobe() passes here as DIE_IERR, interrupts enabled
 * by the exception entry.  An unimp_s that no probe owns goes on to
 * traps.c's instruction error.
 *
 * Return: NOTIFY_STOP for a probe's unimp_s, else NOTIFY_DONE.
 */
int kprobe_exceptions_notify(struct notifier_block *self, unsigned long val,
			     void *data)
{
	struct die_args *args = data;
	unsigned long flags;
	bool ours;

	if (val != DIE_IERR || user_mode(args->regs))
		return NOTIFY_DONE;
	local_irq_save(flags);
	ours = kprobe_arc_break(args->err, args->regs);
	local_irq_restore(flags);
	return ours ? NOTIFY_STOP : NOTIFY_DONE;
}

NOKPROBE_SYMBOL(kprobe_exceptions_notify);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/**
 * arch_kprobe_prepare() - check the probed instruction
 * @p: the site; p->addr is halfword aligned
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h).
 * Return: 0, or a negative errno with *@why set: -EINVAL for an
 * instruction or position that cannot be probed (decode.c), -EFAULT if
 * the text cannot be read.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	int ret;

	kprobe_assert_locked();

	ret = kprobe_arc_decode(addr, &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = kprobe_arc_peek(addr);
	return 0;
}

/*
 * Arming and disarming: one halfword, with interrupts off so that no
 * step of this CPU can see it half written.
 */
static void kprobe_arc_set(struct kprobe_hit_site *p, u16 insn)
{
	unsigned long flags;

	local_irq_save(flags);
	kprobe_arc_poke((unsigned long)p->addr, insn);
	local_irq_restore(flags);
}

/**
 * arch_arm_kprobe() - put the breakpoint over the probed instruction
 * @p: a prepared site
 *
 * Context: text (kprobes_arch.h).
 */
void arch_arm_kprobe(struct kprobe_hit_site *p)
{
	kprobe_arc_set(p, BREAKPOINT_INSTRUCTION);
}

/**
 * arch_disarm_kprobe() - put the original halfword back
 * @p: an armed site
 *
 * Context: text (kprobes_arch.h).
 */
void arch_disarm_kprobe(struct kprobe_hit_site *p)
{
	kprobe_arc_set(p, p->opcode);
}

/**
 * arch_remove_kprobe() - release what arch_kprobe_prepare() took
 * @p: a disarmed site
 *
 * Nothing: the instruction runs in place, there is no slot.
 */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
}

/**
 * arch_kprobe_check_insn_boundary() - is @addr the start of an instruction
 * @addr: a kernel text address
 * @why: the reason when it is not
 *
 * Instructions are 16 or 32 bits long, some with a 32-bit immediate
 * after them; only the alignment is checked, as upstream did.  An
 * address inside an instruction that is halfword aligned is accepted,
 * and its hit decodes whatever is there.
 *
 * Context: locked (kprobes_arch.h).
 * Return: 0, or -EILSEQ (*@why says why).
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	if (addr & 1) {
		*why = "not at an instruction boundary";
		return -EILSEQ;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * The blacklist
 * ---------------------------------------------------------------------
 */

/*
 * The exception entry and exit up to the handlers above, the fault path
 * the fault handler is called from, and the cache maintenance that every
 * write of a step calls (the static helpers are looked up by name too;
 * a name the build does not have is skipped).
 */
static const char *const kprobe_arc_trap_text[] = {
	"instr_service",
	"EV_Trap",
	"ret_from_exception",
	"do_insterror_or_kprobe",
	"do_non_swi_trap",
	"do_page_fault",
	"fixup_exception",
	"flush_icache_range",
	"__sync_icache_dcache",
	"__ic_line_inv_vaddr_local",
	"__dc_line_op",
	"__dc_line_op_k",
};

/**
 * arch_populate_kprobe_blacklist() - arc text that is never probed
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	return kprobe_blacklist_ksyms(kprobe_arc_trap_text,
				      ARRAY_SIZE(kprobe_arc_trap_text));
}

/**
 * arch_init_kprobes() - arc part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
