/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the optimizer files of the ports share.  The C half of an
 * optimized probe's detour: each architecture's detour saves pt_regs as a
 * breakpoint at the probe address would show them and calls its
 * arch_optprobe_handler(), which ends up in kprobe_opt_hit().  The state
 * machine is <asm-generic/kprobes-cpu.h>'s.  Then, for ports whose jump
 * replaces exactly the probed instruction (arm64, arm, riscv): the record
 * of such a site; for those whose detours are in one area of the kernel
 * image (arm64, arm, powerpc): the pages of the area.  Included by the
 * architecture's optimizer file only, after <linux/kprobes_arch.h>.
 */
#ifndef _ASM_GENERIC_KPROBES_OPT_H
#define _ASM_GENERIC_KPROBES_OPT_H

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/kprobes_arch.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <asm/page.h>

struct pt_regs;

/*
 * The port's C half of a detour (its opt.c), called by the detour's
 * assembly with @regs as a breakpoint at the probe would have them; it
 * calls kprobe_opt_hit().  Never called from C, hence __visible.
 */
__visible void arch_optprobe_handler(struct kprobe_opt_insn *oi,
				     struct pt_regs *regs);

/**
 * kprobe_opt_hit() - run an optimized probe's handlers
 * @oi: the probe's record, as the detour carries it
 * @regs: built by the detour
 *
 * Entered with interrupts as the probed context had them: turning them
 * off would make every hit tell lockdep and the irq-state tracers about
 * it.  Preemption is disabled before anything is read, which keeps the
 * task on this CPU and makes this an RCU reader.  The rules are those of
 * a breakpoint hit: the handlers run with current_kprobe set and the CPU
 * in state HANDLER, and a hit while this CPU is already busy with a probe
 * only counts as missed; with interrupts on, that includes an interrupt's
 * hits while the handlers run (a breakpoint probe is still stepped).  A
 * pre handler's request for a new instruction pointer (a non-zero
 * return) cannot be honoured: the detour always goes on with the copy of
 * the probed instructions, as Documentation/trace/kprobes.rst says.
 *
 * Context: hit, from the detour.
 */
static __always_inline void kprobe_opt_hit(struct kprobe_opt_insn *oi,
					   struct pt_regs *regs)
{
	struct kprobe_hit_site *p;
	struct kprobe *solo;
	struct kprobe_cpu c;

	preempt_disable();
	/* NULL: the site died (the core clears @oi->probe first). */
	p = READ_ONCE(oi->probe);
	if (!p)
		goto out;
	c = kprobe_cpu_this();
	if (unlikely(kprobe_cpu_running(c))) {
		kprobe_hit_missed(p);
		goto out;
	}
	/* No probe running: this CPU is idle. */
	solo = kprobe_hit_solo(p);
	kprobe_cpu_claim_idle(c, solo);
	kprobe_hit_pre(p, solo, regs);
	kprobe_cpu_move_state(c, KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE);
	kprobe_cpu_reset(c);
out:
	preempt_enable();
}

/**
 * kprobe_opt_set_single() - the record of a one-instruction region
 * @oi: filled by arch_optprobe_prepare()
 * @buf: the detour written for it
 * @copy: where in @buf the copy of the instruction is
 * @orig: the instruction's original bytes (what the breakpoint replaced)
 * @len: their number: the jump replaces exactly the instruction
 *
 * No task can be stopped inside such a region, so the jump may go in
 * without waiting (@oi->single).
 */
static inline void kprobe_opt_set_single(struct kprobe_opt_insn *oi,
					 kprobe_opcode_t *buf, const void *copy,
					 const void *orig, unsigned int len)
{
	BUILD_BUG_ON(sizeof(kprobe_opcode_t) > KPROBE_OPT_PATCH_MAX);
	oi->buf = buf;
	oi->copy = (unsigned long)copy;
	oi->len = len;
	oi->single = true;
	oi->patch_len = len;
	memcpy(oi->orig, orig, len);
}

/**
 * kprobe_opt_area_page_get() - a page of a detour area in the kernel image
 * @area: the area's start, where arch_kprobe_optslot_page_alloc() hands
 *	out its pages (at most BITS_PER_LONG of them)
 * @end: its end
 * @map: one bit per page, set while the core has it
 *
 * For a port whose jump reaches only so far and which therefore sets an
 * area aside in its kernel text, filled with breakpoints.
 * Return: PAGE_SIZE bytes of the area, or NULL once all are in use (a
 * probe then stays a breakpoint probe).
 */
static inline void *kprobe_opt_area_page_get(void *area, void *end,
					     unsigned long *map)
{
	unsigned long pages = (end - area) / PAGE_SIZE, i;

	if (WARN_ON_ONCE(pages > BITS_PER_LONG))
		return NULL;
	for (i = 0; i < pages; i++)
		if (!test_and_set_bit_lock(i, map))
			return area + i * PAGE_SIZE;
	return NULL;
}

/* Give @page back to the area; nothing runs in it any more. */
static inline void kprobe_opt_area_page_put(void *area, void *page,
					    unsigned long *map)
{
	clear_bit_unlock((page - area) / PAGE_SIZE, map);
}

#endif /* _ASM_GENERIC_KPROBES_OPT_H */
