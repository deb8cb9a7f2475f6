/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_thumb_compute KUnit suite, in
 * thumb_compute_kunit_targets.S: a table of rows, one per target, from
 * kptc_table to kptc_table_end.
 */
#ifndef _ARM_PROBES_KPROBES_THUMB_COMPUTE_KUNIT_H
#define _ARM_PROBES_KPROBES_THUMB_COMPUTE_KUNIT_H

#include <linux/types.h>

/* A target's row: the layout of the .word lines of the assembly. */
struct kptc_target {
	void (*fn)(u32 *st);	/* the target */
	unsigned long at;	/* the instruction under test */
	const char *insn;	/* its text */
	u32 regs;	/* bit n: rn points into kptc_mem; bit 8 + n: an index */
};

extern const struct kptc_target kptc_table[], kptc_table_end[];

#endif /* _ARM_PROBES_KPROBES_THUMB_COMPUTE_KUNIT_H */
