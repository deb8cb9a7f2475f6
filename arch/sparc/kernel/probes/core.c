// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sparc64 kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless a hit
 * evaluates it in the trap, writes it into a slot followed by two
 * "ta 0x71".  Arming writes "ta 0x70" over the instruction.  A hit then
 * goes:
 *
 *   1. the trap table calls kprobe_trap() at PIL_NORMAL_MAX; the site is
 *      found and its pre handlers run (state HANDLER);
 *   2. "ba,a" and its siblings are evaluated: %tpc becomes the target,
 *      the hit is over here (state POST or IDLE);
 *   3. anything else goes to the slot: %tpc at the copy, %tnpc at the
 *      "ta 0x71" after it, TSTATE_PIL all set; the %tnpc of the break,
 *      where the probed instruction was to go on, is kept per nesting
 *      level (state STEPPING);
 *   4. "ta 0x71" at slot + 4, or at slot + 8 after an annulled branch
 *      that was not taken, comes back to kprobe_trap(): the pc pair is
 *      moved from the slot to the probed text (kprobe_sparc_resume()),
 *      the pil comes back, the post handler runs (state POST, then IDLE).
 *
 * Probes hit while another one is active on the CPU run without handlers
 * (kprobe_sparc_reenter()).  A fault of the copy is made a fault at the
 * probe address (kprobe_fault_handler()).  A kretprobe's return traps on
 * the "ta 0x70" of the trampoline, which no site owns.
 */
#include "sparc-kprobes.h"

#include <linux/cacheflush.h>
#include <linux/context_tracking.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <asm/pstate.h>
#include <asm-generic/kprobes-slot.h>

/* The trap levels of "ta 0x70" and "ta 0x71" (software traps 0x100 up). */
#define KPROBE_SPARC_TRAP_BREAK		0x170
#define KPROBE_SPARC_TRAP_STEP		0x171

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * Where each step goes on: the %tnpc of the break, one entry per nesting
 * level (kprobe_ctlblk::depth).
 */
static DEFINE_PER_CPU(unsigned long, kprobe_sparc_npc[KPROBE_NEST_MAX + 1]);

/* ---------------------------------------------------------------------
 * The trap path
 * ---------------------------------------------------------------------
 */

static nokprobe_inline void kprobe_set_pc(struct pt_regs *regs,
					  unsigned long pc, unsigned long npc)
{
	regs->tpc = pc;
	regs->tnpc = npc;
}

/* "ba,a" at @p: straight to its target, no delay slot. */
static nokprobe_inline void kprobe_sparc_jump(struct kprobe_hit_site *p,
					      struct pt_regs *regs)
{
	unsigned long target = (unsigned long)p->addr + p->ainsn.disp;

	kprobe_set_pc(regs, target, target + sizeof(kprobe_opcode_t));
}

/*
 * Send the CPU to @p's slot.  The return from the trap loads %pil from
 * TSTATE_PIL: all set, nothing interrupts the copy, and the task stays
 * on this CPU while its state points at the slot.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	unsigned long slot = (unsigned long)p->ainsn.slot;

	this_cpu_write(kprobe_sparc_npc[kcb->depth], regs->tnpc);
	kcb->site = p;
	kcb->saved_irq = regs->tstate & TSTATE_PIL;
	regs->tstate |= TSTATE_PIL;
	kprobe_set_pc(regs, slot, slot + sizeof(kprobe_opcode_t));
}

/* The probed context's pil, at the end of a step or an abandoned one. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb)
{
	regs->tstate = (regs->tstate & ~TSTATE_PIL) | kcb->saved_irq;
}

/*
 * The copy of @p ran and "ta 0x71" trapped: move the pc pair from the
 * slot to the probed text, and the copy's own address, where it linked
 * it, to the probe address.  @npc is the %tnpc of the break.
 *
 * STEP: the instruction does not transfer control; it may sit in a
 * delay slot, so execution goes on at @npc.  REL and ABS are never in a
 * delay slot (arch_kprobe_prepare()), so @npc is the probe address + 4:
 * for REL both %tpc (slot + 4, or slot + 8 for an annulled branch not
 * taken) and %tnpc (the target, or slot + 8 when not taken) are offsets
 * from the slot, which become offsets from the probe; for ABS (a jump to
 * a register) %tnpc is already right.
 */
static nokprobe_inline void kprobe_sparc_resume(struct kprobe_hit_site *p,
						struct pt_regs *regs,
						unsigned long npc)
{
	unsigned long slot = (unsigned long)p->ainsn.slot;
	unsigned long addr = (unsigned long)p->addr;

	switch (p->ainsn.kind) {
	case KPROBE_SPARC_REL:
		kprobe_set_pc(regs, addr + (regs->tpc - slot),
			      addr + (regs->tnpc - slot));
		break;
	case KPROBE_SPARC_ABS:
		regs->tpc = addr + sizeof(kprobe_opcode_t);
		break;
	default:
		kprobe_set_pc(regs, npc, npc + sizeof(kprobe_opcode_t));
		break;
	}
	if (p->ainsn.link)
		regs->u_regs[p->ainsn.link] = addr;
}

