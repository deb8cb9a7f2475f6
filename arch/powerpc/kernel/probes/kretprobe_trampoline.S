/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (powerpc): arch_prepare_kretprobe()
 * puts it in the probed function's link register; return_trampoline.h
 * has what it does, arch_kretprobe_trampoline_callback() (kretprobe.c)
 * runs the handlers.
 */
#include "return_trampoline.h"

	.text
_GLOBAL(arch_kretprobe_trampoline)
	kprobe_return_trampoline arch_kretprobe_trampoline_callback
_ASM_NOKPROBE_SYMBOL(arch_kretprobe_trampoline)
