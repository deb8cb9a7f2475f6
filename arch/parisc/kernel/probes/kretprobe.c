// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parisc kretprobes: diverting the return address at function entry, and
 * the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "parisc-kprobes.h"

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry: the return address is still
 *	in %rp (%r2), and %sp (%r30) is the caller's
 *
 * The stack pointer at entry identifies the call: the stack grows up,
 * the function allocates its frame above it and returns with %sp back
 * at this value, which the trampoline hands to the core.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->gr[2];
	ri->fp = (void *)regs->gr[30];
	regs->gr[2] = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; regs->gr[30] is the %sp the probed
 *	function returned with, i.e. its %sp at entry (ri->fp)
 *
 * kretprobe_trampoline_handler() points the instruction address in
 * @regs at the real return address before the handlers run.
 *
 * Return: the address the trampoline returns to.
 */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, (void *)regs->gr[30]);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
