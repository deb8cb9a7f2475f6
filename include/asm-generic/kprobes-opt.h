/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The C half of an optimized probe's detour, which x86 and powerpc share:
 * each architecture's detour saves pt_regs as a breakpoint at the probe
 * address would show them and calls its arch_optprobe_handler(), which
 * ends up here.  The state machine is <asm-generic/kprobes-cpu.h>'s.
 * Included by the architecture's optimizer file only, after
 * <linux/kprobes_arch.h>.
 */
#ifndef _ASM_GENERIC_KPROBES_OPT_H
#define _ASM_GENERIC_KPROBES_OPT_H

#include <linux/kprobes_arch.h>
#include <linux/preempt.h>

/**
 * kprobe_opt_hit() - run an optimized probe's handlers
 * @oi: the probe's record, as the detour carries it
 * @regs: built by the detour
 *
 * Entered with interrupts as the probed context had them: turning them
 * off would make every hit tell lockdep and the irq-state tracers about
 * it.  Preemption is disabled before anything is read, which keeps the
 * task on this CPU and makes this an RCU reader.  The rules are those of
 * a breakpoint hit: the handlers run with current_kprobe set and the CPU
 * in state HANDLER, and a hit while this CPU is already busy with a probe
 * only counts as missed; with interrupts on, that includes an interrupt's
 * hits while the handlers run (a breakpoint probe is still stepped).  A
 * pre handler's request for a new instruction pointer (a non-zero
 * return) cannot be honoured: the detour always goes on with the copy of
 * the probed instructions, as Documentation/trace/kprobes.rst says.
 *
 * Context: hit, from the detour.
 */
static __always_inline void kprobe_opt_hit(struct kprobe_opt_insn *oi,
					   struct pt_regs *regs)
{
	struct kprobe_hit_site *p;

	preempt_disable();
	/* NULL: the site died (the core clears @oi->probe first). */
	p = READ_ONCE(oi->probe);
	if (p && kprobe_running()) {
		kprobe_hit_missed(p);
	} else if (p) {
		/*
		 * No probe running: this CPU is idle.  The state is reached
		 * through the per-CPU segment, so that nothing but @regs
		 * lives across the handler call.
		 */
		struct kprobe *solo = kprobe_hit_solo(p);

		kprobe_claim_idle_here(solo);
		kprobe_hit_pre(p, solo, regs);
		kprobe_move_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
		reset_current_kprobe();
	}
	preempt_enable();
}

#endif /* _ASM_GENERIC_KPROBES_OPT_H */
