/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a back-end that probes with a breakpoint and steps the probed
 * instruction from a slot does like every other one: mips, sh, sparc,
 * parisc, loongarch, riscv, arm64, arm and s390 share these steps.
 * Included by the architecture's core.c only, after
 * <linux/kprobes_arch.h>; the per-CPU state is <asm-generic/kprobes-cpu.h>'s
 * and the site's struct arch_specific_insn has a "slot" (NULL when the
 * hit computes the instruction instead).
 *
 * The template, each step a helper below:
 *
 *   prepare:  read the original text (kprobe_slot_read_text()), decode it
 *	(the port's), save the opcode in p->opcode and, when the hit steps
 *	a copy, fill a new slot (kprobe_slot_fill(): the copy and what
 *	ends its step, breakpoints after them);
 *   arm, disarm: write BREAKPOINT_INSTRUCTION, or p->opcode, over
 *	p->addr with the port's writer (DEFINE_KPROBE_ARMING(), or
 *	DEFINE_KPROBE_BATCH_ARMING() for a writer of many sites at once);
 *   remove:   kprobe_slot_release();
 *   boundary: kprobe_slot_check_unit() where every instruction is one
 *	aligned unit;
 *   the hit: kprobe_slot_stepped() tells the trap that ends a step, or a
 *	fault of the copy, from other exceptions; the rest of the step's
 *	bookkeeping is <asm-generic/kprobes-step.h>'s.
 *
 * The hooks are the port's text writers: kprobe_slot_fill() takes one
 * for a slot no CPU runs yet, the arming macros one for live text.  How
 * a write becomes visible to every CPU (a store and a flush,
 * patch_text_nosync(), stop_machine()) is the port's, as are the
 * decoder, the simulation and the trap entry.
 *
 * The strings these helpers leave in *why are those the ports printed
 * before.
 */
#ifndef _ASM_GENERIC_KPROBES_SLOT_H
#define _ASM_GENERIC_KPROBES_SLOT_H

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kprobes_arch.h>

/*
 * The port's slot writer: put @n units of @src at @slot, a slot from
 * kprobe_slot_alloc() that no CPU runs yet, and make the instruction
 * caches see them.  Return: 0, or a negative errno if the text could not
 * be written.
 */
typedef int (*kprobe_slot_write_t)(kprobe_opcode_t *slot,
				   const kprobe_opcode_t *src, unsigned int n);

/* The units of a slot of KPROBE_SLOT_BYTES. */
#define KPROBE_SLOT_UNITS	(KPROBE_SLOT_BYTES / sizeof(kprobe_opcode_t))

/**
 * kprobe_slot_read_text() - read the original text of a probe
 * @addr: where to read
 * @buf: where to put it
 * @len: how many bytes
 * @why: set when the text cannot be read
 *
 * kprobe_copy_original_text(): the text with other probes' breakpoints
 * taken out.
 *
 * Return: 0, or -EFAULT.
 */
static inline int kprobe_slot_read_text(unsigned long addr, void *buf,
					size_t len, const char **why)
{
	if (kprobe_copy_original_text(buf, addr, len)) {
		*why = "cannot read the probed text";
		return -EFAULT;
	}
	return 0;
}

/**
 * kprobe_slot_fill() - give @p a new slot and write it
 * @p: the site being prepared
 * @head: the units the slot starts with: the copy of the probed
 *	instruction, then whatever ends its step (a second trap), if any
 * @n: how many, at most KPROBE_SLOT_UNITS
 * @write: the port's writer
 * @why: the reason for a failure
 *
 * The rest of the slot gets BREAKPOINT_INSTRUCTION: a reused slot keeps
 * what its last user wrote, and a CPU may speculate past the head.  On
 * success @p->ainsn.slot is the slot.
 *
 * Return: 0, -ENOMEM without a free slot, or -EFAULT if @write failed
 * (the slot is freed again).
 */
static __always_inline int kprobe_slot_fill(struct kprobe_hit_site *p,
					    const kprobe_opcode_t *head,
					    unsigned int n,
					    kprobe_slot_write_t write,
					    const char **why)
{
	kprobe_opcode_t buf[KPROBE_SLOT_UNITS];
	kprobe_opcode_t *slot;
	unsigned int i;

	BUILD_BUG_ON(KPROBE_SLOT_BYTES % sizeof(kprobe_opcode_t));
	if (WARN_ON_ONCE(n > KPROBE_SLOT_UNITS))
		n = KPROBE_SLOT_UNITS;

	slot = kprobe_slot_alloc(KPROBE_SLOT_BYTES);
	if (!slot) {
		*why = "no free instruction slot";
		return -ENOMEM;
	}
	for (i = 0; i < KPROBE_SLOT_UNITS; i++)
		buf[i] = i < n ? head[i] : BREAKPOINT_INSTRUCTION;
	if (write(slot, buf, KPROBE_SLOT_UNITS)) {
		kprobe_slot_free(slot);
		*why = "cannot write the instruction slot";
		return -EFAULT;
	}
	p->ainsn.slot = slot;
	return 0;
}