/* A hit on an idle CPU: the handlers run. */
static nokprobe_inline void kprobe_sparc_hit(struct kprobe_hit_site *p,
					     struct pt_regs *regs,
					     struct kprobe_cpu c)
{
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved the pc: nothing else runs */

	if (p->ainsn.kind == KPROBE_SPARC_JUMP) {
		kprobe_sparc_jump(p, regs);
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs, c.kcb);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

/*
 * A hit while this CPU is already busy with a probe: from a handler, a
 * busy section, or the fault path of a copy.  The handlers do not run
 * (the hit counts as missed), but the probed instruction must.
 */
static notrace void kprobe_sparc_reenter(struct kprobe_hit_site *p,
					 struct pt_regs *regs,
					 struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);

	if (p->ainsn.kind == KPROBE_SPARC_JUMP) {
		kprobe_sparc_jump(p, regs);
		return;
	}
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_sparc_reenter);

/* "ta 0x70".  Return: true if it was ours and @regs say where to go on. */
static nokprobe_inline bool kprobe_sparc_break(struct pt_regs *regs)
{
	unsigned long addr = instruction_pointer(regs);
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_hit_site *p;

	if (is_kretprobe_trampoline(addr)) {
		kprobe_sparc_kretprobe_return(regs);
		return true;
	}

	p = kprobe_hit_find(addr);
	if (p) {
		if (kprobe_cpu_running(c))
			kprobe_sparc_reenter(p, regs, c.kcb);
		else
			kprobe_sparc_hit(p, regs, c);
		return true;
	}

	/*
	 * Not a live probe.  One disarmed after this CPU fetched its trap
	 * has its instruction back: the return from the trap runs it.  A
	 * trap still there is nobody's.
	 */
	return *(kprobe_opcode_t *)addr != BREAKPOINT_INSTRUCTION;
}

/* "ta 0x71".  Return: true if it ends the step this CPU is doing. */
static nokprobe_inline bool kprobe_sparc_step_end(struct pt_regs *regs)
{
	unsigned long addr = instruction_pointer(regs);
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_ctlblk *kcb = c.kcb;
	struct kprobe_hit_site *p;

	if (!kprobe_cpu_running(c))
		return false;
	/* Either "ta 0x71" after the copy. */
	p = kprobe_slot_stepped(kcb, addr, sizeof(kprobe_opcode_t)) ?:
	    kprobe_slot_stepped(kcb, addr, 2 * sizeof(kprobe_opcode_t));
	if (!p)
		return false;

	kprobe_sparc_resume(p, regs, this_cpu_read(kprobe_sparc_npc[kcb->depth]));
	kprobe_end_step(regs, kcb);
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
	return true;
}

/**
 * kprobe_trap() - the trap table's entry for "ta 0x70" and "ta 0x71"
 * @trap_level: 0x170 or 0x171
 * @regs: registers at the trap
 *
 * Called at PIL_NORMAL_MAX, with the interrupted pil in TSTATE_PIL.  A
 * trap that is not ours goes to the die notifiers (DIE_DEBUG,
 * DIE_DEBUG_2), then bad_trap(): SIGILL for a user task, an oops in the
 * kernel.
 */
asmlinkage void kprobe_trap(unsigned long trap_level, struct pt_regs *regs)
{
	enum ctx_state prev_state = exception_enter();
	bool ours = false;

	if (user_mode(regs)) {
		local_irq_enable();
		bad_trap(regs, trap_level);
		goto out;
	}

	if (trap_level == KPROBE_SPARC_TRAP_BREAK)
		ours = kprobe_sparc_break(regs);
	else if (trap_level == KPROBE_SPARC_TRAP_STEP)
		ours = kprobe_sparc_step_end(regs);
	if (!ours &&
	    notify_die(trap_level == KPROBE_SPARC_TRAP_BREAK ?
		       DIE_DEBUG : DIE_DEBUG_2, "kprobe trap", regs, 0,
		       trap_level, SIGTRAP) != NOTIFY_STOP)
		bad_trap(regs, trap_level);
out:
	exception_exit(prev_state);
}

