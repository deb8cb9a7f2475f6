// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless it is
 * emulated (emulate.c), writes copies of it into an instruction slot (see
 * <asm/kprobes.h>).  Arming puts an int3 over the instruction's first
 * byte.  A hit then goes:
 *
 *   1. kprobe_int3_handler() finds the site and runs its pre handler
 *      (state HANDLER);
 *   2. the instruction is emulated, or the CPU is sent to the slot with
 *      EFLAGS.IF cleared (state STEPPING);
 *   3. the copy ends in an int3 that traps again or, for a boostable
 *      instruction, in a call of kprobe_post_trampoline: either way the
 *      registers are set as if the original instruction had run at its
 *      address, IF is restored, and the post handler runs (state POST);
 *   4. state IDLE; execution goes on after the probed instruction.
 *
 * IF stays clear between 2 and 3 so that only an NMI or a machine check
 * can come in between: the task can neither be preempted nor migrate while
 * this CPU's state points at its slot.  Probes hit while another one is
 * active on the CPU run without handlers (see kprobe_reenter()).
 *
 * A boostable probe hit while no post handler is wanted skips 3: after 1
 * the CPU goes IDLE and runs the slot's boosted copy, which jumps back on
 * its own (kprobe_boost()).
 *
 * The die notifier (kprobe_exceptions_notify()) and the hooks that
 * traps.c and fault.c call directly funnel into the same two functions,
 * kprobe_int3_handler() and kprobe_fault_handler().
 */
#include "x86-kprobes.h"

#include <linux/bitmap.h>
#include <linux/extable.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/perf_event.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <asm/alternative.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/switch_to.h>
#include <asm/text-patching.h>
#include <asm/trapnr.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * An int3, padded with more: text_poke_queue() decodes a whole instruction
 * from what it is given.
 */
static const kprobe_opcode_t kprobe_int3[MAX_INSN_SIZE] = {
	[0 ... MAX_INSN_SIZE - 1] = INT3_INSN_OPCODE,
};

/* ---------------------------------------------------------------------
 * The int3 path
 * ---------------------------------------------------------------------
 */

/*
 * Where a step of @p starts: the post copy of a boostable instruction,
 * whose end calls kprobe_post_trampoline, else the stepped copy, which
 * ends in an int3.
 */
static nokprobe_inline unsigned long kprobe_step_copy(struct kprobe_hit_site *p)
{
	unsigned long slot = (unsigned long)p->ainsn.slot;

	return p->ainsn.boostable ? slot + kprobe_post_offset(p->ainsn.len) :
				    slot;
}

/* Send the CPU to @p's step, with interrupts off until the step's end. */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	kcb->site = p;
	kcb->saved_irq = regs->flags & X86_EFLAGS_IF;
	regs->flags &= ~X86_EFLAGS_IF;
	regs->ip = kprobe_step_copy(p);
}

/*
 * No post handler wants the CPU back after the copy: send it to the copy
 * that jumps back by itself.  The hit is over for this CPU before a single
 * instruction of the slot runs, so the state goes IDLE here and EFLAGS.IF
 * stays that of the probed context (it was never cleared).
 */
static nokprobe_inline void kprobe_boost(struct kprobe_hit_site *p,
					 struct pt_regs *regs)
{
	kprobe_move_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	reset_current_kprobe();
	regs->ip = (unsigned long)p->ainsn.slot;
}

static nokprobe_inline void kprobe_emulate(struct kprobe_hit_site *p,
					   struct pt_regs *regs)
{
	p->ainsn.emulate->emulate(&p->ainsn, (unsigned long)p->addr, regs);
}

/*
 * Is the int3 at @addr the one after the copy that @p is stepping?  A
 * boostable instruction's copies end without one.
 */
static nokprobe_inline bool kprobe_is_step_end(struct kprobe_hit_site *p,
					       struct kprobe_ctlblk *kcb,
					       unsigned long addr)
{
	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return false;
	return p->ainsn.slot && !p->ainsn.boostable &&
	       addr == (unsigned long)p->ainsn.slot + p->ainsn.len;
}

