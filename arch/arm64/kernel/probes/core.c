// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decides how its instruction runs: simulated in C
 * (simulate.c for register-only instructions, simulate-insn.c for those
 * relative to the pc), or copied into an instruction slot followed by a
 * second breakpoint.  Arming writes BRK #KPROBES_BRK_IMM over the
 * instruction (see <asm/kprobes.h>).  A hit then goes:
 *
 *   1. call_el1_break_hook() calls kprobe_brk_handler() with the pc at
 *      the probe address; it finds the site and runs the pre handler
 *      (state HANDLER);
 *   2. the instruction is simulated, or the CPU is sent to the slot with
 *      DAIF set in the pstate it returns with (state STEPPING);
 *   3. BRK #KPROBES_BRK_SS_IMM after the copy traps again:
 *      kprobe_ss_brk_handler() sets the pc after the probed instruction,
 *      gives the CPU its DAIF bits back and runs the post handler (state
 *      POST);
 *   4. state IDLE; execution goes on after the probed instruction.
 *
 * Probes hit while another one is active on the CPU are run without
 * handlers (kprobe_reenter()).  A fault of the copy is turned into a
 * fault at the probe address (kprobe_fault_handler()).
 */
#include "arm64-kprobes.h"

#include <linux/cpu.h>
#include <linux/execmem.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/memory.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <asm/cacheflush.h>
#include <asm/daifflags.h>
#include <asm/debug-monitors.h>
#include <asm/insn.h>
#include <asm/patching.h>
#include <asm/sections.h>
#include <asm/switch_to.h>
#include <asm-generic/kprobes-slot.h>

#include "decode-insn.h"
#include "simulate-insn.h"

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/*
 * Send the CPU to @p's slot.  The exception return loads PSTATE from
 * regs->pstate: with D, A, I and F set there, nothing but the copy's own
 * exceptions runs until the slot's breakpoint, so the task neither
 * migrates nor gets preempted while this CPU's state points at the slot.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	kcb->site = p;
	kcb->saved_irq = regs->pstate & DAIF_MASK;
	regs->pstate |= DAIF_MASK;
	instruction_pointer_set(regs, (unsigned long)p->ainsn.slot);
}

/* Give the probed context its exception mask back. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb)
{
	regs->pstate = (regs->pstate & ~DAIF_MASK) | kcb->saved_irq;
}

/*
 * Run @p's instruction out of place.  The BRK replaced the instruction
 * the branch that got here targeted: what BTYPE says about that branch
 * is void now, and a pc this path sets must not be checked against it.
 */
static nokprobe_inline bool kprobe_simulate(struct kprobe_hit_site *p,
					    struct pt_regs *regs)
{
	regs->pstate &= ~PSR_BTYPE_MASK;
	if (!p->ainsn.simulate)
		return false;
	p->ainsn.simulate(p->ainsn.insn, (long)p->addr, regs);
	return true;
}

/*
 * A hit on an idle CPU: the handlers run.  Inline in the breakpoint
 * handler, which has just computed this CPU's state, @c.
 */
static nokprobe_inline void kprobe_hit(struct kprobe_hit_site *p,
				       struct pt_regs *regs,
				       struct kprobe_cpu c)
{
	if (kprobe_step_hit_pre(p, regs, c)) {
		regs->pstate &= ~PSR_BTYPE_MASK;
		return;		/* a handler moved the pc: nothing else runs */
	}

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
static notrace void kprobe_reenter(struct kprobe_hit_site *p,
				   struct pt_regs *regs,
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
 * kprobe_brk_handler() - a kernel BRK #KPROBES_BRK_IMM
 * @regs: registers at the trap; the pc is the breakpoint's address
 * @esr: the exception syndrome (its comment selected this handler)
 *
 * Called by call_el1_break_hook() with every exception masked.
 *
 * Return: DBG_HOOK_HANDLED, with @regs saying where to resume, or
 * DBG_HOOK_ERROR for a breakpoint that is not a probe's (an oops).
 */
notrace int kprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	unsigned long addr = instruction_pointer(regs);
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_hit_site *p = kprobe_hit_find(addr);

	if (p && !kprobe_ftrace(p)) {
		if (kprobe_cpu_running(c))
			kprobe_reenter(p, regs, c.kcb);
		else
			kprobe_hit(p, regs, c);
		return DBG_HOOK_HANDLED;
	}

	/*
	 * Not a live probe.  A probe disarmed after this CPU fetched its
	 * breakpoint has its instruction back: run it.
	 */
	if (le32_to_cpu(*(__le32 *)addr) != BREAKPOINT_INSTRUCTION)
		return DBG_HOOK_HANDLED;
	return DBG_HOOK_ERROR;
}

NOKPROBE_SYMBOL(kprobe_brk_handler);

/*
 * The end of a step that has more to do than kprobe_ss_brk_handler() does
 * inline: a post handler to run, or the state a re-entered hit
 * interrupted to restore.
 */
static noinline notrace void kprobe_step_end(struct kprobe_hit_site *p,
					     struct pt_regs *regs,
					     struct kprobe_cpu c)
{
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_step_end);

/**
 * kprobe_ss_brk_handler() - the breakpoint after a stepped copy
 * @regs: registers at the trap
 * @esr: the exception syndrome
 *
 * Return: DBG_HOOK_HANDLED if it was the end of the step this CPU is
 * doing (the pc is then after the probed instruction), else
 * DBG_HOOK_ERROR.
 */
notrace int kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_ctlblk *kcb = c.kcb;
	struct kprobe_hit_site *p;

