/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rethook return trampoline (powerpc), fprobe's exit: rethook.c puts
 * it in the probed function's link register; return_trampoline.h has
 * what it does, arch_rethook_trampoline_callback() runs the handlers.
 */
#include "return_trampoline.h"

	.text
_GLOBAL(arch_rethook_trampoline)
	kprobe_return_trampoline arch_rethook_trampoline_callback
_ASM_NOKPROBE_SYMBOL(arch_rethook_trampoline)
