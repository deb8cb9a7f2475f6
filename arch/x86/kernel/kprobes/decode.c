// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 kprobes: classify the probed instruction.
 *
 * Everything here is a pure function of the instruction bytes (and, for
 * relocation, of two addresses): no locks, no global state, no logging.
 * A probed instruction ends up
 *
 *   refused   when it can only run at its own address, or would hang or
 *             corrupt state when run with interrupts off in a slot
 *             (kprobe_refusals[]);
 *   emulated  when it transfers control to a relative or register target:
 *             computed in C on the trap path (emulate.c);
 *   stepped   otherwise: the copy runs in a slot.  A rip-relative operand
 *             is re-aimed from the slot (kprobe_relocate_insn()), and a few
 *             instructions need C work afterwards (kprobe_step_rules[]);
 *             the others may be boosted (ainsn.boostable).
 */
#include "x86-kprobes.h"

#include <linux/errno.h>
#include <linux/string.h>
#include <asm/text-patching.h>

/* ModRM.reg of "push r/m64" ("push r/m32" on i386; opcode 0xff). */
#define KPROBE_MODRM_REG_PUSH	6

/**
 * struct kprobe_refusal - instructions that are never probed
 * @pattern: the instructions
 * @reason: for the core's message
 */
struct kprobe_refusal {
	struct kprobe_insn_pattern pattern;
	const char *reason;
};

#define KPROBE_0F_EXACT(op, m)						\
	{ .opcode = (op), .mask = 0xff, .esc = 1,			\
	  .modrm_match = KPROBE_MODRM_EXACT, .modrm = (m) }

static const struct kprobe_refusal kprobe_refusals[] = {
	/* int3, int n, into, iret: a trap or a return from one */
	{ KPROBE_OPS(0xcc, 0xfc),	"trap instruction or iret" },
	{ KPROBE_OP(0xf1),		"trap instruction (int1)" },
	/* Far transfers change %cs; the slot cannot model that. */
	{ KPROBE_OPS(0xca, 0xfe),	"far return" },
	{ KPROBE_OP(0x9a),		"far call" },
	{ KPROBE_OP(0xea),		"far jump" },
	{ KPROBE_OP_REG(0xff, 3),	"far call" },
	{ KPROBE_OP_REG(0xff, 5),	"far jump" },
	/* With interrupts off in the slot, nothing would wake these up. */
	{ KPROBE_OP(0xf4),		"hlt" },
	{ KPROBE_0F_EXACT(0x01, 0xc9),	"mwait" },
	{ KPROBE_0F_EXACT(0x01, 0xfb),	"mwaitx" },
	/* Segment loads: entry/exit code territory, may fault half-way. */
	{ KPROBE_OP(0x8e),		"segment register load" },
	/*
	 * i386 only (invalid in 64-bit mode): pop es/ss/ds, lds/les.  The
	 * latter two share their opcodes with the VEX prefixes, which never
	 * match a pattern (kprobe_insn_matches()).
	 */
	{ KPROBE_OP(0x07),		"segment register load" },
	{ KPROBE_OP(0x17),		"segment register load" },
	{ KPROBE_OP(0x1f),		"segment register load" },
	{ KPROBE_OPS(0xc4, 0xfe),	"segment register load" },
	{ KPROBE_0F(0xa1),		"segment register load" },
	{ KPROBE_0F(0xa9),		"segment register load" },
	{ KPROBE_0F(0xb2),		"segment register load" },
	{ { .opcode = 0xb4, .mask = 0xfe, .esc = 1 },
					"segment register load" },
	/* Privilege transitions never come back to the slot's int3. */
	{ KPROBE_0F(0x05),		"syscall" },
	{ KPROBE_0F(0x07),		"sysret" },
	{ KPROBE_0F(0x34),		"sysenter" },
	{ KPROBE_0F(0x35),		"sysexit" },
	{ KPROBE_0F_EXACT(0x01, 0xf8),	"swapgs" },
	{ KPROBE_0F_EXACT(0x01, 0xc2),	"vmlaunch" },
	{ KPROBE_0F_EXACT(0x01, 0xc3),	"vmresume" },
	{ KPROBE_0F_EXACT(0x01, 0xd8),	"vmrun" },
	/* BUG()/WARN() sites: the #UD handler looks them up by address. */
	{ KPROBE_0F(0x0b),		"ud2 (BUG/WARN site)" },
	{ KPROBE_0F(0xb9),		"ud1 (BUG/WARN site)" },
	{ KPROBE_0F(0xff),		"ud0" },
	/* xbegin's abort address is relative to the instruction. */
	{ { .opcode = 0xc7, .mask = 0xff,
	    .modrm_match = KPROBE_MODRM_EXACT, .modrm = 0xf8 }, "xbegin" },
	/* An indirect branch to an int3 instead of an ENDBR is a #CP. */
	{ KPROBE_0F_EXACT(0x1e, 0xfa),	"endbr64 (indirect branch target)" },
};

