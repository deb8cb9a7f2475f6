// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parisc kretprobes: diverting the return address at function entry.  The
 * return trampoline (kretprobe_trampoline.S) calls the generic handler
 * loop, kretprobe_trampoline_handler(), itself: the %sp it returned with
 * is the frame (ri->fp), and the handler points the instruction address
 * in pt_regs at the real return address before any handler runs.  The
 * instance pool is generic too (kernel/kprobes/).
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
