// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sh kretprobes: diverting the return address at function entry, and
 * the C half of the return trampoline (kretprobe_trampoline.S).  The
 * instance pool and the handler loop are generic (kernel/kprobes/).
 */
#include "sh-kprobes.h"

#include <linux/build_bug.h>
#include <linux/stddef.h>

/* kretprobe_trampoline.S addresses struct pt_regs by these offsets. */
static_assert(offsetof(struct pt_regs, regs[15]) == 60);
static_assert(offsetof(struct pt_regs, pc) == 64);
static_assert(offsetof(struct pt_regs, tra) == 88);
static_assert(sizeof(struct pt_regs) == 92);

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry: the return address is still
 *	in PR, and r15 is the caller's stack pointer
 *
 * The stack pointer at entry identifies the frame: the function returns
 * with the same r15, which the trampoline hands back to the core.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->pr;
	ri->fp = (void *)regs->regs[15];
	regs->pr = (unsigned long)kretprobe_trampoline_addr();
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * arch_kretprobe_trampoline_callback() - run the return handlers
 * @regs: built by the trampoline; regs->regs[15] is the stack pointer the
 *	probed function returned with, i.e. its r15 at entry (ri->fp)
 *
 * kretprobe_trampoline_handler() sets regs->pc to the real return address
 * before the handlers run, so that they see where the function returns
 * to rather than the trampoline.
 *
 * Return: the address the trampoline returns to.
 */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, (void *)regs->regs[15]);
}

NOKPROBE_SYMBOL(arch_kretprobe_trampoline_callback);
