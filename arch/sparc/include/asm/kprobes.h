/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparc64 side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is "ta 0x70" over the probed word.  The trap table sends trap
 * levels 0x170 and 0x171 ("ta 0x71") to kprobe_trap(), which runs the
 * back-end's break and step-end handlers directly.  Only 64-bit kernels
 * have kprobes (SPARC64 selects the contract; 32-bit sparc never had
 * them).
 *
 * There is no single-step.  The probed instruction runs from a slot
 * ending in "ta 0x71": the break handler points %tpc at the copy and %tnpc
 * at the word after it, so the copy of a delayed control transfer finds
 * "ta 0x71" in its delay slot and traps with %tnpc at its outcome, which
 * the step-end handler moves back from the slot to the probed text.  An
 * unconditional annulled branch (which would leave the slot before any
 * second trap) is evaluated in the break handler instead.  The code is in
 * arch/sparc/kernel/probes/.
 */
#ifndef _ASM_SPARC_KPROBES_H
#define _ASM_SPARC_KPROBES_H

#include <asm-generic/kprobes.h>

/* "ta 0x70": the probe, also what fills unused slot space. */
#define SPARC_KPROBES_BREAK_INSN	0x91d02070U
/* "ta 0x71": where a step from a slot ends. */
#define SPARC_KPROBES_STEP_INSN		0x91d02071U

#define BREAKPOINT_INSTRUCTION		SPARC_KPROBES_BREAK_INSN

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/types.h>

struct pt_regs;

typedef u32 kprobe_opcode_t;

/* Every instruction is one aligned word. */
#define MAX_INSN_SIZE		1

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole:
 *
 *   slot + 0	the probed instruction
 *   slot + 4	"ta 0x71": the step is over (also the delay slot of a
 *		delayed control transfer)
 *   slot + 8	"ta 0x71": the step is over; reached when a conditional
 *		branch with the annul bit was not taken (no delay slot ran)
 *   slot + 12	BREAKPOINT_INSTRUCTION, never reached
 */
#define KPROBE_SLOT_INSNS	4
#define KPROBE_SLOT_BYTES	(KPROBE_SLOT_INSNS * sizeof(kprobe_opcode_t))

/**
 * enum kprobe_sparc_kind - how a hit runs the probed instruction
 * @KPROBE_SPARC_STEP: the copy in the slot; the instruction does not move
 *	the pc (execution goes on at the %tnpc of the break)
 * @KPROBE_SPARC_REL: the copy in the slot, a pc-relative delayed control
 *	transfer (call, Bicc, BPcc, BPr, FBfcc, FBPfcc): its outcome is
 *	moved from the slot to the probed text
 * @KPROBE_SPARC_ABS: the copy in the slot, a jump to a register
 *	(jmpl, return): its outcome is absolute
 * @KPROBE_SPARC_JUMP: "ba,a" and its siblings: evaluated in the trap
 */
enum kprobe_sparc_kind {
	KPROBE_SPARC_STEP,
	KPROBE_SPARC_REL,
	KPROBE_SPARC_ABS,
	KPROBE_SPARC_JUMP,
};

/**
 * struct arch_specific_insn - sparc64 per-probe data
 * @slot: the slot (all kinds but KPROBE_SPARC_JUMP), else NULL
 * @disp: KPROBE_SPARC_JUMP: the byte displacement of the branch
 * @kind: enum kprobe_sparc_kind
 * @link: the register (1 - 15) the copy writes its own address to
 *	(call: %o7, jmpl, rd %pc), which is made the probe address; 0: none
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	long disp;
	u8 kind;
	u8 link;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On sparc64 a hit is "ta 0x70"; an evaluated jump completes in
 * the trap (moves (2), (4)), anything else is stepped from the slot and
 * the step is over (moves (5), (6), pop) at "ta 0x71".  A re-entered hit
 * pushes only to step a copy.
 *
 * Both traps enter at PIL_NORMAL_MAX with the interrupted %pil in
 * TSTATE_PIL of the saved %tstate, which the return from the trap puts
 * back.  A step returns into its slot with all of TSTATE_PIL set, so no
 * interrupt, not even the level-15 one, and no preemption comes between
 * the two traps; the probed context's field is kept as saved_irq.
 */
#include <asm-generic/kprobes-cpu.h>

/* The trap table's entry for "ta 0x70" and "ta 0x71" (asm/ttable.h). */
asmlinkage void kprobe_trap(unsigned long trap_level, struct pt_regs *regs);

/* Called by do_sparc64_fault() through kprobe_page_fault(). */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
void arch_kretprobe_trampoline(void);

#endif /* CONFIG_KPROBES */

#endif /* _ASM_SPARC_KPROBES_H */
