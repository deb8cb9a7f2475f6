/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The return trampolines (powerpc): kretprobes' (arch_prepare_kretprobe()
 * puts arch_kretprobe_trampoline in a probed function's link register,
 * kretprobe.c runs the handlers) and rethook's, fprobe's exit
 * (arch_rethook_trampoline, rethook.c).  One body, this macro.
 *
 * A probed function returns here (its link register was replaced at
 * entry) with r1 back at its value at entry and LR pointing here.  The
 * trampoline saves the registers as a struct pt_regs in a frame of its
 * own, calls \callback(regs), which runs the return handlers and returns
 * the real return address, and goes there with every register as the
 * probed function left them (LR holding the real address, as after a
 * plain blr), unless a handler changed them in pt_regs; r13, the paca,
 * is the one of the CPU the trampoline ends on.
 *
 * Stack while the callback runs (higher addresses first):
 *
 *	S = r1 at entry:	the caller's frame; its LR save word holds the
 *				trampoline (the probed function saved LR
 *				after the entry handler had replaced it)
 *	S - INT_FRAME_SIZE:	this frame, back chain S, struct pt_regs:
 *				gpr[1] = S, nip = the trampoline until the
 *				callback finds the real return address
 *
 * An unwinder meets the trampoline's address in S's LR save word and
 * finds the real one from S (see stacktrace.c).
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/ppc_asm.h>
#include <asm/ptrace.h>

.macro kprobe_return_trampoline callback
	PPC_STLU r1, -INT_FRAME_SIZE(r1)
	SAVE_GPR(0, r1)
	SAVE_GPRS(2, 31, r1)
	addi	r0, r1, INT_FRAME_SIZE
	PPC_STL	r0, GPR1(r1)
	/* nip and link: this trampoline, where the probed function went */
	mflr	r0
	PPC_STL	r0, _NIP(r1)
	PPC_STL	r0, _LINK(r1)
	mfmsr	r0
	PPC_STL	r0, _MSR(r1)
	mfctr	r0
	PPC_STL	r0, _CTR(r1)
	mfcr	r0
	PPC_STL	r0, _CCR(r1)
	mfxer	r0
	PPC_STL	r0, _XER(r1)
	li	r0, 0
	PPC_STL	r0, _TRAP(r1)
	PPC_STL	r0, RESULT(r1)
#ifdef CONFIG_PPC64
	/* the kernel's TOC, and the soft interrupt mask of the caller */
	LOAD_PACA_TOC()
	lbz	r0, PACAIRQSOFTMASK(r13)
	std	r0, SOFTE(r1)
#endif

	addi	r3, r1, STACK_INT_FRAME_REGS
	bl	CFUNC(\callback)
	/* r3: the real return address, returned through LR */
	mtlr	r3

	PPC_LL	r0, _CTR(r1)
	mtctr	r0
	PPC_LL	r0, _XER(r1)
	mtxer	r0
	PPC_LL	r0, _CCR(r1)
	mtcr	r0
	REST_GPR(0, r1)
	/* Not r13, the paca: the task may be on another CPU by now. */
	REST_GPRS(2, 12, r1)
	REST_GPRS(14, 31, r1)
	addi	r1, r1, INT_FRAME_SIZE
	blr
.endm


	.text
#ifdef CONFIG_KRETPROBES
_GLOBAL(arch_kretprobe_trampoline)
	kprobe_return_trampoline arch_kretprobe_trampoline_callback
_ASM_NOKPROBE_SYMBOL(arch_kretprobe_trampoline)
#endif

#ifdef CONFIG_RETHOOK
_GLOBAL(arch_rethook_trampoline)
	kprobe_return_trampoline arch_rethook_trampoline_callback
_ASM_NOKPROBE_SYMBOL(arch_rethook_trampoline)
#endif
