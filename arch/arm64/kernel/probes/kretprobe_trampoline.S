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
#include <asm/assembler.h>

#include "arm64-kprobes-asm.h"

	.text
SYM_CODE_START(arch_kretprobe_trampoline)
	sub	sp, sp, #PT_REGS_SIZE

	kprobe_regs_x0_x27 stp
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
	kprobe_regs_el1_pstate x2, x3
	stp	x1, x2, [sp, #S_PC]

	/* The frame record over pt_regs, see above. */
	stp	x29, x1, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	mov	x0, sp
	bl	arch_kretprobe_trampoline_callback
	/* x0: the real return address, returned through x30 */
	mov	x30, x0

	kprobe_regs_x0_x27 ldp
	ldp	x28, x29, [sp, #S_X28]
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(arch_kretprobe_trampoline)
NOKPROBE(arch_kretprobe_trampoline)
