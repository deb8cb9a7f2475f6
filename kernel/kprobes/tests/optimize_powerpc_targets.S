/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * powerpc's targets of the "kprobes_optimize" KUnit suite (optimize.c,
 * optimize_powerpc.c): "long f(long x)" leaves that use no TOC,
 * so each symbol is the function's only entry, and no ftrace site.
 */
#include <linux/linkage.h>
#include <asm/ppc_asm.h>
#include <asm/reg.h>

	.text
/* ((x + 0x11) * 3) ^ 0x5a5a: every instruction but blr can take a jump. */
_GLOBAL(kpopt_ppc_good)
	addi	r3, r3, 0x11
	mulli	r3, r3, 3
	xori	r3, r3, 0x5a5a
	blr

/* x + 1 behind a branch, which reads its own address: no jump there. */
_GLOBAL(kpopt_ppc_branch)
	b	1f
1:	addi	r3, r3, 1
	blr

/*
 * AMR as the code after its first instruction (the probe) sees it; 32-bit
 * Book3S has no AMR, and its KUAP case reads the thread's state instead.
 */
_GLOBAL(kpopt_ppc_amr)
	nop
#ifdef CONFIG_PPC_BOOK3S_64
	mfspr	r3, SPRN_AMR
#else
	li	r3, 0
#endif
	blr
