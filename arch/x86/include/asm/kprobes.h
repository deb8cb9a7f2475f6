/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 side of the kprobes architecture contract.
 *
 * A probe is an int3 over the first byte of the probed instruction.  The
 * original instruction is copied into an executable slot followed by a
 * second int3; after the handlers ran, the CPU executes the copy and traps
 * on the second int3, where the core runs the post handler and resumes at
 * the instruction after the probe.  Control-flow instructions that cannot
 * run at another address (relative call/jmp/jcc/loop, ret) are emulated
 * instead.  The per-CPU state machine is struct kprobe_ctlblk below.
 */
#ifndef _ASM_X86_KPROBES_H
#define _ASM_X86_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>
#include <asm/insn.h>

#define __ARCH_WANT_KPROBES_INSN_SLOT

struct pt_regs;
struct kprobe;

typedef u8 kprobe_opcode_t;

#define BREAKPOINT_INSTRUCTION	0xcc

/* A relative jump that may replace an int3 (optprobes). */
#define KPROBE_JMP32_SIZE	5

/* The copy in the slot is at most one instruction plus a trailing int3. */
#define KPROBE_SLOT_BYTES	(MAX_INSN_SIZE + 1)

/**
 * enum kprobe_insn_kind - how the probed instruction is executed
 * @KPROBE_INSN_STEP: run the copy in the slot, trap on the int3 after it
 * @KPROBE_INSN_EMULATE: computed in C by an emulate routine (emulate.c)
 */
enum kprobe_insn_kind {
	KPROBE_INSN_STEP,
	KPROBE_INSN_EMULATE,
};

struct kprobe_emulation;

/**
 * struct arch_specific_insn - x86 per-probe data
 * @slot: executable copy of the instruction followed by an int3 (STEP)
 * @kind: how the instruction runs out of line
 * @len: length of the original instruction
 * @emulate: the emulation routine (EMULATE)
 * @rel: signed displacement of a relative branch / rip-relative operand
 * @cond: condition code of jcc/loop/jcxz, or the register of call/jmp *%reg
 * @opsize: operand size for the emulated instruction (bytes)
 * @fixup_call: the stepped instruction pushed a return address into the
 *	slot (indirect call): rewrite it to the original site
 * @if_modifier: the instruction changes EFLAGS.IF (popf, sti, cli)
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	u8 kind;
	u8 len;
	u8 cond;
	u8 opsize;
	bool fixup_call;
	bool if_modifier;
	const struct kprobe_emulation *emulate;
	s32 rel;
};

/**
 * enum kprobe_cpu_state - what this CPU is doing for kprobes
 * @KPROBE_CPU_IDLE: nothing; current_kprobe is NULL
 * @KPROBE_CPU_HANDLER: running the pre handler of current_kprobe
 * @KPROBE_CPU_STEPPING: executing current_kprobe's slot copy
 * @KPROBE_CPU_POST: running the post handler of current_kprobe
 * @KPROBE_CPU_REENTERED: stepping a probe hit while another was active;
 *	the interrupted probe's state is in kprobe_ctlblk::saved
 * @KPROBE_CPU_BUSY: kprobe_busy_begin() section or ftrace-based handler
 *
 * Transitions (all on one CPU, interrupts off; see core.c):
 *
 *   IDLE --int3--> HANDLER --pre returns 0--> STEPPING --int3--> POST --> IDLE
 *                     |                                   \-----(no post)--> IDLE
 *                     +--pre changed ip--> IDLE
 *   HANDLER/POST/BUSY --int3 of another probe--> REENTERED --int3--> (restored)
 *   STEPPING --fault in the slot--> (restored to the probe address) IDLE
 */
enum kprobe_cpu_state {
	KPROBE_CPU_IDLE = 0,
	KPROBE_CPU_HANDLER,
	KPROBE_CPU_STEPPING,
	KPROBE_CPU_POST,
	KPROBE_CPU_REENTERED,
	KPROBE_CPU_BUSY,
};

/**
 * struct kprobe_saved_state - the interrupted probe during a re-entry
 * @kp: its current_kprobe
 * @state: its state
 * @saved_if: its saved EFLAGS.IF
 */
struct kprobe_saved_state {
	struct kprobe *kp;
	u8 state;
	unsigned long saved_if;
};

/**
 * struct kprobe_ctlblk - per-CPU kprobe control block
 * @state: enum kprobe_cpu_state
 * @saved_if: EFLAGS.IF of the probed context (cleared while stepping)
 * @saved: the outer probe while a re-entered one is being stepped
 */
struct kprobe_ctlblk {
	u8 state;
	unsigned long saved_if;
	struct kprobe_saved_state saved;
};

DECLARE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

static inline struct kprobe_ctlblk *get_kprobe_ctlblk(void)
{
	return this_cpu_ptr(&kprobe_ctlblk);
}

int kprobe_int3_handler(struct pt_regs *regs);
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
asmlinkage void arch_kretprobe_trampoline(void);

#else /* !CONFIG_KPROBES */

static inline int kprobe_int3_handler(struct pt_regs *regs)
{
	return 0;
}

#endif /* CONFIG_KPROBES */

#endif /* _ASM_X86_KPROBES_H */
