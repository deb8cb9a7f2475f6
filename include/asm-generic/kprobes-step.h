/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The steps of a breakpoint hit that every port but x86 takes alike: it
 * stops on a breakpoint, runs the pre handler, then computes the probed
 * instruction in C (riscv, arm64: simulate; powerpc: emulate; mips, s390:
 * compute) or runs its copy from a slot until a second exception.  What
 * differs (how the instruction runs, how the step starts and ends) stays
 * in each architecture's core.c; the bookkeeping around it is here.  The
 * state machine is <asm-generic/kprobes-cpu.h>'s.  Included by the
 * architecture's core.c only, after <linux/kprobes_arch.h>.
 *
 * The helpers reach this CPU's state through a struct kprobe_cpu that the
 * trap handler computed once (kprobe_cpu_this()) and keeps across the
 * handler calls: current_kprobe is set, handed to the post handler and
 * cleared with one store each, not a per-CPU address computed again after
 * every call.  Their users do not define ARCH_KPROBE_PERCPU_DIRECT, so
 * @c.kcb is this CPU's control block.
 */
#ifndef _ASM_GENERIC_KPROBES_STEP_H
#define _ASM_GENERIC_KPROBES_STEP_H

#include <linux/kprobes_arch.h>

/*
 * A hit on an idle CPU (the caller found kprobe_cpu_running(@c) NULL):
 * make the CPU busy with site @p and run its pre handlers.
 * Return: true if a handler moved the instruction pointer: the CPU is
 * idle again and neither the instruction nor the post handlers run.
 */
static __always_inline bool kprobe_step_hit_pre(struct kprobe_hit_site *p,
						struct pt_regs *regs,
						struct kprobe_cpu c)
{
	struct kprobe *solo = kprobe_hit_solo(p);

	BUILD_BUG_ON(ARCH_KPROBE_PERCPU_DIRECT);
	kprobe_cpu_claim_idle(c, solo);
	if (!kprobe_hit_pre(p, solo, regs))
		return false;
	kprobe_cpu_move_state(c, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	kprobe_cpu_reset(c);
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
					     struct kprobe_cpu c, u8 from)
{
	if (from == KPROBE_CPU_STEPPING &&
	    c.kcb->state == KPROBE_CPU_REENTERED) {
		kprobe_pop(c.kcb);
		return;
	}
	if (READ_ONCE(p->post)) {
		kprobe_cpu_move_state(c, from, KPROBE_CPU_POST);
		kprobe_hit_post(p, regs, c.cur);
		kprobe_cpu_move_state(c, KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_cpu_move_state(c, from, KPROBE_CPU_IDLE);
	}
	kprobe_cpu_reset(c);
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
