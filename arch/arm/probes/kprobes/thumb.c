// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kprobes, Thumb-2 kernels (THUMB2_KERNEL): how a 16- or
 * 32-bit Thumb instruction is probed.  The trap path, the slots' life and
 * arming are core.c's.
 *
 * The breakpoint has the probed instruction's width: KPROBE_THUMB16_HIT
 * over a 16-bit instruction, KPROBE_THUMB32_HIT over a 32-bit one, so
 * that a probe never covers half of its neighbour.  A slot holds the copy
 * and KPROBE_THUMB_STEP_END right after it; the copy runs in Thumb state
 * in the probed context, as on ARM.
 *
 * Simulated here, since the copy would read or write the slot's pc: b,
 * b<cond>, bl, bx, blx (register), cbz/cbnz, tbb/tbh, literal loads, adr
 * and addw/subw from the pc, add/mov with the pc, pop and ldm that load
 * the pc, and mrs (the copy runs with interrupts masked).  IT is
 * simulated too: it only sets the ITSTATE bits of the CPSR.  Most of
 * what would run from a slot is computed in the trap instead
 * (thumb_compute.c), which keeps the slot for the hits it declines.
 *
 * Refused: a probe inside an IT block (the breakpoint would be a
 * conditional UDF, and the copy's step end too), inside a
 * load/store-exclusive sequence, blx to ARM code, and what the shared
 * decoder refuses (mode changes, coprocessor and system instructions,
 * and registers it does not allow).
 */
#include "arm-kprobes.h"

#include <linux/bitops.h>
#include <linux/extable.h>
#include <asm/opcodes.h>
#include <asm/patch.h>
#include <asm/traps.h>
#include <asm-generic/kprobes-slot.h>

#include "../decode-thumb.h"

/* The CPSR's ITSTATE bits: IT[1:0] in 26:25, IT[7:2] in 15:10. */
#define KP_T_IT_LOW_MASK	(3U << 25)
#define KP_T_IT_HIGH_MASK	(0x3fU << 10)
#define KP_T_IT_MASK		(KP_T_IT_LOW_MASK | KP_T_IT_HIGH_MASK)

/* Execution state bits that MRS reads as zero: J, IT, T. */
#define KP_T_MRS_HIDDEN		(KP_T_IT_MASK | PSR_J_BIT | PSR_T_BIT)

/* A load-exclusive is looked for at most this far back. */
#define KP_T_EXCL_RANGE		128

/* ---------------------------------------------------------------------
 * Simulations.  Each runs with regs->ARM_pc already past the probed
 * instruction (core.c's kprobe_simulate()).
 * ---------------------------------------------------------------------
 */

/* The probed instruction's address. */
static nokprobe_inline unsigned long kp_t_addr(struct arch_probes_insn *api,
					       struct pt_regs *regs)
{
	return regs->ARM_pc - kprobe_ai(api)->size;
}

/* What a Thumb instruction reads as the pc: its address + 4. */
static nokprobe_inline unsigned long kp_t_pc(struct arch_probes_insn *api,
					     struct pt_regs *regs)
{
	return kp_t_addr(api, regs) + 4;
}

/* The same, word-aligned, as literal loads and adr use it. */
static nokprobe_inline unsigned long kp_t_pc_aligned(struct arch_probes_insn *api,
						     struct pt_regs *regs)
{
	return ALIGN_DOWN(kp_t_pc(api, regs), 4);
}

/* A branch inside the Thumb instruction set. */
static nokprobe_inline void kp_t_branch(struct pt_regs *regs,
					unsigned long to)
{
	regs->ARM_pc = to & ~1UL;
}

/* b<cond> label (16-bit): 1101 cond imm8 */
static void kp_t16_sim_bcond(probes_opcode_t insn, struct arch_probes_insn *api,
			     struct pt_regs *regs)
{
	probes_check_cc *cond = probes_condition_checks[(insn >> 8) & 0xf];

	if (cond(regs->ARM_cpsr))
		kp_t_branch(regs, kp_t_pc(api, regs) +
				  (sign_extend32(insn & 0xff, 7) << 1));
}

NOKPROBE_SYMBOL(kp_t16_sim_bcond);

/* b label (16-bit): 11100 imm11 */
static void kp_t16_sim_b(probes_opcode_t insn, struct arch_probes_insn *api,
			 struct pt_regs *regs)
{
	kp_t_branch(regs, kp_t_pc(api, regs) +
			  (sign_extend32(insn & 0x7ff, 10) << 1));
}

NOKPROBE_SYMBOL(kp_t16_sim_b);

/* cbz/cbnz Rn, label: 1011 op 0 i 1 imm5 Rn, forward only */
static void kp_t16_sim_cbz(probes_opcode_t insn, struct arch_probes_insn *api,
			   struct pt_regs *regs)
{
	bool zero = !regs->uregs[insn & 7];
	unsigned long off = ((insn >> 3) & 0x1f) << 1 | ((insn >> 9) & 1) << 6;

	if (zero != KP_BIT(insn, 11))
		kp_t_branch(regs, kp_t_pc(api, regs) + off);
}

NOKPROBE_SYMBOL(kp_t16_sim_cbz);

/* bx Rm / blx Rm: 0100 0111 L Rm 000; Rm is not the pc (decoder) */
static void kp_t16_sim_bx(probes_opcode_t insn, struct arch_probes_insn *api,
			  struct pt_regs *regs)
{
	unsigned long to = regs->uregs[(insn >> 3) & 0xf];

	if (KP_BIT(insn, 7))
		regs->ARM_lr = regs->ARM_pc | 1;
	bx_write_pc(to, regs);
}

NOKPROBE_SYMBOL(kp_t16_sim_bx);

/* ldr Rt, [pc, #imm8 * 4]: 0100 1 Rt imm8 */
static void kp_t16_sim_ldr_lit(probes_opcode_t insn,
			       struct arch_probes_insn *api,
			       struct pt_regs *regs)
{
	unsigned long where = kp_t_pc_aligned(api, regs) + (insn & 0xff) * 4;

	regs->uregs[(insn >> 8) & 7] = *(u32 *)where;
}

NOKPROBE_SYMBOL(kp_t16_sim_ldr_lit);

/* adr Rd, label / add Rd, sp, #imm8 * 4: 1010 SP Rd imm8 */
static void kp_t16_sim_adr(probes_opcode_t insn, struct arch_probes_insn *api,
			   struct pt_regs *regs)
{
	unsigned long base = KP_BIT(insn, 11) ? regs->ARM_sp :
						kp_t_pc_aligned(api, regs);

	regs->uregs[(insn >> 8) & 7] = base + (insn & 0xff) * 4;
}

NOKPROBE_SYMBOL(kp_t16_sim_adr);

/*
 * add/mov with a high register (0100 01 op D Rm Rdn) where the pc is a
 * source or the destination; cmp and "add pc, pc" are refused.  Writing
 * the pc this way branches without leaving Thumb state.
 */
static void kp_t16_sim_hireg(probes_opcode_t insn, struct arch_probes_insn *api,
			     struct pt_regs *regs)
{
	unsigned int rm = (insn >> 3) & 0xf, rdn = (insn & 7) | KP_BIT(insn, 7) << 3;
	unsigned long pc = kp_t_pc(api, regs);
	unsigned long m = rm == KP_PC ? pc : regs->uregs[rm];
	unsigned long d = rdn == KP_PC ? pc : regs->uregs[rdn];
	unsigned long v = KP_BIT(insn, 9) ? m : d + m;

	if (rdn == KP_PC)
		kp_t_branch(regs, v);
	else
		regs->uregs[rdn] = v;
}

NOKPROBE_SYMBOL(kp_t16_sim_hireg);

/* it{x{y{z}}} firstcond: the following instructions' conditions. */
static void kp_t16_sim_it(probes_opcode_t insn, struct arch_probes_insn *api,
			  struct pt_regs *regs)
{
	u32 it = insn & 0xff;

	regs->ARM_cpsr = (regs->ARM_cpsr & ~KP_T_IT_MASK) |
			 ((it & 3) << 25) | ((it >> 2) << 10);
}

NOKPROBE_SYMBOL(kp_t16_sim_it);

/* The 25-bit offset of b.w and bl: S, J1, J2, imm10, imm11. */
static nokprobe_inline long kp_t32_branch_off(probes_opcode_t insn)
{
	u32 s = KP_BIT(insn, 26), i1 = !(KP_BIT(insn, 13) ^ s);
	u32 i2 = !(KP_BIT(insn, 11) ^ s);
	u32 off = s << 24 | i1 << 23 | i2 << 22 | ((insn >> 16) & 0x3ff) << 12 |
		  (insn & 0x7ff) << 1;

	return sign_extend32(off, 24);
}

/* b.w label, bl label (blx label is refused before decoding) */
static void kp_t32_sim_b(probes_opcode_t insn, struct arch_probes_insn *api,
			 struct pt_regs *regs)
{
	if (KP_BIT(insn, 14))
		regs->ARM_lr = regs->ARM_pc | 1;
	kp_t_branch(regs, kp_t_pc(api, regs) + kp_t32_branch_off(insn));
}

NOKPROBE_SYMBOL(kp_t32_sim_b);

/* b<cond>.w label: S, cond, imm6, J1, J2, imm11 (21 bits) */
static void kp_t32_sim_bcond(probes_opcode_t insn, struct arch_probes_insn *api,
			     struct pt_regs *regs)
{
	probes_check_cc *cond = probes_condition_checks[(insn >> 22) & 0xf];
	u32 off = KP_BIT(insn, 26) << 20 | KP_BIT(insn, 11) << 19 |
		  KP_BIT(insn, 13) << 18 | ((insn >> 16) & 0x3f) << 12 |
		  (insn & 0x7ff) << 1;

	if (cond(regs->ARM_cpsr))
		kp_t_branch(regs, kp_t_pc(api, regs) + sign_extend32(off, 20));
}

NOKPROBE_SYMBOL(kp_t32_sim_bcond);

/* tbb [Rn, Rm] / tbh [Rn, Rm, lsl #1]: a forward jump table */
static void kp_t32_sim_tb(probes_opcode_t insn, struct arch_probes_insn *api,
			  struct pt_regs *regs)
{
	unsigned int rn = KP_RN(insn);
	unsigned long pc = kp_t_pc(api, regs);
	unsigned long base = rn == KP_PC ? pc : regs->uregs[rn];
	unsigned long idx = regs->uregs[insn & 0xf];
	unsigned long half;

	if (KP_BIT(insn, 4))
		half = *(u16 *)(base + 2 * idx);
	else
		half = *(u8 *)(base + idx);
	kp_t_branch(regs, pc + 2 * half);
}

NOKPROBE_SYMBOL(kp_t32_sim_tb);

/*
 * ldr{b,h,sb,sh}.w Rt, [pc, #+/-imm12]: size in bits 22:21, signed in
 * bit 24; a word loaded into the pc branches, interworking.
 */
static void kp_t32_sim_ldr_lit(probes_opcode_t insn,
			       struct arch_probes_insn *api,
			       struct pt_regs *regs)
{
	unsigned long where = kp_t_pc_aligned(api, regs);
	unsigned int rt = KP_RD(insn);
	bool sign = KP_BIT(insn, 24);
	unsigned long v;

	where = KP_BIT(insn, 23) ? where + (insn & 0xfff) :
				   where - (insn & 0xfff);
	switch ((insn >> 21) & 3) {
	case 0:
		v = sign ? (long)*(s8 *)where : *(u8 *)where;
		break;
	case 1:
		v = sign ? (long)*(s16 *)where : *(u16 *)where;
		break;
	default:
		v = *(u32 *)where;
		break;
	}
	if (rt == KP_PC)
		load_write_pc(v, regs);
	else
		regs->uregs[rt] = v;
}

NOKPROBE_SYMBOL(kp_t32_sim_ldr_lit);

/* addw/subw Rd, pc, #imm12 (adr.w): i:imm3:imm8 */
static void kp_t32_sim_adr(probes_opcode_t insn, struct arch_probes_insn *api,
			   struct pt_regs *regs)
{
	unsigned long imm = KP_BIT(insn, 26) << 11 | ((insn >> 12) & 7) << 8 |
			    (insn & 0xff);
	unsigned long base = kp_t_pc_aligned(api, regs);

	regs->uregs[(insn >> 8) & 0xf] = KP_BIT(insn, 23) ? base - imm :
							   base + imm;
}

NOKPROBE_SYMBOL(kp_t32_sim_adr);

/*
 * mrs Rd, cpsr: the probed context's, not the trap's or the slot's with
 * its interrupts masked.
 */
static void kp_t32_sim_mrs(probes_opcode_t insn, struct arch_probes_insn *api,
			   struct pt_regs *regs)
{
	regs->uregs[(insn >> 8) & 0xf] = regs->ARM_cpsr & ~KP_T_MRS_HIDDEN;
}

NOKPROBE_SYMBOL(kp_t32_sim_mrs);

/* ---------------------------------------------------------------------
 * Deciding how an instruction runs.  The decoder is called without
 * emulation: its "emulate" and custom entries call the .decoder below,
 * its "simulate" entries take .handler, where NULL means that the copy
 * runs from a slot as it is (core.c's prepare sees no simulation).
 * ---------------------------------------------------------------------
 */

/* Runs from a slot: the decoder's register checks excluded the pc. */
static enum probes_insn kp_t_dec_plain(probes_opcode_t insn,
				       struct arch_probes_insn *api,
				       const struct decode_header *h)
{
	return INSN_GOOD;
}

/* Make @api's instruction a simulation by @fn. */
static enum probes_insn kp_t_simulated(struct arch_probes_insn *api,
				       probes_insn_handler_t *fn)
{
	kprobe_ai(api)->simulate = fn;
	return INSN_GOOD_NO_SLOT;
}

static enum probes_insn kp_t_refuse(const char *why)
{
	kprobe_decode_why = why;
	return INSN_REJECTED;
}

static enum probes_insn kp_t16_dec_bcond(probes_opcode_t insn,
					 struct arch_probes_insn *api,
					 const struct decode_header *h)
{
	return kp_t_simulated(api, kp_t16_sim_bcond);
}

/*
 * pop {..., pc}: simulated as the 32-bit ldmia sp!, {...} it stands for.
 * Without the pc it runs from a slot.
 */
static enum probes_insn kp_t16_dec_pop(probes_opcode_t insn,
				       struct arch_probes_insn *api,
				       const struct decode_header *h)
{
	if (!KP_BIT(insn, 8))
		return INSN_GOOD;
	kprobe_ai(api)->insn = 0xe8bd8000 | (insn & 0xff);
	return kp_t_simulated(api, kprobe_sim_ldm_pc);
}

static enum probes_insn kp_t16_dec_it(probes_opcode_t insn,
				      struct arch_probes_insn *api,
				      const struct decode_header *h)
{
	return kp_t_simulated(api, kp_t16_sim_it);
}

/* add, cmp, mov with high registers: simulated when the pc takes part */
static enum probes_insn kp_t16_dec_hireg(probes_opcode_t insn,
					 struct arch_probes_insn *api,
					 const struct decode_header *h)
{
	unsigned int rm = (insn >> 3) & 0xf, rdn = (insn & 7) | KP_BIT(insn, 7) << 3;
	unsigned int op = (insn >> 8) & 3;

	if (rm != KP_PC && rdn != KP_PC)
		return INSN_GOOD;
	if (op == 1)
		return kp_t_refuse("compare with the pc");
	if (rdn == 13)
		return kp_t_refuse("sp computed from the pc");
	return kp_t_simulated(api, kp_t16_sim_hireg);
}

/*
 * ldm.w/stm.w: the decoder refuses an STM of the pc, an LDM of both lr
 * and pc, and sp in the list.  An LDM of the pc is simulated.
 */
static enum probes_insn kp_t32_dec_ldmstm(probes_opcode_t insn,
					  struct arch_probes_insn *api,
					  const struct decode_header *h)
{
	unsigned int list = insn & 0xffff;

	if (!list || (KP_BIT(insn, 21) && (list & BIT(KP_RN(insn)))))
		return kp_t_refuse("ldm/stm with an unpredictable list");
	if (!(list & BIT(KP_PC)))
		return INSN_GOOD;
	return kp_t_simulated(api, kprobe_sim_ldm_pc);
}

/* ldrd/strd: a literal ldrd reads the pc */
static enum probes_insn kp_t32_dec_ldrdstrd(probes_opcode_t insn,
					    struct arch_probes_insn *api,
					    const struct decode_header *h)
{
	if (KP_RN(insn) == KP_PC)
		return kp_t_refuse("ldrd from the pc");
	return INSN_GOOD;
}

/* ldr/str.w: a load into the pc (a pop of the pc alone) is refused */
static enum probes_insn kp_t32_dec_ldrstr(probes_opcode_t insn,
					  struct arch_probes_insn *api,
					  const struct decode_header *h)
{
	if (KP_RD(insn) == KP_PC)
		return kp_t_refuse("load of the pc");
	return INSN_GOOD;
}

static enum probes_insn kp_t32_dec_adr(probes_opcode_t insn,
				       struct arch_probes_insn *api,
				       const struct decode_header *h)
{
	return kp_t_simulated(api, kp_t32_sim_adr);
}

static enum probes_insn kp_t32_dec_bcond(probes_opcode_t insn,
					 struct arch_probes_insn *api,
					 const struct decode_header *h)
{
	return kp_t_simulated(api, kp_t32_sim_bcond);
}

/* What to do with each class of decode-thumb.c's 16-bit table. */
static const union decode_action kp_t16_actions[NUM_PROBES_T16_ACTIONS] = {
	[PROBES_T16_ADD_SP]		= { .handler = NULL },
	[PROBES_T16_CBZ]		= { .handler = kp_t16_sim_cbz },
	[PROBES_T16_SIGN_EXTEND]	= { .decoder = kp_t_dec_plain },
	[PROBES_T16_PUSH]		= { .decoder = kp_t_dec_plain },
	[PROBES_T16_POP]		= { .decoder = kp_t16_dec_pop },
	[PROBES_T16_SEV]		= { .decoder = kp_t_dec_plain },
	[PROBES_T16_WFE]		= { .handler = probes_simulate_nop },
	[PROBES_T16_IT]			= { .decoder = kp_t16_dec_it },
	[PROBES_T16_CMP]		= { .decoder = kp_t_dec_plain },
	[PROBES_T16_ADDSUB]		= { .decoder = kp_t_dec_plain },
	[PROBES_T16_LOGICAL]		= { .decoder = kp_t_dec_plain },
	[PROBES_T16_BLX]		= { .handler = kp_t16_sim_bx },
	[PROBES_T16_HIREGOPS]		= { .decoder = kp_t16_dec_hireg },
	[PROBES_T16_LDR_LIT]		= { .handler = kp_t16_sim_ldr_lit },
	[PROBES_T16_LDRHSTRH]		= { .decoder = kp_t_dec_plain },
	[PROBES_T16_LDRSTR]		= { .handler = NULL },
	[PROBES_T16_ADR]		= { .handler = kp_t16_sim_adr },
	[PROBES_T16_LDMSTM]		= { .decoder = kp_t_dec_plain },
	[PROBES_T16_BRANCH_COND]	= { .decoder = kp_t16_dec_bcond },
	[PROBES_T16_BRANCH]		= { .handler = kp_t16_sim_b },
};

/* ... and of its 32-bit table. */
static const union decode_action kp_t32_actions[NUM_PROBES_T32_ACTIONS] = {
	[PROBES_T32_EMULATE_NONE]	= { .decoder = kp_t_dec_plain },
	[PROBES_T32_SIMULATE_NOP]	= { .handler = probes_simulate_nop },
	[PROBES_T32_LDMSTM]		= { .decoder = kp_t32_dec_ldmstm },
	[PROBES_T32_LDRDSTRD]		= { .decoder = kp_t32_dec_ldrdstrd },
	[PROBES_T32_TABLE_BRANCH]	= { .handler = kp_t32_sim_tb },
	[PROBES_T32_TST]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_CMP]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_MOV]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_ADDSUB]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_LOGICAL]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_ADDWSUBW_PC]	= { .decoder = kp_t32_dec_adr },
	[PROBES_T32_ADDWSUBW]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_MOVW]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_SAT]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_BITFIELD]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_SEV]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_WFE]		= { .handler = probes_simulate_nop },
	[PROBES_T32_MRS]		= { .handler = kp_t32_sim_mrs },
	[PROBES_T32_BRANCH_COND]	= { .decoder = kp_t32_dec_bcond },
	[PROBES_T32_BRANCH]		= { .handler = kp_t32_sim_b },
	[PROBES_T32_PLDI]		= { .handler = probes_simulate_nop },
	[PROBES_T32_LDR_LIT]		= { .handler = kp_t32_sim_ldr_lit },
	[PROBES_T32_LDRSTR]		= { .decoder = kp_t32_dec_ldrstr },
	[PROBES_T32_SIGN_EXTEND]	= { .decoder = kp_t_dec_plain },
	[PROBES_T32_MEDIA]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_REVERSE]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_MUL_ADD]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_MUL_ADD2]		= { .decoder = kp_t_dec_plain },
	[PROBES_T32_MUL_ADD_LONG]	= { .decoder = kp_t_dec_plain },
};

