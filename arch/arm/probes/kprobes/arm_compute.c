// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kprobes, ARM-mode kernels: the instructions the trap
 * computes although a copy could run them.  A copy in a slot costs a
 * second undefined-instruction trap (its step end); the classes here are
 * the ones probes land on most, function entries and simple bodies:
 *
 *   - data processing, register (shifted by an immediate or a register)
 *     and immediate forms, every opcode, the flag-setting forms with
 *     their N, Z, C and V as the ARM ARM's pseudocode gives them; a
 *     plain "mov Rd, Rm" has a path of its own;
 *   - movw and movt;
 *   - ldr, ldrb, str, strb with an immediate offset, pre- or
 *     post-indexed, with or without write-back;
 *   - ldm and stm without the pc in an ldm's list ("push {..., lr}",
 *     "pop {...}", an APCS frame's "push {fp, ip, lr, pc}").
 *
 * arm.c picks them out (none names the pc but the STM's list), and
 * core.c calls kprobe_arm_compute_*() after the condition passed.  Each
 * sees the pc at the probe address and changes nothing before it knows
 * it succeeds: memory goes through the kernel's fault-safe accessors, and
 * when one fails the computation declines, so that the copy in the slot
 * (kept for that) takes the fault in place and the fault path treats it
 * as it treats any copy's.  A store onto the stack below the probed
 * context's sp and its MAX_STACK_SIZE bytes (entry-armv.S keeps them
 * free for us) would land on the trap's own frame: declined too, the
 * copy makes it after the exception returns.  Sites that have an
 * exception table entry are never computed (arm.c).
 */
#include "arm-kprobes.h"
#include "compute.h"

#include <linux/bitops.h>
#include <linux/uaccess.h>

/*
 * The second operand of a data-processing instruction and the shifter's
 * carry out; @c is the C flag before the instruction.
 */
static nokprobe_inline u32 kprobe_arm_operand2(u32 insn, struct pt_regs *regs,
					       u32 c, u32 *carry)
{
	unsigned int type = (insn >> 5) & 3, n;
	u32 rm, rot;

	*carry = c;
	if (KP_BIT(insn, 25)) {
		rot = ((insn >> 8) & 0xf) * 2;
		rm = ror32(insn & 0xff, rot);
		if (rot)
			*carry = rm >> 31;
		return rm;
	}
	rm = regs->uregs[insn & 0xf];
	if (KP_BIT(insn, 4)) {
		/* by the bottom byte of Rs */
		n = regs->uregs[(insn >> 8) & 0xf] & 0xff;
	} else {
		n = (insn >> 7) & 0x1f;
		if (!n && type == KP_ROR) {
			/* rrx */
			*carry = rm & 1;
			return (c << 31) | (rm >> 1);
		}
		/* lsr #32 and asr #32 are encoded as #0 */
		if (!n && type != KP_LSL)
			n = 32;
	}
	if (!n)
		return rm;
	return kprobe_alu_shift(rm, type, n, carry);
}

/**
 * kprobe_arm_compute_dp() - a data-processing instruction
 * @insn: the instruction: no operand is the pc
 * @regs: the probed context
 *
 * Opcodes 1000 to 1011 (tst, teq, cmp, cmn) only set the flags; the
 * others write Rd, and set the flags in their S form.  Logical opcodes
 * take C from the shifter and leave V, arithmetic ones take both from
 * the adder.
 *
 * Return: true.
 */
bool kprobe_arm_compute_dp(u32 insn, struct pt_regs *regs)
{
	u32 cpsr = regs->ARM_cpsr, c = (cpsr >> KP_C_SHIFT) & 1;
	u32 a = regs->uregs[KP_RN(insn)], b, res, sc, ac = 0, av = 0;
	unsigned int op = (insn >> 21) & 0xf;
	bool arith = false;

	b = kprobe_arm_operand2(insn, regs, c, &sc);
	switch (op) {
	case 0x0:	/* and */
	case 0x8:	/* tst */
		res = a & b;
		break;
	case 0x1:	/* eor */
	case 0x9:	/* teq */
		res = a ^ b;
		break;
	case 0x2:	/* sub */
	case 0xa:	/* cmp */
		res = kprobe_alu_adc(a, ~b, 1, &ac, &av);
		arith = true;
		break;
	case 0x3:	/* rsb */
		res = kprobe_alu_adc(b, ~a, 1, &ac, &av);
		arith = true;
		break;
	case 0x4:	/* add */
	case 0xb:	/* cmn */
		res = kprobe_alu_adc(a, b, 0, &ac, &av);
		arith = true;
		break;
	case 0x5:	/* adc */
		res = kprobe_alu_adc(a, b, c, &ac, &av);
		arith = true;
		break;
	case 0x6:	/* sbc */
		res = kprobe_alu_adc(a, ~b, c, &ac, &av);
		arith = true;
		break;
	case 0x7:	/* rsc */
		res = kprobe_alu_adc(b, ~a, c, &ac, &av);
		arith = true;
		break;
	case 0xc:	/* orr */
		res = a | b;
		break;
	case 0xd:	/* mov */
		res = b;
		break;
	case 0xe:	/* bic */
		res = a & ~b;
		break;
	default:	/* mvn */
		res = ~b;
		break;
	}
	if ((op & 0xc) != 0x8)
		regs->uregs[KP_RD(insn)] = res;
	if (!KP_BIT(insn, 20))
		return true;

	cpsr &= ~(PSR_N_BIT | PSR_Z_BIT | PSR_C_BIT);
	if (res & BIT(31))
		cpsr |= PSR_N_BIT;
	if (!res)
		cpsr |= PSR_Z_BIT;
	if (arith ? ac : sc)
		cpsr |= PSR_C_BIT;
	if (arith)
		cpsr = av ? cpsr | PSR_V_BIT : cpsr & ~PSR_V_BIT;
	regs->ARM_cpsr = cpsr;
	return true;
}

