// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv kretprobes: diverting the return address at function entry, and
 * the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "riscv-kprobes.h"

#include <linux/sched.h>

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry: the return address is still
 *	in ra, and sp is the caller's
 *
 * The stack pointer at entry identifies the frame: the function returns
 * with the same sp (the trampoline passes it back to the core), and with
 * frame pointers it is also the function's own frame pointer, which is
 * what the unwinder knows when it meets the trampoline's address.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->ra;
	ri->fp = (void *)regs->sp;
	regs->ra = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; regs->sp is the sp the probed function
 *	returned with, i.e. its sp at entry (ri->fp)
 *
 * kretprobe_trampoline_handler() sets regs->epc to the real return
 * address before the handlers run, so that they, and an unwinder started
 * from @regs, see where the function returns to rather than the
 * trampoline.
 *
 * Return: the address the trampoline returns to.
 */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	/*
	 * Interrupts stay as the probed function left them.  The handler's
	 * busy section keeps an interrupt that hits a probe meanwhile from
	 * pushing an instance on this task's list.
	 */
	return kretprobe_trampoline_handler(regs, (void *)regs->sp);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
