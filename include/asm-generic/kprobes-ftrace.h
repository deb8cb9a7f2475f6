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
 *
 * The including file must be built without the ftrace hook
 * (CFLAGS_REMOVE_<file>.o = $(CC_FLAGS_FTRACE)): the hit takes no ftrace
 * recursion lock (see __kprobe_ftrace_dispatch()).
 */
#ifndef _ASM_GENERIC_KPROBES_FTRACE_H
#define _ASM_GENERIC_KPROBES_FTRACE_H

#include <linux/ftrace.h>
#include <linux/kprobes_arch.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>

/*
 * Run @p's handlers on an idle CPU, @c; see the top of this file.  The
 * caller has set the instruction pointer to where a breakpoint on the call
 * would report the hit.  Only @p, @regs and @c live across the handler
 * calls (the post handler is read after the pre handlers).
 *
 * Return: true if a pre handler chose the instruction pointer (resume
 * there); false if the hit is over and the caller resumes as it would
 * have without the probe: the instruction pointer is then just past the
 * call if a post handler ran, else still the breakpoint's.
 */
static __always_inline bool kprobe_ftrace_hit(struct kprobe_cpu c,
					      struct kprobe_hit_site *p,
					      struct pt_regs *regs)
{
	struct kprobe *solo = kprobe_hit_solo(p);

	kprobe_cpu_claim_idle(c, solo);
	if (kprobe_hit_pre(p, solo, regs)) {
		kprobe_cpu_move_state(c, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
		kprobe_cpu_reset(c);
		return true;
	}
	/* Checked once: the changes below follow from it. */
	kprobe_cpu_expect_state(c, KPROBE_CPU_HANDLER);
	if (READ_ONCE(p->post)) {
		/* As if the call had run. */
		instruction_pointer_set(regs,
					(unsigned long)p->addr + MCOUNT_INSN_SIZE);
		kprobe_cpu_set_state(c, KPROBE_CPU_HANDLER, KPROBE_CPU_POST);
		if (ARCH_KPROBE_PERCPU_DIRECT)
			kprobe_hit_post_here(p, regs);
		else
			kprobe_hit_post(p, regs, c.cur);
		kprobe_cpu_move_state(c, KPROBE_CPU_POST, KPROBE_CPU_IDLE);
	} else {
		kprobe_cpu_set_state(c, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	}
	kprobe_cpu_reset(c);
	return false;
}

/*
 * Run the hit of @p on @regs: the instruction pointer is set to @trap_ip
 * for the handlers and, unless a pre handler chose where to resume, given
 * back as the ftrace caller passed it.
 */
static __always_inline void kprobe_ftrace_run(struct kprobe_cpu c,
					      struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      unsigned long trap_ip)
{
	unsigned long resume = instruction_pointer(regs);

	instruction_pointer_set(regs, trap_ip);
	/* Not redirected: where the ftrace caller would go. */
	if (!kprobe_ftrace_hit(c, p, regs))
		instruction_pointer_set(regs, resume);
}

/*
 * The body of both dispatchers below.  @partial: @fregs hold no pt_regs
 * (DYNAMIC_FTRACE_WITH_ARGS); one is built on the stack once the site is
 * found and what the handlers may change written back afterwards.  Runs
 * possibly with interrupts on: a breakpoint probe hit from an interrupt
 * meanwhile is a re-entry.  A hit while this CPU runs a probe already
 * only counts as missed, and builds nothing.
 *
 * No ftrace recursion lock: the callback's file is built without the
 * ftrace hook and everything up to kprobe_running() is inline, so the
 * only way back in is a handler calling a probed function, which that
 * test catches, as at a breakpoint (a callback of another ftrace_ops that
 * calls it is protected by ftrace's list caller).  The lock would cost a
 * third of the hit: its bit is chosen from preempt_count() on every call.
 * Disabling preemption is what is left of it: the per-CPU state stays
 * ours, and the hit is an RCU reader of the site table.
 */
static __always_inline void __kprobe_ftrace_dispatch(unsigned long ip,
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
	struct kprobe_cpu c;

	/* The core's ops ask for SAVE_REGS; without them there is no probe. */
	if (unlikely(!regs))
		return;

	preempt_disable_notrace();
	/* Every site in the table is live: GONE ones left it first. */
	p = kprobe_hit_find(ip);
	if (p) {
		c = kprobe_cpu_this();
		if (unlikely(kprobe_cpu_running(c))) {
			kprobe_hit_missed(p);
		} else {
			if (partial)
				arch_kprobe_ftrace_regs_get(fregs, regs);
			kprobe_ftrace_run(c, p, regs, ip + trap_ip_offset);
			if (partial)
				arch_kprobe_ftrace_regs_put(regs, fregs);
		}
	}
	preempt_enable_notrace();
}

/**
 * kprobe_ftrace_dispatch() - the body of kprobe_ftrace_handler()
 * @ip: address of the ftrace call, the probe address
 * @fregs: registers saved by the ftrace caller, a full pt_regs
 *	(DYNAMIC_FTRACE_WITH_REGS)
 * @trap_ip_offset: where, from @ip, a breakpoint on the call would report
 *	the hit (x86: past the int3, 1; powerpc: at the trap, 0)
 */
static __always_inline void kprobe_ftrace_dispatch(unsigned long ip,
						   struct ftrace_regs *fregs,
						   unsigned long trap_ip_offset)
{
	__kprobe_ftrace_dispatch(ip, fregs, trap_ip_offset, false);
}

/**
 * kprobe_ftrace_dispatch_args() - kprobe_ftrace_handler() of a port on
 *	DYNAMIC_FTRACE_WITH_ARGS (CONFIG_HAVE_KPROBES_ON_FTRACE_ARGS)
 * @ip: address of the ftrace call, the probe address
 * @fregs: registers saved by the ftrace caller, a struct ftrace_regs only
 * @trap_ip_offset: as for kprobe_ftrace_dispatch() (arm64: at the BRK, 0)
 *
 * The handlers get a pt_regs filled by arch_kprobe_ftrace_regs_get(); what
 * they leave in it goes back to @fregs through
 * arch_kprobe_ftrace_regs_put(), so that the ftrace caller restores it and
 * resumes where they chose.
 */
static __always_inline void kprobe_ftrace_dispatch_args(unsigned long ip,
							struct ftrace_regs *fregs,
							unsigned long trap_ip_offset)
{
	__kprobe_ftrace_dispatch(ip, fregs, trap_ip_offset, true);
}

#endif /* _ASM_GENERIC_KPROBES_FTRACE_H */
