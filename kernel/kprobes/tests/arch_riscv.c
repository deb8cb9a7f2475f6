// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of riscv (kprobes_kunit.h): an
 * instruction is 2 bytes (compressed) or 4 bytes, told by its lowest two
 * bits; ftrace's patchable nops open a traceable function.
 */

#include <linux/ftrace.h>
#include <linux/types.h>

#include "kprobes_kunit.h"

#define KPKT_RV_RET	0x00008067U	/* jalr x0, 0(ra) */
#define KPKT_RV_C_RET	0x8082U		/* c.jr ra */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	return site ? site + MCOUNT_INSN_SIZE : start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u16 lo = *(u16 *)addr;

	if ((lo & 3) != 3) {
		*ret = lo == KPKT_RV_C_RET;
		*pad = !lo;		/* c.unimp: zero fill */
		return 2;
	}
	if ((lo & 0x1f) == 0x1f)
		return -EOPNOTSUPP;	/* 48 bits and longer: none in the kernel */
	*ret = (lo | (u32)*(u16 *)(addr + 2) << 16) == KPKT_RV_RET;
	return 4;
}

const char *const kpkt_arch_refused[] = {
	"kprobe_breakpoint_handler",
	"kprobe_single_step_handler",
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->a0 = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}