/* ldrex{,b,h,d} and strex{,b,h,d} (32-bit) */
static bool kp_t_is_ldrex(u32 insn)
{
	return (insn & 0xfff00f00) == 0xe8500f00 ||
	       (insn & 0xfff000c0) == 0xe8d00040;
}

static bool kp_t_is_strex(u32 insn)
{
	return (insn & 0xfff00000) == 0xe8400000 ||
	       (insn & 0xfff000c0) == 0xe8c00040;
}

/* Read the (original) instruction at @addr; 0 if unreadable. */
static u32 kp_t_read(unsigned long addr, unsigned int *size)
{
	u16 hw[2];

	*size = 2;
	if (kprobe_copy_original_text(hw, addr, sizeof(hw[0])))
		return 0;
	hw[0] = __mem_to_opcode_thumb16(hw[0]);
	if (!is_wide_instruction(hw[0]))
		return hw[0];
	*size = 4;
	if (kprobe_copy_original_text(&hw[1], addr + 2, sizeof(hw[1])))
		return 0;
	return __opcode_thumb32_compose(hw[0], __mem_to_opcode_thumb16(hw[1]));
}

/* Where @addr stands in its function, from kp_t_walk(). */
struct kp_t_place {
	bool boundary;	/* an instruction starts at @addr */
	bool in_it;	/* an IT instruction made it conditional */
	bool in_excl;	/* after a load-exclusive, before its store */
};

