// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of s390 (kprobes_kunit.h):
 * instructions are 2, 4 or 6 bytes, their length in the top two bits of
 * the first byte; a traceable function opens with ftrace's six-byte
 * brcl, which entry probes leave to ftrace.  A probe inside an
 * instruction is refused with -EINVAL, as s390 always did.
 */

#include <linux/errno.h>
#include <linux/ftrace.h>
#include <linux/types.h>
#include <asm/dis.h>

#include "kprobes_kunit.h"

#define KPKT_S390_BR_R14	0x07fe	/* bcr 15,%r14 */
#define KPKT_S390_NOPR_R7	0x0707	/* bcr 0,%r7: the assembler's padding */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	return site == start ? site + MCOUNT_INSN_SIZE : start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u16 half = *(u16 *)addr;

	*ret = half == KPKT_S390_BR_R14;
	*pad = !half || half == KPKT_S390_NOPR_R7;
	return insn_length(half >> 8);
}

const char *const kpkt_arch_refused[] = {
	"kprobe_exceptions_notify",
	"kprobe_fault_handler",
	"do_per_trap",
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->gprs[2] = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}

int kpkt_arch_mid_insn_err(void)
{
	return -EINVAL;
}