	if (!kprobe_cpu_running(c))
		return DBG_HOOK_ERROR;
	p = kprobe_slot_stepped(kcb, instruction_pointer(regs),
				AARCH64_INSN_SIZE);
	if (!p)
		return DBG_HOOK_ERROR;

	instruction_pointer_set(regs, (unsigned long)p->addr + AARCH64_INSN_SIZE);
	kprobe_end_step(regs, kcb);
	if (kcb->state == KPROBE_CPU_STEPPING && !READ_ONCE(p->post)) {
		kprobe_store_state(kcb, KPROBE_CPU_STEPPING, KPROBE_CPU_IDLE);
		kprobe_cpu_reset(c);
		return DBG_HOOK_HANDLED;
	}
	kprobe_step_end(p, regs, c);
	return DBG_HOOK_HANDLED;
}

NOKPROBE_SYMBOL(kprobe_ss_brk_handler);

/**
 * kprobe_fault_handler() - a fault while this CPU runs a probe
 * @regs: registers at the fault
 * @esr: the exception syndrome
 *
 * Called through kprobe_page_fault() by do_page_fault() and
 * __do_kernel_fault() (patched in: the faults at kernel addresses take
 * the second only).  A fault of the copy in the slot is made a fault of
 * the original: the CPU is put back at the probe address with its
 * exception mask, and the state the hit interrupted is restored, so that
 * the exception table finds the instruction's fixup (uaccess, nofault
 * reads), a retry hits the probe again, or the oops shows the real
 * address.  Faults in handlers are left to the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault, now at the probe
 * address.
 */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int esr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p;

	/* Not the copy itself, e.g. a fault of this very fault path. */
	p = kprobe_slot_stepped(kcb, instruction_pointer(regs), 0);
	if (!p)
		return 0;

	instruction_pointer_set(regs, (unsigned long)p->addr);
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
 * How far back an exclusive sequence is looked for: ARM recommends at
 * most 128 bytes between a load-exclusive and its store-exclusive.
 */
#define KPROBE_EXCL_LOOKBACK	(128 / AARCH64_INSN_SIZE)

/*
 * Is @addr between a load-exclusive and its store-exclusive?  A BRK there
 * clears the exclusive monitor on every hit, and the store would fail
 * for ever.  Looks back from @addr, inside its function, for the nearest
 * exclusive access of either kind.
 */
static bool kprobe_in_exclusive(unsigned long addr)
{
	__le32 text[KPROBE_EXCL_LOOKBACK];
	unsigned long size, offset, from;
	unsigned int n, i;

	if (!kprobe_sym_size_offset(addr, &size, &offset))
		return false;
	n = min_t(unsigned long, offset / AARCH64_INSN_SIZE,
		  KPROBE_EXCL_LOOKBACK);
	if (!n)
		return false;
	from = addr - n * AARCH64_INSN_SIZE;
	if (kprobe_copy_original_text(text, from, n * AARCH64_INSN_SIZE))
		return false;
	for (i = n; i-- > 0;) {
		u32 insn = le32_to_cpu(text[i]);

		if (aarch64_insn_is_store_ex(insn))
			return false;
		if (aarch64_insn_is_load_ex(insn))
			return true;
	}
	return false;
}

