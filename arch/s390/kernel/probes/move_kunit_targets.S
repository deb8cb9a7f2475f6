/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of the kprobes_s390_move KUnit suite (move_kunit.c): "long
 * f(long x)", x in %r2 and the result too, each around one instruction
 * whose address kpsm_<name>_at holds.  %r3 is set to a known value
 * (0x1111111122222222) before it where the instruction reads or keeps
 * more than x.
 */
#include <linux/linkage.h>

	.text

/* kpsm_<name>_at: the address of what follows */
	.macro	at name
	.pushsection .rodata
	.balign	8
	.globl	kpsm_\name\()_at
kpsm_\name\()_at:
	.quad	9999f
	.popsection
9999:
	.endm

/* kpsm_<name>: %r3 = 0x1111111122222222, the instruction, %r2 = %r3 */
#define KPSM_INTO3(name, insn...)				\
SYM_FUNC_START(kpsm_##name);					\
	llihf	%r3, 0x11111111;				\
	iilf	%r3, 0x22222222;				\
	at	name;						\
	insn;							\
	lgr	%r2, %r3;					\
	br	%r14;						\
SYM_FUNC_END(kpsm_##name)

/* kpsm_<name>: the instruction, on %r2 alone */
#define KPSM_INPLACE(name, insn...)				\
SYM_FUNC_START(kpsm_##name);					\
	at	name;						\
	insn;							\
	br	%r14;						\
SYM_FUNC_END(kpsm_##name)

KPSM_INTO3(lr, lr %r3, %r2)			/* low word of x */
KPSM_INPLACE(lgr, lgr %r2, %r2)
KPSM_INPLACE(lgfr, lgfr %r2, %r2)
KPSM_INPLACE(llgfr, llgfr %r2, %r2)
KPSM_INPLACE(la, la %r2, 16(%r2))
KPSM_INTO3(la_x, la %r3, 8(%r2, %r3))		/* x + 0x1111111122222222 + 8 */
KPSM_INPLACE(lay, lay %r2, -0x10000(%r2))
KPSM_INTO3(lhi, lhi %r3, -2)			/* low word only */
KPSM_INPLACE(lghi, lghi %r2, -2)
/* sets the condition code: stepped */
KPSM_INPLACE(agr, agr %r2, %r2)
