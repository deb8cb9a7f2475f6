/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 32-bit ARM kprobes: what the two computations share (arm_compute.c on
 * ARM-mode kernels, thumb_compute.c on Thumb-2 kernels): the shifter and
 * the adder as the ARM ARM's pseudocode has them, the flags of the CPSR,
 * the walk of a load/store-multiple's register list (which the
 * simulations in core.c and arm.c take too), and the test every store
 * made from the trap passes first.
 */
#ifndef _ARM_PROBES_KPROBES_COMPUTE_H
#define _ARM_PROBES_KPROBES_COMPUTE_H

#include <linux/bitops.h>
#include <linux/ptrace.h>
#include <asm/probes.h>
#include <asm/thread_info.h>

/* The flags of the CPSR, and where C is. */
#define KP_NZCV		(PSR_N_BIT | PSR_Z_BIT | PSR_C_BIT | PSR_V_BIT)
#define KP_C_SHIFT	29

/* Shift types, as both instruction sets encode them in two bits */
enum { KP_LSL, KP_LSR, KP_ASR, KP_ROR };

/*
 * Shift @v by @n (1 to 255) of type @type, as a register-specified shift
 * does; *@carry gets the last bit shifted out.  The immediate shifts'
 * encodings map onto this (#0 meaning #32, or rrx).
 */
static __always_inline u32 kprobe_alu_shift(u32 v, unsigned int type,
					    unsigned int n, u32 *carry)
{
	switch (type) {
	case KP_LSL:
		*carry = n <= 32 ? (u32)(((u64)v << n) >> 32) & 1 : 0;
		return n < 32 ? v << n : 0;
	case KP_LSR:
		*carry = n <= 32 ? (v >> (n - 1)) & 1 : 0;
		return n < 32 ? v >> n : 0;
	case KP_ASR:
		if (n >= 32) {
			*carry = v >> 31;
			return (u32)((s32)v >> 31);
		}
		*carry = (v >> (n - 1)) & 1;
		return (u32)((s32)v >> n);
	default:
		v = ror32(v, n & 31);
		*carry = v >> 31;
		return v;
	}
}

/* a + b + carry_in, with the adder's carry out and overflow. */
static __always_inline u32 kprobe_alu_adc(u32 a, u32 b, u32 cin, u32 *c,
					  u32 *v)
{
	u64 sum = (u64)a + b + cin;
	u32 res = (u32)sum;

	*c = sum >> 32;
	*v = ((a ^ res) & (b ^ res)) >> 31;
	return res;
}

/*
 * A load/store-multiple's register list, one step per register it names
 * (a function's push names four or five of the sixteen): ARMv7 has no
 * population count, hweight16() is a library call of some twenty
 * instructions, and a loop over all sixteen bits costs ten times the
 * registers moved.  kprobe_list_count() is how many, kprobe_list_gather()
 * copies the registers of @list (r0-r14) to @words lowest first, and
 * kprobe_list_scatter() back.
 */
static __always_inline unsigned int kprobe_list_count(unsigned int list)
{
	unsigned int n = 0;

	for (; list; list &= list - 1)
		n++;
	return n;
}

static __always_inline void kprobe_list_gather(const struct pt_regs *regs,
					       unsigned int list, u32 *words)
{
	for (; list; list &= list - 1)
		*words++ = regs->uregs[__ffs(list)];
}

static __always_inline void kprobe_list_scatter(struct pt_regs *regs,
						unsigned int list,
						const u32 *words)
{
	for (; list; list &= list - 1)
		regs->uregs[__ffs(list)] = *words++;
}

/*
 * May @len bytes at @addr be written from the trap?  Not onto the stack
 * below the probed sp's free MAX_STACK_SIZE bytes (entry-armv.S keeps
 * them free for us): the trap's frame and ours are there (the whole
 * THREAD_SIZE below, to be simple).
 */
static __always_inline bool kprobe_may_store(unsigned long addr,
					     unsigned int len,
					     struct pt_regs *regs)
{
	unsigned long low = regs->ARM_sp - MAX_STACK_SIZE;

	return addr >= low || addr + len <= low - THREAD_SIZE;
}

#endif /* _ARM_PROBES_KPROBES_COMPUTE_H */
