// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv kprobes: the instructions computed in C on the trap path: those
 * that cannot run in a slot (their result depends on their own address),
 * and the common register-only ones, which could but would cost a second
 * ebreak per hit (see the second half of this file).
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

#include <linux/bitops.h>
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

/*
 * Register-only instructions.  A copy of these would run correctly in
 * the slot, but the slot costs a second ebreak per hit; computed here,
 * the hit takes one trap.  Each reads registers and its immediate and
 * writes one register, sp included: the kernel's trap return reloads
 * every register from pt_regs, sp last, so a value written to regs->sp
 * is the one the probed code continues with.
 */

/* funct3 of the OP and OP-IMM families */
#define KP_ALU_ADD		0
#define KP_ALU_SLL		1
#define KP_ALU_SLT		2
#define KP_ALU_SLTU		3
#define KP_ALU_XOR		4
#define KP_ALU_SR		5
#define KP_ALU_OR		6
#define KP_ALU_AND		7

/* Major opcodes of the 32-bit forms (bits 6:0) */
#define KP_OP_IMM		0x13
#define KP_OP_IMM_32		0x1b

/* The shift amounts of the XLEN-wide and the 32-bit forms */
#define KP_SHAMT(v)		((v) & (BITS_PER_LONG - 1))
#define KP_SHAMT_W(v)		((v) & 31)

/*
 * One XLEN-wide operation: @alt is instruction bit 30, which turns add
 * into sub (register forms only: decode.c never passes it for addi) and
 * a logical right shift into an arithmetic one.
 */
static nokprobe_inline unsigned long kp_alu(unsigned int funct3, bool alt,
					    unsigned long a, unsigned long b)
{
	switch (funct3) {
	case KP_ALU_ADD:
		return alt ? a - b : a + b;
	case KP_ALU_SLL:
		return a << KP_SHAMT(b);
	case KP_ALU_SLT:
		return (long)a < (long)b;
	case KP_ALU_SLTU:
		return a < b;
	case KP_ALU_XOR:
		return a ^ b;
	case KP_ALU_SR:
		return alt ? (unsigned long)((long)a >> KP_SHAMT(b)) :
			     a >> KP_SHAMT(b);
	case KP_ALU_OR:
		return a | b;
	default:
		return a & b;
	}
}

/* The rv64 "w" forms: 32-bit operation, result sign-extended. */
static nokprobe_inline unsigned long kp_alu_w(unsigned int funct3, bool alt,
					      unsigned long a,
					      unsigned long b)
{
	u32 r;

	switch (funct3) {
	case KP_ALU_ADD:
		r = alt ? (u32)a - (u32)b : (u32)a + (u32)b;
		break;
	case KP_ALU_SLL:
		r = (u32)a << KP_SHAMT_W(b);
		break;
	default:	/* KP_ALU_SR: decode.c passes nothing else */
		r = alt ? (u32)((s32)a >> KP_SHAMT_W(b)) :
			  (u32)a >> KP_SHAMT_W(b);
		break;
	}
	return (unsigned long)(long)(s32)r;
}

/*
 * addi alone (mv, li and nop are addi): rd = rs1 + imm12.  The commonest
 * computed instruction gets a routine without kprobe_sim_op_imm()'s
 * dispatch on funct3 and opcode; the immediate is the top 12 bits of
 * the word, sign-extended by an arithmetic shift.
 */
void kprobe_sim_addi(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs)
{
	u32 insn = ai->insn;
	long imm = (s32)insn >> 20;

	kp_set_reg(regs, KP_RD(insn), kp_reg(regs, KP_RS1(insn)) + imm);
	regs->epc = addr + 4;
}

NOKPROBE_SYMBOL(kprobe_sim_addi);

/*
 * addi, slti, sltiu, xori, ori, andi, slli, srli, srai and, on rv64,
 * addiw, slliw, srliw, sraiw: rd = rs1 op sign-extended imm12
 */
void kprobe_sim_op_imm(const struct arch_specific_insn *ai,
		       unsigned long addr, struct pt_regs *regs)
{
	u32 insn = ai->insn;
	unsigned int funct3 = (insn >> 12) & 0x7;
	unsigned long a = kp_reg(regs, KP_RS1(insn));
	unsigned long imm = (long)(s32)RV_EXTRACT_ITYPE_IMM(insn);
	bool alt = funct3 == KP_ALU_SR && (insn & BIT(30));

	if ((insn & 0x7f) == KP_OP_IMM_32)
		kp_set_reg(regs, KP_RD(insn), kp_alu_w(funct3, alt, a, imm));
	else
		kp_set_reg(regs, KP_RD(insn), kp_alu(funct3, alt, a, imm));
	regs->epc = addr + 4;
}

NOKPROBE_SYMBOL(kprobe_sim_op_imm);

/*
 * add, sub, sll, slt, sltu, xor, srl, sra, or, and; on rv64 also addw,
 * subw, sllw, srlw, sraw: rd = rs1 op rs2 (decode.c took funct7 0 or
 * 0x20 only: no M or bit-manipulation extension)
 */
void kprobe_sim_op(const struct arch_specific_insn *ai, unsigned long addr,
		   struct pt_regs *regs)
{
	u32 insn = ai->insn;
	unsigned int funct3 = (insn >> 12) & 0x7;
	unsigned long a = kp_reg(regs, KP_RS1(insn));
	unsigned long b = kp_reg(regs, KP_RS2(insn));
	bool alt = insn & BIT(30);

	if (insn & BIT(3))	/* OP-32 (0x3b) against OP (0x33) */
		kp_set_reg(regs, KP_RD(insn), kp_alu_w(funct3, alt, a, b));
	else
		kp_set_reg(regs, KP_RD(insn), kp_alu(funct3, alt, a, b));
	regs->epc = addr + 4;
}

