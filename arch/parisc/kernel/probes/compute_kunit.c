// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of what a parisc kernel's break computes in place of a step
 * (decode.c, kprobe_parisc_compute()), on the helpers of the generic
 * kprobes suites (kernel/kprobes/tests/):
 *
 *   kprobes_parisc_compute  each computed instruction, probed in a target
 *                           of compute_kunit_targets.S and called with
 *                           four arguments: the result is the one written
 *                           down here (not asked of the CPU), unprobed and
 *                           probed; the pre and post handlers run once per
 *                           call; the site is computed, without a slot;
 *                           ADD (it sets the carry bits) and an OR with a
 *                           condition (it may nullify its successor) are
 *                           stepped.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>

#include "kprobes_kunit.h"
#include "compute_kunit.h"

#define KPPA(name, text, computed, ...) \
	KPKT_INSN(kppa_##name, text, computed, __VA_ARGS__)

static const struct kpkt_insn_target kppa_targets[] = {
	KPPA(copy, "copy %r26,%r28", true, 0, 1, 0xffffffff, 0x7fffffff),
	KPPA(or, "or %r26,%r20,%r28 (0x100)", true,
	     0x100, 0x101, 0xffffffff, 0x7fffffff),
	KPPA(and, "and %r26,%r20,%r28 (0xff00ff00)", true,
	     0, 0, 0xff00ff00, 0x7f00ff00),
	KPPA(xor, "xor %r26,%r20,%r28 (-1)", true,
	     0xffffffff, 0xfffffffe, 0, 0x80000000),
	KPPA(andcm, "andcm %r26,%r20,%r28 (1)", true,
	     0, 0, 0xfffffffe, 0x7ffffffe),
	KPPA(andcm_r, "andcm %r20,%r26,%r28 (0xff)", true,
	     0xff, 0xfe, 0, 0),
	KPPA(addl, "addl %r26,%r20,%r28 (5)", true, 5, 6, 4, 0x80000004),
	KPPA(sh1addl, "sh1addl %r26,%r20,%r28 (5)", true, 5, 7, 3, 3),
	KPPA(sh3addl_r, "sh3addl %r20,%r26,%r28 (5)", true,
	     40, 41, 39, 0x80000027),
	KPPA(ldo, "ldo -2(%r26),%r28", true,
	     0xfffffffe, 0xffffffff, 0xfffffffd, 0x7ffffffd),
	KPPA(ldi, "ldi -5,%r28", true,
	     0xfffffffb, 0xfffffffb, 0xfffffffb, 0xfffffffb),
	KPPA(ldil, "ldil L%0x81234800,%r28", true,
	     0x81234800, 0x81234800, 0x81234800, 0x81234800),
	KPPA(addil, "addil L%0x12345800,%r26", true,
	     0x12345800, 0x12345801, 0x123457ff, 0x923457ff),
	KPPA(nop, "nop", true, 0x100, 0x101, 0xff, 0x800000ff),
	KPPA(stack, "ldo 64(%sp),%sp", true, 0, 1, 0xffffffff, 0x7fffffff),
	KPPA(add, "add %r26,%r20,%r28 (0)", false,
	     0, 1, 0xffffffff, 0x7fffffff),
	KPPA(or_nul, "or,= %r26,%r20,%r28 (0)", false, 0, 7, 7, 7),
};

/* Is @p computed in the trap (no slot)? */
static bool kppa_computed(const struct kprobe_hit_site *p)
{
	return kprobe_parisc_computed(p->ainsn.kind) && !p->ainsn.slot;
}

static const struct kpkt_insn_suite kppa = {
	.targets = kppa_targets,
	.count = ARRAY_SIZE(kppa_targets),
	.args = { 0, 1, -1, 0x7fffffff },
	.low32 = true,
	.computed = kppa_computed,
};

KPKT_INSN_SUITE("kprobes_parisc_compute", kppa);

MODULE_DESCRIPTION("KUnit suite of the instructions parisc kprobes compute");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
