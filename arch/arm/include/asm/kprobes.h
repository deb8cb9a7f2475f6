/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 32-bit ARM side of the kprobes architecture contract
 * (<linux/kprobes_arch.h>), for kernels built in the ARM instruction set
 * and for Thumb-2 kernels (THUMB2_KERNEL), one or the other per build.
 *
 * A probe is a permanently undefined instruction (UDF) over the probed
 * instruction, of its width; do_undefinstr() hands it to our undef hook.  ARM has
 * no single-step of kernel code, so the probed instruction either is
 * computed in C by the trap ("simulated": branches, pc-relative loads
 * and address computations, loads of the pc; on ARM-mode kernels also
 * the data processing, loads and stores that make up function entries
 * and bodies) or runs from an instruction slot followed by a second UDF,
 * with interrupts masked in the CPSR the exception returns with.  The
 * code is in arch/arm/probes/kprobes/.
 */
#ifndef _ASM_ARM_KPROBES_H
#define _ASM_ARM_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

struct pt_regs;

/*
 * kprobe_fault_handler(), called by do_page_fault() and
 * __do_kernel_fault() through kprobe_page_fault(), and the return
 * trampoline of kretprobes (kretprobe_trampoline.S): declared before the
 * includes below, one of which can lead back to <linux/kprobes.h>
 * (multi_v7_defconfig), whose inlines use both.
 */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int fsr);
void arch_kretprobe_trampoline(void);

#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>
#include <asm/probes.h>

typedef u32 kprobe_opcode_t;

#ifdef CONFIG_THUMB2_KERNEL
/*
 * Thumb-2 kernels: the probe of a 16-bit instruction is UDF #0x18, that
 * of a 32-bit one UDF.W #0xa018; a step ends at UDF #0x19.  A slot unit
 * holds two halfwords, the first in the upper half (the Thumb-2 opcode
 * convention): BREAKPOINT_INSTRUCTION, the filler, is two 16-bit probes.
 */
#define KPROBE_THUMB16_HIT	0xde18U
#define KPROBE_THUMB32_HIT	0xf7f0a018U
#define KPROBE_THUMB_STEP_END	0xde19U
#define BREAKPOINT_INSTRUCTION	((KPROBE_THUMB16_HIT << 16) | KPROBE_THUMB16_HIT)
#else
/*
 * UDF #0xd018 (ARM): the probe.  It also fills unused slot space.  The
 * end of a step is UDF #0xd019, a word no compiler emits either; both
 * differ from BUG()'s, kgdb's and uprobes' undefined instructions.
 */
#define BREAKPOINT_INSTRUCTION	0xe7fd01f8U
#define KPROBE_ARM_STEP_END	0xe7fd01f9U
#endif

/*
 * An ARM instruction is one aligned 32-bit word, a Thumb instruction is
 * one or two halfwords: at most one kprobe_opcode_t either way.
 */
#define MAX_INSN_SIZE		1
#define KPROBE_ARM_INSN_SIZE	4

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole:
 *
 *   slot + 0	the probed instruction (2 or 4 bytes)
 *   then	its step end (KPROBE_ARM_STEP_END, KPROBE_THUMB_STEP_END)
 *   then	breakpoints, never reached
 */
#define KPROBE_SLOT_INSNS	4
#define KPROBE_SLOT_BYTES	(KPROBE_SLOT_INSNS * KPROBE_ARM_INSN_SIZE)

/* An instruction computed in the trap (arm_compute.c, thumb_compute.c). */
typedef bool (kprobe_arm_compute_t)(u32 insn, struct pt_regs *regs);

/**
 * struct arch_specific_insn - ARM per-probe data
 * @slot: the copy and its step end, when the instruction is stepped
 *	(also when @compute is set, for the hits it declines); else NULL
 * @simulate: the simulation of an instruction the copy cannot run
 *	(it reads or writes the pc); else NULL.  Exactly one of @slot and
 *	@simulate is set.  It is called with the pc in @regs already past
 *	the probed instruction, as the decoder's shared simulations expect.
 * @compute: the instruction, one the copy could run,
 *	computed in the trap instead, which saves the step end's trap;
 *	else NULL.  Called after the condition passed, with the pc at the
 *	probe address; false sends the hit to the slot (a load or store
 *	the fault-safe accessors could not do, or a store onto the
 *	trap's own frame), nothing changed.
 * @api: what the shared decoder (arch/arm/probes/decode.c) filled: the
 *	condition check, and the handler of the shared simulations
 * @insn: the original instruction; a 32-bit Thumb one has its first
 *	halfword in the upper half
 * @size: its length in bytes: 4, or 2 for a 16-bit Thumb instruction
 * @stm_pc: the instruction is an STM that stores the pc: the step's end
 *	puts the probed address + 8 where the copy stored its own pc
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	probes_insn_handler_t *simulate;
	kprobe_arm_compute_t *compute;
	struct arch_probes_insn api;
	u32 insn;
	u8 size;
	bool stm_pc;
};

/*
 * Jump optimization (ARM-mode kernels; opt.c, opt_detour.S): an optimized
 * probe has "b detour" in place of its UDF, one word for the probed
 * instruction, which the detour runs from a copy (KPROBE_OPTSLOT_BYTES:
 * the layout is in opt_detour.S).  B reaches +/- 32 MiB, so detours live
 * in an area of the kernel image (kprobe_opt_area).
 */
#define KPROBE_OPT_PATCH_MAX	4
#define KPROBE_OPT_REGION_MAX	4
#define KPROBE_OPTSLOT_BYTES	48

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On ARM a hit is the probe's UDF; a simulated instruction is
 * computed in the trap (moves (2), (4)), a stepped one runs from its slot,
 * and the step is over (moves (5), (6), pop) at the slot's second UDF.
 * kprobe_ctlblk::saved_irq keeps the probed context's CPSR I and F bits
 * while the copy runs with both set.
 */
#include <asm-generic/kprobes-cpu.h>

#endif /* CONFIG_KPROBES */

#endif /* _ASM_ARM_KPROBES_H */
