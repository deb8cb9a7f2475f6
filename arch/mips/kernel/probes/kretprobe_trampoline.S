/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (mips).
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's ra,
 * so its "jr ra" lands here with sp back at its value at entry (ri->fp).
 * The trampoline saves the registers as a struct pt_regs, lets the C
 * callback run the return handlers, and returns to the real address with
 * every register as the probed function left them (ra holding the real
 * return address, as after a plain return), unless a handler changed v0
 * or v1 in pt_regs.  k0 and k1 belong to the exception handlers and are
 * neither saved nor restored.
 *
 * The callback's frame is pt_regs itself: on 32-bit kernels its first
 * eight words (pad0) are the argument save area the o32 ABI gives a
 * callee, on 64-bit kernels the n64 ABI needs none.
 */
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/mipsregs.h>
#include <asm/regdef.h>

	.text
	.set	push
	.set	noreorder
	.set	noat
NESTED(arch_kretprobe_trampoline, PT_SIZE, ra)
	PTR_ADDIU	sp, sp, -PT_SIZE
	LONG_S	$1, PT_R1(sp)
	LONG_S	$2, PT_R2(sp)
	LONG_S	$3, PT_R3(sp)
	LONG_S	$4, PT_R4(sp)
	LONG_S	$5, PT_R5(sp)
	LONG_S	$6, PT_R6(sp)
	LONG_S	$7, PT_R7(sp)
	LONG_S	$8, PT_R8(sp)
	LONG_S	$9, PT_R9(sp)
	LONG_S	$10, PT_R10(sp)
	LONG_S	$11, PT_R11(sp)
	LONG_S	$12, PT_R12(sp)
	LONG_S	$13, PT_R13(sp)
	LONG_S	$14, PT_R14(sp)
	LONG_S	$15, PT_R15(sp)
	LONG_S	$16, PT_R16(sp)
	LONG_S	$17, PT_R17(sp)
	LONG_S	$18, PT_R18(sp)
	LONG_S	$19, PT_R19(sp)
	LONG_S	$20, PT_R20(sp)
	LONG_S	$21, PT_R21(sp)
	LONG_S	$22, PT_R22(sp)
	LONG_S	$23, PT_R23(sp)
	LONG_S	$24, PT_R24(sp)
	LONG_S	$25, PT_R25(sp)
	LONG_S	$28, PT_R28(sp)
	LONG_S	$30, PT_R30(sp)
	LONG_S	$31, PT_R31(sp)
	/* sp as the probed function returned it */
	PTR_ADDIU	t0, sp, PT_SIZE
	LONG_S	t0, PT_R29(sp)
	PTR_LA	t0, arch_kretprobe_trampoline
	LONG_S	t0, PT_EPC(sp)
	/*
	 * Status as it is here: kernel mode, the interrupt enable of the
	 * probed function, for user_mode() and regs_irqs_disabled().
	 */
	mfc0	t0, CP0_STATUS
	LONG_S	t0, PT_STATUS(sp)
	LONG_S	zero, PT_CAUSE(sp)

	jal	arch_kretprobe_trampoline_callback
	 move	a0, sp
	/* v0: the real return address, returned through ra */
	move	ra, v0

	LONG_L	$1, PT_R1(sp)
	LONG_L	$2, PT_R2(sp)
	LONG_L	$3, PT_R3(sp)
	LONG_L	$4, PT_R4(sp)
	LONG_L	$5, PT_R5(sp)
	LONG_L	$6, PT_R6(sp)
	LONG_L	$7, PT_R7(sp)
	LONG_L	$8, PT_R8(sp)
	LONG_L	$9, PT_R9(sp)
	LONG_L	$10, PT_R10(sp)
	LONG_L	$11, PT_R11(sp)
	LONG_L	$12, PT_R12(sp)
	LONG_L	$13, PT_R13(sp)
	LONG_L	$14, PT_R14(sp)
	LONG_L	$15, PT_R15(sp)
	LONG_L	$24, PT_R24(sp)
	LONG_L	$25, PT_R25(sp)
	/* s0-s7, gp and s8 are the callback's to keep: they are as saved */
	jr	ra
	 PTR_ADDIU	sp, sp, PT_SIZE
	END(arch_kretprobe_trampoline)
	.set	pop
