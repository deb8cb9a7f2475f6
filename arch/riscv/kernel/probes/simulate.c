// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv kprobes: the instructions that cannot run in a slot, computed in C.
 *
 * Each routine is handed the probed instruction (ai->insn), the address it
 * was probed at and the registers of the hit, and leaves the registers as
 * the instruction would have, regs->epc included.  They run on the trap
 * path, with interrupts off.
 *
 * struct pt_regs holds epc where x0 would be and then x1..x31 in order,
 * so register n is word n of it; x0 reads as zero and ignores writes.
 */
#include "riscv-kprobes.h"

#include <linux/stddef.h>
#include <asm/insn.h>

static_assert(offsetof(struct pt_regs, ra) == 1 * sizeof(unsigned long));
static_assert(offsetof(struct pt_regs, s0) == 8 * sizeof(unsigned long));
static_assert(offsetof(struct pt_regs, a0) == 10 * sizeof(unsigned long));
static_assert(offsetof(struct pt_regs, t6) == 31 * sizeof(unsigned long));

static nokprobe_inline unsigned long kp_reg(struct pt_regs *regs,
					    unsigned int n)
{
	return n ? ((unsigned long *)regs)[n] : 0;
}

static nokprobe_inline void kp_set_reg(struct pt_regs *regs, unsigned int n,
				       unsigned long val)
{
	if (n)
		((unsigned long *)regs)[n] = val;
}

/* Register fields: rd, rs1 and rs2 of 32-bit forms, rs1 of c.jr/c.jalr. */
#define KP_RD(insn)		(((insn) >> 7) & 0x1f)
#define KP_RS1(insn)		(((insn) >> 15) & 0x1f)
#define KP_RS2(insn)		(((insn) >> 20) & 0x1f)
#define KP_C_RS1(insn)		(((insn) >> 7) & 0x1f)
/* The 3-bit register field of c.beqz/c.bnez names x8..x15. */
#define KP_C_RS1_PRIME(insn)	(8 + (((insn) >> 7) & 0x7))

/* jal rd, imm: link, then pc-relative jump */
void kprobe_sim_jal(const struct arch_specific_insn *ai, unsigned long addr,
		    struct pt_regs *regs)
{
	kp_set_reg(regs, KP_RD(ai->insn), addr + 4);
	regs->epc = addr + (long)riscv_insn_extract_jtype_imm(ai->insn);
}

NOKPROBE_SYMBOL(kprobe_sim_jal);

/* jalr rd, imm(rs1): the target is read before rd is written (rd == rs1) */
void kprobe_sim_jalr(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs)
{
	s32 imm = (s32)RV_EXTRACT_ITYPE_IMM(ai->insn);
	unsigned long to = (kp_reg(regs, KP_RS1(ai->insn)) + imm) & ~1UL;

	kp_set_reg(regs, KP_RD(ai->insn), addr + 4);
	regs->epc = to;
}

NOKPROBE_SYMBOL(kprobe_sim_jalr);

/* auipc rd, imm: rd = the instruction's own address + imm << 12 */
void kprobe_sim_auipc(const struct arch_specific_insn *ai, unsigned long addr,
		      struct pt_regs *regs)
{
	s32 upper = (s32)(ai->insn & 0xfffff000);

	kp_set_reg(regs, KP_RD(ai->insn), addr + (long)upper);
	regs->epc = addr + 4;
}

NOKPROBE_SYMBOL(kprobe_sim_auipc);

/* beq, bne, blt, bge, bltu, bgeu (decode.c refused funct3 2 and 3) */
void kprobe_sim_branch(const struct arch_specific_insn *ai, unsigned long addr,
		       struct pt_regs *regs)
{
	unsigned long a = kp_reg(regs, KP_RS1(ai->insn));
	unsigned long b = kp_reg(regs, KP_RS2(ai->insn));
	bool taken;

	switch ((ai->insn >> 12) & 0x7) {
	case 0:
		taken = a == b;
		break;
	case 1:
		taken = a != b;
		break;
	case 4:
		taken = (long)a < (long)b;
		break;
	case 5:
		taken = (long)a >= (long)b;
		break;
	case 6:
		taken = a < b;
		break;
	default:
		taken = a >= b;
		break;
	}
	if (taken)
		regs->epc = addr + (long)(s32)RV_EXTRACT_BTYPE_IMM(ai->insn);
	else
		regs->epc = addr + 4;
}

NOKPROBE_SYMBOL(kprobe_sim_branch);

/* c.j imm */
void kprobe_sim_c_j(const struct arch_specific_insn *ai, unsigned long addr,
		    struct pt_regs *regs)
{
	regs->epc = addr + (long)(s32)RVC_EXTRACT_JTYPE_IMM(ai->insn);
}

NOKPROBE_SYMBOL(kprobe_sim_c_j);

/* c.jal imm (rv32 only): c.j that links in ra */
void kprobe_sim_c_jal(const struct arch_specific_insn *ai, unsigned long addr,
		      struct pt_regs *regs)
{
	regs->ra = addr + 2;
	kprobe_sim_c_j(ai, addr, regs);
}

NOKPROBE_SYMBOL(kprobe_sim_c_jal);

/* c.jr rs1 (rs1 != x0) */
void kprobe_sim_c_jr(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs)
{
	regs->epc = kp_reg(regs, KP_C_RS1(ai->insn)) & ~1UL;
}

NOKPROBE_SYMBOL(kprobe_sim_c_jr);

/* c.jalr rs1 (rs1 != x0): the target is read before ra is written */
void kprobe_sim_c_jalr(const struct arch_specific_insn *ai,
		       unsigned long addr, struct pt_regs *regs)
{
	unsigned long to = kp_reg(regs, KP_C_RS1(ai->insn)) & ~1UL;

	regs->ra = addr + 2;
	regs->epc = to;
}

NOKPROBE_SYMBOL(kprobe_sim_c_jalr);

/* c.beqz / c.bnez rs1', imm: funct3 bit 0 (instruction bit 13) picks bnez */
void kprobe_sim_c_bz(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs)
{
	bool zero = !kp_reg(regs, KP_C_RS1_PRIME(ai->insn));
	bool taken = (ai->insn & BIT(13)) ? !zero : zero;

	if (taken)
		regs->epc = addr + (long)(s32)RVC_EXTRACT_BTYPE_IMM(ai->insn);
	else
		regs->epc = addr + 2;
}

NOKPROBE_SYMBOL(kprobe_sim_c_bz);
