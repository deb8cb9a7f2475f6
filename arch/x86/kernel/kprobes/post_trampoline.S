/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The post trampoline (x86-64 and i386): the end of a step without a trap.
 *
 * The post copy of a boostable instruction (see the slot layout in
 * <asm/kprobes.h>) is "insn; call kprobe_post_trampoline".
 * The CPU runs it in state STEPPING with EFLAGS.IF clear, so it arrives
 * here with every register as the probed instruction left it, interrupts
 * off, and the call's return address pointing right after the call, into
 * the slot.  The trampoline saves the registers as a struct pt_regs, with
 * that return address as ip, and calls kprobe_post_trampoline_handler(),
 * which makes them what the trailing int3 of a stepped copy would show
 * (ip = next: the address of the instruction after the probed one, from
 * the site in kprobe_ctlblk), runs the post handler and restores IF in
 * pt_regs.  The
 * trampoline restores every register and the flags, and returns to
 * pt_regs::ip through the word that held the return address.  Nothing is
 * left on the stack.
 *
 * Stack while the handler runs (higher addresses first):
 *
 *	probe sp:	the probed function's stack, untouched
 *	-8:		the call's return address, replaced by next; the
 *			trampoline's ret pops it
 *	-16:		struct pt_regs: ss, sp (= probe sp), flags, cs,
 *			ip (the return address, then next), orig_ax (-1),
 *			then the general registers
 *	%rsp:		pt_regs::r15
 *
 * To the ORC unwinder pt_regs is at %rsp from the moment ip is in it
 * until the handler has returned: a stack trace taken by the post handler
 * goes on at the probed function, right after the probed instruction
 * (one taken before the handler set ip meets the slot and stops there).
 * With frame pointers, %rbp holds the encoded pt_regs pointer meanwhile.
 *
 * i386 is the same with 4-byte words: pt_regs runs from ss down to bx
 * (the data segment registers are saved, never reloaded) and the handler
 * takes pt_regs in %eax (regparm).
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/frame.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/smap.h>
#include <asm/unwind_hints.h>

#include "regs-macros.S"

	.section .text, "ax"

#ifdef CONFIG_X86_64
	.code64

SYM_CODE_START(kprobe_post_trampoline)
	/* Called directly from a slot, which has no ORC data: no ENDBR. */
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR

	/*
	 * struct pt_regs below the return address, ip = the return address
	 * (the handler sets it); the flags as the copy left them (IF clear:
	 * the CPU stepped with it clear).
	 */
	KPROBE_PUSH_PTREGS ip_above=1
	/* An int3 enters its handler with EFLAGS.AC clear; so do we. */
	ASM_CLAC
	ENCODE_FRAME_POINTER
	UNWIND_HINT_REGS

	movq	%rsp, %rdi
	call	kprobe_post_trampoline_handler
	/* A post handler may have moved ip: return there. */
	movq	RIP(%rsp), %rax
	movq	%rax, FRAME_SIZE(%rsp)
	/* From here on the stack unwinds like the probed context: unknown. */
	UNWIND_HINT_UNDEFINED

	/*
	 * The flags turn IF back on; down to the word that now holds
	 * pt_regs::ip.
	 */
	KPROBE_POP_PTREGS
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(kprobe_post_trampoline)
/* For objtool, which only runs on x86-64: no standard frame here. */
STACK_FRAME_NON_STANDARD_FP kprobe_post_trampoline

#else /* !CONFIG_X86_64 */

SYM_CODE_START(kprobe_post_trampoline)
	ANNOTATE_NOENDBR

	/* pt_regs, ip = the return address, the flags as the copy left them. */
	KPROBE_PUSH_PTREGS ip_above=1
	/* An int3 enters its handler with EFLAGS.AC clear; so do we. */
	ASM_CLAC
	ENCODE_FRAME_POINTER

	movl	%esp, %eax
	call	kprobe_post_trampoline_handler
	/* A post handler may have moved ip: return there. */
	movl	PT_EIP(%esp), %eax
	movl	%eax, PTREGS_SIZE(%esp)

	/* IF back on; down to the word that now holds pt_regs::ip. */
	KPROBE_POP_PTREGS
	RET
SYM_CODE_END(kprobe_post_trampoline)

#endif /* CONFIG_X86_64 */
_ASM_NOKPROBE(kprobe_post_trampoline)
