// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kprobes, the ARM instruction set (kernels without
 * THUMB2_KERNEL): how an ARM instruction is probed.  The trap path, the
 * slots' life and arming are core.c's; this file decides how each
 * instruction runs, simulates the pc-relative forms a copy cannot run,
 * and writes the ARM breakpoints and slots.
 *
 * Refused: instructions that change the processor mode or state,
 * coprocessor accesses but CP15 reads, wait-for-interrupt, and anything
 * between a load-exclusive and its store-exclusive (every exception
 * return clears the exclusive monitor: the store would fail for ever).
 */
#include "arm-kprobes.h"
#include "compute.h"

#include <linux/bitops.h>
#include <linux/extable.h>
#include <asm/opcodes.h>
#include <asm/patch.h>
#include <asm/traps.h>
#include <asm-generic/kprobes-slot.h>

#include "../decode-arm.h"

/* ---------------------------------------------------------------------
 * Simulations of our own: the pc-relative forms the copy cannot run.
 * Each is called with regs->ARM_pc = the probe address + 4, after the
 * instruction's condition passed.
 * ---------------------------------------------------------------------
 */

/* What the instruction at @regs->ARM_pc - 4 reads as the pc. */
static nokprobe_inline unsigned long kprobe_arm_pc_value(struct pt_regs *regs)
{
	return regs->ARM_pc - 4 + 8;
}

/* ldr{b} Rt, [pc, #+/-imm12]: a literal-pool load (Rt is not the pc). */
static void kprobe_sim_ldr_literal(probes_opcode_t insn,
				   struct arch_probes_insn *api,
				   struct pt_regs *regs)
{
	unsigned long where = kprobe_arm_pc_value(regs);
	unsigned long imm = insn & 0xfff;

	where = KP_BIT(insn, 23) ? where + imm : where - imm;
	if (KP_BIT(insn, 22))
		regs->uregs[KP_RD(insn)] = *(u8 *)where;
	else
		regs->uregs[KP_RD(insn)] = *(u32 *)where;
}

NOKPROBE_SYMBOL(kprobe_sim_ldr_literal);

/* add/sub Rd, pc, #imm ("adr"), without flags; Rd is not the pc. */
static void kprobe_sim_adr(probes_opcode_t insn, struct arch_probes_insn *api,
			   struct pt_regs *regs)
{
	unsigned long imm = ror32(insn & 0xff, ((insn >> 8) & 0xf) * 2);
	unsigned long base = kprobe_arm_pc_value(regs);

	/* Opcode 0100 is ADD, 0010 SUB (kprobe_dec_dp_imm() checked). */
	if (((insn >> 21) & 0xf) == 0x4)
		regs->uregs[KP_RD(insn)] = base + imm;
	else
		regs->uregs[KP_RD(insn)] = base - imm;
}

NOKPROBE_SYMBOL(kprobe_sim_adr);

/*
 * An STM that stores the pc stored its slot's address + 8; in place it
 * would have stored the probe's + 8 (an APCS frame's "push {fp, ip, lr,
 * pc}", which the frame-pointer backtrace reads).  The block's highest
 * word is the pc's.
 */
static void kprobe_fix_stm_pc(struct kprobe_hit_site *p, struct pt_regs *regs)
{
	probes_opcode_t insn = p->ainsn.insn;
	unsigned int n = kprobe_list_count(insn & 0xffff);
	unsigned long base = regs->uregs[KP_RN(insn)];
	u32 *pc;

	if (!p->ainsn.api.insn_check_cc(regs->ARM_cpsr))
		return;
	/* Undo the write-back to find the base the copy started from. */
	if (KP_BIT(insn, 21))
		base = KP_BIT(insn, 23) ? base - 4 * n : base + 4 * n;
	pc = (u32 *)(kprobe_ldmstm_start(insn, base, n) + 4 * n - 4);
	*pc = (unsigned long)p->addr + str_pc_offset;
}

NOKPROBE_SYMBOL(kprobe_fix_stm_pc);

/* ---------------------------------------------------------------------
 * Deciding how an instruction runs
 * ---------------------------------------------------------------------
 */

