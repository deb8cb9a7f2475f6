// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390 kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe copies its instruction into a slot, followed by
 * breakpoints (relative-long operands rewritten for the slot's address);
 * arming stores 0x0002 over its first halfword (see <asm/kprobes.h>).  A
 * hit then goes:
 *
 *   1. the operation exception reaches kprobe_exceptions_notify() as
 *      DIE_BPT, with the PSW past the breakpoint; the pc is put back on
 *      the probe address and the pre handlers run (state HANDLER);
 *   2. a branch is simulated (branch.c), a register load computed
 *      (move.c), and the hit is over; any other instruction is stepped:
 *      the PSW goes to the slot with I/O and external interrupts masked
 *      (state STEPPING);
 *   3. the breakpoint right after the copy traps again: the pc and a
 *      link register that point into the slot are moved to the probed
 *      text, the mask is given back and the post handlers run (state
 *      POST);
 *   4. state IDLE; execution goes on after the probed instruction, or
 *      wherever the branch went.
 *
 * Not PER: QEMU's TCG (7.2) delivers PER instruction-fetch events in
 * kernel mode, but with the PSW address just past the instruction even
 * for a taken branch and with the condition code from before it; a
 * breakpoint after the copy gives both right, on QEMU and on hardware.
 *
 * Probes hit while another one is active on the CPU run without handlers
 * (kprobe_reenter()).  A copy that faults is made a fault of the original
 * instruction (kprobe_copy_faulted()).
 */
#include "s390-kprobes.h"

#include <linux/cpu.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/sched/task_stack.h>
#include <linux/set_memory.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>
#include <asm/dis.h>
#include <asm/sections.h>
#include <asm/switch_to.h>
#include <asm/text-patching.h>
#include <asm/uaccess.h>
#include <asm-generic/kprobes-slot.h>
#include <asm-generic/kprobes-step.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* The interrupt classes a step keeps out. */
#define KPROBE_STEP_IRQ_MASK	(PSW_MASK_IO | PSW_MASK_EXT)

/* ---------------------------------------------------------------------
 * Starting and ending a step
 * ---------------------------------------------------------------------
 */

/*
 * Send the CPU to @p's slot.  The program check returns with the PSW of
 * @regs, so the mask set here is what the copy runs with; with I/O and
 * external interrupts off the task neither migrates nor gets preempted
 * until the breakpoint after the copy.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	kcb->site = p;
	kcb->saved_irq = regs->psw.mask & KPROBE_STEP_IRQ_MASK;
	regs->psw.mask &= ~KPROBE_STEP_IRQ_MASK;
	regs->psw.addr = (unsigned long)p->ainsn.slot;
}

/* Give the probed context its interrupt mask back. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb)
{
	regs->psw.mask &= ~KPROBE_STEP_IRQ_MASK;
	regs->psw.mask |= kcb->saved_irq;
}

/*
 * The copy has run to the breakpoint after it: the pc goes after the
 * probed instruction, and a branch-and-save that did not branch (R2 is
 * register 0) left the slot's next address in R1 (FIXUP_RETURN_REGISTER).
 */
static nokprobe_inline void kprobe_fix_after_step(struct kprobe_hit_site *p,
						  struct pt_regs *regs)
{
	unsigned long next = (unsigned long)p->ainsn.slot + p->ainsn.len;
	unsigned long addr = (unsigned long)p->addr;

	if (p->ainsn.fixup & FIXUP_RETURN_REGISTER) {
		unsigned int r1 = (p->opcode >> 4) & 0xf;

		if (regs->gprs[r1] == next)
			regs->gprs[r1] = addr + p->ainsn.len;
	}
	regs->psw.addr = addr + p->ainsn.len;
}

/*
 * Simulate @p's instruction if it is a branch (branch.c) or a register
 * load (move.c).
 */
static nokprobe_inline bool kprobe_simulate(struct kprobe_hit_site *p,
					    struct pt_regs *regs)
{
	if (p->ainsn.fixup & KPROBE_FIXUP_MOVE) {
		kprobe_move(p->ainsn.slot, regs);
		regs->psw.addr = (unsigned long)p->addr + p->ainsn.len;
		return true;
	}
	if (!(p->ainsn.fixup & KPROBE_FIXUP_BRANCH))
		return false;
	kprobe_branch(p->ainsn.slot, regs, (unsigned long)p->addr,
		      p->ainsn.len);
	return true;
}

/* ---------------------------------------------------------------------
 * The trap paths
 * ---------------------------------------------------------------------
 */

/*
 * What kprobe_bpt() found: a breakpoint that is not a probe's (left to
 * the rest of the program check), a probe's hit that is over, or one
 * whose copy runs next: interrupts then stay off until the breakpoint
 * after the copy.
 */
enum kprobe_s390_bpt {
	KPROBE_S390_NOT_OURS,
	KPROBE_S390_DONE,
	KPROBE_S390_STEP,
};

/* A hit on an idle CPU: the handlers run, then the step starts. */
static nokprobe_inline enum kprobe_s390_bpt
kprobe_hit(struct kprobe_hit_site *p, struct pt_regs *regs,
	   struct kprobe_cpu c)
{
	if (kprobe_step_hit_pre(p, regs, c))
		return KPROBE_S390_DONE; /* a handler moved the pc */
	if (kprobe_simulate(p, regs)) {
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return KPROBE_S390_DONE;
	}
	kprobe_start_step(p, regs, c.kcb);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
	return KPROBE_S390_STEP;
}

/*
 * A hit while this CPU is already busy with a probe: from a handler, from
 * a busy section, or from the fault path of a copy.  The handlers do not
 * run (the hit counts as missed), but the probed instruction must.
 */
static enum kprobe_s390_bpt kprobe_reenter(struct kprobe_hit_site *p,
					   struct pt_regs *regs,
					   struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);
	/* A simulation completes right here: there is nothing to save. */
	if (kprobe_simulate(p, regs))
		return KPROBE_S390_DONE;
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb);
	return KPROBE_S390_STEP;
}

