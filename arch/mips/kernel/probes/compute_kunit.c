// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of what a mips kernel's trap computes in place of a step
 * (compute.c), on the helpers of the generic kprobes suites
 * (kernel/kprobes/tests/):
 *
 *   kprobes_mips_compute  each computed instruction, probed in a target
 *                         of compute_kunit_targets.S and called with
 *                         four arguments: the result is the one written
 *                         down here (not asked of the CPU), unprobed and
 *                         probed; the pre and post handlers run once per
 *                         call; the site is computed, without a slot;
 *                         add (it traps on overflow) is stepped.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>

#include "kprobes_kunit.h"
#include "compute_kunit.h"

#define KPMC(name, text, computed, ...) \
	KPKT_INSN(kpmc_##name, text, computed, __VA_ARGS__)

static const struct kpkt_insn_target kpmc_targets[] = {
	KPMC(move, "move v0, a0", true, 0, 1, 0xffffffff, 0x7fffffff),
	KPMC(addu, "addu v0, a0, t0 (5)", true,
	     5, 6, 4, 0x80000004),
	KPMC(subu, "subu v0, a0, t0 (5)", true,
	     0xfffffffb, 0xfffffffc, 0xfffffffa, 0x7ffffffa),
	KPMC(and, "and v0, a0, t0 (0xff00ff00)", true,
	     0, 0, 0xff00ff00, 0x7f00ff00),
	KPMC(or, "or v0, a0, t0 (0x100)", true,
	     0x100, 0x101, 0xffffffff, 0x7fffffff),
	KPMC(xor, "xor v0, a0, t0 (-1)", true,
	     0xffffffff, 0xfffffffe, 0, 0x80000000),
	KPMC(nor, "nor v0, a0, t0 (1)", true,
	     0xfffffffe, 0xfffffffe, 0, 0x80000000),
	KPMC(slt, "slt v0, a0, t0 (1)", true, 1, 0, 1, 0),
	KPMC(sltu, "sltu v0, a0, t0 (1)", true, 1, 0, 0, 0),
	KPMC(sll, "sll v0, a0, 4", true,
	     0, 0x10, 0xfffffff0, 0xfffffff0),
	KPMC(srl, "srl v0, a0, 4", true,
	     0, 0, 0x0fffffff, 0x07ffffff),
	KPMC(sra, "sra v0, a0, 4", true,
	     0, 0, 0xffffffff, 0x07ffffff),
	KPMC(sllv, "sllv v0, a0, t0 (35)", true,
	     0, 8, 0xfffffff8, 0xfffffff8),
	KPMC(srlv, "srlv v0, a0, t0 (33)", true,
	     0, 0, 0x7fffffff, 0x3fffffff),
	KPMC(srav, "srav v0, a0, t0 (31)", true,
	     0, 0, 0xffffffff, 0),
	KPMC(addiu, "addiu v0, a0, -2", true,
	     0xfffffffe, 0xffffffff, 0xfffffffd, 0x7ffffffd),
	KPMC(slti, "slti v0, a0, 1", true, 1, 0, 1, 0),
	KPMC(sltiu, "sltiu v0, a0, -1", true, 1, 1, 0, 1),
	KPMC(andi, "andi v0, a0, 0x8001", true, 0, 1, 0x8001, 0x8001),
	KPMC(ori, "ori v0, a0, 0x8000", true,
	     0x8000, 0x8001, 0xffffffff, 0x7fffffff),
	KPMC(xori, "xori v0, a0, 0xffff", true,
	     0xffff, 0xfffe, 0xffff0000, 0x7fff0000),
	KPMC(lui, "lui v0, 0x8123", true,
	     0x81230000, 0x81230000, 0x81230000, 0x81230000),
	KPMC(nop, "nop", true, 0, 1, 0xffffffff, 0x7fffffff),
	KPMC(stack, "addiu sp, sp, -16", true, 0, 1, 0xffffffff, 0x7fffffff),
	KPMC(add, "add v0, a0, t0 (0)", false,
	     0, 1, 0xffffffff, 0x7fffffff),
};

/* Is @p computed in the trap (no slot)? */
static bool kpmc_computed(const struct kprobe_hit_site *p)
{
	return p->ainsn.kind == KPROBE_MIPS_COMPUTE && !p->ainsn.slot;
}

static const struct kpkt_insn_suite kpmc = {
	.targets = kpmc_targets,
	.count = ARRAY_SIZE(kpmc_targets),
	.args = { 0, 1, -1, 0x7fffffff },
	.low32 = true,
	.computed = kpmc_computed,
};

KPKT_INSN_SUITE("kprobes_mips_compute", kpmc);

MODULE_DESCRIPTION("KUnit suite of the instructions mips kprobes compute");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
