/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_mips_compute KUnit suite, in
 * compute_kunit_targets.S: each "long f(long x)", and kpmc_<name>_at,
 * the address of the instruction under test (a word of rodata).
 */
#ifndef _MIPS_KERNEL_PROBES_COMPUTE_KUNIT_H
#define _MIPS_KERNEL_PROBES_COMPUTE_KUNIT_H

#include "kprobes_kunit.h"

#define KPMC_TARGET(name)	KPKT_INSN_DECLARE(kpmc_##name)

KPMC_TARGET(move);
KPMC_TARGET(addu);
KPMC_TARGET(subu);
KPMC_TARGET(and);
KPMC_TARGET(or);
KPMC_TARGET(xor);
KPMC_TARGET(nor);
KPMC_TARGET(slt);
KPMC_TARGET(sltu);
KPMC_TARGET(sll);
KPMC_TARGET(srl);
KPMC_TARGET(sra);
KPMC_TARGET(sllv);
KPMC_TARGET(srlv);
KPMC_TARGET(srav);
KPMC_TARGET(addiu);
KPMC_TARGET(slti);
KPMC_TARGET(sltiu);
KPMC_TARGET(andi);
KPMC_TARGET(ori);
KPMC_TARGET(xori);
KPMC_TARGET(lui);
KPMC_TARGET(nop);
KPMC_TARGET(stack);
KPMC_TARGET(add);

#endif /* _MIPS_KERNEL_PROBES_COMPUTE_KUNIT_H */
