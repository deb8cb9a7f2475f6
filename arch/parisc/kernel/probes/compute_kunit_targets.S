/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_parisc_compute KUnit suite (compute_kunit.c):
 * "long f(long x)", x in %r26, the result in %r28, leaves.  Each sets
 * %r20 to an operand and %r28 to x + 0x100 (what an instruction that
 * does not write %r28 leaves), runs the instruction under test, whose
 * address kppa_<name>_at holds, and returns.  Statements are one per
 * line: ";" opens a comment in parisc assembly.
 */
#include <linux/linkage.h>

	.text

/* kppa_<name>_at: the address of what follows */
	.macro	at name
	.pushsection .rodata
	.align	4
	.globl	kppa_\name\()_at
kppa_\name\()_at:
	.word	9999f
	.popsection
9999:
	.endm

	.macro	open name
	.globl	kppa_\name
	.type	kppa_\name, @function
kppa_\name:
	.endm

	.macro	close name
	bv	%r0(%rp)
	nop
	.size	kppa_\name, . - kppa_\name
	.endm

/*
 * kppa_<name>: %r20 = \val, %r28 = x + 0x100, then the instruction under test
 * (the line after), then "close": return %r28.  The instruction is not
 * a macro argument: gas on parisc takes a blank as an argument
 * separator and would run the mnemonic into its operands.
 */
	.macro	target name, val
	open	\name
	ldil	L%\val, %r20
	ldo	R%\val(%r20), %r20
	ldo	0x100(%r26), %r28
	at	\name
	.endm

	target	copy, 0
	copy	%r26, %r28
	close	copy
	target	or, 0x100
	or	%r26, %r20, %r28
	close	or
	target	and, 0xff00ff00
	and	%r26, %r20, %r28
	close	and
	target	xor, -1
	xor	%r26, %r20, %r28
	close	xor
	/* ANDCM is r1 & ~r2: both ways round, the operands told apart */
	target	andcm, 1
	andcm	%r26, %r20, %r28
	close	andcm
	target	andcm_r, 0xff
	andcm	%r20, %r26, %r28
	close	andcm_r
	target	addl, 5
	addl	%r26, %r20, %r28
	close	addl
	/* SHLADD,L shifts r1: both ways round */
	target	sh1addl, 5
	sh1addl	%r26, %r20, %r28
	close	sh1addl
	target	sh3addl_r, 5
	sh3addl	%r20, %r26, %r28
	close	sh3addl_r
	target	ldo, 0
	ldo	-2(%r26), %r28
	close	ldo
	target	ldi, 0
	ldi	-5, %r28
	close	ldi
	target	ldil, 0
	ldil	L%0x81234800, %r28
	close	ldil
	/* or %r0,%r0,%r0: computed as nothing (a write of GR 0 is none) */
	target	nop, 0
	nop
	close	nop
	/* ADD sets the carry bits: stepped */
	target	add, 0
	add	%r26, %r20, %r28
	close	add

/* ADDIL writes %r1 */
	open	addil
	copy	%r26, %r28
	at	addil
	addil	L%0x12345800, %r26
	copy	%r1, %r28
	close	addil

/* a condition, which may nullify what follows: stepped */
	open	or_nul
	ldi	0, %r20
	at	or_nul
	or,=	%r26, %r20, %r28
	ldi	7, %r28
	close	or_nul

/* a prologue's stack adjustment, computed: the frame is used after it */
	open	stack
	at	stack
	ldo	64(%sp), %sp
	stw	%r26, -4(%sp)
	ldw	-4(%sp), %r28
	ldo	-64(%sp), %sp
	close	stack
