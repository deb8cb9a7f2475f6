/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpbench_targets.S - probe targets of known shape for the kprobes
 * benchmark.  Written in assembly so that both kernels under comparison
 * probe byte-identical code: no fentry call, no endbr, no compiler choices.
 *
 * Every target is "long f(long a, long b)".  The functions are laid out
 * back to back with no alignment padding between them, because kallsyms
 * derives a module symbol's size from the next symbol: the size of each
 * function is exactly what is written here, which is what decides whether
 * a probe can be jump-optimized (it needs 5 bytes of the function).
 *
 * x86-64, i386, riscv64, powerpc (ppc64le, ppc32), arm64, s390, mips,
 * 32-bit ARM, parisc and sparc64 each have their instructions for the
 * shapes below.  riscv's are all 4 bytes (no compressed forms): one shape,
 * one size, whatever the assembler would have chosen; so are powerpc's
 * (which, using no TOC, need no global entry point: the symbol is the
 * function's only entry) and arm64's; with ARM64_BTI_KERNEL (arm64-bti,
 * built with clang) each function opens with "bti c", its landing pad for
 * kpbench's calls through pointers, which a function-entry probe goes
 * past, so that it is on the same instruction as in a kernel
 * without.  s390's are 4 bytes each (lgr, agr; the return is the 2-byte "br
 * %r14"), the functions halfword-aligned.  mips (32-bit) returns with "jr
 * ra" and a nop in its delay slot, and has no "ret" alias.  32-bit ARM uses
 * the ARM instruction set and caller-saved registers only.  parisc (32-bit)
 * and sparc64 return through a delayed branch too ("bv %r0(%rp)", "retl"),
 * a nop in its slot; parisc separates statements with ASM_NL ("!"), where
 * ";" opens a comment, and sparc64's leaf functions keep to the caller's
 * %o registers (no register window of their own).
 */
#include <linux/linkage.h>
#ifdef CONFIG_MIPS
#include <asm/regdef.h>
#endif

	.text
#ifdef CONFIG_RISCV
	.option norvc
	.balign	4	/* a jal (jump optimization) needs aligned words */
#endif
#ifdef CONFIG_MIPS
	.set	noreorder	/* the delay slots are written out */
#endif

/* The return instruction. */
#ifdef CONFIG_PPC
#define KPB_RET	blr
#elif defined(CONFIG_S390)
#define KPB_RET	br	%r14
#elif defined(CONFIG_MIPS)
#define KPB_RET	jr ra; nop
#elif defined(CONFIG_ARM)
#define KPB_RET	bx	lr
#elif defined(CONFIG_PARISC)
#define KPB_RET	bv	%r0(%rp) ASM_NL nop
#elif defined(CONFIG_SPARC64)
#define KPB_RET	retl ASM_NL nop
#else
#define KPB_RET	ret
#endif

/*
 * Open a function named \name without padding in front of it.  "@" starts
 * a comment in 32-bit ARM assembly, where the type is "%function".
 */
.macro kpb_func name
	.globl \name
#ifdef CONFIG_ARM
	.type \name, %function
#else
	.type \name, @function
#endif
\name:
#ifdef CONFIG_ARM64_BTI_KERNEL
	bti	c
#endif
.endm

.macro kpb_endfunc name
	.size \name, . - \name
.endm

/*
 * Optimizable shape: 12 bytes of register moves and adds, then ret.  A
 * probe at offset 0 without a post_handler can become a jump.  On i386
 * (regparm(3): a in %eax, b in %edx) the same 12 bytes are six 2-byte
 * instructions; riscv and arm64 have four instructions, each of
 * which can take a jump.
 */
.macro kpb_movs name
	kpb_func \name
#ifdef CONFIG_X86_64
	movq	%rdi, %rax
	movq	%rsi, %rdx
	movq	%rdx, %rcx
	addq	%rcx, %rax
#elif defined(CONFIG_X86_32)
	movl	%eax, %eax
	movl	%edx, %edx
	movl	%edx, %ecx
	movl	%ecx, %ecx
	addl	%ecx, %eax
	movl	%eax, %eax
#elif defined(CONFIG_PPC)
	mr	5, 3
	mr	6, 4
	mr	7, 6
	add	3, 5, 7
#elif defined(CONFIG_ARM64)
	mov	x5, x0
	mov	x4, x1
	mov	x3, x4
	add	x0, x5, x3
#elif defined(CONFIG_S390)
	lgr	%r5,%r2
	lgr	%r1,%r3
	lgr	%r2,%r5
	agr	%r2,%r1
#elif defined(CONFIG_MIPS)
	move	t0, a0
	move	t1, a1
	move	t2, t1
	addu	v0, t0, t2
#elif defined(CONFIG_ARM)
	mov	r2, r0
	mov	r3, r1
	mov	r12, r3
	add	r0, r2, r12
#elif defined(CONFIG_PARISC)
	copy	%r26, %r20
	copy	%r25, %r21
	copy	%r21, %r22
	add	%r20, %r22, %r28
#elif defined(CONFIG_SPARC64)
	mov	%o0, %o5
	mov	%o1, %o4
	mov	%o4, %o3
	add	%o5, %o3, %o0
#else
	mv	a5, a0
	mv	a4, a1
	mv	a3, a4
	add	a0, a5, a3
#endif
	KPB_RET
	kpb_endfunc \name
.endm

	.p2align 6
	kpb_movs kpb_t_plain		/* never probed: the reference cost */
	kpb_movs kpb_t_k		/* int3 + single step (post_handler) */
	kpb_movs kpb_t_o		/* optimized */
	kpb_movs kpb_t_ro		/* kretprobe, optimizable entry */
	kpb_movs kpb_t_kr		/* kprobe + kretprobe */
	kpb_movs kpb_t_scale		/* int3 probe, with N others around */

/*
 * Boostable, not optimizable: 3 bytes of mov (2 on i386), then ret; less
 * function from the probe on than a jump needs.
 */
.macro kpb_short name
	kpb_func \name
#ifdef CONFIG_X86_64
	movq	%rdi, %rax
#elif defined(CONFIG_X86_32)
	movl	%eax, %eax
#elif defined(CONFIG_PPC)
	mr	3, 3
#elif defined(CONFIG_ARM64)
	mov	x0, x0
#elif defined(CONFIG_S390)
	lgr	%r2,%r2
#elif defined(CONFIG_MIPS)
	move	v0, a0
#elif defined(CONFIG_ARM)
	mov	r0, r0
#elif defined(CONFIG_PARISC)
	copy	%r26, %r28
#elif defined(CONFIG_SPARC64)
	mov	%o0, %o0
#else
	mv	a0, a0
#endif
	KPB_RET
	kpb_endfunc \name
.endm

	kpb_short kpb_t_short_plain	/* never probed */
	kpb_short kpb_t_b		/* boosted */
	kpb_short kpb_t_r		/* kretprobe, boosted entry */

/*
 * Mass-registration targets: KPB_MASS_FUNCS (kpbench.h) functions
 * "nop; ret", kpb_m0 ... kpb_m10239, back to back (kpb_m1 - kpb_m0 apart),
 * one probe on each nop.
 * Separate small functions rather than one long run of nops: a probe's
 * address is checked by decoding its function from the start, which would
 * make one huge function quadratic in the number of probes.
 */
.macro kpb_mass_func n
	kpb_func kpb_m\n
	nop
	KPB_RET
	kpb_endfunc kpb_m\n
.endm

	/* No padding: it would count as part of kpb_t_r (see above). */
	.altmacro
	.set kpb_i, 0
	.rept 10240
	kpb_mass_func %kpb_i
	.set kpb_i, kpb_i + 1
	.endr
	.noaltmacro
