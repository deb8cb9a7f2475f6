// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of LoongArch (kprobes_kunit.h):
 * every instruction is one aligned 32-bit word.  A traceable function
 * opens with ftrace's two patchable words ("move t0, ra" and the call
 * ftrace writes while the function is traced); an entry probe is armed
 * through ftrace on the first, and a break on the second is refused.
 * Functions return with "jr ra" (jirl zero, ra, 0).
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/types.h>

#include "kprobes_kunit.h"

#define KPKT_LA_RET	0x4c000020U	/* jirl zero, ra, 0 */
#define KPKT_LA_NOP	0x03400000U	/* andi zero, zero, 0 */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	/* the site and the call after it */
	return site == start ? site + 2 * MCOUNT_INSN_SIZE : start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u32 insn = *(u32 *)addr;
	unsigned long size, offset, end, a;

	*ret = insn == KPKT_LA_RET;
	/* nops up to the next symbol are padding */
	*pad = false;
	if (insn == KPKT_LA_NOP &&
	    kallsyms_lookup_size_offset(addr, &size, &offset)) {
		end = addr - offset + size;
		for (a = addr; a < end && *(u32 *)a == KPKT_LA_NOP; a += 4)
			;
		*pad = a == end;
	}
	return 4;
}

const char *const kpkt_arch_refused[] = {
	"kprobe_breakpoint_handler",
	"kprobe_singlestep_handler",
	"do_bp",
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->regs[4] = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}