/*
 * The pointer-authentication checks of a return address (AUTIASP and
 * friends, which the compiler puts before a function's RET) depend on
 * the registers alone, never on the pc: they run from a slot as they do
 * in place.  The decoder shared with uprobes knows hints only as PAC
 * signing, BTI and NOP.
 */
static bool kprobe_insn_is_auth_hint(u32 insn)
{
	if (!aarch64_insn_is_hint(insn))
		return false;
	switch (insn & 0xfe0) {
	case AARCH64_INSN_HINT_AUTIA_1716:
	case AARCH64_INSN_HINT_AUTIB_1716:
	case AARCH64_INSN_HINT_AUTIAZ:
	case AARCH64_INSN_HINT_AUTIASP:
	case AARCH64_INSN_HINT_AUTIBZ:
	case AARCH64_INSN_HINT_AUTIBSP:
		return true;
	}
	return false;
}

/*
 * Fill @ai for the instruction @insn at @addr: a simulation routine, or
 * nothing (the caller gives it a slot).
 * Return: 0, or -EILSEQ with *@why set.
 */
static int kprobe_decode(unsigned long addr, u32 insn,
			 struct arch_specific_insn *ai, const char **why)
{
	struct arch_probe_insn api = { };

	ai->insn = insn;
	if (kprobe_in_exclusive(addr)) {
		*why = "inside a load/store-exclusive sequence";
		return -EILSEQ;
	}

	/* Literal loads read relative to the pc: uprobes never meet them. */
	if (aarch64_insn_is_ldr_lit(insn)) {
		ai->simulate = simulate_ldr_literal;
		return 0;
	}
	if (aarch64_insn_is_ldrsw_lit(insn)) {
		ai->simulate = simulate_ldrsw_literal;
		return 0;
	}
	/* Register-only instructions: one exception instead of two. */
	ai->simulate = kprobe_a64_register_sim(insn);
	if (ai->simulate)
		return 0;
	if (kprobe_insn_is_auth_hint(insn))
		return 0;

	switch (arm_probe_decode_insn(insn, &api)) {
	case INSN_GOOD:
		return 0;
	case INSN_GOOD_NO_SLOT:
		ai->simulate = api.handler;
		return 0;
	default:
		*why = "instruction that cannot run out of place";
		return -EILSEQ;
	}
}

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/**
 * alloc_insn_page() - a page for instruction slots, full of breakpoints
 *
 * arm64's execmem hands out EXECMEM_KPROBES pages read-only and
 * executable already, so the core's default, which writes the page
 * before it protects it, cannot be used: the breakpoints go in through
 * the text patching alias instead.
 *
 * Return: the page, or NULL.
 */
void *alloc_insn_page(void)
{
	void *page = execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);

	if (page && !aarch64_insn_set(page, BREAKPOINT_INSTRUCTION, PAGE_SIZE)) {
		execmem_free(page);
		page = NULL;
	}
	return page;
}

/*
 * The slot writer of kprobe_slot_fill(): A64 instructions are stored
 * little-endian whatever the data endianness.  aarch64_insn_copy() writes
 * through the alias and makes the slot's lines coherent.
 */
static int kprobe_arm64_write_slot(kprobe_opcode_t *slot,
				   const kprobe_opcode_t *src, unsigned int n)
{
	__le32 buf[KPROBE_SLOT_INSNS];
	unsigned int i;

	if (WARN_ON_ONCE(n > ARRAY_SIZE(buf)))
		return -EINVAL;
	for (i = 0; i < n; i++)
		buf[i] = cpu_to_le32(src[i]);
	return aarch64_insn_copy(slot, buf, n * sizeof(*buf)) ? 0 : -EFAULT;
}

/* Fill a new slot: the copy, the step's BRK, then breakpoints. */
static int kprobe_write_slot(struct kprobe_hit_site *p, const char **why)
{
	const kprobe_opcode_t head[] = {
		p->ainsn.insn, BRK64_OPCODE_KPROBES_SS,
	};

	return kprobe_slot_fill(p, head, ARRAY_SIZE(head),
				kprobe_arm64_write_slot, why);
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is word-aligned kernel text
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	__le32 text;
	int ret;

	kprobe_assert_locked();

	ret = kprobe_slot_read_text(addr, &text, sizeof(text), why);
	if (ret)
		return ret;
	ret = kprobe_decode(addr, le32_to_cpu(text), &p->ainsn, why);
	if (ret)
		return ret;
	p->opcode = p->ainsn.insn;
	if (!p->ainsn.simulate)
		ret = kprobe_write_slot(p, why);
	return ret;
}