/**
 * kprobe_slot_release() - the body of arch_remove_kprobe()
 * @p: a site that may or may not have a slot (@p->ainsn.slot)
 */
static inline void kprobe_slot_release(struct kprobe_hit_site *p)
{
	if (p->ainsn.slot) {
		kprobe_slot_free(p->ainsn.slot);
		p->ainsn.slot = NULL;
	}
}

/**
 * kprobe_slot_check_unit() - arch_kprobe_check_insn_boundary() by alignment
 * @addr: a kernel text address
 * @unit: the instruction unit in bytes, a power of two
 * @why: the reason when @addr is not aligned to it
 *
 * Return: 0, or -EILSEQ.
 */
static inline int kprobe_slot_check_unit(unsigned long addr,
					 unsigned long unit, const char **why)
{
	if (addr & (unit - 1)) {
		*why = "not at an instruction boundary";
		return -EILSEQ;
	}
	return 0;
}

/**
 * kprobe_slot_stepped() - the site whose copy this CPU is stepping
 * @kcb: this CPU's control block
 * @pc: where the exception was taken
 * @off: where in the slot, in bytes: 0 for a fault of the copy itself,
 *	the copy's length for the trap that ends its step
 *
 * Context: hit; inlined into the port's NOKPROBE_SYMBOL() handlers.
 * Return: the site, or NULL if this CPU is not stepping a copy (states
 * STEPPING and REENTERED) or @pc is not at @off in its slot: another
 * exception, e.g. one of the fault path itself.
 */
static __always_inline struct kprobe_hit_site *
kprobe_slot_stepped(struct kprobe_ctlblk *kcb, unsigned long pc,
		    unsigned long off)
{
	struct kprobe_hit_site *p;

	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return NULL;
	p = kcb->site;
	if (!p->ainsn.slot || pc != (unsigned long)p->ainsn.slot + off)
		return NULL;
	return p;
}

/**
 * DEFINE_KPROBE_ARMING() - arch_arm_kprobe() and arch_disarm_kprobe()
 * @poke: the port's writer of live text, called as @poke(@addr, @insn)
 *	with @addr a kprobe_opcode_t pointer and @insn a kprobe_opcode_t;
 *	it returns once every CPU sees the new unit
 *
 * Arming writes BREAKPOINT_INSTRUCTION at the probe address, disarming
 * the saved opcode.  A CPU may still be between the breakpoint and its
 * handler when the probe is disarmed: the port's handler then finds the
 * original instruction back and runs it again.  The core's batch
 * defaults call these once per site.
 */
#define DEFINE_KPROBE_ARMING(poke)					\
static __always_inline void kprobe_arming_poke(kprobe_opcode_t *addr,	\
					       kprobe_opcode_t insn)	\
{									\
	poke(addr, insn);						\
}									\
									\
void arch_arm_kprobe(struct kprobe_hit_site *p)				\
{									\
	kprobe_arming_poke(p->addr, BREAKPOINT_INSTRUCTION);		\
}									\
									\
void arch_disarm_kprobe(struct kprobe_hit_site *p)			\
{									\
	kprobe_arming_poke(p->addr, p->opcode);				\
}

/**
 * DEFINE_KPROBE_BATCH_ARMING() - the four arming functions of the contract
 * @patch: the port's writer of live text, called as
 *	@patch(@kps, @nr, @arm): write BREAKPOINT_INSTRUCTION (@arm true) or
 *	each site's opcode over each of the @nr sites of @kps, with one
 *	round of cross-CPU synchronisation for all of them
 *
 * Defines arch_arm_kprobe() and arch_disarm_kprobe() as batches of one,
 * arch_arm_kprobes_batch() and arch_disarm_kprobes_batch() as one call.
 */
#define DEFINE_KPROBE_BATCH_ARMING(patch)				\
static __always_inline void kprobe_arming_patch(struct kprobe_hit_site **kps, \
						unsigned int nr, bool arm) \
{									\
	patch(kps, nr, arm);						\
}									\
									\
void arch_arm_kprobe(struct kprobe_hit_site *p)				\
{									\
	kprobe_arming_patch(&p, 1, true);				\
}									\
									\
void arch_disarm_kprobe(struct kprobe_hit_site *p)			\
{									\
	kprobe_arming_patch(&p, 1, false);				\
}									\
									\
void arch_arm_kprobes_batch(struct kprobe_hit_site **kps, unsigned int nr) \
{									\
	kprobe_arming_patch(kps, nr, true);				\
}									\
									\
void arch_disarm_kprobes_batch(struct kprobe_hit_site **kps,		\
			       unsigned int nr)				\
{									\
	kprobe_arming_patch(kps, nr, false);				\
}

#endif /* _ASM_GENERIC_KPROBES_SLOT_H */
