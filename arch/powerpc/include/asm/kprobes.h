/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * powerpc side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is a "trap" (tw 31,0,0) over the first word of the probed
 * instruction, written with the base's code-patching API.  One aligned
 * word is all that is ever written, so another CPU fetching the
 * instruction meanwhile sees the old instruction or the trap, never a mix;
 * over the prefix word of a prefixed (ISA 3.1, 8-byte) instruction the
 * trap is decoded on its own and the suffix is never reached.
 *
 * A hit computes the common register arithmetic (mr, li, addi, nop,
 * mflr, ...) from what preparing the probe decoded (compute.c), and
 * otherwise tries to emulate the instruction with the base's
 * single-step library (arch/powerpc/lib/sstep.c: analyse_instr(),
 * emulate_step()): no second exception, and the instructions whose
 * result depends on their own address (branches, addpcis) or that read
 * or write the MSR (mfmsr; mtmsr on 32-bit) are only ever emulated.
 * What the library cannot emulate runs out of line: the copy in an
 * instruction slot, with preemption disabled, until the trap that follows
 * it in the slot brings the CPU back.  No single-step facility is used,
 * so every powerpc family runs the same code: Book3S, whose step is
 * MSR_SE, as much as BookE (e500, 44x), whose step is a debug event
 * (DBCR0_IC) that a debugger may own.  Instructions that neither can run
 * (rfi and BookE's other returns from interrupts, rfid, mtmsrd, traps,
 * sc, writes of SRR0/SRR1, larx/stcx. sequences, pc-relative prefixed
 * forms) are refused.  The code is in
 * arch/powerpc/kernel/probes/.
 *
 * 64-bit BookE (e5500, e6500) is not ported: its exception code lies
 * outside the head text, in objects this back-end has no bounds for
 * (HAVE_KPROBES_ARCH_CONTRACT, arch/powerpc/Kconfig).
 */
#ifndef _ASM_POWERPC_KPROBES_H
#define _ASM_POWERPC_KPROBES_H

#include <asm-generic/kprobes.h>
/*
 * Code that includes this (the trap code through asm/interrupt.h, the BPF
 * JIT through linux/kprobes.h) reads and patches instructions with the
 * helpers of asm/inst.h and asm/code-patching.h, as it always could;
 * asm/probes.h has BREAKPOINT_INSTRUCTION, the trap.
 */
#include <asm/code-patching.h>
#include <asm/inst.h>
#include <asm/probes.h>

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>

/* The unit a probe saves and replaces: one instruction word. */
typedef u32 kprobe_opcode_t;

/* The longest instruction that can be probed, in bytes (prefixed). */
#define MAX_INSN_SIZE		8

/*
 * A slot holds the copy of a stepped instruction, then the trap that ends
 * the step (kprobe_handler() tells it by its address):
 *
 *   slot + 0     the probed instruction (4 or 8 bytes)
 *   slot + len   trap
 *
 * Slots are 16-byte aligned, so a prefixed copy never crosses a 64-byte
 * boundary.
 */
#define KPROBE_SLOT_BYTES	(MAX_INSN_SIZE + sizeof(kprobe_opcode_t))

/**
 * enum kprobe_insn_kind - how a hit runs the probed instruction
 * @KPROBE_INSN_STEP: emulated if the library can, else the copy in the
 *	slot runs up to the trap after it (arch_specific_insn::slot)
 * @KPROBE_INSN_EMULATE: only ever emulated: it reads its own address
 *	(branches, addpcis); no slot
 */
enum kprobe_insn_kind {
	KPROBE_INSN_STEP,
	KPROBE_INSN_EMULATE,
};

/**
 * struct arch_specific_insn - powerpc per-probe data
 * @slot: the copy followed by a trap (STEP, not computed), else NULL
 * @insn: the original instruction word
 * @suffix: its second word when it is prefixed, else 0
 * @kind: enum kprobe_insn_kind
 * @len: length of the original instruction, 4 or 8
 * @compute: a STEP instruction that hits compute without the library:
 *	enum kprobe_ppc_op (arch/powerpc/kernel/probes/compute.c), 0 if not
 * @rd: the register @compute writes
 * @rs: its first source register
 * @rb: its second
 * @imm: its immediate, extended and shifted as the instruction does
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	u32 insn;
	u32 suffix;
	u8 kind;
	u8 len;
	u8 compute;
	u8 rd;
	u8 rs;
	u8 rb;
	long imm;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn there.
 * On powerpc a hit is a trap (or the ftrace call, or a detour); an
 * instruction the single-step library emulates is computed in the trap
 * (moves (2), (4)), any other is stepped, and the step is over (moves
 * (5), (6), pop) at the trap after the copy.  A re-entered hit runs an
 * instruction the library emulates with no handler and pushes only to
 * step a copy.
 *
 * While a copy runs preemption is disabled, interrupts are as the probed
 * context had them (kprobe_ctlblk::saved_irq is unused): a probe that an
 * interrupt taken in between hits is a re-entry, pushed over the step it
 * interrupted, and ends its own step at its own slot's trap.
 */
#include <asm-generic/kprobes-cpu.h>

/*
 * Called by program_check_exception() (traps.c) and, through
 * kprobe_page_fault(), by the page fault handler.  Non-zero: the
 * exception was the probe's and @regs say where to resume.
 */
int kprobe_handler(struct pt_regs *regs);
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/*
 * The single-step and debug exceptions (traps.c) ask this first: never
 * ours, kprobes does not single-step.
 */
static inline int kprobe_post_handler(struct pt_regs *regs)
{
	return 0;
}

struct kprobe;

/*
 * bpf_get_func_ip() of an entry probe (patches/0010): the function's
 * address, which is not the probe's (arch_adjust_kprobe_addr()).
 */
unsigned long arch_kprobe_entry_func_ip(const struct kprobe *p);
#define arch_kprobe_entry_func_ip arch_kprobe_entry_func_ip

/* The return trampoline of kretprobes (return_trampoline.S). */
void arch_kretprobe_trampoline(void);

/*
 * Jump optimization (opt.c): an optimized probe has "b detour" instead of
 * its trap.  It replaces one 4-byte instruction, which the detour runs
 * from a copy (KPROBE_OPTSLOT_BYTES: the layout is in opt.c).  A branch
 * reaches +/- 32 MB, so detours live in an area of the kernel text.
 */
#define KPROBE_OPT_PATCH_MAX	4
#define KPROBE_OPT_REGION_MAX	4
#define KPROBE_OPTSLOT_BYTES	64

#else /* !CONFIG_KPROBES */

struct pt_regs;

static inline int kprobe_handler(struct pt_regs *regs) { return 0; }
static inline int kprobe_post_handler(struct pt_regs *regs) { return 0; }

#endif /* CONFIG_KPROBES */

#endif /* _ASM_POWERPC_KPROBES_H */
