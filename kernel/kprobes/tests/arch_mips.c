// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of mips (kprobes_kunit.h): every
 * instruction is one aligned 32-bit word, but a branch or jump and its
 * delay slot are walked as one 8-byte unit, because a probe in a delay
 * slot is refused.  A traceable function opens with ftrace's mcount
 * sequence, "move at, ra; jal _mcount; addiu sp, sp, -8", whose call and
 * delay slot ftrace rewrites.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/types.h>
#include <asm/inst.h>

#include "kprobes_kunit.h"

#define KPKT_MIPS_JR_RA		0x03e00008U	/* jr ra */
#define KPKT_MIPS_JR_HB_RA	0x03e00408U	/* jr.hb ra */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	/* the jal and its delay slot */
	return site ? site + 2 * MCOUNT_INSN_SIZE : start;
}

/* Does @insn have a delay slot (the 32-bit branches and jumps)? */
static bool kpkt_mips_has_delay_slot(u32 insn)
{
	union mips_instruction mi = { .word = insn };

	switch (mi.i_format.opcode) {
	case spec_op:
		return mi.r_format.func == jr_op || mi.r_format.func == jalr_op;
	case bcond_op:
		return (mi.i_format.rt & 0x0c) == 0 ||	/* bltz .. bgezl */
		       (mi.i_format.rt & 0x1c) == 0x10;	/* bltzal .. bgezall */
	case j_op:
	case jal_op:
	case beq_op:
	case bne_op:
	case blez_op:
	case bgtz_op:
	case beql_op:
	case bnel_op:
	case blezl_op:
	case bgtzl_op:
		return true;
	}
	return false;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	u32 insn = *(u32 *)addr;
	unsigned long size, offset, end, a;

	*ret = insn == KPKT_MIPS_JR_RA || insn == KPKT_MIPS_JR_HB_RA;
	/* zero words (nops) up to the next symbol pad between functions */
	*pad = false;
	if (!insn && kallsyms_lookup_size_offset(addr, &size, &offset)) {
		end = addr - offset + size;
		for (a = addr; a < end && !*(u32 *)a; a += 4)
			;
		*pad = a == end;
	}
	return kpkt_mips_has_delay_slot(insn) ? 8 : 4;
}

const char *const kpkt_arch_refused[] = {
	"resume",		/* mips' __switch_to() */
	"do_bp",
	"__compute_return_epc_for_insn",
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