NOKPROBE_SYMBOL(kprobe_reenter);

/* Is this CPU stepping a copy? The site then, else NULL. */
static nokprobe_inline struct kprobe_hit_site *
kprobe_stepping(struct kprobe_ctlblk *kcb)
{
	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return NULL;
	return kcb->site;
}

/*
 * The copy of @p did not complete: an exception came from it.  Put the
 * CPU back on the probed instruction, at the same offset, with its own
 * interrupt mask, and forget the step: the exception is then
 * the original instruction's, handled (exception table, page fault,
 * oops) as if no probe were there.
 */
static void kprobe_copy_faulted(struct kprobe_hit_site *p,
				struct pt_regs *regs,
				struct kprobe_ctlblk *kcb)
{
	regs->psw.addr = (unsigned long)p->addr +
			 (regs->psw.addr - (unsigned long)p->ainsn.slot);
	kprobe_end_step(regs, kcb);
	kprobe_step_abandon(kcb);
}

NOKPROBE_SYMBOL(kprobe_copy_faulted);

/* Does @regs' pc lie on the copy of @p (at it, or just past it)? */
static nokprobe_inline bool kprobe_pc_on_copy(struct kprobe_hit_site *p,
					      struct pt_regs *regs)
{
	unsigned long slot = (unsigned long)p->ainsn.slot;

	return regs->psw.addr >= slot && regs->psw.addr <= slot + p->ainsn.len;
}

/*
 * The end of a step that has more to do than kprobe_step_trap() does inline:
 * a post handler to run, or the state a re-entered hit interrupted to
 * restore.
 */
static noinline void kprobe_step_end(struct kprobe_hit_site *p,
				     struct pt_regs *regs,
				     struct kprobe_cpu c)
{
	kprobe_step_done(p, regs, c, KPROBE_CPU_STEPPING);
}

NOKPROBE_SYMBOL(kprobe_step_end);

/*
 * The breakpoint after @p's copy: the step is over.  Inline for the
 * common case, a step with no post handler and nothing to pop.
 */
static nokprobe_inline void kprobe_step_trap(struct kprobe_hit_site *p,
					     struct pt_regs *regs,
					     struct kprobe_cpu c)
{
	kprobe_fix_after_step(p, regs);
	kprobe_end_step(regs, c.kcb);
	if (c.kcb->state == KPROBE_CPU_STEPPING && !READ_ONCE(p->post)) {
		kprobe_store_state(c.kcb, KPROBE_CPU_STEPPING, KPROBE_CPU_IDLE);
		kprobe_cpu_reset(c);
		return;
	}
	kprobe_step_end(p, regs, c);
}

/*
 * DIE_BPT: an operation exception in kernel mode: a probe's breakpoint,
 * or the one after the copy this CPU is stepping.  The PSW is past the
 * exception's instruction; ILC (int_code bits 16-17) gives its length.
 * Inline in the notifier: one frame for the hit.
 */
