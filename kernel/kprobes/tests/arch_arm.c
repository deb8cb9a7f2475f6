// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of 32-bit ARM, ARM-mode kernels
 * (kprobes_kunit.h): every instruction is one aligned 32-bit word; a
 * traceable function calls __gnu_mcount_nc early ("push {lr}; bl", the bl
 * being ftrace's site), which the entry cases step over; a function's
 * literal pool follows its code, inside its symbol: data, not
 * instructions.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/types.h>
#include <asm/opcodes.h>

#include "kprobes_kunit.h"

#define KPKT_ARM_BX_LR		0xe12fff1eU	/* bx lr */
#define KPKT_ARM_POP_PC		0xe49df004U	/* ldr pc, [sp], #4 */

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long site = ftrace_location(start);

	return site ? site + MCOUNT_INSN_SIZE : start;
}

static u32 kpkt_arm_word(unsigned long addr)
{
	return __mem_to_opcode_arm(*(u32 *)addr);
}

/* An unconditional return: bx lr, or a load of the pc from the stack. */
static bool kpkt_arm_is_ret(u32 insn)
{
	if (insn == KPKT_ARM_BX_LR || insn == KPKT_ARM_POP_PC)
		return true;
	/* ldm{ia,ib,da,db} Rn{!}, {..., pc} */
	return (insn & 0xfe108000) == 0xe8108000;
}

/*
 * Where the literal pool of the function [@start, @end) begins: the
 * lowest word a pc-relative ldr of the function loads from, after that
 * ldr; @end if none.
 */
static unsigned long kpkt_arm_pool(unsigned long start, unsigned long end)
{
	unsigned long pool = end, a, target;
	u32 insn;

	for (a = start; a < end && a < pool; a += 4) {
		insn = kpkt_arm_word(a);
		/* ldr{b} Rt, [pc, #+/-imm12] */
		if ((insn & 0x0f3f0000) != 0x051f0000 || (insn >> 28) == 0xf)
			continue;
		target = a + 8;
		target = insn & BIT(23) ? target + (insn & 0xfff) :
					  target - (insn & 0xfff);
		if (target > a && target < pool)
			pool = target & ~3UL;
	}
	return pool;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	unsigned long size, offset, start;
	u32 insn = kpkt_arm_word(addr);

	*ret = kpkt_arm_is_ret(insn);
	*pad = !insn;
	if (kallsyms_lookup_size_offset(addr, &size, &offset)) {
		start = addr - offset;
		if (addr >= kpkt_arm_pool(start, start + size)) {
			*pad = true;
			*ret = false;
		}
	}
	return 4;
}

const char *const kpkt_arch_refused[] = {
	"kprobe_arm_udf_hit",
	"kprobe_arm_udf_step_end",
	NULL
};

void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	regs->ARM_r0 = v;
}

unsigned long kpkt_arch_user_text(void)
{
	return 0;
}
