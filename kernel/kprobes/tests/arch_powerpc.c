// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of powerpc (kprobes_kunit.h):
 * instructions are words, or two for a prefixed one (primary opcode 1);
 * an ELFv2 function may open with its TOC setup (the global entry), and a
 * traceable one with "mflr r0" and the ftrace call.
 */

#include <linux/ftrace.h>
#include <linux/types.h>
#include <asm/code-patching.h>
#include <asm/ppc-opcode.h>

#include "kprobes_kunit.h"

#define KPKT_PPC_BLR	0x4e800020U	/* blr */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	if (site)
		return site + MCOUNT_INSN_SIZE;
	return ppc_function_entry((void *)start);
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u32 word = *(u32 *)addr;

	*ret = word == KPKT_PPC_BLR;
	*pad = !word;
	return IS_ENABLED(CONFIG_PPC64) && word >> 26 == OP_PREFIX ? 8 : 4;
}

const char *const kpkt_arch_refused[] = {
	"kprobe_handler",
	"kprobe_step_end",
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->gpr[3] = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}
