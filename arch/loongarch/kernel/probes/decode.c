// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LoongArch kprobes: which instructions can be probed, and how a hit
 * runs them.  A pure function of the instruction word; core.c reads the
 * text.
 *
 * Computed in the trap (arch_simulate_insn() of the base, shared with
 * uprobes): the instructions that read the pc, pcaddi, pcaddu12i,
 * pcaddu18i and pcalau12i, and every branch and jump from beqz to bgeu
 * (jirl, b and bl among them), whose copy would compute from the slot's
 * address.  Stepped from a slot: the rest.  Refused, with -EINVAL:
 *
 *   - the AM* atomics, sc.q, ll/sc and llacq/screl: an exception between
 *     an ll and its sc clears the reservation, so the sc would fail for
 *     ever; upstream refuses the atomics too;
 *   - bceqz/bcnez: they read a floating-point condition flag, which the
 *     simulator does not have;
 *   - break, dbcl and syscall (their exception would report the slot's
 *     address: BUG()'s break is looked up by it), ertn and idle;
 *   - csrwr and csrxchg of CRMD, PRMD or ERA: the copy runs with
 *     interrupts off and the end of the step gives the probed context
 *     its own interrupt enable back, over what the copy wrote.
 */
#include "loongarch-kprobes.h"

#include <asm/inst.h>
#include <asm/loongarch.h>

/* The 15-bit-code group (reg0i15: bits 31..15). */
#define KPROBE_LA_REG0I15(insn)		((insn) >> 15)
#define KPROBE_LA_DBCL_OP		0x55
#define KPROBE_LA_SYSCALL_OP		0x56
#define KPROBE_LA_IDLE_OP		0xc91
#define KPROBE_LA_ERTN			0x06483800U

/* csrrd/csrwr/csrxchg: bits 31..24; rj 0 reads, the others write. */
#define KPROBE_LA_CSR_OP		0x04

static bool kprobe_la_atomic(union loongarch_instruction in)
{
	switch (in.reg3_format.opcode) {
	case amswapw_op ... ammindbdu_op:
	case scq_op:
		return true;
	}
	switch (in.reg2i14_format.opcode) {
	case llw_op:
	case lld_op:
	case scw_op:
	case scd_op:
		return true;
	}
	switch (in.reg2_format.opcode) {
	case llacqw_op:
	case llacqd_op:
	case screlw_op:
	case screld_op:
		return true;
	}
	return false;
}

static bool kprobe_la_trapping(u32 insn)
{
	switch (KPROBE_LA_REG0I15(insn)) {
	case break_op:
	case KPROBE_LA_DBCL_OP:
	case KPROBE_LA_SYSCALL_OP:
	case KPROBE_LA_IDLE_OP:
		return true;
	}
	return insn == KPROBE_LA_ERTN;
}

static bool kprobe_la_irq_csr_write(union loongarch_instruction in)
{
	if (in.reg2csr_format.opcode != KPROBE_LA_CSR_OP ||
	    in.reg2csr_format.rj == 0)
		return false;
	switch (in.reg2csr_format.csr) {
	case LOONGARCH_CSR_CRMD:
	case LOONGARCH_CSR_PRMD:
	case LOONGARCH_CSR_ERA:
		return true;
	}
	return false;
}

/**
 * kprobe_loongarch_decode() - how a hit runs @insn, or why it cannot
 * @insn: the original instruction word
 * @ai: its simulate flag is set
 * @why: the reason for a refusal
 *
 * Return: 0, or -EINVAL with *@why set.
 */
int kprobe_loongarch_decode(u32 insn, struct arch_specific_insn *ai,
			    const char **why)
{
	union loongarch_instruction in = { .word = insn };

	if (kprobe_la_atomic(in)) {
		*why = "an atomic, ll/sc or llacq/screl instruction";
		return -EINVAL;
	}
	if (in.reg1i21_format.opcode == bceqz_op) {
		*why = "bceqz/bcnez: no FP condition flags in the simulator";
		return -EINVAL;
	}
	if (kprobe_la_trapping(insn)) {
		*why = "a trap, exception return or idle instruction";
		return -EINVAL;
	}
	if (kprobe_la_irq_csr_write(in)) {
		*why = "a write of CRMD, PRMD or ERA";
		return -EINVAL;
	}
	ai->simulate = insns_need_simulation(in);
	return 0;
}
