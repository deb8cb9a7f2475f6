/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The detours of optimized probes (riscv; opt.c is the C half).
 *
 * An optimized probe has "jal zero, detour" over its 32-bit instruction.
 * The detour is a copy of kprobe_opt_template, completed by
 * arch_optprobe_prepare() (every instruction 32 bits, at fixed offsets):
 *
 *	+0	addi	sp, sp, -KPROBE_OPT_FRAME	pt_regs under the probe's sp
 *	+4	sd	ra, PT_RA(sp)
 *	+8	auipc	ra, %hi(kprobe_opt_common)
 *	+12	jalr	ra, %lo(kprobe_opt_common)(ra)	the rest of pt_regs, handler
 *	+16	ld	ra, PT_RA(sp)			as the handlers left it
 *	+20	addi	sp, sp, KPROBE_OPT_FRAME
 *	+24	<the probed instruction>
 *	+28	jal	zero, probe + 4
 *	+32	ebreak, ebreak				never reached
 *	+40	.dword	the probe's struct kprobe_opt_insn
 *
 * The copy runs with every register as at the probe but what a handler
 * changed in pt_regs (sp and epc changes are ignored).  The call to
 * kprobe_opt_common goes through ra, which the detour saved first, so it
 * reaches +/- 2 GiB: from the kernel image's area and from detour pages
 * in the module area alike.  The two jal reach +/- 1 MiB only, which
 * decides where a detour may be (opt.c).
 *
 * kprobe_opt_area, defined here, is the kernel image's area of detours
 * at the start of its text; <asm/kprobes-detour.h> says where the others
 * are.  opt.c blacklists them.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/csr.h>
#include <asm/kprobes-detour.h>

/* pt_regs, then a frame record (fp, ra) linking the probe to its caller. */
#define KPROBE_OPT_FRAME	(PT_SIZE_ON_STACK + 2 * SZREG)
/* From the return address of the call in a detour to its record. */
#define KPROBE_OPT_OI_FROM_RA	(KPROBE_OPT_DETOUR_OI - KPROBE_OPT_DETOUR_RET)

	.section ".rodata", "a"
	.balign	8
	.option	push
	.option	norvc
	.option	norelax
	.globl	kprobe_opt_template
kprobe_opt_template:
	addi	sp, sp, -KPROBE_OPT_FRAME
	REG_S	ra, PT_RA(sp)
	.globl	kprobe_opt_template_call
kprobe_opt_template_call:
	auipc	ra, 0
	jalr	ra, 0(ra)
	REG_L	ra, PT_RA(sp)
	addi	sp, sp, KPROBE_OPT_FRAME
	.globl	kprobe_opt_template_copy
kprobe_opt_template_copy:
	ebreak				/* the probed instruction */
	ebreak				/* jal zero, probe + 4 */
	ebreak
	ebreak
	.globl	kprobe_opt_template_oi
kprobe_opt_template_oi:
	.dword	0			/* struct kprobe_opt_insn * */
	.globl	kprobe_opt_template_end
kprobe_opt_template_end:
	.option	pop
	.if	kprobe_opt_template_call - kprobe_opt_template != KPROBE_OPT_DETOUR_CALL
	.error	"the call is not where <asm/kprobes-detour.h> says"
	.endif
	.if	kprobe_opt_template_copy - kprobe_opt_template != KPROBE_OPT_DETOUR_COPY
	.error	"the copy is not where <asm/kprobes-detour.h> says"
	.endif
	.if	kprobe_opt_template_oi - kprobe_opt_template != KPROBE_OPT_DETOUR_OI
	.error	"the record is not where <asm/kprobes-detour.h> says"
	.endif
	.if	kprobe_opt_template_end - kprobe_opt_template != KPROBE_OPT_DETOUR_BYTES
	.error	"the detour is not as long as <asm/kprobes-detour.h> says"
	.endif

	.text
/*
 * kprobe_opt_common - save pt_regs, run the handlers, restore
 *
 * Entered from a detour with the frame made and ra saved in it, ra
 * pointing into the detour; returns there with every register but ra and
 * sp from pt_regs (the detour does those two).  pt_regs are those of a
 * breakpoint at the probe: epc the probe address (the record's first
 * field), sp the probe's, status a kernel context whose "previous"
 * interrupt enable is the current one.
 */
SYM_CODE_START(kprobe_opt_common)
	REG_S	gp, PT_GP(sp)
	REG_S	tp, PT_TP(sp)
	REG_S	t0, PT_T0(sp)
	save_from_x6_to_x31

	addi	t0, sp, KPROBE_OPT_FRAME
	REG_S	t0, PT_SP(sp)
	REG_L	a0, KPROBE_OPT_OI_FROM_RA(ra)
	REG_L	t1, 0(a0)
	REG_S	t1, PT_EPC(sp)
	REG_S	zero, PT_BADADDR(sp)
	REG_S	zero, PT_CAUSE(sp)
	REG_L	t2, PT_A0(sp)
	REG_S	t2, PT_ORIG_A0(sp)
	csrr	t2, CSR_STATUS
	andi	t2, t2, SR_IE
	slli	t2, t2, 4	/* SR_IE is bit 1, SR_PIE bit 5 */
	li	t3, SR_PP
	or	t2, t2, t3
	REG_S	t2, PT_STATUS(sp)

	/* The frame record over pt_regs: the probe address, its s0. */
	REG_S	s0, PT_SIZE_ON_STACK(sp)
	REG_S	t1, (PT_SIZE_ON_STACK + SZREG)(sp)
	mv	s0, t0

	/* s1 (saved) keeps the way back into the detour. */
	mv	s1, ra
	mv	a1, sp
	call	arch_optprobe_handler
	mv	ra, s1

	REG_L	gp, PT_GP(sp)
	REG_L	tp, PT_TP(sp)
	REG_L	t0, PT_T0(sp)
	restore_from_x6_to_x31
	ret
SYM_CODE_END(kprobe_opt_common)
ASM_NOKPROBE(kprobe_opt_common)

/* The kernel image's first area of detours, with the rest of arch/riscv. */
	.balign	64
	.globl	kprobe_opt_area
kprobe_opt_area:
	kprobe_opt_area_fill
