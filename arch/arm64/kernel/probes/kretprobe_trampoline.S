/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (arm64).
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's x30,
 * so its RET lands here with sp and x29 back at their values at entry
 * (x29 is ri->fp).  The trampoline saves the registers as a struct
 * pt_regs, lets the C callback run the return handlers, and returns to
 * the real address with every register as the probed function left them
 * (x30 holding the real return address, as after a plain RET), unless a
 * handler changed them in pt_regs.  Upstream's trampoline was a BRK: a
 * second exception on every return.
 *
 * Stack while the callback runs (higher addresses first):
 *
 *	S:	the probed function's caller's sp
 *	S - PT_REGS_SIZE: struct pt_regs, sp = S, pc = the real return
 *		address once the core found it; its stackframe[] is a frame
 *		record: { x29 at return, this trampoline }
 *
 * x29 points at that record, so the callback's own record links to it,
 * and arm64's unwinder goes callback -> trampoline -> caller: it finds
 * the real address behind the trampoline's with kretprobe_find_ret_addr()
 * and the caller's x29 (see stacktrace.c).
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

	.text
SYM_CODE_START(arch_kretprobe_trampoline)
	sub	sp, sp, #PT_REGS_SIZE

	stp	x0, x1, [sp, #S_X0]
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	stp	x8, x9, [sp, #S_X8]
	stp	x10, x11, [sp, #S_X10]
	stp	x12, x13, [sp, #S_X12]
	stp	x14, x15, [sp, #S_X14]
	stp	x16, x17, [sp, #S_X16]
	stp	x18, x19, [sp, #S_X18]
	stp	x20, x21, [sp, #S_X20]
	stp	x22, x23, [sp, #S_X22]
	stp	x24, x25, [sp, #S_X24]
	stp	x26, x27, [sp, #S_X26]
	stp	x28, x29, [sp, #S_X28]

	/* x30 and sp as the probed function returned them (adjacent) */
	add	x0, sp, #PT_REGS_SIZE
	stp	x30, x0, [sp, #S_LR]
	/*
	 * pc and pstate (adjacent): an EL1h context with the current DAIF,
	 * so that user_mode() and regs_irqs_disabled() answer for the
	 * probed function.
	 */
	adr	x1, arch_kretprobe_trampoline
	mrs	x2, daif
	mov	x3, #PSR_MODE_EL1h
	orr	x2, x2, x3
	stp	x1, x2, [sp, #S_PC]
	/* With pseudo-NMIs the interrupt mask is the priority mask. */
alternative_if ARM64_HAS_GIC_PRIO_MASKING
	mrs_s	x3, SYS_ICC_PMR_EL1
	str	x3, [sp, #S_PMR_SAVE]
alternative_else_nop_endif

	/* The frame record over pt_regs, see above. */
	stp	x29, x1, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	mov	x0, sp
	bl	arch_kretprobe_trampoline_callback
	/* x0: the real return address, returned through x30 */
	mov	x30, x0

	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldp	x8, x9, [sp, #S_X8]
	ldp	x10, x11, [sp, #S_X10]
	ldp	x12, x13, [sp, #S_X12]
	ldp	x14, x15, [sp, #S_X14]
	ldp	x16, x17, [sp, #S_X16]
	ldp	x18, x19, [sp, #S_X18]
	ldp	x20, x21, [sp, #S_X20]
	ldp	x22, x23, [sp, #S_X22]
	ldp	x24, x25, [sp, #S_X24]
	ldp	x26, x27, [sp, #S_X26]
	ldp	x28, x29, [sp, #S_X28]
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(arch_kretprobe_trampoline)
NOKPROBE(arch_kretprobe_trampoline)