/**
 * struct kprobe_step_rule - stepped instructions that need more than a copy
 * @pattern: the instructions
 * @finish: enum kprobe_step_finish
 * @if_modifier: the instruction sets EFLAGS.IF itself
 * @push_rewrite: the slot gets "push r/m64" with the same operand instead
 *	(the branch would leave the slot and never reach its int3)
 */
struct kprobe_step_rule {
	struct kprobe_insn_pattern pattern;
	u8 finish;
	bool if_modifier;
	bool push_rewrite;
};

static const struct kprobe_step_rule kprobe_step_rules[] = {
	{ KPROBE_OP(0x9c),		KPROBE_FINISH_PUSHF },	/* pushf */
	{ KPROBE_OP(0x9d),		.if_modifier = true },	/* popf */
	{ KPROBE_OPS(0xfa, 0xfe),	.if_modifier = true },	/* cli, sti */
	{ KPROBE_OP_REG(0xff, 2),	KPROBE_FINISH_CALL, .push_rewrite = true },
	{ KPROBE_OP_REG(0xff, 4),	KPROBE_FINISH_JMP, .push_rewrite = true },
};

/**
 * kprobe_insn_matches() - does a decoded instruction belong to a pattern
 * @insn: fully decoded instruction
 * @pat: the pattern
 *
 * Return: true if the legacy-encoded opcode and ModRM fit @pat.
 */
bool kprobe_insn_matches(struct insn *insn,
			 const struct kprobe_insn_pattern *pat)
{
	unsigned int nbytes = pat->esc ? 2 : 1;
	const u8 *op = insn->opcode.bytes;
	u8 modrm = insn->modrm.bytes[0];

	if (insn_is_avx(insn) || insn->opcode.nbytes != nbytes)
		return false;
	if (pat->esc && op[0] != 0x0f)
		return false;
	if ((op[nbytes - 1] & pat->mask) != pat->opcode)
		return false;

	switch (pat->modrm_match) {
	case KPROBE_MODRM_ANY:
		return true;
	case KPROBE_MODRM_REG:
		return insn->modrm.nbytes && X86_MODRM_REG(modrm) == pat->modrm;
	case KPROBE_MODRM_REG_DIRECT:
		return insn->modrm.nbytes && X86_MODRM_MOD(modrm) == 3 &&
		       X86_MODRM_REG(modrm) == pat->modrm;
	case KPROBE_MODRM_EXACT:
		return insn->modrm.nbytes && modrm == pat->modrm;
	}
	return false;
}

static bool kprobe_insn_has_prefix(struct insn *insn, u8 prefix)
{
	insn_byte_t p;
	int i;

	for_each_insn_prefix(insn, i, p)
		if (p == prefix)
			return true;
	return false;
}

static int decode_refuse(struct kprobe_decoded *d, int err, const char *why)
{
	d->reason = why;
	return err;
}

/*
 * Emulated instructions: the branch is computed in C from the original
 * address.  The decoder forces 64-bit operands on near branches even with
 * a 0x66 prefix, which real CPUs disagree about (Intel ignores it, AMD
 * truncates the target): such branches, and loops counting in a register
 * narrower than a long (%ecx on x86-64, %cx on i386), are not worth the
 * rules and are refused.
 */
static int kprobe_decode_emulated(struct insn *insn,
				  const struct kprobe_emulation *em,
				  struct kprobe_decoded *d)
{
	u8 op = insn->opcode.bytes[insn->opcode.nbytes - 1];

	if (kprobe_insn_has_prefix(insn, 0x66) ||
	    insn->addr_bytes != sizeof(long))
		return decode_refuse(d, -EINVAL, "size override on a branch");

	d->ainsn.kind = KPROBE_INSN_EMULATE;
	d->ainsn.emulate = em;
	d->ainsn.cond = op & em->cond_mask;

