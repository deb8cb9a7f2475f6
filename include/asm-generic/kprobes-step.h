/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The steps of a breakpoint hit that riscv, powerpc and arm64 take alike:
 * they stop on a breakpoint, run the pre handler, then compute the probed
 * instruction in C (riscv, arm64: simulate; powerpc: emulate) or run its copy
 * from a slot until a second exception.  What differs (how the
 * instruction runs, how the step starts and ends) stays in each
 * architecture's core.c; the bookkeeping around it is here.  The state
 * machine is <asm-generic/kprobes-cpu.h>'s.  Included by the
 * architecture's core.c only, after <linux/kprobes_arch.h>.
 */
#ifndef _ASM_GENERIC_KPROBES_STEP_H
#define _ASM_GENERIC_KPROBES_STEP_H

#include <linux/kprobes_arch.h>

/*
 * A hit on an idle CPU (the caller found kprobe_running() NULL): make the
 * CPU busy with site @p and run its pre handlers.
 * Return: true if a handler moved the instruction pointer: the CPU is
 * idle again and neither the instruction nor the post handlers run.
 */
static __always_inline bool kprobe_step_hit_pre(struct kprobe_hit_site *p,
						struct pt_regs *regs,
						struct kprobe_ctlblk *kcb)
{
	struct kprobe *solo = kprobe_hit_solo(p);

	kprobe_claim_idle(kcb, solo);
	if (!kprobe_hit_pre(p, solo, regs))
		return false;
	kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	reset_current_kprobe();
	return true;
}

/*
 * @p's instruction has run (computed or stepped): run the post handler
 * and go back to what the CPU was doing before the hit.  @from is the
 * state the caller found, a constant: HANDLER after a computed
 * instruction, STEPPING (or REENTERED, which the caller cannot tell from
 * it) after a stepped one; the edges are then checked at build time.
 * The post handler is read once: another CPU may clear it right now.
 */
static __always_inline void kprobe_step_done(struct kprobe_hit_site *p,
					     struct pt_regs *regs,
					     struct kprobe_ctlblk *kcb, u8 from)
{
	if (from == KPROBE_CPU_STEPPING && kcb->state == KPROBE_CPU_REENTERED) {
		kprobe_pop(kcb);
		return;
	}
	if (READ_ONCE(p->post)) {
		kprobe_move_state(kcb, from, KPROBE_CPU_POST);
		kprobe_hit_post(p, regs);
		kprobe_move_state(kcb, KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_move_state(kcb, from, KPROBE_CPU_IDLE);
	}
	reset_current_kprobe();
}

/*
 * The copy in the slot faulted: give up the step, back to the state the
 * hit interrupted (the fault is then the probed instruction's own).
 */
static __always_inline void kprobe_step_abandon(struct kprobe_ctlblk *kcb)
{
	if (kcb->state == KPROBE_CPU_REENTERED) {
		kprobe_pop(kcb);
	} else {
		kprobe_set_state(kcb, KPROBE_CPU_IDLE);
		reset_current_kprobe();
	}
}

#endif /* _ASM_GENERIC_KPROBES_STEP_H */
