// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parisc kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless a hit
 * evaluates it in the trap, writes it into a slot followed by two second
 * breaks.  Arming writes the first break over the instruction.  A hit
 * then goes:
 *
 *   1. handle_break() calls parisc_kprobe_break_handler(), which disables
 *      interrupts, finds the site and runs the pre handler (state HANDLER);
 *   2. a branch is evaluated (kprobe_parisc_branch()): the interruption
 *      queue becomes [its delay slot, its outcome]; a common instruction
 *      that only writes a register is computed (kprobe_parisc_compute()):
 *      the queue moves on by one; either way the hit is over here (state
 *      POST or IDLE);
 *   3. else the queue becomes [slot, slot + 4], with PSW I clear in the
 *      interrupted PSW and preemption disabled; the back of the queue at
 *      the break, where the probed instruction was to go on, is kept per
 *      nesting level (state STEPPING);
 *   4. the second break at slot + 4, or at slot + 8 when the copy
 *      nullified its successor, reaches parisc_kprobe_ss_handler(): the
 *      queue goes on from the kept address (nullified in the second
 *      case), PSW I and preemption come back, the post handler runs
 *      (state POST, then IDLE).
 *
 * Probes hit while another one is active on the CPU run without handlers
 * (kprobe_parisc_reenter()).  A fault of the copy that the exception
 * table must fix is made a fault at the probe address
 * (kprobe_fault_handler()).
 */
#include "parisc-kprobes.h"

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/preempt.h>
#include <asm/cacheflush.h>
#include <asm/patch.h>
#include <asm/psw.h>
#include <asm/traps.h>
#include <asm-generic/kprobes-slot.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * Where each step goes on: the back of the interruption queue at the
 * break, one entry per nesting level (kprobe_ctlblk::depth).
 */
static DEFINE_PER_CPU(unsigned long, kprobe_parisc_next[KPROBE_NEST_MAX + 1]);

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/* Load the interruption queue the rfi of this trap returns with. */
static nokprobe_inline void kprobe_set_queue(struct pt_regs *regs,
					     unsigned long front,
					     unsigned long back, bool nullify)
{
	regs->iaoq[0] = front;
	regs->iaoq[1] = back;
	if (nullify)
		regs->gr[0] |= PSW_N;
	else
		regs->gr[0] &= ~PSW_N;
}

/*
 * The instruction at @p done in the trap: computed, the queue goes on
 * with what followed it; a branch evaluated, with its delay slot.  PSW
 * N is clear at a break that trapped (a nullified break would not have),
 * and a computed instruction leaves it so.
 */
static nokprobe_inline void kprobe_parisc_simulate(struct kprobe_hit_site *p,
						   struct pt_regs *regs)
{
	unsigned long next = regs->iaoq[1];
	unsigned long target;
	bool nullify;

	if (kprobe_parisc_computed(p->ainsn.kind)) {
		kprobe_parisc_compute(&p->ainsn, regs);
		regs->iaoq[0] = next;
		regs->iaoq[1] = next + sizeof(kprobe_opcode_t);
		return;
	}
	kprobe_parisc_branch(&p->ainsn, regs, (unsigned long)p->addr,
			     &target, &nullify);
	kprobe_set_queue(regs, next, target, nullify);
}

/*
 * Send the CPU to @p's slot.  The rfi loads PSW I from the frame: with
 * it clear, and preemption disabled until the second break is handled,
 * the task stays on this CPU while its state points at the slot.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	unsigned long slot = (unsigned long)p->ainsn.slot;

	/* Interrupts are off: the break handlers disabled them. */
	__this_cpu_write(kprobe_parisc_next[kcb->depth], regs->iaoq[1]);
	kcb->site = p;
	kcb->saved_irq = regs->gr[0] & PSW_I;
	regs->gr[0] &= ~PSW_I;
	kprobe_set_queue(regs, slot, slot + sizeof(kprobe_opcode_t), false);
	preempt_disable();
}

/* The step of this nesting level is over or abandoned. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb,
					    unsigned long front,
					    unsigned long back, bool nullify)
{
	regs->gr[0] = (regs->gr[0] & ~PSW_I) | kcb->saved_irq;
	kprobe_set_queue(regs, front, back, nullify);
	preempt_enable_no_resched();
}

/*
 * The end of a break or fault handler: interrupts, and lockdep's record
 * of them, as the return from the interruption leaves them.  A step
 * returns into its slot with PSW I clear; the end of a step gives the
 * probed context its own state back.  parisc's return path masks them
 * again itself before the rfi, as for every interruption.
 */
static nokprobe_inline void kprobe_parisc_irq_exit(struct pt_regs *regs)
{
	if (regs->gr[0] & PSW_I)
		local_irq_enable();
}

