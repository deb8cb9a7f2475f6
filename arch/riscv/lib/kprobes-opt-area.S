/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An area of kprobes' jump-optimization detours linked with arch/riscv/lib,
 * after lib/: within a jal's reach of the end of the kernel's core text
 * (<asm/kprobes-detour.h>; used by arch/riscv/kernel/probes/opt.c).
 */
#include <asm/kprobes-detour.h>

	.text
	.balign	64
	.globl	kprobe_opt_area_lib
kprobe_opt_area_lib:
	kprobe_opt_area_fill
