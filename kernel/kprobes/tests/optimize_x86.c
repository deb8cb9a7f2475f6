// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the "kprobes_optimize" suite must know of x86 (optimize.h).
 *
 * The targets are in optimize_x86_targets.S: one whose entry can take a
 * jump (its first two instructions make the region), one whose region is
 * a single rip-relative load, and three that must be refused (a call
 * inside the region, a jump into it, an indirect jump in the function).
 * Every probe is at a target's entry, past its ENDBR; the targets push
 * nothing, so a hit finds kpopt_invoke()'s return address on top of the
 * stack.  An optimized probe starts with the 5-byte jump; a hit through
 * the detour shows pt_regs as after the int3 (ip one byte past the probe)
 * with interrupts on, where the int3 exception, entered like an NMI, has
 * them off.
 */

#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <asm/ibt.h>
#include <asm/text-patching.h>
#include <asm/unwind.h>

#include "optimize.h"

/* What each target must return. */
static long kpopt_good_ref(long x)
{
	return ((x + 0x11) * 3) ^ 0x5a5a;
}

static long kpopt_rip_ref(long x)
{
	return READ_ONCE(kpopt_rip_data) + x;
}

static long kpopt_call_ref(long x)
{
	return x + 8;
}

static long kpopt_jump_in_ref(long x)
{
	do
		x += 2;
	while (x < 100);
	return x;
}

static long kpopt_indirect_ref(long x)
{
	return (x + 7) * 5;
}

static const struct kpopt_point kpopt_x86_good[] = {
	{ "kpopt_good", kpopt_good, kpopt_good_ref, 0, NULL, kpopt_good_ref },
	{ "kpopt_rip", kpopt_rip, kpopt_rip_ref, 0, NULL, kpopt_rip_ref,
	  &kpopt_rip_data },
};

static const struct kpopt_point kpopt_x86_refused[] = {
	{ "call in the region", kpopt_call, kpopt_call_ref },
	{ "jump into the region", kpopt_jump_in, kpopt_jump_in_ref },
	{ "indirect jump", kpopt_indirect, kpopt_indirect_ref },
};

/* The probe address of a target's entry: after the ENDBR, if any. */
static unsigned long kpopt_x86_entry(kpopt_fn_t fn)
{
	unsigned long addr = (unsigned long)fn;

	return is_endbr(*(u32 *)addr) ? addr + ENDBR_INSN_SIZE : addr;
}

/* Every call of a target goes through kpopt_invoke(). */
static long kpopt_x86_call(kpopt_fn_t fn, long x)
{
	return kpopt_invoke(fn, x);
}

/*
 * The register of a target's argument: %rdi, or %eax on i386 (the kernel
 * is built with regparm(3) there).
 */
static unsigned long *kpopt_x86_arg(struct pt_regs *regs)
{
	return IS_ENABLED(CONFIG_X86_64) ? &regs->di : &regs->ax;
}

static bool kpopt_x86_regs_ok(struct kprobe *p, struct pt_regs *regs)
{
	/* The targets push nothing: kpopt_invoke()'s return is on top. */
	unsigned long ret = *(unsigned long *)regs->sp;

	/*
	 * The targets run with interrupts on.  The int3 exception, entered
	 * like an NMI, turns them off; a detour leaves them on.
	 */
	return regs->ip == (unsigned long)p->addr + INT3_INSN_SIZE &&
	       ret == kpopt_invoke_ret_addr &&
	       (regs->flags & X86_EFLAGS_IF) &&
	       irqs_disabled() == !!in_nmi() && !preemptible();
}

static bool kpopt_x86_jumps(unsigned long addr)
{
	return *(u8 *)addr == JMP32_INSN_OPCODE;
}

static bool kpopt_x86_traps(unsigned long addr)
{
	return *(u8 *)addr == INT3_INSN_OPCODE;
}

/*
 * A stack trace taken in the handler goes through the detour, which has
 * no ORC data but a frame for the frame-pointer fallback, into the probed
 * function and on to its caller.  With the frame-pointer unwinder (i386,
 * which has no ORC), frameless functions are not seen: the detour's frame
 * names the probed function (probe address + 1, as after an int3), and the
 * next frame is that of a caller of kpopt_invoke().
 */
static bool kpopt_x86_unwinds(struct kprobe *p)
{
	unsigned long want = IS_ENABLED(CONFIG_UNWINDER_ORC) ?
			     kpopt_invoke_ret_addr :
			     (unsigned long)p->addr + INT3_INSN_SIZE;
	struct unwind_state state;

	for (unwind_start(&state, current, NULL, NULL); !unwind_done(&state);
	     unwind_next_frame(&state))
		if (unwind_get_return_address(&state) == want)
			return true;
	return false;
}

static const struct kpopt_arch kpopt_x86 = {
	.good		= kpopt_x86_good,
	.nr_good	= ARRAY_SIZE(kpopt_x86_good),
	.refused	= kpopt_x86_refused,
	.nr_refused	= ARRAY_SIZE(kpopt_x86_refused),
	/* kpopt_good's second instruction, "addq" ("addl" on i386). */
	.inner_off	= 3,
	.patch_len	= JMP32_INSN_SIZE,
	.entry		= kpopt_x86_entry,
	.call		= kpopt_x86_call,
	.arg		= kpopt_x86_arg,
	.regs_ok	= kpopt_x86_regs_ok,
	.jumps		= kpopt_x86_jumps,
	.traps		= kpopt_x86_traps,
	.unwinds	= kpopt_x86_unwinds,
};

const struct kpopt_arch *kpopt_arch(void)
{
	return &kpopt_x86;
}
