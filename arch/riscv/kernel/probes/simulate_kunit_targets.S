/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_riscv_simulate KUnit suite (simulate_kunit.c):
 * each "long f(long x)", x and the result in a0.  The instruction under
 * test is at the offset the suite's table gives (0 unless a few
 * instructions set up its operands first).  Assembly: no ftrace entry,
 * and the encoding, compressed or not, is the one written here.
 */
#include <linux/linkage.h>

	.text
	.option	push
	.option	norvc

/* ---- 32-bit, simulated ---- */

SYM_FUNC_START(kprs_addi)
	addi	a0, a0, 0x123
	ret
SYM_FUNC_END(kprs_addi)

SYM_FUNC_START(kprs_addi_neg)
	addi	a0, a0, -2048
	ret
SYM_FUNC_END(kprs_addi_neg)

SYM_FUNC_START(kprs_mv)
	mv	a1, a0
	addi	a0, a1, 1
	ret
SYM_FUNC_END(kprs_mv)

SYM_FUNC_START(kprs_nop)
	nop
	addi	a0, a0, 1
	ret
SYM_FUNC_END(kprs_nop)

SYM_FUNC_START(kprs_addiw)
	addiw	a0, a0, 1
	ret
SYM_FUNC_END(kprs_addiw)

SYM_FUNC_START(kprs_lui)
	lui	a0, 0x80000
	ret
SYM_FUNC_END(kprs_lui)

SYM_FUNC_START(kprs_xori)
	xori	a0, a0, -1
	ret
SYM_FUNC_END(kprs_xori)

SYM_FUNC_START(kprs_andi)
	andi	a0, a0, 0x7f0
	ret
SYM_FUNC_END(kprs_andi)

SYM_FUNC_START(kprs_ori)
	ori	a0, a0, -2048
	ret
SYM_FUNC_END(kprs_ori)

SYM_FUNC_START(kprs_slti)
	slti	a0, a0, 5
	ret
SYM_FUNC_END(kprs_slti)

SYM_FUNC_START(kprs_sltiu)
	sltiu	a0, a0, 5
	ret
SYM_FUNC_END(kprs_sltiu)

SYM_FUNC_START(kprs_slli)
	slli	a0, a0, 35
	ret
SYM_FUNC_END(kprs_slli)

SYM_FUNC_START(kprs_srli)
	srli	a0, a0, 7
	ret
SYM_FUNC_END(kprs_srli)

SYM_FUNC_START(kprs_srai)
	srai	a0, a0, 63
	ret
SYM_FUNC_END(kprs_srai)

SYM_FUNC_START(kprs_slliw)
	slliw	a0, a0, 31
	ret
SYM_FUNC_END(kprs_slliw)

SYM_FUNC_START(kprs_srliw)
	srliw	a0, a0, 4
	ret
SYM_FUNC_END(kprs_srliw)

SYM_FUNC_START(kprs_sraiw)
	sraiw	a0, a0, 4
	ret
SYM_FUNC_END(kprs_sraiw)

/* The register forms take a1 = 0x155 from the instruction before. */
SYM_FUNC_START(kprs_add)
	li	a1, 0x155
	add	a0, a0, a1
	ret
SYM_FUNC_END(kprs_add)

SYM_FUNC_START(kprs_sub)
	li	a1, 0x155
	sub	a0, a0, a1
	ret
SYM_FUNC_END(kprs_sub)

SYM_FUNC_START(kprs_and)
	li	a1, 0x155
	and	a0, a0, a1
	ret
SYM_FUNC_END(kprs_and)

SYM_FUNC_START(kprs_or)
	li	a1, 0x155
	or	a0, a0, a1
	ret
SYM_FUNC_END(kprs_or)

SYM_FUNC_START(kprs_xor)
	li	a1, 0x155
	xor	a0, a0, a1
	ret
SYM_FUNC_END(kprs_xor)

SYM_FUNC_START(kprs_slt)
	slt	a0, a0, zero
	ret
SYM_FUNC_END(kprs_slt)

SYM_FUNC_START(kprs_sltu)
	sltu	a0, zero, a0
	ret
SYM_FUNC_END(kprs_sltu)

SYM_FUNC_START(kprs_sll)
	sll	a0, a0, a0
	ret
SYM_FUNC_END(kprs_sll)

SYM_FUNC_START(kprs_srl)
	srl	a0, a0, a0
	ret
SYM_FUNC_END(kprs_srl)

SYM_FUNC_START(kprs_sra)
	sra	a0, a0, a0
	ret
SYM_FUNC_END(kprs_sra)

SYM_FUNC_START(kprs_addw)
	addw	a0, a0, a0
	ret
SYM_FUNC_END(kprs_addw)

SYM_FUNC_START(kprs_subw)
	subw	a0, zero, a0
	ret
SYM_FUNC_END(kprs_subw)

SYM_FUNC_START(kprs_sllw)
	sllw	a0, a0, a0
	ret
SYM_FUNC_END(kprs_sllw)

