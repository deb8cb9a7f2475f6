/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 kprobes: what the back-end's assembly shares.  The kretprobe
 * trampoline (kretprobe_trampoline.S) and the detours of optimized probes
 * (opt_detour.S) build a struct pt_regs on the stack, as an exception
 * entry at the same place would, without being one.
 */
#ifndef _ARM64_KERNEL_PROBES_KPROBES_ASM_H
#define _ARM64_KERNEL_PROBES_KPROBES_ASM_H

#include <asm/alternative.h>
#include <asm/asm-offsets.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

/* Store ("stp") or load ("ldp") x0 - x27 of the struct pt_regs at sp. */
	.macro	kprobe_regs_x0_x27, op
	\op	x0, x1, [sp, #S_X0]
	\op	x2, x3, [sp, #S_X2]
	\op	x4, x5, [sp, #S_X4]
	\op	x6, x7, [sp, #S_X6]
	\op	x8, x9, [sp, #S_X8]
	\op	x10, x11, [sp, #S_X10]
	\op	x12, x13, [sp, #S_X12]
	\op	x14, x15, [sp, #S_X14]
	\op	x16, x17, [sp, #S_X16]
	\op	x18, x19, [sp, #S_X18]
	\op	x20, x21, [sp, #S_X20]
	\op	x22, x23, [sp, #S_X22]
	\op	x24, x25, [sp, #S_X24]
	\op	x26, x27, [sp, #S_X26]
	.endm

/*
 * \rd = the pstate of an EL1h context with the current DAIF, so that
 * user_mode() and regs_irqs_disabled() answer for the interrupted code;
 * with pseudo-NMIs the interrupt mask is the priority mask, which goes
 * to pmr_save of the struct pt_regs at sp.  \tmp is clobbered; the
 * condition flags are not.
 */
	.macro	kprobe_regs_el1_pstate, rd, tmp
	mrs	\rd, daif
	mov	\tmp, #PSR_MODE_EL1h
	orr	\rd, \rd, \tmp
alternative_if ARM64_HAS_GIC_PRIO_MASKING
	mrs_s	\tmp, SYS_ICC_PMR_EL1
	str	\tmp, [sp, #S_PMR_SAVE]
alternative_else_nop_endif
	.endm

#endif /* _ARM64_KERNEL_PROBES_KPROBES_ASM_H */
