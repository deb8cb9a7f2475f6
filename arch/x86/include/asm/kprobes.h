/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 side of the kprobes architecture contract.
 *
 * A probe is an int3 over the first byte of the probed instruction.  The
 * original instruction is copied into an executable slot followed by a
 * second int3; after the handlers ran, the CPU executes the copy and traps
 * on the second int3, where the post handler runs and execution resumes
 * after the probed instruction.  Control-flow instructions that cannot run
 * at another address (relative call/jmp/jcc/loop, ret, call/jmp *%reg) are
 * emulated in C instead.
 *
 * Boosting: most instructions run at any address and need no C work
 * after them.  Their slot holds no trap at all: a hit without a post
 * handler runs a copy that jumps back by itself, a hit with one runs a
 * copy that calls kprobe_post_trampoline, which runs the post handler
 * where the second trap would have (see the slot layout below).  The
 * per-CPU state machine is <asm-generic/kprobes-cpu.h>'s (what its moves
 * are on x86: below); the code is in arch/x86/kernel/kprobes/.
 */
#ifndef _ASM_X86_KPROBES_H
#define _ASM_X86_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

#include <asm/insn.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>

/* x86 instructions are byte streams; a probe saves and patches one byte. */
typedef u8 kprobe_opcode_t;

struct kprobe;

#define BREAKPOINT_INSTRUCTION	0xcc

/* A relative jump that may replace an int3 (optprobes). */
#define KPROBE_JMP32_SIZE	5

/*
 * Jump optimization (arch/x86/kernel/kprobes/opt.c): the jump replaces
 * KPROBE_OPT_PATCH_MAX bytes, the instructions it overlaps (the region)
 * span at most KPROBE_OPT_REGION_MAX, and a detour buffer (template, copy
 * of the region, jump back) fits in KPROBE_OPTSLOT_BYTES.
 */
#define KPROBE_OPT_PATCH_MAX	KPROBE_JMP32_SIZE
#define KPROBE_OPT_REGION_MAX	(KPROBE_JMP32_SIZE - 1 + MAX_INSN_SIZE)
#define KPROBE_OPTSLOT_BYTES	192

/*
 * A slot holds the probed instruction, re-aimed for the address of each
 * copy if it is rip-relative, and is as long as that instruction's copies
 * (kprobe_slot_alloc() hands out 16-byte units).  Boostable
 * (arch_specific_insn::boostable), with len the instruction's length:
 *
 *   slot + 0                        insn; jmp rel32    boosted copy: back
 *                                                      to the next insn
 *   slot + kprobe_post_offset(len)  insn; call rel32   post copy: its call
 *                                                      goes to kprobe_post_
 *                                                      trampoline, which
 *                                                      resumes at the next
 *                                                      insn
 *
 * Any other stepped instruction:
 *
 *   slot + 0                        insn; int3         stepped copy
 *
 * A one-byte instruction's two copies take 12 bytes, one 16-byte unit;
 * the longest, 40.  The post trampoline finds the next instruction from
 * current_kprobe, not from the slot; the call's return address, right
 * after it, is never returned to (the rest of the unit is int3s, or the
 * next slot).
 */
#define KPROBE_SLOT_BYTES	(2 * (MAX_INSN_SIZE + KPROBE_JMP32_SIZE))

static inline unsigned int kprobe_post_offset(unsigned int len)
{
	return len + KPROBE_JMP32_SIZE;
}

/**
 * enum kprobe_insn_kind - how the probed instruction is executed
 * @KPROBE_INSN_STEP: run the copy in the slot, trap on the int3 after it
 * @KPROBE_INSN_EMULATE: computed in C by an emulate routine (emulate.c)
 */
enum kprobe_insn_kind {
	KPROBE_INSN_STEP,
	KPROBE_INSN_EMULATE,
};

/**
 * enum kprobe_step_finish - C work after the copy in the slot has run
 * @KPROBE_FINISH_NONE: nothing, resume after the probed instruction
 * @KPROBE_FINISH_PUSHF: pushf saved the flags of the slot, whose IF we
 *	cleared: put the probed context's IF into the pushed word
 * @KPROBE_FINISH_JMP: "jmp *mem" ran as "push mem": pop the target, go there
 * @KPROBE_FINISH_CALL: "call *mem" ran as "push mem": pop the target, push
 *	the return address, go to the target
 */