/**
 * arch_kprobe_boostable() - does a hit on @p take one exception only?
 * @p: a prepared site
 *
 * A simulated instruction is computed in the BRK handler; a copy in a
 * slot ends with a second BRK, post handler or not.
 *
 * Return: true when @p's instruction is simulated.
 */
bool arch_kprobe_boostable(struct kprobe_hit_site *p)
{
	return !!p->ainsn.simulate;
}

/*
 * Write @nr instructions, the i-th being the breakpoint when @arm or @kps'
 * own original instruction, with every other CPU held in stop_machine()
 * (see <asm/kprobes.h>).  The caller holds cpus_read_lock() and
 * text_mutex.  Without memory for the arrays, one stop per site.
 */
static void kprobe_patch(struct kprobe_hit_site **kps, unsigned int nr,
			 bool arm)
{
	void *addr1;
	u32 insn1;
	void **addrs = &addr1;
	u32 *insns = &insn1;
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	lockdep_assert_cpus_held();
	if (nr > 1) {
		addrs = kmalloc_array(nr, sizeof(*addrs), GFP_KERNEL);
		insns = kmalloc_array(nr, sizeof(*insns), GFP_KERNEL);
		if (!addrs || !insns) {
			kfree(addrs);
			kfree(insns);
			for (i = 0; i < nr; i++)
				kprobe_patch(&kps[i], 1, arm);
			return;
		}
	}
	for (i = 0; i < nr; i++) {
		addrs[i] = kps[i]->addr;
		insns[i] = arm ? BREAKPOINT_INSTRUCTION : kps[i]->opcode;
	}
	WARN_ON_ONCE(aarch64_insn_patch_text(addrs, insns, nr));
	if (nr > 1) {
		kfree(addrs);
		kfree(insns);
	}
}

/*
 * Arming and disarming, one site or a batch: one stop_machine() for the
 * lot, where upstream stops every CPU once per probe.  A CPU may still be
 * between the breakpoint and its handler when a probe is disarmed;
 * kprobe_brk_handler() then finds the original instruction back.
 */
DEFINE_KPROBE_BATCH_ARMING(kprobe_patch)

/*
 * A copy runs with every exception masked: after the grace period none
 * is left.
 */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* ---------------------------------------------------------------------
 * Addresses and the blacklist
 * ---------------------------------------------------------------------
 */

/*
 * With DYNAMIC_FTRACE_WITH_ARGS a traceable function opens with ftrace's
 * two patchable instructions ("mov x9, x30" and the NOP that becomes
 * "bl ftrace_caller"; a "bti c" may come first, and with CALL_OPS the
 * ops literal sits before the function's address).  The ftrace record is
 * the BL.  Where the function-entry probe of @func goes, as an offset:
 * with KPROBES_ON_FTRACE the BL itself, a probe armed through ftrace
 * (ftrace.c); without, the first instruction after it.
 *
 * A function without that entry may still open with a BTI landing pad:
 * every assembly function does (SYM_FUNC_START), and with BTI_KERNEL
 * every C function that does not sign its return address.  The entry
 * probe goes after it, as x86's goes after an ENDBR: the pad has no
 * effect on any register, and a jump-optimized probe cannot replace it
 * (a B is no landing pad: an indirect call would take a Branch Target
 * exception), while the instruction after it can.  A PACIASP that opens
 * a function is a landing pad too, but it signs the return address: the
 * entry probe stays on it, where x30 is still the caller's plain return
 * address (what a kretprobe replaces).  A BRK there is fine, BRK being
 * valid after any branch.
 *
 * 0 for a function that opens with neither.
 */
static unsigned long kprobe_entry_offset(unsigned long func)
{
	unsigned long site;
	u32 insn;

	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_ARGS)) {
		site = ftrace_location(func);
		if (site && site - func <= 2 * AARCH64_INSN_SIZE) {
			if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
				site += MCOUNT_INSN_SIZE;
			return site - func;
		}
	}
	if (!get_kernel_nofault(insn, (u32 *)func) &&
	    aarch64_insn_is_bti(le32_to_cpu((__force __le32)insn)))
		return AARCH64_INSN_SIZE;
	return 0;
}

