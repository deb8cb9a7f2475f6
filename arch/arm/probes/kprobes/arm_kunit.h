/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_arm_compute KUnit suite, in
 * arm_kunit_targets.S: each "long f(long x)", and kpac_<name>_at, the
 * address of the instruction under test (a word of rodata, as the
 * Thumb suite's).
 */
#ifndef _ARM_PROBES_KPROBES_ARM_KUNIT_H
#define _ARM_PROBES_KPROBES_ARM_KUNIT_H

#include "kprobes_kunit.h"

#define KPAC_TARGET(name)	KPKT_INSN_DECLARE(kpac_##name)

KPAC_TARGET(mov_reg);
KPAC_TARGET(adds);
KPAC_TARGET(subs);
KPAC_TARGET(cmp);
KPAC_TARGET(movs_lsr);
KPAC_TARGET(ands_rot);
KPAC_TARGET(adcs);
KPAC_TARGET(sbc);
KPAC_TARGET(rsbs);
KPAC_TARGET(tst_lsl);
KPAC_TARGET(add_lsl_reg);
KPAC_TARGET(movs_asr_reg);
KPAC_TARGET(ror);
KPAC_TARGET(movs_rrx);
KPAC_TARGET(mvn);
KPAC_TARGET(bic);
KPAC_TARGET(orr);
KPAC_TARGET(sub_fp);
KPAC_TARGET(addne);
KPAC_TARGET(movw);
KPAC_TARGET(movt);
KPAC_TARGET(str_pre);
KPAC_TARGET(ldr_post);
KPAC_TARGET(ldr_off);
KPAC_TARGET(ldr_wback);
KPAC_TARGET(ldrb);
KPAC_TARGET(ldrne);
KPAC_TARGET(strb);
KPAC_TARGET(push);
KPAC_TARGET(pop);
KPAC_TARGET(ldmib);
KPAC_TARGET(push_pc);
KPAC_TARGET(str_deep);

#endif /* _ARM_PROBES_KPROBES_ARM_KUNIT_H */
