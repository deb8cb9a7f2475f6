/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The detours of optimized probes (arm64; opt.c is the C half).
 *
 * An optimized probe has "B detour" over its instruction.  The detour is
 * a copy of kprobe_opt_template, completed by arch_optprobe_prepare():
 *
 *	detour:	sub	sp, sp, #PT_REGS_SIZE	pt_regs under the probe's sp
 *		stp	x29, x30, [sp, #S_FP]
 *		bl	kprobe_opt_common	the rest of pt_regs, the handler
 *		ldp	x29, x30, [sp, #S_FP]	as the handlers left them
 *		add	sp, sp, #PT_REGS_SIZE
 *	copy:	<the probed instruction>
 *		b	probe + 4
 *		brk	#KPROBES_BRK_IMM	never reached
 *		.quad	the probe's struct kprobe_opt_insn
 *
 * Nothing in the detour writes the condition flags before
 * kprobe_opt_common has saved them, and they are back (from pt_regs)
 * when it returns; SUB, ADD, STP and LDP leave them alone.  So the copy
 * runs with every register, sp and NZCV as at the probe, except what a
 * handler changed in pt_regs (x0 - x30, NZCV); pc and sp changes are
 * ignored.  The 40 bytes per probe fit KPROBE_OPTSLOT_BYTES; the work is
 * kprobe_opt_common, once in the kernel text.
 *
 * B and BL reach +/- 128 MiB, so the detours are carved out of
 * kprobe_opt_area, set aside here in the kernel image: every probe in the
 * kernel image reaches it wherever KASLR put the image, and so does
 * module text placed in the 128 MiB window around the image; module text
 * further away (the 2 GiB PLT window) is refused by opt.c.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>
#include <asm/brk-imm.h>
#include <asm/page-def.h>

#include "arm64-kprobes-asm.h"

/* PSTATE.PAN as a system register (ARMv8.1), readable with ARM64_HAS_PAN. */
#define KPROBE_OPT_SYS_PAN	sys_reg(3, 0, 4, 2, 3)

/* 32 KiB of detours, or one page if pages are larger. */
#if PAGE_SHIFT <= 15
#define KPROBE_OPT_AREA_BYTES	(32 * 1024)
#else
#define KPROBE_OPT_AREA_BYTES	PAGE_SIZE
#endif

	.section ".rodata", "a"
	.balign	8
	.globl	kprobe_opt_template
kprobe_opt_template:
	sub	sp, sp, #PT_REGS_SIZE
	stp	x29, x30, [sp, #S_FP]
	.globl	kprobe_opt_template_call
kprobe_opt_template_call:
	brk	#KPROBES_BRK_IMM		/* bl kprobe_opt_common */
	ldp	x29, x30, [sp, #S_FP]
	add	sp, sp, #PT_REGS_SIZE
	.globl	kprobe_opt_template_copy
kprobe_opt_template_copy:
	brk	#KPROBES_BRK_IMM		/* the probed instruction */
	brk	#KPROBES_BRK_IMM		/* b probe + 4 */
	brk	#KPROBES_BRK_IMM
	.globl	kprobe_opt_template_oi
kprobe_opt_template_oi:
	.quad	0				/* struct kprobe_opt_insn * */
	.globl	kprobe_opt_template_end
kprobe_opt_template_end:

/*
 * Where the record is, from the return address of the bl in a detour: a
 * number, not the labels' difference, which LLVM's assembler cannot put
 * in a load's offset (it leaves it to a fixup, which must be a multiple
 * of the access size); checked against the labels here.  Not a multiple
 * of 8 either: LDUR, whose offset is unscaled.
 */
#define KPROBE_OPT_OI_FROM_RET	20
	.if	kprobe_opt_template_oi - kprobe_opt_template_call - 4 - KPROBE_OPT_OI_FROM_RET
	.error	"KPROBE_OPT_OI_FROM_RET does not match kprobe_opt_template"
	.endif

	.text
/*
 * kprobe_opt_common - save pt_regs, run the handlers, restore
 *
 * Entered from a detour with the frame made and x29, x30 saved in it, x30
 * pointing into the detour; returns there with x0 - x28 and NZCV from
 * pt_regs (the detour does x29 and x30).  pt_regs are those of a BRK at
 * the probe: pc is the probe address, sp the probe's, pstate an EL1h
 * context with the probe's NZCV, DAIF and PAN; the frame record in them
 * links the probe address to the probed code's frames, as the exception
 * entry does, so the unwinder goes through.
 */
SYM_CODE_START(kprobe_opt_common)
	kprobe_regs_x0_x27 stp
	str	x28, [sp, #S_X28]

	/* pstate, with the flags, PAN and (pseudo-NMIs) the priority mask */
	kprobe_regs_el1_pstate x2, x3
	mrs	x3, nzcv
	orr	x2, x2, x3
alternative_if ARM64_HAS_PAN
	mrs_s	x3, KPROBE_OPT_SYS_PAN
	orr	x2, x2, x3
alternative_else_nop_endif
	/* pc: oi->addr (opt.c checks that it is the record's first field) */
	ldur	x0, [x30, #KPROBE_OPT_OI_FROM_RET]
	ldr	x1, [x0]
	stp	x1, x2, [sp, #S_PC]
	add	x2, sp, #PT_REGS_SIZE
	str	x2, [sp, #S_SP]
	mov	w2, #NO_SYSCALL
	str	w2, [sp, #S_SYSCALLNO]

	/* The frame record of the probed context, as the exception entry's. */
	stp	x29, x1, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	/* x19 (saved) keeps the way back into the detour. */
	mov	x19, x30
	mov	x1, sp
	bl	arch_optprobe_handler
	mov	x30, x19

	ldr	x0, [sp, #S_PSTATE]
	and	x0, x0, #(PSR_N_BIT | PSR_Z_BIT | PSR_C_BIT | PSR_V_BIT)
	msr	nzcv, x0
	kprobe_regs_x0_x27 ldp
	ldr	x28, [sp, #S_X28]
	ret
SYM_CODE_END(kprobe_opt_common)
NOKPROBE(kprobe_opt_common)

/*
 * The detour area, in the kernel text so that every branch from the
 * image reaches it.  Nothing may probe it: core.c blacklists the range.
 */
	.balign	64
	.globl	kprobe_opt_area
kprobe_opt_area:
	.rept	KPROBE_OPT_AREA_BYTES / 4
	brk	#KPROBES_BRK_IMM
	.endr
	.globl	kprobe_opt_area_end
kprobe_opt_area_end:
