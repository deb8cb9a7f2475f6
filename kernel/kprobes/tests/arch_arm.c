// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of 32-bit ARM (kprobes_kunit.h):
 * in an ARM-mode kernel every instruction is one aligned 32-bit word, in
 * a Thumb-2 kernel (THUMB2_KERNEL) one or two halfwords; a traceable
 * function calls __gnu_mcount_nc early ("push {lr}; bl", the bl being
 * ftrace's site), which the entry cases step over; a function's literal
 * pool follows its code, inside its symbol: data, not instructions.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/types.h>
#include <asm/opcodes.h>
#include <asm/ptrace.h>

#include "kprobes_kunit.h"

#define KPKT_ARM_BX_LR		0xe12fff1eU	/* bx lr */
#define KPKT_ARM_POP_PC		0xe49df004U	/* ldr pc, [sp], #4 */
#define KPKT_T16_BX_LR		0x4770U		/* bx lr */
#define KPKT_T32_POP_PC		0xf85dfb04U	/* ldr.w pc, [sp], #4 */

/* A Thumb function's pointer has bit 0 set, its first instruction not. */
unsigned long kpkt_arch_fn_addr(kpkt_fn_t fn)
{
	return (unsigned long)fn & ~1UL;
}

/* Thumb-2: bit 0 of an address is dropped, an offset of 2 is inside. */
unsigned int kpkt_arch_mid_insn_off(void)
{
	return IS_ENABLED(CONFIG_THUMB2_KERNEL) ? 2 : 1;
}

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

/* The Thumb instruction at @addr, a 32-bit one's first halfword high. */
static u32 kpkt_thumb_insn(unsigned long addr, int *len)
{
	u16 first = __mem_to_opcode_thumb16(*(u16 *)addr);

	*len = 2;
	if (!is_wide_instruction(first))
		return first;
	*len = 4;
	return __opcode_thumb32_compose(first,
					__mem_to_opcode_thumb16(*(u16 *)(addr + 2)));
}

/* bx lr, pop {..., pc}, ldm.w sp!, {..., pc}, ldr.w pc, [sp], #4 */
static bool kpkt_thumb_is_ret(u32 insn, int len)
{
	if (len == 2)
		return insn == KPKT_T16_BX_LR || (insn & 0xff00) == 0xbd00;
	return (insn & 0xffff8000) == 0xe8bd8000 || insn == KPKT_T32_POP_PC;
}

/*
 * The word a Thumb literal load at @a reads (16-bit ldr, 32-bit
 * ldr{,b,h,sb,sh}.w), or 0 if @insn is none.
 */
static unsigned long kpkt_thumb_literal(unsigned long a, u32 insn, int len)
{
	unsigned long base = ALIGN_DOWN(a + 4, 4);

	if (len == 2)
		return (insn & 0xf800) == 0x4800 ? base + (insn & 0xff) * 4 : 0;
	if ((insn & 0xfe5f0000) != 0xf81f0000)
		return 0;
	return insn & BIT(23) ? base + (insn & 0xfff) : base - (insn & 0xfff);
}

/* kpkt_arm_pool() for Thumb code. */
static unsigned long kpkt_thumb_pool(unsigned long start, unsigned long end)
{
	unsigned long pool = end, a, target;
	int len;
	u32 insn;

	for (a = start; a < end && a < pool; a += len) {
		insn = kpkt_thumb_insn(a, &len);
		target = kpkt_thumb_literal(a, insn, len);
		if (target > a && target < pool)
			pool = target & ~3UL;
	}
	return pool;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	bool thumb = IS_ENABLED(CONFIG_THUMB2_KERNEL);
	unsigned long size, offset, start, pool;
	int len = 4;
	u32 insn;

	if (thumb) {
		insn = kpkt_thumb_insn(addr, &len);
		*ret = kpkt_thumb_is_ret(insn, len);
	} else {
		insn = kpkt_arm_word(addr);
		*ret = kpkt_arm_is_ret(insn);
	}
	*pad = !insn;
	if (kallsyms_lookup_size_offset(addr, &size, &offset)) {
		start = addr - offset;
		pool = thumb ? kpkt_thumb_pool(start, start + size) :
			       kpkt_arm_pool(start, start + size);
		if (addr >= pool) {
			*pad = true;
			*ret = false;
		}
	}
	return len;
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
