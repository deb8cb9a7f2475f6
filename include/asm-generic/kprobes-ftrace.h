/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hit of a kprobe armed through ftrace (CONFIG_KPROBES_ON_FTRACE), for
 * architectures whose per-CPU state is <asm-generic/kprobes-cpu.h>'s.
 * Included by the architecture's kprobe_ftrace_handler() file only, after
 * <linux/kprobes_arch.h>.
 *
 * The core attaches an ftrace_ops to the site instead of writing a
 * breakpoint.  With DYNAMIC_FTRACE_WITH_REGS the ftrace caller hands a
 * full pt_regs and, once the callbacks are done, resumes at its
 * instruction pointer (kprobe_ftrace_dispatch()).  A port on
 * DYNAMIC_FTRACE_WITH_ARGS (CONFIG_HAVE_KPROBES_ON_FTRACE_ARGS) gets a
 * struct ftrace_regs instead: kprobe_ftrace_dispatch_args() builds a
 * pt_regs from it on the stack with the port's
 * arch_kprobe_ftrace_regs_get() and, after the handlers, writes back what
 * the ftrace caller restores with arch_kprobe_ftrace_regs_put(), its
 * resume address included (<linux/kprobes_arch.h>).  The handlers
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
 * Run @p's handlers on an idle CPU; see the top of this file.  The caller
 * has set the instruction pointer to where a breakpoint on the call would
 * report the hit.  Only @p and @regs live across the handler calls (the
 * state moves through the per-CPU segment, the post handler is read after
 * the pre handlers): nothing else has to be kept in callee-saved
 * registers.
 *
 * Return: true if a pre handler chose the instruction pointer (resume
 * there); false if the hit is over and the caller resumes as it would
 * have without the probe: the instruction pointer is then just past the
 * call if a post handler ran, else still the breakpoint's.
 */
static __always_inline bool kprobe_ftrace_hit(struct kprobe_hit_site *p,
					      struct pt_regs *regs)
{
	struct kprobe *solo = kprobe_hit_solo(p);

	kprobe_claim_idle_here(solo);
	if (kprobe_hit_pre(p, solo, regs)) {
		kprobe_move_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
		reset_current_kprobe();
		return true;
	}
	/* Checked once: the changes below follow from it. */
	kprobe_expect_state_here(KPROBE_CPU_HANDLER);
	if (READ_ONCE(p->post)) {
		/* As if the call had run. */
		instruction_pointer_set(regs,
					(unsigned long)p->addr + MCOUNT_INSN_SIZE);
		kprobe_set_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_POST);
		kprobe_hit_post(p, regs);
		kprobe_move_state_here(KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_set_state_here(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	}
	reset_current_kprobe();
	return false;
}

/*
 * Run the hit of @p on @regs: the instruction pointer is set to @trap_ip
 * for the handlers and, unless a pre handler chose where to resume, given
 * back as the ftrace caller passed it.
 */
static __always_inline void kprobe_ftrace_run(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      unsigned long trap_ip)
{
	unsigned long resume = instruction_pointer(regs);

	instruction_pointer_set(regs, trap_ip);
	/* Not redirected: where the ftrace caller would go. */
	if (!kprobe_ftrace_hit(p, regs))
		instruction_pointer_set(regs, resume);
}

/*
 * The body of both dispatchers below.  @partial: @fregs hold no pt_regs
 * (DYNAMIC_FTRACE_WITH_ARGS); one is built on the stack once the site is
 * found and what the handlers may change written back afterwards.  Runs
 * with preemption disabled and possibly with interrupts on: a breakpoint
 * probe hit from an interrupt meanwhile is a re-entry.  A hit while this
 * CPU runs a probe already only counts as missed, and builds nothing.
 */
static __always_inline void __kprobe_ftrace_dispatch(unsigned long ip,
						     unsigned long parent_ip,
						     struct ftrace_regs *fregs,
						     unsigned long trap_ip_offset,
						     bool partial)
{
	/*
	 * Filled whole by arch_kprobe_ftrace_regs_get() before anything reads
	 * it: no automatic zeroing (INIT_STACK_ALL_ZERO) on every hit.
	 */
	struct pt_regs built __uninitialized;
	struct pt_regs *regs = partial ? &built : ftrace_get_regs(fregs);
	struct kprobe_hit_site *p;
	int bit;

	/* The core's ops ask for SAVE_REGS; without them there is no probe. */
	if (unlikely(!regs))
		return;

	/* Also disables preemption: the per-CPU state stays ours. */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;

	/* Every site in the table is live: GONE ones left it first. */
	p = kprobe_hit_find(ip);
	if (p) {
		if (kprobe_running()) {
			kprobe_hit_missed(p);
		} else {
			if (partial)
				arch_kprobe_ftrace_regs_get(fregs, regs);
			kprobe_ftrace_run(p, regs, ip + trap_ip_offset);
			if (partial)
				arch_kprobe_ftrace_regs_put(regs, fregs);
		}
	}
	ftrace_test_recursion_unlock(bit);
}

/**
 * kprobe_ftrace_dispatch() - the body of kprobe_ftrace_handler()
 * @ip: address of the ftrace call, the probe address
 * @parent_ip: the probed function's return address
 * @fregs: registers saved by the ftrace caller, a full pt_regs
 *	(DYNAMIC_FTRACE_WITH_REGS)
 * @trap_ip_offset: where, from @ip, a breakpoint on the call would report
 *	the hit (x86: past the int3, 1; powerpc: at the trap, 0)
 */
static __always_inline void kprobe_ftrace_dispatch(unsigned long ip,
						   unsigned long parent_ip,
						   struct ftrace_regs *fregs,
						   unsigned long trap_ip_offset)
{
	__kprobe_ftrace_dispatch(ip, parent_ip, fregs, trap_ip_offset, false);
}

/**
 * kprobe_ftrace_dispatch_args() - kprobe_ftrace_handler() of a port on
 *	DYNAMIC_FTRACE_WITH_ARGS (CONFIG_HAVE_KPROBES_ON_FTRACE_ARGS)
 * @ip: address of the ftrace call, the probe address
 * @parent_ip: the probed function's return address
 * @fregs: registers saved by the ftrace caller, a struct ftrace_regs only
 * @trap_ip_offset: as for kprobe_ftrace_dispatch() (arm64: at the BRK, 0)
 *
 * The handlers get a pt_regs filled by arch_kprobe_ftrace_regs_get(); what
 * they leave in it goes back to @fregs through
 * arch_kprobe_ftrace_regs_put(), so that the ftrace caller restores it and
 * resumes where they chose.
 */
static __always_inline void kprobe_ftrace_dispatch_args(unsigned long ip,
							unsigned long parent_ip,
							struct ftrace_regs *fregs,
							unsigned long trap_ip_offset)
{
	__kprobe_ftrace_dispatch(ip, parent_ip, fregs, trap_ip_offset, true);
}

#endif /* _ASM_GENERIC_KPROBES_FTRACE_H */
