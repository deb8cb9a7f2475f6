/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86's targets of the "kprobes_optimize" KUnit suite (optimize.c;
 * optimize_x86.c says what each is for), in assembly so that their shape
 * does not depend on the compiler: which instructions a jump at a probe
 * covers, where a branch lands, what a detour must re-aim.  Each is
 * "long f(long x)" (x86-64: x in %rdi, i386: regparm(3), x in %eax), laid
 * out on its own 16 bytes with int3 padding, so that decoding a target
 * stops at its end.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>

/* A global function in .text: ENDBR (with IBT), then its body. */
.macro kpopt_func name
	.p2align 4, 0xcc
	.globl \name
	.type \name, @function
\name:
	ENDBR
.endm

.macro kpopt_endfunc name
	RET
	.size \name, . - \name
.endm

	.text
#ifdef CONFIG_X86_64

/* ((x + 0x11) * 3) ^ 0x5a5a; the first two make a 7-byte region. */
kpopt_func kpopt_good
	movq	%rdi, %rax
	addq	$0x11, %rax
	imulq	$3, %rax, %rax
	xorq	$0x5a5a, %rax
kpopt_endfunc kpopt_good

/* The region is one rip-relative load, re-aimed in the detour. */
kpopt_func kpopt_rip
	movq	kpopt_rip_data(%rip), %rax
	addq	%rdi, %rax
kpopt_endfunc kpopt_rip

/* x + 8: the call is inside the region of a probe at the entry. */
kpopt_func kpopt_leaf
	leaq	7(%rax), %rax
kpopt_endfunc kpopt_leaf

kpopt_func kpopt_call
	movq	%rdi, %rax
	call	kpopt_leaf
	addq	$1, %rax
kpopt_endfunc kpopt_call

/* Adds 2 until >= 100: the loop jumps back to the second instruction. */
kpopt_func kpopt_jump_in
	movq	%rdi, %rax
1:	addq	$2, %rax
	cmpq	$100, %rax
	jl	1b
kpopt_endfunc kpopt_jump_in

/* (x + 7) * 5, half of the time through "jmp *%rcx". */
kpopt_func kpopt_indirect
	movq	%rdi, %rax
	addq	$7, %rax
	testq	$1, %rax
	jnz	2f
	leaq	2f(%rip), %rcx
	ANNOTATE_RETPOLINE_SAFE
	jmp	*%rcx
2:	ENDBR
	imulq	$5, %rax, %rax
kpopt_endfunc kpopt_indirect

/*
 * kpopt_invoke(fn, x) calls fn(x) from a known place: a probe anywhere in
 * a target (none of them pushes anything) finds kpopt_invoke_ret at the
 * top of the stack, which checks pt_regs::sp exactly.
 */
kpopt_func kpopt_invoke
	movq	%rdi, %rax
	movq	%rsi, %rdi
	ANNOTATE_RETPOLINE_SAFE
	call	*%rax
.Lkpopt_invoke_ret:
	ANNOTATE_NOENDBR
kpopt_endfunc kpopt_invoke

	.pushsection .data
	.p2align 3
	.globl kpopt_rip_data
kpopt_rip_data:
	.quad	1000
	.globl kpopt_invoke_ret_addr
kpopt_invoke_ret_addr:
	.quad	.Lkpopt_invoke_ret
	.popsection

#else /* !CONFIG_X86_64 */

/*
 * i386: no rip-relative addressing, kpopt_rip loads through an absolute
 * address, which the detour's copy uses as it is.  The first two
 * instructions of kpopt_good make a 6-byte region, and the second starts
 * 3 bytes in, as on x86-64.
 */
kpopt_func kpopt_good
	addl	$0x10, %eax
	addl	$0x1, %eax
	imull	$3, %eax, %eax
	xorl	$0x5a5a, %eax
kpopt_endfunc kpopt_good

kpopt_func kpopt_rip
	addl	kpopt_rip_data, %eax
kpopt_endfunc kpopt_rip

kpopt_func kpopt_leaf
	leal	7(%eax), %eax
kpopt_endfunc kpopt_leaf

kpopt_func kpopt_call
	call	kpopt_leaf
	addl	$1, %eax
kpopt_endfunc kpopt_call

kpopt_func kpopt_jump_in
	movl	%eax, %eax
1:	addl	$2, %eax
	cmpl	$100, %eax
	jl	1b
kpopt_endfunc kpopt_jump_in

kpopt_func kpopt_indirect
	movl	%eax, %eax
	addl	$7, %eax
	testl	$1, %eax
	jnz	2f
	movl	$2f, %ecx
	ANNOTATE_RETPOLINE_SAFE
	jmp	*%ecx
2:	ENDBR
	imull	$5, %eax, %eax
kpopt_endfunc kpopt_indirect

/* kpopt_invoke(fn, x): fn in %eax, x in %edx. */
kpopt_func kpopt_invoke
	movl	%eax, %ecx
	movl	%edx, %eax
	ANNOTATE_RETPOLINE_SAFE
	call	*%ecx
.Lkpopt_invoke_ret:
	ANNOTATE_NOENDBR
kpopt_endfunc kpopt_invoke

	.pushsection .data
	.p2align 2
	.globl kpopt_rip_data
kpopt_rip_data:
	.long	1000
	.globl kpopt_invoke_ret_addr
kpopt_invoke_ret_addr:
	.long	.Lkpopt_invoke_ret
	.popsection

#endif /* CONFIG_X86_64 */
