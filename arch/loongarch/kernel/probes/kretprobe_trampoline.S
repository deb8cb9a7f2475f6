/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (LoongArch).
 *
 * arch_prepare_kretprobe() put this symbol in the probed function's ra,
 * so its "jr ra" lands here with sp back at its value at entry (ri->fp).
 * The trampoline takes a struct pt_regs below sp (rounded up to the
 * ABI's 16 bytes), saves what a return leaves meaningful (a0 and a1, the
 * return value), the registers C code leaves alone (tp, u0, fp), sp,
 * and PRMD made of the current mode and interrupt enable, lets the C
 * callback run the return handlers and returns to the real address with
 * ra holding it, as after a plain return.  a0 and a1 come back from
 * pt_regs, where a handler may have changed them; the temporaries are
 * dead after a return, and the callback keeps s0 - s8.
 *
 * It lives in .kprobes.text: no probe may hit it before its pt_regs
 * exist.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/loongarch.h>
#include <asm/regdef.h>
#include <asm/unwind_hints.h>

#define KPROBE_LA_TRAMP_FRAME	((PT_SIZE + 15) & ~15)

	.section .kprobes.text, "ax"
SYM_CODE_START(arch_kretprobe_trampoline)
	UNWIND_HINT_UNDEFINED
	addi.d	sp, sp, -KPROBE_LA_TRAMP_FRAME
	st.d	ra, sp, PT_R1
	st.d	tp, sp, PT_R2
	st.d	a0, sp, PT_R4
	st.d	a1, sp, PT_R5
	st.d	u0, sp, PT_R21
	st.d	fp, sp, PT_R22
	/* sp as the probed function returned it */
	addi.d	t0, sp, KPROBE_LA_TRAMP_FRAME
	st.d	t0, sp, PT_R3
	/* PRMD: kernel mode, the function's interrupt enable (CRMD.PLV/IE) */
	csrrd	t0, LOONGARCH_CSR_CRMD
	andi	t0, t0, 0x7
	st.d	t0, sp, PT_PRMD
	la.pcrel	t0, arch_kretprobe_trampoline
	st.d	t0, sp, PT_ERA

	/* arch_kretprobe_trampoline_callback(regs) */
	move	a0, sp
	bl	arch_kretprobe_trampoline_callback
	/* a0: the real return address, returned through ra */
	move	ra, a0
	ld.d	a0, sp, PT_R4
	ld.d	a1, sp, PT_R5
	addi.d	sp, sp, KPROBE_LA_TRAMP_FRAME
	jr	ra
SYM_CODE_END(arch_kretprobe_trampoline)
