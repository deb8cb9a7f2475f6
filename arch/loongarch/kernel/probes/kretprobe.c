// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LoongArch kretprobes: diverting the return address at function entry,
 * and the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "loongarch-kprobes.h"

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry (a break, or the ftrace site):
 *	the return address is still in ra, and sp is the caller's
 *
 * The stack pointer at entry identifies the call: the function returns
 * with sp back at this value, which the trampoline hands to the core.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->regs[1];
	ri->fp = (void *)regs->regs[3];
	regs->regs[1] = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; regs->regs[3] is the sp the probed
 *	function returned with, i.e. its sp at entry (ri->fp)
 *
 * kretprobe_trampoline_handler() points ERA in @regs at the real return
 * address before the handlers run.
 *
 * Return: the address the trampoline returns to.
 */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, (void *)regs->regs[3]);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
