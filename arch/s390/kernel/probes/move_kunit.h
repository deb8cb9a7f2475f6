/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_s390_move KUnit suite, in
 * move_kunit_targets.S: each "long f(long x)", and kpsm_<name>_at, the
 * address of the instruction under test (a doubleword of rodata).
 */
#ifndef _S390_KERNEL_PROBES_MOVE_KUNIT_H
#define _S390_KERNEL_PROBES_MOVE_KUNIT_H

#include "kprobes_kunit.h"

#define KPSM_TARGET(name)	KPKT_INSN_DECLARE(kpsm_##name)

KPSM_TARGET(lr);
KPSM_TARGET(lgr);
KPSM_TARGET(lgfr);
KPSM_TARGET(llgfr);
KPSM_TARGET(la);
KPSM_TARGET(la_x);
KPSM_TARGET(lay);
KPSM_TARGET(lhi);
KPSM_TARGET(lghi);
KPSM_TARGET(agr);

#endif /* _S390_KERNEL_PROBES_MOVE_KUNIT_H */
