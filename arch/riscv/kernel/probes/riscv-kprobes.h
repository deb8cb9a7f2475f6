/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * riscv kprobes: what the files of the back-end share.  The per-hart
 * state machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves
 * are on riscv is in <asm/kprobes.h>; what the generic core offers and
 * expects is the contract in <linux/kprobes_arch.h>, the only core header
 * used here.
 *
 *   decode.c     pure: an instruction in, a struct kprobe_decoded out
 *                (its length, step or simulate, or why it is refused)
 *   simulate.c   the simulation routines (trap path): what depends on
 *                its own address, and the common register-only
 *                instructions, whose hit then takes one ebreak, not two
 *   core.c       prepare/arm/disarm/remove, the breakpoint and fault
 *                handlers, the state machine, address and blacklist hooks
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 *   opt.c + opt_detour.S   jump optimization: "jal zero" to a detour
 *
 * The decoder and simulator of riscv's uprobes (decode-insn.c,
 * simulate-insn.c) are uprobes' own; kprobes does not use them.
 */
#ifndef _RISCV_KERNEL_PROBES_KPROBES_H
#define _RISCV_KERNEL_PROBES_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm-generic/kprobes-step.h>

/*
 * ftrace's patchable function entry (auipc + jalr, or two nops), which a
 * function entry probe skips: see arch_adjust_kprobe_addr().
 */
#ifdef CONFIG_DYNAMIC_FTRACE
#define KPROBE_FTRACE_ENTRY_BYTES	MCOUNT_INSN_SIZE
#else
#define KPROBE_FTRACE_ENTRY_BYTES	0
#endif

/* Is the 16-bit parcel @lo the start of a 16-bit instruction? */
static __always_inline bool kprobe_insn_is_16bit(u16 lo)
{
	return (lo & 3) != 3;
}

/**
 * struct kprobe_decoded - what decode.c found out about one instruction
 * @ainsn: the per-probe data, except @ainsn.slot
 * @reason: why the instruction is refused (NULL when accepted)
 */
struct kprobe_decoded {
	struct arch_specific_insn ainsn;
	const char *reason;
};

/* decode.c */
int kprobe_decode_insn(const u8 *text, unsigned int avail,
		       struct kprobe_decoded *d);
unsigned int kprobe_insn_len(const u8 *text);
bool kprobe_insn_is_lr(u32 insn);
bool kprobe_insn_is_sc(u32 insn);

/* simulate.c: the routines decode.c hands out */
void kprobe_sim_jal(const struct arch_specific_insn *ai, unsigned long addr,
		    struct pt_regs *regs);
void kprobe_sim_jalr(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs);
void kprobe_sim_auipc(const struct arch_specific_insn *ai, unsigned long addr,
		      struct pt_regs *regs);
void kprobe_sim_branch(const struct arch_specific_insn *ai, unsigned long addr,
		       struct pt_regs *regs);
void kprobe_sim_c_j(const struct arch_specific_insn *ai, unsigned long addr,
		    struct pt_regs *regs);
void kprobe_sim_c_jal(const struct arch_specific_insn *ai, unsigned long addr,
		      struct pt_regs *regs);
void kprobe_sim_c_jr(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs);
void kprobe_sim_c_jalr(const struct arch_specific_insn *ai,
		       unsigned long addr, struct pt_regs *regs);
void kprobe_sim_c_bz(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs);
/* ... and the register-only ones, which spare the slot's second ebreak */
void kprobe_sim_addi(const struct arch_specific_insn *ai, unsigned long addr,
		     struct pt_regs *regs);
void kprobe_sim_op_imm(const struct arch_specific_insn *ai,
		       unsigned long addr, struct pt_regs *regs);
void kprobe_sim_op(const struct arch_specific_insn *ai, unsigned long addr,
		   struct pt_regs *regs);
void kprobe_sim_lui(const struct arch_specific_insn *ai, unsigned long addr,
		    struct pt_regs *regs);
void kprobe_sim_c_imm(const struct arch_specific_insn *ai,
		      unsigned long addr, struct pt_regs *regs);
void kprobe_sim_c_arith(const struct arch_specific_insn *ai,
			unsigned long addr, struct pt_regs *regs);
void kprobe_sim_c_reg(const struct arch_specific_insn *ai,
		      unsigned long addr, struct pt_regs *regs);

/*
 * opt.c (whose arch_optprobe_handler(), declared in
 * <asm-generic/kprobes-opt.h>, kprobe_opt_common calls); the detour's
 * template, in bytes, that routine and the areas of detours in the
 * kernel image (opt_detour.S, arch/riscv/lib/kprobes-opt-area.S).
 */
#ifdef CONFIG_OPTPROBES
int kprobe_opt_blacklist(void);
extern const u8 kprobe_opt_template[], kprobe_opt_template_end[];
asmlinkage void kprobe_opt_common(void);
extern u8 kprobe_opt_area[], kprobe_opt_area_lib[];
#else
static inline int kprobe_opt_blacklist(void)
{
	return 0;
}
#endif

/* kretprobe.c, called from kretprobe_trampoline.S */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);

#endif /* _RISCV_KERNEL_PROBES_KPROBES_H */