/*
 * Does @insn name the pc in one of the register fields that the decoder
 * entry @h describes?  A nibble of the entry's register spec is non-zero
 * for each field that is a register.
 */
static bool kprobe_uses_pc(probes_opcode_t insn, const struct decode_header *h)
{
	u32 regs = h->type_regs.bits >> DECODE_TYPE_BITS;
	unsigned int shift;

	for (shift = 0; regs; regs >>= 4, shift += 4)
		if ((regs & 0xf) && ((insn >> shift) & 0xf) == KP_PC)
			return true;
	return false;
}

/* Everything that runs from a slot unless it names the pc. */
static enum probes_insn kprobe_dec_plain(probes_opcode_t insn,
					 struct arch_probes_insn *api,
					 const struct decode_header *h)
{
	if (!kprobe_uses_pc(insn, h))
		return INSN_GOOD;
	kprobe_decode_why = "instruction that reads or writes the pc";
	return INSN_REJECTED;
}

/*
 * An instruction the copy could run, computed by the trap instead
 * (arm_compute.c); it keeps its slot for the hits @fn declines.
 */
static enum probes_insn kprobe_computed(struct arch_probes_insn *api,
					kprobe_arm_compute_t *fn)
{
	kprobe_ai(api)->compute = fn;
	return INSN_GOOD;
}

/* mov Rd, Rm: opcode 1101, no S, lsl #0 */
#define KPROBE_ARM_MOV_MASK	0x0fff0ff0
#define KPROBE_ARM_MOV_VAL	0x01a00000

/* Data processing, register forms: computed unless the pc takes part. */
static enum probes_insn kprobe_dec_dp_reg(probes_opcode_t insn,
					  struct arch_probes_insn *api,
					  const struct decode_header *h)
{
	enum probes_insn r = kprobe_dec_plain(insn, api, h);

	if (r != INSN_GOOD)
		return r;
	if ((insn & KPROBE_ARM_MOV_MASK) == KPROBE_ARM_MOV_VAL)
		return kprobe_computed(api, kprobe_arm_compute_mov);
	return kprobe_computed(api, kprobe_arm_compute_dp);
}

/* movw, movt: computed (the decoder refuses Rd = pc). */
static enum probes_insn kprobe_dec_movw(probes_opcode_t insn,
					struct arch_probes_insn *api,
					const struct decode_header *h)
{
	enum probes_insn r = kprobe_dec_plain(insn, api, h);

	return r == INSN_GOOD ? kprobe_computed(api, kprobe_arm_compute_movw) : r;
}

/*
 * ldr, ldrb, str, strb with an immediate offset (bit 25 clear) are
 * computed, but for write-back into Rt (unpredictable).
 */
static enum probes_insn kprobe_ldrstr_computed(probes_opcode_t insn,
					       struct arch_probes_insn *api)
{
	bool wback = !KP_BIT(insn, 24) || KP_BIT(insn, 21);

	if (KP_BIT(insn, 25) || (wback && KP_RN(insn) == KP_RD(insn)))
		return INSN_GOOD;
	return kprobe_computed(api, kprobe_arm_compute_ldrstr);
}

/* str/strb: computed or stepped (kprobe_ldrstr_computed()). */
static enum probes_insn kprobe_dec_store(probes_opcode_t insn,
					 struct arch_probes_insn *api,
					 const struct decode_header *h)
{
	enum probes_insn r = kprobe_dec_plain(insn, api, h);

	return r == INSN_GOOD ? kprobe_ldrstr_computed(insn, api) : r;
}

/* ldr/ldrb: literal loads are simulated, the others as stores. */
static enum probes_insn kprobe_dec_load(probes_opcode_t insn,
					struct arch_probes_insn *api,
					const struct decode_header *h)
{
	if (!kprobe_uses_pc(insn, h))
		return kprobe_ldrstr_computed(insn, api);
	/* [pc, #imm], no write-back, into a register that is not the pc */
	if (KP_RN(insn) == KP_PC && KP_RD(insn) != KP_PC &&
	    !KP_BIT(insn, 25) && KP_BIT(insn, 24) && !KP_BIT(insn, 21)) {
		kprobe_ai(api)->simulate = kprobe_sim_ldr_literal;
		return INSN_GOOD_NO_SLOT;
	}
	kprobe_decode_why = "load of the pc, or pc-relative with a register offset";
	return INSN_REJECTED;
}