/* A hit on an idle CPU: the handlers run. */
static nokprobe_inline void kprobe_parisc_hit(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_cpu c)
{
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved the pc: nothing else runs */

	if (p->ainsn.kind != KPROBE_PARISC_STEP) {
		kprobe_parisc_simulate(p, regs);
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs, c.kcb);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

/*
 * A hit while this CPU is already busy with a probe: from a handler, a
 * busy section, an interrupt taken in the break handlers, or the fault
 * path of a copy.  The handlers do not run (the hit counts as missed),
 * but the probed instruction must.
 */
static notrace void kprobe_parisc_reenter(struct kprobe_hit_site *p,
					  struct pt_regs *regs,
					  struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);

	if (p->ainsn.kind != KPROBE_PARISC_STEP) {
		kprobe_parisc_simulate(p, regs);
		return;
	}
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_parisc_reenter);

/*
 * The first break, interrupts disabled by the caller.  Return: true if
 * it was ours and @regs say where to go on.
 */
static nokprobe_inline bool kprobe_parisc_break(struct pt_regs *regs)
{
	unsigned long addr = instruction_pointer(regs);
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_hit_site *p;

	p = kprobe_hit_find(addr);
	if (p) {
		if (kprobe_cpu_running(c))
			kprobe_parisc_reenter(p, regs, c.kcb);
		else
			kprobe_parisc_hit(p, regs, c);
		return true;
	}

	/*
	 * Not a live probe.  One disarmed after this CPU fetched its break
	 * has its instruction back: the rfi runs it, once the instruction
	 * cache forgot the break.  A break still there is nobody's.
	 */
	if (*(kprobe_opcode_t *)addr == BREAKPOINT_INSTRUCTION)
		return false;
	flush_icache_range(addr, addr + sizeof(kprobe_opcode_t));
	return true;
}

/**
 * parisc_kprobe_break_handler() - the probe's break
 * @regs: registers at the break, in kernel mode
 *
 * Called by handle_break(), with interrupts as the trapping context had
 * them; they stay off while the handlers run, and after a step starts
 * (see kprobe_parisc_irq_exit()).  A probe break that no probe owns any
 * more is an oops.
 *
 * Return: 1.
 */
int parisc_kprobe_break_handler(struct pt_regs *regs)
{
	bool ours;

	local_irq_disable();
	ours = kprobe_parisc_break(regs);
	kprobe_parisc_irq_exit(regs);
	if (!ours)
		die_if_kernel("kprobes: a probe break with no probe", regs, 0);
	return 1;
}

NOKPROBE_SYMBOL(parisc_kprobe_break_handler);

/*
 * The second break, interrupts disabled by the caller.  Return: true if
 * it ends the step this CPU is doing.
 */
static nokprobe_inline bool kprobe_parisc_step_end(struct pt_regs *regs)
{
	unsigned long addr = instruction_pointer(regs);
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_ctlblk *kcb = c.kcb;
	struct kprobe_hit_site *p;
	unsigned long next;
	bool nullify = false;

	if (!kprobe_cpu_running(c))
		return false;
	/* The second break after the copy: the copy nullified the first. */
	p = kprobe_slot_stepped(kcb, addr, sizeof(kprobe_opcode_t));
	if (!p) {
		p = kprobe_slot_stepped(kcb, addr, 2 * sizeof(kprobe_opcode_t));
		nullify = true;
	}
	if (!p)
		return false;

	next = __this_cpu_read(kprobe_parisc_next[kcb->depth]);
	kprobe_end_step(regs, kcb, next, next + sizeof(kprobe_opcode_t),
			nullify);
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
	return true;
}

/**
 * parisc_kprobe_ss_handler() - the break that ends a step
 * @regs: registers at the break, in kernel mode
 *
 * Called by handle_break(), with interrupts off: the copy ran with PSW
 * I clear.  A second break outside a step is an oops.
 *
 * Return: 1.
 */
int parisc_kprobe_ss_handler(struct pt_regs *regs)
{
	bool ours;

	local_irq_disable();
	ours = kprobe_parisc_step_end(regs);
	kprobe_parisc_irq_exit(regs);
	if (!ours)
		die_if_kernel("kprobes: a step break outside a step", regs, 0);
	return 1;
}

NOKPROBE_SYMBOL(parisc_kprobe_ss_handler);

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: the interruption code (unused)
 *
 * Called through kprobe_page_fault() by fixup_exception(), once the fault
 * path found that the access cannot succeed.  A fault of the copy in the
 * slot is made a fault of the original: the queue is put back at the
 * probe address with its interrupt state, the state the hit interrupted
 * is restored, and the exception table (or the oops) sees the real
 * address.  A retry hits the probe again.  Faults in handlers are left to
 * the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault, now at the probe
 * address.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p;
	unsigned long next;

	/* Not the copy itself, e.g. a fault of this very fault path. */
	p = kprobe_slot_stepped(kcb, instruction_pointer(regs), 0);
	if (!p)
		return 0;

	next = this_cpu_read(kprobe_parisc_next[kcb->depth]);
	kprobe_end_step(regs, kcb, (unsigned long)p->addr, next, false);
	kprobe_step_abandon(kcb);
	/* The rest of the fault path runs as the probed context would. */
	kprobe_parisc_irq_exit(regs);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/*
 * Whether @addr is one of the nops before a traceable function, where
 * ftrace writes its call stub: a probe there would never be hit, and
 * ftrace would write over it.
 */
