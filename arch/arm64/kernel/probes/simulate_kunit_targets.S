/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_arm64_simulate KUnit suite (simulate_kunit.c):
 * "long f(long x)", the instruction under test first after the "bti c"
 * that arm64's SYM_FUNC_START() always puts there, so that a probe at
 * KPAS_OFF is on it.  Assembly: no ftrace entry, no compiler choices.
 */
#include <linux/linkage.h>

	.text

SYM_FUNC_START(kpas_mov)
	mov	x2, x0
	mov	x0, x2
	ret
SYM_FUNC_END(kpas_mov)

SYM_FUNC_START(kpas_mov_w)
	mov	w2, w0
	mov	x0, x2
	ret
SYM_FUNC_END(kpas_mov_w)

SYM_FUNC_START(kpas_mov_zr)
	mov	x0, xzr
	ret
SYM_FUNC_END(kpas_mov_zr)

SYM_FUNC_START(kpas_movz)
	movz	x0, #0x1234, lsl #32
	ret
SYM_FUNC_END(kpas_movz)

SYM_FUNC_START(kpas_movn_w)
	movn	w0, #0x1234, lsl #16
	ret
SYM_FUNC_END(kpas_movn_w)

SYM_FUNC_START(kpas_movk)
	movk	x0, #0xbeef, lsl #16
	ret
SYM_FUNC_END(kpas_movk)

SYM_FUNC_START(kpas_movk_w)
	movk	w0, #0xbeef
	ret
SYM_FUNC_END(kpas_movk_w)

SYM_FUNC_START(kpas_add)
	add	x0, x0, #0x123
	ret
SYM_FUNC_END(kpas_add)

SYM_FUNC_START(kpas_add_sh)
	add	x0, x0, #0x5, lsl #12
	ret
SYM_FUNC_END(kpas_add_sh)

SYM_FUNC_START(kpas_sub_w)
	sub	w0, w0, #1
	ret
SYM_FUNC_END(kpas_sub_w)

SYM_FUNC_START(kpas_add_sp)
	add	x0, sp, #16
	ret
SYM_FUNC_END(kpas_add_sp)

SYM_FUNC_START(kpas_nop)
	nop
	add	x0, x0, #1
	ret
SYM_FUNC_END(kpas_nop)

/* Stepped in a slot: SP written, flags set, memory accessed. */
SYM_FUNC_START(kpas_sub_sp)
	sub	sp, sp, #16
	add	sp, sp, #16
	ret
SYM_FUNC_END(kpas_sub_sp)

SYM_FUNC_START(kpas_adds)
	adds	x0, x0, #1
	ret
SYM_FUNC_END(kpas_adds)

SYM_FUNC_START(kpas_str)
	str	x0, [sp, #-16]!
	ldr	x0, [sp], #16
	ret
SYM_FUNC_END(kpas_str)
