// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc rethook, the function-exit half of fprobe: the same return
 * trampoline as kretprobes' (return_trampoline.h), with rethook's
 * handler loop (kernel/trace/rethook.c).  No kprobe is involved.
 */
#include "ppc-kprobes.h"

#include <linux/rethook.h>

/**
 * arch_rethook_prepare() - divert a function's return to the trampoline
 * @rh: the node tracking this call
 * @regs: registers at the function's entry (from ftrace): link is the
 *	return address, gpr[1] the r1 the function was entered with
 * @mcount: unused: link is the return address at an ftrace site too
 */
void arch_rethook_prepare(struct rethook_node *rh, struct pt_regs *regs,
			  bool mcount)
{
	rh->ret_addr = regs->link;
	rh->frame = regs->gpr[1];
	regs->link = (unsigned long)dereference_kernel_function_descriptor(arch_rethook_trampoline);
}

NOKPROBE_SYMBOL(arch_rethook_prepare);

/**
 * arch_rethook_fixup_return() - where the trampoline goes back to
 * @regs: the trampoline's pt_regs
 * @orig_ret_address: the real return address
 *
 * The handlers (and an unwinder started from @regs) see nip and link at
 * the real return address; the trampoline returns there through the
 * value arch_rethook_trampoline_callback() gives it.
 */
void arch_rethook_fixup_return(struct pt_regs *regs,
			       unsigned long orig_ret_address)
{
	regs->nip = orig_ret_address;
	regs->link = orig_ret_address;
}

NOKPROBE_SYMBOL(arch_rethook_fixup_return);

/**
 * arch_rethook_trampoline_callback() - run the rethook handlers
 * @regs: built by the trampoline; gpr[1] is the r1 the function was
 *	entered with (rh->frame)
 *
 * Return: the address the trampoline returns to.
 */
unsigned long arch_rethook_trampoline_callback(struct pt_regs *regs)
{
	return rethook_trampoline_handler(regs, regs->gpr[1]);
}

NOKPROBE_SYMBOL(arch_rethook_trampoline_callback);
