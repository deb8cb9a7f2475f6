/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parisc side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is "break 0x1f,0x1ffc" over the probed word; handle_break()
 * (traps.c) passes that trap to parisc_kprobe_break_handler(), and the
 * second break of a slot, "break 0x1e,0x1ffc", to
 * parisc_kprobe_ss_handler().  Only 32-bit kernels have kprobes (see
 * Kconfig): the slot and trampoline code assume narrow registers.
 *
 * PA-RISC has no single-step a kernel can use here.  The probed
 * instruction runs from a slot: the break handler loads the interruption
 * queue with the slot's first two words, and the second break after the
 * copy brings the CPU back.  The back of the queue at the probe, the
 * instruction that was to follow (the next word, or a branch target when
 * the probe sits in a delay slot), is kept and becomes the front again.
 * A copy that nullifies the next instruction skips the first second-break
 * and lands on another one, and the nullification is passed on to the
 * real successor.  Branches read the instruction address, so they are
 * evaluated in software instead (B,L, BV, BE, BLE, the compare/add/move
 * and branch-on-bit families); the rest of the branches, interruption and
 * system-mask instructions are refused.  The code is in
 * arch/parisc/kernel/probes/.
 */
#ifndef _ASM_PARISC_KPROBES_H
#define _ASM_PARISC_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>

typedef u32 kprobe_opcode_t;

/* "break 0x1f,0x1ffc": the probe, also what fills unused slot space. */
#define PARISC_KPROBES_BREAK_INSN	0x03ff801fU
/* "break 0x1e,0x1ffc": where a step from a slot ends. */
#define PARISC_KPROBES_BREAK_INSN2	0x03ff801eU

#define BREAKPOINT_INSTRUCTION	PARISC_KPROBES_BREAK_INSN
#define KPROBE_STEP_BREAK	PARISC_KPROBES_BREAK_INSN2

/* Every instruction is one aligned word. */
#define MAX_INSN_SIZE		1

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole:
 *
 *   slot + 0	the probed instruction
 *   slot + 4	second break: the step is over
 *   slot + 8	second break: the step is over, and the copy nullified
 *		the instruction after it
 *   slot + 12	BREAKPOINT_INSTRUCTION, never reached
 */
#define KPROBE_SLOT_INSNS	4
#define KPROBE_SLOT_BYTES	(KPROBE_SLOT_INSNS * sizeof(kprobe_opcode_t))

/**
 * enum kprobe_parisc_kind - how a hit runs the probed instruction
 * @KPROBE_PARISC_STEP: the copy in the slot
 * @KPROBE_PARISC_BL: B,L: pc-relative branch, optional link
 * @KPROBE_PARISC_BV: BV: branch to a register
 * @KPROBE_PARISC_BE: BE, BLE: branch to a register plus a displacement,
 *	the kernel's space; BLE links
 * @KPROBE_PARISC_CMPB: COMB/COMIB: compare and branch
 * @KPROBE_PARISC_ADDB: ADDB/ADDIB: add and branch
 * @KPROBE_PARISC_MOVB: MOVB/MOVIB: move and branch
 * @KPROBE_PARISC_BB: BB: branch on a fixed bit
 * @KPROBE_PARISC_LDO: LDO (LDI): a register plus a 14-bit displacement
 * @KPROBE_PARISC_LDIL: LDIL: a left-aligned 21-bit immediate
 * @KPROBE_PARISC_ADDIL: ADDIL: a register plus one, into %r1
 * @KPROBE_PARISC_OR: OR (COPY, NOP) without a condition
 * @KPROBE_PARISC_AND: AND without a condition
 * @KPROBE_PARISC_XOR: XOR without a condition
 * @KPROBE_PARISC_ANDCM: ANDCM without a condition
 * @KPROBE_PARISC_ADDL: ADD,L and SHLADD,L (no carry, no trap) without a
 *	condition
 *
 * All but the first are done in the trap: the branches evaluated, from
 * KPROBE_PARISC_LDO on computed (kprobe_parisc_computed()).
 */
enum kprobe_parisc_kind {
	KPROBE_PARISC_STEP,
	KPROBE_PARISC_BL,
	KPROBE_PARISC_BV,
	KPROBE_PARISC_BE,
	KPROBE_PARISC_CMPB,
	KPROBE_PARISC_ADDB,
	KPROBE_PARISC_MOVB,
	KPROBE_PARISC_BB,
	KPROBE_PARISC_LDO,
	KPROBE_PARISC_LDIL,
	KPROBE_PARISC_ADDIL,
	KPROBE_PARISC_OR,
	KPROBE_PARISC_AND,
	KPROBE_PARISC_XOR,
	KPROBE_PARISC_ANDCM,
	KPROBE_PARISC_ADDL,
};

/* Whether a hit computes an instruction of @kind, no branch. */
static inline bool kprobe_parisc_computed(u8 kind)
{
	return kind >= KPROBE_PARISC_LDO;
}

/**
 * struct arch_specific_insn - parisc per-probe data
 * @slot: the slot (KPROBE_PARISC_STEP), else NULL
 * @insn: the probed instruction
 * @imm: a computed instruction's immediate, decoded once: the
 *	displacement (LDO), the shifted immediate (LDIL, ADDIL), the shift
 *	(ADDL); else 0
 * @kind: enum kprobe_parisc_kind
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	u32 insn;
	u32 imm;
	u8 kind;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On parisc a hit is the first break; a branch or a computed
 * instruction completes in the trap (moves (2), (4)), anything else is
 * stepped from the slot and the step is over (moves (5), (6), pop) at
 * the second break.  A re-entered hit pushes only to step a copy.
 *
 * handle_interruption() enables interrupts when the trapping context had
 * them: the handlers disable them, and a step keeps preemption disabled
 * from the first break to the second.  The copy runs with PSW I clear,
 * so only a fault of the copy or an interrupt taken in the break
 * handlers can come in between, which bounds the depth.
 */
#include <asm-generic/kprobes-cpu.h>

/* traps.c's handle_break(): the two breaks. */
int parisc_kprobe_break_handler(struct pt_regs *regs);
int parisc_kprobe_ss_handler(struct pt_regs *regs);

/* Called by fixup_exception() through kprobe_page_fault(). */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
void arch_kretprobe_trampoline(void);

#endif /* CONFIG_KPROBES */

#endif /* _ASM_PARISC_KPROBES_H */