/*
 * Data processing, immediate: "adr" (add/sub Rd, pc, #imm) is simulated,
 * what does not name the pc computed.
 */
static enum probes_insn kprobe_dec_dp_imm(probes_opcode_t insn,
					  struct arch_probes_insn *api,
					  const struct decode_header *h)
{
	unsigned int op = (insn >> 21) & 0xf;

	if (!kprobe_uses_pc(insn, h))
		return kprobe_computed(api, kprobe_arm_compute_dp);
	if (KP_RN(insn) == KP_PC && KP_RD(insn) != KP_PC && !KP_BIT(insn, 20) &&
	    (op == 0x4 || op == 0x2)) {
		kprobe_ai(api)->simulate = kprobe_sim_adr;
		return INSN_GOOD_NO_SLOT;
	}
	kprobe_decode_why = "data processing that reads or writes the pc";
	return INSN_REJECTED;
}

/*
 * LDM/STM without the user-register forms (the decoder refuses those):
 * an LDM that loads the pc is simulated, the others computed; an STM
 * that stores the pc, when its computation declines, runs from the slot
 * and gets its stored pc fixed (kprobe_fix_stm_pc()).
 */
static enum probes_insn kprobe_dec_ldmstm(probes_opcode_t insn,
					  struct arch_probes_insn *api,
					  const struct decode_header *h)
{
	unsigned int list = insn & 0xffff, rn = KP_RN(insn);
	bool wback = KP_BIT(insn, 21);

	if (rn == KP_PC || !list || (wback && (list & BIT(rn)))) {
		kprobe_decode_why = "ldm/stm on the pc, or with an unpredictable list";
		return INSN_REJECTED;
	}
	if (!(list & BIT(KP_PC)))
		return kprobe_computed(api, kprobe_arm_compute_ldmstm);
	if (KP_BIT(insn, 20)) {
		kprobe_ai(api)->simulate = kprobe_sim_ldm_pc;
		return INSN_GOOD_NO_SLOT;
	}
	kprobe_ai(api)->stm_pc = true;
	return kprobe_computed(api, kprobe_arm_compute_ldmstm);
}

/*
 * What to do with each class of decode-arm.c's table: .handler for its
 * DECODE_SIMULATE entries (the shared simulations), .decoder for the
 * others.  The ones refused before the table is consulted
 * (kprobe_decode()) still need an entry: blx #imm, wfe/wfi.
 */
static const union decode_action kprobe_arm_actions[NUM_PROBES_ARM_ACTIONS] = {
	[PROBES_PRELOAD_IMM]		= { .handler = probes_simulate_nop },
	[PROBES_PRELOAD_REG]		= { .handler = probes_simulate_nop },
	[PROBES_BRANCH_IMM]		= { .handler = simulate_blx1 },
	[PROBES_BRANCH_REG]		= { .handler = simulate_blx2bx },
	[PROBES_MRS]			= { .handler = simulate_mrs },
	[PROBES_CLZ]			= { .decoder = kprobe_dec_plain },
	[PROBES_SATURATING_ARITHMETIC]	= { .decoder = kprobe_dec_plain },
	[PROBES_MUL1]			= { .decoder = kprobe_dec_plain },
	[PROBES_MUL2]			= { .decoder = kprobe_dec_plain },
	[PROBES_SWP]			= { .decoder = kprobe_dec_plain },
	[PROBES_LDRSTRD]		= { .decoder = kprobe_dec_plain },
	[PROBES_LOAD]			= { .decoder = kprobe_dec_load },
	[PROBES_STORE]			= { .decoder = kprobe_dec_store },
	[PROBES_LOAD_EXTRA]		= { .decoder = kprobe_dec_plain },
	[PROBES_STORE_EXTRA]		= { .decoder = kprobe_dec_plain },
	[PROBES_MOV_IP_SP]		= { .handler = simulate_mov_ipsp },
	[PROBES_DATA_PROCESSING_REG]	= { .decoder = kprobe_dec_dp_reg },
	[PROBES_DATA_PROCESSING_IMM]	= { .decoder = kprobe_dec_dp_imm },
	[PROBES_MOV_HALFWORD]		= { .decoder = kprobe_dec_movw },
	[PROBES_SEV]			= { .decoder = kprobe_dec_plain },
	[PROBES_WFE]			= { .handler = probes_simulate_nop },
	[PROBES_SATURATE]		= { .decoder = kprobe_dec_plain },
	[PROBES_REV]			= { .decoder = kprobe_dec_plain },
	[PROBES_MMI]			= { .decoder = kprobe_dec_plain },
	[PROBES_PACK]			= { .decoder = kprobe_dec_plain },
	[PROBES_EXTEND]			= { .decoder = kprobe_dec_plain },
	[PROBES_EXTEND_ADD]		= { .decoder = kprobe_dec_plain },
	[PROBES_MUL_ADD_LONG]		= { .decoder = kprobe_dec_plain },
	[PROBES_MUL_ADD]		= { .decoder = kprobe_dec_plain },
	[PROBES_BITFIELD]		= { .decoder = kprobe_dec_plain },
	[PROBES_BRANCH]			= { .handler = simulate_bbl },
	[PROBES_LDMSTM]			= { .decoder = kprobe_dec_ldmstm },
};

