/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The struct pt_regs frame of the kprobes trampolines (post_trampoline.S,
 * opt_detour.S, ftrace_tramp.S, kretprobe_trampoline.S).
 *
 * KPROBE_PUSH_GPRS / KPROBE_POP_GPRS push and pop the general-purpose
 * part, in struct pt_regs' order from di down to r15 (on i386 from gs down
 * to bx), so that after KPROBE_PUSH_GPRS the stack pointer is a struct
 * pt_regs *.
 *
 * KPROBE_PUSH_PTREGS builds the whole frame below the stack pointer, as
 * an int3 at the probed context would show it:
 *
 *	probed sp:	\above words right above ss, already on the stack
 *			(a call's return address, an unwinder frame the
 *			trampoline pushed)
 *	pt_regs:	ss = __KERNEL_DS, sp = the probed sp, flags as they
 *			are, cs = __KERNEL_CS, ip = \ip (if given; with
 *			\ip_above the lowest of the \above words, a return
 *			address; else left for the caller), orig_ax = -1,
 *			the general registers
 *
 * It changes no register but the flags, after it has saved them.  Its
 * first part, KPROBE_PUSH_IRET_FRAME \above, pushes ss, sp, the flags and
 * cs, for a trampoline that pushes the words above itself.
 * KPROBE_POP_PTREGS \room takes the frame down again: every general
 * register and the flags from pt_regs, and the stack pointer back to the
 * \above words, or over \room of them too.  What the trampolines fill
 * in between (ip, the unwinders' frame) and their unwind hints stay with
 * them.
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

/*
 * "pushq %rsp" pushes the value from before the push, the address of ss:
 * sp is fixed up once the flags are saved.
 */
.macro KPROBE_PUSH_IRET_FRAME above
	pushq	$__KERNEL_DS
	pushq	%rsp
	pushfq
	addq	$8 + 8 * \above, 8(%rsp)
	pushq	$__KERNEL_CS
.endm

.macro KPROBE_PUSH_PTREGS above=1 ip ip_above=0
	KPROBE_PUSH_IRET_FRAME \above
	.ifnb \ip
	pushq	$\ip
	.elseif \ip_above
	/* The word right above ss, four words up. */
	pushq	32(%rsp)
	.else
	leaq	-8(%rsp), %rsp
	.endif
	pushq	$-1
	KPROBE_PUSH_GPRS
.endm

.macro KPROBE_POP_PTREGS room=0
	KPROBE_POP_GPRS
	/* Over orig_ax, ip and cs to the flags; then over sp, ss, \room. */
	leaq	24(%rsp), %rsp
	popfq
	leaq	16 + 8 * \room(%rsp), %rsp
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

.macro KPROBE_PUSH_IRET_FRAME above
	pushl	$__KERNEL_DS
	pushl	%esp
	pushfl
	addl	$4 + 4 * \above, 4(%esp)
	pushl	$__KERNEL_CS
.endm

.macro KPROBE_PUSH_PTREGS above=1 ip ip_above=0
	KPROBE_PUSH_IRET_FRAME \above
	.ifnb \ip
	pushl	$\ip
	.elseif \ip_above
	/* The word right above ss, four words up. */
	pushl	16(%esp)
	.else
	leal	-4(%esp), %esp
	.endif
	pushl	$-1
	KPROBE_PUSH_GPRS
.endm

.macro KPROBE_POP_PTREGS room=0
	KPROBE_POP_GPRS
	/* Over orig_ax, ip and cs to the flags; then over sp, ss, \room. */
	leal	12(%esp), %esp
	popfl
	leal	8 + 4 * \room(%esp), %esp
.endm
#endif /* CONFIG_X86_64 */

#endif /* __ASSEMBLY__ */

#endif /* _X86_KPROBES_REGS_MACROS_S */