/*
 * Decode the function of @addr from its start up to @addr: Thumb code
 * cannot be read backwards, a halfword may be either an instruction or
 * the second half of one.  Without a symbol nothing is known: @addr is
 * taken as a boundary outside any IT block or exclusive sequence.
 */
static void kp_t_walk(unsigned long addr, struct kp_t_place *pl)
{
	unsigned long size, offset, a, excl = 0;
	unsigned int len, it_left = 0;
	u32 insn;

	*pl = (struct kp_t_place){ .boundary = true };
	if (!kprobe_sym_size_offset(addr, &size, &offset))
		return;
	for (a = addr - offset; a < addr; a += len) {
		insn = kp_t_read(a, &len);
		if (it_left)
			it_left--;
		else if ((insn & 0xff00) == 0xbf00 && (insn & 0xf) && len == 2)
			it_left = 4 - __ffs(insn & 0xf);
		if (len == 4 && kp_t_is_ldrex(insn))
			excl = a;
		else if (len == 4 && kp_t_is_strex(insn))
			excl = 0;
	}
	pl->boundary = a == addr;
	pl->in_it = it_left;
	pl->in_excl = excl && addr - excl <= KP_T_EXCL_RANGE;
}

/**
 * kprobe_isa_decode() - read and decode the Thumb instruction at @p
 * @p: the site being prepared
 * @why: the reason for a refusal
 *
 * @p->opcode keeps the four bytes at @p->addr as they were, whatever the
 * instruction's length: kprobe_copy_original_text() puts them back over
 * the breakpoint.
 *
 * Return: 0 with @p->opcode and @p->ainsn filled, or a negative errno.
 */
