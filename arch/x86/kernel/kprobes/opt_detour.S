/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The template of an optimized probe's detour (x86-64 and i386).
 *
 * opt.c copies this code into a detour buffer, fills in the three
 * per-probe values (see kprobe_detour_layout below) and appends the
 * relocated copy of the probed region and a jump back after it.  The
 * template itself is never executed where it is linked.
 *
 * A detour is entered by the "jmp rel32" that replaced the probed
 * instruction, with every register as it was at the probe address.  It
 * builds a struct pt_regs as an int3 would show it, calls
 * arch_optprobe_handler() with interrupts as the probed context had them
 * (the handler disables preemption), restores every register (and the
 * flags) from the pt_regs, and falls through to the copy of the region.
 *
 * Stack while the handler runs (higher addresses first):
 *
 *	probe sp:	the probed function's stack, untouched
 *	-8:		probe address + 1   \  a frame for unwinders that have
 *	-16:		the probed %rbp     /  no ORC data for the detour:
 *					       %rbp points here
 *	-24:		struct pt_regs: ss, sp (= probe sp), flags, cs,
 *			ip (= probe address + 1), orig_ax (-1), then the
 *			general registers
 *	%rsp:		pt_regs::r15
 *
 * ORC data of the template describes the template, not its copies, and
 * no unwinder ever looks at the template.  It is kept true for objtool
 * anyway: nothing is known of the stack on entry and after the call, and
 * pt_regs is at %rsp in between.
 *
 * i386 builds the same frame with 4-byte words: the per-probe values are
 * "movl $imm32" (the last 4 bytes), pt_regs runs from ss down to bx (the
 * data segment registers are saved, never reloaded), and the handler takes
 * its arguments in %eax and %edx (regparm).
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

SYM_CODE_START_NOALIGN(kprobe_detour_template)
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR

	/*
	 * Room for the unwinders' frame and for pt_regs::ss and ::sp: lea
	 * leaves the flags alone, and they go into pt_regs next.
	 */
	leaq	-32(%rsp), %rsp
	pushfq
	pushq	$__KERNEL_CS
	/* pt_regs::ip and ::orig_ax are filled in below */
	leaq	-16(%rsp), %rsp
	KPROBE_PUSH_GPRS
	UNWIND_HINT_REGS
	/* An int3 enters its handler with EFLAGS.AC clear; so do we. */
	ASM_CLAC

	movq	%rbp, FRAME_SIZE(%rsp)
	leaq	FRAME_SIZE(%rsp), %rbp
	leaq	16(%rbp), %rax
	movq	%rax, RSP(%rsp)
	movq	$__KERNEL_DS, SS(%rsp)
	movq	$-1, ORIG_RAX(%rsp)

	/* Per probe: the address after its (virtual) int3. */
	movabsq	$0, %rax
.Ldetour_ip_end:
	movq	%rax, RIP(%rsp)
	movq	%rax, 8(%rbp)

	/* Per probe: its struct kprobe_opt. */
	movabsq	$0, %rdi
.Ldetour_opt_end:
	movq	%rsp, %rsi
	/* Per probe: re-aimed from the detour buffer. */
	call	arch_optprobe_handler
.Ldetour_call_end:
	/* From here on the stack unwinds like the probed context: unknown. */
	UNWIND_HINT_UNDEFINED

	KPROBE_POP_GPRS
	/* Over orig_ax, ip and cs to the flags. */
	leaq	24(%rsp), %rsp
	popfq
	/* Over sp, ss and the unwinders' frame: back at the probe's sp. */
	leaq	32(%rsp), %rsp
.Ldetour_end:
	/* The copy of the region goes here in a detour; never reached here. */
	ud2
SYM_CODE_END(kprobe_detour_template)
/* For objtool, which only runs on x86-64: no standard frame here. */
STACK_FRAME_NON_STANDARD_FP kprobe_detour_template

#else /* !CONFIG_X86_64 */

SYM_CODE_START_NOALIGN(kprobe_detour_template)
	ANNOTATE_NOENDBR

	/* The unwinders' frame, pt_regs::ss and ::sp; flags next. */
	leal	-16(%esp), %esp
	pushfl
	pushl	$__KERNEL_CS
	/* pt_regs::ip and ::orig_ax are filled in below */
	leal	-8(%esp), %esp
	KPROBE_PUSH_GPRS
	/* An int3 enters its handler with EFLAGS.AC clear; so do we. */
	ASM_CLAC

	movl	%ebp, PTREGS_SIZE(%esp)
	leal	PTREGS_SIZE(%esp), %ebp
	leal	8(%ebp), %eax
	movl	%eax, PT_OLDESP(%esp)
	movl	$__KERNEL_DS, PT_OLDSS(%esp)
	movl	$-1, PT_ORIG_EAX(%esp)

	/* Per probe: the address after its (virtual) int3. */
	movl	$0, %eax
.Ldetour_ip_end:
	movl	%eax, PT_EIP(%esp)
	movl	%eax, 4(%ebp)

	/* Per probe: its struct kprobe_opt. */
	movl	$0, %eax
.Ldetour_opt_end:
	movl	%esp, %edx
	/* Per probe: re-aimed from the detour buffer. */
	call	arch_optprobe_handler
.Ldetour_call_end:

	KPROBE_POP_GPRS
	/* Over orig_ax, ip and cs to the flags. */
	leal	12(%esp), %esp
	popfl
	/* Over sp, ss and the unwinders' frame: back at the probe's sp. */
	leal	16(%esp), %esp
.Ldetour_end:
	/* The copy of the region goes here in a detour; never reached here. */
	ud2
SYM_CODE_END(kprobe_detour_template)

#endif /* CONFIG_X86_64 */
_ASM_NOKPROBE(kprobe_detour_template)

/*
 * Where the per-probe values sit in the template: offsets of the ends of
 * the two "movabsq" (their imm64 is the last 8 bytes; on i386 "movl" and
 * imm32), of the end of the
 * call (its rel32 is the last 4), and the template's size.  Differences
 * of labels, so no relocation points into the template's middle.
 */
	.pushsection .rodata
SYM_DATA_START(kprobe_detour_layout)
	.long	.Ldetour_ip_end - kprobe_detour_template
	.long	.Ldetour_opt_end - kprobe_detour_template
	.long	.Ldetour_call_end - kprobe_detour_template
	.long	.Ldetour_end - kprobe_detour_template
SYM_DATA_END(kprobe_detour_layout)
	.popsection