	switch (em->operand) {
	case KPROBE_OPERAND_REL:
		/* The decoder sign-extends rel8 and rel32. */
		d->ainsn.rel = insn->immediate.value;
		break;
	case KPROBE_OPERAND_IMM16:
		d->ainsn.rel = insn->immediate.value & 0xffff;
		break;
	case KPROBE_OPERAND_RM_REG:
		d->ainsn.cond = X86_MODRM_RM(insn->modrm.bytes[0]);
		if (X86_REX_B(insn->rex_prefix.bytes[0]))
			d->ainsn.cond += 8;
		break;
	}
	return 0;
}

static int kprobe_decode_stepped(struct insn *insn, struct kprobe_decoded *d)
{
	const struct kprobe_step_rule *rule;
	unsigned int i;

	d->ainsn.kind = KPROBE_INSN_STEP;
	if (insn_rip_relative(insn))
		d->rip_disp = insn_offset_displacement(insn);

	for (i = 0; i < ARRAY_SIZE(kprobe_step_rules); i++) {
		rule = &kprobe_step_rules[i];
		if (!kprobe_insn_matches(insn, &rule->pattern))
			continue;
		/* The C work below assumes stack slots of a long. */
		if (kprobe_insn_has_prefix(insn, 0x66))
			return decode_refuse(d, -EINVAL,
					     "16-bit stack operand");
		d->ainsn.finish = rule->finish;
		d->ainsn.if_modifier = rule->if_modifier;
		if (rule->push_rewrite) {
			u8 *modrm = &d->bytes[insn_offset_modrm(insn)];

			*modrm = (*modrm & ~0x38) | (KPROBE_MODRM_REG_PUSH << 3);
		}
		return 0;
	}
	/*
	 * No rule: the copy does by itself all that the original does, so it
	 * may also run with the probed context's IF and jump straight back
	 * (a boosted copy).  The caller still checks what the bytes cannot
	 * tell: exception-table entries, and the reach of the slot.
	 */
	d->ainsn.boostable = true;
	return 0;
}

/**
 * kprobe_decode_insn() - decide how a probed instruction will be run
 * @text: the original bytes at the probe address (other probes' int3s
 *	already replaced by their original bytes)
 * @len: bytes available at @text
 * @d: result; d->reason says why on failure
 *
 * Return: 0, -EBUSY if someone else's int3 is at the address, -EILSEQ if
 * the bytes do not decode, -EINVAL if the instruction cannot be probed.
 */
int kprobe_decode_insn(const u8 *text, unsigned int len,
		       struct kprobe_decoded *d)
{
	const struct kprobe_emulation *em;
	struct insn insn;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	len = min_t(unsigned int, len, MAX_INSN_SIZE);
	if (len && text[0] == INT3_INSN_OPCODE)
		return decode_refuse(d, -EBUSY, "another int3 is already there");
	if (!len || insn_decode(&insn, text, len, INSN_MODE_KERN) < 0)
		return decode_refuse(d, -EILSEQ, "cannot decode the instruction");
	if (insn_has_emulate_prefix(&insn) || insn_is_rex2(&insn))
		return decode_refuse(d, -EINVAL, "unsupported encoding");

	for (i = 0; i < ARRAY_SIZE(kprobe_refusals); i++)
		if (kprobe_insn_matches(&insn, &kprobe_refusals[i].pattern))
			return decode_refuse(d, -EINVAL,
					     kprobe_refusals[i].reason);

	d->ainsn.len = insn.length;
	memcpy(d->bytes, text, insn.length);

	em = kprobe_find_emulation(&insn);
	if (em)
		return kprobe_decode_emulated(&insn, em, d);
	return kprobe_decode_stepped(&insn, d);
}

/**
 * kprobe_relocate_insn() - re-aim a rip-relative operand for another address
 * @d: a stepped instruction from kprobe_decode_insn()
 * @from: where the instruction was decoded (the probe address)
 * @to: where its copy will run (the slot)
 *
 * Return: 0, or -ERANGE if the operand is out of reach of @to.
 */
int kprobe_relocate_insn(struct kprobe_decoded *d, unsigned long from,
			 unsigned long to)
{
	unsigned long target;
	long disp_long;
	s32 disp;

	/* Always 0 on i386, which has no rip-relative addressing. */
	if (!d->rip_disp)
		return 0;

	memcpy(&disp, &d->bytes[d->rip_disp], sizeof(disp));
	/* rip-relative means relative to the end of the instruction. */
	target = from + d->ainsn.len + disp;
	disp_long = (long)(target - (to + d->ainsn.len));
	if (disp_long != (s32)disp_long)
		return decode_refuse(d, -ERANGE,
				     "rip-relative operand out of reach of the slot");

	disp = disp_long;
	memcpy(&d->bytes[d->rip_disp], &disp, sizeof(disp));
	return 0;
}
