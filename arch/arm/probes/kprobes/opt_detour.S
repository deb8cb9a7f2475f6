/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Detours of jump-optimized probes (32-bit ARM, ARM-mode kernels); the C
 * half is opt.c.
 *
 * An optimized probe has "b detour" in place of its UDF.  Each detour is
 * kprobe_opt_template, copied into a buffer of kprobe_opt_area and
 * completed by opt.c:
 *
 *	+0	sub	sp, sp, #KPROBE_OPT_FRAME	the frame under the probe's sp
 *	+4	str	lr, [sp, #S_LR]
 *	+8	bl	kprobe_opt_common		pt_regs, the handlers
 *	+12	ldr	lr, [sp, #S_LR]			lr as the handlers left it
 *	+16	add	sp, sp, #KPROBE_OPT_FRAME	the frame is gone ...
 *	+20	<the probed instruction>		... before the copy runs
 *	+24	b	probe + 4
 *	+28	UDF					never reached
 *	+32	.word	the probe's struct kprobe_opt_insn
 *
 * The copy thus runs with every register, sp and the flags as at the
 * probe (but what the handlers changed in pt_regs: r0 - r12, lr and the
 * flags); a store below sp, a push or a conditional instruction does
 * there what it does in place.  Nothing in the detour writes the flags:
 * kprobe_opt_common reads the CPSR before anything else and writes the
 * flags back (NZCVQ and GE) last.
 *
 * The frame, from the sp of the detour (higher addresses last):
 *
 *	sp + 0			struct pt_regs: pc the probe address, sp the
 *				probe's, cpsr the probed context's
 *	sp + PT_REGS_SIZE	a frame record for the frame-pointer unwinder,
 *				as an APCS prologue pushes one: { fp, sp at
 *				the probe, probe, probe }; the handlers' stack
 *				traces go on through the probe address into
 *				the probed code's frames.  With the
 *				unwind-table unwinder, kprobe_opt_common says
 *				that the registers are in pt_regs, as the
 *				exception entries do.
 *
 * 88 bytes: a multiple of 8, so the handlers run with sp 8-byte aligned
 * whenever the probed code's is (the kernel's C code keeps it so; ARMv7
 * kernels run with alignment checking off, which LDRD/STRD on a 4-byte
 * aligned sp would need).
 *
 * B reaches +/- 32 MiB, so the buffers are carved out of kprobe_opt_area,
 * here in the kernel image: every probe of the image reaches it, and so
 * does module text in the 16 MiB module area below the image unless the
 * image is very large; opt.c refuses what is out of reach.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/unwind.h>

#define KPROBE_OPT_RECORD	16
#define KPROBE_OPT_FRAME	(PT_REGS_SIZE + KPROBE_OPT_RECORD)

/* BREAKPOINT_INSTRUCTION of <asm/kprobes.h>, which C alone can include. */
#define KPROBE_OPT_UDF		0xe7fd01f8

/* 16 KiB of detours: 340 of them. */
#define KPROBE_OPT_AREA_BYTES	(16 * 1024)

	.section ".rodata", "a"
	.align	2
	.globl	kprobe_opt_template
kprobe_opt_template:
	sub	sp, sp, #KPROBE_OPT_FRAME
	str	lr, [sp, #S_LR]
	.globl	kprobe_opt_template_call
kprobe_opt_template_call:
	.word	KPROBE_OPT_UDF			@ bl kprobe_opt_common
	ldr	lr, [sp, #S_LR]
	add	sp, sp, #KPROBE_OPT_FRAME
	.globl	kprobe_opt_template_copy
kprobe_opt_template_copy:
	.word	KPROBE_OPT_UDF			@ the probed instruction
	.word	KPROBE_OPT_UDF			@ b probe + 4
	.word	KPROBE_OPT_UDF
	.globl	kprobe_opt_template_oi
kprobe_opt_template_oi:
	.word	0				@ struct kprobe_opt_insn *
	.globl	kprobe_opt_template_end
kprobe_opt_template_end:

/* The record's word, from the return address of the detour's bl. */
#define KPROBE_OPT_OI_FROM_LR \
	(kprobe_opt_template_oi - kprobe_opt_template_call - 4)

	.text
	.arm
	.align	2
/*
 * kprobe_opt_common - fill pt_regs, run the handlers, reload registers
 *
 * Entered from a detour with the frame made, the probed context's lr in
 * pt_regs and lr pointing back into the detour; returns there with r0 -
 * r12 and the flags from pt_regs.  The record's first field is the probe
 * address (opt.c checks it).
 */
ENTRY(kprobe_opt_common)
UNWIND(	.fnstart	)
UNWIND(	.save	{r0 - pc}	)
	stmia	sp, {r0 - r12}
	mrs	r2, cpsr			@ first: the flags are intact
	add	r3, sp, #KPROBE_OPT_FRAME	@ the probe's sp
	ldr	r0, [lr, #KPROBE_OPT_OI_FROM_LR]
	ldr	r1, [r0]			@ oi->addr
	str	r3, [sp, #S_SP]
	str	r1, [sp, #S_PC]
	str	r2, [sp, #S_PSR]
	mov	r2, #-1				@ orig_r0: not a syscall
	str	r2, [sp, #S_OLD_R0]

	@ the frame record, see above
	str	fp, [sp, #PT_REGS_SIZE]
	str	r3, [sp, #PT_REGS_SIZE + 4]
	str	r1, [sp, #PT_REGS_SIZE + 8]
	str	r1, [sp, #PT_REGS_SIZE + 12]
#ifdef CONFIG_CC_IS_CLANG
	str	r1, [sp, #PT_REGS_SIZE + 4]
	add	fp, sp, #PT_REGS_SIZE
#else
	add	fp, sp, #PT_REGS_SIZE + 12
#endif

	mov	r4, lr				@ saved in pt_regs already
	mov	r1, sp
	bl	arch_optprobe_handler
	mov	lr, r4

	ldr	r0, [sp, #S_PSR]
	msr	cpsr_fs, r0			@ NZCVQ and GE
	ldmia	sp, {r0 - r12}			@ fp too
	ret	lr
UNWIND(	.fnend		)
ENDPROC(kprobe_opt_common)
_ASM_NOKPROBE(kprobe_opt_common)

/*
 * The detour area, kernel text that nothing may probe (core.c blacklists
 * it).  UDFs until a detour is written.
 */
	.align	6
	.globl	kprobe_opt_area
kprobe_opt_area:
	.rept	KPROBE_OPT_AREA_BYTES / 4
	.word	KPROBE_OPT_UDF
	.endr
	.globl	kprobe_opt_area_end
kprobe_opt_area_end:
