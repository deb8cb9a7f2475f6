// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mips kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless the
 * hit completes in the trap, writes into a slot what the CPU is to run
 * out of line, followed by break 516.  Arming writes break 515 over the
 * instruction.  A hit then goes:
 *
 *   1. do_bp() raises DIE_BREAK; kprobe_exceptions_notify() disables
 *      interrupts and kprobe_mips_break() finds the site and runs the pre
 *      handler (state HANDLER);
 *   2. a register-only instruction is computed (compute.c), a branch or
 *      jump evaluated (__compute_return_epc_for_insn(): the link
 *      register, the new pc); for the first, and for a branch with
 *      nothing to run in its delay slot, the hit is over here (state
 *      POST or IDLE, pc = after the instruction or the outcome);
 *   3. else the CPU is sent to the slot with Status.IE clear in the frame
 *      and preemption disabled, the pc it resumes at kept per nesting
 *      level (state STEPPING): after the probe for a plain instruction,
 *      the branch's outcome for a delay-slot instruction;
 *   4. break 516 raises DIE_SSTEPBP: kprobe_mips_step_end() puts the
 *      resume pc and the interrupt state back, enables preemption and
 *      runs the post handler (state POST, then IDLE).
 *
 * Probes hit while another one is active on the CPU run without handlers
 * (kprobe_mips_reenter()).  A fault of the copy in the slot is turned
 * into a fault at the probe address (kprobe_fault_handler()).
 *
 * The delay slot: the branch is decided first, from the registers as the
 * probe found them (hardware reads them before the delay slot runs too),
 * and its link register written, which the delay-slot instruction sees,
 * as on hardware.  The delay-slot instruction then runs from the slot
 * (not in a delay slot any more, so an exception it takes reports the
 * slot, not the branch with Cause.BD).  A fault there is reported at the
 * branch: the branch is re-evaluated when the faulting access is retried,
 * which rewrites the same link register.  A probe on the delay slot
 * itself is refused: a break there would trap with the branch's address.
 */
#include "mips-kprobes.h"

#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/uaccess.h>
#include <asm/branch.h>
#include <asm/cacheflush.h>
#include <asm/mipsregs.h>
#include <asm-generic/kprobes-slot.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * Where each step resumes: one entry per nesting level
 * (kprobe_ctlblk::depth), written when the step starts.
 */
static DEFINE_PER_CPU(unsigned long, kprobe_mips_resume[KPROBE_NEST_MAX + 1]);

/* The Status bit that holds the probed context's interrupt enable. */
#define KPROBE_MIPS_IE	(IS_ENABLED(CONFIG_CPU_R3000) ? ST0_IEP : ST0_IE)

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/*
 * Evaluate the branch at @p: link register and pc as the branch leaves
 * them.  Return: whether its delay-slot instruction is to run (not for
 * a nop, nor for a branch-likely that is not taken).
 */
static nokprobe_inline bool kprobe_mips_branch(struct kprobe_hit_site *p,
					       struct pt_regs *regs)
{
	union mips_instruction mi = { .word = p->ainsn.insn };
	int taken_likely;

	regs->cp0_epc = (unsigned long)p->addr;
	taken_likely = __compute_return_epc_for_insn(regs, mi);
	if (p->ainsn.kind != KPROBE_MIPS_BRANCH_STEP)
		return false;
	return !p->ainsn.likely ||
	       taken_likely == BRANCH_LIKELY_TAKEN;
}

/*
 * Send the CPU to @p's slot; it comes back to @resume.  The exception
 * return restores Status.IE from the frame: with it clear, and
 * preemption disabled until break 516 is handled, the task stays on
 * this CPU while its state points at the slot.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb,
					      unsigned long resume)
{
	this_cpu_write(kprobe_mips_resume[kcb->depth], resume);
	kcb->site = p;
	kcb->saved_irq = regs->cp0_status & KPROBE_MIPS_IE;
	regs->cp0_status &= ~KPROBE_MIPS_IE;
	regs->cp0_epc = (unsigned long)p->ainsn.slot;
	preempt_disable();
}

/* The step of this nesting level is over or abandoned. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb,
					    unsigned long epc)
{
	regs->cp0_status = (regs->cp0_status & ~KPROBE_MIPS_IE) |
			   kcb->saved_irq;
	regs->cp0_epc = epc;
	preempt_enable_no_resched();
}

/* Where the instruction of @p goes on after it, unless a branch. */
static nokprobe_inline unsigned long kprobe_next_pc(struct kprobe_hit_site *p)
{
	return (unsigned long)p->addr + sizeof(kprobe_opcode_t);
}

/* Run @p's computed instruction: the registers and the pc after it. */
static nokprobe_inline void kprobe_mips_computed(struct kprobe_hit_site *p,
						 struct pt_regs *regs)
{
	kprobe_mips_compute(p->ainsn.insn, regs);
	regs->cp0_epc = kprobe_next_pc(p);
}

/* A hit on an idle CPU: the handlers run. */
static nokprobe_inline void kprobe_mips_hit(struct kprobe_hit_site *p,
					    struct pt_regs *regs,
					    struct kprobe_cpu c)
{
	unsigned long resume;

	/* regs->cp0_epc is p->addr: a break does not advance it. */
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved the pc: nothing else runs */

	if (p->ainsn.kind == KPROBE_MIPS_COMPUTE) {
		kprobe_mips_computed(p, regs);
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	if (p->ainsn.kind == KPROBE_MIPS_STEP) {
		resume = kprobe_next_pc(p);
	} else if (kprobe_mips_branch(p, regs)) {
		resume = regs->cp0_epc;
	} else {
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs, c.kcb, resume);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

/*
 * A hit while this CPU is already busy with a probe: from a handler, a
 * busy section, an interrupt taken in do_bp() between the two breaks, or
 * the fault path of a copy.  The handlers do not run (the hit counts as
 * missed), but the probed instruction must.
 */
static notrace void kprobe_mips_reenter(struct kprobe_hit_site *p,
					struct pt_regs *regs,
					struct kprobe_ctlblk *kcb)
{
	unsigned long resume;

	kprobe_hit_missed(p);

	if (p->ainsn.kind == KPROBE_MIPS_COMPUTE) {
		kprobe_mips_computed(p, regs);
		return;
	}
	if (p->ainsn.kind == KPROBE_MIPS_STEP)
		resume = kprobe_next_pc(p);
	else if (kprobe_mips_branch(p, regs))
		resume = regs->cp0_epc;
	else
		return;		/* the branch completed right here */

	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb, resume);
}

NOKPROBE_SYMBOL(kprobe_mips_reenter);

/*
 * break 515 (DIE_BREAK), interrupts disabled by the caller.  Return:
 * true if it was ours and @regs say where to resume, false to let
 * do_trap_or_bp() (kgdb, the oops) have it.
 */
static nokprobe_inline bool kprobe_mips_break(struct pt_regs *regs)
{
	unsigned long addr = regs->cp0_epc;
	struct kprobe_cpu c;
	struct kprobe_hit_site *p;

	/*
	 * A break in a delay slot reports the branch: no probe of ours is
	 * ever there (arch_kprobe_prepare() refuses it).
	 */
	if (user_mode(regs) || (regs->cp0_cause & CAUSEF_BD))
		return false;

	c = kprobe_cpu_this();
	p = kprobe_hit_find(addr);
	if (p) {
		if (kprobe_cpu_running(c))
			kprobe_mips_reenter(p, regs, c.kcb);
		else
			kprobe_mips_hit(p, regs, c);
		return true;
	}

	/*
	 * Not a live probe.  One disarmed after this CPU fetched its break
	 * has its instruction back: run it.  A break still there is
	 * somebody else's.  Kernel text is readable where it trapped.
	 */
	return *(kprobe_opcode_t *)addr != BREAKPOINT_INSTRUCTION;
}

/*
 * break 516 (DIE_SSTEPBP), interrupts disabled by the caller.  Return:
 * true if it ends the step this CPU is doing; the pc is then where the
 * probed code goes on.
 */
static nokprobe_inline bool kprobe_mips_step_end(struct pt_regs *regs)
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
	p = kprobe_slot_stepped(kcb, regs->cp0_epc, sizeof(kprobe_opcode_t));
	if (!p)
		return false;