NOKPROBE_SYMBOL(kprobe_sim_op);

/* lui rd, imm: rd = imm << 12, sign-extended from bit 31 */
void kprobe_sim_lui(const struct arch_specific_insn *ai, unsigned long addr,
		    struct pt_regs *regs)
{
	kp_set_reg(regs, KP_RD(ai->insn),
		   (unsigned long)(long)(s32)(ai->insn & 0xfffff000));
	regs->epc = addr + 4;
}

NOKPROBE_SYMBOL(kprobe_sim_lui);

/* Fields of the compressed forms */
#define KP_C_FUNCT3(insn)	(((insn) >> 13) & 0x7)
#define KP_C_RD(insn)		(((insn) >> 7) & 0x1f)
#define KP_C_RS2(insn)		(((insn) >> 2) & 0x1f)
#define KP_C_RD_PRIME(insn)	(8 + (((insn) >> 7) & 0x7))
#define KP_C_RS2_PRIME(insn)	(8 + (((insn) >> 2) & 0x7))

/* imm[5] in bit 12, imm[4:0] in bits 6:2 (c.addi, c.li, c.andi, shifts) */
static nokprobe_inline unsigned int kp_c_imm6(u32 insn)
{
	return ((insn >> 7) & 0x20) | ((insn >> 2) & 0x1f);
}

/* c.addi16sp's nzimm[9|4|6|8:7|5], in bits 12|6|5|4:3|2 */
static nokprobe_inline long kp_c_addi16sp_imm(u32 insn)
{
	u32 v = ((insn >> 3) & BIT(9)) | ((insn >> 2) & BIT(4)) |
		((insn << 1) & BIT(6)) | ((insn << 4) & (BIT(8) | BIT(7))) |
		((insn << 3) & BIT(5));

	return sign_extend64(v, 9);
}

/*
 * Quadrant 1, funct3 0-3: c.nop and c.addi (and their hints), c.addiw
 * (rv64), c.li, c.lui and c.addi16sp
 */
void kprobe_sim_c_imm(const struct arch_specific_insn *ai,
		      unsigned long addr, struct pt_regs *regs)
{
	u32 insn = ai->insn;
	unsigned int rd = KP_C_RD(insn);
	long imm = sign_extend64(kp_c_imm6(insn), 5);
	unsigned long val;

	switch (KP_C_FUNCT3(insn)) {
	case 0:		/* c.addi */
		val = kp_reg(regs, rd) + imm;
		break;
	case 1:		/* c.addiw */
		val = (unsigned long)(long)(s32)(kp_reg(regs, rd) + imm);
		break;
	case 2:		/* c.li */
		val = imm;
		break;
	default:	/* c.addi16sp (rd 2), c.lui */
		if (rd == 2)
			val = regs->sp + kp_c_addi16sp_imm(insn);
		else
			val = imm << 12;
		break;
	}
	kp_set_reg(regs, rd, val);
	regs->epc = addr + 2;
}

NOKPROBE_SYMBOL(kprobe_sim_c_imm);

/*
 * Quadrant 1, funct3 4, on rd' (x8-x15): c.srli, c.srai, c.andi and
 * c.sub, c.xor, c.or, c.and, c.subw, c.addw (decode.c left out the
 * encodings of other extensions)
 */
void kprobe_sim_c_arith(const struct arch_specific_insn *ai,
			unsigned long addr, struct pt_regs *regs)
{
	static const u8 kp_c_funct3[4] = {
		KP_ALU_ADD, KP_ALU_XOR, KP_ALU_OR, KP_ALU_AND
	};
	u32 insn = ai->insn;
	unsigned int rd = KP_C_RD_PRIME(insn);
	unsigned long a = kp_reg(regs, rd);
	unsigned long b = kp_reg(regs, KP_C_RS2_PRIME(insn));
	unsigned int op = (insn >> 5) & 3;
	unsigned long val;

	switch ((insn >> 10) & 3) {
	case 0:		/* c.srli */
		val = kp_alu(KP_ALU_SR, false, a, kp_c_imm6(insn));
		break;
	case 1:		/* c.srai */
		val = kp_alu(KP_ALU_SR, true, a, kp_c_imm6(insn));
		break;
	case 2:		/* c.andi */
		val = a & sign_extend64(kp_c_imm6(insn), 5);
		break;
	default:	/* op 0 is sub; bit 12 picks subw/addw */
		if (insn & BIT(12))
			val = kp_alu_w(KP_ALU_ADD, !op, a, b);
		else
			val = kp_alu(kp_c_funct3[op], !op, a, b);
		break;
	}
	kp_set_reg(regs, rd, val);
	regs->epc = addr + 2;
}

NOKPROBE_SYMBOL(kprobe_sim_c_arith);

/* Quadrant 2: c.slli (funct3 0), c.mv and c.add (funct3 4, rs2 != x0) */
void kprobe_sim_c_reg(const struct arch_specific_insn *ai,
		      unsigned long addr, struct pt_regs *regs)
{
	u32 insn = ai->insn;
	unsigned int rd = KP_C_RD(insn);
	unsigned long val;

	if (!KP_C_FUNCT3(insn))
		val = kp_reg(regs, rd) << KP_SHAMT(kp_c_imm6(insn));
	else if (insn & BIT(12))
		val = kp_reg(regs, rd) + kp_reg(regs, KP_C_RS2(insn));
	else
		val = kp_reg(regs, KP_C_RS2(insn));
	kp_set_reg(regs, rd, val);
	regs->epc = addr + 2;
}

NOKPROBE_SYMBOL(kprobe_sim_c_reg);
