/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The detour template of the ports whose instructions are 32-bit words
 * (arm64, arm, powerpc), as their opt_detour.S defines it.  One detour is
 * written there once; for each optimized probe the optimizer copies it
 * into a slot of the detour area and completes it at three marked words:
 *
 *   kprobe_opt_template_call  the call of kprobe_opt_common, which saves
 *                             pt_regs as a breakpoint at the probe would
 *                             show them and calls arch_optprobe_handler()
 *   kprobe_opt_template_copy  the copy of the probed instruction, then
 *                             the branch back after it
 *   kprobe_opt_template_oi    the address of the probe's record
 *                             (struct kprobe_opt_insn)
 *
 * The detour area, kprobe_opt_area to kprobe_opt_area_end, lies in the
 * kernel image, so that a probe anywhere in the image reaches it with
 * one branch; it is full of breakpoints until the optimizer hands its
 * pages out (kprobe_opt_area_page_get() in <asm-generic/kprobes-opt.h>),
 * and the port's core.c blacklists it.  riscv's template is in bytes
 * (compressed instructions) and keeps its own declarations; x86 builds
 * its detours from a layout of its own.
 *
 * Included by the port's private header, which every file of the port
 * includes.
 */
#ifndef _ASM_GENERIC_KPROBES_OPT_TEMPLATE_H
#define _ASM_GENERIC_KPROBES_OPT_TEMPLATE_H

#include <linux/types.h>

/* Instruction words, as the CPU fetches them; never executed in place. */
extern const u32 kprobe_opt_template[], kprobe_opt_template_call[],
	kprobe_opt_template_copy[], kprobe_opt_template_oi[],
	kprobe_opt_template_end[];

/* Word indices of the marks in a detour, and the template's length. */
#define KPROBE_OPT_CALL		(kprobe_opt_template_call - kprobe_opt_template)
#define KPROBE_OPT_COPY		(kprobe_opt_template_copy - kprobe_opt_template)
#define KPROBE_OPT_OI		(kprobe_opt_template_oi - kprobe_opt_template)
#define KPROBE_OPT_USED		(kprobe_opt_template_end - kprobe_opt_template)

extern u32 kprobe_opt_area[], kprobe_opt_area_end[];

/* The routine every detour calls; it calls arch_optprobe_handler(). */
void kprobe_opt_common(void);

#endif /* _ASM_GENERIC_KPROBES_OPT_TEMPLATE_H */
