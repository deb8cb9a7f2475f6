// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of arc (kprobes_kunit.h):
 * instructions are 16 or 32 bits, some with a 32-bit immediate after
 * them; the base decoder (disasm_instr()) says how long.  A branch and
 * its delay slot are walked as one unit, because a probe in a delay slot
 * is refused.  arc has no ftrace entry sequence.  Functions return with
 * "j_s [blink]" or "j [blink]", possibly with a delay slot.
 */

#include <linux/kallsyms.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/disasm.h>

#include "kprobes_kunit.h"

#define KPKT_ARC_J_S_BLINK	0x7ee0U		/* j_s [blink] */
#define KPKT_ARC_J_S_D_BLINK	0x7fe0U		/* j_s.d [blink] */
#define KPKT_ARC_J_BLINK	0x202007c0U	/* j [blink] */
#define KPKT_ARC_J_D_BLINK	0x202107c0U	/* j.d [blink] */
#define KPKT_ARC_NOP_S		0x78e0U

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	return start;
}

static int kpkt_arc_len(unsigned long addr, struct disasm_state *st)
{
	struct pt_regs regs;

	memset(&regs, 0, sizeof(regs));
	disasm_instr(addr, st, 0, &regs, NULL);
	return st->instr_len;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	struct disasm_state st, ds;
	unsigned long size, offset, end, a;
	u16 hw = *(u16 *)addr;
	int len = kpkt_arc_len(addr, &st);

	*ret = st.words[0] == KPKT_ARC_J_BLINK ||
	       st.words[0] == KPKT_ARC_J_D_BLINK ||
	       (len == 2 && (hw == KPKT_ARC_J_S_BLINK ||
			     hw == KPKT_ARC_J_S_D_BLINK));
	/* nops up to the next symbol are padding */
	*pad = false;
	if (hw == KPKT_ARC_NOP_S &&
	    kallsyms_lookup_size_offset(addr, &size, &offset)) {
		end = addr - offset + size;
		for (a = addr; a < end && *(u16 *)a == KPKT_ARC_NOP_S; a += 2)
			;
		*pad = a == end;
	}
	if (st.is_branch && st.delay_slot)
		len += kpkt_arc_len(addr + len, &ds);
	return len;
}

const char *const kpkt_arch_refused[] = {
	"trap_is_kprobe",
	"do_insterror_or_kprobe",
	"do_non_swi_trap",
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->r0 = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}
