/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_ppc_compute KUnit suite, in
 * compute_kunit_targets.S: each "long f(long x)", and kppc_<name>_at,
 * the address of the instruction under test (a word of rodata).
 */
#ifndef _POWERPC_KERNEL_PROBES_COMPUTE_KUNIT_H
#define _POWERPC_KERNEL_PROBES_COMPUTE_KUNIT_H

#include "kprobes_kunit.h"

#define KPPC_TARGET(name)	KPKT_INSN_DECLARE(kppc_##name)

KPPC_TARGET(mr);
KPPC_TARGET(li);
KPPC_TARGET(addi);
KPPC_TARGET(addis);
KPPC_TARGET(lis);
KPPC_TARGET(ori);
KPPC_TARGET(oris);
KPPC_TARGET(xori);
KPPC_TARGET(xoris);
KPPC_TARGET(nop);
KPPC_TARGET(or);
KPPC_TARGET(and);
KPPC_TARGET(xor);
KPPC_TARGET(nor);
KPPC_TARGET(andc);
KPPC_TARGET(orc);
KPPC_TARGET(add);
KPPC_TARGET(subf);
KPPC_TARGET(neg);
KPPC_TARGET(extsb);
KPPC_TARGET(extsh);
KPPC_TARGET(add_dot);
KPPC_TARGET(mtlr);
KPPC_TARGET(mflr);
KPPC_TARGET(mtctr);
KPPC_TARGET(mfctr);
KPPC_TARGET(extsw);

#endif /* _POWERPC_KERNEL_PROBES_COMPUTE_KUNIT_H */
