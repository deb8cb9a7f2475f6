/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A per-CPU kprobe state machine for architectures that probe with a
 * breakpoint and run the probed instruction in the trap or from a slot
 * that ends in a second exception (x86: int3, riscv: ebreak, powerpc:
 * trap, arm64: brk).  Included by such an architecture's <asm/kprobes.h>;
 * the state stays the architecture's (the generic core never reads it, see
 * <linux/kprobes_arch.h>), this header only spares each of them the same
 * bookkeeping.  It implements the contract's arch_kprobe_busy_begin()/
 * end(); the architecture defines the per-CPU kprobe_ctlblk.
 *
 * The states and their moves
 * --------------------------
 * This is the one drawing of the machine; <asm/kprobes.h> of each user
 * says what each move is on that architecture.  Seven moves are legal,
 * exactly the edges of KPROBE_CPU_EDGES:
 *
 *                    (1)
 *        IDLE ------------------> HANDLER --------------+
 *         ^ ^                      |   |                |
 *         | |        (2)           |   | (3)            |
 *         | +----------------------+   |                |
 *         | |                          v                |
 *         | |                       STEPPING            | (4)
 *         | |        (6)             |   |              |
 *         | +------------------------+   | (5)          |
 *         |                              v              |
 *         +----------------------------- POST <---------+
 *                    (7)
 *
 *   (1) a hit on a CPU whose current_kprobe is NULL: the pre handlers run
 *   (2) a pre handler changed the pc; or the hit is over with no post
 *       handler: the instruction was computed in the trap (emulated,
 *       simulated, or the ftrace call), runs from a copy that returns by
 *       itself (x86's boosted copy, a published detour), or the hit was
 *       an optimized probe's detour (<asm-generic/kprobes-opt.h>)
 *   (3) the CPU is sent to the copy of the instruction in its slot
 *   (4) the instruction was computed in the trap, and a post handler runs
 *   (5) the step is over (the exception after the copy, or x86's post
 *       trampoline), and a post handler runs
 *   (6) the step is over with no post handler; or the copy faulted
 *   (7) the post handlers are done
 *
 * Besides the seven, the state is saved and restored as a whole, with no
 * check of the edge:
 *
 *   push: any state --a hit while current_kprobe is set--> REENTERED
 *   pop:  REENTERED --its step is over, or its copy faulted--> saved state
 *   busy: any state --arch_kprobe_busy_begin()--> BUSY
 *         BUSY --arch_kprobe_busy_end()--> the state it found
 *
 * A push (kprobe_push()) saves (current_kprobe, site, state, saved_irq)
 * on kprobe_ctlblk::saved; the pop after the step (kprobe_pop())
 * restores them, and a pop with nothing pushed warns and goes to IDLE.
 * "Any state" includes IDLE: current_kprobe is set a little before the
 * state leaves IDLE and cleared a little after it is back (see below),
 * and it is set in IDLE while a kretprobe's return handler runs (the
 * core's kretprobe_call(), which leaves this state alone).
 * Re-entered probes run no handlers, their hits count as missed; an
 * instruction that completes in the trap (computed, or a copy that
 * returns by itself) needs no push.  Each push needs a new exception
 * context, which bounds the depth by KPROBE_NEST_MAX.  BUSY is entered
 * and left only by arch_kprobe_busy_begin()/end(), for the core's busy
 * sections, and behaves as a running probe for every hit.
 *
 * How the moves are checked: kprobe_set_state() checks the edge at run
 * time; kprobe_move_state() and kprobe_move_state_here() check the edge
 * at build time and "still in @from" at run time; kprobe_store_state()
 * and kprobe_set_state_here(), for a caller that has just checked the
 * state, and kprobe_claim_idle_here() and kprobe_cpu_claim_idle() (move
 * (1), which follows from current_kprobe being NULL) check the edge at
 * build time only.  A move that fails a run-time check (a bug in the trap
 * code; any move out of REENTERED or BUSY but pop and busy end, for one)
 * is reported by kprobe_bad_state() and made anyway.
 *
 * current_kprobe is set before the state leaves IDLE and cleared only
 * after it is back in IDLE, on every path (the core's busy sections
 * too), so a context that interrupts any of them and finds current_kprobe
 * NULL finds the CPU IDLE: kprobe_claim_idle_here() relies on that.
 * While a site is hit, current_kprobe is the member whose handler runs
 * (kprobe_hit_pre()), or kprobe_hit_marker, or the member that ran last.
 * The site itself is kprobe_ctlblk::site, written when a step of it
 * starts (the architecture's step start, or a push) and read only in
 * STEPPING and REENTERED and in POST after a step: the hits that never
 * step (ftrace, detours, boosted and emulated instructions) do not store
 * it.
 */
#ifndef _ASM_GENERIC_KPROBES_CPU_H
#define _ASM_GENERIC_KPROBES_CPU_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/panic.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/types.h>

struct kprobe;
struct kprobe_hit_site;

/**
 * enum kprobe_cpu_state - what this CPU is doing for kprobes
 * @KPROBE_CPU_IDLE: nothing; current_kprobe is NULL, but for a moment
 *	around each move out of and back to IDLE and while a kretprobe's
 *	return handler runs (current_kprobe is its kprobe: the CPU is
 *	busy, every hit path sees it there first)
 * @KPROBE_CPU_HANDLER: running the pre handlers of kprobe_ctlblk::site
 * @KPROBE_CPU_STEPPING: executing the site's slot copy
 * @KPROBE_CPU_POST: running the site's post handlers
 * @KPROBE_CPU_REENTERED: stepping the site, hit while this CPU was
 *	already busy with a probe; the interrupted state is on
 *	kprobe_ctlblk::saved
 * @KPROBE_CPU_BUSY: inside the core's kprobe_busy_begin()/end()
 * @KPROBE_CPU_NR_STATES: not a state, the number of states
 */
enum kprobe_cpu_state {
	KPROBE_CPU_IDLE = 0,
	KPROBE_CPU_HANDLER,
	KPROBE_CPU_STEPPING,
	KPROBE_CPU_POST,
	KPROBE_CPU_REENTERED,
	KPROBE_CPU_BUSY,
	KPROBE_CPU_NR_STATES
};

#define KPROBE_NEST_MAX		4

/**
 * struct kprobe_saved_state - an interrupted probe, saved by a push
 * @kp: its current_kprobe
 * @site: its site
 * @state: its state
 * @saved_irq: its saved interrupt-enable bit
 */
struct kprobe_saved_state {
	struct kprobe *kp;
	struct kprobe_hit_site *site;
	u8 state;
	unsigned long saved_irq;
};

/**
 * struct kprobe_ctlblk - per-CPU kprobe control block
 * @state: enum kprobe_cpu_state
 * @depth: number of entries used in @saved
 * @site: the site being hit (see the top of this file)
 * @saved_irq: the probed context's interrupt-enable bit, as the
 *	architecture saves it while the copy runs with interrupts off
 *	(x86: EFLAGS.IF, riscv: sstatus.SPIE, arm64: the DAIF bits)
 * @saved: the interrupted states, innermost last
 */
struct kprobe_ctlblk {
	u8 state;
	u8 depth;
	struct kprobe_hit_site *site;
	unsigned long saved_irq;
	struct kprobe_saved_state saved[KPROBE_NEST_MAX];
};

DECLARE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);
/* The core's (<linux/kprobes.h>); repeated here for push and pop. */
DECLARE_PER_CPU(struct kprobe *, current_kprobe);
/* The core's (<linux/kprobes_arch.h>). */
extern struct kprobe kprobe_hit_marker;

static inline struct kprobe_ctlblk *get_kprobe_ctlblk(void)
{
	return this_cpu_ptr(&kprobe_ctlblk);
}

/**
 * arch_kprobe_busy_begin() - enter state BUSY for the core's busy section
 *
 * BUSY behaves as a running probe for every hit: they are re-entries.
 * Context: preemption disabled; every level of nested busy sections (a
 * nested one finds BUSY).
 * Return: the state to restore, for arch_kprobe_busy_end().
 */
static __always_inline unsigned long arch_kprobe_busy_begin(void)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	u8 state = kcb->state;

	kcb->state = KPROBE_CPU_BUSY;
	return state;
}

