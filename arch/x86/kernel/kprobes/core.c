// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless it is
 * emulated (emulate.c), writes a copy of it followed by an int3 into an
 * instruction slot.  Arming puts an int3 over the instruction's first byte.
 * A hit then goes:
 *
 *   1. kprobe_int3_handler() finds the site and runs its pre handler
 *      (state HANDLER);
 *   2. the instruction is emulated, or the CPU is sent to the slot with
 *      EFLAGS.IF cleared (state STEPPING);
 *   3. the int3 after the copy traps again: the registers are set as if
 *      the original instruction had run at its address, IF is restored,
 *      and the post handler runs (state POST);
 *   4. state IDLE; execution goes on after the probed instruction.
 *
 * IF stays clear between 2 and 3 so that only an NMI or a machine check
 * can come in between: the task can neither be preempted nor migrate while
 * this CPU's state points at its slot.  Probes hit while another one is
 * active on the CPU are stepped without handlers (see kprobe_reenter()).
 *
 * The die notifier (kprobe_exceptions_notify()) and the hooks that
 * traps.c and fault.c call directly funnel into the same two functions,
 * kprobe_int3_handler() and kprobe_fault_handler().
 */
#include "x86-kprobes.h"

#include <linux/extable.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <asm/alternative.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/text-patching.h>
#include <asm/trapnr.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* Why the last arch_prepare_kprobe() failed; kprobe_mutex. */
const char *kprobe_arch_reason;

static const kprobe_opcode_t kprobe_int3 = INT3_INSN_OPCODE;

/* ---------------------------------------------------------------------
 * Per-CPU state machine (see enum kprobe_cpu_state)
 * ---------------------------------------------------------------------
 */

/*
 * The changes kprobe_set_state() accepts.  REENTERED is entered only by
 * kprobe_push() and left only by kprobe_pop(); BUSY is entered and left by
 * the core's kprobe_busy_begin()/end(), which save and restore the state.
 */
static const u8 kprobe_next_states[] = {
	[KPROBE_CPU_IDLE]	= BIT(KPROBE_CPU_HANDLER),
	[KPROBE_CPU_HANDLER]	= BIT(KPROBE_CPU_STEPPING) |
				  BIT(KPROBE_CPU_POST) | BIT(KPROBE_CPU_IDLE),
	[KPROBE_CPU_STEPPING]	= BIT(KPROBE_CPU_POST) | BIT(KPROBE_CPU_IDLE),
	[KPROBE_CPU_POST]	= BIT(KPROBE_CPU_IDLE),
	[KPROBE_CPU_REENTERED]	= 0,
	[KPROBE_CPU_BUSY]	= 0,
};

/**
 * kprobe_set_state() - change this CPU's kprobe state
 * @kcb: this CPU's control block
 * @state: the new enum kprobe_cpu_state
 *
 * Warns about a change the state machine does not have; that is a bug in
 * this file, and the state is changed anyway so the CPU keeps going.
 */
void kprobe_set_state(struct kprobe_ctlblk *kcb, u8 state)
{
	WARN_ONCE(kcb->state >= ARRAY_SIZE(kprobe_next_states) ||
		  !(kprobe_next_states[kcb->state] & BIT(state)),
		  "kprobes: illegal CPU state change %u -> %u\n",
		  kcb->state, state);
	kcb->state = state;
}

NOKPROBE_SYMBOL(kprobe_set_state);

/*
 * Save what this CPU is doing and make @p current in @state.  An NMI may
 * push and pop in the middle of this; claiming the entry before filling it
 * keeps the two from sharing one.
 */
static nokprobe_inline bool kprobe_push(struct kprobe_ctlblk *kcb,
					struct kprobe *p, u8 state)
{
	unsigned int depth = kcb->depth;
	struct kprobe_saved_state *s;

	if (depth >= KPROBE_NEST_MAX)
		return false;
	kcb->depth = depth + 1;
	barrier();

	s = &kcb->saved[depth];
	s->kp = kprobe_running();
	s->state = kcb->state;
	s->saved_if = kcb->saved_if;
	__this_cpu_write(current_kprobe, p);
	kcb->state = state;
	return true;
}