static nokprobe_inline enum kprobe_s390_bpt kprobe_bpt(struct pt_regs *regs)
{
	unsigned long addr = regs->psw.addr - (regs->int_code >> 16);
	struct kprobe_cpu c = kprobe_cpu_this();
	struct kprobe_hit_site *p = kprobe_stepping(c.kcb);
	kprobe_opcode_t now;

	if (p && addr == (unsigned long)p->ainsn.slot + p->ainsn.len) {
		kprobe_step_trap(p, regs, c);
		return KPROBE_S390_DONE;
	}

	p = kprobe_hit_find(addr);
	if (p && !kprobe_ftrace(p)) {
		regs->psw.addr = addr;
		if (kprobe_cpu_running(c))
			return kprobe_reenter(p, regs, c.kcb);
		return kprobe_hit(p, regs, c);
	}

	/*
	 * Not a live probe.  A probe disarmed after this CPU fetched its
	 * breakpoint has its instruction back: run it.
	 */
	if (get_kernel_nofault(now, (kprobe_opcode_t *)addr) ||
	    now == BREAKPOINT_INSTRUCTION)
		return KPROBE_S390_NOT_OURS;
	regs->psw.addr = addr;
	return KPROBE_S390_DONE;
}

/*
 * DIE_TRAP: a program exception other than a page fault in kernel mode
 * (do_trap()).  One of the copy is made the original's.
 */
