/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (arc).
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's
 * blink, so its "j_s [blink]" lands here with sp back at its value at
 * entry (ri->fp).  The trampoline takes a struct pt_regs below sp, saves
 * what a return leaves meaningful (r0 and r1, the return value), sp and
 * STATUS32 for the handlers, lets the C callback run the return handlers
 * and returns to the real address with blink holding it, as after a
 * plain return; r0 and r1 come back from pt_regs, where a handler may
 * have changed them.  The other caller-saved registers are dead after a
 * return, and the callback keeps the callee-saved ones.
 *
 * It lives in .kprobes.text: no probe may hit it before its pt_regs
 * exist.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>

	.section .kprobes.text, "ax"
	.align	4
ENTRY_CFI(arch_kretprobe_trampoline)
	sub	sp, sp, SZ_PT_REGS
	st	r0, [sp, PT_r0]
	st	r1, [sp, PT_r1]
	/* sp as the probed function returned it */
	add	r0, sp, SZ_PT_REGS
	st	r0, [sp, PT_sp]
	/* STATUS32 as here: kernel mode, the function's interrupt enable */
	lr	r0, [status32]
	st	r0, [sp, PT_status32]
	mov	r0, arch_kretprobe_trampoline
	st	r0, [sp, PT_ret]
	mov	r0, 0
	st	r0, [sp, PT_blink]

	/* arch_kretprobe_trampoline_callback(regs) */
	bl.d	arch_kretprobe_trampoline_callback
	mov	r0, sp

	/* r0: the real return address, returned through blink */
	mov	blink, r0
	ld	r0, [sp, PT_r0]
	ld	r1, [sp, PT_r1]
	j.d	[blink]
	add	sp, sp, SZ_PT_REGS
END_CFI(arch_kretprobe_trampoline)
