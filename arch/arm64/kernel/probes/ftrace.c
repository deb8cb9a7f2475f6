// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes on ftrace sites.
 *
 * With DYNAMIC_FTRACE_WITH_ARGS a traceable function opens with two
 * patchable instructions (after a "bti c" where BTI is on, after the
 * 8-byte ops literal with CALL_OPS): "mov x9, x30", then the NOP that
 * becomes "bl ftrace_caller" while the function is traced.  The BL is the
 * ftrace site (ftrace_location()), and an entry probe goes there
 * (arch_adjust_kprobe_addr()): the core arms it by attaching its
 * ftrace_ops (kernel/kprobes/ftrace.c) instead of writing a BRK.
 *
 * ftrace_caller (entry-ftrace.S) saves no pt_regs but a struct
 * ftrace_regs: x0 - x8, the callsite's x29 (fp), its x30 (lr, the probed
 * function's return address, carried in x9), its sp and the pc after the
 * BL.  Once the callbacks are done it reloads x0 - x8, x29 and x30 from
 * there and branches to the saved pc; sp is recomputed, not reloaded.
 * The handlers get a pt_regs built from it (arch_kprobe_ftrace_regs_get()),
 * as <linux/kprobes_arch.h> describes for WITH_ARGS ports:
 *
 *   x0 - x8, x29, x30, sp	the probed context's
 *   pc			the BL, where a BRK on it would trap; past it
 *			in a post handler
 *   pstate			EL1h with this CPU's DAIF, and pmr_save with
 *			pseudo-NMIs: ftrace masks nothing
 *   x9 - x28, the rest	0
 *
 * and what ftrace_caller restores goes back (arch_kprobe_ftrace_regs_put()):
 * x0 - x8, x29, x30 and the pc.  So a pre handler redirects execution
 * through the pc as on a BRK probe (fail_function resumes at x30 with x0
 * set), and a kretprobe's entry diverts the return through x30, whose
 * frame pointer x29 is still the caller's: the function has not pushed
 * its frame record yet (arch_prepare_kretprobe()).
 *
 * This file is built without the ftrace hook (see Makefile): the handler
 * is ftrace's callback and must not trace itself.
 */
#include "arm64-kprobes.h"

#include <linux/ftrace.h>
#include <linux/string.h>
#include <linux/unroll.h>
#include <asm/daifflags.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>
#include <asm-generic/kprobes-ftrace.h>

/* Term @i of clearing x9 - x28 in arch_kprobe_ftrace_regs_get(). */
#define KPROBE_ARM64_ZERO_X9_UP(i, r)	((r)->regs[9 + (i)] = 0),

/**
 * arch_prepare_kprobe_ftrace() - prepare a site armed through ftrace
 * @p: the site, at an ftrace call
 *
 * Return: 0; nothing is stepped or simulated, there is no slot.
 */
int arch_prepare_kprobe_ftrace(struct kprobe_hit_site *p)
{
	p->ainsn.slot = NULL;
	p->ainsn.simulate = NULL;
	p->ainsn.insn = 0;
	return 0;
}

/**
 * arch_kprobe_ftrace_regs_get() - the pt_regs a hit through ftrace shows
 * @fregs: what ftrace_caller saved
 * @regs: filled whole, see the top of this file
 */
void arch_kprobe_ftrace_regs_get(struct ftrace_regs *fregs,
				 struct pt_regs *regs)
{
	/*
	 * @regs comes uninitialised: every field is written here, x9 - x28
	 * by twenty stores the compiler pairs, not by a memset() call (as
	 * many instructions as the rest of the hit).  A field added to
	 * pt_regs must be set below.
	 */
	BUILD_BUG_ON(sizeof(*regs) != 42 * sizeof(u64));
	UNROLL(20, KPROBE_ARM64_ZERO_X9_UP, regs) (void)0;
	/* x0 - x8, fp, lr, sp, pc (past the BL) and an EL1h pstate. */
	ftrace_partial_regs(fregs, regs);
	regs->pstate |= read_sysreg(daif);
	regs->orig_x0 = 0;
	regs->syscallno = 0;
	regs->unused2 = 0;
	regs->sdei_ttbr1 = 0;
	regs->pmr_save = system_uses_irq_prio_masking() ?
			 read_sysreg_s(SYS_ICC_PMR_EL1) : 0;
	regs->stackframe[0] = 0;
	regs->stackframe[1] = 0;
	regs->lockdep_hardirqs = 0;
	regs->exit_rcu = 0;
}

NOKPROBE_SYMBOL(arch_kprobe_ftrace_regs_get);

/**
 * arch_kprobe_ftrace_regs_put() - give ftrace_caller what it restores
 * @regs: the hit's pt_regs, after the handlers
 * @fregs: what ftrace_caller reloads x0 - x8, x29, x30 and the pc from
 */
void arch_kprobe_ftrace_regs_put(const struct pt_regs *regs,
				 struct ftrace_regs *fregs)
{
	struct __arch_ftrace_regs *afregs = arch_ftrace_regs(fregs);

	memcpy(afregs->regs, regs->regs, sizeof(afregs->regs));
	afregs->fp = regs->regs[29];
	afregs->lr = regs->regs[30];
	afregs->pc = regs->pc;
}

NOKPROBE_SYMBOL(arch_kprobe_ftrace_regs_put);

/**
 * kprobe_ftrace_handler() - ftrace callback of the sites armed through ftrace
 * @ip: address of the BL, the probe address
 * @parent_ip: the probed function's return address
 * @ops: the core's ftrace_ops
 * @fregs: what ftrace_caller saved
 *
 * The pre handler sees the pc at the BL, where a BRK there would trap.
 * With CALL_OPS ftrace_caller calls this directly while the core's ops is
 * the function's only one, else through ftrace's list function.
 */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	kprobe_ftrace_dispatch_args(ip, fregs, 0);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);
