// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv kprobes: can this instruction be probed, and how does a hit run it.
 *
 * Pure functions of the instruction's bytes.  Every instruction is either
 * stepped (a copy runs in a slot; the same registers give the same result
 * at any address), simulated (its result depends on its own address:
 * auipc, jumps and branches, including the compressed ones; or it only
 * computes a register from registers and an immediate, the common
 * arithmetic of the base ISA, where simulating spares the slot's second
 * ebreak), or refused, with a reason, because it cannot run anywhere but
 * in place.  Loads and stores are stepped: the copy faults exactly where
 * the original would.
 */
#include "riscv-kprobes.h"

#include <linux/bits.h>
#include <asm/insn.h>

/* Opcodes (bits 6:0) of the 32-bit instructions we look into. */
#define KP_OP_OP_IMM		0x13
#define KP_OP_OP_IMM_32		0x1b
#define KP_OP_OP		0x33
#define KP_OP_OP_32		0x3b
#define KP_OP_LUI		0x37
#define KP_OP_AMO		0x2f
#define KP_OP_SYSTEM		RVG_OPCODE_SYSTEM

/* Fields of a 32-bit instruction. */
#define KP_FUNCT3(insn)		(((insn) >> 12) & 0x7)
#define KP_FUNCT5(insn)		((insn) >> 27)
#define KP_FUNCT7(insn)		((insn) >> 25)
#define KP_CSR(insn)		((insn) >> 20)

/* AMO funct5 values of the reservation pair. */
#define KP_AMO_LR		0x02
#define KP_AMO_SC		0x03

/* The supervisor CSRs a trap reads or writes. */
#define KP_CSR_SSTATUS		0x100
#define KP_CSR_SSCRATCH		0x140
#define KP_CSR_SEPC		0x141
#define KP_CSR_SCAUSE		0x142
#define KP_CSR_STVAL		0x143
#define KP_CSR_SIP		0x144

/* sfence.vma rs1, rs2: funct7 0001001, rd 0, funct3 0. */
#define KP_SFENCE_VMA_MASK	0xfe007fff
#define KP_SFENCE_VMA_MATCH	0x12000073

/**
 * struct kprobe_insn_rule - one family of instructions and its fate
 * @mask: bits of the instruction that must equal @match
 * @match: their value
 * @len: 2 for a compressed instruction, 4 for a 32-bit one
 * @check: further condition on the instruction (NULL: none)
 * @simulate: the routine that runs it in C; NULL: refused, or stepped if
 *	@step is set
 * @step: it is stepped in a slot after all (a hole in a broader rule)
 * @why: the reason of a refusal
 */
struct kprobe_insn_rule {
	u32 mask;
	u32 match;
	u8 len;
	bool (*check)(u32 insn);
	kprobe_simulate_fn simulate;
	bool step;
	const char *why;
};

/* c.jr and c.jalr name a register; with x0 they are reserved or c.ebreak. */
static bool kprobe_c_rs1_nonzero(u32 insn)
{
	return (insn >> 7) & 0x1f;
}

/* c.jal exists on rv32 only; on rv64 the same encoding is c.addiw. */
static bool kprobe_c_jal_exists(u32 insn)
{
	return IS_ENABLED(CONFIG_32BIT);
}

/* c.addiw (rv64 only; rd x0 is reserved) */
static bool kprobe_c_addiw_exists(u32 insn)
{
	return IS_ENABLED(CONFIG_64BIT) && ((insn >> 7) & 0x1f);
}

/* c.lui and c.addi16sp: an immediate of 0 is reserved */
static bool kprobe_c_lui_valid(u32 insn)
{
	return (insn & 0x107c) != 0;
}

/*
 * Quadrant 1 funct3 4: the shifts (rv32: shamt[5] must be 0), c.andi and
 * the register pairs; bit 12 with bits 6:5 2 or 3 is another extension's
 * (Zcb's c.mul, c.zext.*, c.not), and c.subw/c.addw exist on rv64 only.
 */
static bool kprobe_c_arith_known(u32 insn)
{
	unsigned int op2 = (insn >> 10) & 3;

	if (op2 < 2)
		return IS_ENABLED(CONFIG_64BIT) || !(insn & BIT(12));
	if (op2 == 2 || !(insn & BIT(12)))
		return true;
	return IS_ENABLED(CONFIG_64BIT) && !(insn & BIT(6));
}

/* c.slli: rv32's shamt[5] must be 0 */
static bool kprobe_c_slli_valid(u32 insn)
{
	return IS_ENABLED(CONFIG_64BIT) || !(insn & BIT(12));
}

/* c.mv and c.add: rs2 x0 is c.jr, c.jalr or c.ebreak */
static bool kprobe_c_rs2_nonzero(u32 insn)
{
	return (insn >> 2) & 0x1f;
}