/*
 * @p's instruction has run (stepped or emulated): run the post handler
 * and go back to what the CPU was doing before the hit.
 */
static void kprobe_insn_done(struct kprobe_hit_site *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb)
{
	if (kcb->state == KPROBE_CPU_REENTERED) {
		kprobe_pop(kcb);
		return;
	}
	kprobe_run_post(p, regs, kcb);
	kprobe_set_state(kcb, KPROBE_CPU_IDLE);
	reset_current_kprobe();
}

NOKPROBE_SYMBOL(kprobe_insn_done);

/* The trailing int3 of @p's slot: make it look as if the original ran. */
static void kprobe_step_done(struct kprobe_hit_site *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb)
{
	kprobe_step_finish(&p->ainsn, (unsigned long)p->addr, kcb->saved_irq,
			   regs);
	if (!p->ainsn.if_modifier)
		regs->flags = (regs->flags & ~X86_EFLAGS_IF) | kcb->saved_irq;
	kprobe_insn_done(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_step_done);

/**
 * kprobe_post_trampoline_handler() - the end of a post copy
 * @regs: built by kprobe_post_trampoline, EFLAGS.IF still clear; made
 *	here what the trailing int3 of a stepped copy would show (regs->ip =
 *	the next instruction)
 *
 * The CPU came here from the int3 of its kprobe_ctlblk::site, in state STEPPING
 * with interrupts off all along (kprobe_start_step()), so this is the
 * same RCU reader, on the same CPU, as the pre handler was.  A boostable
 * instruction needs no C work after it (kprobe_step_finish() would do
 * nothing), and re-entered hits never come here (kprobe_reenter()).
 * The trampoline's popf applies regs->flags, and so the probed context's
 * IF; it resumes at regs->ip.
 */
__visible notrace void kprobe_post_trampoline_handler(struct pt_regs *regs)
{
	unsigned long irq = __this_cpu_read(kprobe_ctlblk.saved_irq);
	struct kprobe_hit_site *p = __this_cpu_read(kprobe_ctlblk.site);

	/* From the slot's return address to the probed function's. */
	regs->ip = (unsigned long)p->addr + p->ainsn.len;
	/* The int3's exit told lockdep the probed context's state. */
	if (irq)
		trace_hardirqs_off();
	regs->flags |= irq;

	if (READ_ONCE(p->post)) {
		kprobe_move_state_here(KPROBE_CPU_STEPPING, KPROBE_CPU_POST);
		kprobe_hit_post_here(p, regs);
		kprobe_move_state_here(KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_move_state_here(KPROBE_CPU_STEPPING, KPROBE_CPU_IDLE);
	}
	reset_current_kprobe();

	if (irq)
		trace_hardirqs_on();
}

NOKPROBE_SYMBOL(kprobe_post_trampoline_handler);

/*
 * A hit on an idle CPU: the handlers run.  The control block is reached
 * through the per-CPU segment on the paths that end here (boost, detour,
 * changed ip), so that no pointer to it stays live across the handlers.
 */
static nokprobe_inline void kprobe_hit(struct kprobe_hit_site *p,
				       struct pt_regs *regs)
{
	struct kprobe *solo = kprobe_hit_solo(p);
	struct kprobe_ctlblk *kcb;
	unsigned long resume;

	kprobe_claim_idle_here(solo);

	/* regs->ip is p->addr + 1 here, as after any int3. */
	if (kprobe_hit_pre(p, solo, regs)) {
		/* The handler moved regs->ip: no instruction, no post. */
		kprobe_move_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
		reset_current_kprobe();
		return;
	}

	if (p->ainsn.kind == KPROBE_INSN_EMULATE) {
		kprobe_emulate(p, regs);
		kprobe_insn_done(p, regs, get_kprobe_ctlblk());
		return;
	}
	/* Without a post handler to come back for, the CPU need not trap again. */
	if (!READ_ONCE(p->post)) {
		/* A published detour runs the instruction instead (opt.c). */
		resume = kprobe_hit_resume_no_post(p);
		if (resume) {
			regs->ip = resume;
			kprobe_move_state_here(KPROBE_CPU_HANDLER,
					       KPROBE_CPU_IDLE);
			reset_current_kprobe();
			return;
		}
		if (p->ainsn.boostable) {
			kprobe_boost(p, regs);
			return;
		}
	}
	kcb = get_kprobe_ctlblk();
	kprobe_start_step(p, regs, kcb);
	kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

/*
 * A hit while this CPU is already busy with a probe: from a handler, from
 * a busy section, or from an NMI that came in while a copy was stepped.
 * The handlers do not run (the hit is counted as missed), but the probed
 * instruction must, so the interrupted state is pushed for the step.
 */
static void kprobe_reenter(struct kprobe_hit_site *p, struct pt_regs *regs,
			   struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);

	/* Emulation completes right here: there is nothing to save. */
	if (p->ainsn.kind == KPROBE_INSN_EMULATE) {
		kprobe_emulate(p, regs);
		return;
	}
	if (kprobe_opt_bypass(p, regs))
		return;
	/* Nothing to come back for: the boosted copy, nothing to save. */
	if (p->ainsn.boostable) {
		regs->ip = (unsigned long)p->ainsn.slot;
		return;
	}
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_reenter);

/*
 * Not a probe's int3, or one armed through ftrace (which has no int3 of
 * ours).  If the byte is no longer an int3, whoever put it there (a probe
 * disarmed after this CPU fetched it, or ftrace's text_poke_bp() on an
 * fentry site we share) has already taken it back: just run the
 * instruction.  An int3 still there is somebody else's to handle.
 */
static int kprobe_int3_foreign(struct pt_regs *regs, unsigned long addr)
{
	if (*(kprobe_opcode_t *)addr != BREAKPOINT_INSTRUCTION) {
		regs->ip = addr;
		return 1;
	}
	return 0;
}

NOKPROBE_SYMBOL(kprobe_int3_foreign);

/*
 * An int3 while this CPU is busy with a probe: the end of a step, a probe
 * hit from a handler or a busy section, or not ours.  Out of line, so
 * that the idle hit tests kprobe_running() once and keeps nothing live
 * across the lookup for it.
 */
static noinline int kprobe_int3_busy(struct pt_regs *regs, unsigned long addr)
{
	struct kprobe_hit_site *p = __this_cpu_read(kprobe_ctlblk.site);

	if (kprobe_is_step_end(p, get_kprobe_ctlblk(), addr)) {
		kprobe_step_done(p, regs, get_kprobe_ctlblk());
		return 1;
	}
	p = kprobe_hit_find(addr);
	if (p && !kprobe_ftrace(p)) {
		kprobe_reenter(p, regs, get_kprobe_ctlblk());
		return 1;
	}
	return kprobe_int3_foreign(regs, addr);
}

NOKPROBE_SYMBOL(kprobe_int3_busy);

/**
 * kprobe_int3_handler() - handle an int3 that may be a probe's
 * @regs: registers at the trap; regs->ip is just after the int3
 *
 * Called by do_int3() before the die notifier, and through
 * kprobe_exceptions_notify().  Interrupts are off.
 *
 * Return: 1 if the int3 was ours and @regs now say where to resume,
 * 0 to let the other int3 users look at it.
 */
notrace int kprobe_int3_handler(struct pt_regs *regs)
{
	unsigned long addr = regs->ip - INT3_INSN_SIZE;
	struct kprobe_hit_site *p;

	if (user_mode(regs))
		return 0;
	if (kprobe_running())
		return kprobe_int3_busy(regs, addr);

	p = kprobe_hit_find(addr);
	if (p && !kprobe_ftrace(p)) {
		kprobe_hit(p, regs);
		return 1;
	}
	return kprobe_int3_foreign(regs, addr);
}

NOKPROBE_SYMBOL(kprobe_int3_handler);

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: X86_TRAP_*
 *
 * Called directly by the #GP and #PF paths (kprobe_page_fault()) and
 * through kprobe_exceptions_notify() for the other traps.
 *
 * A fault of the copy in the slot is made a fault of the original: the
 * CPU is put back at the probe address with its IF, and the state the hit
 * interrupted is restored, so the kernel's fixup (or oops) sees the real
 * address.  A later retry hits the probe again.  Faults in handlers are
 * left to the normal exception fixup.
 *
 * Return: 1 if the fault was fixed up here, 0 to let the caller go on.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_hit_site *p;

	if (user_mode(regs) || preemptible())
		return 0;

	kcb = get_kprobe_ctlblk();
	if (!kprobe_running() || (kcb->state != KPROBE_CPU_STEPPING &&
				  kcb->state != KPROBE_CPU_REENTERED))
		return 0;
	p = kcb->site;
	/* Not the copy itself, e.g. an NMI that faulted meanwhile. */
	if (regs->ip != kprobe_step_copy(p))
		return 0;

	regs->ip = (unsigned long)p->addr;
	regs->flags = (regs->flags & ~X86_EFLAGS_IF) | kcb->saved_irq;
	if (kcb->state == KPROBE_CPU_REENTERED) {
		kprobe_pop(kcb);
	} else {
		kprobe_set_state(kcb, KPROBE_CPU_IDLE);
		reset_current_kprobe();
	}

	/*
	 * The #GP path tried the exception table before calling us, with the
	 * slot address; try again with the real one.  The other paths look
	 * it up after we return.
	 */
	if (trapnr == X86_TRAP_GP)
		return fixup_exception(regs, trapnr,
				       current->thread.error_code, 0);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/**
 * kprobe_exceptions_notify() - the kprobes die notifier
 * @self: the notifier block
 * @val: DIE_*
 * @data: struct die_args
 *
 * Return: NOTIFY_STOP if the event was handled, NOTIFY_DONE otherwise.
 */
int kprobe_exceptions_notify(struct notifier_block *self, unsigned long val,
			     void *data)
{
	struct die_args *args = data;

	switch (val) {
	case DIE_INT3:
		if (kprobe_int3_handler(args->regs))
			return NOTIFY_STOP;
		break;
	case DIE_GPF:
	case DIE_TRAP:
		if (kprobe_fault_handler(args->regs, args->trapnr))
			return NOTIFY_STOP;
		break;
	}
	return NOTIFY_DONE;
}

NOKPROBE_SYMBOL(kprobe_exceptions_notify);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/*
 * Put @d's instruction, re-aimed for @to, into @buf (which will be at @to),
 * followed by @op (jmp or call rel32) to @target.  @d is left as it was.
 * Return: the bytes written, or 0 when the instruction or the branch does
 * not reach from there.
 */
static unsigned int kprobe_fill_copy(unsigned long addr,
				     const struct kprobe_decoded *d,
				     unsigned long to, u8 op,
				     unsigned long target, u8 *buf)
{
	struct kprobe_decoded copy = *d;
	unsigned int len = d->ainsn.len;
	/* Modulo the address space: on i386 every rel32 reaches. */
	long rel = (long)(target - (to + len + JMP32_INSN_SIZE));
	s32 rel32 = rel;

	if (rel != rel32 || kprobe_relocate_insn(&copy, addr, to))
		return 0;
	memcpy(buf, copy.bytes, len);
	buf[len] = op;
	memcpy(&buf[len + 1], &rel32, sizeof(rel32));
	return len + JMP32_INSN_SIZE;
}

/*
 * The two copies of a boostable instruction (see the slot layout in
 * <asm/kprobes.h>) for a slot at @slot.  False if one of them cannot be
 * made: the instruction is then stepped like any other.
 */
static bool kprobe_fill_boosted(unsigned long addr,
				const struct kprobe_decoded *d,
				unsigned long slot, u8 *buf)
{
	unsigned int post = kprobe_post_offset(d->ainsn.len);

	return kprobe_fill_copy(addr, d, slot, JMP32_INSN_OPCODE,
				addr + d->ainsn.len, buf) &&
	       kprobe_fill_copy(addr, d, slot + post, CALL_INSN_OPCODE,
				(unsigned long)kprobe_post_trampoline,
				&buf[post]);
}

/*
 * Fill a new slot with the (re-aimed) copies, see <asm/kprobes.h>; the
 * rest of its last unit is int3s (a reused slot would hold the
 * last user's bytes there).  Clears p->ainsn.boostable if the boosted
 * copies cannot be made.  The slot is as large as the copies of this
 * instruction need.
 */
static int kprobe_write_slot(struct kprobe_hit_site *p,
			     struct kprobe_decoded *d)
{
	unsigned long addr = (unsigned long)p->addr;
	u8 buf[ALIGN(KPROBE_SLOT_BYTES, KPROBE_SLOT_UNIT)];
	kprobe_opcode_t *slot;
	unsigned int size;
	int ret;

	size = p->ainsn.boostable ? 2 * kprobe_post_offset(d->ainsn.len) :
				    d->ainsn.len + INT3_INSN_SIZE;
	slot = kprobe_slot_alloc(size);
	if (!slot) {
		d->reason = "no free instruction slot";
		return -ENOMEM;
	}

	memset(buf, INT3_INSN_OPCODE, sizeof(buf));
	if (p->ainsn.boostable)
		p->ainsn.boostable =
			kprobe_fill_boosted(addr, d, (unsigned long)slot, buf);
	if (!p->ainsn.boostable) {
		memset(buf, INT3_INSN_OPCODE, sizeof(buf));
		ret = kprobe_relocate_insn(d, addr, (unsigned long)slot);
		if (ret)
			goto free;
		memcpy(buf, d->bytes, d->ainsn.len);
	}
	/* The slot is read-only executable memory; takes text_mutex. */
	if (!text_poke_copy(slot, buf, ALIGN(size, KPROBE_SLOT_UNIT))) {
		d->reason = "cannot write the instruction slot";
		ret = -EFAULT;
		goto free;
	}
	p->ainsn.slot = slot;
	return 0;

free:
	kprobe_slot_free(slot);
	return ret;
}

/*
 * A kernel booted on one CPU has its lock prefixes patched out, and back
 * in when a second CPU comes up: such a rewrite would clobber our int3.
 */
static bool kprobe_smp_alt_reserved(struct kprobe_hit_site *p, unsigned int len)
{
	bool reserved;

	mutex_lock(&text_mutex);
	reserved = alternatives_text_reserved(p->addr, p->addr + len);
	mutex_unlock(&text_mutex);
	return reserved;
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is an instruction boundary
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held (the slot write takes it).
 * Return: 0, or a negative errno with *@why set.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size, offset;
	unsigned int len = MAX_INSN_SIZE;
	u8 text[MAX_INSN_SIZE];
	struct kprobe_decoded d;
	int ret;

	kprobe_assert_locked();

	/* Do not read past the end of the function: it may end the text. */
	if (kprobe_sym_size_offset(addr, &size, &offset) && size > offset)
		len = min_t(unsigned long, len, size - offset);
	ret = kprobe_copy_original_text(text, addr, len);
	if (ret) {
		*why = "cannot read the probed text";
		return ret;
	}

	ret = kprobe_decode_insn(text, len, &d);
	if (!ret && kprobe_smp_alt_reserved(p, d.ainsn.len)) {
		d.reason = "lock prefix rewritten by SMP alternatives";
		ret = -EBUSY;
	}
	if (!ret) {
		p->opcode = text[0];
		p->ainsn = d.ainsn;
		/*
		 * A fault of a boosted copy is not made a fault of the probe
		 * address (see kprobe_fault_handler()), so a fixup would be
		 * looked up at the slot and not found.
		 */
		if (search_exception_tables(addr))
			p->ainsn.boostable = false;
		if (d.ainsn.kind == KPROBE_INSN_STEP)
			ret = kprobe_write_slot(p, &d);
	}
	if (ret)
		*why = d.reason;
	return ret;
}

/* Write one byte at the probe address and make every CPU see it. */
static void kprobe_poke(struct kprobe_hit_site *p, const kprobe_opcode_t *old,
			const kprobe_opcode_t *new)
{
	text_poke(p->addr, new, 1);
	text_poke_sync();
	perf_event_text_poke(p->addr, old, 1, new, 1);
}

/**
 * arch_arm_kprobe() - put the int3 over the probed instruction
 * @p: a prepared site
 *
 * A single byte is written, which other CPUs see either before or after;
 * text_poke_sync() makes sure none still runs the old instruction stream.
 * Context: text (kprobes_arch.h): locked, text_mutex held.
 */
void arch_arm_kprobe(struct kprobe_hit_site *p)
{
	kprobe_poke(p, &p->opcode, kprobe_int3);
}

/**
 * arch_disarm_kprobe() - restore the original first byte
 * @p: an armed site
 *
 * A CPU may still be between the int3 and its handler; the handler then
 * finds the original byte back and re-runs it (kprobe_int3_handler()).
 * Context: text (kprobes_arch.h): locked, text_mutex held.
 */
void arch_disarm_kprobe(struct kprobe_hit_site *p)
{
	kprobe_poke(p, kprobe_int3, &p->opcode);
}

static int kprobe_cmp_addr(const void *a, const void *b)
{
	const struct kprobe_hit_site *pa, *pb;

	pa = *(const struct kprobe_hit_site * const *)a;
	pb = *(const struct kprobe_hit_site * const *)b;

	if (pa->addr == pb->addr)
		return 0;
	return pa->addr < pb->addr ? -1 : 1;
}

/**
 * arch_arm_kprobes_batch() - put the int3s of several probes in at once
 * @kps: sites, none armed through ftrace; sorted here
 * @nr: how many
 *
 * The int3s go through the text_poke_queue() batch, which writes up to a
 * page worth of them and synchronises the CPUs once per batch instead of
 * once per probe.  It wants ascending addresses (it flushes early on the
 * first one that is lower than the one before), hence the sort.  Its own
 * int3 handler leaves int3s that were queued as such to us.
 * Context: text (kprobes_arch.h): locked, text_mutex held.
 */
void arch_arm_kprobes_batch(struct kprobe_hit_site **kps, unsigned int nr)
{
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	sort(kps, nr, sizeof(*kps), kprobe_cmp_addr, NULL);
	for (i = 0; i < nr; i++)
		text_poke_queue(kps[i]->addr, kprobe_int3, INT3_INSN_SIZE,
				NULL);
	text_poke_finish();
}

/**
 * arch_disarm_kprobes_batch() - take the int3s of several probes out
 * @kps: armed sites, none armed through ftrace
 * @nr: how many
 *
 * Every first byte is put back, then the CPUs are synchronised once.  As
 * with a single probe, a CPU that fetched one of the int3s before finds
 * its original byte back in the handler and re-runs it.  text_poke_queue()
 * cannot do this one: it only knows how to write instructions it can
 * emulate meanwhile, which the probed ones are not.
 * Context: text (kprobes_arch.h): locked, text_mutex held.
 */
void arch_disarm_kprobes_batch(struct kprobe_hit_site **kps, unsigned int nr)
{
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	for (i = 0; i < nr; i++)
		text_poke(kps[i]->addr, &kps[i]->opcode, 1);
	text_poke_sync();
	for (i = 0; i < nr; i++)
		perf_event_text_poke(kps[i]->addr, kprobe_int3, 1,
				     &kps[i]->opcode, 1);
}

/**
 * arch_kprobe_boostable() - does a hit on @p skip the trap after its copy?
 * @p: a prepared site
 *
 * True when its slot has a boosted copy; a hit goes there whenever the
 * site has no post handler at that moment, and to the post copy, which
 * ends without a trap too, when it has one.
 *
 * Return: true if @p is boosted when it has no post handler.
 */
bool arch_kprobe_boostable(struct kprobe_hit_site *p)
{
	return p->ainsn.kind == KPROBE_INSN_STEP && p->ainsn.slot &&
	       p->ainsn.boostable;
}

/**
 * arch_remove_kprobe() - release what arch_kprobe_prepare() took
 * @p: a disarmed site, after an RCU grace period.  No CPU is in
 *	the stepped or post copy any more (they run with interrupts off);
 *	one may still be in the boosted copy, which is why the slot allocator
 *	delays reuse (kprobe_slot_free()).
 */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	if (p->ainsn.slot) {
		kprobe_slot_free(p->ainsn.slot);
		p->ainsn.slot = NULL;
	}
}

/* ---------------------------------------------------------------------
 * Addresses and the blacklist
 * ---------------------------------------------------------------------
 */

/**
 * arch_adjust_kprobe_addr() - the probe address for symbol + offset
 * @addr: the function's address
 * @offset: the requested offset
 * @on_func_entry: set if the probe is at the function's entry
 *
 * With IBT a function starts with an ENDBR, which must stay in place for
 * indirect calls: its entry probe goes right after it, and offset 0 and
 * the ENDBR's size both mean "entry".
 *
 * Return: the address to probe.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long entry = 0;
	u32 insn;

	if (!get_kernel_nofault(insn, (u32 *)addr) && is_endbr(insn))
		entry = ENDBR_INSN_SIZE;

	*on_func_entry = !offset || offset == entry;
	if (*on_func_entry)
		offset = entry;
	return (kprobe_opcode_t *)(addr + offset);
}

/*
 * Where the instructions of one core-kernel function start, so that many
 * probes in one function decode it once instead of once each (which made
 * mass registration quadratic in the function's size).  Core kernel text
 * keeps its instruction boundaries once booted: runtime patching swaps
 * instructions for others of the same length, and our own int3s are
 * undone by kprobe_copy_original_text().  Module text can be freed and its
 * addresses reused, so it is not remembered.
 */
#define KPROBE_BOUNDS_MAX_SIZE	SZ_64K

/**
 * struct kprobe_bounds - instruction starts of the last function checked
 * @start: the function, 0 if none
 * @size: its size
 * @done: decoded from @start up to here, which starts an instruction
 * @map: bit n set: @start + n starts an instruction (n < @done - @start)
 *
 * Protected by the registration lock.
 */
static struct kprobe_bounds {
	unsigned long start;
	unsigned long size;
	unsigned long done;
	unsigned long *map;
} kprobe_bounds;

/* Remember @start instead of the function remembered so far, if possible. */
static struct kprobe_bounds *kprobe_bounds_get(unsigned long start,
					       unsigned long size)
{
	struct kprobe_bounds *b = &kprobe_bounds;

	if (!is_kernel_text(start) || size > KPROBE_BOUNDS_MAX_SIZE)
		return NULL;
	if (b->start == start && b->size == size)
		return b;
	kfree(b->map);
	b->map = bitmap_zalloc(size, GFP_KERNEL);
	b->start = b->map ? start : 0;
	b->size = size;
	b->done = start;
	return b->map ? b : NULL;
}

/*
 * Text is read a chunk at a time: kprobe_copy_original_text() looks every
 * byte up in the table, so one window per instruction would cost a lookup
 * for each byte of a window, several times over.
 */
#define KPROBE_DECODE_CHUNK	128

/*
 * Decode from *@pos (an instruction start) until @addr is reached or
 * passed, marking each start in @map (may be NULL) relative to @base.
 */
static int kprobe_decode_upto(unsigned long *pos, unsigned long addr,
			      unsigned long end, unsigned long base,
			      unsigned long *map)
{
	unsigned long from = 0, to = 0, need;
	u8 buf[KPROBE_DECODE_CHUNK];
	struct insn insn;

	while (*pos < addr) {
		/* The buffer holds [from, to); refill it at *pos if short. */
		need = min_t(unsigned long, MAX_INSN_SIZE, end - *pos);
		if (*pos < from || *pos + need > to) {
			from = *pos;
			/* Nothing past the last instruction that can matter. */
			to = min3(end, from + sizeof(buf), addr + MAX_INSN_SIZE);
			if (kprobe_copy_original_text(buf, from, to - from))
				return -EILSEQ;
		}
		if (insn_decode(&insn, &buf[*pos - from], to - *pos,
				INSN_MODE_KERN) < 0)
			return -EILSEQ;
		if (map)
			__set_bit(*pos - base, map);
		*pos += insn.length;
	}
	return 0;
}

/**
 * arch_kprobe_check_insn_boundary() - is @addr the start of an instruction
 * @addr: a kernel text address
 * @why: the reason when it is not
 *
 * Decodes the function containing @addr from its start, with the original
 * bytes of other probes put back, or looks the answer up in what an
 * earlier call found out about the same function.
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or -EILSEQ (*@why says why).
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	unsigned long size, offset, start, pos;
	struct kprobe_bounds *b;
	int ret;

	kprobe_assert_locked();
	if (!kprobe_sym_size_offset(addr, &size, &offset) || !size) {
		*why = "size of the function unknown";
		return -EILSEQ;
	}

	start = addr - offset;
	pos = start;
	b = kprobe_bounds_get(start, size);
	if (b && addr < b->done) {
		pos = test_bit(addr - start, b->map) ? addr : b->done;
	} else {
		if (b)
			pos = b->done;
		/*
		 * Jump labels, static calls and ftrace put a temporary int3
		 * over an instruction they rewrite, under text_mutex: that
		 * int3 would decode as an instruction of its own.
		 */
		mutex_lock(&text_mutex);
		ret = kprobe_decode_upto(&pos, addr, start + size, start,
					 b ? b->map : NULL);
		mutex_unlock(&text_mutex);
		if (b)
			b->done = pos;
		if (ret) {
			*why = "function does not decode";
			return ret;
		}
	}
	if (pos != addr) {
		*why = "not at an instruction boundary";
		return -EILSEQ;
	}
	return 0;
}

/**
 * arch_populate_kprobe_blacklist() - x86 text that is never probed
 *
 * The core already refuses entry and noinstr text.  What x86 adds:
 *
 * - __switch_to(), which runs on the next task's stack while current
 *   still names the previous task until it switches it: its entry and
 *   its return are seen by different tasks.  The documented contract
 *   refuses kprobes and kretprobes there alike (-EINVAL).
 * - the return thunk: every return of the kernel goes through it, the
 *   int3 path's included, so an int3 there would recurse.
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	int ret;

	ret = kprobe_add_ksym_blacklist((unsigned long)__switch_to);
	if (ret < 0)
		return ret;
	if (!IS_ENABLED(CONFIG_MITIGATION_RETHUNK))
		return 0;

	ret = kprobe_add_ksym_blacklist((unsigned long)__x86_return_thunk);
	if (ret < 0)
		return ret;
	/* The thunk the CPU bugs code picked at boot, if another one. */
	ret = kprobe_add_ksym_blacklist((unsigned long)x86_return_thunk);
	return ret < 0 ? ret : 0;
}

/**
 * arch_init_kprobes() - x86 part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
