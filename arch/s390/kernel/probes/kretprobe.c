// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kretprobes: diverting the return address at function entry, and
 * the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "s390-kprobes.h"

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry: the return address is still
 *	in %r14, %r15 is the caller's stack pointer
 *
 * The stack pointer at entry identifies the call: the function returns
 * with %r15 restored to it (the trampoline hands it to the core), and it
 * is the frame whose save area holds the return address when s390's
 * back-chain unwinder meets the trampoline there
 * (unwind_recover_ret_addr()).
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->gprs[14];
	ri->fp = (void *)regs->gprs[15];
	regs->gprs[14] = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; gprs[15] is the stack pointer the
 *	probed function returned with, the one it was entered with (ri->fp)
 *
 * kretprobe_trampoline_handler() sets the PSW address in @regs to the
 * real return address before the handlers run, so that they, and an
 * unwinder started from @regs, see where the function returns to rather
 * than the trampoline.
 *
 * Return: the address the trampoline returns to.
 */
unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, (void *)regs->gprs[15]);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
