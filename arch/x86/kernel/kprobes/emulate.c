// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: instructions computed in C.
 *
 * A branch cannot run in a slot: its target is relative to its own
 * address, or it would leave the slot before reaching the int3 that brings
 * control back.  kprobe_emulations[] lists what is computed in C instead;
 * each routine sets the registers as the instruction at @addr would have.
 *
 * Everything here runs in the int3 handler with interrupts off.  The int3
 * entry code leaves a gap between the interrupted stack and its pt_regs,
 * which is what lets a call push onto regs->sp (see int3_emulate_push()).
 */
#include "x86-kprobes.h"

#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <asm/text-patching.h>

/* pt_regs offsets of the registers in ModRM/REX numbering. */
static const u8 kprobe_gpr_offset[16] = {
	offsetof(struct pt_regs, ax),	offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, dx),	offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, sp),	offsetof(struct pt_regs, bp),
	offsetof(struct pt_regs, si),	offsetof(struct pt_regs, di),
	KPROBE_GPR_HIGH(r8),		KPROBE_GPR_HIGH(r9),
	KPROBE_GPR_HIGH(r10),		KPROBE_GPR_HIGH(r11),
	KPROBE_GPR_HIGH(r12),		KPROBE_GPR_HIGH(r13),
	KPROBE_GPR_HIGH(r14),		KPROBE_GPR_HIGH(r15),
};

/*
 * @reg is ModRM.rm, plus 8 for REX.B, which only x86-64 decodes: on i386
 * it is always below 8.
 */
static nokprobe_inline unsigned long kprobe_gpr(struct pt_regs *regs,
						unsigned int reg)
{
	return regs_get_register(regs,
				 kprobe_gpr_offset[reg % KPROBE_NR_GPRS]);
}

static nokprobe_inline unsigned long kprobe_next_ip(const struct arch_specific_insn *ai,
						    unsigned long addr)
{
	return addr + ai->len;
}

/* call rel32 */
static void kprobe_emulate_call(const struct arch_specific_insn *ai,
				unsigned long addr, struct pt_regs *regs)
{
	unsigned long next = kprobe_next_ip(ai, addr);

	int3_emulate_push(regs, next);
	int3_emulate_jmp(regs, next + ai->rel);
}

NOKPROBE_SYMBOL(kprobe_emulate_call);

/* jmp rel8, jmp rel32 */
static void kprobe_emulate_jmp(const struct arch_specific_insn *ai,
			       unsigned long addr, struct pt_regs *regs)
{
	int3_emulate_jmp(regs, kprobe_next_ip(ai, addr) + ai->rel);
}

NOKPROBE_SYMBOL(kprobe_emulate_jmp);

/* jcc rel8, jcc rel32: ai->cond is the condition code (low opcode nibble) */
static void kprobe_emulate_jcc(const struct arch_specific_insn *ai,
			       unsigned long addr, struct pt_regs *regs)
{
	int3_emulate_jcc(regs, ai->cond, kprobe_next_ip(ai, addr), ai->rel);
}

NOKPROBE_SYMBOL(kprobe_emulate_jcc);

/* Low two bits of opcodes 0xe0-0xe3. */
enum {
	KPROBE_LOOPNE,
	KPROBE_LOOPE,
	KPROBE_LOOP,
	KPROBE_JRCXZ,
};

/*
 * loopne, loope, loop, jrcxz (jecxz on i386): the native address size
 * only, see decode.c, so the counter is all of regs->cx.
 */
static void kprobe_emulate_loop(const struct arch_specific_insn *ai,
				unsigned long addr, struct pt_regs *regs)
{
	unsigned long next = kprobe_next_ip(ai, addr);
	bool zf = regs->flags & X86_EFLAGS_ZF;
	bool taken;

	if (ai->cond == KPROBE_JRCXZ) {
		taken = !regs->cx;
	} else {
		/* The loop forms count down first; none of them sets flags. */
		taken = --regs->cx != 0;
		if (ai->cond == KPROBE_LOOPNE)
			taken = taken && !zf;
		else if (ai->cond == KPROBE_LOOPE)
			taken = taken && zf;
	}
	int3_emulate_jmp(regs, taken ? next + ai->rel : next);
}

NOKPROBE_SYMBOL(kprobe_emulate_loop);

/* ret, ret imm16: ai->rel is the number of extra bytes to release */
static void kprobe_emulate_ret(const struct arch_specific_insn *ai,
			       unsigned long addr, struct pt_regs *regs)
{
	unsigned long to = int3_emulate_pop(regs);

	regs->sp += ai->rel;
	int3_emulate_jmp(regs, to);
}

NOKPROBE_SYMBOL(kprobe_emulate_ret);

/*
 * call *%reg, jmp *%reg: ai->cond is the register.  Read it before the
 * push, "call *%rsp" means the old %rsp.  On i386 pt_regs::sp is the
 * interrupted stack pointer too: kernel-mode traps get a full frame.  No ENDBR check is made on the
 * target: the CPU does not see an indirect branch here.
 */
