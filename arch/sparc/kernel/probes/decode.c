// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sparc64 kprobes: the decoder.  One instruction word in; out, how a hit
 * runs it (enum kprobe_sparc_kind) or why it cannot be probed.  Pure:
 * nothing here reads memory or registers.
 *
 * The SPARC V9 formats it looks at:
 *
 *   op (31:30) = 1   CALL, 30-bit word displacement
 *   op = 0           op2 (24:22): 1 BPcc, 2 Bicc, 3 BPr (bit 28 clear) or
 *                    CBcond (bit 28 set), 5 FBPfcc, 6 FBfcc; a (29) the
 *                    annul bit, cond (28:25)
 *   op = 2           op3 (24:19): 0x28 RDasr (rs1 5: rd %pc), 0x2a RDPR,
 *                    0x32 WRPR, 0x38 JMPL, 0x39 RETURN, 0x3a Tcc,
 *                    0x3e DONE/RETRY
 *   op = 3           loads and stores: stepped
 */
#include "sparc-kprobes.h"

#include <linux/bitops.h>

#define SPARC_OP(insn)		((insn) >> 30)
#define SPARC_OP2(insn)		(((insn) >> 22) & 0x7)
#define SPARC_OP3(insn)		(((insn) >> 19) & 0x3f)
#define SPARC_RD(insn)		(((insn) >> 25) & 0x1f)
#define SPARC_RS1(insn)		(((insn) >> 14) & 0x1f)
#define SPARC_ANNUL(insn)	(((insn) >> 29) & 0x1)
#define SPARC_COND(insn)	(((insn) >> 25) & 0xf)

/* op = 0 */
#define SPARC_OP2_ILLTRAP	0
#define SPARC_OP2_BPCC		1
#define SPARC_OP2_BICC		2
#define SPARC_OP2_BPR		3
#define SPARC_OP2_SETHI		4
#define SPARC_OP2_FBPFCC	5
#define SPARC_OP2_FBFCC		6

/* op = 2 */
#define SPARC_OP3_RDASR		0x28
#define SPARC_OP3_RDPR		0x2a
#define SPARC_OP3_WRPR		0x32
#define SPARC_OP3_JMPL		0x38
#define SPARC_OP3_RETURN	0x39
#define SPARC_OP3_TCC		0x3a
#define SPARC_OP3_DONE_RETRY	0x3e

/* rs1 of RDasr that reads %pc; the privileged register number of %pil */
#define SPARC_ASR_PC		5
#define SPARC_PR_PIL		8

/* Bicc, BPcc, FBfcc, FBPfcc: "branch always" */
#define SPARC_COND_ALWAYS	8

/* The first windowed register (%l0): a link there lives in the window. */
#define SPARC_REG_LOCAL0	16

/* Byte displacement of a branch with a @bits-wide word displacement. */
static long kprobe_sparc_disp(u32 insn, unsigned int bits)
{
	return (long)sign_extend64(insn & GENMASK(bits - 1, 0), bits - 1) * 4;
}

/**
 * kprobe_sparc_is_dcti() - is @insn a delayed control transfer
 * @insn: an instruction word
 *
 * CALL, the delayed branches, JMPL and RETURN: the word after one of
 * them is its delay slot.
 *
 * Return: true for those.
 */
bool kprobe_sparc_is_dcti(u32 insn)
{
	switch (SPARC_OP(insn)) {
	case 1:
		return true;
	case 0:
		switch (SPARC_OP2(insn)) {
		case SPARC_OP2_BPCC:
		case SPARC_OP2_BICC:
		case SPARC_OP2_FBPFCC:
		case SPARC_OP2_FBFCC:
			return true;
		case SPARC_OP2_BPR:
			return !(insn & BIT(28));
		}
		return false;
	case 2:
		return SPARC_OP3(insn) == SPARC_OP3_JMPL ||
		       SPARC_OP3(insn) == SPARC_OP3_RETURN;
	}
	return false;
}

