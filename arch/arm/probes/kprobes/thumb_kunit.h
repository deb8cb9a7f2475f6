/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_thumb KUnit suite, in thumb_kunit_targets.S:
 * each "long f(long x)", and kpat_<name>_at, the address of the
 * instruction under test (a word of rodata: a symbol inside the function
 * would cut it in two for kallsyms, and our IT-block check decodes a
 * function from its start).
 */
#ifndef _ARM_PROBES_KPROBES_THUMB_KUNIT_H
#define _ARM_PROBES_KPROBES_THUMB_KUNIT_H

#define KPAT_TARGET(name)				\
	long kpat_##name(long x);			\
	extern const unsigned long kpat_##name##_at

KPAT_TARGET(b16);
KPAT_TARGET(b32);
KPAT_TARGET(beq16);
KPAT_TARGET(bne32);
KPAT_TARGET(cbz);
KPAT_TARGET(cbnz);
KPAT_TARGET(bl);
KPAT_TARGET(blx);
KPAT_TARGET(bx);
KPAT_TARGET(pop_pc);
KPAT_TARGET(ldm_pc);
KPAT_TARGET(ldr16);
KPAT_TARGET(ldrsh);
KPAT_TARGET(ldrw_back);
KPAT_TARGET(adr16);
KPAT_TARGET(adrw_back);
KPAT_TARGET(add_sp);
KPAT_TARGET(mov_pc);
KPAT_TARGET(add_pc);
KPAT_TARGET(mov_to_pc);
KPAT_TARGET(tbb);
KPAT_TARGET(tbh);
KPAT_TARGET(it);
KPAT_TARGET(in_it);
KPAT_TARGET(mrs);
KPAT_TARGET(adds);
KPAT_TARGET(addw);
KPAT_TARGET(push);
KPAT_TARGET(ldr_sp);

#endif /* _ARM_PROBES_KPROBES_THUMB_KUNIT_H */