static void kprobe_trap(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p = kprobe_stepping(kcb);

	if (p && kprobe_pc_on_copy(p, regs))
		kprobe_copy_faulted(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_trap);

/**
 * kprobe_fault_handler() - a page fault while this CPU runs a probe
 * @regs: registers at the fault
 * @trapnr: the program interruption code
 *
 * Called through kprobe_page_fault() by do_exception().  A fault of the
 * copy in the slot is made a fault of the original (see
 * kprobe_copy_faulted()), so that the exception table finds the
 * instruction's fixup (uaccess, nofault reads), a retry hits the probe
 * again, or the oops shows the real address.  Faults in handlers are
 * left to the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault.
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe_hit_site *p = kprobe_stepping(kcb);

	if (p && kprobe_pc_on_copy(p, regs))
		kprobe_copy_faulted(p, regs, kcb);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_fault_handler);

/**
 * kprobe_exceptions_notify() - the kprobes die notifier
 * @self: the notifier block
 * @val: DIE_BPT (operation exception) or DIE_TRAP (another exception)
 * @data: struct die_args
 *
 * The program-check code may have given the interrupted context's
 * interrupt mask back before calling here; handlers run with interrupts
 * off, as on every architecture, and a step starts with them off.
 *
 * Return: NOTIFY_STOP when the event was a probe's, else NOTIFY_DONE.
 */
int kprobe_exceptions_notify(struct notifier_block *self, unsigned long val,
			     void *data)
{
	struct die_args *args = data;
	struct pt_regs *regs = args->regs;
	enum kprobe_s390_bpt bpt;
	unsigned long flags;

	if (user_mode(regs))
		return NOTIFY_DONE;

	local_irq_save(flags);
	switch (val) {
	case DIE_BPT:
		bpt = kprobe_bpt(regs);
		break;
	case DIE_TRAP:
		/* Starts no step; the exception stays the kernel's. */
		kprobe_trap(regs);
		fallthrough;
	default:
		bpt = KPROBE_S390_NOT_OURS;
	}
	/*
	 * A step has started: this CPU's state points at the slot, so the
	 * task must not be preempted or migrate before the copy has run.
	 * Interrupts stay off until the PSW of @regs, which masks them, is
	 * loaded at the end of the program check.
	 */
	if (bpt != KPROBE_S390_STEP)
		local_irq_restore(flags);
	return bpt == KPROBE_S390_NOT_OURS ? NOTIFY_DONE : NOTIFY_STOP;
}

NOKPROBE_SYMBOL(kprobe_exceptions_notify);

/* ---------------------------------------------------------------------
 * Deciding how an instruction runs
 * ---------------------------------------------------------------------
 */

/*
 * Instructions that change the PSW mask or the control registers a step
 * depends on, beyond those probe_is_prohibited_opcode() refuses (which
 * is uprobes' list too): load PSW, set system mask, load control.
 */
static const char *kprobe_insn_refused(const u16 *insn)
{
	switch (insn[0] >> 8) {
	case 0x82:
		return "lpsw";
	case 0x80:
		return "ssm";
	case 0xb7:
		return "lctl";
	case 0xeb:
		if ((insn[2] & 0xff) == 0x71)
			return "lpswey";
		if ((insn[2] & 0xff) == 0x2f)
			return "lctlg";
		break;
	}
	if (insn[0] == 0xb2b2)
		return "lpswe";
	return NULL;
}

/*
 * Read the instruction at @addr into @insn as the text holds it without
 * probes.  Return: its length in bytes, or a negative errno.
 */
static int kprobe_read_insn(unsigned long addr, u16 *insn)
{
	int len, ret;

	ret = kprobe_copy_original_text(insn, addr, sizeof(*insn));
	if (ret)
		return ret;
	len = insn_length(insn[0] >> 8);
	if (len > 2)
		ret = kprobe_copy_original_text(insn + 1, addr + 2, len - 2);
	return ret ?: len;
}

/*
 * Point the relative-long operand of the copy @buf, going to the slot
 * @slot, at what the original at @addr addresses.  RIL-b/-c format: the
 * second and third halfwords are a signed offset in halfwords.
 */
static int kprobe_relocate(u16 *buf, unsigned long addr, unsigned long slot)
{
	s32 off = (s32)((u32)buf[1] << 16 | buf[2]);
	unsigned long target = addr + (long)off * 2;
	long moved = ((long)target - (long)slot) / 2;

	/*
	 * The architecture reaches +/- 4 GiB; QEMU's TCG (7.2) computes the
	 * address with a 32-bit product, which is right only within 2 GiB.
	 */
	if (moved >= SZ_1G || moved < -SZ_1G)
		return -ERANGE;
	buf[1] = (u32)moved >> 16;
	buf[2] = (u16)moved;
	return 0;
}

/* ---------------------------------------------------------------------
 * Preparing, arming, removing (the registration lock, see kprobes_arch.h)
 * ---------------------------------------------------------------------
 */

/**
 * arch_kprobe_prepare() - check the probed instruction, fill its slot
 * @p: the site; p->addr is halfword-aligned kernel text
 * @why: the reason for a refusal
 *
 * Refused with -EINVAL: instructions the CPU does not know, and those
 * that cannot run out of line (execute, diagnose,
 * transactions, program call and return, PSW and control register
 * loads).
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or a negative errno with *@why set.
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why)
{
	unsigned long addr = (unsigned long)p->addr;
	u16 buf[KPROBE_SLOT_BYTES / sizeof(u16)];
	kprobe_opcode_t *slot;
	unsigned int i;
	int len, ret;

	kprobe_assert_locked();
	if (addr & 1) {
		*why = "odd address";
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = BREAKPOINT_INSTRUCTION;
	len = kprobe_read_insn(addr, buf);
	if (len < 0) {
		*why = "cannot read the probed text";
		return len;
	}
	if (!is_known_insn((unsigned char *)buf)) {
		*why = "unknown instruction";
		return -EINVAL;
	}
	if (probe_is_prohibited_opcode(buf)) {
		*why = "an instruction that cannot run out of line";
		return -EINVAL;
	}
	if (kprobe_insn_refused(buf)) {
		*why = "an instruction that changes the PSW or control registers";
		return -EINVAL;
	}

	slot = kprobe_slot_alloc(KPROBE_SLOT_BYTES);
	if (!slot) {
		*why = "no free instruction slot";
		return -ENOMEM;
	}
	p->opcode = buf[0];
	/* Before the relocation: some types are told by the third halfword. */
	p->ainsn.fixup = probe_get_fixup_type(buf);
	ret = kprobe_branch(buf, NULL, addr, len);
	if (ret < 0) {
		kprobe_slot_free(slot);
		*why = "a branch on index or to a compared address";
		return ret;
	}
	if (ret)
		p->ainsn.fixup |= KPROBE_FIXUP_BRANCH;
	else if (kprobe_move(buf, NULL))
		p->ainsn.fixup |= KPROBE_FIXUP_MOVE;
	if (probe_is_insn_relative_long(buf)) {
		ret = kprobe_relocate(buf, addr, (unsigned long)slot);
		if (ret) {
			kprobe_slot_free(slot);
			*why = "relative operand out of reach of the slot";
			return ret;
		}
	}
	s390_kernel_write(slot, buf, sizeof(buf));
	p->ainsn.slot = slot;
	p->ainsn.len = len;
	return 0;
}

