/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_arm_compute KUnit suite (arm_kunit.c): "long
 * f(long x)" in ARM code, each around one instruction that arm_compute.c
 * computes in the trap, whose address kpac_<name>_at holds.  The flag
 * targets return (result << 4) | NZCV, the flags read back right after
 * the instruction, with the flags it must not change set beforehand.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.syntax	unified
	.arm
	.text

/* kpac_<name>_at: the address of what follows */
	.macro	at name
	.pushsection .rodata
	.align	2
	.globl	kpac_\name\()_at
kpac_\name\()_at:
	.word	9999f
	.popsection
9999:
	.endm

/* r0 = (r0 << 4) | NZCV; r1 scratch */
	.macro	nzcv
	mrs	r1, apsr
	lsr	r1, r1, #28
	add	r0, r1, r0, lsl #4
	.endm

/* r1 = &kpac_words */
	.macro	words
	movw	r1, #:lower16:kpac_words
	movt	r1, #:upper16:kpac_words
	.endm

ENTRY(kpac_mov_reg)			@ x + 1
	at	mov_reg
	mov	r2, r0
	add	r0, r2, #1
	bx	lr
ENDPROC(kpac_mov_reg)

ENTRY(kpac_adds)			@ flags of x + 1
	msr	APSR_nzcvq, #0
	at	adds
	adds	r0, r0, #1
	nzcv
	bx	lr
ENDPROC(kpac_adds)

ENTRY(kpac_subs)			@ flags of x - 1
	msr	APSR_nzcvq, #0
	at	subs
	subs	r0, r0, #1
	nzcv
	bx	lr
ENDPROC(kpac_subs)

ENTRY(kpac_cmp)				@ flags of x - 1, x kept
	msr	APSR_nzcvq, #0
	at	cmp
	cmp	r0, #1
	nzcv
	bx	lr
ENDPROC(kpac_cmp)

ENTRY(kpac_movs_lsr)			@ flags of x >> 1, V kept
	msr	APSR_nzcvq, #0x10000000
	at	movs_lsr
	movs	r0, r0, lsr #1
	nzcv
	bx	lr
ENDPROC(kpac_movs_lsr)

ENTRY(kpac_ands_rot)			@ flags of x & 0xf0000000: C set
	msr	APSR_nzcvq, #0
	at	ands_rot
	ands	r0, r0, #0xf0000000
	nzcv
	bx	lr
ENDPROC(kpac_ands_rot)

ENTRY(kpac_adcs)			@ flags of x + 0 + C, C set
	msr	APSR_nzcvq, #0x20000000
	at	adcs
	adcs	r0, r0, #0
	nzcv
	bx	lr
ENDPROC(kpac_adcs)

ENTRY(kpac_sbc)				@ x - 0 - !C, C clear, flags kept
	msr	APSR_nzcvq, #0
	at	sbc
	sbc	r0, r0, #0
	nzcv
	bx	lr
ENDPROC(kpac_sbc)

ENTRY(kpac_rsbs)			@ flags of -x
	msr	APSR_nzcvq, #0
	at	rsbs
	rsbs	r0, r0, #0
	nzcv
	bx	lr
ENDPROC(kpac_rsbs)

ENTRY(kpac_tst_lsl)			@ flags of x & (x << 31), C of the shift
	msr	APSR_nzcvq, #0
	at	tst_lsl
	tst	r0, r0, lsl #31
	nzcv
	bx	lr
ENDPROC(kpac_tst_lsl)

ENTRY(kpac_add_lsl_reg)			@ 5 * x
	mov	r1, #2
	at	add_lsl_reg
	add	r0, r0, r0, lsl r1
	bx	lr
ENDPROC(kpac_add_lsl_reg)

ENTRY(kpac_movs_asr_reg)		@ flags of x >> 33 (arithmetic)
	msr	APSR_nzcvq, #0
	mov	r1, #33
	at	movs_asr_reg
	movs	r0, r0, asr r1
	nzcv
	bx	lr
ENDPROC(kpac_movs_asr_reg)

ENTRY(kpac_ror)				@ x rotated right by 8
	at	ror
	mov	r0, r0, ror #8
	bx	lr
ENDPROC(kpac_ror)

ENTRY(kpac_movs_rrx)			@ flags of rrx with C set
	msr	APSR_nzcvq, #0x20000000
	at	movs_rrx
	movs	r0, r0, rrx
	nzcv
	bx	lr
ENDPROC(kpac_movs_rrx)

ENTRY(kpac_mvn)				@ ~x
	at	mvn
	mvn	r0, r0
	bx	lr
ENDPROC(kpac_mvn)

