// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kretprobes: hijacking the return address at function entry, and the
 * C half of the return trampoline (kretprobe_trampoline.S).  The instance
 * pool and the handler loop are generic (kernel/kprobes/kretprobe.c).
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
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	unsigned long *slot = (unsigned long *)regs->sp;

	ri->ret_addr = (kprobe_opcode_t *)*slot;
	ri->fp = slot;
	*slot = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; regs->sp is the caller's stack pointer
 *	after the return, one word above the return address slot
 *
 * kretprobe_trampoline_handler() sets regs->ip to the real return address
 * before the handlers run, so that they and any unwinder started from
 * @regs see where the function returns to rather than the trampoline.
 *
 * Return: the address the trampoline returns to.
 */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	void *frame = (void *)(regs->sp - sizeof(unsigned long));

	/*
	 * Interrupts stay as the probed function left them (documented: on
	 * x86 return handlers may run with interrupts on).  The handler's
	 * busy section keeps an interrupt that hits a probe meanwhile from
	 * pushing an instance on this task's list.
	 */
	return kretprobe_trampoline_handler(regs, frame);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
