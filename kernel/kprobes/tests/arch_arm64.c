// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of arm64 (kprobes_kunit.h): every
 * instruction is one aligned 32-bit word; with DYNAMIC_FTRACE_WITH_ARGS
 * a traceable function opens with ftrace's two patchable instructions
 * (after a "bti c" where BTI is on), which entry probes skip.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/types.h>
#include <asm/insn.h>

#include "kprobes_kunit.h"

#define KPKT_A64_RET	0xd65f03c0U	/* ret (x30) */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site;

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_ARGS))
		return start;
	site = ftrace_location(start);
	return site ? site + MCOUNT_INSN_SIZE : start;
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
