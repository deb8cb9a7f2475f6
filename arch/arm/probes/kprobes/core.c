// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kprobes (ARM-mode kernels): the architecture half of the
 * kprobes contract.
 *
 * Preparing a probe decides how its instruction runs: computed in C by
 * the trap (a "simulation"), or copied into an instruction slot followed
 * by a second undefined instruction.  Arming writes BREAKPOINT_INSTRUCTION
 * over the instruction.  A hit then goes:
 *
 *   1. do_undefinstr() finds our hook for the probe's UDF and calls
 *      kprobe_arm_udf_hit() with the pc at the probe address and
 *      interrupts masked; it finds the site and runs the pre handler
 *      (state HANDLER);
 *   2. the instruction is simulated, or the CPU is sent to the slot with
 *      the I and F bits set in the CPSR it returns with (state STEPPING);
 *   3. the slot's KPROBE_ARM_STEP_END traps: kprobe_arm_udf_step_end()
 *      sets the pc after the probed instruction, gives the context its
 *      interrupt mask back and runs the post handler (state POST);
 *   4. state IDLE; execution goes on after the probed instruction.
 *
 * The copy runs in the probed context itself (its registers, its stack,
 * its flags): a conditional instruction tests its condition there, and a
 * store below sp writes where it would have in place.  What a copy cannot
 * do is read or write the pc: those instructions are simulated (branches,
 * bx/blx, literal loads, adr, ldm with the pc in the list, mrs, mov ip,
 * sp) or refused.  Also refused: instructions that change the processor
 * mode or state, coprocessor accesses but CP15 reads, wait-for-interrupt,
 * and anything between a load-exclusive and its store-exclusive (every
 * exception return clears the exclusive monitor: the store would fail for
 * ever).
 */
#include "arm-kprobes.h"

#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/execmem.h>
#include <linux/kdebug.h>
#include <linux/memory.h>
#include <linux/stop_machine.h>
#include <asm/cacheflush.h>
#include <asm/opcodes.h>
#include <asm/patch.h>
#include <asm/sections.h>
#include <asm/switch_to.h>
#include <asm/traps.h>
#include <asm-generic/kprobes-slot.h>

#include "../decode-arm.h"

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* The CPSR bits that mask interrupts while a copy runs. */
#define KPROBE_ARM_IRQ_BITS	(PSR_I_BIT | PSR_F_BIT)

/* Fields of an ARM instruction. */
#define KP_RN(insn)		(((insn) >> 16) & 0xf)
#define KP_RD(insn)		(((insn) >> 12) & 0xf)
#define KP_PC			15
#define KP_BIT(insn, n)		(((insn) >> (n)) & 1)

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
 * The lowest address an LDM/STM with base value @base transfers, for
 * @n registers.
 */
static nokprobe_inline unsigned long kprobe_ldmstm_start(probes_opcode_t insn,
							 unsigned long base,
							 unsigned int n)
{
	bool up = KP_BIT(insn, 23), pre = KP_BIT(insn, 24);

	if (up)
		return pre ? base + 4 : base;
	return pre ? base - 4 * n : base - 4 * n + 4;
}

/*
 * ldm Rn{!}, {..., pc}: a function's return.  Loads every listed register
 * from the stack (kernel memory, as in place), writes Rn back when asked
 * (Rn itself is not in a list with write-back, kprobe_dec_ldmstm()) and
 * branches to the loaded pc, interworking as ARMv7's LDM does.
 */
static void kprobe_sim_ldm_pc(probes_opcode_t insn,
			      struct arch_probes_insn *api,
			      struct pt_regs *regs)
{
	unsigned int list = insn & 0xffff, n = hweight16(list), rn = KP_RN(insn);
	unsigned long base = regs->uregs[rn];
	u32 *from = (u32 *)kprobe_ldmstm_start(insn, base, n);
	unsigned long pc = 0;
	unsigned int r;

