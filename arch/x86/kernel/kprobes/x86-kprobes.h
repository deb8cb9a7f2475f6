/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 kprobes: what core.c, decode.c, emulate.c, ftrace.c, opt.c and
 * kretprobe.c share.  The per-CPU state machine is drawn in
 * <asm-generic/kprobes-cpu.h>, what its moves are on x86 is in
 * <asm/kprobes.h>; what the generic core offers and expects is the
 * contract in <linux/kprobes_arch.h>, the only core header used here.
 *
 *   decode.c   pure: bytes in, struct kprobe_decoded out (what kind of
 *              instruction, how to run it, why it is refused)
 *   emulate.c  the table of emulated instructions and the C work done
 *              after a slot step (trap path)
 *   core.c     prepare/arm/disarm/remove, the int3 and fault handlers,
 *              the per-CPU state machine, blacklist and address hooks
 *   post_trampoline.S   the end of a boostable step with a post handler
 *   ftrace.c   probes on fentry sites, armed through ftrace
 *   ftrace_tramp.S   the trampoline of their ftrace_ops (x86-64)
 *   kretprobe.c + kretprobe_trampoline.S   the return trampoline
 */
#ifndef _X86_KERNEL_KPROBES_H
#define _X86_KERNEL_KPROBES_H

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <asm/insn.h>

struct pt_regs;

/**
 * enum kprobe_modrm_match - how struct kprobe_insn_pattern looks at ModRM
 * @KPROBE_MODRM_ANY: not at all
 * @KPROBE_MODRM_REG: ModRM.reg equals @modrm (opcode extension, any mod)
 * @KPROBE_MODRM_REG_DIRECT: ModRM.reg equals @modrm and mod is 3 (register)
 * @KPROBE_MODRM_EXACT: the whole ModRM byte equals @modrm
 */
enum kprobe_modrm_match {
	KPROBE_MODRM_ANY,
	KPROBE_MODRM_REG,
	KPROBE_MODRM_REG_DIRECT,
	KPROBE_MODRM_EXACT,
};

/**
 * struct kprobe_insn_pattern - a family of legacy-encoded opcodes
 * @opcode: the opcode byte (the one after 0x0f when @esc)
 * @mask: bits of the opcode byte that must equal @opcode
 * @esc: two-byte opcode (0x0f escape)
 * @modrm_match: enum kprobe_modrm_match
 * @modrm: operand of @modrm_match
 *
 * VEX/EVEX-encoded instructions never match: their opcode bytes mean
 * something else, and none of them is a branch.
 */
struct kprobe_insn_pattern {
	u8 opcode;
	u8 mask;
	u8 esc;
	u8 modrm_match;
	u8 modrm;
};

/* One opcode byte, a family of them, a 0x0f-escaped one, an opcode /reg. */
#define KPROBE_OP(op)		{ .opcode = (op), .mask = 0xff }
#define KPROBE_OPS(op, m)	{ .opcode = (op), .mask = (m) }
#define KPROBE_0F(op)		{ .opcode = (op), .mask = 0xff, .esc = 1 }
#define KPROBE_OP_REG(op, reg)						\
	{ .opcode = (op), .mask = 0xff,					\
	  .modrm_match = KPROBE_MODRM_REG, .modrm = (reg) }

bool kprobe_insn_matches(struct insn *insn,
			 const struct kprobe_insn_pattern *pat);

/**
 * enum kprobe_operand - what an emulated instruction needs from its encoding
 * @KPROBE_OPERAND_NONE: nothing
 * @KPROBE_OPERAND_REL: a signed branch displacement (into ainsn.rel)
 * @KPROBE_OPERAND_IMM16: an unsigned 16-bit immediate (into ainsn.rel)
 * @KPROBE_OPERAND_RM_REG: the register named by ModRM.rm (into ainsn.cond)
 */
enum kprobe_operand {
	KPROBE_OPERAND_NONE,
	KPROBE_OPERAND_REL,
	KPROBE_OPERAND_IMM16,
	KPROBE_OPERAND_RM_REG,
};

/*
 * The general-purpose registers that ModRM (with REX on x86-64) can name:
 * eight on i386, which has no r8-r15 in its pt_regs.  KPROBE_GPR_HIGH()
 * is the pt_regs offset of one of r8-r15; on i386 a union stands in for
 * them, all at offset 0, and they are never used (no REX prefix there).
 */
#ifdef CONFIG_X86_64
#define KPROBE_NR_GPRS		16
#define KPROBE_GPR_HIGH(reg)	offsetof(struct pt_regs, reg)
#else
#define KPROBE_NR_GPRS		8
union kprobe_no_high_gprs {
	u8 r8, r9, r10, r11, r12, r13, r14, r15;
};

#define KPROBE_GPR_HIGH(reg)	offsetof(union kprobe_no_high_gprs, reg)
#endif

typedef void (*kprobe_emulate_fn)(const struct arch_specific_insn *ai,
				  unsigned long addr, struct pt_regs *regs);

