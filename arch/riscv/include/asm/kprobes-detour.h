/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * riscv jump optimization: the layout of a detour, which its template
 * (arch/riscv/kernel/probes/opt_detour.S) and opt.c share, and the areas
 * of detours in the kernel image.
 *
 * An optimized probe is "jal zero, detour", which reaches +/- 1 MiB, so
 * the kernel image keeps its detours in several areas of its text, each
 * placed by the link order of the object that holds it, so that as much
 * of the text as possible has one within reach: one with the rest of
 * arch/riscv at the start of the text (arch/riscv, then the core of
 * kernel/), one with arch/riscv/lib after lib/ (the end of the core:
 * mm/, fs/, lib/ and the first drivers).  Each is filled with ebreaks, so
 * that a stray jump into a free detour traps, and blacklisted.
 */
#ifndef _ASM_RISCV_KPROBES_DETOUR_H
#define _ASM_RISCV_KPROBES_DETOUR_H

/* Byte offsets into a detour: the call, the copy, the record. */
#define KPROBE_OPT_DETOUR_CALL	8
#define KPROBE_OPT_DETOUR_RET	16
#define KPROBE_OPT_DETOUR_COPY	24
#define KPROBE_OPT_DETOUR_OI	40
#define KPROBE_OPT_DETOUR_BYTES	48

/* The size of one area of detours in the kernel image. */
#define KPROBE_OPT_AREA_BYTES	(16 * 1024)

#ifdef __ASSEMBLY__

/*
 * The body of an area, after its label: every word an ebreak.  32-bit
 * ones, since a detour's words are.
 */
.macro kprobe_opt_area_fill
	.option	push
	.option	norvc
	.rept	KPROBE_OPT_AREA_BYTES / 4
	ebreak
	.endr
	.option	pop
.endm

#endif /* __ASSEMBLY__ */

#endif /* _ASM_RISCV_KPROBES_DETOUR_H */