	for (r = 0; r < 16; r++) {
		if (!(list & BIT(r)))
			continue;
		if (r == KP_PC)
			pc = *from;
		else
			regs->uregs[r] = *from;
		from++;
	}
	if (KP_BIT(insn, 21))
		regs->uregs[rn] = KP_BIT(insn, 23) ? base + 4 * n : base - 4 * n;
	load_write_pc(pc, regs);
}

NOKPROBE_SYMBOL(kprobe_sim_ldm_pc);

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/*
 * Send the CPU to @p's slot.  The exception return loads the CPSR from
 * regs->ARM_cpsr: with I and F set there, nothing but the copy's own
 * exceptions runs until the slot's step end, so the task neither
 * migrates nor gets preempted while this CPU's state points at the slot.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	kcb->site = p;
	kcb->saved_irq = regs->ARM_cpsr & KPROBE_ARM_IRQ_BITS;
	regs->ARM_cpsr |= KPROBE_ARM_IRQ_BITS;
	regs->ARM_pc = (unsigned long)p->ainsn.slot;
}

/* Give the probed context its interrupt mask back. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb)
{
	regs->ARM_cpsr = (regs->ARM_cpsr & ~KPROBE_ARM_IRQ_BITS) |
			 kcb->saved_irq;
}

/*
 * Compute @p's instruction here when it is simulated: a condition that
 * fails makes it a no-op, as in place.
 */
static nokprobe_inline bool kprobe_simulate(struct kprobe_hit_site *p,
					    struct pt_regs *regs)
{
	struct arch_specific_insn *ai = &p->ainsn;

	if (!ai->simulate)
		return false;
	regs->ARM_pc = (unsigned long)p->addr + KPROBE_ARM_INSN_SIZE;
	if (ai->api.insn_check_cc(regs->ARM_cpsr))
		ai->simulate(ai->insn, &ai->api, regs);
	return true;
}

/* A hit on an idle CPU: the handlers run. */
static nokprobe_inline void kprobe_hit(struct kprobe_hit_site *p,
				       struct pt_regs *regs,
				       struct kprobe_ctlblk *kcb)
{
	if (kprobe_step_hit_pre(p, regs, kcb))
		return;		/* a handler moved the pc: nothing else runs */

