/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kretprobe return trampoline (sparc64).
 *
 * arch_prepare_kretprobe() made the probed function's return address
 * this symbol, so its return lands here with the caller's window and
 * %sp back.  The trap below, "ta 0x70" (BREAKPOINT_INSTRUCTION), reaches
 * kprobe_trap(), which knows this address: the trap saves the registers,
 * the handlers run, and the return from the trap goes to the real return
 * address.  It lives in .kprobes.text: no probe may be put on it.
 */
#include <linux/linkage.h>

	.section .kprobes.text, "ax"
	.align	4
SYM_CODE_START(arch_kretprobe_trampoline)
	ta	0x70
	 nop
SYM_CODE_END(arch_kretprobe_trampoline)
