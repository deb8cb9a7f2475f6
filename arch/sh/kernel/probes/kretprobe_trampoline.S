/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (sh).
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's PR,
 * so its "rts" lands here with r15 back at its value at entry (ri->fp).
 * The trampoline builds a struct pt_regs on the stack (the offsets are
 * checked in kretprobe.c), lets the C callback run the return handlers,
 * and returns to the real address with r0 - r7 as pt_regs holds them (a
 * handler may change the return value in r0 and r1), r8 - r14 as the
 * callee-saved registers the callback kept, and PR holding the real
 * return address, as after a plain return.
 */
#include <linux/linkage.h>

#define KP_PT_SIZE	92	/* sizeof(struct pt_regs) */
#define KP_PT_PC	64	/* offsetof(struct pt_regs, pc) */

	.text
	.balign	4
ENTRY(arch_kretprobe_trampoline)
	add	#-KP_PT_SIZE, r15
	mov.l	r0, @(0, r15)
	mov.l	r1, @(4, r15)
	mov.l	r2, @(8, r15)
	mov.l	r3, @(12, r15)
	mov.l	r4, @(16, r15)
	mov.l	r5, @(20, r15)
	mov.l	r6, @(24, r15)
	mov.l	r7, @(28, r15)
	mov.l	r8, @(32, r15)
	mov.l	r9, @(36, r15)
	mov.l	r10, @(40, r15)
	mov.l	r11, @(44, r15)
	mov.l	r12, @(48, r15)
	mov.l	r13, @(52, r15)
	mov.l	r14, @(56, r15)
	/* r15 as the probed function returned it */
	mov	r15, r0
	add	#KP_PT_SIZE, r0
	mov.l	r0, @(60, r15)
	/* pc, pr, sr, gbr, mach, macl, tra: from KP_PT_PC on, through r1 */
	mov	r15, r1
	add	#KP_PT_PC, r1
	mov.l	.Lkp_tramp, r0
	mov.l	r0, @(0, r1)
	sts	pr, r0
	mov.l	r0, @(4, r1)
	/* SR as it is here: kernel mode, the probed function's mask */
	stc	sr, r0
	mov.l	r0, @(8, r1)
	stc	gbr, r0
	mov.l	r0, @(12, r1)
	sts	mach, r0
	mov.l	r0, @(16, r1)
	sts	macl, r0
	mov.l	r0, @(20, r1)
	mov	#-1, r0
	mov.l	r0, @(24, r1)

	mov.l	.Lkp_callback, r0
	jsr	@r0
	 mov	r15, r4
	/* r0: the real return address, returned through PR */
	lds	r0, pr

	mov.l	@(0, r15), r0
	mov.l	@(4, r15), r1
	mov.l	@(8, r15), r2
	mov.l	@(12, r15), r3
	mov.l	@(16, r15), r4
	mov.l	@(20, r15), r5
	mov.l	@(24, r15), r6
	mov.l	@(28, r15), r7
	rts
	 add	#KP_PT_SIZE, r15

	.balign	4
.Lkp_tramp:
	.long	arch_kretprobe_trampoline
.Lkp_callback:
	.long	arch_kretprobe_trampoline_callback
ENDPROC(arch_kretprobe_trampoline)
