/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The registration half of a back-end that probes with one breakpoint
 * unit and steps the probed instruction from a slot: what mips, sh,
 * sparc, parisc, loongarch, arc, riscv, arm64 and arm do alike between
 * arch_kprobe_prepare() and arch_remove_kprobe().  Included by the
 * architecture's core.c only, after <linux/kprobes_arch.h>.
 *
 * The template, each step a helper below:
 *
 *   prepare: read the original text (kprobe_slot_read_text()), decode it
 *	(the port's), save the opcode in p->opcode, and when the hit steps
 *	a copy, fill a new slot (kprobe_slot_fill(): the copy and the
 *	port's step-end trap, breakpoints after them);
 *   arm:     the port's poke of BREAKPOINT_INSTRUCTION at p->addr;
 *   disarm:  the same poke of p->opcode;
 *   remove:  kprobe_slot_release();
 *   boundary: kprobe_slot_check_unit() where every instruction is one
 *	aligned unit (or where, as on arc, nothing better is known);
 *   blacklist: kprobe_blacklist_ksyms() for the trap path's names.
 *
 * The hook a port supplies is its text writer, passed to
 * kprobe_slot_fill() as a kprobe_slot_write_t: it copies whole units
 * into a slot that no CPU runs yet and makes the instruction caches see
 * them.  Its poke of the live text (arm and disarm) stays a one-line
 * call in the port: how a write becomes visible to every CPU (a plain
 * store and a flush, patch_text_nosync(), stop_machine()) is the port's.
 * The decoder, the simulation and the trap entry stay the port's too.
 *
 * Every helper is an inline for the registration lock's context
 * ("locked" in <linux/kprobes_arch.h>), none for the hit path.  The
 * strings they leave in *why are those every port printed before.
 */
#ifndef _ASM_GENERIC_KPROBES_SLOT_H
#define _ASM_GENERIC_KPROBES_SLOT_H

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kallsyms.h>
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
 * kprobe_blacklist_ksyms() - blacklist functions given by name
 * @names: symbol names; one the build lacks is skipped
 * @nr: how many
 *
 * For the trap path's assembly, which has no C declaration to take the
 * address of, and for static helpers of the base.
 *
 * Return: 0 or a negative errno (from arch_populate_kprobe_blacklist()).
 */
static inline int kprobe_blacklist_ksyms(const char *const *names,
					 unsigned int nr)
{
	unsigned long entry;
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++) {
		entry = kallsyms_lookup_name(names[i]);
		if (!entry)
			continue;
		ret = kprobe_add_ksym_blacklist(entry);
		if (ret < 0)
			return ret;
	}
	return 0;
}

#endif /* _ASM_GENERIC_KPROBES_SLOT_H */
