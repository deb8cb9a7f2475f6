// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv kprobes: the architecture half of the kprobes contract.
 *
 * Preparing a probe decodes its instruction (decode.c) and, unless it is
 * simulated (simulate.c: pc-relative and register-only instructions),
 * writes a copy of it followed by a breakpoint into an instruction slot.
 * Arming writes a breakpoint over the instruction's first parcel (see
 * <asm/kprobes.h>).  A hit then goes:
 *
 *   1. handle_break() calls kprobe_breakpoint_handler() with epc at the
 *      probe address; it finds the site and runs the pre handler (state
 *      HANDLER);
 *   2. the instruction is simulated, or the hart is sent to the slot with
 *      sstatus.SPIE cleared, so that the trap return leaves interrupts
 *      off while the copy runs (state STEPPING);
 *   3. the breakpoint after the copy traps again: handle_break() asks
 *      kprobe_single_step_handler() first, which sets epc after the
 *      probed instruction, gives SPIE back and runs the post handler
 *      (state POST);
 *   4. state IDLE; execution goes on after the probed instruction.
 *
 * Probes hit while another one is active on the hart are run without
 * handlers (kprobe_reenter()).  A page fault of the copy is turned into a
 * fault at the probe address (kprobe_fault_handler()).
 */
#include "riscv-kprobes.h"

#include <linux/cpu.h>
#include <linux/execmem.h>
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/sched/task_stack.h>
#include <asm/cacheflush.h>
#include <asm/csr.h>
#include <asm/insn.h>
#include <asm/patch.h>
#include <asm/switch_to.h>
#include <asm-generic/kprobes-slot.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

static const kprobe_opcode_t kprobe_bp = BREAKPOINT_INSTRUCTION;

/* ---------------------------------------------------------------------
 * The breakpoint path
 * ---------------------------------------------------------------------
 */

/*
 * Send the hart to @p's slot.  The trap return sets sstatus.SIE from
 * SPIE: clearing SPIE keeps interrupts off until the slot's breakpoint,
 * so the task can neither be preempted nor migrate while this hart's
 * state points at the slot.
 */
static nokprobe_inline void kprobe_start_step(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe_ctlblk *kcb)
{
	kcb->site = p;
	kcb->saved_irq = regs->status & SR_PIE;
	regs->status &= ~SR_PIE;
	regs->epc = (unsigned long)p->ainsn.slot;
}

/* Give the probed context its interrupt state back. */
static nokprobe_inline void kprobe_end_step(struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb)
{
	regs->status = (regs->status & ~SR_PIE) | kcb->saved_irq;
}

/*
 * A hit on an idle hart: the handlers run.  Inline in the breakpoint
 * handler, which has just computed this hart's state, @c, for
 * kprobe_cpu_running(): claiming the hart reuses it, and there is one
 * frame.
 */
static nokprobe_inline void kprobe_hit(struct kprobe_hit_site *p,
				       struct pt_regs *regs,
				       struct kprobe_cpu c)
{
	/* regs->epc is p->addr here: an ebreak does not advance it. */
	if (kprobe_step_hit_pre(p, regs, c))
		return;		/* a handler moved epc: nothing else runs */

	if (p->ainsn.kind == KPROBE_INSN_SIMULATE) {
		p->ainsn.simulate(&p->ainsn, (unsigned long)p->addr, regs);
		kprobe_step_done(p, regs, c, KPROBE_CPU_HANDLER);
		return;
	}
	kprobe_start_step(p, regs, c.kcb);
	kprobe_move_state(c.kcb, KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING);
}

/*
 * A hit while this hart is already busy with a probe: from a handler,
 * from a busy section, or from the fault path of a copy.  The handlers do
 * not run (the hit counts as missed), but the probed instruction must.
 */
static notrace void kprobe_reenter(struct kprobe_hit_site *p,
				   struct pt_regs *regs,
				   struct kprobe_ctlblk *kcb)
{
	kprobe_hit_missed(p);

	/* A simulation completes right here: there is nothing to save. */
	if (p->ainsn.kind == KPROBE_INSN_SIMULATE) {
		p->ainsn.simulate(&p->ainsn, (unsigned long)p->addr, regs);
		return;
	}
	if (!kprobe_push(kcb, p, KPROBE_CPU_REENTERED))
		kprobe_nest_overflow(p);
	kprobe_start_step(p, regs, kcb);
}

NOKPROBE_SYMBOL(kprobe_reenter);