SYM_FUNC_START(kprs_srlw)
	srlw	a0, a0, a0
	ret
SYM_FUNC_END(kprs_srlw)

SYM_FUNC_START(kprs_sraw)
	sraw	a0, a0, a0
	ret
SYM_FUNC_END(kprs_sraw)

/* sp written: the probe at 4; returns how far sp moved (32) */
SYM_FUNC_START(kprs_addi_sp)
	mv	t0, sp
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sub	a0, t0, sp
	ld	ra, 24(sp)
	addi	sp, sp, 32
	ret
SYM_FUNC_END(kprs_addi_sp)

/* ---- 32-bit, stepped ---- */

SYM_FUNC_START(kprs_mul)
	mul	a0, a0, a0
	ret
SYM_FUNC_END(kprs_mul)

/* The store at 8, the load at 16: x goes through the stack. */
SYM_FUNC_START(kprs_sd_ld)
	addi	sp, sp, -16
	sd	zero, 8(sp)
	sd	a0, 8(sp)
	li	a0, 0
	ld	a0, 8(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kprs_sd_ld)

/* ---- compressed, simulated (the probe after a 4-byte setup, if any) ---- */

#ifdef CONFIG_RISCV_ISA_C
#define KPRS_RVC(insn...)	.option rvc; insn; .option norvc
#else
/* Not built for RVC: the suite skips these, which then return 0. */
#define KPRS_RVC(insn...)	li a0, 0; ret
#endif

SYM_FUNC_START(kprs_c_nop)
	KPRS_RVC(c.nop)
	addi	a0, a0, 1
	ret
SYM_FUNC_END(kprs_c_nop)

SYM_FUNC_START(kprs_c_addi)
	KPRS_RVC(c.addi a0, -3)
	ret
SYM_FUNC_END(kprs_c_addi)

SYM_FUNC_START(kprs_c_addiw)
	KPRS_RVC(c.addiw a0, 1)
	ret
SYM_FUNC_END(kprs_c_addiw)

SYM_FUNC_START(kprs_c_li)
	KPRS_RVC(c.li a0, -17)
	ret
SYM_FUNC_END(kprs_c_li)

SYM_FUNC_START(kprs_c_lui)
	KPRS_RVC(c.lui a0, 0xfffe1)
	ret
SYM_FUNC_END(kprs_c_lui)

SYM_FUNC_START(kprs_c_srli)
	KPRS_RVC(c.srli a0, 3)
	ret
SYM_FUNC_END(kprs_c_srli)

SYM_FUNC_START(kprs_c_srai)
	KPRS_RVC(c.srai a0, 60)
	ret
SYM_FUNC_END(kprs_c_srai)

SYM_FUNC_START(kprs_c_andi)
	KPRS_RVC(c.andi a0, -16)
	ret
SYM_FUNC_END(kprs_c_andi)

SYM_FUNC_START(kprs_c_slli)
	KPRS_RVC(c.slli a0, 13)
	ret
SYM_FUNC_END(kprs_c_slli)

/* a1 = 0x155 first: the probe at 4 */
SYM_FUNC_START(kprs_c_sub)
	li	a1, 0x155
	KPRS_RVC(c.sub a0, a1)
	ret
SYM_FUNC_END(kprs_c_sub)

SYM_FUNC_START(kprs_c_xor)
	li	a1, 0x155
	KPRS_RVC(c.xor a0, a1)
	ret
SYM_FUNC_END(kprs_c_xor)

SYM_FUNC_START(kprs_c_or)
	li	a1, 0x155
	KPRS_RVC(c.or a0, a1)
	ret
SYM_FUNC_END(kprs_c_or)

SYM_FUNC_START(kprs_c_and)
	li	a1, 0x155
	KPRS_RVC(c.and a0, a1)
	ret
SYM_FUNC_END(kprs_c_and)

SYM_FUNC_START(kprs_c_subw)
	li	a1, 0x155
	KPRS_RVC(c.subw a0, a1)
	ret
SYM_FUNC_END(kprs_c_subw)

SYM_FUNC_START(kprs_c_addw)
	li	a1, 0x155
	KPRS_RVC(c.addw a0, a1)
	ret
SYM_FUNC_END(kprs_c_addw)

SYM_FUNC_START(kprs_c_mv)
	li	a1, 0x155
	KPRS_RVC(c.mv a0, a1)
	ret
SYM_FUNC_END(kprs_c_mv)

SYM_FUNC_START(kprs_c_add)
	li	a1, 0x155
	KPRS_RVC(c.add a0, a1)
	ret
SYM_FUNC_END(kprs_c_add)

/* sp written: the probe at 4; returns how far sp moved (64) */
SYM_FUNC_START(kprs_c_addi16sp)
	mv	t0, sp
	KPRS_RVC(c.addi16sp sp, -64)
	sd	ra, 56(sp)
	sub	a0, t0, sp
	ld	ra, 56(sp)
	addi	sp, sp, 64
	ret
SYM_FUNC_END(kprs_c_addi16sp)

	.option	pop
