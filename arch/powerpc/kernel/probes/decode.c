// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: which instructions can be probed, and how a hit runs
 * them (see <asm/kprobes.h>).  Everything is decided from the encoding;
 * arch/powerpc/lib/sstep.c, which does the emulation, is asked whether it
 * knows an instruction that may only be emulated.
 */
#include "ppc-kprobes.h"

#include <asm/ppc-opcode.h>
#include <asm/reg.h>
#include <asm/sstep.h>

/* The extended opcode of X/XL/XFX-form instructions (bits 21-30). */
static __always_inline u32 kprobe_xo(u32 word)
{
	return (word >> 1) & 0x3ff;
}

/* The SPR number of mfspr/mtspr, whose two halves are swapped. */
static u32 kprobe_spr(u32 word)
{
	return ((word >> 16) & 0x1f) | (((word >> 11) & 0x1f) << 5);
}

/* lbarx, lharx, lwarx, ldarx, lqarx: the start of a reservation. */
bool kprobe_insn_is_larx(u32 word)
{
	u32 xo = kprobe_xo(word);

	return word >> 26 == OP_31 &&
	       (xo == 52 || xo == 116 || xo == 20 || xo == 84 || xo == 276);
}

/* stbcx., sthcx., stwcx., stdcx., stqcx.: its end. */
bool kprobe_insn_is_stcx(u32 word)
{
	u32 xo = kprobe_xo(word);

	return word >> 26 == OP_31 && (word & 1) &&
	       (xo == 694 || xo == 726 || xo == 150 || xo == 214 || xo == 182);
}

/* Reads or writes a register that the probe's own exception overwrites. */
static bool kprobe_insn_uses_srr(u32 word)
{
	u32 xo = kprobe_xo(word), spr;

	if (word >> 26 != OP_31 || (xo != 339 && xo != 467))	/* mfspr, mtspr */
		return false;
	spr = kprobe_spr(word);
	return spr == SPRN_SRR0 || spr == SPRN_SRR1 ||
	       spr == SPRN_HSRR0 || spr == SPRN_HSRR1;
}

/* tw, twi, td, tdi: BUG(), WARN(), a debugger's or a probe's trap. */
bool kprobe_insn_is_trap(u32 word)
{
	u32 op = word >> 26, xo = kprobe_xo(word);

	return op == OP_TRAP || op == OP_TRAP_64 ||
	       (op == OP_31 && (xo == 4 || xo == 68));
}

NOKPROBE_SYMBOL(kprobe_insn_is_trap);

/* Why the instruction can run neither emulated nor out of line, or NULL. */
static const char *kprobe_insn_refused(u32 word, u32 suffix)
{
	u32 op = word >> 26, xo = kprobe_xo(word);

	if (kprobe_insn_is_trap(word))
		return "a trap instruction (BUG(), WARN() or another probe)";
	if (op == OP_SC)
		return "a system call instruction";
	/*
	 * rfi (xo 50) is the 32-bit return from an interrupt; BookE's
	 * critical, machine check, debug and guest levels return with rfci
	 * (51), rfmci (38), rfdi (39) and rfgi (102).  None of them reaches
	 * the trap that ends a step.
	 */
	if (IS_RFID(ppc_inst(word)) || IS_MTMSRD(ppc_inst(word)) ||
	    (op == 19 && (xo == 38 || xo == 39 || xo == 50 || xo == 51 ||
			  xo == 82 || xo == 102 || xo == 274 || xo == 306 ||
			  xo == 370)))
		return "changes the MSR or returns from an interrupt";
	if (kprobe_insn_uses_srr(word))
		return "uses SRR0/SRR1, which the probe's exception overwrites";
	if (kprobe_insn_is_larx(word) || kprobe_insn_is_stcx(word))
		return "a larx/stcx. reservation, which an exception breaks";
	/* Prefixed load/store and addi forms with R=1 read their address. */
	if (op == OP_PREFIX && ((word >> 20) & 1))
		return "a pc-relative prefixed instruction";
	return NULL;
}

/*
 * mfmsr, and on 32-bit mtmsr, which is how local_irq_restore() writes
 * MSR_EE there: emulate only (see kprobe_decode_insn()).
 */
static bool kprobe_insn_is_msr(u32 word)
{
	u32 xo = kprobe_xo(word);

	return word >> 26 == OP_31 &&
	       (xo == 83 || (IS_ENABLED(CONFIG_PPC32) && xo == 146));
}

/* Does the result depend on where the instruction is (so: emulate only)? */
static bool kprobe_insn_reads_pc(u32 word)
{
	u32 op = word >> 26, xo = kprobe_xo(word);

	if (op == 16 || op == 18)			/* bc, b */
		return true;
	if (op == 19 && (xo == 16 || xo == 528 || xo == 560))	/* bclr, bcctr, bctar */
		return true;
	return op == 19 && (xo & 0x1f) == 2;		/* addpcis */
}

/**
 * kprobe_decode_insn() - decide how hits run an instruction
 * @word: its first (or only) word
 * @suffix: its second word if it is prefixed
 * @d: filled in
 *
 * mfmsr and the 32-bit mtmsr are emulated too: the library knows them,
 * and an emulated instruction costs no second trap.
 *
 * Return: 0, or -EILSEQ with @d->reason set.
 */
int kprobe_decode_insn(u32 word, u32 suffix, struct kprobe_decoded *d)
{
	bool prefixed = IS_ENABLED(CONFIG_PPC64) && word >> 26 == OP_PREFIX;
	struct instruction_op op;
	struct pt_regs regs = {};
	ppc_inst_t inst;
	int type;

	memset(d, 0, sizeof(*d));
	d->reason = kprobe_insn_refused(word, suffix);
	if (d->reason)
		return -EILSEQ;

	d->ainsn.insn = word;
	d->ainsn.suffix = prefixed ? suffix : 0;
	d->ainsn.len = prefixed ? 8 : 4;
	inst = kprobe_ppc_inst(&d->ainsn);
	if (!kprobe_insn_reads_pc(word) && !kprobe_insn_is_msr(word)) {
		d->ainsn.kind = KPROBE_INSN_STEP;
		if (!prefixed)
			kprobe_ppc_compute_decode(word, &d->ainsn);
		return 0;
	}

	/* Emulated on every hit: the library must know it. */
	regs.msr = MSR_KERNEL;
	type = analyse_instr(&op, &regs, inst) < 0 ? UNKNOWN :
	       GETTYPE(op.type);
	if (type != BRANCH && type != COMPUTE && type != MFMSR &&
	    type != MTMSR) {
		d->reason = "reads its own address, and cannot be emulated";
		return -EILSEQ;
	}
	d->ainsn.kind = KPROBE_INSN_EMULATE;
	return 0;
}
