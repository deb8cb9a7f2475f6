// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parisc kprobes: which instructions a probe can take and how, and the
 * evaluation of the branches that cannot run from a slot.
 *
 * Fields are named by the PA-RISC manuals' bit numbers (bit 0 is the most
 * significant): the major opcode is bits 0..5, the two register fields
 * of the branch formats bits 6..10 ("b") and 11..15 ("x"), the condition
 * bits 16..18, the nullify bit 30.  Displacements are scattered over the
 * word, their sign bit last (bit 31).
 *
 * A branch computes its target from the address it executes at, so a
 * copy in a slot would branch relative to the slot: the pc-relative and
 * register branches compilers emit are evaluated here, on the registers
 * the break saved.  Like the hardware, the evaluation leaves the
 * interruption queue at [the branch's successor, the target], so that the
 * delay-slot instruction runs in place, and asks for it to be nullified
 * when the ",n" completer says so.
 *
 * The commonest instructions that neither branch, nullify, trap nor touch
 * memory or the PSW are computed here as well (kprobe_parisc_compute()):
 * register copies and nops, the logical operations, the adds that leave
 * the carries alone, LDO, LDIL and ADDIL.  A hit on one is then a single
 * break, with no slot.  The adds that set the carry bits (ADD, SUB, ...)
 * and anything with a condition are stepped.
 */
#include "parisc-kprobes.h"

#include <linux/bitops.h>
#include <linux/errno.h>

/* Major opcodes (bits 0..5). */
#define PA_OP_SYS	0x00
#define PA_OP_ARITH	0x02
#define PA_OP_SPOP	0x04
#define PA_OP_DIAG	0x05
#define PA_OP_LDIL	0x08
#define PA_OP_ADDIL	0x0a
#define PA_OP_LDO	0x0d
#define PA_OP_COMBT	0x20
#define PA_OP_COMIBT	0x21
#define PA_OP_COMBF	0x22
#define PA_OP_COMIBF	0x23
#define PA_OP_CMPB_DW	0x27
#define PA_OP_ADDBT	0x28
#define PA_OP_ADDIBT	0x29
#define PA_OP_ADDBF	0x2a
#define PA_OP_ADDIBF	0x2b
#define PA_OP_CMPB_DWF	0x2f
#define PA_OP_BVB	0x30
#define PA_OP_BB	0x31
#define PA_OP_MOVB	0x32
#define PA_OP_MOVIB	0x33
#define PA_OP_BE	0x38
#define PA_OP_BLE	0x39
#define PA_OP_BRANCH	0x3a
#define PA_OP_CMPIB_DW	0x3b

/* Sub-opcodes of PA_OP_BRANCH (bits 16..18). */
#define PA_BR_BL	0
#define PA_BR_BV	6
/* Bit 19 of a PA_BR_BV word: BVE, the PA 2.0 form. */
#define PA_BR_BVE_BIT	0x1000U

/* Sub-opcodes of PA_OP_SYS (bits 19..26) that run from a slot as is. */
#define PA_SYS_SYNC	0x20
#define PA_SYS_MFSP	0x25
#define PA_SYS_MFCTL	0x45
#define PA_SYS_LDSID	0x85
#define PA_SYS_MTSP	0xc1
#define PA_SYS_MTCTL	0xc2
#define PA_SYS_MTSARCM	0xc6

/*
 * PA_OP_ARITH: bits 16..18 the condition, 19 its negation, 20..25 the
 * sub-opcode, 26 (PA 2.0) the doubleword condition, 27..31 the target.
 * The computed ones have all of 16..19 and 26 clear: no condition.
 */
#define PA_ARITH_MASK	0x0000ffe0U
#define PA_ARITH_ANDCM	0x00
#define PA_ARITH_AND	0x08
#define PA_ARITH_OR	0x09
#define PA_ARITH_XOR	0x0a
/* ADD,L, then SHLADD,L by 1, 2, 3: the shift in the two low bits. */
#define PA_ARITH_ADDL	0x28
#define PA_ARITH_SHLADDL3	0x2b

/* LDO's bits 16..17, clear in the form computed here. */
#define PA_LDO_S_MASK	0x0000c000U

/* BB's bits 16..18: the condition (bit 16) and the 32-bit form, "10". */
#define PA_BB_FORM_MASK	0x3U
#define PA_BB_FORM_32	0x2U

static inline u32 pa_op(u32 insn)
{
	return insn >> 26;
}

static inline u32 pa_b(u32 insn)
{
	return (insn >> 21) & 0x1f;
}

static inline u32 pa_x(u32 insn)
{
	return (insn >> 16) & 0x1f;
}

static inline u32 pa_cond(u32 insn)
{
	return (insn >> 13) & 0x7;
}

static inline bool pa_nullify_bit(u32 insn)
{
	return insn & 0x2;
}

/*
 * An immediate of @bits bits whose sign is its lowest bit (PA-RISC's
 * "low sign" form): COMIB's and ADDIB's 5 bits, LDO's 14.
 */
static inline u32 pa_low_sign(u32 field, unsigned int bits)
{
	return (u32)((field & 1) ? -(1 << (bits - 1)) : 0) + (field >> 1);
}

/*
 * LDIL's and ADDIL's 21-bit immediate, bits 11..31, scattered as the
 * manuals' assemble_21() gathers it (fields by their bit numbers in
 * the instruction): 31 (the sign), 20..30, 16..17, 11..15, 18..19; it
 * is the top 21 bits of the value.
 */
static u32 pa_im21(u32 insn)
{
	u32 v = (insn & 1) << 20 | ((insn >> 1) & 0x7ff) << 9 |
		((insn >> 14) & 0x3) << 7 | ((insn >> 16) & 0x1f) << 2 |
		((insn >> 12) & 0x3);

	return v << 11;
}

/*
 * The 12-bit word displacement of the conditional branches: w (bit 31)
 * is the sign, then bit 29 of the word, then bits 19..28; in bytes.
 */
static long pa_disp12(u32 insn)
{
	u32 w1 = (insn >> 2) & 0x7ff;
	u32 v = ((insn & 1) << 11) | ((w1 & 1) << 10) | (w1 >> 1);

	return (long)sign_extend32(v, 11) * 4;
}

/*
 * The 17-bit word displacement of B,L, BE and BLE: w, bits 11..15, then
 * as above; in bytes.
 */
static long pa_disp17(u32 insn)
{
	u32 w2 = (insn >> 2) & 0x7ff;
	u32 v = ((insn & 1) << 16) | (pa_x(insn) << 11) |
		((w2 & 1) << 10) | (w2 >> 1);

	return (long)sign_extend32(v, 16) * 4;
}

/* General register @r as an instruction reads it: GR 0 is zero. */
static inline u32 pa_gr(const struct pt_regs *regs, u32 r)
{
	return r ? regs->gr[r] : 0;
}

/* pt_regs' gr[0] is the PSW: a write of GR 0 goes nowhere. */
static inline void pa_set_gr(struct pt_regs *regs, u32 r, u32 v)
{
	if (r)
		regs->gr[r] = v;
}

/* The compare conditions, on @a - @b (COMB, COMIB). */
static bool pa_cond_compare(u32 c, u32 a, u32 b)
{
	s64 diff = (s64)(s32)a - (s32)b;

	switch (c) {
	case 0:
		return false;
	case 1:
		return a == b;
	case 2:
		return (s32)a < (s32)b;
	case 3:
		return (s32)a <= (s32)b;
	case 4:
		return a < b;
	case 5:
		return a <= b;
	case 6:		/* signed overflow */
		return diff != (s32)(a - b);
	default:	/* odd */
		return (a - b) & 1;
	}
}

/* The add conditions, on @a + @b (ADDB, ADDIB). */
static bool pa_cond_add(u32 c, u32 a, u32 b)
{
	s64 sum = (s64)(s32)a + (s32)b;
	bool carry = ((u64)a + b) >> 32;
	u32 res = a + b;

	switch (c) {
	case 0:
		return false;
	case 1:
		return res == 0;
	case 2:
		return sum < 0;
	case 3:
		return sum <= 0;
	case 4:		/* no unsigned overflow */
		return !carry;
	case 5:		/* zero or no unsigned overflow */
		return !res || !carry;
	case 6:		/* signed overflow */
		return sum != (s32)res;
	default:	/* odd */
		return res & 1;
	}
}

/* The shift/extract conditions, on @v (MOVB, MOVIB). */
static bool pa_cond_value(u32 c, u32 v)
{
	switch (c) {
	case 0:
		return false;
	case 1:
		return v == 0;
	case 2:
		return (s32)v < 0;
	case 3:
		return v & 1;
	case 4:
		return true;
	case 5:
		return v != 0;
	case 6:
		return (s32)v >= 0;
	default:
		return !(v & 1);
	}
}

/* The kind of a word of the PA_OP_BRANCH group, or why it is refused. */
static int pa_decode_branch_group(u32 insn, u8 *kind, const char **why)
{
	switch (pa_cond(insn)) {
	case PA_BR_BL:
		*kind = KPROBE_PARISC_BL;
		return 0;
	case PA_BR_BV:
		if (insn & PA_BR_BVE_BIT) {
			*why = "a BVE branch";
			return -EINVAL;
		}
		if (pa_x(insn) || !pa_b(insn)) {
			*why = "an indexed BV branch";
			return -EINVAL;
		}
		*kind = KPROBE_PARISC_BV;
		return 0;
	default:
		*why = "a gateway, BLR or long branch";
		return -EINVAL;
	}
}

/* Whether a word of PA_OP_SYS can run from a slot. */
static bool pa_sys_steppable(u32 insn)
{
	switch ((insn >> 5) & 0xff) {
	case PA_SYS_SYNC:
	case PA_SYS_MFSP:
	case PA_SYS_MFCTL:
	case PA_SYS_LDSID:
	case PA_SYS_MTSP:
	case PA_SYS_MTCTL:
	case PA_SYS_MTSARCM:
		return true;
	}
	return false;
}

/* The computed kind of a PA_OP_ARITH word, or KPROBE_PARISC_STEP. */
static u8 pa_decode_arith(u32 insn, u32 *imm)
{
	u32 sub = (insn >> 6) & 0x3f;

	if ((insn & PA_ARITH_MASK) != sub << 6)
		return KPROBE_PARISC_STEP;	/* a condition, or a d bit */
	switch (sub) {
	case PA_ARITH_ANDCM:
		return KPROBE_PARISC_ANDCM;
	case PA_ARITH_AND:
		return KPROBE_PARISC_AND;
	case PA_ARITH_OR:
		return KPROBE_PARISC_OR;
	case PA_ARITH_XOR:
		return KPROBE_PARISC_XOR;
	case PA_ARITH_ADDL ... PA_ARITH_SHLADDL3:
		*imm = sub & 0x3;
		return KPROBE_PARISC_ADDL;
	}
	return KPROBE_PARISC_STEP;
}

/**
 * kprobe_parisc_decode() - how a hit runs @insn
 * @insn: the probed instruction
 * @ai: ->kind is set
 * @why: the reason for a refusal
 *
 * Return: 0, or -EINVAL for an instruction that cannot be probed: break,
 * rfi and the system-mask instructions, diagnose and special function
 * unit instructions, and the branches that are not evaluated here
 * (gateway, BLR, BVE, indexed BV, branch on the SAR bit, the PA 2.0
 * doubleword compares).
 */
int kprobe_parisc_decode(u32 insn, struct arch_specific_insn *ai,
			 const char **why)
{
	u8 kind = KPROBE_PARISC_STEP;
	u32 imm = 0;

	switch (pa_op(insn)) {
	case PA_OP_ARITH:
		kind = pa_decode_arith(insn, &imm);
		break;
	case PA_OP_LDO:
		if (!(insn & PA_LDO_S_MASK)) {
			kind = KPROBE_PARISC_LDO;
			imm = pa_low_sign(insn & 0x3fff, 14);
		}
		break;
	case PA_OP_LDIL:
		kind = KPROBE_PARISC_LDIL;
		imm = pa_im21(insn);
		break;
	case PA_OP_ADDIL:
		kind = KPROBE_PARISC_ADDIL;
		imm = pa_im21(insn);
		break;
	case PA_OP_SYS:
		if (!pa_sys_steppable(insn)) {
			*why = "a break, rfi or system mask instruction";
			return -EINVAL;
		}
		break;
	case PA_OP_SPOP:
	case PA_OP_DIAG:
		*why = "a diagnose or special function instruction";
		return -EINVAL;
	case PA_OP_COMBT:
	case PA_OP_COMIBT:
	case PA_OP_COMBF:
	case PA_OP_COMIBF:
		kind = KPROBE_PARISC_CMPB;
		break;
	case PA_OP_ADDBT:
	case PA_OP_ADDIBT:
	case PA_OP_ADDBF:
	case PA_OP_ADDIBF:
		kind = KPROBE_PARISC_ADDB;
		break;
	case PA_OP_MOVB:
	case PA_OP_MOVIB:
		kind = KPROBE_PARISC_MOVB;
		break;
	case PA_OP_BB:
		if ((pa_cond(insn) & PA_BB_FORM_MASK) != PA_BB_FORM_32) {
			*why = "a doubleword branch on bit";
			return -EINVAL;
		}
		kind = KPROBE_PARISC_BB;
		break;
	case PA_OP_BVB:
		*why = "a branch on the SAR bit";
		return -EINVAL;
	case PA_OP_CMPB_DW:
	case PA_OP_CMPB_DWF:
	case PA_OP_CMPIB_DW:
		*why = "a doubleword compare and branch";
		return -EINVAL;
	case PA_OP_BE:
	case PA_OP_BLE:
		kind = KPROBE_PARISC_BE;
		break;
	case PA_OP_BRANCH:
		if (pa_decode_branch_group(insn, &kind, why))
			return -EINVAL;
		break;
	}
	ai->insn = insn;
	ai->imm = imm;
	ai->kind = kind;
	return 0;
}

/**
 * kprobe_parisc_compute() - compute the instruction a probe replaced
 * @ai: the site's decoded instruction, kprobe_parisc_computed()
 * @regs: the registers at the break; its target register is written
 *
 * The instruction neither branches nor nullifies: the caller moves the
 * interruption queue on by one word.  The three-register forms read
 * r1 from bits 11..15 and r2 from bits 6..10 (ANDCM: r1 & ~r2; SHLADD,L:
 * (r1 << sa) + r2) and write bits 27..31; LDO reads its base at 6..10
 * and writes 11..15; LDIL writes 6..10; ADDIL reads 6..10 and writes %r1.
 * Context: hit.
 */
void kprobe_parisc_compute(const struct arch_specific_insn *ai,
			   struct pt_regs *regs)
{
	u32 insn = ai->insn;
	u32 r1 = pa_gr(regs, pa_x(insn));
	u32 r2 = pa_gr(regs, pa_b(insn));
	u32 v;

	switch (ai->kind) {
	case KPROBE_PARISC_LDO:
		pa_set_gr(regs, pa_x(insn), r2 + ai->imm);
		return;
	case KPROBE_PARISC_LDIL:
		pa_set_gr(regs, pa_b(insn), ai->imm);
		return;
	case KPROBE_PARISC_ADDIL:
		regs->gr[1] = r2 + ai->imm;
		return;
	case KPROBE_PARISC_OR:
		v = r1 | r2;
		break;
	case KPROBE_PARISC_AND:
		v = r1 & r2;
		break;
	case KPROBE_PARISC_XOR:
		v = r1 ^ r2;
		break;
	case KPROBE_PARISC_ANDCM:
		v = r1 & ~r2;
		break;
	default:	/* KPROBE_PARISC_ADDL */
		v = (r1 << ai->imm) + r2;
		break;
	}
	pa_set_gr(regs, insn & 0x1f, v);
}

NOKPROBE_SYMBOL(kprobe_parisc_compute);

/* A conditional branch: taken, and then whether the delay slot runs. */
static bool pa_cond_nullifies(u32 insn, bool taken)
{
	long disp = pa_disp12(insn);

	if (!pa_nullify_bit(insn))
		return false;
	/* ",n": a forward branch taken, or a backward one not taken. */
	return taken ? disp >= 0 : disp < 0;
}

/**
 * kprobe_parisc_branch() - evaluate the branch a probe replaced
 * @ai: the site's decoded instruction, not KPROBE_PARISC_STEP
 * @regs: the registers at the break; the registers the branch writes
 *	(a link, ADDB's sum, MOVB's copy) are written here
 * @addr: the branch's address
 * @target: where the CPU goes after the delay slot
 * @nullify: whether the delay-slot instruction is nullified
 *
 * The delay slot is the instruction the queue held behind the branch
 * (regs->iaoq[1]); the caller makes it the front of the queue.
 * Context: hit.
 * Return: whether the branch is taken (*@target is then its target, else
 * the word after the delay slot).
 */
bool kprobe_parisc_branch(const struct arch_specific_insn *ai,
			  struct pt_regs *regs, unsigned long addr,
			  unsigned long *target, bool *nullify)
{
	u32 insn = ai->insn;
	u32 b = pa_gr(regs, pa_b(insn));
	bool imm = pa_op(insn) & 1;
	bool negate = pa_op(insn) & 2;
	u32 x = imm ? pa_low_sign(pa_x(insn), 5) : pa_gr(regs, pa_x(insn));
	unsigned long slot_pc = regs->iaoq[1] & ~3UL;
	bool taken;

	switch (ai->kind) {
	case KPROBE_PARISC_BL:
		/* The link is the word after the delay slot. */
		pa_set_gr(regs, pa_b(insn), slot_pc + 4);
		*target = addr + 8 + pa_disp17(insn);
		*nullify = pa_nullify_bit(insn);
		return true;
	case KPROBE_PARISC_BV:
		*target = b & ~3UL;
		*nullify = pa_nullify_bit(insn);
		return true;
	case KPROBE_PARISC_BE:
		/*
		 * The space register named must hold the kernel's space for
		 * the original to work: the space queue stays as it is.
		 * BLE links through %r31 and %sr0.
		 */
		if (pa_op(insn) == PA_OP_BLE) {
			regs->gr[31] = slot_pc + 4;
			regs->sr[0] = regs->iasq[1];
		}
		*target = (b + pa_disp17(insn)) & ~3UL;
		*nullify = pa_nullify_bit(insn);
		return true;
	case KPROBE_PARISC_CMPB:
		taken = pa_cond_compare(pa_cond(insn), x, b) != negate;
		break;
	case KPROBE_PARISC_ADDB:
		taken = pa_cond_add(pa_cond(insn), x, b) != negate;
		pa_set_gr(regs, pa_b(insn), x + b);
		break;
	case KPROBE_PARISC_MOVB:
		taken = pa_cond_value(pa_cond(insn), x);
		pa_set_gr(regs, pa_b(insn), x);
		break;
	default:	/* KPROBE_PARISC_BB: the bit numbered from the left */
		taken = (pa_gr(regs, pa_x(insn)) >> (31 - pa_b(insn))) & 1;
		/* bit 16 clear: ",<", branch on a one */
		if (pa_cond(insn) & 0x4)
			taken = !taken;
		break;
	}
	*nullify = pa_cond_nullifies(insn, taken);
	*target = taken ? addr + 8 + pa_disp12(insn) : slot_pc + 4;
	return taken;
}

NOKPROBE_SYMBOL(kprobe_parisc_branch);
