/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 32-bit ARM kprobes: what the files of the back-end share.  The per-CPU
 * state machine is drawn in <asm-generic/kprobes-cpu.h>, what its moves
 * are on ARM is in <asm/kprobes.h>; what the generic core offers and
 * expects is the contract in <linux/kprobes_arch.h>, the only core header
 * used here.
 *
 *   core.c       the trap path (hit, step end, fault), prepare/arm/
 *                disarm/remove, the blacklist; what both instruction
 *                sets share (kprobe_sim_ldm_pc())
 *   arm.c        ARM-mode kernels: decoding ARM instructions, their
 *                simulations, breakpoints, slots and undef hooks
 *   arm_compute.c  ARM-mode kernels: the common instructions a copy
 *                could run, computed in the trap instead
 *   thumb.c      Thumb-2 kernels (THUMB2_KERNEL): the same for 16- and
 *                32-bit Thumb instructions
 *   thumb_compute.c  Thumb-2 kernels: arm_compute.c's counterpart
 *   compute.h    the shifter, the adder and the store test both share
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 *   opt.c + opt_detour.S   jump optimization: the detours and their area
 *
 * The instruction decoder (../decode.c, ../decode-arm.c,
 * ../decode-thumb.c) is shared with uprobes; this back-end gives the
 * decoder its own table of what to do with each class of instruction.
 */
#ifndef _ARM_PROBES_KPROBES_ARM_KPROBES_H
#define _ARM_PROBES_KPROBES_ARM_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm-generic/kprobes-opt-template.h>
#include <asm-generic/kprobes-step.h>

#include "../decode.h"

/* Fields of an ARM or 32-bit Thumb instruction. */
#define KP_RN(insn)		(((insn) >> 16) & 0xf)
#define KP_RD(insn)		(((insn) >> 12) & 0xf)
#define KP_PC			15
#define KP_BIT(insn, n)		(((insn) >> (n)) & 1)

/* The site's arch_specific_insn around the decoder's @api. */
static inline struct arch_specific_insn *kprobe_ai(struct arch_probes_insn *api)
{
	return container_of(api, struct arch_specific_insn, api);
}

/*
 * The lowest address an LDM/STM with base value @base transfers, for
 * @n registers (ARM and 32-bit Thumb: P bit 24, U bit 23).
 */
static inline unsigned long kprobe_ldmstm_start(probes_opcode_t insn,
						unsigned long base,
						unsigned int n)
{
	bool up = KP_BIT(insn, 23), pre = KP_BIT(insn, 24);

	if (up)
		return pre ? base + 4 : base;
	return pre ? base - 4 * n : base - 4 * n + 4;
}

/*
 * core.c: the decoders' reason for a refusal, the decoder's answer made a
 * result, and the shared simulation
 */
extern const char *kprobe_decode_why;
int kprobe_decoded(struct arch_specific_insn *ai, enum probes_insn r,
		   const char **why);
void kprobe_sim_ldm_pc(probes_opcode_t insn, struct arch_probes_insn *api,
		       struct pt_regs *regs);

/*
 * arm.c or thumb.c, the kernel's instruction set: read and decode @p's
 * instruction (filling p->opcode, p->ainsn), write its slot, write its
 * breakpoint or the original back, tell whether @addr still holds a
 * breakpoint, finish what a step of a copy leaves to do, register the
 * undef hooks.
 */
int kprobe_isa_decode(struct kprobe_hit_site *p, const char **why);
int kprobe_isa_write_slot(struct kprobe_hit_site *p, const char **why);
void kprobe_isa_poke(struct kprobe_hit_site *p, bool arm);
bool kprobe_isa_is_hit(unsigned long addr);
void kprobe_isa_step_fixup(struct kprobe_hit_site *p, struct pt_regs *regs);
void kprobe_isa_init(void);

/* arm_compute.c: what an ARM-mode trap computes in place of a step */
bool kprobe_arm_compute_dp(u32 insn, struct pt_regs *regs);
bool kprobe_arm_compute_mov(u32 insn, struct pt_regs *regs);
bool kprobe_arm_compute_movw(u32 insn, struct pt_regs *regs);
bool kprobe_arm_compute_ldrstr(u32 insn, struct pt_regs *regs);
bool kprobe_arm_compute_ldmstm(u32 insn, struct pt_regs *regs);

/* thumb_compute.c: what a Thumb-2 trap computes in place of a step */
kprobe_arm_compute_t *kprobe_thumb_compute_pick(u32 insn, unsigned int size);

/* core.c: the hooks do_undefinstr() calls through call_undef_hook() */
int kprobe_arm_udf_hit(struct pt_regs *regs, unsigned int instr);
int kprobe_arm_udf_step_end(struct pt_regs *regs, unsigned int instr);

/* kretprobe.c, called from kretprobe_trampoline.S */
__visible unsigned long arch_kretprobe_trampoline_callback(struct pt_regs *regs);


#endif /* _ARM_PROBES_KPROBES_ARM_KPROBES_H */
