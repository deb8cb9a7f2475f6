/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64's targets of the "kprobes_optimize" KUnit suite (optimize.c,
 * optimize_arm64.c): "long f(long x)" leaves, so that what is under each
 * probe does not depend on the compiler.  SYM_FUNC_START puts a BTI C
 * first in a kernel built with BTI; optimize_arm64.c skips it.
 */
#include <linux/linkage.h>
#include <asm/asm-extable.h>
#include <asm/assembler.h>
#include <asm/sysreg.h>

/* PSTATE.PAN as a system register (ARMv8.1). */
#define KPOPT_A64_SYS_PAN	sys_reg(3, 0, 4, 2, 3)

	.text
/*
 * (((x + 0x11) * 3) ^ 0x5a5a) + (x < 0x20): the flags of the CMP are live
 * across the next four instructions and read by the CINC, so a detour
 * there that did not give them back would change the result.  Every
 * instruction but the RET can take a branch.
 */
SYM_FUNC_START(kpopt_a64_good)
	cmp	x0, #0x20
	add	x0, x0, #0x11
	add	x0, x0, x0, lsl #1
	mov	x1, #0x5a5a
	eor	x0, x0, x1
	cinc	x0, x0, lt
	ret
SYM_FUNC_END(kpopt_a64_good)

/* x + 1 behind a branch, which is simulated: no detour there. */
SYM_FUNC_START(kpopt_a64_branch)
	b	1f
1:	add	x0, x0, #1
	ret
SYM_FUNC_END(kpopt_a64_branch)

/* x + 1, the 1 from a literal load, which is simulated. */
SYM_FUNC_START(kpopt_a64_literal)
	ldr	x1, 1f
	add	x0, x0, x1
	ret
	.balign	8
1:	.quad	1
SYM_FUNC_END(kpopt_a64_literal)

/* x + 1, then a BTI C, a landing pad: no B in its place with BTI in use. */
SYM_FUNC_START(kpopt_a64_bti)
	add	x0, x0, #1
	hint	#34
	ret
SYM_FUNC_END(kpopt_a64_bti)

/*
 * x + 1 from an instruction with an exception-table entry (it cannot
 * fault, but a copy elsewhere would lose the entry).
 */
SYM_FUNC_START(kpopt_a64_extable)
	nop
0:	add	x0, x0, #1
1:	ret
	_asm_extable_uaccess	0b, 1b
SYM_FUNC_END(kpopt_a64_extable)

/*
 * PSTATE.PAN as the code after the probe (the NOP) sees it, shifted to
 * bit 0: the caller opened user access (PAN clear) before the call.
 */
SYM_FUNC_START(kpopt_a64_pan)
	nop
	mrs_s	x0, KPOPT_A64_SYS_PAN
	lsr	x0, x0, #22
	and	x0, x0, #1
	ret
SYM_FUNC_END(kpopt_a64_pan)
