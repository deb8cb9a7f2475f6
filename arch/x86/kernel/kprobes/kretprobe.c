// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kretprobes: hijacking the return address at function entry.  The
 * return trampoline (kretprobe_trampoline.S) calls the generic handler
 * loop itself; the instance pool is generic too
 * (kernel/kprobes/kretprobe.c).
 */
#include "x86-kprobes.h"

#include <linux/kprobes.h>
#include <linux/sched.h>

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry, where *regs->sp is the return
 *	address
 *
 * The address of the return address slot identifies the frame: the
 * trampoline passes the same value back to the core.
 */
notrace void arch_prepare_kretprobe(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	unsigned long *slot = (unsigned long *)regs->sp;

	ri->ret_addr = (kprobe_opcode_t *)*slot;
	ri->fp = slot;
	/*
	 * The instance (already on the task's list) is whole before an
	 * unwinder in an NMI can meet the trampoline's address here.
	 */
	barrier();
	*slot = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