/**
 * arch_kprobe_busy_end() - leave state BUSY
 * @saved: what arch_kprobe_busy_begin() returned
 */
static __always_inline void arch_kprobe_busy_end(unsigned long saved)
{
	get_kprobe_ctlblk()->state = saved;
}

/*
 * The seven moves drawn at the top of this file, bit (from * 8 + to);
 * push/pop and busy sections aside.
 */
#define KPROBE_EDGE(from, to)	(1ULL << ((from) * 8 + (to)))
#define KPROBE_CPU_EDGES						\
	(KPROBE_EDGE(KPROBE_CPU_IDLE, KPROBE_CPU_HANDLER) |		\
	 KPROBE_EDGE(KPROBE_CPU_HANDLER, KPROBE_CPU_STEPPING) |		\
	 KPROBE_EDGE(KPROBE_CPU_HANDLER, KPROBE_CPU_POST) |		\
	 KPROBE_EDGE(KPROBE_CPU_HANDLER, KPROBE_CPU_IDLE) |		\
	 KPROBE_EDGE(KPROBE_CPU_STEPPING, KPROBE_CPU_POST) |		\
	 KPROBE_EDGE(KPROBE_CPU_STEPPING, KPROBE_CPU_IDLE) |		\
	 KPROBE_EDGE(KPROBE_CPU_POST, KPROBE_CPU_IDLE))

