/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_thumb KUnit suite (thumb_kunit.c): "long
 * f(long x)" in Thumb-2 code, each around one instruction under test,
 * whose address kpat_<name>_at holds.  Assembly: no ftrace entry, and
 * exactly the encodings named.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.syntax	unified
	.thumb
	.text

/* kpat_<name>_at: the address of what follows */
	.macro	at name
	.pushsection .rodata
	.align	2
	.globl	kpat_\name\()_at
kpat_\name\()_at:
	.word	9999f
	.popsection
9999:
	.endm

/* x + 3, called by the call targets */
ENTRY(kpat_helper)
	adds	r0, r0, #3
	bx	lr
ENDPROC(kpat_helper)

ENTRY(kpat_b16)				@ x
	at	b16
	b	1f
	adds	r0, r0, #1
1:	bx	lr
ENDPROC(kpat_b16)

ENTRY(kpat_b32)				@ x
	at	b32
	b.w	1f
	adds	r0, r0, #1
1:	bx	lr
ENDPROC(kpat_b32)

ENTRY(kpat_beq16)			@ x == 0 ? 7 : 5
	cmp	r0, #0
	at	beq16
	beq	1f
	movs	r0, #5
	bx	lr
1:	movs	r0, #7
	bx	lr
ENDPROC(kpat_beq16)

ENTRY(kpat_bne32)			@ x != 0 ? 7 : 5
	cmp	r0, #0
	at	bne32
	bne.w	1f
	movs	r0, #5
	bx	lr
1:	movs	r0, #7
	bx	lr
ENDPROC(kpat_bne32)

ENTRY(kpat_cbz)				@ x == 0 ? 7 : 5
	at	cbz
	cbz	r0, 1f
	movs	r0, #5
	bx	lr
1:	movs	r0, #7
	bx	lr
ENDPROC(kpat_cbz)

ENTRY(kpat_cbnz)			@ x != 0 ? 7 : 5
	at	cbnz
	cbnz	r0, 1f
	movs	r0, #5
	bx	lr
1:	movs	r0, #7
	bx	lr
ENDPROC(kpat_cbnz)

ENTRY(kpat_bl)				@ x + 3, a backward bl
	push	{r4, lr}
	at	bl
	bl	kpat_helper
	pop	{r4, pc}
ENDPROC(kpat_bl)

ENTRY(kpat_blx)				@ x + 3
	push	{r4, lr}
	ldr	r1, =kpat_helper
	at	blx
	blx	r1
	pop	{r4, pc}
	.ltorg
ENDPROC(kpat_blx)

ENTRY(kpat_bx)				@ x + 1
	adds	r0, r0, #1
	at	bx
	bx	lr
ENDPROC(kpat_bx)

ENTRY(kpat_pop_pc)			@ x + 3, r4 kept
	push	{r4, lr}
	movs	r4, #0
	bl	kpat_helper
	at	pop_pc
	pop	{r4, pc}
ENDPROC(kpat_pop_pc)

ENTRY(kpat_ldm_pc)			@ x + 3, a 32-bit pop
	push	{r4, r8, lr}
	bl	kpat_helper
	at	ldm_pc
	pop.w	{r4, r8, pc}
ENDPROC(kpat_ldm_pc)

ENTRY(kpat_ldr16)			@ 0x12345678
	at	ldr16
	ldr	r0, 1f
	bx	lr
	.align	2
1:	.word	0x12345678
ENDPROC(kpat_ldr16)

ENTRY(kpat_ldrsh)			@ -32767, sign-extended
	at	ldrsh
	ldrsh.w	r0, 1f
	bx	lr
	.align	2
1:	.short	0x8001
	.short	0
ENDPROC(kpat_ldrsh)

ENTRY(kpat_ldrw_back)			@ 0x25a5a5a5, a literal behind
	b	2f
	.align	2
1:	.word	0x25a5a5a5
2:
	at	ldrw_back
	ldr.w	r0, 1b
	bx	lr