int kprobe_isa_decode(struct kprobe_hit_site *p, const char **why)
{
	struct arch_specific_insn *ai = &p->ainsn;
	unsigned long addr = (unsigned long)p->addr;
	struct kp_t_place pl;
	unsigned int size;
	enum probes_insn r;
	u32 insn;
	int ret;

	ret = kprobe_slot_read_text(addr, &p->opcode, sizeof(p->opcode), why);
	if (ret)
		ret = kprobe_slot_read_text(addr, &p->opcode, 2, why);
	if (ret)
		return ret;
	insn = kp_t_read(addr, &size);
	kp_t_walk(addr, &pl);
	if (pl.in_it) {
		*why = "inside an IT block";
		return -EINVAL;
	}
	if (pl.in_excl || kp_t_is_ldrex(insn) || kp_t_is_strex(insn)) {
		*why = "inside a load/store-exclusive sequence";
		return -EINVAL;
	}
	/* blx label: 11110 ... 11x0; bx pc: 0100 0111 0111 1000 */
	if ((size == 4 && (insn & 0xf800d000) == 0xf000c000) ||
	    (size == 2 && insn == 0x4778)) {
		*why = "branch that switches to ARM";
		return -EINVAL;
	}

	ai->insn = insn;
	ai->size = size;
	ai->simulate = NULL;
	ai->compute = NULL;
	ai->api.insn_handler = NULL;
	kprobe_decode_why = NULL;
	if (size == 2)
		r = thumb16_probes_decode_insn(insn, &ai->api, false,
					       kp_t16_actions, NULL);
	else
		r = thumb32_probes_decode_insn(insn, &ai->api, false,
					       kp_t32_actions, NULL);
	ret = kprobe_decoded(ai, r, why);
	/*
	 * What would run from a slot is computed in the trap where
	 * thumb_compute.c can (the slot stays for the hits it declines),
	 * but for an access with a fixup: it faults on purpose, in place.
	 */
	if (!ret && !ai->simulate && !search_exception_tables(addr))
		ai->compute = kprobe_thumb_compute_pick(insn, size);
	return ret;
}

