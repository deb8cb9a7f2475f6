// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of sparc64 (kprobes_kunit.h):
 * every instruction is one aligned 32-bit word.  A function's return
 * ("ret", "retl", "return") and its delay slot, which runs before the
 * return takes effect, are walked as one 8-byte unit.  A traceable
 * function calls _mcount early in its body; ftrace rewrites the call, and
 * its delay slot goes with it.  The trap tables and trap entry of
 * head_64.S are never probed.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/ptrace.h>
#include <linux/types.h>

#include "kprobes_kunit.h"

#define KPKT_SPARC_RET		0x81c7e008U	/* jmpl %i7 + 8, %g0 */
#define KPKT_SPARC_RETL		0x81c3e008U	/* jmpl %o7 + 8, %g0 */
#define KPKT_SPARC_RETURN	0x81cfe008U	/* return %i7 + 8 */
#define KPKT_SPARC_NOP		0x01000000U	/* sethi 0, %g0 */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	/* the call and its delay slot */
	return site ? site + 2 * sizeof(u32) : start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u32 insn = *(u32 *)addr;
	unsigned long size, offset, end, a;

	*ret = insn == KPKT_SPARC_RET || insn == KPKT_SPARC_RETL ||
	       insn == KPKT_SPARC_RETURN;
	/* nops up to the next symbol pad between functions */
	*pad = false;
	if (insn == KPKT_SPARC_NOP &&
	    kallsyms_lookup_size_offset(addr, &size, &offset)) {
		end = addr - offset + size;
		for (a = addr; a < end && *(u32 *)a == KPKT_SPARC_NOP; a += 4)
			;
		*pad = a == end;
	}
	return *ret ? 8 : 4;
}

const char *const kpkt_arch_refused[] = {
	"kprobe_trap",
	"bad_trap",
	"etrap_irq",		/* head_64.S: trap entry */
	"rtrap",		/* head_64.S: trap return */
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->u_regs[UREG_I0] = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}
