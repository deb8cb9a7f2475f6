// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The out-of-line report of the per-CPU state machine that breakpoint
 * architectures share (<asm-generic/kprobes-cpu.h>).  The state itself is
 * the architecture's: nothing here reads it but to report it.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

/**
 * kprobe_bad_state() - report an illegal change of the per-CPU state
 * @kcb: this CPU's control block
 * @state: the state the trap code is changing to, or expects
 *
 * A bug in the architecture's trap code; the caller changes the state
 * anyway, so that the CPU keeps going.
 */
noinline void kprobe_bad_state(struct kprobe_ctlblk *kcb, u8 state)
{
	WARN_ONCE(1, "kprobes: illegal CPU state %u at a change to (or check of) %u\n",
		  kcb->state, state);
}

NOKPROBE_SYMBOL(kprobe_bad_state);