/**
 * arch_adjust_kprobe_addr() - the probe address for symbol + offset
 * @addr: the function's address
 * @offset: the requested offset
 * @on_func_entry: set if the probe is at the function's entry
 *
 * The entry of a traceable function is ftrace's call site
 * (kprobe_entry_offset()).  With KPROBES_ON_FTRACE the entry probe is
 * that site, and ftrace runs it; without, ftrace's call site belongs to
 * ftrace and the entry probe goes on the first instruction after it,
 * where every argument register, sp and lr are still as the caller left
 * them (ftrace_caller restores them; only x9 carries lr through it).
 * Offset 0 and that offset both mean "entry": "mov x9, x30" before the
 * BL is never probed for the entry.  The entry of any other function
 * that opens with a BTI landing pad is the instruction after the pad.
 *
 * Return: the address to probe.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long entry = kprobe_entry_offset(addr);

	*on_func_entry = !offset || offset == entry;
	if (*on_func_entry)
		offset = entry;
	return (kprobe_opcode_t *)(addr + offset);
}

/**
 * arch_kprobe_entry_func_ip() - the function an entry probe is at
 * @p: a probe with KPROBE_FLAG_ON_FUNC_ENTRY, e.g. kprobe_running()
 *
 * What bpf_get_func_ip() returns in a kprobe or kretprobe program: the
 * traced function's address, as in /proc/kallsyms, although the probe
 * sits inside ftrace's entry, past it or past a "bti c" (see
 * arch_adjust_kprobe_addr()).  kallsyms takes no lock, so this works in
 * the hit path.
 *
 * Return: the function's address, or @p's address if it is not a
 * function's entry probe.
 */
unsigned long arch_kprobe_entry_func_ip(const struct kprobe *p)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size, offset;

	if (kallsyms_lookup_size_offset(addr, &size, &offset) && offset &&
	    kprobe_entry_offset(addr - offset) == offset)
		return addr - offset;
	return addr;
}

NOKPROBE_SYMBOL(arch_kprobe_entry_func_ip);

/* Every A64 instruction is one aligned word. */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	return kprobe_slot_check_unit(addr, AARCH64_INSN_SIZE, why);
}

/* Blacklist the linker section [@start, @end), when it holds anything. */
static int kprobe_blacklist_text(const char *start, const char *end)
{
	if (start == end)
		return 0;
	return kprobe_add_area_blacklist((unsigned long)start,
					 (unsigned long)end);
}

/**
 * arch_populate_kprobe_blacklist() - arm64 text that is never probed
 *
 * The core refuses entry, irqentry and noinstr text and whatever
 * NOKPROBE_SYMBOL()/NOKPROBE() mark (the exception vectors' C and
 * assembly, the debug exception path).  arm64 adds the text that runs
 * where a BRK cannot be handled: the hypervisor's (nVHE EL2) and its
 * identity-mapped part, the kernel's identity-mapped text (MMU off or
 * being switched), the hibernation exit, the KPTI trampoline; the
 * detour area of optimized probes; and __switch_to(), whose entry and
 * return different tasks see.
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	int ret;

	ret = kprobe_blacklist_text(__hyp_text_start, __hyp_text_end) ?:
	      kprobe_blacklist_text(__hyp_idmap_text_start,
				    __hyp_idmap_text_end) ?:
	      kprobe_blacklist_text(__idmap_text_start, __idmap_text_end);
	/* These two sections only exist with their option. */
	if (!ret && IS_ENABLED(CONFIG_HIBERNATION))
		ret = kprobe_blacklist_text(__hibernate_exit_text_start,
					    __hibernate_exit_text_end);
	if (!ret && IS_ENABLED(CONFIG_UNMAP_KERNEL_AT_EL0))
		ret = kprobe_blacklist_text(__entry_tramp_text_start,
					    __entry_tramp_text_end);
	/* The detours of optimized probes (opt_detour.S). */
	if (!ret && IS_ENABLED(CONFIG_OPTPROBES))
		ret = kprobe_blacklist_text((const char *)kprobe_opt_area,
					    (const char *)kprobe_opt_area_end);
	if (ret)
		return ret;
	ret = kprobe_add_ksym_blacklist((unsigned long)__switch_to);
	return ret < 0 ? ret : 0;
}

/**
 * arch_init_kprobes() - arm64 part of kprobes initialisation
 *
 * The BRK handlers need no registration: call_el1_break_hook() calls them.
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
