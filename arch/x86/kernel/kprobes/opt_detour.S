/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The template of an optimized probe's detour (x86-64 and i386).
 *
 * opt.c copies this code into a detour buffer, fills in the per-probe
 * values (see kprobe_detour_layout below) and appends the
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
 * Everything is pushed, the two copies of the address included: a kernel
 * text address is a sign-extended 32-bit value on x86-64 (opt.c checks),
 * so "push $imm32" puts it where it belongs in one instruction.
 *
 * ORC data of the template describes the template, not its copies, and
 * no unwinder ever looks at the template.  It is kept true for objtool
 * anyway: nothing is known of the stack on entry and after the call, and
 * pt_regs is at %rsp in between.
 *
 * i386 builds the same frame with 4-byte words: the record is a "movl
 * $imm32" (the last 4 bytes), pt_regs runs from ss down to bx (the data
 * segment registers are saved, never reloaded), and the handler takes its
 * arguments in %eax and %edx (regparm).
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

/*
 * "push $imm32" with a 4-byte immediate whatever its value (the assembler
 * would pick the imm8 form for the template's 0): the same opcode on both
 * word sizes, sign-extended to 64 bits on x86-64.
 */
.macro KPROBE_PUSH_IMM32
	.byte	0x68
	.long	0
.endm

	.section .text, "ax"

#ifdef CONFIG_X86_64
	.code64

SYM_CODE_START_NOALIGN(kprobe_detour_template)
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR

	/*
	 * The unwinders' frame: a return address (per probe, the address
	 * after its virtual int3, as a sign-extended imm32) and %rbp.
	 */
	KPROBE_PUSH_IMM32
.Ldetour_frame_ip_end:
	pushq	%rbp
	/* pt_regs below it (the flags are saved first); ip as above. */
	KPROBE_PUSH_IRET_FRAME above=2
	KPROBE_PUSH_IMM32
.Ldetour_ip_end:
	pushq	$-1
	KPROBE_PUSH_GPRS
	UNWIND_HINT_REGS
	/* An int3 enters its handler with EFLAGS.AC clear; so do we. */
	ASM_CLAC
	leaq	FRAME_SIZE(%rsp), %rbp

	/* Per probe: its struct kprobe_opt. */
	movabsq	$0, %rdi
.Ldetour_opt_end:
	movq	%rsp, %rsi
	/* Per probe: re-aimed from the detour buffer. */
	call	arch_optprobe_handler
.Ldetour_call_end:
	/* From here on the stack unwinds like the probed context: unknown. */
	UNWIND_HINT_UNDEFINED

	/* Over the unwinders' frame too: back at the probe's sp. */
	KPROBE_POP_PTREGS room=2
.Ldetour_end:
	/* The copy of the region goes here in a detour; never reached here. */
	ud2
SYM_CODE_END(kprobe_detour_template)
/* For objtool, which only runs on x86-64: no standard frame here. */
STACK_FRAME_NON_STANDARD_FP kprobe_detour_template

#else /* !CONFIG_X86_64 */

SYM_CODE_START_NOALIGN(kprobe_detour_template)
	ANNOTATE_NOENDBR

	/* The unwinders' frame, then pt_regs: as on x86-64. */
	KPROBE_PUSH_IMM32
.Ldetour_frame_ip_end:
	pushl	%ebp
	KPROBE_PUSH_IRET_FRAME above=2
	KPROBE_PUSH_IMM32
.Ldetour_ip_end:
	pushl	$-1
	KPROBE_PUSH_GPRS
	/* An int3 enters its handler with EFLAGS.AC clear; so do we. */
	ASM_CLAC
	leal	PTREGS_SIZE(%esp), %ebp

	/* Per probe: its struct kprobe_opt. */
	movl	$0, %eax
.Ldetour_opt_end:
	movl	%esp, %edx
	/* Per probe: re-aimed from the detour buffer. */
	call	arch_optprobe_handler
.Ldetour_call_end:

	/* Over the unwinders' frame too: back at the probe's sp. */
	KPROBE_POP_PTREGS room=2
.Ldetour_end:
	/* The copy of the region goes here in a detour; never reached here. */
	ud2
SYM_CODE_END(kprobe_detour_template)

#endif /* CONFIG_X86_64 */
_ASM_NOKPROBE(kprobe_detour_template)

/*
 * Where the per-probe values sit in the template: offsets of the ends of
 * the two pushes of the address (imm32, the last 4 bytes), of the
 * "movabsq" of the record (imm64, the last 8; on i386 "movl" and imm32),
 * of the call (its rel32 is the last 4), and the template's size.
 * Differences of labels, so no relocation points into the template's
 * middle.
 */
	.pushsection .rodata
SYM_DATA_START(kprobe_detour_layout)
	.long	.Ldetour_frame_ip_end - kprobe_detour_template
	.long	.Ldetour_ip_end - kprobe_detour_template
	.long	.Ldetour_opt_end - kprobe_detour_template
	.long	.Ldetour_call_end - kprobe_detour_template
	.long	.Ldetour_end - kprobe_detour_template
SYM_DATA_END(kprobe_detour_layout)
	.popsection
