// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of what a powerpc kernel's trap computes without the
 * single-step library (compute.c), on the helpers of the generic kprobes
 * suites (kernel/kprobes/tests/):
 *
 *   kprobes_ppc_compute  each computed instruction, probed in a target
 *                        of compute_kunit_targets.S and called with four
 *                        arguments: the result is the one written down
 *                        here (not asked of the CPU), unprobed and
 *                        probed; the pre and post handlers run once per
 *                        call; the site is computed, without a slot;
 *                        add. (it records in CR0) is not.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>

#include "kprobes_kunit.h"
#include "compute_kunit.h"

/*
 * The fourth argument: bit 31 set, a negative word; on 64-bit a positive
 * doubleword, so that a 32-bit result's sign extension shows.
 */
#define X	((long)(u32)0x87654321)

/*
 * Each row's results for the arguments 0, 1, -1 and X, wrapping as the
 * CPU does (unsigned arithmetic where a 32-bit long would overflow).
 */
#define KPPC(name, text, computed, ...) \
	KPKT_INSN(kppc_##name, text, computed, __VA_ARGS__)

static const struct kpkt_insn_target kppc_targets[] = {
	KPPC(mr, "mr r5, r3", true, 0, 1, -1, X),
	KPPC(li, "li r5, -2 (r0 = 100)", true, -2, -2, -2, -2),
	KPPC(addi, "addi r5, r3, -2", true, -2, -1, -3, X - 2),
	KPPC(addis, "addis r5, r3, 0x8000", true, -0x80000000L,
	     1 - 0x80000000L, -1 - 0x80000000L, X - 0x80000000L),
	KPPC(lis, "lis r5, 0x8765 (r0 = 100)", true, (long)(s32)0x87650000U,
	     (long)(s32)0x87650000U, (long)(s32)0x87650000U,
	     (long)(s32)0x87650000U),
	KPPC(ori, "ori r5, r3, 0x8000", true,
	     0x8000, 0x8001, -1, X | 0x8000),
	KPPC(oris, "oris r5, r3, 0x8000", true,
	     0x80000000UL, 0x80000001UL, -1, X | 0x80000000UL),
	KPPC(xori, "xori r5, r3, 0xffff", true,
	     0xffff, 0xfffe, -1 ^ 0xffffL, X ^ 0xffff),
	KPPC(xoris, "xoris r5, r3, 0xffff", true,
	     0xffff0000UL, 0xffff0001UL, -1 ^ 0xffff0000UL,
	     X ^ 0xffff0000UL),
	KPPC(nop, "nop (r5 = x + 0x100 before)", true,
	     0x100, 0x101, 0xff, X + 0x100),
	KPPC(or, "or r5, r3, r4 (0x100)", true,
	     0x100, 0x101, -1, X | 0x100),
	KPPC(and, "and r5, r3, r4 (-256)", true, 0, 0, -256, X & -256),
	KPPC(xor, "xor r5, r3, r4 (-1)", true, -1, -2, 0, ~X),
	KPPC(nor, "nor r5, r3, r4 (1)", true, -2, -2, 0, ~(X | 1)),
	KPPC(andc, "andc r5, r3, r4 (1)", true, 0, 0, -2, X & ~1L),
	KPPC(orc, "orc r5, r3, r4 (1)", true, -2, -1, -1, X | ~1L),
	KPPC(add, "add r5, r3, r4 (5)", true, 5, 6, 4, X + 5),
	KPPC(subf, "subf r5, r4, r3 (r3 - 5)", true, -5, -4, -6, X - 5),
	KPPC(neg, "neg r5, r3", true, 0, -1, 1, -X),
	KPPC(extsb, "extsb r5, r3", true, 0, 1, -1, 0x21),
	KPPC(extsh, "extsh r5, r3", true, 0, 1, -1, 0x4321),
	KPPC(add_dot, "add. r5, r3, r4 (5)", false, 5, 6, 4, X + 5),
	KPPC(mtlr, "mtlr r3", true, 0, 1, -1, X),
	KPPC(mflr, "mflr r5", true, 0, 1, -1, X),
	KPPC(mtctr, "mtctr r3", true, 0, 1, -1, X),
	KPPC(mfctr, "mfctr r3", true, 0, 1, -1, X),
	/* last: 64-bit only (the 32-bit target is a stand-in, never run) */
	KPPC(extsw, "extsw r5, r3", true, 0, 1, -1, (long)(s32)X),
};

/* Is @p computed in the trap (no slot)? */
static bool kppc_computed(const struct kprobe_hit_site *p)
{
	return p->ainsn.compute && !p->ainsn.slot;
}

static const struct kpkt_insn_suite kppc = {
	.targets = kppc_targets,
	.count = ARRAY_SIZE(kppc_targets) - !IS_ENABLED(CONFIG_PPC64),
	.args = { 0, 1, -1, X },
	.computed = kppc_computed,
};

KPKT_INSN_SUITE("kprobes_ppc_compute", kppc);

MODULE_DESCRIPTION("KUnit suite of the instructions powerpc kprobes compute");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