/*
 * OP-IMM: only the shifts have a funct6 (bits 31:26) to check: 0, or
 * 0x10 for srai; the bit-manipulation extensions use the others.  rv32
 * has a 5-bit shamt: bit 25 must be 0 there.
 */
static bool kprobe_op_imm_known(u32 insn)
{
	u32 funct6 = insn >> 26;

	if (KP_FUNCT3(insn) != 1 && KP_FUNCT3(insn) != 5)
		return true;
	if (IS_ENABLED(CONFIG_32BIT) && (insn & BIT(25)))
		return false;
	return !funct6 || (KP_FUNCT3(insn) == 5 && funct6 == 0x10);
}

/* OP-IMM-32 (rv64): addiw, slliw, srliw, sraiw */
static bool kprobe_op_imm32_known(u32 insn)
{
	switch (KP_FUNCT3(insn)) {
	case 0:
		return IS_ENABLED(CONFIG_64BIT);
	case 1:
		return IS_ENABLED(CONFIG_64BIT) && !KP_FUNCT7(insn);
	case 5:
		return IS_ENABLED(CONFIG_64BIT) &&
		       (!KP_FUNCT7(insn) || KP_FUNCT7(insn) == 0x20);
	}
	return false;
}

/*
 * OP: the base instructions have funct7 0, or 0x20 for sub and sra; the
 * others are M (mul, div: left to the slot) and bit manipulation.
 */
static bool kprobe_op_known(u32 insn)
{
	if (!KP_FUNCT7(insn))
		return true;
	return KP_FUNCT7(insn) == 0x20 &&
	       (KP_FUNCT3(insn) == 0 || KP_FUNCT3(insn) == 5);
}

/* OP-32 (rv64): addw, subw, sllw, srlw, sraw */
static bool kprobe_op32_known(u32 insn)
{
	if (!IS_ENABLED(CONFIG_64BIT))
		return false;
	switch (KP_FUNCT3(insn)) {
	case 0:
	case 5:
		return !KP_FUNCT7(insn) || KP_FUNCT7(insn) == 0x20;
	case 1:
		return !KP_FUNCT7(insn);
	}
	return false;
}

/* funct3 2 and 3 of the branch opcode are reserved. */
static bool kprobe_branch_reserved(u32 insn)
{
	return KP_FUNCT3(insn) == 2 || KP_FUNCT3(insn) == 3;
}

bool kprobe_insn_is_lr(u32 insn)
{
	return (insn & 0x7f) == KP_OP_AMO && KP_FUNCT5(insn) == KP_AMO_LR;
}

bool kprobe_insn_is_sc(u32 insn)
{
	return (insn & 0x7f) == KP_OP_AMO && KP_FUNCT5(insn) == KP_AMO_SC;
}

static bool kprobe_insn_is_lr_sc(u32 insn)
{
	return kprobe_insn_is_lr(insn) || kprobe_insn_is_sc(insn);
}

/*
 * A CSR instruction on the trap state: in the slot it would see (or
 * change) the breakpoint trap's values instead of the probed context's,
 * e.g. sstatus.SIE, which is clear while a copy runs.
 */
static bool kprobe_csr_is_trap_state(u32 insn)
{
	if (KP_FUNCT3(insn) == 0 || KP_FUNCT3(insn) == 4)
		return false;
	switch (KP_CSR(insn)) {
	case KP_CSR_SSTATUS:
	case KP_CSR_SSCRATCH:
	case KP_CSR_SEPC:
	case KP_CSR_SCAUSE:
	case KP_CSR_STVAL:
	case KP_CSR_SIP:
		return true;
	}
	return false;
}