/**
 * alloc_insn_page() - a page for instruction slots, near the kernel
 *
 * The top gigabyte of the module area, which ends where the kernel
 * image starts: a relative-long operand of the kernel's text or of a
 * module is then in reach of a copy (kprobe_relocate()).  Filled with
 * breakpoints, read-only and executable, freed with execmem_free() (a
 * vfree() here) as the core's default page.
 *
 * Return: the page, or NULL.
 */
void *alloc_insn_page(void)
{
	kprobe_opcode_t *page;
	unsigned int i;

	page = __vmalloc_node_range(PAGE_SIZE, PAGE_SIZE, MODULES_END - SZ_1G,
				    MODULES_END, GFP_KERNEL, PAGE_KERNEL,
				    VM_FLUSH_RESET_PERMS, NUMA_NO_NODE,
				    __builtin_return_address(0));
	if (!page)
		return NULL;
	for (i = 0; i < PAGE_SIZE / sizeof(*page); i++)
		page[i] = BREAKPOINT_INSTRUCTION;
	if (set_memory_rox((unsigned long)page, 1)) {
		vfree(page);
		return NULL;
	}
	return page;
}

/*
 * Store each site's halfword (the breakpoint when @arm, else its
 * original opcode), then have every CPU serialize, so that none runs
 * the old text afterwards.  Halfword stores are atomic and every
 * instruction starts on a halfword: a CPU fetches either the old
 * instruction or the breakpoint.
 */
static void kprobe_patch(struct kprobe_hit_site **kps, unsigned int nr,
			 bool arm)
{
	kprobe_opcode_t bpt = BREAKPOINT_INSTRUCTION;
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	lockdep_assert_cpus_held();
	for (i = 0; i < nr; i++)
		s390_kernel_write(kps[i]->addr, arm ? &bpt : &kps[i]->opcode,
				  sizeof(kprobe_opcode_t));
	text_poke_sync();
}

/*
 * Arming and disarming, one site or a batch: one round of serialization
 * for the lot.  A CPU may still be between the breakpoint and its
 * handler when a probe is disarmed; kprobe_bpt() then finds the original
 * instruction back.
 */
DEFINE_KPROBE_BATCH_ARMING(kprobe_patch)

/* A copy runs with interrupts masked: after the grace period none is left. */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* ---------------------------------------------------------------------
 * Addresses and the blacklist
 * ---------------------------------------------------------------------
 */

/**
 * arch_kprobe_check_insn_boundary() - is @addr the start of an instruction
 * @addr: a kernel text address
 * @why: the reason when it is not
 *
 * s390 instructions are 2, 4 or 6 bytes long, their length in the first
 * two bits: the function around @addr is walked from its start.  Without
 * a symbol only the alignment can be checked.
 *
 * Return: 0, or -EINVAL (s390 has always refused these so).
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	unsigned long size, offset, pos;
	u16 half;

	if (addr & 1) {
		*why = "odd address";
		return -EINVAL;
	}
	if (!kprobe_sym_size_offset(addr, &size, &offset))
		return 0;
	for (pos = addr - offset; pos < addr; pos += insn_length(half >> 8)) {
		if (kprobe_copy_original_text(&half, pos, sizeof(half))) {
			*why = "cannot read the function's text";
			return -EINVAL;
		}
	}
	if (pos != addr) {
		*why = "not on an instruction boundary";
		return -EINVAL;
	}
	return 0;
}

/* Blacklist [@start, @end), when it holds anything. */
static int kprobe_blacklist_text(unsigned long start, unsigned long end)
{
	if (start >= end)
		return 0;
	return kprobe_add_area_blacklist(start, end);
}

/**
 * arch_populate_kprobe_blacklist() - s390 text that is never probed
 *
 * The core refuses entry, irqentry and noinstr text and whatever
 * NOKPROBE_SYMBOL() marks (the program-check path among them; s390's
 * entry code lives in .kprobes.text).  s390 adds the text that runs in
 * 31-bit addressing mode, below 2 GiB, where no slot is in reach and a
 * breakpoint's program check would find the wrong mode; and
 * __switch_to(), whose entry and return different tasks see.
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	int ret;

	ret = kprobe_blacklist_text((unsigned long)__stext_amode31,
				    (unsigned long)__etext_amode31);
	if (ret)
		return ret;
	ret = kprobe_add_ksym_blacklist((unsigned long)__switch_to);
	return ret < 0 ? ret : 0;
}

/**
 * arch_init_kprobes() - s390 part of kprobes initialisation
 *
 * The die notifier is the core's to register.
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