/*
 * The slot writer of kprobe_slot_fill(): each unit is two halfwords, the
 * first in its upper half; written one instruction at a time through
 * the text-patching alias (patch.c knows a 32-bit Thumb instruction by
 * its first halfword).
 */
static int kp_t_write_slot(kprobe_opcode_t *slot, const kprobe_opcode_t *src,
			   unsigned int n)
{
	u16 hw[KPROBE_SLOT_UNITS * 2];
	unsigned int i;

	for (i = 0; i < n; i++) {
		hw[2 * i] = src[i] >> 16;
		hw[2 * i + 1] = src[i];
	}
	for (i = 0; i < 2 * n; i++) {
		u16 *at = (u16 *)slot + i;

		if (is_wide_instruction(hw[i]) && i + 1 < 2 * n) {
			__patch_text(at, __opcode_thumb32_compose(hw[i], hw[i + 1]));
			i++;
		} else {
			__patch_text(at, hw[i]);
		}
	}
	return 0;
}

/* Fill a new slot: the copy, its step end, then breakpoints. */
int kprobe_isa_write_slot(struct kprobe_hit_site *p, const char **why)
{
	struct arch_specific_insn *ai = &p->ainsn;
	kprobe_opcode_t head[2];

	if (ai->size == 4) {
		head[0] = ai->insn;
		head[1] = KPROBE_THUMB_STEP_END << 16 | KPROBE_THUMB16_HIT;
	} else {
		head[0] = ai->insn << 16 | KPROBE_THUMB_STEP_END;
		head[1] = BREAKPOINT_INSTRUCTION;
	}
	return kprobe_slot_fill(p, head, ARRAY_SIZE(head), kp_t_write_slot, why);
}

