// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sparc64 kretprobes: diverting the return address at function entry, and
 * the return trampoline's trap.  The instance pool and the handler loop
 * are generic (kernel/kprobes/).
 *
 * A function returns to its caller's %o7 + 8 ("ret" after its "save"
 * jumps to %i7 + 8, a leaf's "retl" to %o7 + 8).  The entry hit makes
 * that the trampoline, a "ta 0x70" that no probe site owns: kprobe_trap()
 * hands it to kprobe_sparc_kretprobe_return(), which runs the handlers in
 * the trap and returns from it to the real address.
 */
#include "sparc-kprobes.h"

/* A return goes 8 bytes past the return address register. */
#define KPROBE_SPARC_RET_OFFSET		8

/**
 * arch_prepare_kretprobe() - divert a function's return to the trampoline
 * @ri: the instance tracking this call
 * @regs: registers at the function's entry, before its "save": the
 *	return address is the caller's %o7, the stack pointer its %o6
 *
 * %sp at entry identifies the call: the function returns with its
 * caller's window, or its own if it is a leaf, and that %sp.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)(regs->u_regs[UREG_RETPC] +
					   KPROBE_SPARC_RET_OFFSET);
	ri->fp = (void *)regs->u_regs[UREG_FP];
	regs->u_regs[UREG_RETPC] = (unsigned long)kretprobe_trampoline_addr() -
				   KPROBE_SPARC_RET_OFFSET;
}

NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/**
 * kprobe_sparc_kretprobe_return() - the trampoline's trap
 * @regs: registers at the trampoline: the returning function's results
 *	in %o0 and %o1, its %sp at entry in %o6
 *
 * kretprobe_trampoline_handler() points %tpc and %tnpc at the real
 * return address before the handlers run; the trap returns there.
 */
void kprobe_sparc_kretprobe_return(struct pt_regs *regs)
{
	unsigned long ret;

	ret = kretprobe_trampoline_handler(regs,
					   (void *)regs->u_regs[UREG_FP]);
	instruction_pointer_set(regs, ret);
}

NOKPROBE_SYMBOL(kprobe_sparc_kretprobe_return);
