/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is "BRK #KPROBES_BRK_IMM" over the probed instruction.  Every
 * A64 instruction is one aligned 32-bit word, so the write is a single
 * word; it still goes through stop_machine() (see core.c), because the
 * architecture lets a CPU fetch a word while another rewrites it only
 * when both the old and the new instruction are branches, NOPs or
 * breakpoints, and a probed instruction is usually neither.
 *
 * There is no hardware single-step of kernel code here.  The probed
 * instruction is copied into an instruction slot followed by
 * "BRK #KPROBES_BRK_SS_IMM"; after the pre handler the CPU returns into
 * the slot with D, A, I and F masked, runs the copy and traps on the
 * second breakpoint, where the post handler runs and the CPU resumes
 * after the probed instruction with its own mask back.  Instructions that
 * read the pc (branches, adr/adrp, literal loads) are simulated in C by
 * the simulator arm64's uprobes share (simulate-insn.c); those that only
 * work in place (exception generation and return, system registers,
 * exclusives) are refused.  A probe on a function's ftrace call site is
 * no BRK: ftrace calls the core's ftrace_ops there (KPROBES_ON_FTRACE,
 * on DYNAMIC_FTRACE_WITH_ARGS: see ftrace.c).  The code is in
 * arch/arm64/kernel/probes/.
 */
#ifndef _ASM_ARM64_KPROBES_H
#define _ASM_ARM64_KPROBES_H

#include <asm-generic/kprobes.h>
#include <asm/debug-monitors.h>

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>
#include <asm/probes.h>

typedef u32 kprobe_opcode_t;

/* The probe's breakpoint; it also fills unused slot space. */
#define BREAKPOINT_INSTRUCTION	BRK64_OPCODE_KPROBES

/* Every instruction is one 32-bit word. */
#define MAX_INSN_SIZE		1

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole:
 *
 *   slot + 0	the probed instruction
 *   slot + 4	BRK #KPROBES_BRK_SS_IMM, where the step ends
 *   slot + 8	two BREAKPOINT_INSTRUCTIONs, never reached
 */
#define KPROBE_SLOT_INSNS	4
#define KPROBE_SLOT_BYTES	(KPROBE_SLOT_INSNS * AARCH64_INSN_SIZE)

/**
 * struct arch_specific_insn - arm64 per-probe data
 * @slot: the copy and its breakpoint, when the instruction is stepped;
 *	else NULL
 * @simulate: the simulation routine of simulate-insn.c, when it is
 *	simulated; else NULL.  Exactly one of @slot and @simulate is set.
 * @insn: the original instruction
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	probes_handler_t *simulate;
	u32 insn;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On arm64 a hit is the probe's BRK; a simulated instruction is
 * computed in the trap (moves (2), (4)), a stepped one is stepped, and the
 * step is over (moves (5), (6), pop) at the slot's second BRK.  A
 * re-entered hit pushes only to step a copy.
 *
 * While a copy runs, DAIF is set in the pstate the exception returns to
 * (kprobe_ctlblk::saved_irq keeps the probed context's four bits), so no
 * interrupt, not even a pseudo-NMI, comes in between; only a fault of
 * the copy itself (kprobe_fault_handler()) or an SDEI event can.  A push
 * therefore needs a hit from a handler, from a busy section or from a
 * fault or SDEI path, which bounds the depth.
 */
#include <asm-generic/kprobes-cpu.h>

/* Called by do_page_fault() through kprobe_page_fault(). */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int esr);

struct kprobe;

/*
 * bpf_get_func_ip() of an entry probe: the function's address, not the
 * probe's, which sits on ftrace's call site (KPROBES_ON_FTRACE) or after
 * it (arch_adjust_kprobe_addr()).
 */
unsigned long arch_kprobe_entry_func_ip(const struct kprobe *p);
#define arch_kprobe_entry_func_ip arch_kprobe_entry_func_ip

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
asmlinkage void arch_kretprobe_trampoline(void);

/*
 * call_el1_break_hook() (debug-monitors.c) hands these the kernel BRKs
 * with our immediates: the probe's and the end of a step.
 */
int kprobe_brk_handler(struct pt_regs *regs, unsigned long esr);
int kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr);

/*
 * Jump optimization (opt.c, opt_detour.S): an optimized probe has "B detour"
 * instead of its BRK.  It replaces the one probed instruction, which the
 * detour runs from a copy (KPROBE_OPTSLOT_BYTES: the layout is in
 * opt_detour.S).  B reaches +/- 128 MiB, so detours live in an area of
 * the kernel image (kprobe_opt_area).
 */
#define KPROBE_OPT_PATCH_MAX	4
#define KPROBE_OPT_REGION_MAX	4
#define KPROBE_OPTSLOT_BYTES	48

#else /* !CONFIG_KPROBES */

/* debug-monitors.c refers to them under IS_ENABLED(CONFIG_KPROBES). */
static inline int kprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	return DBG_HOOK_ERROR;
}

static inline int kprobe_ss_brk_handler(struct pt_regs *regs,
					unsigned long esr)
{
	return DBG_HOOK_ERROR;
}

#endif /* CONFIG_KPROBES */

/*
 * Upstream's return trampoline was a BRK #KRETPROBES_BRK_IMM, which
 * call_el1_break_hook() still dispatches under CONFIG_KRETPROBES.  Ours
 * returns through a plain trampoline (kretprobe_trampoline.S) and never
 * executes that BRK: one found in the text is someone else's, an oops.
 */
static inline int kretprobe_brk_handler(struct pt_regs *regs,
					unsigned long esr)
{
	return DBG_HOOK_ERROR;
}

#endif /* _ASM_ARM64_KPROBES_H */