/*
 * The breakpoint (@arm) or the original instruction at @p, of its width.
 * The original comes from @p->opcode, the text as it was (ainsn.insn may
 * be what a simulation reads instead, e.g. the ldm a pop stands for).
 */
void kprobe_isa_poke(struct kprobe_hit_site *p, bool arm)
{
	const u16 *text = (const u16 *)&p->opcode;
	u32 insn = __mem_to_opcode_thumb16(text[0]);

	if (p->ainsn.size == 4)
		insn = arm ? KPROBE_THUMB32_HIT :
		       __opcode_thumb32_compose(insn, __mem_to_opcode_thumb16(text[1]));
	else if (arm)
		insn = KPROBE_THUMB16_HIT;
	__patch_text(p->addr, insn);
}

NOKPROBE_SYMBOL(kprobe_isa_poke);

/* Is a breakpoint still at @addr? */
bool kprobe_isa_is_hit(unsigned long addr)
{
	u16 first = __mem_to_opcode_thumb16(*(u16 *)addr);

	if (first == KPROBE_THUMB16_HIT)
		return true;
	return first == KPROBE_THUMB32_HIT >> 16 &&
	       __mem_to_opcode_thumb16(*(u16 *)(addr + 2)) ==
	       (KPROBE_THUMB32_HIT & 0xffff);
}