NOKPROBE_SYMBOL(kprobe_arm_compute_dp);

/**
 * kprobe_arm_compute_mov() - mov Rd, Rm: no shift, no flags
 * @insn: the instruction; neither register is the pc
 * @regs: the probed context
 *
 * The commonest probed instruction ("mov ip, r0", a nop), here without
 * the generic path's decoding.
 *
 * Return: true.
 */
bool kprobe_arm_compute_mov(u32 insn, struct pt_regs *regs)
{
	regs->uregs[KP_RD(insn)] = regs->uregs[insn & 0xf];
	return true;
}

NOKPROBE_SYMBOL(kprobe_arm_compute_mov);

/**
 * kprobe_arm_compute_movw() - movw and movt
 * @insn: the instruction; Rd is not the pc
 * @regs: the probed context
 *
 * Return: true.
 */
bool kprobe_arm_compute_movw(u32 insn, struct pt_regs *regs)
{
	u32 imm = ((insn >> 4) & 0xf000) | (insn & 0xfff);
	unsigned long *rd = &regs->uregs[KP_RD(insn)];

	if (KP_BIT(insn, 22))
		*rd = (*rd & 0xffff) | (imm << 16);
	else
		*rd = imm;
	return true;
}

NOKPROBE_SYMBOL(kprobe_arm_compute_movw);

/**
 * kprobe_arm_compute_ldrstr() - ldr, ldrb, str, strb with an immediate
 * @insn: the instruction: Rt is not the pc, Rn not the pc either, and
 *	not Rt when it is written back; not an ldrt/strt form
 * @regs: the probed context
 *
 * Return: true, or false (nothing changed) when the access faults or the
 * store would hit the trap's frame.
 */
bool kprobe_arm_compute_ldrstr(u32 insn, struct pt_regs *regs)
{
	unsigned long base = regs->uregs[KP_RN(insn)], off, addr;
	unsigned int rt = KP_RD(insn), imm = insn & 0xfff;
	bool byte = KP_BIT(insn, 22), pre = KP_BIT(insn, 24);
	u32 word;
	u8 b;

	off = KP_BIT(insn, 23) ? base + imm : base - imm;
	addr = pre ? off : base;
	if (KP_BIT(insn, 20)) {
		if (byte) {
			if (get_kernel_nofault(b, (u8 *)addr))
				return false;
			word = b;
		} else if (get_kernel_nofault(word, (u32 *)addr)) {
			return false;
		}
	} else {
		word = regs->uregs[rt];
		b = word;
		if (!kprobe_may_store(addr, byte ? 1 : 4, regs) ||
		    copy_to_kernel_nofault((void *)addr,
					   byte ? (void *)&b : (void *)&word,
					   byte ? 1 : 4))
			return false;
	}
	if (!pre || KP_BIT(insn, 21))
		regs->uregs[KP_RN(insn)] = off;
	if (KP_BIT(insn, 20))
		regs->uregs[rt] = word;
	return true;
}

NOKPROBE_SYMBOL(kprobe_arm_compute_ldrstr);

/**
 * kprobe_arm_compute_ldmstm() - ldm and stm, the pc in no ldm's list
 * @insn: the instruction: Rn is not the pc and, written back, not in
 *	the list; the list is not empty
 * @regs: the probed context, its pc at the probe address
 *
 * The registers go to or come from ascending addresses in ascending
 * order; an stm of the pc stores the probe address + 8, what the
 * instruction stores in place.
 *
 * Return: true, or false (nothing changed) when the access faults or the
 * store would hit the trap's frame.
 */
bool kprobe_arm_compute_ldmstm(u32 insn, struct pt_regs *regs)
{
	unsigned int list = insn & 0xffff, n = kprobe_list_count(list);
	unsigned long base = regs->uregs[KP_RN(insn)], start;
	/* Written before it is read: no INIT_STACK_ALL_ZERO memset. */
	u32 words[16] __uninitialized;

	start = kprobe_ldmstm_start(insn, base, n);
	if (KP_BIT(insn, 20)) {
		if (copy_from_kernel_nofault(words, (void *)start, 4 * n))
			return false;
		kprobe_list_scatter(regs, list, words);
	} else {
		/* The pc, the highest register, is the last word. */
		kprobe_list_gather(regs, list & ~BIT(KP_PC), words);
		if (list & BIT(KP_PC))
			words[n - 1] = regs->ARM_pc + str_pc_offset;
		if (!kprobe_may_store(start, 4 * n, regs) ||
		    copy_to_kernel_nofault((void *)start, words, 4 * n))
			return false;
	}
	if (KP_BIT(insn, 21))
		regs->uregs[KP_RN(insn)] = KP_BIT(insn, 23) ? base + 4 * n :
							      base - 4 * n;
	return true;
}

NOKPROBE_SYMBOL(kprobe_arm_compute_ldmstm);
