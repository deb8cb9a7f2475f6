// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kretprobes: diverting the return address at function entry,
 * and the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "arm-kprobes.h"

/*
 * What identifies a call, the same at its entry and at its return: the
 * frame pointer of ARM code (fp, r11), which is also what the
 * frame-pointer unwinder reads; in Thumb-2 code r11 is an ordinary
 * register that nested calls share, and the sp at entry, to which the
 * function returns, tells them apart.
 */
static nokprobe_inline void *kprobe_arm_frame(struct pt_regs *regs)
{
	return (void *)(IS_ENABLED(CONFIG_THUMB2_KERNEL) ? regs->ARM_sp :
							  regs->ARM_fp);
}

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry: the return address is still
 *	in lr and fp is the caller's frame pointer
 *
 * kprobe_arm_frame() identifies the call: in ARM code the caller's frame
 * pointer, to which the function returns fp (the trampoline passes it
 * back to the core), and what ARM's frame-pointer unwinder holds when it
 * reads the trampoline's address as a frame's saved lr (unwind_frame());
 * in Thumb-2 code the sp at entry.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->ARM_lr;
	ri->fp = kprobe_arm_frame(regs);
	regs->ARM_lr = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; regs->ARM_fp and regs->ARM_sp are
 *	what the probed function returned with, i.e. what it was entered
 *	with (ri->fp, kprobe_arm_frame())
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
	return kretprobe_trampoline_handler(regs, kprobe_arm_frame(regs));
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