/* ldrex{,b,h,d} and strex{,b,h,d} */
static bool kprobe_insn_is_ldrex(u32 insn)
{
	return (insn & 0x0f900fff) == 0x01900f9f;
}

static bool kprobe_insn_is_strex(u32 insn)
{
	return (insn & 0x0f900ff0) == 0x01800f90;
}

/*
 * How far back an exclusive sequence is looked for: ARM recommends at
 * most 128 bytes between a load-exclusive and its store-exclusive.
 */
#define KPROBE_EXCL_LOOKBACK	(128 / KPROBE_ARM_INSN_SIZE)

/*
 * Is @addr after a load-exclusive and before or at its store-exclusive?
 * Looks back from @addr, inside its function, for the nearest exclusive
 * access of either kind.
 */
static bool kprobe_in_exclusive(unsigned long addr)
{
	u32 text[KPROBE_EXCL_LOOKBACK];
	unsigned long size, offset;
	unsigned int n, i;

	if (!kprobe_sym_size_offset(addr, &size, &offset))
		return false;
	n = min_t(unsigned long, offset / KPROBE_ARM_INSN_SIZE,
		  KPROBE_EXCL_LOOKBACK);
	if (!n)
		return false;
	if (kprobe_copy_original_text(text, addr - n * KPROBE_ARM_INSN_SIZE,
				      n * KPROBE_ARM_INSN_SIZE))
		return false;
	for (i = n; i-- > 0;) {
		u32 insn = __mem_to_opcode_arm(text[i]);

		if (kprobe_insn_is_strex(insn))
			return false;
		if (kprobe_insn_is_ldrex(insn))
			return true;
	}
	return false;
}

/*
 * mrc p15: reading a CP15 register (the thread and per-CPU pointers
 * TPIDRPRW/TPIDRURO, MPIDR, the cache type...) depends on registers alone;
 * the decoder refuses every coprocessor instruction.
 */
static bool kprobe_insn_is_cp15_read(u32 insn)
{
	return (insn >> 28) != 0xf && (insn & 0x0f100f10) == 0x0e100f10 &&
	       KP_RD(insn) != KP_PC;
}

/*
 * Fill @ai for the instruction @insn at @addr: a simulation, or nothing
 * (the caller gives it a slot).
 * Return: 0, or -EINVAL with *@why set.
 */
static int kprobe_decode(unsigned long addr, u32 insn,
			 struct arch_specific_insn *ai, const char **why)
{
	int ret;

	ai->insn = insn;
	ai->compute = NULL;
	ai->api.insn_check_cc = probes_condition_checks[insn >> 28];
	if (kprobe_in_exclusive(addr) || kprobe_insn_is_strex(insn) ||
	    kprobe_insn_is_ldrex(insn)) {
		*why = "inside a load/store-exclusive sequence";
		return -EINVAL;
	}
	if ((insn & 0xfe000000) == 0xfa000000) {
		*why = "blx #imm switches to Thumb";
		return -EINVAL;
	}
	if ((insn & 0x0ffffffe) == 0x0320f002) {
		*why = "wait for event or interrupt";
		return -EINVAL;
	}
	if (kprobe_insn_is_cp15_read(insn))
		return 0;