/* Is there any breakpoint instruction at @addr (ours or another's)? */
static nokprobe_inline bool kprobe_is_breakpoint_at(unsigned long addr)
{
	u16 lo = *(u16 *)addr;

	if (kprobe_insn_is_16bit(lo))
		return riscv_insn_is_c_ebreak(lo);
	return riscv_insn_is_ebreak(lo | ((u32)*(u16 *)(addr + 2) << 16));
}

/**
 * kprobe_breakpoint_handler() - a kernel ebreak that may be a probe's
 * @regs: registers at the trap; regs->epc is the breakpoint's address
 *
 * Called by handle_break() (traps.c) after kprobe_single_step_handler(),
 * with interrupts off.  Kernel text is readable where it traps, which is
 * why the instruction is read directly: the nofault accessors could be
 * probed themselves.
 *
 * Return: true if the breakpoint was ours and @regs say where to resume,
 * false to let BUG()/kgdb look at it.
 */
notrace bool kprobe_breakpoint_handler(struct pt_regs *regs)
{
	unsigned long addr = regs->epc;
	struct kprobe_hit_site *p;
	struct kprobe_cpu c;

	if (user_mode(regs))
		return false;

	c = kprobe_cpu_this();
	p = kprobe_hit_find(addr);
	if (p && !kprobe_ftrace(p)) {
		if (kprobe_cpu_running(c))
			kprobe_reenter(p, regs, c.kcb);
		else
			kprobe_hit(p, regs, c);
		return true;
	}

	/*
	 * Not a live probe.  A probe disarmed after this hart fetched its
	 * breakpoint has its instruction back: run it.  A breakpoint still
	 * there is somebody else's.
	 */
	return !kprobe_is_breakpoint_at(addr);
}

NOKPROBE_SYMBOL(kprobe_breakpoint_handler);

/*
 * The end of a step that has more to do than kprobe_single_step_handler()
 * does inline: a post handler to run, or the state a re-entered hit
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
 * kprobe_single_step_handler() - the breakpoint after a stepped copy
 * @regs: registers at the trap
 *
 * Called by handle_break() first for every kernel ebreak, probe hits
 * included.  The paths that call nothing (not a step's end; the end of a
 * step without a post handler) are kept free of calls, so that they
 * build no frame: a hart that runs no probe is told no in a few loads.
 *
 * Return: true if it was the end of the step this hart is doing; epc is
 * then after the probed instruction.
 */
notrace bool kprobe_single_step_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_hit_site *p;
	struct kprobe_cpu c;

	if (user_mode(regs))
		return false;
	c = kprobe_cpu_this();
	if (!kprobe_cpu_running(c))
		return false;
	kcb = c.kcb;
	if (kcb->state != KPROBE_CPU_STEPPING &&
	    kcb->state != KPROBE_CPU_REENTERED)
		return false;
	p = kcb->site;
	if (!p->ainsn.slot ||
	    regs->epc != (unsigned long)p->ainsn.slot + p->ainsn.len)
		return false;

	regs->epc = (unsigned long)p->addr + p->ainsn.len;
	kprobe_end_step(regs, kcb);
	if (kcb->state == KPROBE_CPU_STEPPING && !READ_ONCE(p->post)) {
		kprobe_store_state(kcb, KPROBE_CPU_STEPPING, KPROBE_CPU_IDLE);
		kprobe_cpu_reset(c);
		return true;
	}
	kprobe_step_end(p, regs, c);
	return true;
}

NOKPROBE_SYMBOL(kprobe_single_step_handler);

/**
 * kprobe_fault_handler() - an exception while this hart runs a probe
 * @regs: registers at the fault
 * @trapnr: the scause value
 *
 * Called through kprobe_page_fault() by do_page_fault().  A fault of the
 * copy in the slot is made a fault of the original: the hart is put back
 * at the probe address with its interrupt state, and the state the hit
 * interrupted is restored, so that the exception table (or the oops) sees
 * the real address.  A retry hits the probe again.  Faults in handlers
 * are left to the normal fixup.
 *
 * Return: 0: the caller goes on handling the fault, now at the probe
 * address.
 */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_hit_site *p;

	if (user_mode(regs) || preemptible())
		return 0;

	if (!kprobe_running())
		return 0;
	kcb = get_kprobe_ctlblk();
	/* Not the copy itself, e.g. a fault of this very fault path. */
	p = kprobe_slot_stepped(kcb, regs->epc, 0);
	if (!p)
		return 0;

	regs->epc = (unsigned long)p->addr;
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
 * riscv's execmem hands out EXECMEM_KPROBES pages read-only and
 * executable already, so the core's default, which writes the page
 * before it protects it, cannot be used: the breakpoints go in through
 * the text patching helpers instead.
 *
 * Return: the page, or NULL.
 */