ENDPROC(kpat_ldrw_back)

ENTRY(kpat_adr16)			@ 0xcafe1234
	at	adr16
	adr	r0, 1f
	ldr	r0, [r0]
	bx	lr
	.align	2
1:	.word	0xcafe1234
ENDPROC(kpat_adr16)

ENTRY(kpat_adrw_back)			@ 0x0badf00d, subw from the pc
	b	2f
	.align	2
1:	.word	0x0badf00d
2:
	at	adrw_back
	adr.w	r0, 1b
	ldr	r0, [r0]
	bx	lr
ENDPROC(kpat_adrw_back)

ENTRY(kpat_add_sp)			@ 8
	at	add_sp
	add	r0, sp, #8
	mov	r1, sp
	subs	r0, r0, r1
	bx	lr
ENDPROC(kpat_add_sp)

ENTRY(kpat_mov_pc)			@ 4: the pc reads as the address + 4
	at	mov_pc
	mov	r0, pc
	ldr	r1, =kpat_mov_pc_at
	ldr	r1, [r1]
	subs	r0, r0, r1
	bx	lr
	.ltorg
ENDPROC(kpat_mov_pc)

ENTRY(kpat_add_pc)			@ x + 4
	at	add_pc
	add	r0, pc
	ldr	r1, =kpat_add_pc_at
	ldr	r1, [r1]
	subs	r0, r0, r1
	bx	lr
	.ltorg
ENDPROC(kpat_add_pc)

ENTRY(kpat_mov_to_pc)			@ 7
	adr	r1, 1f
	at	mov_to_pc
	mov	pc, r1
	movs	r0, #5
	bx	lr
	.align	2
1:	movs	r0, #7
	bx	lr
ENDPROC(kpat_mov_to_pc)

ENTRY(kpat_tbb)				@ 10 + x, x < 3
	at	tbb
	tbb	[pc, r0]
1:	.byte	(2f - 1b) / 2, (3f - 1b) / 2, (4f - 1b) / 2
	.align	1
2:	movs	r0, #10
	bx	lr
3:	movs	r0, #11
	bx	lr
4:	movs	r0, #12
	bx	lr
ENDPROC(kpat_tbb)

ENTRY(kpat_tbh)				@ 20 + x, x < 3
	at	tbh
	tbh	[pc, r0, lsl #1]
1:	.short	(2f - 1b) / 2, (3f - 1b) / 2, (4f - 1b) / 2
2:	movs	r0, #20
	bx	lr
3:	movs	r0, #21
	bx	lr
4:	movs	r0, #22
	bx	lr
ENDPROC(kpat_tbh)

ENTRY(kpat_it)				@ x == 0 ? 7 : 5
	cmp	r0, #0
	at	it
	ite	eq
	moveq	r0, #7
	at	in_it
	movne	r0, #5
	bx	lr
ENDPROC(kpat_it)

ENTRY(kpat_mrs)				@ mode, T, F and I bits of the CPSR
	at	mrs
	mrs	r0, cpsr
	and	r0, r0, #0xff
	bx	lr
ENDPROC(kpat_mrs)

ENTRY(kpat_adds)			@ x + 1, from a slot
	at	adds
	adds	r0, r0, #1
	bx	lr
ENDPROC(kpat_adds)

ENTRY(kpat_addw)			@ x + 0x100, from a slot
	at	addw
	add.w	r0, r0, #0x100
	bx	lr
ENDPROC(kpat_addw)

ENTRY(kpat_push)			@ x + 3, push from a slot
	at	push
	push	{r4, lr}
	bl	kpat_helper
	pop	{r4, pc}
ENDPROC(kpat_push)

ENTRY(kpat_ldr_sp)			@ x + 2, ldr from the stack in a slot
	sub	sp, sp, #8
	str	r0, [sp, #4]
	at	ldr_sp
	ldr	r1, [sp, #4]
	add	sp, sp, #8
	adds	r0, r1, #2
	bx	lr
ENDPROC(kpat_ldr_sp)
