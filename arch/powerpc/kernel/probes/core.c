// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless it may
 * only be emulated, writes a copy of it followed by a trap into an
 * instruction slot.  Arming writes a trap over the instruction's first
 * word (see <asm/kprobes.h>).  A hit then goes:
 *
 *   1. program_check_exception() calls kprobe_handler() with nip at the
 *      probe address; it finds the site and runs the pre handler (state
 *      HANDLER);
 *   2. the instruction is computed on @regs (compute.c), or
 *      emulate_step() runs it if it can: go to 4;
 *   3. else the CPU is sent to the slot with preemption disabled (state
 *      STEPPING); the trap after the copy comes back to kprobe_handler(),
 *      which puts nip after the probed instruction;
 *   4. the post handler runs (state POST), then state IDLE; execution
 *      goes on after the probed instruction.
 *
 * Probes hit while another one is active on the CPU are run without
 * handlers (kprobe_reenter()).  A page fault of the copy is turned into a
 * fault at the probe address (kprobe_fault_handler()).
 */
#include "ppc-kprobes.h"

#include <linux/execmem.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <asm/code-patching.h>
#include <asm/sections.h>
#include <asm/set_memory.h>
#include <asm/sstep.h>
#include <asm/switch_to.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* ---------------------------------------------------------------------
 * The trap path
 * ---------------------------------------------------------------------
 */

/*
 * Send the CPU to @p's slot for one instruction; the trap after the copy
 * brings it back.  Preemption stays disabled until then, so the task
 * cannot migrate while this CPU's state points at the slot.  Interrupts
 * are left as the probed context had them: on 64-bit Book3S the soft
 * interrupt mask and MSR_EE must agree, and a clear MSR_EE under a
 * soft-enabled context is a bug to the interrupt code.  A probe that an
 * interrupt taken meanwhile hits is a re-entry.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs)
{
	preempt_disable();
	__this_cpu_write(kprobe_ctlblk.site, p);
	regs_set_return_ip(regs, (unsigned long)p->ainsn.slot);
}

/* The step is over, or abandoned: preemption back. */
static nokprobe_inline void kprobe_end_step(void)
{
	preempt_enable_no_resched();
}

/*
 * Run @p's instruction on @regs: computed (compute.c) if preparing the
 * probe decoded it so, else with the single-step library.  Return: true
 * if it ran (nip is past it, or where the branch went).
 */
static nokprobe_inline bool kprobe_emulate(struct kprobe_hit_site *p,
					   struct pt_regs *regs)
{
	int ret;

	if (p->ainsn.compute && kprobe_ppc_compute(&p->ainsn, regs))
		return true;
	ret = emulate_step(regs, kprobe_ppc_inst(&p->ainsn));

	if (ret > 0)
		return true;
	/* decode.c checked that the library knows these. */
	WARN_ON_ONCE(p->ainsn.kind == KPROBE_INSN_EMULATE);
	return false;
}

/* A hit on an idle CPU: the handlers run. */
static void kprobe_hit(struct kprobe_hit_site *p, struct pt_regs *regs,
		       struct kprobe_cpu c)
{
	/* regs->nip is p->addr here: a trap does not advance it. */
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved nip: nothing else runs */

	if (kprobe_emulate(p, regs) || !p->ainsn.slot) {
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_hit);

/*
 * A hit while this CPU is already busy with a probe: from a handler, from
 * a busy section, or from the fault path of a copy.  The handlers do not
 * run (the hit counts as missed), but the probed instruction must.
 */
static void kprobe_reenter(struct kprobe_hit_site *p, struct pt_regs *regs,
			   struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);

	/* Emulated, it completes right here: there is nothing to save. */
	if (kprobe_emulate(p, regs) || !p->ainsn.slot)
		return;
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs);
}

NOKPROBE_SYMBOL(kprobe_reenter);

/*
 * The trap after a copy: the step of the probe this CPU is running (or
 * of the re-entered one on top) is over.  Return: true if @addr is that
 * trap; nip is then after the probed instruction.
 */
static bool kprobe_step_end(struct pt_regs *regs, unsigned long addr,
			    struct kprobe_cpu c)
{
	struct kprobe_ctlblk *kcb = c.kcb;
	struct kprobe_hit_site *p = kcb->site;

	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return false;
	if (!p->ainsn.slot ||
	    addr != (unsigned long)p->ainsn.slot + p->ainsn.len)
		return false;

	regs_set_return_ip(regs, (unsigned long)p->addr + p->ainsn.len);
	kprobe_end_step();
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
	return true;
}

NOKPROBE_SYMBOL(kprobe_step_end);

