// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The out-of-line report of <asm-generic/kprobes-cpu.h>, the per-CPU
 * state machine that an architecture may take for its kprobe state.
 * Built on every architecture, so it assumes nothing of that state: the
 * helper reads the state and hands over the values.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

/**
 * kprobe_bad_state() - report a move the per-CPU state machine does not have
 * @from: the state this CPU was found in
 * @to: the state the trap code is moving to, or (kprobe_expect_state_here())
 *	expected to find
 *
 * Called only by the checks of <asm-generic/kprobes-cpu.h>, which draws
 * the legal moves, and only once one has failed: a bug in the
 * architecture's trap code.  The caller makes the move anyway, so that
 * the CPU keeps going.
 */
noinline void kprobe_bad_state(u8 from, u8 to)
{
	WARN_ONCE(1, "kprobes: illegal CPU state %u at a change to (or check of) %u\n",
		  from, to);
}

NOKPROBE_SYMBOL(kprobe_bad_state);