/*
 * kernel/kprobes/cpu.c: the report of a failed check, out of line (rare
 * and big).  Given the values, not the control block: that object is
 * built on every architecture, this header's users or not.
 */
void kprobe_bad_state(u8 from, u8 to);
/*
 * Each push comes from a new exception context, so running out of entries
 * cannot happen short of a bug.  There is no way to run the probed
 * instruction without its state, so stop here with the culprit on the
 * console.  A macro, so that objtool sees the panic() of a noreturn path.
 */
#define kprobe_nest_overflow(p)						\
	panic("kprobes: probes nested more than %d deep on CPU %d, at %pS\n", \
	      KPROBE_NEST_MAX, raw_smp_processor_id(), (p)->addr)

/**
 * kprobe_set_state() - change this CPU's kprobe state
 * @kcb: this CPU's control block
 * @state: the new enum kprobe_cpu_state
 *
 * With kprobe_move_state(), kprobe_store_state(), the *_here() variants
 * and the kprobe_cpu_*() helpers below, the only way to change
 * kprobe_ctlblk::state outside push/pop and busy sections.  Reports a
 * change that is not one of the moves drawn at the top of this file (a
 * bug in the trap code) with kprobe_bad_state() and makes it anyway, so
 * that the CPU keeps going.
 */
static __always_inline void kprobe_set_state(struct kprobe_ctlblk *kcb,
					     u8 state)
{
	u8 cur = kcb->state;

	BUILD_BUG_ON(KPROBE_CPU_NR_STATES > 8);
	if (unlikely(cur >= KPROBE_CPU_NR_STATES ||
		     !(KPROBE_CPU_EDGES & KPROBE_EDGE(cur, state))))
		kprobe_bad_state(cur, state);
	kcb->state = state;
}

/*
 * kprobe_set_state() where the caller knows the current state: the edge
 * is checked at build time (@from and @to are constants), only "still in
 * @from" at run time, one compare on the hit path.
 */
static __always_inline void kprobe_move_state(struct kprobe_ctlblk *kcb,
					      u8 from, u8 to)
{
	BUILD_BUG_ON(!(KPROBE_CPU_EDGES & KPROBE_EDGE(from, to)));
	/*
	 * Read again for the report: the hot path then compares in memory
	 * where it can (s390's cli), and keeps no copy for the cold one.
	 */
	if (unlikely(READ_ONCE(kcb->state) != from))
		kprobe_bad_state(READ_ONCE(kcb->state), to);
	kcb->state = to;
}

/*
 * The store of kprobe_move_state() for a caller that has just read the
 * state and found @from: the edge is checked at build time only, and a
 * path that calls nothing else needs no frame.
 */
static __always_inline void kprobe_store_state(struct kprobe_ctlblk *kcb,
					       u8 from, u8 to)
{
	BUILD_BUG_ON(!(KPROBE_CPU_EDGES & KPROBE_EDGE(from, to)));
	kcb->state = to;
}