/**
 * struct kprobe_emulation - an instruction computed in C instead of stepped
 * @pattern: the instructions it handles
 * @cond_mask: ainsn.cond = last opcode byte & @cond_mask (jcc, loop)
 * @operand: enum kprobe_operand
 * @name: for messages
 * @emulate: sets regs->ip (and sp/stack/rcx) as the instruction at @addr
 *	would have; called on the trap path with interrupts off
 */
struct kprobe_emulation {
	struct kprobe_insn_pattern pattern;
	u8 cond_mask;
	u8 operand;
	const char *name;
	kprobe_emulate_fn emulate;
};

/* emulate.c */
const struct kprobe_emulation *kprobe_find_emulation(struct insn *insn);
void kprobe_step_finish(const struct arch_specific_insn *ai,
			unsigned long addr, unsigned long saved_irq,
			struct pt_regs *regs);

/**
 * struct kprobe_decoded - what decode.c found out about one instruction
 * @ainsn: the per-probe data, except @ainsn.slot
 * @bytes: the instruction as it must be copied into a slot
 * @rip_disp: offset of a rip-relative disp32 in @bytes, 0 if there is none
 * @reason: why the instruction is refused (NULL when accepted)
 */
struct kprobe_decoded {
	struct arch_specific_insn ainsn;
	u8 bytes[MAX_INSN_SIZE];
	u8 rip_disp;
	const char *reason;
};

/* decode.c */
int kprobe_decode_insn(const u8 *text, unsigned int len,
		       struct kprobe_decoded *d);
int kprobe_relocate_insn(struct kprobe_decoded *d, unsigned long from,
			 unsigned long to);

/*
 * Run @p's post handlers, if it has any, in state POST.  Whether it has
 * comes and goes with its members (another CPU may change it right now),
 * so it is read once.
 */
static nokprobe_inline void kprobe_run_post(struct kprobe_hit_site *p,
					    struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb)
{
	if (READ_ONCE(p->post)) {
		kprobe_set_state(kcb, KPROBE_CPU_POST);
		kprobe_hit_post_here(p, regs);
	}
}

/* core.c, called from post_trampoline.S */
__visible void kprobe_post_trampoline_handler(struct pt_regs *regs);

/* ftrace_tramp.S: called by ftrace's fentry calls, never from C */
asmlinkage void kprobe_ftrace_tramp(void);
/* ftrace.c, called from ftrace_tramp.S */
__visible unsigned long kprobe_ftrace_tramp_handler(struct pt_regs *regs);

/**
 * struct kprobe_detour_layout - where the template's per-probe values are
 * @frame_ip_end: end of the "push $imm32" of the probe address + 1 for the
 *	unwinders' frame
 * @ip_end: end of the "push $imm32" of the probe address + 1 for
 *	pt_regs::ip
 * @opt_end: end of the "movabsq" ("movl" on i386) loading the struct
 *	kprobe_opt pointer
 * @call_end: end of the call of arch_optprobe_handler()
 * @size: bytes of the template that are copied
 *
 * All offsets from kprobe_detour_template; filled in by opt_detour.S.  The
 * immediates are the last 4 bytes before @frame_ip_end and @ip_end, the
 * last sizeof(long) before @opt_end.
 */
struct kprobe_detour_layout {
	u32 frame_ip_end;
	u32 ip_end;
	u32 opt_end;
	u32 call_end;
	u32 size;
};

/* opt_detour.S: never executed where it is, only copied */
extern const u8 kprobe_detour_template[];
extern const struct kprobe_detour_layout kprobe_detour_layout;

/*
 * While a site's detour is published (optimizer.c), a hit must not run
 * the probed instruction in place: the CPU goes to the detour's copy of
 * the region, which jumps back after it.  For the int3 path, once the
 * pre handlers ran (or were skipped); false: step or emulate as usual.
 */
static nokprobe_inline bool kprobe_opt_bypass(struct kprobe_hit_site *p,
					      struct pt_regs *regs)
{
	unsigned long resume = kprobe_hit_resume(p);

	if (!resume)
		return false;
	regs->ip = resume;
	return true;
}

#ifdef CONFIG_JUMP_LABEL
/*
 * Could a jump label of the text at @addr (enabled now or later) jump
 * into (@addr, @addr + @len)?  jump_label_lock() held, and locked (which
 * keeps @addr's module loaded).
 */
static inline bool kprobe_jump_label_into(unsigned long addr,
					  unsigned int len)
{
	struct jump_entry *e = __start___jump_table;
	struct jump_entry *stop = __stop___jump_table;
	unsigned long target;
#ifdef CONFIG_MODULES
	struct module *mod;

	preempt_disable();
	mod = __module_text_address(addr);
	preempt_enable();
	if (mod) {
		e = mod->jump_entries;
		stop = e + mod->num_jump_entries;
	}
#endif
	for (; e < stop; e++) {
		target = jump_entry_target(e);
		if (target > addr && target < addr + len)
			return true;
	}
	return false;
}
#else
static inline bool kprobe_jump_label_into(unsigned long addr,
					  unsigned int len)
{
	return false;
}
#endif

#endif /* _X86_KERNEL_KPROBES_H */