ENTRY(kpac_bic)				@ x & ~0xff
	at	bic
	bic	r0, r0, #0xff
	bx	lr
ENDPROC(kpac_bic)

ENTRY(kpac_orr)				@ x | 0x100
	at	orr
	orr	r0, r0, #0x100
	bx	lr
ENDPROC(kpac_orr)

ENTRY(kpac_sub_fp)			@ x - 4
	at	sub_fp
	sub	r0, r0, #4
	bx	lr
ENDPROC(kpac_sub_fp)

ENTRY(kpac_addne)			@ x == 1 ? 1 : x + 5
	cmp	r0, #1
	at	addne
	addne	r0, r0, #5
	bx	lr
ENDPROC(kpac_addne)

ENTRY(kpac_movw)			@ 0x1234
	at	movw
	movw	r0, #0x1234
	bx	lr
ENDPROC(kpac_movw)

ENTRY(kpac_movt)			@ x & 0xffff | 0x56780000
	at	movt
	movt	r0, #0x5678
	bx	lr
ENDPROC(kpac_movt)

ENTRY(kpac_str_pre)			@ x + 1, through the stack
	at	str_pre
	str	r0, [sp, #-4]!
	mov	r0, #0
	ldr	r1, [sp], #4
	add	r0, r1, #1
	bx	lr
ENDPROC(kpac_str_pre)

ENTRY(kpac_ldr_post)			@ x + 1, through the stack
	str	r0, [sp, #-4]!
	mov	r0, #0
	at	ldr_post
	ldr	r0, [sp], #4
	add	r0, r0, #1
	bx	lr
ENDPROC(kpac_ldr_post)

ENTRY(kpac_ldr_off)			@ kpac_words[1]
	words
	at	ldr_off
	ldr	r0, [r1, #4]
	bx	lr
ENDPROC(kpac_ldr_off)

ENTRY(kpac_ldr_wback)			@ kpac_words[1] + 4
	words
	add	r1, r1, #8
	at	ldr_wback
	ldr	r0, [r1, #-4]!
	movw	r2, #:lower16:kpac_words
	movt	r2, #:upper16:kpac_words
	sub	r1, r1, r2
	add	r0, r0, r1
	bx	lr
ENDPROC(kpac_ldr_wback)

ENTRY(kpac_ldrb)			@ the top byte of kpac_words[0]
	words
	at	ldrb
	ldrb	r0, [r1, #3]
	bx	lr
ENDPROC(kpac_ldrb)

ENTRY(kpac_ldrne)			@ x == 1 ? 1 : kpac_words[0]
	words
	cmp	r0, #1
	at	ldrne
	ldrne	r0, [r1]
	bx	lr
ENDPROC(kpac_ldrne)

ENTRY(kpac_strb)			@ (x & 0xff) << 8
	movw	r1, #:lower16:kpac_scratch
	movt	r1, #:upper16:kpac_scratch
	mov	r2, #0
	str	r2, [r1]
	at	strb
	strb	r0, [r1, #1]
	ldr	r0, [r1]
	bx	lr
ENDPROC(kpac_strb)

ENTRY(kpac_push)			@ 2 * x + 1, r4 and r5 kept
	at	push
	push	{r4, r5, lr}
	mov	r4, r0
	add	r5, r0, #1
	add	r0, r4, r5
	pop	{r4, r5, pc}
ENDPROC(kpac_push)

ENTRY(kpac_pop)				@ 2 * x + 1, r4 and r5 kept
	push	{r4, r5, lr}
	mov	r4, r0
	add	r5, r0, #1
	add	r0, r4, r5
	at	pop
	pop	{r4, r5, lr}
	bx	lr
ENDPROC(kpac_pop)

ENTRY(kpac_ldmib)			@ kpac_words[1] + kpac_words[2]
	words
	at	ldmib
	ldmib	r1, {r2, r3}
	add	r0, r2, r3
	bx	lr
ENDPROC(kpac_ldmib)

ENTRY(kpac_push_pc)			@ x + what "push {..., pc}" stored - its address
	mov	ip, sp
	at	push_pc
1:	push	{fp, ip, lr, pc}
	sub	fp, ip, #4
	ldr	r1, [sp, #12]
	adr	r2, 1b
	sub	r1, r1, r2
	add	r0, r0, r1
	ldm	sp, {fp, sp, pc}
ENDPROC(kpac_push_pc)

ENTRY(kpac_str_deep)			@ x; a store below sp's free bytes
	at	str_deep
	str	r0, [sp, #-128]
	bx	lr
ENDPROC(kpac_str_deep)

	.data
	.align	2
kpac_words:
	.word	0x44332211, 0x22222222, 0x33333333
kpac_scratch:
	.word	0