/*
 * The same on this CPU's control block through the per-CPU segment, for a
 * hit path that keeps no pointer to it across a handler call: nothing has
 * to stay live in a callee-saved register.  kprobe_expect_state_here()
 * reports a CPU that is not in @state (one per-CPU compare);
 * kprobe_set_state_here() is the store, for a caller that has checked
 * @from since the last call it made (one per-CPU store);
 * kprobe_move_state_here() is both.
 */
static __always_inline void kprobe_expect_state_here(u8 state)
{
	if (unlikely(__this_cpu_read(kprobe_ctlblk.state) != state))
		kprobe_bad_state(__this_cpu_read(kprobe_ctlblk.state), state);
}

static __always_inline void kprobe_set_state_here(u8 from, u8 to)
{
	BUILD_BUG_ON(!(KPROBE_CPU_EDGES & KPROBE_EDGE(from, to)));
	__this_cpu_write(kprobe_ctlblk.state, to);
}

static __always_inline void kprobe_move_state_here(u8 from, u8 to)
{
	kprobe_expect_state_here(from);
	kprobe_set_state_here(from, to);
}

/**
 * kprobe_claim_idle_here() - make this CPU busy with a hit, enter HANDLER
 * @solo: the hit site's kprobe_hit_solo(), or NULL
 *
 * current_kprobe becomes @solo, the member kprobe_hit_pre() will call, or
 * kprobe_hit_marker: one store for both.
 *
 * For a hit path that has just found kprobe_running() NULL with
 * preemption or interrupts off: the CPU is IDLE then (see the top of this
 * file), so the source state is not read again.  The way back,
 * kprobe_move_state_here(KPROBE_CPU_HANDLER, ...), still checks that the
 * handlers left the state alone.
 */
static __always_inline void kprobe_claim_idle_here(struct kprobe *solo)
{
	BUILD_BUG_ON(!(KPROBE_CPU_EDGES &
		       KPROBE_EDGE(KPROBE_CPU_IDLE, KPROBE_CPU_HANDLER)));
	/*
	 * The parentheses are needed: x86's per-CPU write casts its value
	 * in a macro that does not parenthesize it, when per-CPU variables
	 * are not a named address space (KASAN kernels).
	 */
	__this_cpu_write(current_kprobe, (solo ?: &kprobe_hit_marker));
	barrier();
	__this_cpu_write(kprobe_ctlblk.state, KPROBE_CPU_HANDLER);
}

/*
 * This CPU's kprobe state as a hit path that calls handlers reaches it.
 * Where a per-CPU access is one instruction (x86's segment prefix: the
 * architecture defines ARCH_KPROBE_PERCPU_DIRECT to 1 before including
 * this header), every access goes through the per-CPU base, as the
 * *_here() helpers above do, and the struct's pointers stay NULL, compiled
 * away.  Elsewhere each access would redo the per-CPU offset (s390: the
 * lowcore, a GOT load and an add; powerpc: the paca and the TOC; ARMv7:
 * TPIDRPRW), so kprobe_cpu_this() computes both addresses once and the
 * path keeps them across the handler calls.  Context: preemption or
 * interrupts disabled from kprobe_cpu_this() on.
 */
#ifndef ARCH_KPROBE_PERCPU_DIRECT
#define ARCH_KPROBE_PERCPU_DIRECT	0
#endif

/**
 * struct kprobe_cpu - this CPU's kprobe state, for a hit path
 * @cur: this CPU's current_kprobe (NULL if ARCH_KPROBE_PERCPU_DIRECT)
 * @kcb: this CPU's kprobe_ctlblk (NULL if ARCH_KPROBE_PERCPU_DIRECT)
 */
struct kprobe_cpu {
	struct kprobe **cur;
	struct kprobe_ctlblk *kcb;
};

static __always_inline struct kprobe_cpu kprobe_cpu_this(void)
{
	struct kprobe_cpu c = { };

	if (!ARCH_KPROBE_PERCPU_DIRECT) {
		c.cur = this_cpu_ptr(&current_kprobe);
		c.kcb = this_cpu_ptr(&kprobe_ctlblk);
	}
	return c;
}

