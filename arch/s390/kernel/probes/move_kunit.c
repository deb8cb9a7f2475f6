// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of the register loads an s390 kernel's trap computes in
 * place of a step (move.c), on the helpers of the generic kprobes suites
 * (kernel/kprobes/tests/):
 *
 *   kprobes_s390_move  each computed load, probed in a target of
 *                      move_kunit_targets.S and called with four
 *                      arguments: the result is the one written down
 *                      here (not asked of the CPU), unprobed and probed;
 *                      the pre and post handlers run once per call; the
 *                      site is computed; agr (it sets the condition
 *                      code) is stepped.
 */

/* First: it defines pr_fmt. */
#include "s390-kprobes.h"

#include <linux/kprobes_arch.h>
#include <linux/module.h>

#include "kprobes_kunit.h"
#include "move_kunit.h"

#define KPSM(name, text, computed, ...) \
	KPKT_INSN(kpsm_##name, text, computed, __VA_ARGS__)

static const struct kpkt_insn_target kpsm_targets[] = {
	KPSM(lr, "lr %r3, %r2", true,
	     0x1111111100000000, 0x1111111100000001, 0x11111111ffffffff,
	     0x1111111180000000),
	KPSM(lgr, "lgr %r2, %r2", true,
	     0, 1, 0xffffffffffffffff, 0x180000000),
	KPSM(lgfr, "lgfr %r2, %r2", true,
	     0, 1, 0xffffffffffffffff, 0xffffffff80000000),
	KPSM(llgfr, "llgfr %r2, %r2", true,
	     0, 1, 0xffffffff, 0x80000000),
	KPSM(la, "la %r2, 16(%r2)", true,
	     16, 17, 15, 0x180000010),
	KPSM(la_x, "la %r3, 8(%r2, %r3)", true,
	     0x111111112222222a, 0x111111112222222b, 0x1111111122222229,
	     0x11111112a222222a),
	KPSM(lay, "lay %r2, -0x10000(%r2)", true,
	     0xffffffffffff0000, 0xffffffffffff0001, 0xfffffffffffeffff,
	     0x17fff0000),
	KPSM(lhi, "lhi %r3, -2", true,
	     0x11111111fffffffe, 0x11111111fffffffe, 0x11111111fffffffe,
	     0x11111111fffffffe),
	KPSM(lghi, "lghi %r2, -2", true,
	     0xfffffffffffffffe, 0xfffffffffffffffe, 0xfffffffffffffffe,
	     0xfffffffffffffffe),
	KPSM(agr, "agr %r2, %r2", false,
	     0, 2, 0xfffffffffffffffe, 0x300000000),
};

/* Is @p computed in the trap? */
static bool kpsm_computed(const struct kprobe_hit_site *p)
{
	return p->ainsn.fixup & KPROBE_FIXUP_MOVE;
}

static const struct kpkt_insn_suite kpsm = {
	.targets = kpsm_targets,
	.count = ARRAY_SIZE(kpsm_targets),
	/* the last one's low word has the sign bit: the 32-bit forms differ */
	.args = { 0, 1, -1, 0x180000000L },
	.low32 = false,
	.computed = kpsm_computed,
};

KPKT_INSN_SUITE("kprobes_s390_move", kpsm);

MODULE_DESCRIPTION("KUnit suite of the register loads s390 kprobes compute");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