static nokprobe_inline void kprobe_pop(struct kprobe_ctlblk *kcb)
{
	struct kprobe_saved_state *s;

	if (WARN_ON_ONCE(!kcb->depth)) {
		kcb->state = KPROBE_CPU_IDLE;
		reset_current_kprobe();
		return;
	}
	s = &kcb->saved[kcb->depth - 1];
	__this_cpu_write(current_kprobe, s->kp);
	kcb->state = s->state;
	kcb->saved_if = s->saved_if;
	/* Release the entry only once it has been read, see kprobe_push(). */
	barrier();
	kcb->depth--;
}

/*
 * Each push comes from a new exception context (handler, NMI, #MC, #DB),
 * so running out of entries cannot happen short of a bug.  There is no
 * way to run the probed instruction without the state, so stop here with
 * the culprit on the console.
 */
static void __noreturn kprobe_nest_overflow(struct kprobe *p)
{
	dump_kprobe(p);
	panic("kprobes: probes nested more than %d deep on CPU %d\n",
	      KPROBE_NEST_MAX, smp_processor_id());
}

NOKPROBE_SYMBOL(kprobe_nest_overflow);

/* ---------------------------------------------------------------------
 * The int3 path
 * ---------------------------------------------------------------------
 */

/* Send the CPU to @p's slot, with interrupts off until the trailing int3. */
static nokprobe_inline void kprobe_start_step(struct kprobe *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	kcb->saved_if = regs->flags & X86_EFLAGS_IF;
	regs->flags &= ~X86_EFLAGS_IF;
	regs->ip = (unsigned long)p->ainsn.slot;
}

static nokprobe_inline void kprobe_emulate(struct kprobe *p,
					   struct pt_regs *regs)
{
	p->ainsn.emulate->emulate(&p->ainsn, (unsigned long)p->addr, regs);
}

/* Is the int3 at @addr the one after the copy that @p is stepping? */
static nokprobe_inline bool kprobe_is_step_end(struct kprobe *p,
					       struct kprobe_ctlblk *kcb,
					       unsigned long addr)
{
	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return false;
	return p->ainsn.slot &&
	       addr == (unsigned long)p->ainsn.slot + p->ainsn.len;
}

/*
 * @p's instruction has run (stepped or emulated): run the post handler
 * and go back to what the CPU was doing before the hit.
 */
static void kprobe_insn_done(struct kprobe *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb)
{
	if (kcb->state == KPROBE_CPU_REENTERED) {
		kprobe_pop(kcb);
		return;
	}
	if (p->post_handler) {
		kprobe_set_state(kcb, KPROBE_CPU_POST);
		p->post_handler(p, regs, 0);
	}
	kprobe_set_state(kcb, KPROBE_CPU_IDLE);
	reset_current_kprobe();
}

NOKPROBE_SYMBOL(kprobe_insn_done);