/**
 * kprobe_handler() - a kernel trap that may be a probe's
 * @regs: registers at the program check; regs->nip is the trap's address
 *
 * Called by program_check_exception() (traps.c) for trap instructions,
 * after the debugger, with interrupts off: a probe's trap, or the trap
 * that ends the step of a copy.  Kernel text is readable where it traps,
 * which is why the instruction is read directly.
 *
 * Return: 1 if the trap was ours and @regs say where to resume, 0 to let
 * BUG()/WARN() and the debugger look at it.
 */
int kprobe_handler(struct pt_regs *regs)
{
	unsigned long addr = regs->nip;
	struct kprobe_hit_site *p;
	struct kprobe_cpu c;
	bool running;

	if (user_mode(regs) || !kprobe_ppc_translated(regs))
		return 0;

	c = kprobe_cpu_this();
	running = kprobe_cpu_running(c);
	if (running && kprobe_step_end(regs, addr, c))
		return 1;

	p = kprobe_hit_find(addr);
	if (p && !kprobe_ftrace(p)) {
		if (running)
			kprobe_reenter(p, regs, c.kcb);
		else
			kprobe_hit(p, regs, c);
		return 1;
	}

	/*
	 * Not a live probe.  A probe disarmed after this CPU fetched its
	 * trap has its instruction back: run it.  A trap still there is
	 * somebody else's.
	 */
	return !kprobe_insn_is_trap(*(u32 *)addr);
}

NOKPROBE_SYMBOL(kprobe_handler);

/**
 * kprobe_fault_handler() - an exception while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: the interrupt vector
 *
 * Called through kprobe_page_fault() by the page fault handler.  A fault
 * of the copy in the slot is made a fault of the original: the CPU is put
 * back at the probe address, and the state the hit
 * interrupted is restored, so that the exception table (or the oops) sees
 * the real address.  A retry hits the probe again.  Faults in handlers
 * are left to the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault, now at the probe
 * address.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_hit_site *p;

	if (user_mode(regs) || preemptible())
		return 0;

	kcb = get_kprobe_ctlblk();
	if (!kprobe_running() || (kcb->state != KPROBE_CPU_STEPPING &&
				  kcb->state != KPROBE_CPU_REENTERED))
		return 0;
	p = kcb->site;
	/* Not the copy itself, e.g. a fault of this very fault path. */
	if (regs->nip != (unsigned long)p->ainsn.slot)
		return 0;

	regs_set_return_ip(regs, (unsigned long)p->addr);
	kprobe_end_step();
	kprobe_step_abandon(kcb);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/* Fill a new slot: the copy, then a trap (see KPROBE_SLOT_BYTES). */
static int kprobe_write_slot(struct kprobe_hit_site *p,
			     struct kprobe_decoded *d)
{
	u32 buf[KPROBE_SLOT_BYTES / sizeof(u32)];
	kprobe_opcode_t *slot;
	unsigned int i;
	int ret;

	slot = kprobe_slot_alloc(KPROBE_SLOT_BYTES);
	if (!slot) {
		d->reason = "no free instruction slot";
		return -ENOMEM;
	}
	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = BREAKPOINT_INSTRUCTION;
	buf[0] = d->ainsn.insn;
	if (d->ainsn.len == 8)
		buf[1] = d->ainsn.suffix;

	mutex_lock(&text_mutex);
	ret = patch_instructions(slot, buf, sizeof(buf), false);
	mutex_unlock(&text_mutex);
	if (ret) {
		kprobe_slot_free(slot);
		d->reason = "cannot write the instruction slot";
		return -EFAULT;
	}
	p->ainsn.slot = slot;
	return 0;
}

/**
 * arch_kprobe_prepare() - decode the probed instruction, set up its slot
 * @p: the site; p->addr is an instruction boundary
 * @why: the reason for a refusal
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size, offset;
	u32 text[2] = { 0, 0 };
	struct kprobe_decoded d;
	size_t len = sizeof(text);
	int ret;

	kprobe_assert_locked();

	if (addr & 3) {
		*why = "misaligned address";
		return -EILSEQ;
	}
	/* Do not read past the end of the function: it may end the text. */
	if (kprobe_sym_size_offset(addr, &size, &offset) && size > offset)
		len = min_t(unsigned long, len, size - offset);
	ret = kprobe_copy_original_text(text, addr, len);
	if (ret) {
		*why = "cannot read the probed text";
		return ret;
	}

	ret = kprobe_decode_insn(text[0], text[1], &d);
	if (!ret) {
		p->opcode = text[0];
		p->ainsn = d.ainsn;
		if (d.ainsn.kind == KPROBE_INSN_STEP && !d.ainsn.compute)
			ret = kprobe_write_slot(p, &d);
	}
	if (ret)
		*why = d.reason;
	return ret;
}

/**
 * arch_arm_kprobe() - put the trap over the probed instruction
 * @p: a prepared site
 *
 * One aligned word is written, which other CPUs see either before or
 * after; patch_instruction() flushes it from the caches.
 * Context: text (kprobes_arch.h): locked, text_mutex held.
 */