void *alloc_insn_page(void)
{
	kprobe_opcode_t fill[64];
	unsigned int off;
	void *page;
	int ret = 0;

	page = execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);
	if (!page)
		return NULL;
	for (off = 0; off < ARRAY_SIZE(fill); off++)
		fill[off] = BREAKPOINT_INSTRUCTION;

	mutex_lock(&text_mutex);
	for (off = 0; off < PAGE_SIZE && !ret; off += sizeof(fill))
		ret = patch_insn_write(page + off, fill, sizeof(fill));
	mutex_unlock(&text_mutex);
	if (ret) {
		execmem_free(page);
		return NULL;
	}
	flush_icache_range((unsigned long)page, (unsigned long)page + PAGE_SIZE);
	return page;
}

/* The slot writer of kprobe_slot_fill(): every hart fences after it. */
static int kprobe_riscv_write_slot(kprobe_opcode_t *slot,
				   const kprobe_opcode_t *src, unsigned int n)
{
	int ret;

	mutex_lock(&text_mutex);
	ret = patch_text_nosync(slot, src, n * sizeof(*src));
	mutex_unlock(&text_mutex);
	return ret;
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
	unsigned int len = MAX_INSN_SIZE;
	kprobe_opcode_t head[MAX_INSN_SIZE / sizeof(kprobe_opcode_t)];
	u8 text[MAX_INSN_SIZE];
	struct kprobe_decoded d;
	int ret;

	kprobe_assert_locked();

	if (addr & 1) {
		*why = "misaligned address";
		return -EILSEQ;
	}
	/* Do not read past the end of the function: it may end the text. */
	if (kprobe_sym_size_offset(addr, &size, &offset) && size > offset)
		len = min_t(unsigned long, len, size - offset);
	ret = kprobe_slot_read_text(addr, text, len, why);
	if (ret)
		return ret;

	ret = kprobe_decode_insn(text, len, &d);
	if (ret) {
		*why = d.reason;
		return ret;
	}
	memcpy(&p->opcode, text, sizeof(p->opcode));
	p->ainsn = d.ainsn;
	if (d.ainsn.kind != KPROBE_INSN_STEP)
		return 0;
	/* The copy, then breakpoints (see KPROBE_SLOT_BYTES). */
	memcpy(head, text, d.ainsn.len);
	return kprobe_slot_fill(p, head, d.ainsn.len / sizeof(*head),
				kprobe_riscv_write_slot, why);
}

/**
 * arch_kprobe_boostable() - does a hit on @p take one ebreak only?
 * @p: a prepared site
 *
 * A simulated instruction (simulate.c: pc-relative or register-only) is
 * computed in the breakpoint trap, post handler included; a copy in a
 * slot ends with a second ebreak, post handler or not.
 *
 * Return: true when @p's instruction is simulated.
 */
bool arch_kprobe_boostable(struct kprobe_hit_site *p)
{
	return p->ainsn.kind == KPROBE_INSN_SIMULATE;
}

/*
 * Write one parcel per site, then have every hart fence.i once: a batch
 * costs one round of IPIs (or SBI remote fences) instead of one per probe.
 */
static void kprobe_write_batch(struct kprobe_hit_site **kps, unsigned int nr,
			       bool arm)
{
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	for (i = 0; i < nr; i++)
		patch_insn_write(kps[i]->addr, arm ? &kprobe_bp : &kps[i]->opcode,
				 sizeof(kprobe_opcode_t));
	flush_icache_all();
}

/*
 * Arming and disarming, one site or a batch: one aligned parcel per
 * site, which other harts see either before or after, then one round of
 * fence.i.  A hart may still be between the breakpoint and its handler
 * when a probe is disarmed; kprobe_breakpoint_handler() then finds the
 * original instruction back and re-runs it.
 */
DEFINE_KPROBE_BATCH_ARMING(kprobe_write_batch)

/* A copy runs with interrupts off: after the grace period none is left. */
void arch_remove_kprobe(struct kprobe_hit_site *p)
{
	kprobe_slot_release(p);
}

/* ---------------------------------------------------------------------
 * Addresses and the blacklist
 * ---------------------------------------------------------------------
 */