	kprobe_end_step(regs, kcb, this_cpu_read(kprobe_mips_resume[kcb->depth]));
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
	return true;
}

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: the trap number (unused)
 *
 * Called through the die notifier (DIE_PAGE_FAULT) by do_page_fault().
 * A fault of the copy in the slot that the fault path cannot resolve in
 * place is made a fault of the original: the CPU is put back at the
 * probe address with its interrupt state, the state the hit interrupted
 * is restored, and the exception table (or the oops) sees the real
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
	p = kprobe_slot_stepped(kcb, regs->cp0_epc, 0);
	if (!p)
		return 0;
	/*
	 * A 32-bit kernel maps vmalloc space into a task's page tables on
	 * demand (vmalloc_fault()): the first fetch from the slot page, or a
	 * first access of the copy to module or vmalloc data, faults in a
	 * mapping that exists.  do_page_fault() copies it in without
	 * sleeping and the copy goes on; giving the step up would run the
	 * handlers twice for one hit.
	 */
	if (is_vmalloc_addr((void *)regs->cp0_badvaddr) &&
	    vmalloc_to_page((void *)regs->cp0_badvaddr))
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
 * do_bp() raises DIE_BREAK for break 515 and DIE_SSTEPBP for break 516,
 * with interrupts as the trapping context had them (handle_bp, since the
 * series' genex.S change, no longer turns them on): the handlers run with
 * them disabled, as on every other architecture.  do_page_fault() raises
 * DIE_PAGE_FAULT first thing.
 *
 * Return: NOTIFY_STOP when the event was a probe's, else NOTIFY_DONE.
 */
int kprobe_exceptions_notify(struct notifier_block *self, unsigned long val,
			     void *data)
{
	struct die_args *args = data;
	unsigned long flags;
	bool ours;

	switch (val) {
	case DIE_BREAK:
		local_irq_save(flags);
		ours = kprobe_mips_break(args->regs);
		local_irq_restore(flags);
		break;
	case DIE_SSTEPBP:
		local_irq_save(flags);
		ours = kprobe_mips_step_end(args->regs);
		local_irq_restore(flags);
		break;
	case DIE_PAGE_FAULT:
		ours = kprobe_fault_handler(args->regs, args->trapnr);
		break;
	default:
		ours = false;
		break;
	}
	return ours ? NOTIFY_STOP : NOTIFY_DONE;
}

NOKPROBE_SYMBOL(kprobe_exceptions_notify);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/*
 * Write @n words at @dst, then make the instruction caches see them.
 * Kernel text (KSEG0) and module and slot memory (mapped, RWX) take
 * plain stores on mips; another CPU sees the old or the new word.  Also
 * the slot writer of kprobe_slot_fill().
 */
static int kprobe_mips_write(kprobe_opcode_t *dst, const kprobe_opcode_t *src,
			     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(dst[i], src[i]);
	flush_icache_range((unsigned long)dst, (unsigned long)(dst + n));
	return 0;
}

/* Read the original word at @addr (other probes' breaks taken out). */
static int kprobe_mips_read(unsigned long addr, u32 *insn)
{
	return kprobe_copy_original_text(insn, addr, sizeof(*insn));
}

/*
 * Is @addr inside an ll/sc sequence of its function, which starts
 * @offset bytes before it?  Searched back over a few words: an sc first
 * means no, an ll first means yes.
 */
static bool kprobe_mips_in_llsc(unsigned long addr, unsigned long offset)
{
	unsigned int n = min_t(unsigned long, offset / 4, KPROBE_LLSC_WINDOW);
	unsigned long pos;
	u32 insn;

	for (pos = addr - 4; n; n--, pos -= 4) {
		if (kprobe_mips_read(pos, &insn))
			return false;
		if (kprobe_mips_is_sc(insn))
			return false;
		if (kprobe_mips_is_ll(insn))
			return true;
	}
	return false;
}

/*
 * Why the word at @addr, @offset bytes into its function, is somebody's
 * delay slot, or NULL.  The word before a function's entry is never a
 * delay slot of the same function.  ftrace rewrites its mcount call's
 * delay slot (32-bit kernels) and the nop it puts at the call site may
 * turn back into a jal at any time: that slot is refused whatever the
 * text holds now.
 */
static const char *kprobe_mips_delay_slot_of(unsigned long addr,
					     unsigned long offset)
{
	u32 prev;

	if (offset < 4)
		return NULL;
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE) &&
	    ftrace_location(addr - 4) == addr - 4)
		return "the delay slot of ftrace's mcount call";
	if (kprobe_mips_read(addr - 4, &prev))
		return "cannot read the probed text";
	if (kprobe_mips_has_delay_slot(prev))
		return "in the delay slot of a branch";
	return NULL;
}

