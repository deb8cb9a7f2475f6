/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hit of a kprobe armed through ftrace (CONFIG_KPROBES_ON_FTRACE), for
 * architectures whose per-CPU state is <asm-generic/kprobes-cpu.h>'s.
 * Included by the architecture's kprobe_ftrace_handler() file only, after
 * <linux/kprobes_arch.h>.
 *
 * The core attaches an ftrace_ops to the site instead of writing a
 * breakpoint; the ftrace caller hands a full pt_regs and, once the
 * callbacks are done, resumes at its instruction pointer.  The handlers
 * are shown what a breakpoint probe would show them: the instruction
 * pointer where a breakpoint on the ftrace call reports the hit during
 * the pre handler, just past the call afterwards.  Nothing is stepped:
 * the probed instruction is the ftrace call, which has no effect of its
 * own.  Unless a pre handler redirects execution (returns non-zero), the
 * instruction pointer is given back as the ftrace caller passed it, which
 * another ftrace_ops (a live patch) may have chosen: kprobes needs no
 * FTRACE_OPS_FL_IPMODIFY.
 */
#ifndef _ASM_GENERIC_KPROBES_FTRACE_H
#define _ASM_GENERIC_KPROBES_FTRACE_H

#include <linux/ftrace.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <linux/trace_recursion.h>

/*
 * Run @p's handlers on an idle CPU; see the top of this file.  The hit
 * resumes at regs->ip as the caller passed it, or, with @past_call (the
 * caller knows that is just past the ftrace call: an architecture's own
 * trampoline), at that address recomputed from @p, so that only @p and
 * @regs live across the handler calls; the state moves through the
 * per-CPU segment for the same reason.
 */
static __always_inline void kprobe_ftrace_hit(struct kprobe *p,
					      struct pt_regs *regs,
					      unsigned long trap_ip_offset,
					      bool past_call)
{
	unsigned long resume = instruction_pointer(regs);
	kprobe_post_handler_t post;

	__this_cpu_write(current_kprobe, p);
	kprobe_move_state_here(KPROBE_CPU_IDLE, KPROBE_CPU_HANDLER);

	instruction_pointer_set(regs, (unsigned long)p->addr + trap_ip_offset);
	/* Non-zero: a handler chose the instruction pointer; ftrace goes there. */
	if (kprobe_hit_pre(p, regs)) {
		kprobe_move_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
		reset_current_kprobe();
		return;
	}
	post = READ_ONCE(p->post_handler);
	if (post) {
		/* As if the call had run. */
		instruction_pointer_set(regs,
					(unsigned long)p->addr + MCOUNT_INSN_SIZE);
		kprobe_move_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_POST);
		kprobe_hit_post(p, post, regs);
		kprobe_move_state_here(KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_move_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	}
	if (past_call)
		resume = (unsigned long)p->addr + MCOUNT_INSN_SIZE;
	instruction_pointer_set(regs, resume);
	reset_current_kprobe();
}

/**
 * kprobe_ftrace_dispatch() - the body of kprobe_ftrace_handler()
 * @ip: address of the ftrace call, the probe address
 * @parent_ip: the probed function's return address
 * @fregs: registers saved by the ftrace caller
 * @trap_ip_offset: where, from @ip, a breakpoint on the call would report
 *	the hit (x86: past the int3, 1; powerpc: at the trap, 0)
 *
 * Runs with preemption disabled and possibly with interrupts on: a
 * breakpoint probe hit from an interrupt meanwhile is a re-entry.  A hit
 * while this CPU runs a probe already only counts as missed.
 */
static __always_inline void kprobe_ftrace_dispatch(unsigned long ip,
						   unsigned long parent_ip,
						   struct ftrace_regs *fregs,
						   unsigned long trap_ip_offset)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct kprobe *p;
	int bit;

	/* The core's ops ask for SAVE_REGS; without them there is no probe. */
	if (unlikely(!regs))
		return;

	/* Also disables preemption: the per-CPU state stays ours. */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;

	p = kprobe_hit_find(ip);
	if (p && !kprobe_disabled(p)) {
		if (kprobe_running())
			kprobes_inc_nmissed_count(p);
		else
			kprobe_ftrace_hit(p, regs, trap_ip_offset, false);
	}
	ftrace_test_recursion_unlock(bit);
}

#endif /* _ASM_GENERIC_KPROBES_FTRACE_H */