static bool kprobe_parisc_in_ftrace_pad(unsigned long addr)
{
	unsigned long site;
	unsigned int n;

	for (n = 1; n <= KPROBE_PARISC_FTRACE_PAD; n++) {
		site = addr + n * sizeof(kprobe_opcode_t);
		if (ftrace_location(site) == site)
			return true;
	}
	return false;
}

/*
 * The slot writer of kprobe_slot_fill(): nobody runs the slot yet, so
 * the words go in with one write through the alias and its flush.  The
 * base's helper does not write through its source pointer.
 */
static int kprobe_parisc_write_slot(kprobe_opcode_t *slot,
				    const kprobe_opcode_t *src, unsigned int n)
{
	__patch_text_multiple(slot, (u32 *)src, n * sizeof(*src));
	return 0;
}

/* Fill a new slot: the copy, two second breaks, a breakpoint. */
static int kprobe_parisc_fill_slot(struct kprobe_hit_site *p, u32 copy,
				   const char **why)
{
	const kprobe_opcode_t head[] = {
		copy, KPROBE_STEP_BREAK, KPROBE_STEP_BREAK,
	};

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head),
				kprobe_parisc_write_slot, why);
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is a word boundary
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set: -EINVAL for an
 * instruction or position that cannot be probed (decode.c, ftrace's
 * pad), -EFAULT if the text cannot be read, -ENOMEM.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	u32 insn;
	int ret;

	kprobe_assert_locked();

	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE) &&
	    kprobe_parisc_in_ftrace_pad(addr)) {
		*why = "in ftrace's patchable area before a function";
		return -EINVAL;
	}
	ret = kprobe_slot_read_text(addr, &insn, sizeof(insn), why);
	if (ret)
		return ret;
	ret = kprobe_parisc_decode(insn, &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = insn;
	p->ainsn.slot = NULL;
	if (p->ainsn.kind == KPROBE_PARISC_STEP)
		return kprobe_parisc_fill_slot(p, insn, why);
	return 0;
}

/*
 * Write the word at @addr.  __patch_text() writes through an alias and
 * flushes the instruction cache at @addr before the write: an interrupt
 * in between may have fetched the old word again, so the line is flushed
 * once more afterwards.  One aligned word: another CPU runs the old or
 * the new one.
 */
static void kprobe_parisc_poke(kprobe_opcode_t *addr, u32 insn)
{
	__patch_text(addr, insn);
	flush_icache_range((unsigned long)addr, (unsigned long)(addr + 1));
}

/* Arming and disarming; kprobe_parisc_break() sees a late hit. */
DEFINE_KPROBE_ARMING(kprobe_parisc_poke)

/* A copy runs with interrupts off: after the grace period none is left. */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* Every PA-RISC instruction is one aligned word. */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, sizeof(kprobe_opcode_t), why);
}

/* ---------------------------------------------------------------------
 * The blacklist
 * ---------------------------------------------------------------------
 */

/*
 * The C half of the interruption path, up to the break handlers, and
 * the exception fixup the fault handler is called from.
 */
static const char *const kprobe_parisc_trap_text[] = {
	"handle_interruption",
	"handle_break",
	"die_if_kernel",
	"fixup_exception",
	"parisc_acctyp",
};

/*
 * entry.S, the interruption vectors, register save and restore and the
 * task switch, lies between these two symbols (both included).
 */
#define KPROBE_PARISC_ENTRY_FIRST	"fault_vector_20"
#define KPROBE_PARISC_ENTRY_LAST	"set_register"

/* entry.S's text, if the symbols are there and in order. */
static int kprobe_parisc_blacklist_entry(void)
{
	unsigned long first, last, size = 0, offset = 0;
	unsigned long v11;

	first = kallsyms_lookup_name(KPROBE_PARISC_ENTRY_FIRST);
	v11 = kallsyms_lookup_name("fault_vector_11");
	if (v11 && (!first || v11 < first))
		first = v11;
	last = kallsyms_lookup_name(KPROBE_PARISC_ENTRY_LAST);
	if (!first || !last || last < first ||
	    !kallsyms_lookup_size_offset(last, &size, &offset))
		return 0;
	return kprobe_add_area_blacklist(first, last + size);
}

/**
 * arch_populate_kprobe_blacklist() - parisc text that is never probed
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	return kprobe_blacklist_ksyms(kprobe_parisc_trap_text,
				      ARRAY_SIZE(kprobe_parisc_trap_text)) ?:
	       kprobe_parisc_blacklist_entry();
}

/**
 * arch_within_kprobe_blacklist() - parisc addresses that are never probed
 * @addr: a text address
 *
 * The gateway page (syscall.S) is kernel text that user space runs, at
 * the page's user address: a break there would trap from the user's
 * side of it, where no probe is found.
 *
 * Return: true for an address in the gateway page.
 */
bool arch_within_kprobe_blacklist(unsigned long addr)
{
	unsigned long gate = (unsigned long)linux_gateway_page;

	return addr >= gate && addr < gate + PAGE_SIZE;
}

/**
 * arch_init_kprobes() - parisc part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