NOKPROBE_SYMBOL(kprobe_trap);

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: unused
 *
 * Called through kprobe_page_fault() at the top of do_sparc64_fault().
 * A fault of the copy in the slot is made a fault of the original: the
 * pc pair is put back at the probe address with the probed context's
 * pil, the state the hit interrupted is restored, and the rest of the
 * fault path (the exception table, or the oops) sees the real address.
 * A retry hits the probe again.  Faults in handlers are left alone.
 *
 * Return: 0: the caller goes on handling the fault.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p;

	/* Not the copy itself, e.g. a fault of this very fault path. */
	p = kprobe_slot_stepped(kcb, instruction_pointer(regs), 0);
	if (!p)
		return 0;

	kprobe_set_pc(regs, (unsigned long)p->addr,
		      this_cpu_read(kprobe_sparc_npc[kcb->depth]));
	kprobe_end_step(regs, kcb);
	kprobe_step_abandon(kcb);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/*
 * Write @nr words at @addr and flush each from the instruction cache.
 * Kernel and module text are mapped writable on sparc64; one aligned
 * word is atomic: another CPU runs the old or the new one.  Also the
 * slot writer of kprobe_slot_fill().
 */
static int kprobe_sparc_write(kprobe_opcode_t *addr,
			      const kprobe_opcode_t *insn, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		WRITE_ONCE(addr[i], insn[i]);
		flushi(&addr[i]);
	}
	return 0;
}

/* Fill a new slot: the copy, two "ta 0x71", a breakpoint. */
static int kprobe_sparc_fill_slot(struct kprobe_hit_site *p, u32 copy,
				  const char **why)
{
	const kprobe_opcode_t head[] = {
		copy, SPARC_KPROBES_STEP_INSN, SPARC_KPROBES_STEP_INSN,
	};

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head), kprobe_sparc_write,
				why);
}

/*
 * Is the word at @addr the delay slot of the one before it?  Unreadable
 * text before it counts as no.
 */
static bool kprobe_sparc_in_delay_slot(unsigned long addr)
{
	u32 prev;

	if (kprobe_copy_original_text(&prev, addr - sizeof(prev), sizeof(prev)))
		return false;
	return kprobe_sparc_is_dcti(prev);
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is a word boundary
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set: -EILSEQ for an
 * instruction that cannot be probed (decode.c), or a control transfer in
 * the delay slot of another; -EFAULT if the text cannot be read,
 * -ENOMEM.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	u32 insn;
	int ret;

	kprobe_assert_locked();

	ret = kprobe_slot_read_text(addr, &insn, sizeof(insn), why);
	if (ret)
		return ret;
	ret = kprobe_sparc_decode(insn, &p->ainsn, why);
	if (ret)
		return ret;
	if (p->ainsn.kind != KPROBE_SPARC_STEP &&
	    kprobe_sparc_in_delay_slot(addr)) {
		*why = "control transfer in a delay slot";
		return -EILSEQ;
	}
	p->opcode = insn;
	p->ainsn.slot = NULL;
	if (p->ainsn.kind == KPROBE_SPARC_JUMP)
		return 0;
	return kprobe_sparc_fill_slot(p, insn, why);
}

/* Arming and disarming: one word; kprobe_sparc_break() sees a late hit. */
static void kprobe_sparc_poke(kprobe_opcode_t *addr, kprobe_opcode_t insn)
{
	kprobe_sparc_write(addr, &insn, 1);
}

DEFINE_KPROBE_ARMING(kprobe_sparc_poke)

/*
 * A copy runs with every interrupt level masked: after the grace period
 * none is left.
 */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* Every SPARC instruction is one aligned word. */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, sizeof(kprobe_opcode_t), why);
}

/* ---------------------------------------------------------------------
 * The blacklist
 * ---------------------------------------------------------------------
 */

/* The C half of the trap path, up to kprobe_trap() and its fallbacks. */
static const char *const kprobe_sparc_trap_text[] = {
	"bad_trap",
	"bad_trap_tl1",
	"die_if_kernel",
};

/*
 * head_64.S from its end of boot code on: trap entry and return
 * (etrap, rtrap), the window spill and fill fixups, the interrupt
 * vectors, the TLB miss handlers and the two trap tables, which end
 * 0x4000 bytes after the second one's start.
 */
#define KPROBE_SPARC_HEAD_FIRST		"sparc64_boot_end"
#define KPROBE_SPARC_TTABLE_LAST	"sparc64_ttable_tl1"
#define KPROBE_SPARC_TTABLE_SIZE	0x4000

static int kprobe_sparc_blacklist_head(void)
{
	unsigned long first, last;

	first = kallsyms_lookup_name(KPROBE_SPARC_HEAD_FIRST);
	last = kallsyms_lookup_name(KPROBE_SPARC_TTABLE_LAST);
	if (!first || !last || last < first)
		return 0;
	return kprobe_add_area_blacklist(first,
					 last + KPROBE_SPARC_TTABLE_SIZE);
}

/**
 * arch_populate_kprobe_blacklist() - sparc64 text that is never probed
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	return kprobe_blacklist_ksyms(kprobe_sparc_trap_text,
				      ARRAY_SIZE(kprobe_sparc_trap_text)) ?:
	       kprobe_sparc_blacklist_head();
}

/**
 * arch_init_kprobes() - sparc64 part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
