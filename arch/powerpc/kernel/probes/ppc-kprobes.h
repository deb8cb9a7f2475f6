/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the powerpc kprobes back-end share; the contract with
 * the generic core is <linux/kprobes_arch.h>.
 */
#ifndef _PPC_KPROBES_H
#define _PPC_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <asm/inst.h>
#include <asm/kprobes.h>
#include <asm/sections.h>
#include <asm-generic/kprobes-opt-template.h>
#include <asm-generic/kprobes-step.h>

/**
 * struct kprobe_decoded - what decoding found out about an instruction
 * @ainsn: kind and length filled in, no slot yet
 * @reason: why it cannot be probed, when decoding fails
 */
struct kprobe_decoded {
	struct arch_specific_insn ainsn;
	const char *reason;
};

/* decode.c */
int kprobe_decode_insn(u32 word, u32 suffix, struct kprobe_decoded *d);
bool kprobe_insn_is_trap(u32 word);
bool kprobe_insn_is_larx(u32 word);
bool kprobe_insn_is_stcx(u32 word);

/**
 * enum kprobe_ppc_op - what a hit computes (compute.c)
 * @KPPC_NONE: nothing: the library emulates, or the copy is stepped
 * @KPPC_LI: rd = imm (addi, addis with rA = 0)
 * @KPPC_ADDI: rd = rs + imm (addi, addis)
 * @KPPC_ORI: rd = rs | imm (ori, oris)
 * @KPPC_XORI: rd = rs ^ imm (xori, xoris)
 * @KPPC_OR: rd = rs | rb
 * @KPPC_AND: rd = rs & rb
 * @KPPC_XOR: rd = rs ^ rb
 * @KPPC_NOR: rd = ~(rs | rb)
 * @KPPC_ANDC: rd = rs & ~rb
 * @KPPC_ORC: rd = rs | ~rb
 * @KPPC_ADD: rd = rs + rb
 * @KPPC_SUBF: rd = rb - rs
 * @KPPC_NEG: rd = -rs
 * @KPPC_EXTSB: rd = rs's low byte, sign-extended
 * @KPPC_EXTSH: rd = rs's low halfword, sign-extended
 * @KPPC_EXTSW: rd = rs's low word, sign-extended
 * @KPPC_MFLR: rd = LR
 * @KPPC_MFCTR: rd = CTR
 * @KPPC_MTLR: LR = rs
 * @KPPC_MTCTR: CTR = rs
 */
enum kprobe_ppc_op {
	KPPC_NONE,
	KPPC_LI,
	KPPC_ADDI,
	KPPC_ORI,
	KPPC_XORI,
	KPPC_OR,
	KPPC_AND,
	KPPC_XOR,
	KPPC_NOR,
	KPPC_ANDC,
	KPPC_ORC,
	KPPC_ADD,
	KPPC_SUBF,
	KPPC_NEG,
	KPPC_EXTSB,
	KPPC_EXTSH,
	KPPC_EXTSW,
	KPPC_MFLR,
	KPPC_MFCTR,
	KPPC_MTLR,
	KPPC_MTCTR,
};

/* compute.c */
bool kprobe_ppc_compute_decode(u32 word, struct arch_specific_insn *ai);
bool kprobe_ppc_compute(const struct arch_specific_insn *ai,
			struct pt_regs *regs);

/* return_trampoline.S: what the trampolines call with their pt_regs */
unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);
unsigned long arch_rethook_trampoline_callback(struct pt_regs *regs);

static inline bool kprobe_in_opt_area(unsigned long addr)
{
	return IS_ENABLED(CONFIG_OPTPROBES) &&
	       addr >= (unsigned long)kprobe_opt_area &&
	       addr < (unsigned long)kprobe_opt_area_end;
}

/*
 * The interrupt vectors and the code they run before they can take
 * another exception: on 64-bit between __start_interrupts and
 * __end_interrupts (<asm/sections.h> has them on 64-bit only), on 32-bit
 * the head text, where the vectors branch to code the base marks
 * NOKPROBE_SYMBOL().
 */
#ifdef CONFIG_PPC64
#define KPROBE_PPC_VECTORS_START	((unsigned long)__start_interrupts)
#define KPROBE_PPC_VECTORS_END		((unsigned long)__end_interrupts)
#else
#define KPROBE_PPC_VECTORS_START	((unsigned long)_stext)
#define KPROBE_PPC_VECTORS_END		((unsigned long)__head_end)
#endif

/*
 * Does @regs come from translated kernel code?  A trap or detour entered
 * in real mode is none of ours (Book3S runs its early interrupt code
 * there).  BookE always translates, and its MSR has no IR/DR bits.
 */
static __always_inline bool kprobe_ppc_translated(const struct pt_regs *regs)
{
	return IS_ENABLED(CONFIG_BOOKE) ||
	       (regs->msr & (MSR_IR | MSR_DR)) == (MSR_IR | MSR_DR);
}

/* The instruction as the single-step library takes it. */
static __always_inline ppc_inst_t kprobe_ppc_inst(const struct arch_specific_insn *ai)
{
	return ai->len == 8 ? ppc_inst_prefix(ai->insn, ai->suffix) :
			      ppc_inst(ai->insn);
}

#endif /* _PPC_KPROBES_H */
