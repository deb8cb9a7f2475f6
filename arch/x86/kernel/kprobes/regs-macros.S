/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The general-purpose part of a struct pt_regs, pushed and popped by the
 * kprobes trampolines (kretprobe_trampoline.S, opt_detour.S).  The order
 * is struct pt_regs' from di down to r15 (on i386 from gs down to bx), so
 * that after KPROBE_PUSH_GPRS the stack pointer is a struct pt_regs *.
 *
 * Assembler only: included by those .S files, never built on its own.
 */
#ifndef _X86_KPROBES_REGS_MACROS_S
#define _X86_KPROBES_REGS_MACROS_S

#ifdef __ASSEMBLY__
#ifdef CONFIG_X86_64
.macro KPROBE_PUSH_GPRS
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
.endm

.macro KPROBE_POP_GPRS
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
.endm
#else /* !CONFIG_X86_64 */
/*
 * i386: struct pt_regs from gs down to bx.  The data segment registers
 * are saved for handlers that look at them but never reloaded: the
 * trampolines run in the kernel's segments and leave them as they are.
 */
.macro KPROBE_PUSH_GPRS
	pushl	%gs
	pushl	%fs
	pushl	%es
	pushl	%ds
	pushl	%eax
	pushl	%ebp
	pushl	%edi
	pushl	%esi
	pushl	%edx
	pushl	%ecx
	pushl	%ebx
.endm

.macro KPROBE_POP_GPRS
	popl	%ebx
	popl	%ecx
	popl	%edx
	popl	%esi
	popl	%edi
	popl	%ebp
	popl	%eax
	/* Over ds, es, fs and gs. */
	leal	16(%esp), %esp
.endm
#endif /* CONFIG_X86_64 */

#endif /* __ASSEMBLY__ */

#endif /* _X86_KPROBES_REGS_MACROS_S */
