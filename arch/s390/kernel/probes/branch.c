// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes: branches, simulated.
 *
 * A branch is not run from the slot, where a relative one would go
 * relative to the slot and a taken one would never reach the slot's
 * closing breakpoint: it is computed here, from the registers and the
 * condition code at the hit, with what it does besides branching (the
 * link register, the decremented count).  The branches compilers emit
 * are covered; the few others (branch on index, compare and branch to
 * an address, branch relative on count high) are refused.
 */
#include "s390-kprobes.h"

#define KB_R1(in)	(((in)[0] >> 4) & 0xf)
#define KB_R2(in)	((in)[0] & 0xf)

/* A register as an address component: register 0 stands for zero. */
static nokprobe_inline u64 kb_reg(const struct pt_regs *regs, unsigned int r)
{
	return r ? regs->gprs[r] : 0;
}

/* Does condition mask @m select the condition code in @regs' PSW? */
static nokprobe_inline bool kb_cond(const struct pt_regs *regs, unsigned int m)
{
	return m & (8 >> ((regs->psw.mask >> 44) & 3));
}

/* The mask bit of a comparison: 8 equal, 4 low, 2 high. */
static nokprobe_inline unsigned int kb_cmp_signed(s64 a, s64 b)
{
	return a == b ? 8 : a < b ? 4 : 2;
}

static nokprobe_inline unsigned int kb_cmp_unsigned(u64 a, u64 b)
{
	return a == b ? 8 : a < b ? 4 : 2;
}

/*
 * The compare-and-branch-relative family (RIE-b register, RIE-c
 * immediate): does it branch?  @op is the last byte of the instruction.
 */
static bool kb_compare(const u16 *in, const struct pt_regs *regs,
		       unsigned int op)
{
	u64 a = regs->gprs[KB_R1(in)];
	u64 rb = regs->gprs[KB_R2(in)];
	s8 imm = in[2] >> 8;
	unsigned int m = in[2] >> 12;	/* RIE-b */
	unsigned int cc;

	switch (op) {
	case 0x76:	/* crj */
		cc = kb_cmp_signed((s32)a, (s32)rb);
		break;
	case 0x77:	/* clrj */
		cc = kb_cmp_unsigned((u32)a, (u32)rb);
		break;
	case 0x64:	/* cgrj */
		cc = kb_cmp_signed(a, rb);
		break;
	case 0x65:	/* clgrj */
		cc = kb_cmp_unsigned(a, rb);
		break;
	default:
		/* RIE-c: the mask is where RIE-b has R2. */
		m = KB_R2(in);
		switch (op) {
		case 0x7e:	/* cij */
			cc = kb_cmp_signed((s32)a, imm);
			break;
		case 0x7f:	/* clij */
			cc = kb_cmp_unsigned((u32)a, (u8)imm);
			break;
		case 0x7c:	/* cgij */
			cc = kb_cmp_signed(a, imm);
			break;
		default:	/* 0x7d, clgij */
			cc = kb_cmp_unsigned(a, (u8)imm);
			break;
		}
	}
	return m & cc;
}

/* Count register @r down, 32 or 64 bits of it, as branch on count does. */
static nokprobe_inline void kb_count(struct pt_regs *regs, unsigned int r,
				     bool wide)
{
	if (wide)
		regs->gprs[r]--;
	else
		regs->gprs[r] = (regs->gprs[r] & ~0xffffffffUL) |
				(u32)(regs->gprs[r] - 1);
}

/**
 * kprobe_branch() - classify a branch, or execute it
 * @in: the instruction (at least its length in halfwords)
 * @regs: the registers at the hit, or NULL to classify only
 * @addr: its address in the text
 * @len: its length
 *
 * With @regs, the branch is done: the link register written, the count
 * decremented, the PSW address set to where execution goes on.
 *
 * Return: 1 for a branch this file simulates, 0 for an instruction that
 * does not branch (register 0 as a branch address means "no branch"),
 * -EINVAL for a branch it does not simulate.
 */