NOKPROBE_SYMBOL(kprobe_isa_is_hit);

/* A Thumb copy leaves nothing to finish. */
void kprobe_isa_step_fixup(struct kprobe_hit_site *p, struct pt_regs *regs)
{
}

NOKPROBE_SYMBOL(kprobe_isa_step_fixup);

/**
 * arch_adjust_kprobe_addr() - the probe address of @addr + @offset
 * @addr: start of a function
 * @offset: offset into it
 * @on_func_entry: set when the result is the function's entry
 *
 * A pointer to a Thumb function has bit 0 set, the instruction set it
 * runs in: callers that probe a function through its pointer pass an
 * odd address.  No Thumb instruction starts at an odd address, so bit 0
 * is dropped here, as the CPU drops it when it branches.
 *
 * Return: the probe address.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	offset &= ~1UL;
	*on_func_entry = !offset;
	return (kprobe_opcode_t *)(addr + offset);
}

/**
 * arch_kprobe_check_insn_boundary() - is an instruction at @addr?
 * @addr: a kernel text address
 * @why: the reason when it is not
 *
 * Halfword-aligned, and not the second half of a 32-bit instruction as
 * far as decoding its function from the start tells.
 *
 * Return: 0, or -EILSEQ.
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	struct kp_t_place pl;
	int ret = kprobe_slot_check_unit(addr, 2, why);

	if (ret)
		return ret;
	kp_t_walk(addr, &pl);
	if (pl.boundary)
		return 0;
	*why = "not at an instruction boundary";
	return -EILSEQ;
}

/*
 * The three UDFs, in SVC mode and the Thumb instruction set only.
 * do_undefinstr() hands a 16-bit instruction over alone, a 32-bit one
 * with its first halfword in the upper half: every mask is the whole.
 */
