// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mips kprobes: which instructions can be probed, and how a hit runs
 * them.  Pure functions of the instruction words; core.c reads the text.
 *
 * Everything here is a 32-bit MIPS encoding (the back-end is not built
 * for microMIPS or MIPS16e kernels).  An instruction runs in one of four
 * ways (enum kprobe_mips_kind): computed in the trap (compute.c's
 * register-only instructions), copied to a slot and stepped, or, for a
 * branch or jump, evaluated in the trap with its delay-slot instruction
 * either skipped (a nop) or stepped from the slot.  Refused, with -EINVAL:
 *
 *   - ll/sc and their R6 forms: the exception return of a probe clears
 *     LLbit, and an sc after it would fail for ever; core.c also refuses
 *     the instructions between an ll and its sc for the same reason;
 *   - eret, deret: they only make sense where they are;
 *   - syscall, break, sdbbp and the conditional traps: their exception
 *     would report the slot's address (BUG()'s break is looked up by it);
 *   - R6 compact branches (no delay slot but a forbidden slot), jalx (an
 *     ISA mode switch), FPU, coprocessor 2 and DSP branches (none in
 *     kernel code, and they read state the trap does not have in hand);
 *   - a branch whose delay slot holds anything of the above or another
 *     branch, which the architecture leaves undefined.
 */
#include "mips-kprobes.h"

#include <asm/branch.h>
#include <asm/cpu-features.h>

#include "../probes-common.h"

#define KPROBE_MIPS_NOP		0x00000000U	/* sll zero, zero, 0 */

static bool kprobe_mips_is_r6(void)
{
	return IS_ENABLED(CONFIG_CPU_MIPSR6);
}

/**
 * kprobe_mips_has_delay_slot() - is @insn a branch or jump with a delay slot
 * @insn: an instruction word
 *
 * Return: true for every 32-bit branch and jump that executes the next
 * word after it, the ones this back-end refuses included.
 */
bool kprobe_mips_has_delay_slot(u32 insn)
{
	union mips_instruction mi = { .word = insn };

	switch (mi.i_format.opcode) {
	case cop1_op:
	case cop2_op:
		/*
		 * probes-common.h counts every cop1 instruction (cfc1 and
		 * ctc1 of the FPU context code among them); only bc1* and
		 * bc2* are branches.
		 */
		return mi.i_format.rs == bc_op || mi.i_format.rs == bc1eqz_op ||
		       mi.i_format.rs == bc1nez_op;
	case jalx_op:
		return true;
	}
	return __insn_has_delay_slot(mi);
}

/**
 * kprobe_mips_is_ll() - does @insn start a load-linked sequence
 * @insn: an instruction word
 *
 * Return: true for ll and lld, pre-R6 or R6 encoding.
 */
bool kprobe_mips_is_ll(u32 insn)
{
	union mips_instruction mi = { .word = insn };

	if (kprobe_mips_is_r6())
		return mi.spec3_format.opcode == spec3_op &&
		       (mi.spec3_format.func == ll6_op ||
			mi.spec3_format.func == lld6_op);
	return mi.i_format.opcode == ll_op || mi.i_format.opcode == lld_op;
}

/**
 * kprobe_mips_is_sc() - does @insn end a load-linked sequence
 * @insn: an instruction word
 *
 * Return: true for sc and scd, pre-R6 or R6 encoding.
 */
bool kprobe_mips_is_sc(u32 insn)
{
	union mips_instruction mi = { .word = insn };

	if (kprobe_mips_is_r6())
		return mi.spec3_format.opcode == spec3_op &&
		       (mi.spec3_format.func == sc6_op ||
			mi.spec3_format.func == scd6_op);
	return mi.i_format.opcode == sc_op || mi.i_format.opcode == scd_op;
}

/* Why @insn cannot run anywhere but at its own address, or NULL. */
static const char *kprobe_mips_pinned(u32 insn)
{
	union mips_instruction mi = { .word = insn };

	if (kprobe_mips_is_ll(insn) || kprobe_mips_is_sc(insn))
		return "ll/sc: a probe's trap would break the reservation";

	switch (mi.i_format.opcode) {
	case spec_op:
		switch (mi.r_format.func) {
		case syscall_op:
		case break_op:
		case spim_op:		/* sdbbp on R6 */
			return "syscall, break or sdbbp";
		case tge_op:
		case tgeu_op:
		case tlt_op:
		case tltu_op:
		case teq_op:
		case tne_op:
			return "a conditional trap";
		}
		break;
	case bcond_op:
		switch (mi.i_format.rt) {
		case tgei_op:
		case tgeiu_op:
		case tlti_op:
		case tltiu_op:
		case teqi_op:
		case tnei_op:
			return "a conditional trap";
		}
		break;
	case spec2_op:
		if (!kprobe_mips_is_r6() && mi.r_format.func == 0x3f)
			return "syscall, break or sdbbp";
		break;
	case cop0_op:
		/* CO set (bit 25): eret (eretnc too), deret (function 0x1f) */
		if ((insn & BIT(25)) &&
		    ((insn & 0x3f) == eret_op || (insn & 0x3f) == 0x1f))
			return "eret or deret";
		break;
	}
	return NULL;
}