enum kprobe_step_finish {
	KPROBE_FINISH_NONE,
	KPROBE_FINISH_PUSHF,
	KPROBE_FINISH_JMP,
	KPROBE_FINISH_CALL,
};

struct kprobe_emulation;

/**
 * struct arch_specific_insn - x86 per-probe data
 * @slot: executable copies of the instruction (STEP, see the slot
 *	layout above); NULL for emulated instructions and ftrace-based
 *	probes
 * @emulate: the emulation routine (EMULATE)
 * @rel: branch displacement, or the imm16 of "ret imm16" (EMULATE)
 * @kind: enum kprobe_insn_kind
 * @len: length of the original instruction
 * @cond: condition code of jcc, variant of loop/jrcxz, or the register
 *	number of call/jmp *%reg (EMULATE)
 * @finish: enum kprobe_step_finish (STEP)
 * @if_modifier: the instruction sets EFLAGS.IF itself (popf, sti, cli):
 *	keep its result instead of restoring the probed context's IF
 * @boostable: the slot has the boosted and the post copy (STEP kind
 *	only): the instruction needs no C work after it, does not touch IF,
 *	has no exception-table fixup, and it, the jump back and the call of
 *	the trampoline reach their targets from the slot
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	const struct kprobe_emulation *emulate;
	s32 rel;
	u8 kind;
	u8 len;
	u8 cond;
	u8 finish;
	bool if_modifier;
	bool boostable;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn there.
 * On x86 a hit is an int3 (or the ftrace call, or a detour).  Move (2)
 * there also covers a boostable instruction hit with no post handler,
 * which runs its boosted copy.  A step is over (moves (5), (6), pop) at
 * the int3 that ends a stepped copy or, for a boostable instruction with
 * a post handler, in kprobe_post_trampoline_handler(); an EMULATE
 * instruction is computed in the trap (moves (2), (4)).  A re-entered hit
 * pushes only to step a copy: an emulated instruction completes in the
 * trap, a boostable one runs its boosted copy, one whose detour is
 * published goes on in the detour.  Pushes nest as exception contexts do
 * (handler -> NMI -> #MC -> #DB).  kprobe_ctlblk::saved_irq is the probed
 * context's EFLAGS.IF, cleared while a copy is stepped, so that only an
 * NMI or a machine check comes in between.
 *
 * A boosted hit is over before the CPU leaves the int3 handler: it goes
 * IDLE and resumes in the boosted copy with the probed context's EFLAGS
 * untouched (IF is never cleared, so there is nothing to restore), and the
 * copy's jump takes it back to the next instruction without another trap.
 * Such a CPU may therefore take interrupts, be preempted or fault inside
 * the slot while its state says IDLE; the slot allocator waits for every
 * task and CPU to have left a slot before reusing it (kernel/kprobes/
 * slots.c).  A fault in a boosted copy is not translated back to the
 * probe address, which is why instructions with an exception-table entry
 * are never boosted.  A hit while busy on a boostable instruction runs the
 * boosted copy: it has no handlers to come back for.
 *
 * The post copy is a step without the second trap: the CPU runs it in
 * state STEPPING with IF cleared, exactly like a stepped copy, so no
 * interrupt, preemption or migration comes between the pre and the post
 * handler.  Its call enters kprobe_post_trampoline, which saves the
 * registers as the trailing int3 would show them (ip = the next
 * instruction) and calls kprobe_post_trampoline_handler(): IF back as it
 * was, POST, IDLE.
 *
 * A per-CPU access is one %gs (%fs on i386) relative instruction: hit paths
 * need not keep this CPU's addresses (struct kprobe_cpu).
 */
#define ARCH_KPROBE_PERCPU_DIRECT	1
#include <asm-generic/kprobes-cpu.h>

int kprobe_int3_handler(struct pt_regs *regs);
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
asmlinkage void arch_kretprobe_trampoline(void);

/* The end of a post copy (post_trampoline.S); never called from C. */
asmlinkage void kprobe_post_trampoline(void);

#else /* !CONFIG_KPROBES */

static inline int kprobe_int3_handler(struct pt_regs *regs)
{
	return 0;
}

#endif /* CONFIG_KPROBES */

#endif /* _ASM_X86_KPROBES_H */
