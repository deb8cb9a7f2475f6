// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of parisc (kprobes_kunit.h):
 * every instruction is one aligned 32-bit word.  A traceable function
 * opens with the last of ftrace's patchable nops (the others precede the
 * symbol, at the end of the function before it); entry probes leave that
 * word to ftrace.  Functions return with "bv %r0(%rp)", whose delay slot
 * follows it.  The gateway page is the user text among kernel addresses.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/types.h>

#include "kprobes_kunit.h"

#define KPKT_PARISC_BV_RP	0xe840c000U	/* bv %r0(%rp) */
#define KPKT_PARISC_BV_N_RP	0xe840c002U	/* bv,n %r0(%rp) */
#define KPKT_PARISC_NOP		0x08000240U	/* or %r0,%r0,%r0 */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	return site == start ? site + MCOUNT_INSN_SIZE : start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u32 insn = *(u32 *)addr;
	unsigned long size, offset, end, a;

	*ret = insn == KPKT_PARISC_BV_RP || insn == KPKT_PARISC_BV_N_RP;
	/* nops (and ftrace's pad) up to the next symbol are padding */
	*pad = false;
	if (insn == KPKT_PARISC_NOP &&
	    kallsyms_lookup_size_offset(addr, &size, &offset)) {
		end = addr - offset + size;
		for (a = addr; a < end && *(u32 *)a == KPKT_PARISC_NOP; a += 4)
			;
		*pad = a == end;
	}
	return 4;
}

const char *const kpkt_arch_refused[] = {
	"handle_interruption",
	"parisc_kprobe_break_handler",
	"parisc_kprobe_ss_handler",
	"kprobe_parisc_branch",		/* decode.c: called by the break */
	"kprobe_parisc_compute",
	"_switch_to",		/* parisc's __switch_to(), in entry.S */
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->gr[26] = v;
}

/*
 * The gateway page: kernel text, but user space runs it (system calls,
 * the light-weight atomics) at its own address, 0 up.
 */
unsigned long kpkt_arch_user_text(void)
{
	return kallsyms_lookup_name("linux_gateway_page");
}
