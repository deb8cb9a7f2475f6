/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_parisc_compute KUnit suite, in
 * compute_kunit_targets.S: each "long f(long x)", and kppa_<name>_at,
 * the address of the instruction under test (a word of rodata).
 */
#ifndef _PARISC_KERNEL_PROBES_COMPUTE_KUNIT_H
#define _PARISC_KERNEL_PROBES_COMPUTE_KUNIT_H

#include "kprobes_kunit.h"

#define KPPA_TARGET(name)	KPKT_INSN_DECLARE(kppa_##name)

KPPA_TARGET(copy);
KPPA_TARGET(or);
KPPA_TARGET(and);
KPPA_TARGET(xor);
KPPA_TARGET(andcm);
KPPA_TARGET(andcm_r);
KPPA_TARGET(addl);
KPPA_TARGET(sh1addl);
KPPA_TARGET(sh3addl_r);
KPPA_TARGET(ldo);
KPPA_TARGET(ldi);
KPPA_TARGET(ldil);
KPPA_TARGET(nop);
KPPA_TARGET(add);
KPPA_TARGET(addil);
KPPA_TARGET(or_nul);
KPPA_TARGET(stack);

#endif /* _PARISC_KERNEL_PROBES_COMPUTE_KUNIT_H */