void arch_arm_kprobe(struct kprobe_hit_site *p)
{
	WARN_ON_ONCE(patch_instruction(p->addr,
				       ppc_inst(BREAKPOINT_INSTRUCTION)));
}

/**
 * arch_disarm_kprobe() - put the original word back
 * @p: an armed site
 *
 * A CPU may still be between the trap and its handler; the handler then
 * finds the original instruction back and re-runs it (kprobe_handler()).
 * Context: text (kprobes_arch.h): locked, text_mutex held.
 */
void arch_disarm_kprobe(struct kprobe_hit_site *p)
{
	WARN_ON_ONCE(patch_instruction(p->addr, ppc_inst(p->opcode)));
}

/**
 * arch_remove_kprobe() - release what arch_kprobe_prepare() took
 * @p: a disarmed site, after an RCU grace period: no CPU is in
 *	its slot any more (a copy runs with preemption disabled)
 */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	if (p->ainsn.slot) {
		kprobe_slot_free(p->ainsn.slot);
		p->ainsn.slot = NULL;
	}
}

/* ---------------------------------------------------------------------
 * Addresses and the blacklist
 * ---------------------------------------------------------------------
 */

/**
 * arch_adjust_kprobe_addr() - the probe address for function + offset
 * @addr: the function's (global entry point's) address
 * @offset: the requested offset
 * @on_func_entry: set if the probe is at the function's entry
 *
 * An ELFv2 function that needs its TOC starts with two instructions that
 * compute it from r12, for callers from other modules; callers in the
 * same unit enter after them, at the local entry point.  A probe on the
 * function goes to the local entry, which every call passes ("foo" and
 * "foo+<local entry offset>" alike), and on a traceable function to its
 * ftrace site right after, where it rides on ftrace.
 *
 * Return: the address to probe.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long entry = ppc_function_entry((void *)addr) - addr;
	unsigned long site;

	*on_func_entry = !offset || offset == entry;
	if (!*on_func_entry)
		return (kprobe_opcode_t *)(addr + offset);
	if (IS_ENABLED(CONFIG_KPROBES_ON_FTRACE)) {
		site = ftrace_location(addr);
		if (site && site >= addr + entry &&
		    site <= addr + entry + FTRACE_MCOUNT_MAX_OFFSET)
			return (kprobe_opcode_t *)site;
	}
	return (kprobe_opcode_t *)(addr + entry);
}

/**
 * arch_kprobe_entry_func_ip() - the function an entry probe is at
 * @p: a probe with KPROBE_FLAG_ON_FUNC_ENTRY, e.g. kprobe_running()
 *
 * What bpf_get_func_ip() returns in a kprobe or kretprobe program: the
 * traced function's address, as in /proc/kallsyms, where the entry probe
 * sits past the TOC setup and on the ftrace call (see
 * arch_adjust_kprobe_addr()).  kallsyms finds the start, and never takes
 * a lock, so this works in the trap.
 *
 * Return: the function's address, or @p's address if kallsyms has none.
 */
unsigned long arch_kprobe_entry_func_ip(const struct kprobe *p)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size, offset;

	if (kallsyms_lookup_size_offset(addr, &size, &offset))
		return addr - offset;
	return addr;
}

NOKPROBE_SYMBOL(arch_kprobe_entry_func_ip);

/* Text is read in chunks: each word read is looked up in the site table. */
#define KPROBE_DECODE_CHUNK	128

/**
 * arch_kprobe_check_insn_boundary() - is @addr the start of an instruction
 * @addr: a kernel text address
 * @why: the reason when it is not
 *
 * Instructions are words, except the prefixed ones (ISA 3.1), whose
 * suffix is no boundary: the function is walked from its start, with the
 * original words of other probes put back.  The walk also refuses the
 * instructions between a larx and its stcx.: an exception there drops
 * the reservation, and the stcx. would fail for ever.
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or -EILSEQ (*@why says why).
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	unsigned long size, offset, pos, from = 0, to = 0;
	u32 buf[KPROBE_DECODE_CHUNK / sizeof(u32)];
	bool in_resv = false;
	u32 word;

	kprobe_assert_locked();
	if (addr & 3) {
		*why = "misaligned address";
		return -EILSEQ;
	}
	if (!kprobe_sym_size_offset(addr, &size, &offset) || !size) {
		*why = "size of the function unknown";
		return -EILSEQ;
	}

	pos = addr - offset;
	/* ftrace rewrites function entries under text_mutex. */
	mutex_lock(&text_mutex);
	while (pos < addr) {
		if (pos + MAX_INSN_SIZE > to) {
			from = pos;
			to = min(addr - offset + size, from + sizeof(buf));
			if (to - from < 4 ||
			    kprobe_copy_original_text(buf, from, to - from))
				break;
		}
		word = buf[(pos - from) / 4];
		if (kprobe_insn_is_larx(word))
			in_resv = true;
		else if (kprobe_insn_is_stcx(word))
			in_resv = false;
		pos += IS_ENABLED(CONFIG_PPC64) && word >> 26 == OP_PREFIX ?
		       8 : 4;
	}
	mutex_unlock(&text_mutex);

	if (pos != addr) {
		*why = "not at an instruction boundary (inside a prefixed instruction)";
		return -EILSEQ;
	}
	if (in_resv) {
		*why = "inside a larx/stcx. sequence";
		return -EILSEQ;
	}
	return 0;
}

