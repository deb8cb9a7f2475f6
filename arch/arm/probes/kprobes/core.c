// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit ARM kprobes: the architecture half of the kprobes contract,
 * for ARM-mode and Thumb-2 kernels alike.  What depends on the
 * instruction set the kernel is built in (decoding, simulations, the
 * breakpoints and the slots' contents, the undef hooks) is in arm.c or
 * thumb.c, one of them per build (arm-kprobes.h).
 *
 * Preparing a probe decides how its instruction runs: computed in C by
 * the trap (a "simulation" of what reads or writes the pc; also a
 * "computation" of common instructions, arm_compute.c or
 * thumb_compute.c, which keeps a slot for the hits it declines), or copied into an
 * instruction slot followed by a second undefined instruction.  Arming writes the breakpoint, a
 * UDF of the instruction's width, over the instruction.  A hit then goes:
 *
 *   1. do_undefinstr() finds our hook for the probe's UDF and calls
 *      kprobe_arm_udf_hit() with the pc at the probe address and
 *      interrupts masked; it finds the site and runs the pre handler
 *      (state HANDLER);
 *   2. the instruction is simulated, or the CPU is sent to the slot with
 *      the I and F bits set in the CPSR it returns with (state STEPPING);
 *   3. the slot's step end (a second UDF) traps: kprobe_arm_udf_step_end()
 *      sets the pc after the probed instruction, gives the context its
 *      interrupt mask back and runs the post handler (state POST);
 *   4. state IDLE; execution goes on after the probed instruction.
 *
 * The copy runs in the probed context itself (its registers, its stack,
 * its flags): a conditional instruction tests its condition there, and a
 * store below sp writes where it would have in place.  What a copy cannot
 * do is read or write the pc: those instructions are simulated (branches,
 * bx/blx, literal loads, adr, ldm with the pc in the list...) or refused
 * (arm.c, thumb.c).
 */
#include "arm-kprobes.h"
#include "compute.h"

#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/execmem.h>
#include <linux/kdebug.h>
#include <linux/memory.h>
#include <linux/stop_machine.h>
#include <asm/cacheflush.h>
#include <asm/sections.h>
#include <asm/switch_to.h>
#include <asm-generic/kprobes-slot.h>

#include "../decode.h"
#include "../decode-thumb.h"

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* The CPSR bits that mask interrupts while a copy runs. */
#define KPROBE_ARM_IRQ_BITS	(PSR_I_BIT | PSR_F_BIT)

/*
 * Why the shared decoder's last call refused, for the core's refusal
 * line.  Written and read under the registration lock only.
 */
const char *kprobe_decode_why;

/*
 * ldm Rn{!}, {..., pc}: a function's return, in ARM or Thumb-2 code (the
 * 32-bit Thumb LDM has the ARM one's P, U, W, L, Rn and list fields).  Loads every listed register
 * from the stack (kernel memory, as in place), writes Rn back when asked
 * (Rn itself is not in a list with write-back, kprobe_dec_ldmstm()) and
 * branches to the loaded pc, interworking as ARMv7's LDM does.
 */
void kprobe_sim_ldm_pc(probes_opcode_t insn, struct arch_probes_insn *api,
		       struct pt_regs *regs)
{
	unsigned int list = insn & 0xffff, rn = KP_RN(insn);
	unsigned int n = kprobe_list_count(list);
	unsigned long base = regs->uregs[rn];
	u32 *from = (u32 *)kprobe_ldmstm_start(insn, base, n);
	/* The pc, the highest register, comes from the last word. */
	unsigned long pc = from[n - 1];

	kprobe_list_scatter(regs, list & ~BIT(KP_PC), from);
	if (KP_BIT(insn, 21))
		regs->uregs[rn] = KP_BIT(insn, 23) ? base + 4 * n : base - 4 * n;
	load_write_pc(pc, regs);
}

NOKPROBE_SYMBOL(kprobe_sim_ldm_pc);

/**
 * kprobe_decoded() - what the shared decoder's answer makes of a site
 * @ai: the site's instruction, as the decoder and our actions left it
 * @r: the decoder's answer
 * @why: the reason for a refusal
 *
 * A simulation is ours (@ai->simulate, set by one of our decoders) or
 * the handler of a "simulate" entry of the tables; without either the
 * copy runs from a slot.
 *
 * Return: 0, or -EINVAL with *@why set (kprobe_decode_why, or a reason
 * of its own for what the tables refuse).
 */
int kprobe_decoded(struct arch_specific_insn *ai, enum probes_insn r,
		   const char **why)
{
	switch (r) {
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
 * Does the condition of @ai pass in @cpsr?  What always passes is tested
 * inline, where the decoder's check would be a call that only says yes:
 * on a Thumb-2 kernel an instruction outside an IT block
 * (thumb_check_cc() tests the same first), on an ARM-mode kernel one
 * whose condition field is AL (1110; 1111 is no condition, and the
 * decoders simulate or refuse that space).
 */
static nokprobe_inline bool kprobe_cond_passes(struct arch_specific_insn *ai,
					       unsigned long cpsr)
{
	if (IS_ENABLED(CONFIG_THUMB2_KERNEL) ? !in_it_block(cpsr) :
					       (ai->insn >> 28) == 0xe)
		return true;
	return ai->api.insn_check_cc(cpsr);
}

/*
 * Compute @p's instruction here when it is simulated or computed: a
 * condition that fails makes it a no-op, as in place.  False: it runs
 * from the slot (a computation may decline, having changed nothing).
 */
static nokprobe_inline bool kprobe_simulate(struct kprobe_hit_site *p,
					    struct pt_regs *regs)
{
	struct arch_specific_insn *ai = &p->ainsn;

	if (ai->compute) {
		if (kprobe_cond_passes(ai, regs->ARM_cpsr) &&
		    !ai->compute(ai->insn, regs))
			return false;
		regs->ARM_pc = (unsigned long)p->addr + ai->size;
		return true;
	}
	if (!ai->simulate)
		return false;
	regs->ARM_pc = (unsigned long)p->addr + ai->size;
	if (kprobe_cond_passes(ai, regs->ARM_cpsr))
		ai->simulate(ai->insn, &ai->api, regs);
	return true;
}

/* A hit on an idle CPU: the handlers run. */
static nokprobe_inline void kprobe_hit(struct kprobe_hit_site *p,
				       struct pt_regs *regs,
				       struct kprobe_cpu c)
{
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved the pc: nothing else runs */

	if (kprobe_simulate(p, regs)) {
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs, c.kcb);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
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
 * @instr: the instruction, the hook's breakpoint
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
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_hit_site *p = kprobe_hit_find(addr);

	if (p) {
		if (kprobe_cpu_running(c))
			kprobe_reenter(p, regs, c.kcb);
		else
			kprobe_hit(p, regs, c);
		return 0;
	}

	/*
	 * Not a live probe.  A probe disarmed after this CPU fetched its
	 * UDF has its instruction back: run it.
	 */
	return kprobe_isa_is_hit(addr);
}

NOKPROBE_SYMBOL(kprobe_arm_udf_hit);

/*
 * The end of a step that has more to do than kprobe_arm_udf_step_end()
 * does inline: a post handler to run, or the state a re-entered hit
 * interrupted to restore.
 */
static noinline void kprobe_step_end(struct kprobe_hit_site *p,
				     struct pt_regs *regs,
				     struct kprobe_cpu c)
{
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_step_end);

/**
 * kprobe_arm_udf_step_end() - the undefined instruction after a copy
 * @regs: registers at the trap
 * @instr: the step end's UDF
 *
 * Return: 0 if it was the end of the step this CPU is doing (the pc is
 * then after the probed instruction), else 1.
 */
int kprobe_arm_udf_step_end(struct pt_regs *regs, unsigned int instr)
{
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_ctlblk *kcb = c.kcb;
	struct kprobe_hit_site *p;

	if (!kprobe_cpu_running(c))
		return 1;
	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return 1;
	/* The step end follows the copy, whose length the site knows. */
	p = kprobe_slot_stepped(kcb, instruction_pointer(regs),
				kcb->site->ainsn.size);
	if (!p)
		return 1;

	kprobe_isa_step_fixup(p, regs);
	regs->ARM_pc = (unsigned long)p->addr + p->ainsn.size;
	kprobe_end_step(regs, kcb);
	if (kcb->state == KPROBE_CPU_STEPPING && !READ_ONCE(p->post)) {
		kprobe_store_state(kcb, KPROBE_CPU_STEPPING, KPROBE_CPU_IDLE);
		kprobe_cpu_reset(c);
		return 0;
	}
	kprobe_step_end(p, regs, c);
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

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is kernel text at an instruction boundary
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set: -EINVAL for an
 * instruction that cannot be probed.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	int ret;

	kprobe_assert_locked();

	ret = kprobe_isa_decode(p, why);
	if (!ret && !p->ainsn.simulate)
		ret = kprobe_isa_write_slot(p, why);
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
		kprobe_isa_poke(b->kps[i], b->arm);
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

/**
 * arch_init_kprobes() - ARM part of kprobes initialisation
 *
 * Sets up the shared decoder and registers the instruction set's hooks
 * with the undefined-instruction code of traps.c.
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	arm_probes_decode_init();
	kprobe_isa_init();
	return 0;
}
