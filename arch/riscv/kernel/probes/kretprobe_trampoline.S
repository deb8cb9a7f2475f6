/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (riscv).
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's ra,
 * so its return lands here with sp back at its value at entry (ri->fp)
 * and ra still pointing here.  The trampoline saves the registers as a
 * struct pt_regs, lets the C callback run the return handlers, and
 * returns to the real address with every register as the probed function
 * left them (ra holding the real return address, as after a plain ret),
 * unless a handler changed them in pt_regs.
 *
 * Stack while the callback runs (higher addresses first):
 *
 *	S = ri->fp:	the caller's sp
 *	S - 8:		frame record: ra = this trampoline
 *	S - 16:		frame record: fp = the caller's s0
 *	S - 16 - PT_SIZE_ON_STACK:  struct pt_regs, sp = S, epc = the real
 *			return address once the core found it
 *
 * s0 is S, so the callback's frame record links to the record above, and
 * riscv's frame-pointer unwinder goes callback -> trampoline -> caller:
 * it finds the real address behind the trampoline's with
 * kretprobe_find_ret_addr() and S (see stacktrace.c).
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/csr.h>

#define KRP_FRAME	(PT_SIZE_ON_STACK + 2 * SZREG)

	.text
SYM_CODE_START(arch_kretprobe_trampoline)
	addi	sp, sp, -KRP_FRAME

	/* pt_regs: ra, gp, tp, t0, then x6..x31 with the base's macro */
	REG_S	ra, PT_RA(sp)
	REG_S	gp, PT_GP(sp)
	REG_S	tp, PT_TP(sp)
	REG_S	t0, PT_T0(sp)
	save_from_x6_to_x31

	/* sp as the probed function returned it */
	addi	t0, sp, KRP_FRAME
	REG_S	t0, PT_SP(sp)
	la	t1, arch_kretprobe_trampoline
	REG_S	t1, PT_EPC(sp)
	REG_S	zero, PT_BADADDR(sp)
	REG_S	zero, PT_CAUSE(sp)
	REG_S	zero, PT_ORIG_A0(sp)
	/*
	 * status: a kernel context (SPP) whose "previous" interrupt enable
	 * is the current one, so that user_mode() and regs_irqs_disabled()
	 * answer for the probed function.
	 */
	csrr	t2, CSR_STATUS
	andi	t2, t2, SR_IE
	slli	t2, t2, 4	/* SR_IE is bit 1, SR_PIE bit 5 */
	li	t3, SR_PP
	or	t2, t2, t3
	REG_S	t2, PT_STATUS(sp)

	/* The frame record over pt_regs; s0 = S. */
	REG_S	s0, PT_SIZE_ON_STACK(sp)
	REG_S	t1, (PT_SIZE_ON_STACK + SZREG)(sp)
	mv	s0, t0

	mv	a0, sp
	call	arch_kretprobe_trampoline_callback
	/* a0: the real return address, returned through ra */
	REG_S	a0, PT_RA(sp)

	REG_L	ra, PT_RA(sp)
	REG_L	gp, PT_GP(sp)
	REG_L	tp, PT_TP(sp)
	REG_L	t0, PT_T0(sp)
	restore_from_x6_to_x31
	addi	sp, sp, KRP_FRAME
	ret
SYM_CODE_END(arch_kretprobe_trampoline)
ASM_NOKPROBE(arch_kretprobe_trampoline)