/* The trailing int3 of @p's slot: make it look as if the original ran. */
static void kprobe_step_done(struct kprobe *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb)
{
	kprobe_step_finish(&p->ainsn, (unsigned long)p->addr, kcb->saved_if,
			   regs);
	if (!p->ainsn.if_modifier)
		regs->flags = (regs->flags & ~X86_EFLAGS_IF) | kcb->saved_if;
	kprobe_insn_done(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_step_done);

/* A hit on an idle CPU: the handlers run. */
static void kprobe_hit(struct kprobe *p, struct pt_regs *regs,
		       struct kprobe_ctlblk *kcb)
{
	__this_cpu_write(current_kprobe, p);
	kprobe_set_state(kcb, KPROBE_CPU_HANDLER);

	/* regs->ip is p->addr + 1 here, as after any int3. */
	if (p->pre_handler && p->pre_handler(p, regs)) {
		/* The handler moved regs->ip: no instruction, no post. */
		kprobe_set_state(kcb, KPROBE_CPU_IDLE);
		reset_current_kprobe();
		return;
	}

	if (p->ainsn.kind == KPROBE_INSN_EMULATE) {
		kprobe_emulate(p, regs);
		kprobe_insn_done(p, regs, kcb);
		return;
	}
	kprobe_start_step(p, regs, kcb);
	kprobe_set_state(kcb, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_hit);

/*
 * A hit while this CPU is already busy with a probe: from a handler, from
 * a busy section, or from an NMI that came in while a copy was stepped.
 * The handlers do not run (the hit is counted as missed), but the probed
 * instruction must, so the interrupted state is pushed for the step.
 */
static void kprobe_reenter(struct kprobe *p, struct pt_regs *regs,
			   struct kprobe_ctlblk *kcb)
{
	kprobes_inc_nmissed_count(p);

	/* Emulation completes right here: there is nothing to save. */
	if (p->ainsn.kind == KPROBE_INSN_EMULATE) {
		kprobe_emulate(p, regs);
		return;
	}
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_reenter);

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
int kprobe_int3_handler(struct pt_regs *regs)
{
	unsigned long addr = regs->ip - INT3_INSN_SIZE;
	struct kprobe_ctlblk *kcb;
	struct kprobe *p;

	if (user_mode(regs))
		return 0;

	kcb = get_kprobe_ctlblk();
	p = kprobe_running();
	if (p && kprobe_is_step_end(p, kcb, addr)) {
		kprobe_step_done(p, regs, kcb);
		return 1;
	}

	p = get_kprobe((kprobe_opcode_t *)addr);
	if (!p) {
		/*
		 * The probe was disarmed after this CPU fetched its int3 (the
		 * byte is the original one again): just run the instruction.
		 * An int3 still there is somebody else's.
		 */
		if (*(kprobe_opcode_t *)addr != BREAKPOINT_INSTRUCTION) {
			regs->ip = addr;
			return 1;
		}
		return 0;
	}
	/* A site armed through ftrace has no int3 of ours. */
	if (kprobe_ftrace(p))
		return 0;

	if (kprobe_running())
		kprobe_reenter(p, regs, kcb);
	else
		kprobe_hit(p, regs, kcb);
	return 1;
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
	struct kprobe *p;

	if (user_mode(regs) || preemptible())
		return 0;

	kcb = get_kprobe_ctlblk();
	p = kprobe_running();
	if (!p || (kcb->state != KPROBE_CPU_STEPPING &&
		   kcb->state != KPROBE_CPU_REENTERED))
		return 0;
	/* Not the copy itself, e.g. an NMI that faulted meanwhile. */
	if (regs->ip != (unsigned long)p->ainsn.slot)
		return 0;

	regs->ip = (unsigned long)p->addr;
	regs->flags = (regs->flags & ~X86_EFLAGS_IF) | kcb->saved_if;
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
 * Preparing, arming, removing (kprobe_mutex)
 * ---------------------------------------------------------------------
 */

/* Fill a new slot with the (re-aimed) copy; the rest of it is int3s. */
static int kprobe_write_slot(struct kprobe *p, struct kprobe_decoded *d)
{
	u8 buf[KPROBE_SLOT_BYTES];
	kprobe_opcode_t *slot;
	int ret;

	slot = kprobe_slot_alloc();
	if (!slot) {
		d->reason = "no free instruction slot";
		return -ENOMEM;
	}
	ret = kprobe_relocate_insn(d, (unsigned long)p->addr,
				   (unsigned long)slot);
	if (ret)
		goto free;

	memset(buf, INT3_INSN_OPCODE, sizeof(buf));
	memcpy(buf, d->bytes, d->ainsn.len);
	/* The slot is read-only executable memory; takes text_mutex. */
	if (!text_poke_copy(slot, buf, sizeof(buf))) {
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
static bool kprobe_smp_alt_reserved(struct kprobe *p, unsigned int len)
{
	bool reserved;

	mutex_lock(&text_mutex);
	reserved = alternatives_text_reserved(p->addr, p->addr + len);
	mutex_unlock(&text_mutex);
	return reserved;
}

/**
 * arch_prepare_kprobe() - decode the probed instruction, set up its slot
 * @p: the site's kprobe; p->addr is an instruction boundary
 *
 * Context: kprobe_mutex held, text_mutex not held (the slot write takes it).
 * Return: 0, or a negative errno with kprobe_arch_reason set.
 */
int arch_prepare_kprobe(struct kprobe *p)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size, offset;
	unsigned int len = MAX_INSN_SIZE;
	u8 text[MAX_INSN_SIZE];
	struct kprobe_decoded d;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	kprobe_arch_reason = NULL;

	/* Do not read past the end of the function: it may end the text. */
	if (kallsyms_lookup_size_offset(addr, &size, &offset) && size > offset)
		len = min_t(unsigned long, len, size - offset);
	ret = kprobe_copy_original_text(text, addr, len);
	if (ret) {
		kprobe_arch_reason = "cannot read the probed text";
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
		if (d.ainsn.kind == KPROBE_INSN_STEP)
			ret = kprobe_write_slot(p, &d);
	}
	if (ret)
		kprobe_arch_reason = d.reason;
	return ret;
}

/* Write one byte at the probe address and make every CPU see it. */
static void kprobe_poke(struct kprobe *p, const kprobe_opcode_t *old,
			const kprobe_opcode_t *new)
{
	text_poke(p->addr, new, 1);
	text_poke_sync();
	perf_event_text_poke(p->addr, old, 1, new, 1);
}

/**
 * arch_arm_kprobe() - put the int3 over the probed instruction
 * @p: a prepared site's kprobe
 *
 * A single byte is written, which other CPUs see either before or after;
 * text_poke_sync() makes sure none still runs the old instruction stream.
 * Context: kprobe_mutex and text_mutex held.
 */
void arch_arm_kprobe(struct kprobe *p)
{
	kprobe_poke(p, &p->opcode, &kprobe_int3);
}

/**
 * arch_disarm_kprobe() - restore the original first byte
 * @p: an armed site's kprobe
 *
 * A CPU may still be between the int3 and its handler; the handler then
 * finds the original byte back and re-runs it (kprobe_int3_handler()).
 * Context: kprobe_mutex and text_mutex held.
 */
void arch_disarm_kprobe(struct kprobe *p)
{
	kprobe_poke(p, &kprobe_int3, &p->opcode);
}

/**
 * arch_remove_kprobe() - release what arch_prepare_kprobe() took
 * @p: a disarmed site's kprobe, after an RCU grace period (no CPU can be
 *	in its slot: slots run with interrupts off)
 */
void arch_remove_kprobe(struct kprobe *p)
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

/**
 * arch_kprobe_check_insn_boundary() - is @addr the start of an instruction
 * @addr: a kernel text address
 *
 * Decodes the function containing @addr from its start, with the original
 * bytes of other probes put back.
 *
 * Return: 0, or -EILSEQ (kprobe_arch_reason says why).
 */
int arch_kprobe_check_insn_boundary(unsigned long addr)
{
	unsigned long size, offset, pos, end;
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;
	unsigned int len;

	if (!kallsyms_lookup_size_offset(addr, &size, &offset) || !size) {
		kprobe_arch_reason = "size of the function unknown";
		return -EILSEQ;
	}

	pos = addr - offset;
	end = pos + size;
	while (pos < addr) {
		len = min_t(unsigned long, sizeof(buf), end - pos);
		if (kprobe_copy_original_text(buf, pos, len) ||
		    insn_decode(&insn, buf, len, INSN_MODE_KERN) < 0) {
			kprobe_arch_reason = "function does not decode";
			return -EILSEQ;
		}
		pos += insn.length;
	}
	if (pos != addr) {
		kprobe_arch_reason = "not at an instruction boundary";
		return -EILSEQ;
	}
	return 0;
}

/**
 * arch_populate_kprobe_blacklist() - x86 text that is never probed
 *
 * The core already refuses entry and noinstr text.  What x86 adds is the
 * return thunk: every return of the kernel goes through it, the int3
 * path's included, so an int3 there would recurse.
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	int ret;

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