	kprobe_decode_why = NULL;
	ret = kprobe_decoded(ai, arm_probes_decode_insn(insn, &ai->api, false,
							kprobe_arm_actions,
							NULL), why);
	/*
	 * An access with a fixup (uaccess, nofault reads) faults on purpose:
	 * its copy does it in place, where the exception table finds it.
	 */
	if (!ret && ai->compute && search_exception_tables(addr))
		ai->compute = NULL;
	return ret;
}

/**
 * kprobe_isa_decode() - read and decode the ARM instruction at @p
 * @p: the site being prepared
 * @why: the reason for a refusal
 *
 * Return: 0 with @p->opcode and @p->ainsn filled, or a negative errno.
 */
int kprobe_isa_decode(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	u32 text;
	int ret;

	ret = kprobe_slot_read_text(addr, &text, sizeof(text), why);
	if (ret)
		return ret;
	p->ainsn.size = KPROBE_ARM_INSN_SIZE;
	ret = kprobe_decode(addr, __mem_to_opcode_arm(text), &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = p->ainsn.insn;
	return 0;
}

/*
 * The slot writer of kprobe_slot_fill(): each word through the
 * text-patching alias, caches made coherent.
 */
static int kprobe_arm_write_slot(kprobe_opcode_t *slot,
				 const kprobe_opcode_t *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		__patch_text(slot + i, src[i]);
	return 0;
}

/* Fill a new slot: the copy, its step end, then breakpoints. */
int kprobe_isa_write_slot(struct kprobe_hit_site *p, const char **why)
{
	const kprobe_opcode_t head[] = { p->ainsn.insn, KPROBE_ARM_STEP_END };

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head),
				kprobe_arm_write_slot, why);
}

/* The breakpoint (@arm) or the original instruction at @p. */
void kprobe_isa_poke(struct kprobe_hit_site *p, bool arm)
{
	__patch_text(p->addr, arm ? BREAKPOINT_INSTRUCTION : p->opcode);
}

NOKPROBE_SYMBOL(kprobe_isa_poke);

/* Is the breakpoint still at @addr? */
bool kprobe_isa_is_hit(unsigned long addr)
{
	return __mem_to_opcode_arm(*(u32 *)addr) == BREAKPOINT_INSTRUCTION;
}

NOKPROBE_SYMBOL(kprobe_isa_is_hit);

/* What a step leaves to do: the stored pc of an STM. */
void kprobe_isa_step_fixup(struct kprobe_hit_site *p, struct pt_regs *regs)
{
	if (p->ainsn.stm_pc)
		kprobe_fix_stm_pc(p, regs);
}

NOKPROBE_SYMBOL(kprobe_isa_step_fixup);

/* Every ARM instruction is one aligned word. */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, KPROBE_ARM_INSN_SIZE, why);
}

/* The two UDFs, in SVC mode and the ARM instruction set only. */
static struct undef_hook kprobe_arm_hit_hook = {
	.instr_mask	= 0xffffffff,
	.instr_val	= BREAKPOINT_INSTRUCTION,
	.cpsr_mask	= PSR_T_BIT | MODE_MASK,
	.cpsr_val	= SVC_MODE,
	.fn		= kprobe_arm_udf_hit,
};

static struct undef_hook kprobe_arm_step_hook = {
	.instr_mask	= 0xffffffff,
	.instr_val	= KPROBE_ARM_STEP_END,
	.cpsr_mask	= PSR_T_BIT | MODE_MASK,
	.cpsr_val	= SVC_MODE,
	.fn		= kprobe_arm_udf_step_end,
};

/* Register the hooks with the undefined-instruction code of traps.c. */
void __init kprobe_isa_init(void)
{
	register_undef_hook(&kprobe_arm_hit_hook);
	register_undef_hook(&kprobe_arm_step_hook);
}