/**
 * arch_within_kprobe_blacklist() - powerpc text that is never probed
 * @addr: a kernel text address
 *
 * The interrupt vectors and the code they run before they can take
 * another exception (real mode, MSR_RI clear), KPROBE_PPC_VECTORS_START
 * to _END (ppc-kprobes.h), and the head text; the core already refuses
 * entry and noinstr text and .kprobes.text.
 *
 * Return: true if @addr is there.
 */
bool arch_within_kprobe_blacklist(unsigned long addr)
{
	return (addr >= KPROBE_PPC_VECTORS_START &&
		addr < KPROBE_PPC_VECTORS_END) ||
	       (addr >= (unsigned long)_stext &&
		addr < (unsigned long)__head_end) ||
	       kprobe_in_opt_area(addr);
}

/* Functions of the trap path that the base does not mark NOKPROBE_SYMBOL(). */
static const char *const kprobe_ppc_unprobeable[] = {
	/*
	 * program_check_exception()'s body, which calls kprobe_handler(): a
	 * trap there traps again before any probe can run, for ever.
	 */
	"do_program_check",
};

/*
 * 32-bit: the system call's way in and out (entry_32.S), which the base
 * does not mark: the way out loads SRR0 and SRR1 for its rfi, which a
 * trap would overwrite.
 */
static const char *const kprobe_ppc32_unprobeable[] = {
	"transfer_to_syscall",
	"ret_from_syscall",
	"syscall_exit_finish",
};

/* Blacklist the functions of @names that kallsyms knows. */
static int kprobe_blacklist_names(const char *const *names, unsigned int n)
{
	unsigned long addr;
	unsigned int i;
	int ret = 0;

	for (i = 0; ret >= 0 && i < n; i++) {
		addr = kallsyms_lookup_name(names[i]);
		if (addr)
			ret = kprobe_add_ksym_blacklist(addr);
	}
	return ret;
}

/**
 * arch_populate_kprobe_blacklist() - the blacklist entries of powerpc
 *
 * _switch() and __switch_to() change stacks half way: their entry and
 * their return are seen by different tasks, so neither kprobes nor
 * kretprobes are allowed there;
 * the interrupt vectors, see arch_within_kprobe_blacklist(); the static
 * functions of traps.c that kprobe_handler() is called from; and on
 * 32-bit the system call's entry and exit.
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	int ret;

	ret = kprobe_add_area_blacklist(KPROBE_PPC_VECTORS_START,
					KPROBE_PPC_VECTORS_END);
	if (!ret && IS_ENABLED(CONFIG_OPTPROBES))
		ret = kprobe_add_area_blacklist((unsigned long)kprobe_opt_area,
						(unsigned long)kprobe_opt_area_end);
	if (ret)
		return ret;
	ret = kprobe_add_ksym_blacklist((unsigned long)_switch);
	if (ret >= 0)
		ret = kprobe_add_ksym_blacklist((unsigned long)__switch_to);
	if (ret >= 0)
		ret = kprobe_blacklist_names(kprobe_ppc_unprobeable,
					     ARRAY_SIZE(kprobe_ppc_unprobeable));
	if (ret >= 0 && IS_ENABLED(CONFIG_PPC32))
		ret = kprobe_blacklist_names(kprobe_ppc32_unprobeable,
					     ARRAY_SIZE(kprobe_ppc32_unprobeable));
	return ret < 0 ? ret : 0;
}

/**
 * alloc_insn_page() - a page for instruction slots, full of traps
 *
 * 32-bit Book3S executes kernel text through its BATs and marks every
 * other kernel segment no-execute, but for the one of the modules
 * (mmu_mark_initmem_nx()): a slot in vmalloc space, where
 * EXECMEM_KPROBES allocates, could not run there.  Its slots come from
 * the module area; elsewhere this is the core's default.
 *
 * Return: the page, read-only and executable, or NULL.
 */
void *alloc_insn_page(void)
{
	return kprobe_trap_page_alloc(IS_ENABLED(CONFIG_PPC_BOOK3S_32) ?
				      EXECMEM_MODULE_TEXT : EXECMEM_KPROBES);
}

/**
 * arch_init_kprobes() - powerpc part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