	if (kprobe_simulate(p, regs)) {
		kprobe_step_done(p, regs, kcb, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs, kcb);
	kprobe_move_state(kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

/*
 * A hit while this CPU is already busy with a probe: from a handler, from
 * a busy section, or from the fault path of a copy.  The handlers do not
 * run (the hit counts as missed), but the probed instruction must.
 */
static void kprobe_reenter(struct kprobe_hit_site *p, struct pt_regs *regs,
			   struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);

	/* A simulation completes right here: there is nothing to save. */
	if (kprobe_simulate(p, regs))
		return;
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_reenter);

/**
 * kprobe_arm_udf_hit() - the probe's undefined instruction
 * @regs: registers at the trap; the pc is the probe's address
 * @instr: the instruction, BREAKPOINT_INSTRUCTION (the hook's match)
 *
 * Called by do_undefinstr() through call_undef_hook(), in SVC mode with
 * interrupts masked (the exception masked them, nothing unmasks them).
 *
 * Return: 0 with @regs saying where to resume, or 1 for a UDF that is
 * not a probe's (do_undefinstr() then oopses).
 */
int kprobe_arm_udf_hit(struct pt_regs *regs, unsigned int instr)
{
	unsigned long addr = instruction_pointer(regs);
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p = kprobe_hit_find(addr);

	if (p) {
		if (kprobe_running())
			kprobe_reenter(p, regs, kcb);
		else
			kprobe_hit(p, regs, kcb);
		return 0;
	}

	/*
	 * Not a live probe.  A probe disarmed after this CPU fetched its
	 * UDF has its instruction back: run it.
	 */
	if (__mem_to_opcode_arm(*(u32 *)addr) != BREAKPOINT_INSTRUCTION)
		return 0;
	return 1;
}

NOKPROBE_SYMBOL(kprobe_arm_udf_hit);

/*
 * An STM that stores the pc stored its slot's address + 8; in place it
 * would have stored the probe's + 8 (an APCS frame's "push {fp, ip, lr,
 * pc}", which the frame-pointer backtrace reads).  The block's highest
 * word is the pc's.
 */
static void kprobe_fix_stm_pc(struct kprobe_hit_site *p, struct pt_regs *regs)
{
	probes_opcode_t insn = p->ainsn.insn;
	unsigned int n = hweight16(insn & 0xffff);
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

/*
 * The end of a step that has more to do than kprobe_arm_udf_step_end()
 * does inline: a post handler to run, or the state a re-entered hit
 * interrupted to restore.
 */
static noinline void kprobe_step_end(struct kprobe_hit_site *p,
				     struct pt_regs *regs,
				     struct kprobe_ctlblk *kcb)
{
	kprobe_step_done(p, regs, kcb, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_step_end);

/**
 * kprobe_arm_udf_step_end() - the undefined instruction after a copy
 * @regs: registers at the trap
 * @instr: KPROBE_ARM_STEP_END
 *
 * Return: 0 if it was the end of the step this CPU is doing (the pc is
 * then after the probed instruction), else 1.
 */
int kprobe_arm_udf_step_end(struct pt_regs *regs, unsigned int instr)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_hit_site *p;

	if (!kprobe_running())
		return 1;
	kcb = get_kprobe_ctlblk();
	p = kprobe_slot_stepped(kcb, instruction_pointer(regs),
				KPROBE_ARM_INSN_SIZE);
	if (!p)
		return 1;

	if (p->ainsn.stm_pc)
		kprobe_fix_stm_pc(p, regs);
	regs->ARM_pc = (unsigned long)p->addr + KPROBE_ARM_INSN_SIZE;
	kprobe_end_step(regs, kcb);
	if (kcb->state == KPROBE_CPU_STEPPING && !READ_ONCE(p->post)) {
		kprobe_store_state(kcb, KPROBE_CPU_STEPPING, KPROBE_CPU_IDLE);
		reset_current_kprobe();
		return 0;
	}
	kprobe_step_end(p, regs, kcb);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_arm_udf_step_end);

/**
 * kprobe_fault_handler() - a fault while this CPU runs a probe
 * @regs: registers at the fault
 * @fsr: the fault status
 *
 * Called through kprobe_page_fault() by do_page_fault() and
 * __do_kernel_fault() (patched in: faults at kernel addresses take only
 * the second).  A fault of the copy in the slot is made a fault of the
 * original: the CPU is put back at the probe address with its interrupt
 * mask, and the state the hit interrupted is restored, so that the
 * exception table finds the instruction's fixup (uaccess, nofault
 * reads), a retry hits the probe again, or the oops shows the real
 * address.  Faults in handlers are left to the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault, now at the probe
 * address.
 */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int fsr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p;

	/* Not the copy itself, e.g. a fault of this very fault path. */
	p = kprobe_slot_stepped(kcb, instruction_pointer(regs), 0);
	if (!p)
		return 0;

	regs->ARM_pc = (unsigned long)p->addr;
	kprobe_end_step(regs, kcb);
	kprobe_step_abandon(kcb);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/* ---------------------------------------------------------------------
 * Deciding how an instruction runs
 * ---------------------------------------------------------------------
 */

/*
 * Why the shared decoder's last call refused, for the core's refusal
 * line.  Written and read under the registration lock only.
 */
static const char *kprobe_decode_why;

/* The slot's arch_specific_insn around the decoder's @api. */
static struct arch_specific_insn *kprobe_ai(struct arch_probes_insn *api)
{
	return container_of(api, struct arch_specific_insn, api);
}

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

/* ldr/ldrb: literal loads are simulated. */
static enum probes_insn kprobe_dec_load(probes_opcode_t insn,
					struct arch_probes_insn *api,
					const struct decode_header *h)
{
	if (!kprobe_uses_pc(insn, h))
		return INSN_GOOD;
	/* [pc, #imm], no write-back, into a register that is not the pc */
	if (KP_RN(insn) == KP_PC && KP_RD(insn) != KP_PC &&
	    !KP_BIT(insn, 25) && KP_BIT(insn, 24) && !KP_BIT(insn, 21)) {
		kprobe_ai(api)->simulate = kprobe_sim_ldr_literal;
		return INSN_GOOD_NO_SLOT;
	}
	kprobe_decode_why = "load of the pc, or pc-relative with a register offset";
	return INSN_REJECTED;
}

/* Data processing, immediate: "adr" (add/sub Rd, pc, #imm) is simulated. */
static enum probes_insn kprobe_dec_dp_imm(probes_opcode_t insn,
					  struct arch_probes_insn *api,
					  const struct decode_header *h)
{
	unsigned int op = (insn >> 21) & 0xf;

	if (!kprobe_uses_pc(insn, h))
		return INSN_GOOD;
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
 * an LDM that loads the pc is simulated, an STM that stores it runs from
 * the slot and gets its stored pc fixed (kprobe_fix_stm_pc()).
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
		return INSN_GOOD;
	if (KP_BIT(insn, 20)) {
		kprobe_ai(api)->simulate = kprobe_sim_ldm_pc;
		return INSN_GOOD_NO_SLOT;
	}
	kprobe_ai(api)->stm_pc = true;
	return INSN_GOOD;
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
	[PROBES_STORE]			= { .decoder = kprobe_dec_plain },
	[PROBES_LOAD_EXTRA]		= { .decoder = kprobe_dec_plain },
	[PROBES_STORE_EXTRA]		= { .decoder = kprobe_dec_plain },
	[PROBES_MOV_IP_SP]		= { .handler = simulate_mov_ipsp },
	[PROBES_DATA_PROCESSING_REG]	= { .decoder = kprobe_dec_plain },
	[PROBES_DATA_PROCESSING_IMM]	= { .decoder = kprobe_dec_dp_imm },
	[PROBES_MOV_HALFWORD]		= { .decoder = kprobe_dec_plain },
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
	ai->insn = insn;
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
	switch (arm_probes_decode_insn(insn, &ai->api, false,
				       kprobe_arm_actions, NULL)) {
	case INSN_GOOD:
		return 0;
	case INSN_GOOD_NO_SLOT:
		if (!ai->simulate)
			ai->simulate = ai->api.insn_handler;
		return 0;
	default:
		*why = kprobe_decode_why ?:
		       "mode change, coprocessor, system or unknown instruction";
		return -EINVAL;
	}
}

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/**
 * alloc_insn_page() - a page for instruction slots, full of breakpoints
 *
 * The core's page (module space, read-only and executable; slots are
 * written through patch.c's fixmap, as module text is), with the
 * instruction cache made coherent with the breakpoints just written: the
 * page may have held code before.
 *
 * Return: the page, or NULL.
 */
void *alloc_insn_page(void)
{
	void *page = kprobe_trap_page_alloc(EXECMEM_KPROBES);

	if (page)
		flush_icache_range((unsigned long)page,
				   (unsigned long)page + PAGE_SIZE);
	return page;
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
static int kprobe_write_slot(struct kprobe_hit_site *p, const char **why)
{
	const kprobe_opcode_t head[] = { p->ainsn.insn, KPROBE_ARM_STEP_END };

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head),
				kprobe_arm_write_slot, why);
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is word-aligned kernel text
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set: -EINVAL for an
 * instruction that cannot be probed.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	u32 text;
	int ret;

	kprobe_assert_locked();

	ret = kprobe_slot_read_text(addr, &text, sizeof(text), why);
	if (ret)
		return ret;
	ret = kprobe_decode(addr, __mem_to_opcode_arm(text), &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = p->ainsn.insn;
	if (!p->ainsn.simulate)
		ret = kprobe_write_slot(p, why);
	return ret;
}

/* What the CPU that writes sees of a batch, in stop_machine(). */
struct kprobe_arm_patch {
	struct kprobe_hit_site **kps;
	unsigned int nr;
	bool arm;
};

static int kprobe_arm_patch_cb(void *data)
{
	struct kprobe_arm_patch *b = data;
	unsigned int i;

	for (i = 0; i < b->nr; i++)
		__patch_text(b->kps[i]->addr, b->arm ? BREAKPOINT_INSTRUCTION :
					      b->kps[i]->opcode);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_arm_patch_cb);

/*
 * Write the breakpoint (@arm) or the original instruction of @nr sites
 * with every other CPU held in stop_machine(): ARMv7 lets a CPU fetch a
 * word another rewrites only between branches, NOPs and a few others, and
 * a UDF is not one of them.  One stop for the batch.  The caller holds
 * cpus_read_lock() and text_mutex.
 */
static void kprobe_patch(struct kprobe_hit_site **kps, unsigned int nr,
			 bool arm)
{
	struct kprobe_arm_patch b = { .kps = kps, .nr = nr, .arm = arm };

	lockdep_assert_held(&text_mutex);
	lockdep_assert_cpus_held();
	stop_machine_cpuslocked(kprobe_arm_patch_cb, &b, NULL);
}

/*
 * Arming and disarming, one site or a batch: one stop_machine() for the
 * lot.  A CPU may still be between the breakpoint and its hook when a
 * probe is disarmed; kprobe_arm_udf_hit() then finds the original
 * instruction back.
 */
DEFINE_KPROBE_BATCH_ARMING(kprobe_patch)

/* A copy runs with interrupts masked: after the grace period none is left. */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* ---------------------------------------------------------------------
 * Addresses, the blacklist, initialisation
 * ---------------------------------------------------------------------
 */

/* Every ARM instruction is one aligned word. */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, KPROBE_ARM_INSN_SIZE, why);
}

/**
 * arch_populate_kprobe_blacklist() - ARM text that is never probed
 *
 * The core refuses entry, irqentry and noinstr text and whatever
 * NOKPROBE_SYMBOL()/NOKPROBE() mark (do_undefinstr() among them).  ARM
 * adds its identity-mapped text (run with the MMU off or being switched),
 * the detour area of optimized probes,
 * __switch_to(), whose entry and return different tasks see, and
 * arch_cpu_idle(), which default_idle_call() runs with RCU not watching
 * (ARM does not put it in the cpuidle text): a hit there takes the undef
 * hooks' lock with RCU off, and lockdep's tracepoint warns.
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	unsigned long start = (unsigned long)__idmap_text_start;
	unsigned long end = (unsigned long)__idmap_text_end;
	int ret = 0;

	if (start != end)
		ret = kprobe_add_area_blacklist(start, end);
	/* The detours of optimized probes (opt_detour.S). */
	if (!ret && IS_ENABLED(CONFIG_OPTPROBES))
		ret = kprobe_add_area_blacklist((unsigned long)kprobe_opt_area,
						(unsigned long)kprobe_opt_area_end);
	if (ret)
		return ret;
	ret = kprobe_add_ksym_blacklist((unsigned long)__switch_to);
	if (ret < 0)
		return ret;
	ret = kprobe_add_ksym_blacklist((unsigned long)arch_cpu_idle);
	return ret < 0 ? ret : 0;
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

/**
 * arch_init_kprobes() - ARM part of kprobes initialisation
 *
 * Sets up the shared decoder and registers the two hooks with the
 * undefined-instruction code of traps.c.
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	arm_probes_decode_init();
	register_undef_hook(&kprobe_arm_hit_hook);
	register_undef_hook(&kprobe_arm_step_hook);
	return 0;
}