/* First match wins; what no rule names is stepped. */
static const struct kprobe_insn_rule kprobe_rules[] = {
	/* ---- 16-bit ---- */
	{ 0xffff, 0x0000, 2, NULL, NULL, false,
	  "not an instruction (all-zero parcel)" },
	{ 0xffff, 0x9002, 2, NULL, NULL, false,
	  "a breakpoint (c.ebreak) of somebody else" },
	{ 0xf07f, 0x8002, 2, kprobe_c_rs1_nonzero, kprobe_sim_c_jr },
	{ 0xf07f, 0x9002, 2, kprobe_c_rs1_nonzero, kprobe_sim_c_jalr },
	{ 0xe003, 0xa001, 2, NULL, kprobe_sim_c_j },
	{ 0xe003, 0x2001, 2, kprobe_c_jal_exists, kprobe_sim_c_jal },
	{ 0xe003, 0xc001, 2, NULL, kprobe_sim_c_bz },
	{ 0xe003, 0xe001, 2, NULL, kprobe_sim_c_bz },
	/* register-only: one ebreak per hit instead of two */
	{ 0xe003, 0x0001, 2, NULL, kprobe_sim_c_imm },
	{ 0xe003, 0x2001, 2, kprobe_c_addiw_exists, kprobe_sim_c_imm },
	{ 0xe003, 0x4001, 2, NULL, kprobe_sim_c_imm },
	{ 0xe003, 0x6001, 2, kprobe_c_lui_valid, kprobe_sim_c_imm },
	{ 0xe003, 0x8001, 2, kprobe_c_arith_known, kprobe_sim_c_arith },
	{ 0xe003, 0x0002, 2, kprobe_c_slli_valid, kprobe_sim_c_reg },
	{ 0xf003, 0x8002, 2, kprobe_c_rs2_nonzero, kprobe_sim_c_reg },
	{ 0xf003, 0x9002, 2, kprobe_c_rs2_nonzero, kprobe_sim_c_reg },

	/* ---- 32-bit ---- */
	{ 0x0000007f, 0x0000006f, 4, NULL, kprobe_sim_jal },
	{ 0x0000707f, 0x00000067, 4, NULL, kprobe_sim_jalr },
	{ 0x0000007f, 0x00000063, 4, kprobe_branch_reserved, NULL, false,
	  "a reserved branch encoding" },
	{ 0x0000007f, 0x00000063, 4, NULL, kprobe_sim_branch },
	{ 0x0000007f, 0x00000017, 4, NULL, kprobe_sim_auipc },
	/* register-only: one ebreak per hit instead of two */
	{ 0x0000707f, KP_OP_OP_IMM, 4, NULL, kprobe_sim_addi },
	{ 0x0000007f, KP_OP_OP_IMM, 4, kprobe_op_imm_known, kprobe_sim_op_imm },
	{ 0x0000007f, KP_OP_OP_IMM_32, 4, kprobe_op_imm32_known,
	  kprobe_sim_op_imm },
	{ 0x0000007f, KP_OP_OP, 4, kprobe_op_known, kprobe_sim_op },
	{ 0x0000007f, KP_OP_OP_32, 4, kprobe_op32_known, kprobe_sim_op },
	{ 0x0000007f, KP_OP_LUI, 4, NULL, kprobe_sim_lui },
	{ 0x0000007f, KP_OP_AMO, 4, kprobe_insn_is_lr_sc, NULL, false,
	  "lr/sc: the breakpoint trap would break the reservation" },
	{ 0x0000007f, KP_OP_SYSTEM, 4, kprobe_csr_is_trap_state, NULL, false,
	  "accesses a CSR that the breakpoint trap changes" },
	{ KP_SFENCE_VMA_MASK, KP_SFENCE_VMA_MATCH, 4, NULL, NULL, true },
	{ 0x0000707f, KP_OP_SYSTEM, 4, NULL, NULL, false,
	  "ecall/ebreak/sret/wfi: traps or changes privilege" },
	{ 0x0000707f, KP_OP_SYSTEM | (4 << 12), 4, NULL, NULL, false,
	  "a hypervisor load/store" },
};

/**
 * kprobe_insn_len() - the length of the instruction at @text
 * @text: at least its first two bytes
 *
 * Return: 2 or 4; 0 for a longer encoding (none is in use).
 */
unsigned int kprobe_insn_len(const u8 *text)
{
	u16 lo = text[0] | (text[1] << 8);

	if (kprobe_insn_is_16bit(lo))
		return 2;
	if ((lo & 0x1f) == 0x1f)
		return 0;
	return 4;
}

/**
 * kprobe_decode_insn() - decide how a probe on an instruction runs it
 * @text: the original bytes at the probe address
 * @avail: how many of them may be read (up to MAX_INSN_SIZE)
 * @d: the result: ainsn.len, .insn, .kind and .simulate; or reason
 *
 * Return: 0, or -EILSEQ with @d->reason set.
 */
int kprobe_decode_insn(const u8 *text, unsigned int avail,
		       struct kprobe_decoded *d)
{
	const struct kprobe_insn_rule *r;
	unsigned int len, i;
	u32 insn = 0;

	memset(d, 0, sizeof(*d));
	len = avail < 2 ? 0 : kprobe_insn_len(text);
	if (!len) {
		d->reason = "an instruction longer than 32 bits";
		return -EILSEQ;
	}
	if (len > avail) {
		d->reason = "instruction runs past the end of the function";
		return -EILSEQ;
	}
	for (i = 0; i < len; i++)
		insn |= (u32)text[i] << (8 * i);

	d->ainsn.insn = insn;
	d->ainsn.len = len;
	d->ainsn.kind = KPROBE_INSN_STEP;
	for (r = kprobe_rules; r < kprobe_rules + ARRAY_SIZE(kprobe_rules); r++) {
		if (r->len != len || (insn & r->mask) != r->match)
			continue;
		if (r->check && !r->check(insn))
			continue;
		if (r->simulate) {
			d->ainsn.kind = KPROBE_INSN_SIMULATE;
			d->ainsn.simulate = r->simulate;
		} else if (!r->step) {
			d->reason = r->why;
			return -EILSEQ;
		}
		break;
	}
	return 0;
}