int kprobe_branch(const u16 *in, struct pt_regs *regs, unsigned long addr,
		  unsigned int len)
{
	unsigned long next = addr + len, to = 0;
	unsigned int op = in[0] >> 8, r1 = KB_R1(in);
	int link = -1, count = -1;
	bool taken = false, wide = false;

	switch (op) {
	case 0x07:	/* bcr */
	case 0x05:	/* balr */
	case 0x0d:	/* basr */
	case 0x06:	/* bctr */
		if (!KB_R2(in))
			return 0;
		if (!regs)
			return 1;
		to = regs->gprs[KB_R2(in)];
		taken = op == 0x07 ? kb_cond(regs, r1) :
			op == 0x06 ? (u32)(regs->gprs[r1] - 1) != 0 : true;
		link = op == 0x05 || op == 0x0d ? r1 : -1;
		count = op == 0x06 ? r1 : -1;
		break;
	case 0x47:	/* bc */
	case 0x45:	/* bal */
	case 0x4d:	/* bas */
	case 0x46:	/* bct */
		if (!regs)
			return 1;
		to = (in[1] & 0xfff) + kb_reg(regs, KB_R2(in)) +
		     kb_reg(regs, in[1] >> 12);
		taken = op == 0x47 ? kb_cond(regs, r1) :
			op == 0x46 ? (u32)(regs->gprs[r1] - 1) != 0 : true;
		link = op == 0x45 || op == 0x4d ? r1 : -1;
		count = op == 0x46 ? r1 : -1;
		break;
	case 0xa7:	/* RI: brc, bras, brct, brctg */
		if ((in[0] & 0xf) < 4 || (in[0] & 0xf) > 7)
			return 0;
		if (!regs)
			return 1;
		to = addr + (long)(s16)in[1] * 2;
		switch (in[0] & 0xf) {
		case 4:
			taken = kb_cond(regs, r1);
			break;
		case 5:
			taken = true;
			link = r1;
			break;
		case 6:
			taken = (u32)(regs->gprs[r1] - 1) != 0;
			count = r1;
			break;
		default:
			taken = regs->gprs[r1] - 1 != 0;
			count = r1;
			wide = true;
			break;
		}
		break;
	case 0xc0:	/* RIL: brcl, brasl */
		if ((in[0] & 0xf) != 4 && (in[0] & 0xf) != 5)
			return 0;
		if (!regs)
			return 1;
		to = addr + (long)(s32)((u32)in[1] << 16 | in[2]) * 2;
		taken = (in[0] & 0xf) == 5 || kb_cond(regs, r1);
		if ((in[0] & 0xf) == 5)
			link = r1;
		break;
	case 0xb9:	/* bctgr */
		if (in[0] != 0xb946)
			return 0;
		if (!(in[1] & 0xf))
			return 0;
		if (!regs)
			return 1;
		to = regs->gprs[in[1] & 0xf];
		count = (in[1] >> 4) & 0xf;
		taken = regs->gprs[count] - 1 != 0;
		wide = true;
		break;
	case 0xe3:	/* bctg */
		if ((in[2] & 0xff) != 0x46)
			return 0;
		if (!regs)
			return 1;
		to = (((long)(s8)(in[2] >> 8) << 12) | (in[1] & 0xfff)) +
		     kb_reg(regs, KB_R2(in)) + kb_reg(regs, in[1] >> 12);
		taken = regs->gprs[r1] - 1 != 0;
		count = r1;
		wide = true;
		break;
	case 0xec:
		switch (in[2] & 0xff) {
		case 0x76: case 0x77: case 0x64: case 0x65:
		case 0x7e: case 0x7f: case 0x7c: case 0x7d:
			if (!regs)
				return 1;
			to = addr + (long)(s16)in[1] * 2;
			taken = kb_compare(in, regs, in[2] & 0xff);
			break;
		case 0x44: case 0x45:			/* brxhg, brxlg */
		case 0xe4: case 0xe5: case 0xf6: case 0xf7:
		case 0xfc: case 0xfd: case 0xfe: case 0xff:
			return -EINVAL;
		default:
			return 0;
		}
		break;
	case 0x84: case 0x85: case 0x86: case 0x87:	/* brxh ... bxle */
		return -EINVAL;
	case 0xeb:
		if ((in[2] & 0xff) == 0x44 || (in[2] & 0xff) == 0x45)
			return -EINVAL;			/* bxhg, bxleg */
		return 0;
	case 0xcc:
		if ((in[0] & 0xf) == 6)
			return -EINVAL;			/* brcth */
		return 0;
	default:
		return 0;
	}
	/* The target is computed: the link and the count may be its registers. */
	if (count >= 0)
		kb_count(regs, count, wide);
	if (link >= 0)
		regs->gprs[link] = next;
	regs->psw.addr = taken ? to : next;
	return 1;
}

NOKPROBE_SYMBOL(kprobe_branch);
