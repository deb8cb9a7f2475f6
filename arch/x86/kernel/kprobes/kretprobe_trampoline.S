/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (x86-64 and i386).
 *
 * arch_prepare_kretprobe() put this symbol in place of a return address,
 * so the probed function's ret lands on the first instruction with %rsp
 * one word above the slot that held the return address (ri->fp).  The
 * trampoline saves the registers as a struct pt_regs, calls the core's
 * kretprobe_trampoline_handler() with pt_regs and the slot's address,
 * writes the real return address it returns back into the slot and
 * returns through it, with every register (and the flags) as the probed
 * function left them, unless a handler changed them in pt_regs.
 * Interrupts stay as the probed function left them (documented: on x86
 * return handlers may run with interrupts on); the handler's busy section
 * keeps an interrupt that hits a probe meanwhile from pushing an instance
 * on this task's list.  The handler sets regs->ip to the real return
 * address before the return handlers run, so that they and any unwinder
 * started from pt_regs see where the function returns to.
 *
 * Stack while the handler runs (higher addresses first):
 *
 *	ri->fp:	return address slot, the trampoline's address until the
 *		handler has returned the real one
 *		struct pt_regs: ss, sp (= ri->fp + 8), flags, cs,
 *		ip (the trampoline; the handler sets the real address),
 *		orig_ax (-1), then the general registers
 *	%rsp:	pt_regs::r15
 *
 * To the ORC unwinder this is a function frame whose return address is
 * the trampoline; it finds the real one with kretprobe_find_ret_addr()
 * (see asm/unwind.h), also when interrupted on the first instruction.
 * With frame pointers, %rbp holds the encoded pt_regs pointer.
 *
 * i386 is the same with 4-byte words: pt_regs runs from ss down to bx
 * (the data segment registers are saved, never reloaded), the handler
 * takes its arguments in %eax and %edx (regparm), and the frame-pointer
 * unwinder (32-bit has no ORC) finds the encoded pt_regs pointer in %ebp.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/frame.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

#include "regs-macros.S"

	.section .text, "ax"

#ifdef CONFIG_X86_64
	.code64

SYM_CODE_START(arch_kretprobe_trampoline)
	/* Entered by a ret, never by an indirect branch: no ENDBR. */
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR

	/* Take the popped slot back; the real return address goes there. */
	pushq	$arch_kretprobe_trampoline
	UNWIND_HINT_FUNC

	/* struct pt_regs below the slot; flags before anything changes them. */
	KPROBE_PUSH_PTREGS ip=arch_kretprobe_trampoline
	ENCODE_FRAME_POINTER

	movq	%rsp, %rdi
	/* The slot, right above pt_regs: regs->sp - 8. */
	leaq	FRAME_SIZE(%rsp), %rsi
	call	kretprobe_trampoline_handler
	movq	%rax, FRAME_SIZE(%rsp)

	KPROBE_POP_PTREGS
	RET
SYM_CODE_END(arch_kretprobe_trampoline)
/* For objtool, which only runs on x86-64: no standard frame here. */
STACK_FRAME_NON_STANDARD_FP arch_kretprobe_trampoline

#else /* !CONFIG_X86_64 */

SYM_CODE_START(arch_kretprobe_trampoline)
	ANNOTATE_NOENDBR

	/* Take the popped slot back; the real return address goes there. */
	pushl	$arch_kretprobe_trampoline

	/* struct pt_regs below the slot; flags before anything changes them. */
	KPROBE_PUSH_PTREGS ip=arch_kretprobe_trampoline
	ENCODE_FRAME_POINTER

	movl	%esp, %eax
	leal	PTREGS_SIZE(%esp), %edx
	call	kretprobe_trampoline_handler
	movl	%eax, PTREGS_SIZE(%esp)

	KPROBE_POP_PTREGS
	RET
SYM_CODE_END(arch_kretprobe_trampoline)

#endif /* CONFIG_X86_64 */
_ASM_NOKPROBE(arch_kretprobe_trampoline)
