/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_thumb_compute KUnit suite
 * (thumb_compute_kunit.c): each "void f(u32 *st)" in Thumb-2 code around
 * one instruction that thumb_compute.c computes in the trap.  A target
 * loads r0 - r7 from st[0 - 7], r8 from st[9] and the flags from st[8],
 * runs what it is about, then writes r0 - r7, the CPSR, r8 and how far sp
 * moved back (st[8], st[9], st[11]).  Stores onto the stack are read
 * back into registers after the instruction.
 *
 * kptc_table in .rodata.kptc lists them: the function, the address of the
 * instruction under test, its text, and which registers the suite loads
 * with a pointer into its buffer (bits 0 - 7) or a small index (bits
 * 8 - 15).
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.syntax	unified
	.thumb
	.text

/* Register masks for the table. */
#define P0	0x001
#define P2	0x004
#define I2	0x400

	.pushsection .rodata.kptc, "a"
	.align	2
	.globl	kptc_table
kptc_table:
	.popsection

/* st in r11, sp at entry in st[10]; r12 is scratch until the end */
	.macro	enter
	push	{r4 - r11, lr}
	mov	r11, r0
	mov	r12, sp
	str	r12, [r11, #40]
	ldr	r12, [r11, #36]
	mov	r8, r12
	ldr	r12, [r11, #32]
	msr	APSR_nzcvq, r12
	ldm	r11, {r0 - r7}
	.endm

	.macro	leave
	mrs	r12, apsr
	stm	r11, {r0 - r7}
	str	r12, [r11, #32]
	str	r8, [r11, #36]
	mov	r0, sp
	ldr	r1, [r11, #40]
	subs	r0, r0, r1
	str	r0, [r11, #44]
	mov	sp, r1
	pop	{r4 - r11, pc}
	.endm

/*
 * A target kptc_<name> whose instruction under test is \insn, with
 * \pre before and \post after it; its row of kptc_table.
 */
	.macro	target name:req, regs:req, pre, post, insn:vararg
ENTRY(kptc_\name)
	enter
	\pre
9999:
	\insn
	\post
	leave
ENDPROC(kptc_\name)
	.pushsection .rodata.kptc, "a"
	.word	kptc_\name, 9999b, 9998f, \regs
	.popsection
	.pushsection .rodata.str1.1, "aMS", %progbits, 1
9998:	.asciz	"\insn"
	.popsection
	.endm

/* ... without anything around it */
	.macro	t name:req, regs:req, insn:vararg
	target	\name, \regs, , , \insn
	.endm

/* sub sp first (\n bytes), sp back from st[10] at the end */
	.macro	stack n
	sub	sp, sp, #\n
	.endm

/* 16-bit: moves, shifts, add/sub/cmp */
	t	mov_hi_lo,	0,	mov r2, r0
	t	mov_hi_r8,	0,	mov r8, r1
	t	mov_hi_from8,	0,	mov r3, r8
	t	movs_reg,	0,	movs.n r0, r1
	t	lsls_imm,	0,	lsls.n r0, r1, #3
	t	lsls_imm31,	0,	lsls.n r0, r1, #31
	t	lsrs_imm32,	0,	lsrs.n r0, r1, #32
	t	lsrs_imm1,	0,	lsrs.n r0, r1, #1
	t	asrs_imm,	0,	asrs.n r0, r1, #7
	t	asrs_imm32,	0,	asrs.n r0, r1, #32
	t	adds_reg,	0,	adds.n r0, r1, r2
	t	subs_reg,	0,	subs.n r0, r1, r2
	t	adds_imm3,	0,	adds.n r0, r1, #7
	t	subs_imm3,	0,	subs.n r0, r1, #1
	t	movs_imm8,	0,	movs.n r0, #200
	t	cmp_imm8,	0,	cmp.n r1, #1
	t	adds_imm8,	0,	adds.n r1, #255
	t	subs_imm8,	0,	subs.n r1, #1

/* 16-bit: the register data-processing group */
	t	ands,		0,	ands.n r0, r1
	t	eors,		0,	eors.n r0, r1
	t	lsls_reg,	0,	lsls.n r0, r1
	t	lsrs_reg,	0,	lsrs.n r0, r1
	t	asrs_reg,	0,	asrs.n r0, r1
	t	adcs,		0,	adcs.n r0, r1
	t	sbcs,		0,	sbcs.n r0, r1
	t	rors,		0,	rors.n r0, r1
	t	tst,		0,	tst.n r0, r1
	t	negs,		0,	rsbs.n r0, r1, #0
	t	cmp_reg,	0,	cmp.n r0, r1
	t	cmn,		0,	cmn.n r0, r1
	t	orrs,		0,	orrs.n r0, r1
	t	muls,		0,	muls.n r0, r1, r0
	t	bics,		0,	bics.n r0, r1
	t	mvns,		0,	mvns.n r0, r1

/* 16-bit: high registers, sp, extends */
	t	add_hi,		0,	add.n r1, r8
	t	add_hi_to8,	0,	add.n r8, r2
	t	cmp_hi,		0,	cmp.n r8, r1
	t	sub_sp,		0,	sub.n sp, #16
	target	add_sp,	0,	"stack 32", , add.n sp, #16
	t	sxth,		0,	sxth.n r0, r1
	t	sxtb,		0,	sxtb.n r0, r1
	t	uxth,		0,	uxth.n r0, r1
	t	uxtb,		0,	uxtb.n r0, r1
	t	rev,		0,	rev.n r0, r1
	t	rev16,		0,	rev16.n r0, r1
	t	revsh,		0,	revsh.n r0, r1

/* 16-bit loads and stores; r0 points into the buffer, r2 an index */
	t	str_imm,	P0,	str.n r1, [r0, #4]
	t	ldr_imm,	P0,	ldr.n r1, [r0, #124]
	t	strb_imm,	P0,	strb.n r1, [r0, #3]
	t	ldrb_imm,	P0,	ldrb.n r1, [r0, #31]
	t	strh_imm,	P0,	strh.n r1, [r0, #6]
	t	ldrh_imm,	P0,	ldrh.n r1, [r0, #62]
	t	str_reg,	P0 | I2, str.n r1, [r0, r2]
	t	ldr_reg,	P0 | I2, ldr.n r1, [r0, r2]
	t	strb_reg,	P0 | I2, strb.n r1, [r0, r2]
	t	ldrsb_reg,	P0 | I2, ldrsb.n r1, [r0, r2]
	t	strh_reg,	P0 | I2, strh.n r1, [r0, r2]
	t	ldrh_reg,	P0 | I2, ldrh.n r1, [r0, r2]
	t	ldrb_reg,	P0 | I2, ldrb.n r1, [r0, r2]
	t	ldrsh_reg,	P0 | I2, ldrsh.n r1, [r0, r2]
	target	str_sp,	0,	"stack 16", "ldr r2, [sp, #4]", str.n r1, [sp, #4]
	target	ldr_sp,	0,	"stack 16; str r3, [sp, #8]", , ldr.n r1, [sp, #8]

/* 16-bit push, pop, ldm, stm */
	target	push,	0,	, "ldm sp, {r4 - r7}", push.n {r1, r2, r4, lr}
	target	push_lo, 0,	, "ldm sp, {r4, r5}", push.n {r1, r3}
	target	pop,	0,	"push {r1, r2, r3}", , pop.n {r4, r5, r6}
	t	stmia,		P0,	stmia.n r0!, {r1, r2}
	t	ldmia,		P0,	ldmia.n r0!, {r1, r2, r3}
	t	ldmia_rn,	P0,	ldmia.n r0, {r0, r1}

/* 32-bit data processing, modified immediate */
	t	mov_w_imm,	0,	mov.w r0, #0x00ff00ff
	t	movs_w_imm,	0,	movs.w r0, #0x80000000
	t	mvn_w_imm,	0,	mvn.w r0, #0xff00
	t	add_w_imm,	0,	add.w r0, r1, #0x1000
	t	adds_w_imm,	0,	adds.w r0, r1, #0x80000000
	t	sub_w_imm,	0,	sub.w r0, r1, #1
	t	subs_w_imm,	0,	subs.w r0, r1, #0xff
	t	cmp_w_imm,	0,	cmp.w r1, #0x10000
	t	cmn_w_imm,	0,	cmn.w r1, #1
	t	tst_w_imm,	0,	tst.w r1, #0xf0000000
	t	teq_w_imm,	0,	teq.w r1, #0xff
	t	ands_w_imm,	0,	ands.w r0, r1, #0x3fc00000
	t	orr_w_imm,	0,	orr.w r0, r1, #0xab00ab00
	t	orns_w_imm,	0,	orns r0, r1, #0xcdcdcdcd
	t	eors_w_imm,	0,	eors.w r0, r1, #0x00040000
	t	bics_w_imm,	0,	bics.w r0, r1, #0x01800000
	t	adcs_w_imm,	0,	adcs.w r0, r1, #0x7f000000
	t	sbcs_w_imm,	0,	sbcs.w r0, r1, #2
	t	rsbs_w_imm,	0,	rsbs.w r0, r1, #0
	t	sub_w_sp,	0,	sub.w sp, sp, #256
	t	add_w_r8,	0,	add.w r8, r8, #0x400

/* 32-bit data processing, shifted register */
	t	mov_w_reg,	0,	mov.w r0, r1
	t	movs_w_lsl,	0,	lsls.w r0, r1, #1
	t	movs_w_rrx,	0,	rrxs r0, r1
	t	mvns_w_reg,	0,	mvns.w r0, r1, asr #32
	t	add_w_reg,	0,	add.w r0, r1, r2, lsl #2
	t	adds_w_reg,	0,	adds.w r0, r1, r2, lsr #5
	t	subs_w_reg,	0,	subs.w r0, r1, r2, asr #3
	t	rsb_w_reg,	0,	rsb.w r0, r1, r2, lsl #2
	t	adcs_w_reg,	0,	adcs.w r0, r1, r2, ror #7
	t	sbcs_w_reg,	0,	sbcs.w r0, r1, r2, lsr #32
	t	ands_w_reg,	0,	ands.w r0, r1, r2, lsl #31
	t	eors_w_reg,	0,	eors.w r0, r1, r2, ror #7
	t	orrs_w_reg,	0,	orrs.w r0, r1, r2, lsr #1
	t	orn_w_reg,	0,	orn r0, r1, r2
	t	bics_w_reg,	0,	bics.w r0, r1, r2, rrx
	t	tst_w_reg,	0,	tst.w r1, r2, lsl #1
	t	teq_w_reg,	0,	teq.w r1, r2, asr #1
	t	cmp_w_reg,	0,	cmp.w r1, r2, lsl #1
	t	cmn_w_reg,	0,	cmn.w r1, r2
	t	add_w_r8_reg,	0,	add.w r1, r8, r2

/* 32-bit plain immediates */
	t	addw,		0,	addw r0, r1, #0xfff
	t	subw,		0,	subw r0, r1, #1
	t	movw,		0,	movw r0, #0xbeef
	t	movt,		0,	movt r0, #0xdead
	t	movt_r8,	0,	movt r8, #0x1234

/* 32-bit loads and stores */
	t	ldr_w_imm12,	P0,	ldr.w r1, [r0, #0x40]
	t	str_w_imm12,	P0,	str.w r1, [r0, #8]
	t	ldrb_w_imm12,	P0,	ldrb.w r1, [r0, #77]
	t	strb_w_imm12,	P0,	strb.w r1, [r0, #5]
	t	ldrh_w_imm12,	P0,	ldrh.w r1, [r0, #22]
	t	strh_w_imm12,	P0,	strh.w r1, [r0, #10]
	t	ldrsb_w_imm12,	P0,	ldrsb.w r1, [r0, #3]
	t	ldrsh_w_imm12,	P0,	ldrsh.w r1, [r0, #2]
	t	ldr_w_neg,	P0,	ldr r1, [r0, #-4]
	t	str_w_neg,	P0,	str r1, [r0, #-64]
	t	ldrsb_w_neg,	P0,	ldrsb r1, [r0, #-1]
	t	ldr_w_pre,	P0,	ldr r1, [r0, #4]!
	t	str_w_pre,	P0,	str r1, [r0, #-8]!
	t	ldr_w_post,	P0,	ldr r1, [r0], #12
	t	strh_w_post,	P0,	strh r1, [r0], #-2
	t	ldr_w_reg,	P0 | I2, ldr.w r1, [r0, r2, lsl #2]
	t	strh_w_reg,	P0 | I2, strh.w r1, [r0, r2, lsl #1]
	t	ldrsh_w_reg,	P0 | I2, ldrsh.w r1, [r0, r2]
	t	str_w_r8,	P0,	str.w r8, [r0, #12]
	target	ldr_w_sp, 0,	"stack 16; str r2, [sp, #12]", , ldr.w r8, [sp, #12]

/* 32-bit ldm, stm */
	target	push_w,	0,	, "ldm sp, {r4 - r7}", push.w {r1, r2, r8, lr}
	target	pop_w,	0,	"push {r1, r2, r3}", , pop.w {r4, r5, r8}
	t	ldmia_w,	P0,	ldmia.w r0, {r1, r2, r3}
	t	stmia_w,	P0,	stmia.w r0!, {r1, r2, r8}
	t	ldmdb_w,	P0,	ldmdb r0!, {r1, r2}
	t	stmdb_w,	P0,	stmdb r0, {r3, r4, r5, r6}

/*
 * A store below sp and its free MAX_STACK_SIZE bytes (where the trap's
 * frame goes) is declined and made by the copy.  It goes deep enough that
 * the step end's trap, whose frames are pushed right there, leaves it
 * alone, and is read back with interrupts off.
 */
	target	str_deep, 0,	"cpsid i; sub.w r3, sp, #1536", \
		"ldr r2, [r3]; movs r3, #0; cpsie i", str.n r1, [r3]

	.pushsection .rodata.kptc, "a"
	.globl	kptc_table_end
kptc_table_end:
	.popsection