static void kprobe_emulate_call_reg(const struct arch_specific_insn *ai,
				    unsigned long addr, struct pt_regs *regs)
{
	unsigned long to = kprobe_gpr(regs, ai->cond);

	int3_emulate_push(regs, kprobe_next_ip(ai, addr));
	int3_emulate_jmp(regs, to);
}

NOKPROBE_SYMBOL(kprobe_emulate_call_reg);

static void kprobe_emulate_jmp_reg(const struct arch_specific_insn *ai,
				   unsigned long addr, struct pt_regs *regs)
{
	int3_emulate_jmp(regs, kprobe_gpr(regs, ai->cond));
}

NOKPROBE_SYMBOL(kprobe_emulate_jmp_reg);

#define KPROBE_OP_REG_DIRECT(op, reg)					\
	{ .opcode = (op), .mask = 0xff,					\
	  .modrm_match = KPROBE_MODRM_REG_DIRECT, .modrm = (reg) }

/*
 * Pattern, cond_mask, operand, name, routine.  Indirect branches through
 * memory are not here: they are stepped as a push of the same operand and
 * finished by kprobe_step_finish().
 */
static const struct kprobe_emulation kprobe_emulations[] = {
	{ KPROBE_OP(0xe8), 0, KPROBE_OPERAND_REL,
	  "call rel32", kprobe_emulate_call },
	{ KPROBE_OP(0xe9), 0, KPROBE_OPERAND_REL,
	  "jmp rel32", kprobe_emulate_jmp },
	{ KPROBE_OP(0xeb), 0, KPROBE_OPERAND_REL,
	  "jmp rel8", kprobe_emulate_jmp },
	{ KPROBE_OPS(0x70, 0xf0), 0x0f, KPROBE_OPERAND_REL,
	  "jcc rel8", kprobe_emulate_jcc },
	{ { .opcode = 0x80, .mask = 0xf0, .esc = 1 }, 0x0f, KPROBE_OPERAND_REL,
	  "jcc rel32", kprobe_emulate_jcc },
	{ KPROBE_OPS(0xe0, 0xfc), 0x03, KPROBE_OPERAND_REL,
	  "loop/jrcxz", kprobe_emulate_loop },
	{ KPROBE_OP(0xc3), 0, KPROBE_OPERAND_NONE,
	  "ret", kprobe_emulate_ret },
	{ KPROBE_OP(0xc2), 0, KPROBE_OPERAND_IMM16,
	  "ret imm16", kprobe_emulate_ret },
	{ KPROBE_OP_REG_DIRECT(0xff, 2), 0, KPROBE_OPERAND_RM_REG,
	  "call *%reg", kprobe_emulate_call_reg },
	{ KPROBE_OP_REG_DIRECT(0xff, 4), 0, KPROBE_OPERAND_RM_REG,
	  "jmp *%reg", kprobe_emulate_jmp_reg },
};

/**
 * kprobe_find_emulation() - the emulation for a decoded instruction
 * @insn: fully decoded instruction
 *
 * Return: the table entry, or NULL if the instruction is not emulated.
 */
const struct kprobe_emulation *kprobe_find_emulation(struct insn *insn)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kprobe_emulations); i++)
		if (kprobe_insn_matches(insn, &kprobe_emulations[i].pattern))
			return &kprobe_emulations[i];
	return NULL;
}

/**
 * kprobe_step_finish() - set the registers after the slot copy has run
 * @ai: the stepped instruction
 * @addr: the probe address
 * @saved_irq: EFLAGS.IF of the probed context (X86_EFLAGS_IF or 0)
 * @regs: registers at the slot's trailing int3
 *
 * Leaves regs->ip where the original instruction would have gone.  Restoring
 * EFLAGS.IF itself is the caller's job.
 */
void kprobe_step_finish(const struct arch_specific_insn *ai,
			unsigned long addr, unsigned long saved_irq,
			struct pt_regs *regs)
{
	unsigned long next = kprobe_next_ip(ai, addr);
	unsigned long *top = (unsigned long *)regs->sp;
	unsigned long to;

	switch (ai->finish) {
	case KPROBE_FINISH_PUSHF:
		/* The slot ran with IF clear; the saved word must not. */
		*top = (*top & ~X86_EFLAGS_IF) | saved_irq;
		fallthrough;
	case KPROBE_FINISH_NONE:
		int3_emulate_jmp(regs, next);
		break;
	case KPROBE_FINISH_JMP:
		int3_emulate_jmp(regs, int3_emulate_pop(regs));
		break;
	case KPROBE_FINISH_CALL:
		/* The pushed target makes room for the return address. */
		to = int3_emulate_pop(regs);
		int3_emulate_push(regs, next);
		int3_emulate_jmp(regs, to);
		break;
	}
}

NOKPROBE_SYMBOL(kprobe_step_finish);