/* kprobe_running() through @c. */
static __always_inline struct kprobe *kprobe_cpu_running(struct kprobe_cpu c)
{
	if (ARCH_KPROBE_PERCPU_DIRECT)
		return __this_cpu_read(current_kprobe);
	return READ_ONCE(*c.cur);
}

/* reset_current_kprobe() through @c. */
static __always_inline void kprobe_cpu_reset(struct kprobe_cpu c)
{
	if (ARCH_KPROBE_PERCPU_DIRECT)
		__this_cpu_write(current_kprobe, NULL);
	else
		WRITE_ONCE(*c.cur, NULL);
}

/* kprobe_claim_idle_here() through @c. */
static __always_inline void kprobe_cpu_claim_idle(struct kprobe_cpu c,
						  struct kprobe *solo)
{
	if (ARCH_KPROBE_PERCPU_DIRECT) {
		kprobe_claim_idle_here(solo);
		return;
	}
	BUILD_BUG_ON(!(KPROBE_CPU_EDGES &
		       KPROBE_EDGE(KPROBE_CPU_IDLE, KPROBE_CPU_HANDLER)));
	WRITE_ONCE(*c.cur, solo ?: &kprobe_hit_marker);
	barrier();
	c.kcb->state = KPROBE_CPU_HANDLER;
}

/* kprobe_expect_state_here() through @c. */
static __always_inline void kprobe_cpu_expect_state(struct kprobe_cpu c,
						    u8 state)
{
	if (ARCH_KPROBE_PERCPU_DIRECT)
		kprobe_expect_state_here(state);
	else if (unlikely(READ_ONCE(c.kcb->state) != state))
		/* Read again, as kprobe_move_state() does. */
		kprobe_bad_state(READ_ONCE(c.kcb->state), state);
}

/* kprobe_set_state_here() through @c. */
static __always_inline void kprobe_cpu_set_state(struct kprobe_cpu c,
						 u8 from, u8 to)
{
	if (ARCH_KPROBE_PERCPU_DIRECT)
		kprobe_set_state_here(from, to);
	else
		kprobe_store_state(c.kcb, from, to);
}

/* kprobe_move_state_here() through @c. */
static __always_inline void kprobe_cpu_move_state(struct kprobe_cpu c,
						  u8 from, u8 to)
{
	kprobe_cpu_expect_state(c, from);
	kprobe_cpu_set_state(c, from, to);
}

/*
 * Save what this CPU is doing and make it busy with site @p in @state.
 * A nested exception may push and pop in the middle of this; claiming the
 * entry before filling it keeps the two from sharing one.  False when
 * every entry is taken (the caller stops with kprobe_nest_overflow()).
 */
static __always_inline bool kprobe_push(struct kprobe_ctlblk *kcb,
					struct kprobe_hit_site *p, u8 state)
{
	unsigned int depth = kcb->depth;
	struct kprobe_saved_state *s;

	if (depth >= KPROBE_NEST_MAX)
		return false;
	kcb->depth = depth + 1;
	barrier();

	s = &kcb->saved[depth];
	s->kp = __this_cpu_read(current_kprobe);
	s->site = kcb->site;
	s->state = kcb->state;
	s->saved_irq = kcb->saved_irq;
	__this_cpu_write(current_kprobe, &kprobe_hit_marker);
	kcb->site = p;
	kcb->state = state;
	return true;
}

/* Back to what the last kprobe_push() saved. */
static __always_inline void kprobe_pop(struct kprobe_ctlblk *kcb)
{
	struct kprobe_saved_state *s;

	if (WARN_ON_ONCE(!kcb->depth)) {
		kcb->state = KPROBE_CPU_IDLE;
		__this_cpu_write(current_kprobe, NULL);
		return;
	}
	s = &kcb->saved[kcb->depth - 1];
	__this_cpu_write(current_kprobe, s->kp);
	kcb->site = s->site;
	kcb->state = s->state;
	kcb->saved_irq = s->saved_irq;
	/* Release the entry only once it has been read, see kprobe_push(). */
	barrier();
	kcb->depth--;
}

#endif /* _ASM_GENERIC_KPROBES_CPU_H */
