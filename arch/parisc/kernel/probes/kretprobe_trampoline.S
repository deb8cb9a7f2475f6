/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (32-bit parisc).
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's %rp,
 * so its "bv %r0(%rp)" lands here with %sp back at its value at entry
 * (ri->fp).  The stack grows up: the trampoline takes PT_SZ_ALGN bytes
 * above %sp, a struct pt_regs and the frame marker of the call it makes,
 * saves the registers there, calls kretprobe_trampoline_handler(regs,
 * the %sp at entry) to run the return handlers and returns to the real
 * address with %rp holding it, as after a plain return.  The return
 * values %r28 and %r29, which a handler may have changed, and %r27 (%dp)
 * are loaded back from pt_regs; %r3 - %r18 are the handler's to keep;
 * the other caller-saved registers are dead at a return, whatever the
 * handlers wrote there.  The instruction address is not saved:
 * kretprobe_trampoline_handler() sets it to the real return address
 * before any handler runs.
 *
 * It lives in .kprobes.text: no probe may hit it before its pt_regs
 * exist.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembly.h>

	.section .kprobes.text, "ax"
	.align	4
ENTRY_CFI(arch_kretprobe_trampoline, frame=PT_SZ_ALGN, CALLS)
	copy	%sp, %r1
	ldo	PT_SZ_ALGN(%sp), %sp

	STREG	%r2, PT_GR2(%r1)
	STREG	%r3, PT_GR3(%r1)
	STREG	%r4, PT_GR4(%r1)
	STREG	%r5, PT_GR5(%r1)
	STREG	%r6, PT_GR6(%r1)
	STREG	%r7, PT_GR7(%r1)
	STREG	%r8, PT_GR8(%r1)
	STREG	%r9, PT_GR9(%r1)
	STREG	%r10, PT_GR10(%r1)
	STREG	%r11, PT_GR11(%r1)
	STREG	%r12, PT_GR12(%r1)
	STREG	%r13, PT_GR13(%r1)
	STREG	%r14, PT_GR14(%r1)
	STREG	%r15, PT_GR15(%r1)
	STREG	%r16, PT_GR16(%r1)
	STREG	%r17, PT_GR17(%r1)
	STREG	%r18, PT_GR18(%r1)
	STREG	%r19, PT_GR19(%r1)
	STREG	%r20, PT_GR20(%r1)
	STREG	%r21, PT_GR21(%r1)
	STREG	%r22, PT_GR22(%r1)
	STREG	%r23, PT_GR23(%r1)
	STREG	%r24, PT_GR24(%r1)
	STREG	%r25, PT_GR25(%r1)
	STREG	%r26, PT_GR26(%r1)
	STREG	%r27, PT_GR27(%r1)
	STREG	%r28, PT_GR28(%r1)
	STREG	%r29, PT_GR29(%r1)
	/* %sp as the probed function returned it */
	STREG	%r1, PT_GR30(%r1)
	STREG	%r31, PT_GR31(%r1)
	/* The system mask: PSW I as the function returned, for the handlers */
	ssm	0, %r19
	STREG	%r19, PT_PSW(%r1)

	/* kretprobe_trampoline_handler(regs, ri->fp) */
	copy	%r1, %r26
	copy	%r1, %r25
	load32	kretprobe_trampoline_handler, %r19
	load32	.Lkretprobe_back, %rp
	bv	%r0(%r19)
	nop
.Lkretprobe_back:
	/* %r28: the real return address, returned through %rp */
	copy	%r28, %rp
	ldo	-PT_SZ_ALGN(%sp), %r1

	LDREG	PT_GR27(%r1), %r27
	LDREG	PT_GR28(%r1), %r28
	LDREG	PT_GR29(%r1), %r29
	bv	%r0(%rp)
	copy	%r1, %sp
ENDPROC_CFI(arch_kretprobe_trampoline)
