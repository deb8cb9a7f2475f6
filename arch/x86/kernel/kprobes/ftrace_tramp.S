/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trampoline of the core's ftrace_ops for probes on ftrace sites
 * (x86-64).
 *
 * ftrace calls an ftrace_ops' own trampoline from a function's fentry
 * call whenever that ops is the only one tracing the function; with more
 * users on the function it calls ftrace_regs_caller instead, which runs
 * every callback (kprobe_ftrace_handler() for ours) from its list.  The
 * core gives its ops this trampoline (arch_kprobe_ftrace_trampoline()),
 * so a probed function that nothing else traces enters it straight from
 * the fentry call: every register as at the function's entry, and on
 * the stack the return address, just past the fentry call, which names
 * the site.  No ftrace code runs on the way: no ops list, no recursion
 * lock, no second save of the registers.
 *
 * It builds a struct pt_regs as an int3 on the fentry call would show
 * it, lets kprobe_ftrace_tramp_handler() find and run the site, restores
 * every register and the flags, and returns through the return address's
 * word to where the handler says: past the call, unless a pre handler
 * redirected execution (fail_function's override), which is then
 * honoured as after an int3.
 *
 * Stack while the handler runs (higher addresses first):
 *
 *	probe sp:	the probed function's caller's frame, untouched
 *	-8:		the return address, replaced by the handler's
 *			answer
 *	-16:		struct pt_regs: ss, sp (= probe sp), flags, cs,
 *			ip (= the fentry call + 1, as after an int3 there),
 *			orig_ax (-1), then the general registers
 *	%rsp:		pt_regs::r15
 *
 * The trampoline is kernel text with ORC data: pt_regs is at %rsp from
 * the moment ip is in it until the handler has returned, so a stack trace
 * taken by a handler goes on at the probed function.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/frame.h>
#include <asm/ftrace.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

#include "regs-macros.S"

	.section .text, "ax"
	.code64

SYM_CODE_START(kprobe_ftrace_tramp)
	/* Called directly from the fentry call. */
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR

	/*
	 * struct pt_regs below the return address; ip is where an int3 on
	 * the fentry call would report it: the return address - 4.
	 */
	KPROBE_PUSH_PTREGS ip_above=1
	/* An int3 is one byte (ftrace.c checks INT3_INSN_SIZE at build time). */
	subq	$MCOUNT_INSN_SIZE - 1, RIP(%rsp)
	ENCODE_FRAME_POINTER
	UNWIND_HINT_REGS

	movq	%rsp, %rdi
	call	kprobe_ftrace_tramp_handler
	/* Where the call returns, as the handler says. */
	movq	%rax, FRAME_SIZE(%rsp)
	UNWIND_HINT_UNDEFINED

	/* Down to the word that now holds pt_regs::ip. */
	KPROBE_POP_PTREGS
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(kprobe_ftrace_tramp)
/* No standard frame: %rbp is the probed context's until the end. */
STACK_FRAME_NON_STANDARD_FP kprobe_ftrace_tramp
_ASM_NOKPROBE(kprobe_ftrace_tramp)