/* op = 0: the branches, SETHI (and nop), ILLTRAP. */
static int kprobe_sparc_decode_op0(u32 insn, struct arch_specific_insn *ai,
				   const char **why)
{
	unsigned int bits;

	switch (SPARC_OP2(insn)) {
	case SPARC_OP2_SETHI:
		return 0;
	case SPARC_OP2_BICC:
	case SPARC_OP2_FBFCC:
		bits = 22;
		break;
	case SPARC_OP2_BPCC:
	case SPARC_OP2_FBPFCC:
		bits = 19;
		break;
	case SPARC_OP2_BPR:
		if (insn & BIT(28)) {
			*why = "compare-and-branch (no delay slot)";
			return -EILSEQ;
		}
		ai->kind = KPROBE_SPARC_REL;
		return 0;
	case SPARC_OP2_ILLTRAP:
		*why = "illtrap";
		return -EILSEQ;
	default:
		*why = "reserved instruction";
		return -EILSEQ;
	}

	/*
	 * "ba,a" skips its delay slot and goes straight to the target: from
	 * the slot it would never reach the second trap.
	 */
	if (SPARC_COND(insn) == SPARC_COND_ALWAYS && SPARC_ANNUL(insn)) {
		ai->kind = KPROBE_SPARC_JUMP;
		ai->disp = kprobe_sparc_disp(insn, bits);
		return 0;
	}
	ai->kind = KPROBE_SPARC_REL;
	return 0;
}

/* op = 2: arithmetic, state registers, jumps, traps. */
static int kprobe_sparc_decode_op2(u32 insn, struct arch_specific_insn *ai,
				   const char **why)
{
	unsigned int rd = SPARC_RD(insn);

	switch (SPARC_OP3(insn)) {
	case SPARC_OP3_JMPL:
		if (rd >= SPARC_REG_LOCAL0) {
			*why = "jmpl linking into a windowed register";
			return -EILSEQ;
		}
		ai->kind = KPROBE_SPARC_ABS;
		ai->link = rd;
		return 0;
	case SPARC_OP3_RETURN:
		ai->kind = KPROBE_SPARC_ABS;
		return 0;
	case SPARC_OP3_RDASR:
		if (SPARC_RS1(insn) != SPARC_ASR_PC)
			return 0;
		if (rd >= SPARC_REG_LOCAL0) {
			*why = "rd %pc into a windowed register";
			return -EILSEQ;
		}
		ai->link = rd;
		return 0;
	case SPARC_OP3_RDPR:
		/* The copy runs at PIL 15: it would read that, not the pil. */
		if (SPARC_RS1(insn) == SPARC_PR_PIL) {
			*why = "reads %pil, which the step raises";
			return -EILSEQ;
		}
		return 0;
	case SPARC_OP3_WRPR:
		/* The end of the step puts the probed context's pil back. */
		if (rd == SPARC_PR_PIL) {
			*why = "writes %pil, which the step restores";
			return -EILSEQ;
		}
		return 0;
	case SPARC_OP3_TCC:
		*why = "trap instruction";
		return -EILSEQ;
	case SPARC_OP3_DONE_RETRY:
		*why = "done/retry";
		return -EILSEQ;
	}
	return 0;
}

/**
 * kprobe_sparc_decode() - how a hit runs @insn
 * @insn: the original instruction at the probe address
 * @ai: filled: kind, link register, displacement
 * @why: the reason for a refusal
 *
 * Refused: trap instructions (among them the two probe traps), DONE and
 * RETRY, ILLTRAP and reserved op2 values, CBcond (which has no delay
 * slot), a link (JMPL, rd %pc) into a windowed register and reads or
 * writes of %pil.  Whether the word sits in a delay slot is the caller's
 * business: it needs the word before.
 *
 * Return: 0, or -EILSEQ with *@why set.
 */
int kprobe_sparc_decode(u32 insn, struct arch_specific_insn *ai,
			const char **why)
{
	ai->kind = KPROBE_SPARC_STEP;
	ai->link = 0;
	ai->disp = 0;

	switch (SPARC_OP(insn)) {
	case 0:
		return kprobe_sparc_decode_op0(insn, ai, why);
	case 1:
		ai->kind = KPROBE_SPARC_REL;
		ai->link = 15;	/* %o7 */
		return 0;
	case 2:
		return kprobe_sparc_decode_op2(insn, ai, why);
	}
	return 0;
}
