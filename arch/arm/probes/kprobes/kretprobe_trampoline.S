/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (32-bit ARM): ARM code in an ARM-mode
 * kernel, Thumb-2 code in a Thumb-2 one (the kernel's default instruction
 * set; every instruction below exists in both).  In a Thumb-2 kernel the
 * address arch_prepare_kretprobe() puts in lr has bit 0 set, as the
 * symbol of a Thumb function has, and so has the real return address:
 * both returns stay in Thumb state.
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's lr,
 * so its return lands here with sp and fp back at their values at entry
 * (fp is ri->fp).  The trampoline saves the registers as a struct
 * pt_regs, lets the C callback run the return handlers, and returns to
 * the real address with every register as the probed function left them
 * (lr holding the real return address, as after a plain return), unless
 * a handler changed them in pt_regs.
 *
 * Stack while the callback runs (higher addresses first):
 *
 *	S:	the sp the probed function returned with
 *	S - 16:	a frame record for the frame-pointer unwinder, what an
 *		APCS prologue would have pushed: { fp at return, S, this
 *		trampoline, this trampoline } (fp, sp, lr, pc)
 *	S - 16 - PT_REGS_SIZE: struct pt_regs, sp = S, pc = this trampoline
 *		(the core then makes it the real return address)
 *
 * fp points at the record's last word (at its first with clang, whose
 * record is { fp, lr }), so the callback's own frame links to it and the
 * unwinder goes callback -> trampoline -> caller: it finds the real
 * address behind the trampoline's with kretprobe_find_ret_addr() and the
 * caller's fp (see stacktrace.c).
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/unwind.h>

#define KRP_RECORD	16
#define KRP_FRAME	(PT_REGS_SIZE + KRP_RECORD)

	.text
	.align	2
ENTRY(arch_kretprobe_trampoline)
UNWIND(	.fnstart	)
UNWIND(	.cantunwind	)
	sub	sp, sp, #KRP_FRAME
	stmia	sp, {r0 - r12}
	add	r0, sp, #KRP_FRAME		@ the sp at return
	adr	r1, arch_kretprobe_trampoline
	mrs	r2, cpsr
	mov	r3, #-1				@ orig_r0: not a syscall
	str	r0, [sp, #S_SP]
	str	lr, [sp, #S_LR]
	str	r1, [sp, #S_PC]
	str	r2, [sp, #S_PSR]
	str	r3, [sp, #S_OLD_R0]

	@ the frame record, see above
	str	fp, [sp, #PT_REGS_SIZE]
	str	r0, [sp, #PT_REGS_SIZE + 4]
	str	r1, [sp, #PT_REGS_SIZE + 8]
	str	r1, [sp, #PT_REGS_SIZE + 12]
#ifdef CONFIG_CC_IS_CLANG
	str	r1, [sp, #PT_REGS_SIZE + 4]
	add	fp, sp, #PT_REGS_SIZE
#else
	add	fp, sp, #PT_REGS_SIZE + 12
#endif

	mov	r0, sp
	bl	arch_kretprobe_trampoline_callback
	mov	lr, r0				@ the real return address

	ldmia	sp, {r0 - r12}			@ fp too: the caller's
	add	sp, sp, #KRP_FRAME
	ret	lr
UNWIND(	.fnend		)
ENDPROC(arch_kretprobe_trampoline)
_ASM_NOKPROBE(arch_kretprobe_trampoline)
