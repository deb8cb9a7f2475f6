// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kretprobes: diverting the return address at function entry, and
 * the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "ppc-kprobes.h"

#include <linux/sched.h>

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry: the return address is still
 *	in the link register, and r1 is the caller's stack pointer
 *
 * r1 at entry identifies the frame: the function returns with the same
 * r1 (the trampoline passes it back to the core), and it is the back
 * chain word of the function's own frame, which is what the unwinder
 * knows when it meets the trampoline's address.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->link;
	ri->fp = (void *)regs->gpr[1];
	regs->link = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; gpr[1] is the r1 the probed function
 *	returned with, i.e. its r1 at entry (ri->fp)
 *
 * kretprobe_trampoline_handler() sets regs->nip to the real return
 * address before the handlers run, so that they, and an unwinder started
 * from @regs, see where the function returns to rather than the
 * trampoline.
 *
 * Return: the address the trampoline returns to.
 */
unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, (void *)regs->gpr[1]);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
