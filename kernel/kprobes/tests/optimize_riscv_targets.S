/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * riscv's targets of the "kprobes_optimize" KUnit suite (optimize.c,
 * optimize_riscv.c): "long f(long x)" leaves, so that what is under each
 * probe does not depend on the compiler.  Every instruction is 32 bits
 * (norvc) unless a target is about compressed ones.
 */
#include <linux/linkage.h>
#include <asm/asm-extable.h>

	.text
	.option	push
	.option	norvc
	.balign	4
/*
 * ((x + 0x11) * 3) ^ 0x5a5a.  The addi and xor are simulated on the
 * ebreak path, the mul is stepped from a slot: a detour runs either kind
 * from its copy.  Every instruction but the ret can take a jal.
 */
SYM_FUNC_START(kpopt_rv_good)
	addi	a0, a0, 0x11
	addi	t0, zero, 3
	mul	a0, a0, t0
	lui	t1, 0x6
	addiw	t1, t1, -0x5a6
	xor	a0, a0, t1
	ret
SYM_FUNC_END(kpopt_rv_good)

/* x + 1 behind an auipc, which reads the pc: simulated, no detour. */
SYM_FUNC_START(kpopt_rv_auipc)
	auipc	t0, 0
	addi	a0, a0, 1
	ret
SYM_FUNC_END(kpopt_rv_auipc)

/* x + 1 behind a jump, which reads the pc too. */
SYM_FUNC_START(kpopt_rv_jump)
	jal	zero, 1f
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kpopt_rv_jump)

/*
 * x + 1 from an instruction with an exception-table entry (it cannot
 * fault, but a copy elsewhere would lose the entry).
 */
SYM_FUNC_START(kpopt_rv_extable)
	addi	zero, zero, 0
0:	addi	a0, a0, 1
1:	ret
	_asm_extable	0b, 1b
SYM_FUNC_END(kpopt_rv_extable)
	.option	pop

/*
 * x + 1 from a compressed instruction (a jal would cover the ret too),
 * then from a 32-bit one that is only 2-byte aligned (no single store
 * writes a jal there).  Only with the C extension.
 */
#ifdef CONFIG_RISCV_ISA_C
	.option	push
	.option	rvc
	.balign	4
SYM_FUNC_START(kpopt_rv_compressed)
	c.addi	a0, 1
	ret
SYM_FUNC_END(kpopt_rv_compressed)

	.balign	4
SYM_FUNC_START(kpopt_rv_unaligned)
	c.nop
	.option	norvc
	addi	a0, a0, 1
	ret
SYM_FUNC_END(kpopt_rv_unaligned)
	.option	pop
#endif
