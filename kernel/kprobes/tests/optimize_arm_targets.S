/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 32-bit ARM's targets of the "kprobes_optimize" KUnit suite (optimize.c,
 * optimize_arm.c): "long f(long x)" leaves in the ARM instruction set, so
 * that the instruction under each probe does not depend on the compiler.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.text
	.arm
	.align	2
/*
 * (((x + 0x11) * 3) ^ 0x5a5a) + (x < 0x20): the flags of the CMP are live
 * across the next four instructions and read by the conditional ADD, so
 * a detour there that did not give them back would change the result.
 */
ENTRY(kpopt_arm_good)
	cmp	r0, #0x20
	add	r0, r0, #0x11
	add	r0, r0, r0, lsl #1
	movw	r1, #0x5a5a
	eor	r0, r0, r1
	addlt	r0, r0, #1
	ret	lr
ENDPROC(kpopt_arm_good)

/*
 * x + 1 if ip holds sp after the MOV, which the UDF path simulates and a
 * detour runs from its copy: with the detour's frame still on the stack,
 * ip would be off by its size.
 */
ENTRY(kpopt_arm_ipsp)
	mov	ip, sp
	sub	r1, ip, sp
	add	r0, r0, r1
	add	r0, r0, #1
	ret	lr
ENDPROC(kpopt_arm_ipsp)

/*
 * x + 1 through a push below sp and the pop of the pc: the store must
 * land where it does in place (the detour's frame is gone by then).
 */
ENTRY(kpopt_arm_push)
	push	{r4, lr}
	mov	r4, r0
	add	r0, r4, #1
	pop	{r4, pc}
ENDPROC(kpopt_arm_push)

/* x + 1 behind a branch, which is simulated: no detour there. */
ENTRY(kpopt_arm_branch)
	b	1f
1:	add	r0, r0, #1
	ret	lr
ENDPROC(kpopt_arm_branch)

/* x + 1, the 1 from a literal load, which is simulated. */
ENTRY(kpopt_arm_literal)
	ldr	r1, 1f
	add	r0, r0, r1
	ret	lr
1:	.word	1
ENDPROC(kpopt_arm_literal)

/*
 * x + 1 after an STM that stores the pc, as an APCS prologue's: a copy
 * would store the detour's address.
 */
ENTRY(kpopt_arm_stm_pc)
	push	{r1, pc}
	add	sp, sp, #8
	add	r0, r0, #1
	ret	lr
ENDPROC(kpopt_arm_stm_pc)

/*
 * x + 1 from an instruction with an exception-table entry (it cannot
 * fault, but a copy elsewhere would lose the entry).
 */
ENTRY(kpopt_arm_extable)
	mov	r1, r1
0:	add	r0, r0, #1
1:	ret	lr
	.pushsection __ex_table, "a"
	.align	3
	.long	0b, 1b
	.popsection
ENDPROC(kpopt_arm_extable)

/*
 * The domain access control register as the code after the probe (the
 * first instruction) sees it: the caller opened user access.
 */
ENTRY(kpopt_arm_dacr)
	mov	r1, r1
	mrc	p15, 0, r0, c3, c0, 0
	ret	lr
ENDPROC(kpopt_arm_dacr)
