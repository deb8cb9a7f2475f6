/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_ppc_compute KUnit suite (compute_kunit.c):
 * "long f(long x)", x in r3, leaves that use no TOC.  Each sets r4 to an
 * operand, r5 to x + 0x100 (what an instruction that does not write r5
 * leaves) and r0 to 100 (which li and lis, rA = 0, must not add), runs
 * the instruction under test, whose address kppc_<name>_at holds, and
 * returns r5.
 */
#include <linux/linkage.h>
#include <asm/asm-compat.h>
#include <asm/ppc_asm.h>

	.text

/* kppc_<name>_at: the address of what follows */
	.macro	at name
	.pushsection .rodata
	PPC_LONG_ALIGN
	.globl	kppc_\name\()_at
kppc_\name\()_at:
	PPC_LONG 9999f
	.popsection
9999:
	.endm

/* kppc_<name>: r4 = \val, r5 = x + 0x100, the instruction, return r5 */
	.macro	target name, val, insn:vararg
_GLOBAL(kppc_\name)
	li	r0, 100
	li	r4, \val
	addi	r5, r3, 0x100
	at	\name
	\insn
	mr	r3, r5
	blr
	.endm

	target	mr, 0, mr r5, r3
	target	li, 0, li r5, -2
	target	addi, 0, addi r5, r3, -2
	target	addis, 0, addis r5, r3, 0x8000
	target	lis, 0, lis r5, 0x8765
	target	ori, 0, ori r5, r3, 0x8000
	target	oris, 0, oris r5, r3, 0x8000
	target	xori, 0, xori r5, r3, 0xffff
	target	xoris, 0, xoris r5, r3, 0xffff
	target	nop, 0, nop
	target	or, 0x100, or r5, r3, r4
	target	and, -256, and r5, r3, r4
	target	xor, -1, xor r5, r3, r4
	target	nor, 1, nor r5, r3, r4
	target	andc, 1, andc r5, r3, r4
	target	orc, 1, orc r5, r3, r4
	target	add, 5, add r5, r3, r4
	target	subf, 5, subf r5, r4, r3	/* r3 - r4 */
	target	neg, 0, neg r5, r3
	target	extsb, 0, extsb r5, r3
	target	extsh, 0, extsh r5, r3
	/* recording forms (CR0) are the library's: stepped, not computed */
	target	add_dot, 5, add. r5, r3, r4

/* LR and CTR: x through the register, the probe on the move */
_GLOBAL(kppc_mtlr)
	mflr	r6
	at	mtlr
	mtlr	r3
	mflr	r5
	mtlr	r6
	mr	r3, r5
	blr

_GLOBAL(kppc_mflr)
	mflr	r6
	mtlr	r3
	at	mflr
	mflr	r5
	mtlr	r6
	mr	r3, r5
	blr

_GLOBAL(kppc_mtctr)
	at	mtctr
	mtctr	r3
	mfctr	r3
	blr

_GLOBAL(kppc_mfctr)
	mtctr	r3
	at	mfctr
	mfctr	r3
	blr

/* extsw is 64-bit only; the suite runs this last target on 64-bit only */
#ifdef CONFIG_PPC64
	target	extsw, 0, extsw r5, r3
#else
	target	extsw, 0, nop
#endif
