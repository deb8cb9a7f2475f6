/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The detours of optimized probes (powerpc; opt.c is the C half).
 *
 * An optimized probe has "b detour" over its instruction.  The detour is
 * a copy of kprobe_opt_template, completed by arch_optprobe_prepare()
 * (stdu/std/ld on 64-bit, stwu/stw/lwz on 32-bit: PPC_STLU and friends):
 *
 *	detour:	stdu	r1, -INT_FRAME_SIZE(r1)	a frame past the red zone
 *		std	r0, GPR0(r1)
 *		mflr	r0
 *		std	r0, _LINK(r1)
 *		bl	kprobe_opt_common	pt_regs, arch_optprobe_handler()
 *		ld	r0, _LINK(r1)		LR as the handlers left it
 *		mtlr	r0
 *		ld	r0, GPR0(r1)
 *		addi	r1, r1, INT_FRAME_SIZE
 *	copy:	<the probed instruction>
 *		b	probe + 4
 *		trap
 *		.long	the probe's struct kprobe_opt_insn (.quad on 64-bit)
 *
 * The per-probe part is 64 bytes (KPROBE_OPTSLOT_BYTES); the rest of the
 * work is kprobe_opt_common, one copy in the kernel text.  The probed
 * instruction runs with every register as the handlers left them in
 * pt_regs, except r1 and r13 (the stack pointer and, on 64-bit, the
 * paca: the task may have moved to another CPU meanwhile); nip is the
 * probe address for the handlers and changes to it are ignored
 * (kprobe_opt_hit()).
 *
 * A branch reaches +/- 32 MB, so the detours cannot be in module or
 * vmalloc space: they are carved out of kprobe_opt_area, set aside here
 * in the kernel text and filled with traps.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/feature-fixups.h>
#include <asm/mmu.h>
#include <asm/ppc_asm.h>
#include <asm/ptrace.h>
/* Last: its macros use the ones above. */
#include <asm/kup.h>

/* The detour area: 64 KiB, 1,024 detours, handed out a page at a time. */
#define KPROBE_PPC_OPT_AREA_BYTES	(64 * 1024)

	.section ".rodata", "a"
	.balign	8
	.globl	kprobe_opt_template
kprobe_opt_template:
	PPC_STLU r1, -INT_FRAME_SIZE(r1)
	SAVE_GPR(0, r1)
	mflr	r0
	PPC_STL	r0, _LINK(r1)
	.globl	kprobe_opt_template_call
kprobe_opt_template_call:
	trap				/* bl kprobe_opt_common */
	PPC_LL	r0, _LINK(r1)
	mtlr	r0
	REST_GPR(0, r1)
	addi	r1, r1, INT_FRAME_SIZE
	.globl	kprobe_opt_template_copy
kprobe_opt_template_copy:
	trap				/* the probed instruction */
	trap				/* b probe + 4 */
	trap
	.globl	kprobe_opt_template_oi
kprobe_opt_template_oi:
	PPC_LONG 0			/* struct kprobe_opt_insn * */
	.globl	kprobe_opt_template_end
kprobe_opt_template_end:

/* Where the record is, from the return address of the bl in a detour. */
#define KPROBE_OPT_OI_FROM_RET \
	(kprobe_opt_template_oi - kprobe_opt_template_call - 4)

	.text
/*
 * kprobe_opt_common - save pt_regs, run the handlers, restore
 *
 * Entered from a detour with the frame made, r0 and LR saved in it, and
 * LR pointing into the detour; returns there with every register but r0
 * and LR restored from pt_regs (the detour does those two), and the user
 * access state as it was.  On 64-bit, r13 must be the paca, as
 * everywhere outside the interrupt vectors (which are not probed), and
 * user access is closed and reopened here (AMR); on 32-bit (Book3S,
 * BookE, 8xx) that is done in C (arch_optprobe_handler()), as their
 * interrupt entries do.
 */
_GLOBAL(kprobe_opt_common)
	SAVE_GPRS(2, 31, r1)
	addi	r0, r1, INT_FRAME_SIZE
	PPC_STL	r0, GPR1(r1)
	mfctr	r0
	PPC_STL	r0, _CTR(r1)
	mfcr	r0
	PPC_STL	r0, _CCR(r1)
	mfxer	r0
	PPC_STL	r0, _XER(r1)
	mfmsr	r0
	PPC_STL	r0, _MSR(r1)
	li	r0, 0
	PPC_STL	r0, _TRAP(r1)
	PPC_STL	r0, RESULT(r1)
	PPC_STL	r0, ORIG_GPR3(r1)
	PPC_STL	r0, _DAR(r1)
	PPC_STL	r0, _DSISR(r1)
#ifdef CONFIG_PPC64
	lbz	r0, PACAIRQSOFTMASK(r13)
	std	r0, SOFTE(r1)
	/*
	 * User access closed while the handlers run, as on any kernel
	 * entry: the probe may sit inside a user-access window (cr1 is
	 * saved, r9 and r10 too).
	 */
	kuap_save_amr_and_lock r9, r10, cr1
#endif

	/* r31 (saved) keeps the way back into the detour. */
	mflr	r31
	PPC_LL	r3, KPROBE_OPT_OI_FROM_RET(r31)
	/* nip: the probe address, oi->addr (opt.c checks the offset) */
	PPC_LL	r0, 0(r3)
	PPC_STL	r0, _NIP(r1)
	/* An exception frame to the unwinders, as a trap would make. */
	LOAD_REG_IMMEDIATE(r0, STACK_FRAME_REGS_MARKER)
	PPC_STL	r0, STACK_INT_FRAME_MARKER(r1)
	addi	r4, r1, STACK_INT_FRAME_REGS
#ifdef CONFIG_PPC64
	LOAD_PACA_TOC()
#endif
	bl	CFUNC(arch_optprobe_handler)
	mtlr	r31
#ifdef CONFIG_PPC64
	/* The probed context's AMR back (uses r9, r10 and cr0). */
	kuap_kernel_restore r9, r10
#endif

	PPC_LL	r0, _CTR(r1)
	mtctr	r0
	PPC_LL	r0, _XER(r1)
	mtxer	r0
	PPC_LL	r0, _CCR(r1)
	mtcr	r0
	REST_GPRS(2, 12, r1)
	REST_GPRS(14, 31, r1)
	blr
_ASM_NOKPROBE_SYMBOL(kprobe_opt_common)

/*
 * The detour area, in the kernel text so that every branch from core
 * text reaches it.  Nothing may probe it: arch_within_kprobe_blacklist()
 * refuses the whole range.
 */
	.balign	64
	.globl	kprobe_opt_area
kprobe_opt_area:
	.rept	KPROBE_PPC_OPT_AREA_BYTES / 4
	trap
	.endr
	.globl	kprobe_opt_area_end
kprobe_opt_area_end:
