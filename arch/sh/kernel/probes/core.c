// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sh kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless the
 * hit completes in the trap, writes into a slot what the CPU is to run
 * out of line, followed by trapa #0x3b.  Arming writes trapa #0x3a over
 * the instruction.  A hit then goes:
 *
 *   1. debug_trap_handler() rewinds the pc to the trapa and raises
 *      DIE_TRAP; kprobe_exceptions_notify() (interrupts masked, as in
 *      every exception handler) has kprobe_sh_break() find the site and
 *      run the pre handler (state HANDLER);
 *   2. an instruction that reads the pc is computed (kprobe_sh_simulate(),
 *      kprobe_sh_branch()); with nothing else to run, the hit is over
 *      here (state POST or IDLE, pc = where the instruction goes);
 *   3. else the CPU is sent to the slot with SR.IMASK at 15 in the frame
 *      and preemption disabled, the pc it resumes at kept per nesting
 *      level (state STEPPING): after the probe for a plain instruction,
 *      the branch's outcome for a delay-slot instruction;
 *   4. trapa #0x3b raises DIE_TRAP: kprobe_sh_step_end() puts the resume
 *      pc and the interrupt mask back, enables preemption and runs the
 *      post handler (state POST, then IDLE).
 *
 * Why out of line and not in place, as sh's previous back-end did (put
 * the original back, plant breakpoints at the successors, take them out
 * again): while the original is back, another CPU, or an interrupt on
 * this one, runs through the probe without a hit, and the planted
 * breakpoints are text writes on every hit.  A slot costs 16 bytes per
 * probe and the few instructions that read the pc are computed, as the
 * contract's stepped hits (<asm-generic/kprobes-step.h>) expect.
 *
 * Probes hit while another one is active on the CPU run without handlers
 * (kprobe_sh_reenter()).  A fault of the copy in the slot is turned into
 * a fault at the probe address (kprobe_fault_handler()).
 */
#include "sh-kprobes.h"

#include <linux/cacheflush.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <asm-generic/kprobes-slot.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * Where each step resumes: one entry per nesting level
 * (kprobe_ctlblk::depth), written when the step starts.
 */
static DEFINE_PER_CPU(unsigned long, kprobe_sh_resume[KPROBE_NEST_MAX + 1]);

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/*
 * Send the CPU to the slot of @p; it comes back to @resume.  The
 * exception return keeps SR.IMASK at 15 when the frame has it so
 * (restore_all): with that, and preemption disabled until trapa #0x3b is
 * handled, the task stays on this CPU while its state points at the
 * slot.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb,
					      unsigned long resume)
{
	this_cpu_write(kprobe_sh_resume[kcb->depth], resume);
	kcb->site = p;
	kcb->saved_irq = regs->sr & SR_IMASK;
	regs->sr |= SR_IMASK;
	regs->pc = (unsigned long)p->ainsn.slot;
	preempt_disable();
}

/* The step of this nesting level is over or abandoned. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb,
					    unsigned long pc)
{
	regs->sr = (regs->sr & ~SR_IMASK) | kcb->saved_irq;
	regs->pc = pc;
	preempt_enable_no_resched();
}

/*
 * Run what the trap computes of @p's instruction.  Return: where the
 * copy in the slot resumes, or 0 when nothing is left to run.
 */
static nokprobe_inline unsigned long kprobe_sh_compute(struct kprobe_hit_site *p,
						       struct pt_regs *regs)
{
	switch (p->ainsn.kind) {
	case KPROBE_SH_STEP:
		return (unsigned long)p->addr + sizeof(kprobe_opcode_t);
	case KPROBE_SH_SIMULATE:
		kprobe_sh_simulate(p, regs);
		return 0;
	default:
		return kprobe_sh_branch(p, regs) ? regs->pc : 0;
	}
}

/* A hit on an idle CPU: the handlers run. */
static nokprobe_inline void kprobe_sh_hit(struct kprobe_hit_site *p,
					  struct pt_regs *regs,
					  struct kprobe_cpu c)
{
	unsigned long resume;

	/* regs->pc is p->addr: debug_trap_handler() rewound it. */
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved the pc: nothing else runs */

	resume = kprobe_sh_compute(p, regs);
	if (!resume) {
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs, c.kcb, resume);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

/*
 * A hit while this CPU is already busy with a probe: from a handler, a
 * busy section or the fault path of a copy.  The handlers do not run
 * (the hit counts as missed), but the probed instruction must.
 */
static notrace void kprobe_sh_reenter(struct kprobe_hit_site *p,
				      struct pt_regs *regs,
				      struct kprobe_ctlblk *kcb)
{
	unsigned long resume;

	kprobe_hit_missed(p);
	resume = kprobe_sh_compute(p, regs);
	if (!resume)
		return;		/* completed right here */
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb, resume);
}

NOKPROBE_SYMBOL(kprobe_sh_reenter);

/*
 * trapa #0x3a.  Return: true if it was ours and @regs say where to
 * resume, false to let debug_trap_handler() send SIGTRAP or kgdb have it.
 */
static notrace bool kprobe_sh_break(struct pt_regs *regs)
{
	unsigned long addr = regs->pc;
	struct kprobe_cpu c;
	struct kprobe_hit_site *p;

	if (user_mode(regs))
		return false;

	c = kprobe_cpu_this();
	p = kprobe_hit_find(addr);
	if (p) {
		if (kprobe_cpu_running(c))
			kprobe_sh_reenter(p, regs, c.kcb);
		else
			kprobe_sh_hit(p, regs, c);
		return true;
	}

	/*
	 * Not a live probe.  One disarmed after this CPU fetched its trapa
	 * has its instruction back: run it.  A trapa still there is
	 * somebody else's.  Kernel text is readable where it trapped.
	 */
	return *(kprobe_opcode_t *)addr != BREAKPOINT_INSTRUCTION;
}

NOKPROBE_SYMBOL(kprobe_sh_break);

/*
 * trapa #0x3b.  Return: true if it ends the step this CPU is doing; the
 * pc is then where the probed code goes on.
 */
static notrace bool kprobe_sh_step_end(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_cpu c;
	struct kprobe_hit_site *p;

	if (user_mode(regs))
		return false;
	c = kprobe_cpu_this();
	if (!kprobe_cpu_running(c))
		return false;
	kcb = c.kcb;
	p = kprobe_slot_stepped(kcb, regs->pc, sizeof(kprobe_opcode_t));
	if (!p)
		return false;

	kprobe_end_step(regs, kcb, this_cpu_read(kprobe_sh_resume[kcb->depth]));
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
	return true;
}

NOKPROBE_SYMBOL(kprobe_sh_step_end);

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: the exception vector (unused)
 *
 * Called by do_page_fault() through kprobe_page_fault() once the fault
 * is not a vmalloc mapping to copy in.  A fault of the copy in the slot
 * is made a fault of the original: the CPU is put back at the probe
 * address with its interrupt mask, the state the hit interrupted is
 * restored, and the exception table (or the oops) sees the real
 * address.  A retry hits the probe again.  Faults in handlers are left
 * to the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault, now at the probe
 * address.
 */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_hit_site *p;

	if (user_mode(regs) || preemptible())
		return 0;

	if (!kprobe_running())
		return 0;
	kcb = get_kprobe_ctlblk();
	/* Not the copy itself, e.g. a fault of this very fault path. */
	p = kprobe_slot_stepped(kcb, regs->pc, 0);
	if (!p)
		return 0;

	kprobe_end_step(regs, kcb, (unsigned long)p->addr);
	kprobe_step_abandon(kcb);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/**
 * kprobe_exceptions_notify() - the kprobes die notifier
 * @self: the notifier block
 * @val: DIE_*
 * @data: struct die_args
 *
 * debug_trap_handler() raises DIE_TRAP for every trapa of the debug-trap
 * table it serves, TRA (the trap number shifted left by two) in
 * args->trapnr and the pc rewound to the trapa, with SR.IMASK at 15.
 *
 * Return: NOTIFY_STOP when the event was a probe's, else NOTIFY_DONE.
 */
int kprobe_exceptions_notify(struct notifier_block *self, unsigned long val,
			     void *data)
{
	struct die_args *args = data;
	bool ours = false;

	if (val != DIE_TRAP)
		return NOTIFY_DONE;
	if (args->trapnr == KPROBE_SH_TRA(KPROBE_SH_BP_IMM))
		ours = kprobe_sh_break(args->regs);
	else if (args->trapnr == KPROBE_SH_TRA(KPROBE_SH_STEP_IMM))
		ours = kprobe_sh_step_end(args->regs);
	return ours ? NOTIFY_STOP : NOTIFY_DONE;
}

NOKPROBE_SYMBOL(kprobe_exceptions_notify);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/*
 * Write @n halfwords at @dst, then make the instruction cache see them.
 * Kernel text (P1, unmapped) and module and slot memory (mapped RWX)
 * take plain stores on sh; another CPU sees the old or the new word.
 * Also the slot writer of kprobe_slot_fill().
 */
static int kprobe_sh_write(kprobe_opcode_t *dst, const kprobe_opcode_t *src,
			   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(dst[i], src[i]);
	flush_icache_range((unsigned long)dst, (unsigned long)(dst + n));
	return 0;
}

/* Read the original halfword at @addr (other probes' traps taken out). */
static int kprobe_sh_read(unsigned long addr, u16 *insn)
{
	return kprobe_copy_original_text(insn, addr, sizeof(*insn));
}

