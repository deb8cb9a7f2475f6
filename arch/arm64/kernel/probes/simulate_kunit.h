/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_arm64_simulate KUnit suite, in
 * simulate_kunit_targets.S: each "long f(long x)".
 */
#ifndef _ARM64_KERNEL_PROBES_SIMULATE_KUNIT_H
#define _ARM64_KERNEL_PROBES_SIMULATE_KUNIT_H

long kpas_mov(long x);
long kpas_mov_w(long x);
long kpas_mov_zr(long x);
long kpas_movz(long x);
long kpas_movn_w(long x);
long kpas_movk(long x);
long kpas_movk_w(long x);
long kpas_add(long x);
long kpas_add_sh(long x);
long kpas_sub_w(long x);
long kpas_add_sp(long x);
long kpas_nop(long x);
long kpas_sub_sp(long x);
long kpas_adds(long x);
long kpas_str(long x);

#endif /* _ARM64_KERNEL_PROBES_SIMULATE_KUNIT_H */
