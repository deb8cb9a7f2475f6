// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kretprobes: diverting the return address at function entry,
 * and the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "arm-kprobes.h"

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry: the return address is still
 *	in lr and fp is the caller's frame pointer
 *
 * The caller's frame pointer identifies the call: the function returns
 * with fp restored to it (the trampoline passes it back to the core), and
 * it is what ARM's frame-pointer unwinder holds when it reads the
 * trampoline's address as a frame's saved lr (unwind_frame()).
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->ARM_lr;
	ri->fp = (void *)regs->ARM_fp;
	regs->ARM_lr = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; regs->ARM_fp is the frame pointer the
 *	probed function returned with, i.e. the one it was entered with
 *	(ri->fp)
 *
 * kretprobe_trampoline_handler() sets the pc in @regs to the real return
 * address before the handlers run, so that they, and an unwinder started
 * from @regs, see where the function returns to rather than the
 * trampoline.
 *
 * Return: the address the trampoline returns to.
 */
__visible notrace unsigned long
arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	/*
	 * Interrupts stay as the probed function left them.  The handler's
	 * busy section keeps an interrupt that hits a probe meanwhile from
	 * pushing an instance on this task's list.
	 */
	return kretprobe_trampoline_handler(regs, (void *)regs->ARM_fp);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