static struct undef_hook kp_t16_hit_hook = {
	.instr_mask	= 0xffffffff,
	.instr_val	= KPROBE_THUMB16_HIT,
	.cpsr_mask	= PSR_T_BIT | MODE_MASK,
	.cpsr_val	= PSR_T_BIT | SVC_MODE,
	.fn		= kprobe_arm_udf_hit,
};

static struct undef_hook kp_t32_hit_hook = {
	.instr_mask	= 0xffffffff,
	.instr_val	= KPROBE_THUMB32_HIT,
	.cpsr_mask	= PSR_T_BIT | MODE_MASK,
	.cpsr_val	= PSR_T_BIT | SVC_MODE,
	.fn		= kprobe_arm_udf_hit,
};

static struct undef_hook kp_t_step_hook = {
	.instr_mask	= 0xffffffff,
	.instr_val	= KPROBE_THUMB_STEP_END,
	.cpsr_mask	= PSR_T_BIT | MODE_MASK,
	.cpsr_val	= PSR_T_BIT | SVC_MODE,
	.fn		= kprobe_arm_udf_step_end,
};

/* Register the hooks with the undefined-instruction code of traps.c. */
void __init kprobe_isa_init(void)
{
	register_undef_hook(&kp_t16_hit_hook);
	register_undef_hook(&kp_t32_hit_hook);
	register_undef_hook(&kp_t_step_hook);
}
