// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of what an ARM-mode kernel's trap computes in place of a
 * step (arm_compute.c), on the helpers of the generic kprobes suites
 * (kernel/kprobes/tests/):
 *
 *   kprobes_arm_compute  each computed class, probed in a target of
 *                        arm_kunit_targets.S and called with four
 *                        arguments: the result, flags included where
 *                        the instruction sets or keeps them, is the one
 *                        written down here (not asked of the CPU); the
 *                        pre and post handlers run once per call, also
 *                        when the condition fails; the site is computed;
 *                        a store the computation declines still happens.
 */

#include <linux/kprobes_arch.h>
#include <linux/module.h>

#include "kprobes_kunit.h"
#include "arm_kunit.h"

/* A target's result for each argument; flag targets: (result << 4) | NZCV. */
#define KPAC(name, text, ...) \
	KPKT_INSN(kpac_##name, text, true, __VA_ARGS__)

static const struct kpkt_insn_target kpac_targets[] = {
	KPAC(mov_reg, "mov r2, r0",
	     1, 2, 0, 0x80000000),
	KPAC(adds, "adds r0, r0, #1",
	     0x10, 0x20, 0x6, 0x9),
	KPAC(subs, "subs r0, r0, #1",
	     0xfffffff8, 0x6, 0xffffffea, 0xffffffe2),
	KPAC(cmp, "cmp r0, #1",
	     0x8, 0x16, 0xfffffffa, 0xfffffff2),
	KPAC(movs_lsr, "movs r0, r0, lsr #1",
	     0x5, 0x7, 0xfffffff3, 0xfffffff3),
	KPAC(ands_rot, "ands r0, r0, #0xf0000000",
	     0x6, 0x6, 0xa, 0x2),
	KPAC(adcs, "adcs r0, r0, #0",
	     0x10, 0x20, 0x6, 0x9),
	KPAC(sbc, "sbc r0, r0, #0",
	     0xfffffff0, 0x0, 0xffffffe0, 0xffffffe0),
	KPAC(rsbs, "rsbs r0, r0, #0",
	     0x6, 0xfffffff8, 0x10, 0x18),
	KPAC(tst_lsl, "tst r0, r0, lsl #31",
	     0x4, 0x14, 0xfffffffa, 0xfffffff6),
	KPAC(add_lsl_reg, "add r0, r0, r0, lsl r1",
	     0, 5, 0xfffffffb, 0x7ffffffb),
	KPAC(movs_asr_reg, "movs r0, r0, asr r1",
	     0x4, 0x4, 0xfffffffa, 0x4),
	KPAC(ror, "mov r0, r0, ror #8",
	     0, 0x01000000, 0xffffffff, 0xff7fffff),
	KPAC(movs_rrx, "movs r0, r0, rrx",
	     0x8, 0xa, 0xfffffffa, 0xfffffffa),
	KPAC(mvn, "mvn r0, r0",
	     0xffffffff, 0xfffffffe, 0, 0x80000000),
	KPAC(bic, "bic r0, r0, #0xff",
	     0, 0, 0xffffff00, 0x7fffff00),
	KPAC(orr, "orr r0, r0, #0x100",
	     0x100, 0x101, 0xffffffff, 0x7fffffff),
	KPAC(sub_fp, "sub r0, r0, #4",
	     0xfffffffc, 0xfffffffd, 0xfffffffb, 0x7ffffffb),
	KPAC(addne, "addne r0, r0, #5",
	     5, 1, 4, 0x80000004),
	KPAC(movw, "movw r0, #0x1234",
	     0x1234, 0x1234, 0x1234, 0x1234),
	KPAC(movt, "movt r0, #0x5678",
	     0x56780000, 0x56780001, 0x5678ffff, 0x5678ffff),
	KPAC(str_pre, "str r0, [sp, #-4]!",
	     1, 2, 0, 0x80000000),
	KPAC(ldr_post, "ldr r0, [sp], #4",
	     1, 2, 0, 0x80000000),
	KPAC(ldr_off, "ldr r0, [r1, #4]",
	     0x22222222, 0x22222222, 0x22222222, 0x22222222),
	KPAC(ldr_wback, "ldr r0, [r1, #-4]!",
	     0x22222226, 0x22222226, 0x22222226, 0x22222226),
	KPAC(ldrb, "ldrb r0, [r1, #3]",
	     0x44, 0x44, 0x44, 0x44),
	KPAC(ldrne, "ldrne r0, [r1]",
	     0x44332211, 1, 0x44332211, 0x44332211),
	KPAC(strb, "strb r0, [r1, #1]",
	     0, 0x100, 0xff00, 0xff00),
	KPAC(push, "push {r4, r5, lr}",
	     1, 3, 0xffffffff, 0xffffffff),
	KPAC(pop, "pop {r4, r5, lr}",
	     1, 3, 0xffffffff, 0xffffffff),
	KPAC(ldmib, "ldmib r1, {r2, r3}",
	     0x55555555, 0x55555555, 0x55555555, 0x55555555),
	KPAC(push_pc, "push {fp, ip, lr, pc}",
	     8, 9, 7, 0x80000007),
	KPAC(str_deep, "str r0, [sp, #-128]",
	     0, 1, 0xffffffff, 0x7fffffff),
};

/* Is @p computed in the trap, with a slot to decline to? */
static bool kpac_computed(const struct kprobe_hit_site *p)
{
	return p->ainsn.compute && p->ainsn.slot;
}

static const struct kpkt_insn_suite kpac = {
	.targets = kpac_targets,
	.count = ARRAY_SIZE(kpac_targets),
	.args = { 0, 1, -1, 0x7fffffff },
	.low32 = true,
	.computed = kpac_computed,
};

KPKT_INSN_SUITE("kprobes_arm_compute", kpac);

MODULE_DESCRIPTION("KUnit suite of the instructions ARM kprobes compute");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