/**
 * kprobe_mips_is_likely() - is @insn a branch-likely
 * @insn: a branch
 *
 * A branch-likely that is not taken nullifies its delay slot.
 *
 * Return: true for beql, bnel, blezl, bgtzl, bltzl and bgezl.
 */
bool kprobe_mips_is_likely(u32 insn)
{
	union mips_instruction mi = { .word = insn };

	switch (mi.i_format.opcode) {
	case beql_op:
	case bnel_op:
	case blezl_op:
	case bgtzl_op:
		return true;
	case bcond_op:
		return mi.i_format.rt == bltzl_op || mi.i_format.rt == bgezl_op;
	}
	return false;
}

/* Why the branch @insn is not evaluated in software, or NULL. */
static const char *kprobe_mips_bad_branch(u32 insn)
{
	union mips_instruction mi = { .word = insn };

	switch (mi.i_format.opcode) {
	case jalx_op:
		return "jalx switches the ISA mode";
	case cop1_op:
	case cop2_op:
		return "an FPU or coprocessor 2 branch";
	case bcond_op:
		if (mi.i_format.rt == bposge32_op)
			return "a DSP branch";
		/*
		 * branch-likely-and-link: branch.c reads "rs = 0" as R6's
		 * always-taken nal/bal, not as the never/always taken
		 * branch-likely it is before R6; no compiler emits them
		 */
		if (mi.i_format.rt == bltzall_op || mi.i_format.rt == bgezall_op)
			return "a branch-likely-and-link";
		/* R6 has only nal and bal (rs = 0) of these */
		if (kprobe_mips_is_r6() && mi.i_format.rs &&
		    (mi.i_format.rt == bltzal_op || mi.i_format.rt == bgezal_op))
			return "not an R6 branch";
		break;
	case spec_op:
		/* jalr with rd = rs: undefined, branch.c links before reading rs */
		if (mi.r_format.func == jalr_op && mi.r_format.rd == mi.r_format.rs)
			return "jalr whose link register is its target";
		break;
	}
	/* removed in R6 (branch.c would signal the current task) */
	if (kprobe_mips_is_r6() && kprobe_mips_is_likely(insn))
		return "not an R6 branch";
	if (IS_ENABLED(CONFIG_CPU_CAVIUM_OCTEON) &&
	    (mi.i_format.opcode == lwc2_op || mi.i_format.opcode == ldc2_op ||
	     mi.i_format.opcode == swc2_op || mi.i_format.opcode == sdc2_op))
		return "an Octeon bbit branch";
	return NULL;
}

/**
 * kprobe_mips_decode() - decide how a hit runs an instruction
 * @insn: the probed instruction
 * @delay: the word after it (its delay slot, if it is a branch)
 * @ai: filled (except @ai->slot) on success
 * @why: the reason for a refusal
 *
 * Return: 0, or -EINVAL with *@why set.
 */
int kprobe_mips_decode(u32 insn, u32 delay, struct arch_specific_insn *ai,
		       const char **why)
{
	union mips_instruction mi = { .word = insn }, ds;

	*why = kprobe_mips_pinned(insn);
	if (!*why && __insn_is_compact_branch(mi))
		*why = "an R6 compact branch";
	if (*why)
		return -EINVAL;

	ai->insn = insn;
	ai->delay = 0;
	ai->likely = false;
	if (!kprobe_mips_has_delay_slot(insn)) {
		ai->kind = kprobe_mips_computable(insn) ? KPROBE_MIPS_COMPUTE :
							  KPROBE_MIPS_STEP;
		return 0;
	}

	*why = kprobe_mips_bad_branch(insn);
	if (*why)
		return -EINVAL;
	ds.word = delay;
	if (kprobe_mips_has_delay_slot(delay) || __insn_is_compact_branch(ds) ||
	    kprobe_mips_pinned(delay)) {
		*why = "a branch whose delay slot cannot be stepped";
		return -EINVAL;
	}
	ai->delay = delay;
	ai->likely = kprobe_mips_is_likely(insn);
	ai->kind = delay == KPROBE_MIPS_NOP ? KPROBE_MIPS_BRANCH :
					      KPROBE_MIPS_BRANCH_STEP;
	return 0;
}
