/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the "kprobes_opt" KUnit suite (kprobes_opt_kunit.c), in
 * assembly so that their shape does not depend on the compiler.  Only
 * kprobes_opt_kunit.c includes this, once.
 */
#ifndef _KPROBES_OPT_KUNIT_H
#define _KPROBES_OPT_KUNIT_H

#include <linux/objtool.h>
#include <linux/types.h>
#include <asm/ibt.h>
#include <asm/linkage.h>
#include <asm/nospec-branch.h>

/* A local function in .text: ENDBR (with IBT), @body, a return. */
#define KPOPT_FUNC(name, body)						\
	asm(".pushsection .text, \"ax\"\n"				\
	    ".p2align 4, 0xcc\n"					\
	    ".type " #name ", @function\n"				\
	    #name ":\n\t"						\
	    ASM_ENDBR							\
	    body							\
	    ASM_RET							\
	    ".size " #name ", . - " #name "\n"				\
	    ".popsection\n")

#ifdef CONFIG_X86_64
/* ((x + 0x11) * 3) ^ 0x5a5a; the first two make a 7-byte region. */
KPOPT_FUNC(kpopt_good,
	   "movq %rdi, %rax\n\t"
	   "addq $0x11, %rax\n\t"
	   "imulq $3, %rax, %rax\n\t"
	   "xorq $0x5a5a, %rax\n\t");

/* The region is one rip-relative load, re-aimed in the detour. */
asm(".pushsection .data\n"
	".p2align 3\n"
	"kpopt_rip_data: .quad 1000\n"
	".popsection\n");

KPOPT_FUNC(kpopt_rip,
	   "movq kpopt_rip_data(%rip), %rax\n\t"
	   "addq %rdi, %rax\n\t");

/* x + 8: the call is inside the region of a probe at the entry. */
KPOPT_FUNC(kpopt_leaf,
	   "leaq 7(%rax), %rax\n\t");

KPOPT_FUNC(kpopt_call,
	   "movq %rdi, %rax\n\t"
	   "call kpopt_leaf\n\t"
	   "addq $1, %rax\n\t");

/* Adds 2 until >= 100: the loop jumps back to the second instruction. */
KPOPT_FUNC(kpopt_jump_in,
	   "movq %rdi, %rax\n"
	   "1:\taddq $2, %rax\n\t"
	   "cmpq $100, %rax\n\t"
	   "jl 1b\n\t");

/* (x + 7) * 5, half of the time through "jmp *%rcx". */
KPOPT_FUNC(kpopt_indirect,
	   "movq %rdi, %rax\n\t"
	   "addq $7, %rax\n\t"
	   "testq $1, %rax\n\t"
	   "jnz 2f\n\t"
	   "leaq 2f(%rip), %rcx\n\t"
	   ANNOTATE_RETPOLINE_SAFE
	   "jmp *%rcx\n"
	   "2:\t"
	   ASM_ENDBR
	   "imulq $5, %rax, %rax\n\t");

/*
 * kpopt_invoke(fn, x) calls fn(x) from a known place: a probe anywhere in
 * a target (none of them pushes anything) finds kpopt_invoke_ret at the
 * top of the stack, which checks pt_regs::sp exactly.
 */
asm(".pushsection .text, \"ax\"\n"
	".p2align 4, 0xcc\n"
	".type kpopt_invoke, @function\n"
	"kpopt_invoke:\n\t"
	ASM_ENDBR
	"movq %rdi, %rax\n\t"
	"movq %rsi, %rdi\n\t"
	ANNOTATE_RETPOLINE_SAFE
	"call *%rax\n"
	"kpopt_invoke_ret:\n\t"
	ANNOTATE_NOENDBR
	ASM_RET
	".size kpopt_invoke, . - kpopt_invoke\n"
	".popsection\n");

#else /* !CONFIG_X86_64 */

/*
 * i386: the same functions with the argument and the result in %eax
 * (regparm(3)).  No rip-relative addressing: kpopt_rip loads through an
 * absolute address, which the detour's copy uses as it is.
 */
/*
 * ((x + 0x11) * 3) ^ 0x5a5a; the first two make a 6-byte region, and the
 * second starts 3 bytes in, as on x86-64.
 */
KPOPT_FUNC(kpopt_good,
	   "addl $0x10, %eax\n\t"
	   "addl $0x1, %eax\n\t"
	   "imull $3, %eax, %eax\n\t"
	   "xorl $0x5a5a, %eax\n\t");

asm(".pushsection .data\n"
	".p2align 2\n"
	"kpopt_rip_data: .long 1000\n"
	".popsection\n");

KPOPT_FUNC(kpopt_rip,
	   "addl kpopt_rip_data, %eax\n\t");

/* x + 8: the call is inside the region of a probe at the entry. */
KPOPT_FUNC(kpopt_leaf,
	   "leal 7(%eax), %eax\n\t");

KPOPT_FUNC(kpopt_call,
	   "call kpopt_leaf\n\t"
	   "addl $1, %eax\n\t");

/* Adds 2 until >= 100: the loop jumps back to the second instruction. */
KPOPT_FUNC(kpopt_jump_in,
	   "movl %eax, %eax\n"
	   "1:\taddl $2, %eax\n\t"
	   "cmpl $100, %eax\n\t"
	   "jl 1b\n\t");

/* (x + 7) * 5, half of the time through "jmp *%ecx". */
KPOPT_FUNC(kpopt_indirect,
	   "movl %eax, %eax\n\t"
	   "addl $7, %eax\n\t"
	   "testl $1, %eax\n\t"
	   "jnz 2f\n\t"
	   "movl $2f, %ecx\n\t"
	   ANNOTATE_RETPOLINE_SAFE
	   "jmp *%ecx\n"
	   "2:\t"
	   ASM_ENDBR
	   "imull $5, %eax, %eax\n\t");

/* kpopt_invoke(fn, x): fn in %eax, x in %edx. */
asm(".pushsection .text, \"ax\"\n"
	".p2align 4, 0xcc\n"
	".type kpopt_invoke, @function\n"
	"kpopt_invoke:\n\t"
	ASM_ENDBR
	"movl %eax, %ecx\n\t"
	"movl %edx, %eax\n\t"
	ANNOTATE_RETPOLINE_SAFE
	"call *%ecx\n"
	"kpopt_invoke_ret:\n\t"
	ANNOTATE_NOENDBR
	ASM_RET
	".size kpopt_invoke, . - kpopt_invoke\n"
	".popsection\n");

#endif /* CONFIG_X86_64 */

typedef long (*kpopt_fn_t)(long);

long kpopt_invoke(kpopt_fn_t fn, long x);
extern const u8 kpopt_invoke_ret[];
long kpopt_good(long x);
long kpopt_rip(long x);
long kpopt_call(long x);
long kpopt_jump_in(long x);
long kpopt_indirect(long x);
extern long kpopt_rip_data;

#endif /* _KPROBES_OPT_KUNIT_H */
