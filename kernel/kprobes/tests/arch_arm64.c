// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of arm64 (kprobes_kunit.h): every
 * instruction is one aligned 32-bit word; with DYNAMIC_FTRACE_WITH_ARGS
 * a traceable function opens with ftrace's two patchable instructions
 * (after a "bti c" where BTI is on), whose second, the BL, is an entry
 * probe's place with KPROBES_ON_FTRACE, else the body after them; an
 * untraced function's entry probe goes past a "bti c" that opens it; the
 * handlers of a probe there see the registers ftrace_regs holds and 0
 * for the others (arch/arm64/kernel/probes/ftrace.c).
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/sched/task_stack.h>
#include <linux/types.h>
#include <asm/insn.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

#include "kprobes_kunit.h"

#define KPKT_A64_RET	0xd65f03c0U	/* ret (x30) */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = 0;

	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_ARGS))
		site = ftrace_location(start);
	if (site)
		return site + MCOUNT_INSN_SIZE;
	/* An untraced function's "bti c", which its entry probe skips. */
	if (aarch64_insn_is_bti(le32_to_cpu(*(__le32 *)start)))
		return start + AARCH64_INSN_SIZE;
	return start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u32 insn = le32_to_cpu(*(__le32 *)addr);
	unsigned long size, offset;

	*ret = insn == KPKT_A64_RET;
	/*
	 * udf #0 (zeroes) or NOPs pad between functions; the NOPs of the
	 * ftrace entry are not padding.
	 */
	*pad = !insn;
	if (insn == aarch64_insn_gen_nop() &&
	    kallsyms_lookup_size_offset(addr, &size, &offset))
		*pad = addr >= kpkt_arch_entry_end(addr - offset);
	return AARCH64_INSN_SIZE;
}

const char *const kpkt_arch_refused[] = {
	"kprobe_brk_handler",
	"kprobe_ss_brk_handler",
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->regs[0] = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}

/* At an entry, before the prologue, the return address is still in x30. */
unsigned long kpkt_arch_ret_addr(const struct pt_regs *regs)
{
	return regs->regs[30];
}

/*
 * ftrace_caller saves x0 - x8, x29, x30, sp and the pc; the pt_regs of a
 * hit through ftrace has 0 in x9 - x28 (not the values the probed
 * context had: x9 - x17 are ftrace's scratch registers and x9 the
 * return address's carrier) and an EL1h pstate with the interrupt mask
 * of the probed context.  A frame pointer is always there (arm64 selects
 * FRAME_POINTER): the caller's, on this task's stack.
 */
void kpkt_arch_ftrace_regs(struct kunit *test, const struct pt_regs *regs)
{
	unsigned int i;

	for (i = 9; i <= 28; i++)
		KUNIT_EXPECT_EQ_MSG(test, regs->regs[i], 0ULL, "x%u", i);
	KUNIT_EXPECT_EQ(test, regs->pstate & PSR_MODE_MASK,
			(u64)PSR_MODE_EL1h);
	KUNIT_EXPECT_TRUE(test, object_is_on_stack((void *)regs->regs[29]));
	KUNIT_EXPECT_EQ(test, regs->pstate & PSR_I_BIT,
			(u64)(read_sysreg(daif) & PSR_I_BIT));
}
