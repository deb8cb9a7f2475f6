/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_mips_compute KUnit suite (compute_kunit.c):
 * "long f(long x)", x in a0, the result in v0, each around one
 * instruction whose address kpmc_<name>_at holds.  The operands other
 * than x are loaded before it, so that a probe there finds them set.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/regdef.h>

	.text
	.set	noreorder	/* the delay slots are written out */

/* kpmc_<name>_at: the address of what follows */
	.macro	at name
	.pushsection .rodata
	.align	2
	.globl	kpmc_\name\()_at
kpmc_\name\()_at:
	.word	9999f
	.popsection
9999:
	.endm

/* kpmc_<name>: t0 = \val, then the instruction under test, then return */
	.macro	target name, val, insn:vararg
LEAF(kpmc_\name)
	li	t0, \val
	at	\name
	\insn
	jr	ra
	nop
	END(kpmc_\name)
	.endm

	target	move, 0, move v0, a0
	target	addu, 5, addu v0, a0, t0
	target	subu, 5, subu v0, a0, t0
	target	and, 0xff00ff00, and v0, a0, t0
	target	or, 0x100, or v0, a0, t0
	target	xor, -1, xor v0, a0, t0
	target	nor, 1, nor v0, a0, t0
	target	slt, 1, slt v0, a0, t0
	target	sltu, 1, sltu v0, a0, t0
	target	sll, 0, sll v0, a0, 4
	target	srl, 0, srl v0, a0, 4
	target	sra, 0, sra v0, a0, 4
	target	sllv, 35, sllv v0, a0, t0	/* shifts by 35 & 31 */
	target	srlv, 33, srlv v0, a0, t0
	target	srav, 31, srav v0, a0, t0
	target	addiu, 0, addiu v0, a0, -2
	target	slti, 0, slti v0, a0, 1
	target	sltiu, 0, sltiu v0, a0, -1	/* below 0xffffffff */
	target	andi, 0, andi v0, a0, 0x8001
	target	ori, 0, ori v0, a0, 0x8000
	target	xori, 0, xori v0, a0, 0xffff
	target	lui, 0, lui v0, 0x8123
	/* add traps on overflow: stepped; t0 = 0 never overflows */
	target	add, 0, add v0, a0, t0

/* sll zero, zero, 0: computed as nothing, v0 keeps x */
LEAF(kpmc_nop)
	move	v0, a0
	at	nop
	nop
	jr	ra
	nop
	END(kpmc_nop)

/* a prologue's stack adjustment, computed: the frame is used after it */
LEAF(kpmc_stack)
	at	stack
	addiu	sp, sp, -16
	sw	a0, 8(sp)
	lw	v0, 8(sp)
	jr	ra
	addiu	sp, sp, 16
	END(kpmc_stack)
