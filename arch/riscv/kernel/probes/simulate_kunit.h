/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the kprobes_riscv_simulate KUnit suite, in
 * simulate_kunit_targets.S: each "long f(long x)".
 */
#ifndef _RISCV_KERNEL_PROBES_SIMULATE_KUNIT_H
#define _RISCV_KERNEL_PROBES_SIMULATE_KUNIT_H

long kprs_addi(long x);
long kprs_addi_neg(long x);
long kprs_mv(long x);
long kprs_nop(long x);
long kprs_addiw(long x);
long kprs_lui(long x);
long kprs_xori(long x);
long kprs_andi(long x);
long kprs_ori(long x);
long kprs_slti(long x);
long kprs_sltiu(long x);
long kprs_slli(long x);
long kprs_srli(long x);
long kprs_srai(long x);
long kprs_slliw(long x);
long kprs_srliw(long x);
long kprs_sraiw(long x);
long kprs_add(long x);
long kprs_sub(long x);
long kprs_and(long x);
long kprs_or(long x);
long kprs_xor(long x);
long kprs_slt(long x);
long kprs_sltu(long x);
long kprs_sll(long x);
long kprs_srl(long x);
long kprs_sra(long x);
long kprs_addw(long x);
long kprs_subw(long x);
long kprs_sllw(long x);
long kprs_srlw(long x);
long kprs_sraw(long x);
long kprs_addi_sp(long x);
long kprs_mul(long x);
long kprs_sd_ld(long x);
long kprs_c_nop(long x);
long kprs_c_addi(long x);
long kprs_c_addiw(long x);
long kprs_c_li(long x);
long kprs_c_lui(long x);
long kprs_c_srli(long x);
long kprs_c_srai(long x);
long kprs_c_andi(long x);
long kprs_c_slli(long x);
long kprs_c_sub(long x);
long kprs_c_xor(long x);
long kprs_c_or(long x);
long kprs_c_and(long x);
long kprs_c_subw(long x);
long kprs_c_addw(long x);
long kprs_c_mv(long x);
long kprs_c_add(long x);
long kprs_c_addi16sp(long x);

#endif /* _RISCV_KERNEL_PROBES_SIMULATE_KUNIT_H */
