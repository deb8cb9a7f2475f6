// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of sh (kprobes_kunit.h): every
 * instruction is one aligned 16-bit word, but a delayed branch and its
 * delay slot are walked as one 4-byte unit, because a probe in a delay
 * slot is refused.  Functions return with "rts"; the constants that
 * mov.l @(disp,PC) loads sit in a literal pool after it, inside the
 * symbol: past a function's last return and its delay slot, the rest is
 * taken for that pool and walked over as padding.
 */
#include <linux/kallsyms.h>
#include <linux/types.h>

#include "kprobes_kunit.h"

#define KPKT_SH_RTS	0x000b

/* Is @insn a delayed branch (bra, bsr, braf, bsrf, jmp, jsr, rts, rte, bt/s, bf/s)? */
static bool kpkt_sh_has_delay_slot(u16 insn)
{
	return (insn & 0xe000) == 0xa000 ||		/* bra, bsr */
	       (insn & 0xf0df) == 0x0003 ||		/* bsrf, braf */
	       (insn & 0xf0df) == 0x400b ||		/* jsr, jmp */
	       (insn & 0xffdf) == 0x000b ||		/* rts, rte */
	       (insn & 0xfd00) == 0x8d00;		/* bt/s, bf/s */
}

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	return start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u16 insn = *(u16 *)addr;
	unsigned long size, offset, start, a, last = 0;

	*ret = insn == KPKT_SH_RTS;
	*pad = false;
	if (kallsyms_lookup_size_offset(addr, &size, &offset)) {
		start = addr - offset;
		for (a = start; a + 2 < start + size; a += 2)
			if (*(u16 *)a == KPKT_SH_RTS)
				last = a;
		*pad = last && addr > last + 2;
	}
	return kpkt_sh_has_delay_slot(insn) ? 4 : 2;
}

const char *const kpkt_arch_refused[] = {
	"debug_trap_handler",
	"handle_exception",
	"ret_from_exception",
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
