/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * riscv side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is a breakpoint over the first 16-bit parcel of the probed
 * instruction: c.ebreak when the kernel is built for the C extension,
 * else ebreak (every instruction is then 32 bits and 4-byte aligned).
 * One aligned parcel is all that is ever written into the text, so
 * another hart fetching the instruction meanwhile sees either the whole
 * old instruction or the breakpoint, never half of each; a c.ebreak over
 * the first half of a 32-bit instruction is decoded on its own and the
 * second half is never reached.
 *
 * riscv has no hardware single-step.  The probed instruction is copied
 * into an instruction slot followed by another breakpoint; after the pre
 * handler the hart returns into the slot with interrupts kept off, runs
 * the copy and traps on the breakpoint behind it, where the post handler
 * runs and the hart resumes after the probed instruction.  Instructions
 * whose result depends on their own address (auipc, jal, jalr, branches
 * and their compressed forms) are simulated in C instead, and so are the
 * common register-only ones (the base ISA's arithmetic, logic, shifts,
 * lui, mv, nop and their compressed forms), whose hit then takes one
 * ebreak instead of two; those that
 * cannot be run anywhere but in place (trap-state CSRs, ecall/ebreak/
 * sret/wfi, lr/sc) are refused.  With OPTPROBES a probe on a 32-bit
 * instruction near a detour becomes a jal to it (opt.c).  The code is in
 * arch/riscv/kernel/probes/.
 */
#ifndef _ASM_RISCV_KPROBES_H
#define _ASM_RISCV_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>

/*
 * The unit a probe saves and replaces: the smallest instruction the
 * kernel can contain.  With RVC that is a 16-bit parcel (even in front of
 * a 32-bit instruction); without it, a whole 32-bit instruction.
 */
#ifdef CONFIG_RISCV_ISA_C
typedef u16 kprobe_opcode_t;
#define BREAKPOINT_INSTRUCTION	0x9002		/* c.ebreak */
#else
typedef u32 kprobe_opcode_t;
#define BREAKPOINT_INSTRUCTION	0x00100073	/* ebreak */
#endif

#define KPROBE_BREAKPOINT_BYTES	sizeof(kprobe_opcode_t)

/* The longest instruction that can be probed, in bytes. */
#define MAX_INSN_SIZE		4

/*
 * A slot holds the copy of a stepped instruction, then a breakpoint:
 *
 *   slot + 0     the probed instruction (2 or 4 bytes)
 *   slot + len   breakpoint, where the step ends
 *
 * Everything else in the slot is breakpoints too.
 */
#define KPROBE_SLOT_BYTES	(MAX_INSN_SIZE + KPROBE_BREAKPOINT_BYTES)

/*
 * Jump optimization (opt.c, opt_detour.S): a 32-bit instruction at a
 * 4-byte aligned address becomes "jal zero, detour", one aligned word;
 * the detour lies within 1 MiB of the probe (<asm/kprobes-detour.h>).
 */
#define KPROBE_OPT_PATCH_MAX	4
#define KPROBE_OPT_REGION_MAX	4
#define KPROBE_OPTSLOT_BYTES	48	/* KPROBE_OPT_DETOUR_BYTES */

/**
 * enum kprobe_insn_kind - how a hit runs the probed instruction
 * @KPROBE_INSN_STEP: the copy in the slot runs, the breakpoint after it
 *	traps back (arch_specific_insn::slot)
 * @KPROBE_INSN_SIMULATE: computed in C on the trap path
 *	(arch_specific_insn::simulate)
 */
enum kprobe_insn_kind {
	KPROBE_INSN_STEP,
	KPROBE_INSN_SIMULATE,
};

struct arch_specific_insn;

/* Computes the effect of the instruction at @addr on @regs, epc included. */
typedef void (*kprobe_simulate_fn)(const struct arch_specific_insn *ai,
				   unsigned long addr, struct pt_regs *regs);

/**
 * struct arch_specific_insn - riscv per-probe data
 * @slot: the copy followed by a breakpoint (STEP), else NULL
 * @simulate: the simulation routine (SIMULATE), else NULL
 * @insn: the whole original instruction, zero-extended when 16-bit
 * @kind: enum kprobe_insn_kind
 * @len: length of the original instruction, 2 or 4
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	kprobe_simulate_fn simulate;
	u32 insn;
	u8 kind;
	u8 len;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn there.
 * On riscv a hit is an ebreak; a SIMULATE instruction is computed in the
 * trap (moves (2), (4)), a STEP one is stepped, and the step is over
 * (moves (5), (6), pop) at the ebreak after the copy in the slot.  A
 * re-entered hit pushes only to step a copy: a simulated instruction
 * completes in the trap.
 *
 * While a copy runs, sstatus.SIE is clear (the trap return restores it
 * from SPIE, which the handler cleared and kprobe_ctlblk::saved_irq
 * keeps), so only a fault of the copy itself can come in between: riscv
 * has no NMI in S-mode.  A push therefore needs a hit from a pre/post
 * handler, from a busy section or from the page fault path of a copy,
 * which bounds the depth.
 */
#include <asm-generic/kprobes-cpu.h>

/* Called by handle_break() (traps.c) and do_page_fault() (mm/fault.c). */
bool kprobe_breakpoint_handler(struct pt_regs *regs);
bool kprobe_single_step_handler(struct pt_regs *regs);
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr);

struct kprobe;

/*
 * bpf_get_func_ip() of an entry probe (patches/0010): the function's
 * address, which is not the probe's where the probe sits past ftrace's
 * patchable entry (arch_adjust_kprobe_addr()).
 */
unsigned long arch_kprobe_entry_func_ip(const struct kprobe *p);
#define arch_kprobe_entry_func_ip arch_kprobe_entry_func_ip

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
asmlinkage void arch_kretprobe_trampoline(void);

#else /* !CONFIG_KPROBES */

/* Without kprobes, no ebreak that handle_break() sees is a probe's. */
#define kprobe_breakpoint_handler(regs)		({ (void)(regs); false; })
#define kprobe_single_step_handler(regs)	({ (void)(regs); false; })

#endif /* CONFIG_KPROBES */

#endif /* _ASM_RISCV_KPROBES_H */