/*
 * Whether the word at @addr, @offset bytes into its function, is in the
 * long mcount call of a module function (lui, addiu, move at, ra, ...,
 * jalr).  While the function is not traced, ftrace replaces its lui with
 * a branch over the rest: a probe there would be accepted and never hit.
 * The branch's delay slot is refused as a delay slot; kernel text calls
 * _mcount with a single jal, which the delay-slot check covers.
 */
static bool kprobe_mips_in_mod_mcount(unsigned long addr,
				      unsigned long offset)
{
	unsigned long site;
	unsigned int n;

	for (n = 2; n <= KPROBE_MIPS_MCOUNT_SKIP && 4 * n <= offset; n++) {
		site = addr - 4 * n;
		if (ftrace_location(site) == site && !core_kernel_text(site))
			return true;
	}
	return false;
}

/* Fill a new slot: @copy, break 516, then breakpoints. */
static int kprobe_mips_fill_slot(struct kprobe_hit_site *p, u32 copy,
				 const char **why)
{
	const kprobe_opcode_t head[] = { copy, KPROBE_STEP_BREAK };

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head), kprobe_mips_write,
				why);
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is a word boundary
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set: -EINVAL for an
 * instruction or position that cannot be probed (decode.c, a delay slot,
 * inside ll/sc), -EFAULT if the text cannot be read, -ENOMEM.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size = 0, offset = 0;
	u32 insn, delay = 0;
	int ret;

	kprobe_assert_locked();

	/* Unknown: at least the word before is checked. */
	if (!kprobe_sym_size_offset(addr, &size, &offset))
		offset = sizeof(kprobe_opcode_t);
	*why = kprobe_mips_delay_slot_of(addr, offset);
	if (*why)
		return -EINVAL;
	if (kprobe_mips_in_mod_mcount(addr, offset)) {
		*why = "inside a module's mcount call, which ftrace branches over";
		return -EINVAL;
	}
	if (kprobe_mips_in_llsc(addr, offset)) {
		*why = "between an ll and its sc";
		return -EINVAL;
	}

	ret = kprobe_slot_read_text(addr, &insn, sizeof(insn), why);
	if (ret)
		return ret;
	if (kprobe_mips_has_delay_slot(insn) &&
	    kprobe_mips_read(addr + 4, &delay)) {
		*why = "cannot read the delay slot";
		return -EFAULT;
	}

	ret = kprobe_mips_decode(insn, delay, &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = insn;
	p->ainsn.slot = NULL;
	if (p->ainsn.kind == KPROBE_MIPS_STEP)
		return kprobe_mips_fill_slot(p, insn, why);
	if (p->ainsn.kind == KPROBE_MIPS_BRANCH_STEP)
		return kprobe_mips_fill_slot(p, delay, why);
	return 0;
}

/* Arming and disarming: one word; kprobe_mips_break() sees a late hit. */
static void kprobe_mips_poke(kprobe_opcode_t *addr, kprobe_opcode_t insn)
{
	kprobe_mips_write(addr, &insn, 1);
}

DEFINE_KPROBE_ARMING(kprobe_mips_poke)

/* A copy runs with interrupts off: after the grace period none is left. */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/*
 * Every instruction of a MIPS32 kernel is one aligned word (a microMIPS
 * kernel, of 16 and 32-bit instructions, has no kprobes: see Kconfig).
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, sizeof(kprobe_opcode_t), why);
}

/* ---------------------------------------------------------------------
 * The blacklist
 * ---------------------------------------------------------------------
 */

/*
 * resume(), which switches tasks half way: its entry and its return are
 * seen by different tasks, so neither kprobes nor kretprobes are allowed
 * there.  Then text a probe there would recurse into: the break
 * exception's entry and do_bp() before it raises the die event, the
 * exception return, and the branch evaluator this trap path calls; and
 * the kretprobe trampoline, which runs before its pt_regs exist.  The
 * assembly names are looked up: they have no C declaration.
 */
static const char *const kprobe_mips_trap_text[] = {
	"resume",
	"handle_bp",
	"handle_bp_int",
	"do_bp",
	"do_trap_or_bp",
	"__compute_return_epc_for_insn",
	"ret_from_exception",
	"ret_from_irq",
	"resume_kernel",
	"restore_all",
	"restore_partial",
	"arch_kretprobe_trampoline",
};

/**
 * arch_populate_kprobe_blacklist() - mips text that is never probed
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	return kprobe_blacklist_ksyms(kprobe_mips_trap_text,
				      ARRAY_SIZE(kprobe_mips_trap_text));
}

/**
 * arch_init_kprobes() - mips part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
