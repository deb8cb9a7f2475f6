// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parisc kprobes on ftrace sites.
 *
 * A traceable function opens with the last of ftrace's patchable nops,
 * the others just before it; while the function is traced, the nop
 * branches back to a stub there that calls ftrace_regs_caller.  A probe
 * at the entry is armed by the core attaching an ftrace_ops
 * (kernel/kprobes/ftrace.c) instead of writing a breakpoint.
 * ftrace_regs_caller saves the general registers in a pt_regs and loads
 * them back once the callbacks are done, so that a kretprobe's entry
 * handler diverts the return through %rp, and resumes at the pt_regs'
 * instruction address when a callback moved it (the series' entry.S
 * change: it used to go on in the function whatever the address said).
 *
 * The pt_regs it saves hold %sp as it is inside ftrace_regs_caller, past
 * the stub's frame and the pt_regs: the handler shows the handlers the
 * function's own %sp, which is also what a kretprobe's instance must
 * record (the trampoline finds that one), and puts the other back for the
 * restore.  The hit itself is <asm-generic/kprobes-ftrace.h>'s.
 *
 * This file is built without the ftrace hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "parisc-kprobes.h"

#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <asm/asm-offsets.h>
#include <asm-generic/kprobes-ftrace.h>

/* entry.S's FTRACE_FRAME_SIZE on 32-bit kernels: the stub's "stw,ma". */
#define KPROBE_PARISC_FTRACE_FRAME	64

/*
 * How far above the function's %sp the one saved by ftrace_regs_caller
 * is: the stub's frame, then pt_regs and a frame.
 */
#define KPROBE_PARISC_FTRACE_SP_BIAS	\
	(KPROBE_PARISC_FTRACE_FRAME + PT_SZ_ALGN)

/**
 * arch_prepare_kprobe_ftrace() - prepare a site armed through ftrace
 * @p: the site, at an ftrace call
 *
 * Return: 0; there is no copy to make.
 */
int arch_prepare_kprobe_ftrace(struct kprobe_hit_site *p)
{
	p->ainsn.slot = NULL;
	p->ainsn.kind = KPROBE_PARISC_STEP;
	return 0;
}

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: the function's entry, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: registers saved by ftrace_regs_caller
 *
 * The pre handler sees the instruction address at the entry, where a
 * breakpoint hit shows it, with the function's %sp and the current
 * system mask as the PSW (ftrace_regs_caller saves neither).
 */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	if (unlikely(!regs))
		return;
	regs->gr[30] -= KPROBE_PARISC_FTRACE_SP_BIAS;
	regs->gr[0] = arch_local_save_flags();
	kprobe_ftrace_dispatch(ip, fregs, 0);
	regs->gr[30] += KPROBE_PARISC_FTRACE_SP_BIAS;
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