/*
 * Is @addr, @offset bytes into its function, inside a movli.l/movco.l
 * sequence (SH-4A)?  Searched back over a few halfwords: a movco.l first
 * means no, a movli.l first means yes.
 */
static bool kprobe_sh_in_llsc(unsigned long addr, unsigned long offset)
{
	unsigned int n = min_t(unsigned long, offset / 2, KPROBE_SH_LLSC_WINDOW);
	unsigned long pos;
	u16 insn;

	for (pos = addr - 2; n; n--, pos -= 2) {
		if (kprobe_sh_read(pos, &insn))
			return false;
		if (kprobe_sh_is_movco(insn))
			return false;
		if (kprobe_sh_is_movli(insn))
			return true;
	}
	return false;
}

/* Fill a new slot: @copy, trapa #0x3b, then breakpoints. */
static int kprobe_sh_fill_slot(struct kprobe_hit_site *p, u16 copy,
			       const char **why)
{
	const kprobe_opcode_t head[] = { copy, KPROBE_STEP_TRAPA };

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head), kprobe_sh_write,
				why);
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is a halfword boundary
 * @why: the reason for a refusal
 *
 * A probe in a delay slot is refused: its trapa would be an illegal slot
 * instruction.  The halfword before the probe is taken for the
 * instruction before it, unless the probe is a function's entry.
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set: -EILSEQ for an
 * instruction or position that cannot be probed (decode.c, a delay slot,
 * inside movli.l/movco.l), -EFAULT if the text cannot be read, -ENOMEM.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size = 0, offset = 0;
	u16 insn, prev, delay = 0;
	int ret;

	kprobe_assert_locked();

	/* Unknown: at least the halfword before is checked. */
	if (!kprobe_sym_size_offset(addr, &size, &offset))
		offset = sizeof(kprobe_opcode_t);
	if (offset) {
		ret = kprobe_slot_read_text(addr - 2, &prev, sizeof(prev), why);
		if (ret)
			return ret;
		if (kprobe_sh_has_delay_slot(prev)) {
			*why = "in the delay slot of a branch";
			return -EILSEQ;
		}
	}
	if (kprobe_sh_in_llsc(addr, offset)) {
		*why = "between a movli.l and its movco.l";
		return -EILSEQ;
	}

	ret = kprobe_slot_read_text(addr, &insn, sizeof(insn), why);
	if (ret)
		return ret;
	if (kprobe_sh_has_delay_slot(insn) && kprobe_sh_read(addr + 2, &delay)) {
		*why = "cannot read the delay slot";
		return -EFAULT;
	}

	ret = kprobe_sh_decode(insn, delay, &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = insn;
	p->ainsn.slot = NULL;
	if (p->ainsn.kind == KPROBE_SH_STEP)
		return kprobe_sh_fill_slot(p, insn, why);
	if (p->ainsn.kind == KPROBE_SH_BRANCH_STEP)
		return kprobe_sh_fill_slot(p, delay, why);
	return 0;
}

/* Arming and disarming: one halfword; kprobe_sh_break() sees a late hit. */
static void kprobe_sh_poke(kprobe_opcode_t *addr, kprobe_opcode_t insn)
{
	kprobe_sh_write(addr, &insn, 1);
}

DEFINE_KPROBE_ARMING(kprobe_sh_poke)

/* A copy runs with interrupts masked: after the grace period none is left. */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* Every SH-4 instruction is one aligned halfword. */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, sizeof(kprobe_opcode_t), why);
}

/* ---------------------------------------------------------------------
 * The blacklist
 * ---------------------------------------------------------------------
 */

/*
 * Text a probe there would recurse into, or that runs before its pt_regs
 * exist: the exception entry and return (entry.S, entry-common.S), the
 * trapa dispatch and debug_trap_handler() before it raises the die
 * event, the TLB-miss fast path; __switch_to(), whose entry and return
 * are seen by different tasks; and the kretprobe trampoline.  The
 * assembly names are looked up: they have no C declaration.
 */
static const char *const kprobe_sh_trap_text[] = {
	"handle_exception",
	"handle_exception_special",
	"handle_interrupt",
	"tlb_miss",
	"prepare_stack",
	"save_regs",
	"save_low_regs",
	"restore_regs",
	"restore_all",
	"ret_from_exception",
	"ret_from_irq",
	"resume_kernel",
	"system_call",
	"debug_trap",
	"debug_trap_handler",
	"handle_tlbmiss",
	"__switch_to",
	"arch_kretprobe_trampoline",
};

/**
 * arch_populate_kprobe_blacklist() - sh text that is never probed
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	return kprobe_blacklist_ksyms(kprobe_sh_trap_text,
				      ARRAY_SIZE(kprobe_sh_trap_text));
}

/**
 * arch_init_kprobes() - sh part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