/**
 * arch_adjust_kprobe_addr() - the probe address for symbol + offset
 * @addr: the function's address
 * @offset: the requested offset
 * @on_func_entry: set if the probe is at the function's entry
 *
 * A traceable function starts with ftrace's patchable entry (two 32-bit
 * instructions, KPROBE_FTRACE_ENTRY_BYTES: nops, or the auipc/jalr call of
 * ftrace_caller), which belongs to ftrace: riscv's ftrace hands its
 * callbacks no pt_regs, so a probe cannot ride on it.  The entry probe
 * goes on the first instruction after it instead, where every register
 * is still as the caller passed it (the call clobbers t0 only, and
 * ftrace_caller restores the rest), and offset 0 and its size both mean "entry".
 *
 * Return: the address to probe.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long entry = 0;

	if (KPROBE_FTRACE_ENTRY_BYTES && ftrace_location(addr) == addr)
		entry = KPROBE_FTRACE_ENTRY_BYTES;

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
 * traced function's address, as in /proc/kallsyms.  An entry probe on a
 * traceable function sits KPROBE_FTRACE_ENTRY_BYTES into it (see
 * arch_adjust_kprobe_addr()); kallsyms finds the start, and never takes
 * a lock, so this works in the NMI-like context of a breakpoint.
 *
 * Return: the function's address, or @p's address if it is not past an
 * ftrace entry.
 */
unsigned long arch_kprobe_entry_func_ip(const struct kprobe *p)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size, offset;

	if (KPROBE_FTRACE_ENTRY_BYTES &&
	    kallsyms_lookup_size_offset(addr, &size, &offset) &&
	    offset == KPROBE_FTRACE_ENTRY_BYTES)
		return addr - offset;
	return addr;
}

NOKPROBE_SYMBOL(arch_kprobe_entry_func_ip);

/* Text is read in chunks: each byte read is looked up in the site table. */
#define KPROBE_DECODE_CHUNK	128

/**
 * arch_kprobe_check_insn_boundary() - is @addr the start of an instruction
 * @addr: a kernel text address
 * @why: the reason when it is not
 *
 * Walks the function containing @addr from its start, with the original
 * parcels of other probes put back.  The length of a riscv instruction
 * is in its first two bits, so the walk costs a read of the text.  The
 * walk also refuses the instructions between an lr and its sc: a trap
 * there breaks the reservation, and the sc would fail for ever.
 *
 * Context: locked (kprobes_arch.h), text_mutex not held.
 * Return: 0, or -EILSEQ (*@why says why).
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why)
{
	unsigned long size, offset, pos, from = 0, to = 0;
	u8 buf[KPROBE_DECODE_CHUNK];
	bool in_lrsc = false;
	unsigned int len;
	u32 insn;

	kprobe_assert_locked();
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
			if (to - from < 2 ||
			    kprobe_copy_original_text(buf, from, to - from))
				break;
		}
		len = kprobe_insn_len(&buf[pos - from]);
		if (!len || pos + len > to)
			break;
		insn = buf[pos - from] | (buf[pos - from + 1] << 8);
		if (len == 4)
			insn |= (buf[pos - from + 2] | buf[pos - from + 3] << 8) << 16;
		if (kprobe_insn_is_lr(insn))
			in_lrsc = true;
		else if (kprobe_insn_is_sc(insn))
			in_lrsc = false;
		pos += len;
	}
	mutex_unlock(&text_mutex);

	if (pos != addr) {
		*why = "not at an instruction boundary";
		return -EILSEQ;
	}
	if (in_lrsc) {
		*why = "inside an lr/sc sequence";
		return -EILSEQ;
	}
	return 0;
}

/**
 * arch_populate_kprobe_blacklist() - riscv text that is never probed
 *
 * The core already refuses entry and noinstr text, and the trap entry's
 * assembly carries ASM_NOKPROBE().  What riscv adds is __switch_to(),
 * which changes tasks half way: its entry and its return are seen by
 * different tasks, so neither kprobes nor kretprobes are allowed there;
 * and, with OPTPROBES, the kernel image's area of detours (opt.c).
 *
 * Return: 0 or a negative errno.
 */
int arch_populate_kprobe_blacklist(void)
{
	int ret = kprobe_add_ksym_blacklist((unsigned long)__switch_to);

	if (ret >= 0)
		ret = kprobe_opt_blacklist();
	return ret < 0 ? ret : 0;
}

/**
 * arch_init_kprobes() - riscv part of kprobes initialisation
 *
 * Return: 0.
 */
int __init arch_init_kprobes(void)
{
	return 0;
}
