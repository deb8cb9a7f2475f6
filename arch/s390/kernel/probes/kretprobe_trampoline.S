/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The return trampoline of s390 kretprobes.  arch_prepare_kretprobe()
 * makes the probed function return here; this saves what the function
 * returned with as a pt_regs, lets arch_kretprobe_trampoline_callback()
 * run the return handlers, and goes to the real return address it gives
 * back, with every register as the handlers left it in the pt_regs.
 *
 * Stack, from the top of the new frame down:
 *
 *   %r15 + KRP_FRAME	the stack pointer the function returned with; its
 *			save area gets %r14, the trampoline, where a
 *			prologue would have put it, so that the back-chain
 *			unwinder sees the trampoline there and asks the
 *			core for the real address
 *   %r15 + KRP_REGS	the pt_regs
 *   %r15		a frame for the C callee; its back chain points up
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/nospec-insn.h>

#define KRP_REGS	STACK_FRAME_OVERHEAD
#define KRP_FRAME	(STACK_FRAME_OVERHEAD + __PT_SIZE)

	GEN_BR_THUNK %r14

	.section .kprobes.text, "ax"

SYM_CODE_START(arch_kretprobe_trampoline)
	stg	%r14,__SF_GPRS+8*8(%r15)
	lay	%r15,-KRP_FRAME(%r15)
	stmg	%r0,%r14,KRP_REGS+__PT_GPRS(%r15)
	la	%r1,KRP_FRAME(%r15)
	stg	%r1,KRP_REGS+__PT_GPRS+15*8(%r15)
	stg	%r1,__SF_BACKCHAIN(%r15)
	xc	KRP_REGS+__PT_ORIG_GPR2(8,%r15),KRP_REGS+__PT_ORIG_GPR2(%r15)
	xc	KRP_REGS+__PT_FLAGS(8,%r15),KRP_REGS+__PT_FLAGS(%r15)
	# The PSW: its mask from EPSW (two halves), its address the
	# trampoline's until the core puts the real return address there.
	epsw	%r2,%r3
	sllg	%r2,%r2,32
	lr	%r2,%r3
	stg	%r2,KRP_REGS+__PT_PSW(%r15)
	larl	%r1,arch_kretprobe_trampoline
	stg	%r1,KRP_REGS+__PT_PSW+8(%r15)
	la	%r2,KRP_REGS(%r15)
	brasl	%r14,arch_kretprobe_trampoline_callback
	lgr	%r14,%r2
	lmg	%r0,%r13,KRP_REGS+__PT_GPRS(%r15)
	lg	%r15,KRP_REGS+__PT_GPRS+15*8(%r15)
	BR_EX	%r14
SYM_CODE_END(arch_kretprobe_trampoline)
