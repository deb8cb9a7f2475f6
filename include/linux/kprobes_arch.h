/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kprobes architecture contract: everything an architecture implements
 * for kprobes, and everything the generic core (kernel/kprobes/) offers it.
 * Architecture code includes this header and <linux/kprobes.h>, never the
 * core's kernel/kprobes/internal.h.
 *
 * Porting kprobes to an architecture
 * ----------------------------------
 * A port is a back-end written against this header: an architecture's
 * upstream kprobes code, written for a different core, is replaced, not
 * adapted.  Section A below is what the port implements ("arch") or may
 * override ("weak": the core's default is right unless the architecture
 * can do better); B and C are what the core offers it.  Also weak, in
 * <linux/kprobes.h>: alloc_insn_page(), for an architecture whose
 * executable pages come back read-only (riscv, arm64) or whose
 * EXECMEM_KPROBES memory cannot execute (32-bit Book3S powerpc, where
 * only the module segment of the vmalloc space is executable).
 *
 * <asm/kprobes.h> includes <asm-generic/kprobes.h> (whatever the
 * configuration) and defines, under CONFIG_KPROBES:
 *   - kprobe_opcode_t: the unit a breakpoint replaces (u8 on x86, u32 on
 *     fixed-width ISAs); BREAKPOINT_INSTRUCTION, a kprobe_opcode_t, fills
 *     the unused parts of instruction slots;
 *   - MAX_INSN_SIZE, KPROBE_SLOT_BYTES (the largest instruction slot it
 *     asks kprobe_slot_alloc() for);
 *   - struct arch_specific_insn: per-site data (kprobe_hit_site::ainsn),
 *     filled by arch_kprobe_prepare(), freed by arch_remove_kprobe();
 *   - the per-CPU probe state, which belongs to the architecture alone:
 *     the core never reads or writes it, and asks for a busy section
 *     through arch_kprobe_busy_begin()/end(), static inlines there;
 *   - kprobe_fault_handler(regs, trapnr), which kprobe_page_fault() of
 *     <linux/kprobes.h> calls, and the trap code's other entry points;
 *   - arch_kretprobe_trampoline() (CONFIG_KRETPROBES);
 *   - KPROBE_OPT_PATCH_MAX, KPROBE_OPT_REGION_MAX, KPROBE_OPTSLOT_BYTES
 *     (CONFIG_OPTPROBES);
 *   - optionally, for an architecture whose function-entry probe does not
 *     sit at the function's address (riscv and arm64 put it past the
 *     ftrace site, powerpc past the TOC setup): arch_kprobe_entry_func_ip()
 *     and a macro of the same name; bpf_get_func_ip() then reports the
 *     function's address.
 *
 * The trap code calls the port's breakpoint, step-end and fault handlers
 * (x86: kprobe_int3_handler(), kprobe_fault_handler(); riscv:
 * kprobe_breakpoint_handler(), kprobe_single_step_handler(); powerpc:
 * kprobe_handler(), kprobe_post_handler(); arm64: kprobe_brk_handler(),
 * kprobe_ss_brk_handler(); s390: the die notifier,
 * kprobe_exceptions_notify(), for both breakpoints; the mm fault path
 * calls kprobe_page_fault()).  They look the site up with
 * kprobe_hit_find(), run its handlers with kprobe_hit_pre()/
 * kprobe_hit_post() (section C) and execute or emulate the probed
 * instruction themselves.
 *
 * What a port takes from asm-generic
 * ----------------------------------
 * <asm-generic/kprobes.h>, for every port: NOKPROBE_SYMBOL(), __kprobes
 *   and nokprobe_inline, which the core and every trap path use.
 *
 * The others are optional: static inlines (and two macros that define
 * arming functions) for what most ports do alike:
 *
 * <asm-generic/kprobes-cpu.h>, included by <asm/kprobes.h>: the per-CPU
 *   state machine of a port that probes with a breakpoint and runs the
 *   instruction in the trap or from a slot that ends in a second
 *   exception.  It provides struct kprobe_ctlblk (state, site being
 *   stepped, saved interrupt state, the saved states of re-entered hits),
 *   the state moves, each checked against the one drawing of the machine
 *   at the top of that header, the claim of an idle CPU, and push/pop for
 *   re-entered hits; struct kprobe_cpu, the same moves for a hit path
 *   that keeps this CPU's addresses across handler calls, unless the
 *   port defines ARCH_KPROBE_PERCPU_DIRECT to 1 before including it
 *   (x86: a per-CPU access is one segment-relative instruction).
 *   Implements: arch_kprobe_busy_begin()/end().
 *   Still the port's: DEFINE_PER_CPU(struct kprobe_ctlblk,
 *   kprobe_ctlblk); which move the trap code makes when; filling
 *   kprobe_ctlblk::site and ::saved_irq when a step starts.
 *   The three below move this state: a port that keeps a state of its own
 *   (and writes the busy hooks itself) can use none of them.
 *   kernel/kprobes/cpu.c holds the out-of-line report of its checks,
 *   kprobe_bad_state(), built on every architecture; it reads nothing of
 *   the architecture's state.
 *
 * <asm-generic/kprobes-step.h>, included by the back-end's trap path: the
 *   bookkeeping of a breakpoint hit whose instruction is computed in C or
 *   stepped from a slot until a second exception (every port but x86):
 *   kprobe_step_hit_pre() (claim the CPU, run the pre handlers, give up
 *   on a changed pc), kprobe_step_done() (post handlers, then idle, or
 *   the pop of a re-entered step) and kprobe_step_abandon() (the copy
 *   faulted).  The first two take the struct kprobe_cpu that the trap
 *   handler computed once with kprobe_cpu_this(), and keep it across the
 *   handler calls.
 *   Implements: no hook; it is most of the trap handlers' state logic.
 *   Still the port's: the handlers around those calls; computing the
 *   instruction; starting and ending a step (the slot address, the
 *   interrupt state or trace bit); a re-entered hit (kprobe_hit_missed(),
 *   kprobe_push(), starting its step).
 *
 * <asm-generic/kprobes-ftrace.h> (CONFIG_KPROBES_ON_FTRACE), included by
 *   the back-end's ftrace file: the hit of a probe armed through ftrace.
 *   Implements: kprobe_ftrace_handler(), as one call of
 *   kprobe_ftrace_dispatch() (an ftrace that hands the callback a full
 *   pt_regs, DYNAMIC_FTRACE_WITH_REGS) or kprobe_ftrace_dispatch_args()
 *   (a struct ftrace_regs only, DYNAMIC_FTRACE_WITH_ARGS: arm64) given
 *   where a breakpoint on the ftrace call would report the hit;
 *   kprobe_ftrace_hit() also serves a trampoline of the port's own
 *   (arch_kprobe_ftrace_trampoline(), x86-64).
 *   Still the port's: arch_prepare_kprobe_ftrace(); an ftrace caller that
 *   resumes at the instruction pointer it saved; building the including
 *   file without the ftrace hook (the hit takes no recursion lock); on
 *   WITH_ARGS, arch_kprobe_ftrace_regs_get()/put() (section A) and
 *   HAVE_KPROBES_ON_FTRACE_ARGS beside HAVE_KPROBES_ON_FTRACE.
 *
 * <asm-generic/kprobes-opt.h> (CONFIG_OPTPROBES), included by the
 *   back-end's optimizer file: kprobe_opt_hit(), the C half of a detour,
 *   which runs the handlers by the rules of a breakpoint hit; for a port
 *   whose jump replaces exactly the probed instruction (arm64, arm,
 *   riscv), kprobe_opt_set_single() fills the record; for a port whose
 *   detours live in an area of its kernel text that one branch reaches
 *   (arm64, arm, powerpc), kprobe_opt_area_page_get()/put() hand out its
 *   pages.  Implements: arch_optprobe_handler(), declared there, which
 *   the port's detour calls and which calls kprobe_opt_hit().
 *
 * <asm-generic/kprobes-opt-template.h>, included by the back-end's
 *   private header where detours are 32-bit instruction words (arm64,
 *   arm, powerpc): the template its opt_detour.S defines, the indices of
 *   the words the optimizer completes, the detour area and
 *   kprobe_opt_common().  Implements: those symbols, in opt_detour.S.
 *   Still the port's: the detour template (pt_regs as a breakpoint at the
 *   probe shows them, the copy of the region, the jump back),
 *   arch_optprobe_prepare() with every check of the region,
 *   arch_optprobe_patch()/unpatch()/flush()/release(), the KPROBE_OPT_*
 *   sizes, and arch_kprobe_optslot_page_alloc()/free() when a detour must
 *   be near the text it jumps from (riscv, whose jal reaches too little
 *   for one area to serve all text, keeps detours of its own instead of
 *   kprobe_optslot_alloc()'s).
 *
 * <asm-generic/kprobes-slot.h>, included by the back-end's core.c: the
 *   registration steps of a port that steps copies from slots (all but
 *   x86, powerpc and arc use it): kprobe_slot_read_text(),
 *   kprobe_slot_fill() (the copy and its step end, breakpoints after
 *   them, written by the port's slot writer), kprobe_slot_release(),
 *   kprobe_slot_check_unit() (an aligned-unit boundary check), and for
 *   the trap path kprobe_slot_stepped() (is this exception the copy's,
 *   or the trap after it?).
 *   Implements: arch_arm_kprobe() and arch_disarm_kprobe() from the
 *   port's one-unit poke (DEFINE_KPROBE_ARMING()), or those and the two
 *   batch variants from its writer of many sites
 *   (DEFINE_KPROBE_BATCH_ARMING()).
 *   Still the port's: the decoder and what the slot holds after the
 *   copy, both writers (how a write reaches every CPU), simulation, the
 *   trap entry.
 *
 * Whatever it takes from these, a port writes arch_kprobe_prepare() (its
 * decoder, its slots), arch_kprobe_check_insn_boundary(),
 * arch_arm_kprobe(), arch_disarm_kprobe() (or has them defined by
 * <asm-generic/kprobes-slot.h>), arch_remove_kprobe(),
 * arch_init_kprobes(), its trap handlers, kprobe_exceptions_notify() if a
 * die event is its way into them, and, with kretprobes,
 * arch_prepare_kretprobe() and the return trampoline, which calls
 * kretprobe_trampoline_handler().
 *
 * Checklist for a new port, in order
 * ----------------------------------
 * 1. arch/<arch>/include/asm/kprobes.h, as above.
 * 2. The back-end directory, arch/<arch>/kernel/probes/ (x86:
 *    arch/x86/kernel/kprobes/), built from arch/<arch>/kernel/Makefile: a
 *    header of its own that includes this one, core.c (the per-CPU state,
 *    section A, the trap handlers; with slots, start from
 *    <asm-generic/kprobes-slot.h>'s template), then as supported
 *    kretprobe.c and the return trampoline, ftrace.c, opt.c and the
 *    detour.  Every function
 *    of the trap path is NOKPROBE_SYMBOL(); the file of
 *    kprobe_ftrace_handler() is built without the ftrace hook
 *    (CFLAGS_REMOVE_ftrace.o = $(CC_FLAGS_FTRACE)).
 * 3. The architecture's trap code and page fault handler call the
 *    handlers of step 2.
 * 4. arch/<arch>/Kconfig selects HAVE_KPROBES and
 *    HAVE_KPROBES_ARCH_CONTRACT, without which KPROBES cannot be enabled;
 *    then, for what the port supports, HAVE_KRETPROBES with
 *    HAVE_KRETPROBE_INSTANCE_POOL, HAVE_KPROBES_ON_FTRACE (and
 *    HAVE_KPROBES_ON_FTRACE_ARGS if its ftrace saves no pt_regs) and
 *    HAVE_OPTPROBES (all in arch/Kconfig; this tree changes the Kconfig
 *    files it does not carry with patches/).
 * 5. kernel/kprobes/tests/arch_<arch>.c: what the KUnit suites must know
 *    of the architecture (kprobes_kunit.h there; with OPTPROBES also an
 *    optimize_<arch>.c, optimize.h), its lines in tests/Makefile, and the
 *    architecture in KPROBES_KUNIT_TEST's depends (kernel/kprobes/Kconfig).
 * 6. The test harness, <name> being its name of the architecture
 *    (riscv64, ppc64le): tools/testing/kprobes/arch/<name>.sh (keys in
 *    arch-defaults.sh there) says PORTED=1, lists in REMOVED upstream's
 *    kprobes files that the back-end replaces, and how the guest boots
 *    (BOOT=1, QEMU, ...); kernel/configs/kprobes-test-<name>.config
 *    describes the guest's machine and turns off the x86-only lines of
 *    kprobes-test.config.
 *
 * Context rules, unless a function says otherwise
 * ------------------------------------------------
 * "locked":  process context, the core's registration lock held (it is the
 *            outermost kprobes lock; see kernel/kprobes/internal.h for the
 *            whole order).  May sleep, allocate, and take cpus_read_lock(),
 *            jump_label_lock() and text_mutex, in that order.
 *            kprobe_assert_locked() checks it.
 * "text":    locked, and cpus_read_lock() and text_mutex held by the core:
 *            a port may write with stop_machine_cpuslocked() (arm64).
 * "hit":     the trap path: interrupts off, or at least preemption off,
 *            possibly NMI; an RCU reader.  No sleeping, no allocation, no
 *            lock but raw spinlocks; every function is NOKPROBE_SYMBOL.
 *
 * Errors come back as a negative errno.  Functions that can refuse a probe
 * also fill *@why with a short human-readable reason (a string literal),
 * which the core prints in its one refusal line; *@why may be left NULL.
 */
#ifndef _LINUX_KPROBES_ARCH_H
#define _LINUX_KPROBES_ARCH_H

#include <linux/execmem.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>

#ifdef CONFIG_KPROBES

struct kprobe_hit_site;
struct list_head;
struct notifier_block;
struct pt_regs;

/* ---------------------------------------------------------------------
 * A. Implemented by the architecture
 * ---------------------------------------------------------------------
 */

/**
 * arch_kprobe_prepare() - get a new site ready to be armed (arch; locked)
 * @p: the site: @p->addr is the checked probe address, the
 *	original instruction is in the text (no breakpoint, no jump covers
 *	it), @p->ainsn is zeroed
 * @why: the reason for a refusal
 *
 * Decodes the instruction at @p->addr, decides how a hit executes it
 * (copy in a slot, emulation, ...), saves the original opcode in
 * @p->opcode and fills @p->ainsn.  Read the text with
 * kprobe_copy_original_text(), allocate slots with kprobe_slot_alloc().
 *
 * Return: 0, or a negative errno that register_kprobe() passes on: for an
 * instruction that cannot be probed -EILSEQ (riscv, powerpc, arm64) or -EINVAL
 * (x86, whose -EILSEQ means bytes that do not decode; s390, as its
 * previous back-end answered); -ENOMEM without
 * memory or a slot, -EFAULT if the text cannot be read or the slot not
 * written; x86 also -EBUSY (a foreign int3, an SMP-alternatives lock
 * prefix) and -ERANGE (a rip-relative operand out of reach of the slot).
 */
int arch_kprobe_prepare(struct kprobe_hit_site *p, const char **why);

/**
 * arch_kprobe_check_insn_boundary() - does @addr start an instruction (arch)
 * @addr: a probe address inside kernel or module text
 * @why: the reason when it does not
 *
 * Context: locked (module text cannot go away meanwhile).
 * Return: 0, or -EILSEQ.
 */
int arch_kprobe_check_insn_boundary(unsigned long addr, const char **why);

/*
 * Arming (arch; text): arch_arm_kprobe() puts the breakpoint over
 * @p->addr, arch_disarm_kprobe() puts @p->opcode back; both return with
 * every CPU seeing the new text.  arch_remove_kprobe() frees what
 * arch_kprobe_prepare() took (locked, text_mutex not held); the site is
 * out of the table and no CPU can be running its slot any more.
 */
void arch_arm_kprobe(struct kprobe_hit_site *p);
void arch_disarm_kprobe(struct kprobe_hit_site *p);
void arch_remove_kprobe(struct kprobe_hit_site *p);

/*
 * Arm or disarm @nr sites (none armed through ftrace) with one round of
 * cross-CPU synchronisation; @kps may be reordered (weak; text).  The
 * defaults loop over arch_arm_kprobe()/arch_disarm_kprobe().
 */
void arch_arm_kprobes_batch(struct kprobe_hit_site **kps, unsigned int nr);
void arch_disarm_kprobes_batch(struct kprobe_hit_site **kps, unsigned int nr);

/*
 * Does a hit on the prepared site @p run its instruction without a second
 * trap when no post handler is registered (x86 "boosting")?  For tests
 * and diagnostics (weak: false).
 */
bool arch_kprobe_boostable(struct kprobe_hit_site *p);

/*
 * Busy sections (arch, static inline in <asm/kprobes.h>, or from
 * <asm-generic/kprobes-cpu.h>; hit).
 * kprobe_busy_begin() makes this CPU look as if a probe were running, so
 * that probes hit meanwhile are missed; the core sets current_kprobe, the
 * architecture its own per-CPU state:
 *
 *	unsigned long arch_kprobe_busy_begin(void);
 *	void arch_kprobe_busy_end(unsigned long saved);
 *
 * The first enters the architecture's busy state and returns what it has
 * to restore, the second gets that back.  Called with preemption
 * disabled, for every level of nested sections: a nested one finds the
 * busy state and gives it back.  (A kretprobe's return handler needs no
 * section: the core makes its kprobe current_kprobe for the call, which
 * is what every hit path tests first.)
 */

/* Once at boot, before any probe (arch; process context). */
int arch_init_kprobes(void);

/*
 * Blacklist (weak): arch_populate_kprobe_blacklist() adds the
 * architecture's unprobeable areas with kprobe_add_area_blacklist() or
 * kprobe_add_ksym_blacklist() at boot, or names a list of functions with
 * kprobe_blacklist_ksyms() (core; a name the build lacks is skipped);
 * arch_within_kprobe_blacklist() is asked about every address (locked).
 */
int arch_populate_kprobe_blacklist(void);
bool arch_within_kprobe_blacklist(unsigned long addr);
int kprobe_blacklist_ksyms(const char *const *names, unsigned int nr);

/*
 * Where a probe at symbol+@offset really goes (weak: @addr), e.g. past an
 * ENDBR or a global-entry TOC setup; *@on_func_entry says whether that is
 * the function's entry.  Locked.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry);

/* Extra kallsyms entries for the architecture's own text (weak: none). */
int arch_kprobe_get_kallsym(unsigned int *symnum, unsigned long *value,
			    char *type, char *sym);

/*
 * The architecture's die notifier, registered by the core (arch; weak:
 * NOTIFY_DONE, for a port whose trap code calls its handlers directly).
 */
int kprobe_exceptions_notify(struct notifier_block *self, unsigned long val,
			     void *data);

/* ---- kretprobes (CONFIG_KRETPROBES) ---- */

/*
 * At a kretprobe's entry hit: save the return address of the probed
 * function in @ri->ret_addr and replace it by arch_kretprobe_trampoline();
 * @ri->fp identifies the frame for kretprobe_find_ret_addr() (arch; hit).
 * The trampoline calls kretprobe_trampoline_handler(), which returns the
 * real return address.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri,
			    struct pt_regs *regs);

/* ---- probes on ftrace sites (CONFIG_KPROBES_ON_FTRACE) ---- */

/*
 * arch_prepare_kprobe_ftrace() replaces arch_kprobe_prepare() for a site
 * at an ftrace call (locked); kprobe_ftrace_handler() is the callback of
 * the core's ftrace_ops (hit): it finds the site with kprobe_hit_find()
 * and runs it as a breakpoint hit would.
 *
 * Which registers the handlers see depends on the ftrace under the port.
 * DYNAMIC_FTRACE_WITH_REGS (x86, powerpc, s390, loongarch, parisc): the
 * core's ftrace_ops asks for FTRACE_OPS_FL_SAVE_REGS, and the handlers
 * get the full pt_regs of the ftrace caller, every register real.
 * DYNAMIC_FTRACE_WITH_ARGS (arm64; the port selects
 * HAVE_KPROBES_ON_FTRACE_ARGS): the ops asks for nothing, and the caller
 * saves only a struct ftrace_regs, the registers a function's entry may
 * read and the few it needs to resume.  The handlers then get a pt_regs
 * built on the callback's stack, which has real values only where the
 * ftrace caller saved one: the argument registers, the frame pointer,
 * the link register (the probed function's return address), the stack
 * pointer and the pc; everything else reads as 0 (callee-saved
 * registers, which the callback's own code may already have spilled,
 * and the scratch registers the caller uses); the interrupt state is the
 * probed context's, which ftrace does not change.  After the handlers,
 * the registers the ftrace caller restores from ftrace_regs go back
 * there: a pre handler may redirect execution through the pc (as with a
 * breakpoint probe; fail_function, bpf_override_return), divert the
 * return through the link register (a kretprobe's entry) and change the
 * arguments.  Writes to any other register, the stack pointer included,
 * are lost.  Each port says which are which at its two hooks:
 *
 * arch_kprobe_ftrace_regs_get() (arch, WITH_ARGS ports; hit) fills all of
 * @regs from @fregs as above; arch_kprobe_ftrace_regs_put() (same) copies
 * what the ftrace caller restores from @regs back to @fregs, the pc (the
 * resume address: as the caller passed it unless a handler redirected
 * execution) included.  Called once per hit that runs handlers, from
 * <asm-generic/kprobes-ftrace.h>; defined in the port's ftrace file,
 * where the compiler may inline them into the callback, and NOKPROBE.
 */
int arch_prepare_kprobe_ftrace(struct kprobe_hit_site *p);
void arch_kprobe_ftrace_regs_get(struct ftrace_regs *fregs,
				 struct pt_regs *regs);
void arch_kprobe_ftrace_regs_put(const struct pt_regs *regs,
				 struct ftrace_regs *fregs);
/*
 * Weak, default 0: a trampoline of the architecture's own for the core's
 * ftrace_ops (locked).  ftrace calls it straight from the fentry call of
 * a probed function that nothing else traces, instead of its generic
 * caller and the callback; it saves pt_regs, finds the site with
 * kprobe_hit_find() and runs it as kprobe_ftrace_handler() would.
 */
unsigned long arch_kprobe_ftrace_trampoline(void);
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs);

/* ---- jump optimization (CONFIG_OPTPROBES) ---- */

#ifdef CONFIG_OPTPROBES

/**
 * struct kprobe_opt_insn - the architecture's half of an optimized site
 * @addr: the probe address (core; constant)
 * @probe: the site, NULL once the site died (core; the detour's
 *	handler reads it with READ_ONCE() and runs no handler for NULL)
 * @buf: the detour, from kprobe_optslot_alloc() (arch)
 * @copy: where in @buf the copy of the region starts: a hit on the site's
 *	breakpoint may resume there instead of stepping (arch)
 * @len: the region [@addr, @addr + @len) the detour executes (arch)
 * @single: the region is one instruction: no task can be stopped inside
 *	it, so the jump may go in without waiting (arch)
 * @patch_len: bytes at @addr the jump replaces, <= @len (arch)
 * @orig: their original contents (arch)
 *
 * The fields marked arch are set by arch_optprobe_prepare() and constant
 * afterwards.  The record outlives its site until no task can be inside
 * the detour.
 */
struct kprobe_opt_insn {
	unsigned long addr;
	struct kprobe_hit_site *probe;
	kprobe_opcode_t *buf;
	unsigned long copy;
	unsigned int len;
	bool single;
	unsigned int patch_len;
	u8 orig[KPROBE_OPT_PATCH_MAX];
};

/**
 * arch_optprobe_prepare() - check a site's region and build its detour
 * @oi: the record; @oi->addr is an armed breakpoint site with no post
 *	handler, not on ftrace
 * @why: the reason for a refusal
 *
 * Context: locked; takes text_mutex to write the detour.
 * Return: 0 with the arch fields of @oi set, or a negative errno: the
 * site stays a breakpoint probe for good.
 */
int arch_optprobe_prepare(struct kprobe_opt_insn *oi, const char **why);

/*
 * Put the jump of a prepared record into the text (arch_optprobe_patch())
 * or the breakpoint and the original bytes after it back
 * (arch_optprobe_unpatch()).  Both may only queue the write; the core
 * calls them for a batch of records in ascending address order, then
 * arch_optprobe_flush(), which returns once every CPU sees all of them.
 * Patching: no task is inside any of the regions.  Unpatching: a CPU that
 * hits the site meanwhile must still end up in the detour or on the
 * breakpoint.  Context: text, and cpus_read_lock() held.
 */
void arch_optprobe_patch(struct kprobe_opt_insn *oi);
void arch_optprobe_unpatch(struct kprobe_opt_insn *oi);
void arch_optprobe_flush(void);

/* Free the detour; no task can be inside it any more (locked). */
void arch_optprobe_release(struct kprobe_opt_insn *oi);

#endif /* CONFIG_OPTPROBES */

/* ---------------------------------------------------------------------
 * B. Offered by the core
 * ---------------------------------------------------------------------
 */

/* Warn (lockdep) unless the caller holds the registration lock. */
void kprobe_assert_locked(void);

/*
 * Instruction slots (locked): @bytes (at most KPROBE_SLOT_BYTES) of
 * executable memory, in KPROBE_SLOT_UNIT (16) byte units, written with the
 * base's text_poke helpers.  New pages are filled with
 * BREAKPOINT_INSTRUCTION; a reused slot holds what its last user wrote,
 * so the architecture writes every byte a CPU might run or speculate
 * into.  A freed slot is reused only once no task or CPU can be inside it.
 * Optimization detours: KPROBE_OPTSLOT_BYTES each, same rules.
 */
#define KPROBE_SLOT_UNIT	16
kprobe_opcode_t *kprobe_slot_alloc(size_t bytes);
void kprobe_slot_free(kprobe_opcode_t *slot);
kprobe_opcode_t *kprobe_optslot_alloc(void);
void kprobe_optslot_free(kprobe_opcode_t *slot);

/*
 * Where detour buffers live (weak): a page of executable memory filled
 * with breakpoints, by default alloc_insn_page()'s.  powerpc, whose
 * branch reaches +/- 32 MB, hands out pages inside its kernel text.
 * Allocation: process context, under the slot allocator's mutex; free:
 * process context (a workqueue), no lock held, after a grace period.
 */
void *arch_kprobe_optslot_page_alloc(void);
void arch_kprobe_optslot_page_free(void *page);

/*
 * A page of execmem memory of @type, filled with BREAKPOINT_INSTRUCTION and
 * made read-only and executable, or NULL: the default alloc_insn_page()
 * with EXECMEM_KPROBES, and what an override that needs another type
 * calls.  Free with execmem_free().  Process context.
 */
void *kprobe_trap_page_alloc(enum execmem_type type);

/*
 * Copy @len bytes of text at @addr into @dst with the original bytes of
 * every probe site and jump put back: what a decoder must look at.
 * Return: 0 or -EFAULT (locked).
 */
int kprobe_copy_original_text(void *dst, unsigned long addr, size_t len);

/*
 * jump_label_text_reserved() for [@start, @end], fast.  The base's scans
 * every jump entry of vmlinux whatever the address and decodes each on
 * x86 (some 0.7 ms per call under TCG); this looks only at the entries
 * of the text's module, or of vmlinux, and sizes only the few near
 * @start.  Called with jump_label_lock() held; a module the text is in
 * must be pinned (locked).
 */
bool kprobe_jump_label_reserved(void *start, void *end);

/*
 * kallsyms_lookup_size_offset(), fast for module text too: the size of
 * the function around @addr and the offset of @addr in it (locked).
 */
bool kprobe_sym_size_offset(unsigned long addr, unsigned long *size,
			    unsigned long *offset);

/* ---------------------------------------------------------------------
 * C. The hit path, offered by the core inline
 * ---------------------------------------------------------------------
 *
 * Every probe hit finds its site and runs its handlers through the four
 * helpers below.  They are inline because they run on every hit, and a
 * call each would cost more than the lookup itself; so the two structures
 * they read are laid out here.  Both are the core's: written only by it
 * (under the registration lock), read only by these helpers.
 */

/**
 * struct kprobe_hit_site - a probed address, as the hit path and the
 *	architecture see it
 * @addr: the probed address (core)
 * @solo: the only enabled member, when it has a pre handler: called
 *	directly instead of walking the members; else NULL (core)
 * @resume: where a breakpoint hit goes instead of executing the probed
 *	instruction in place while the site's detour is published, or 0
 *	(see kprobe_hit_resume(); core)
 * @ainsn: how the instruction at @addr is executed (arch: filled by
 *	arch_kprobe_prepare(), freed by arch_remove_kprobe())
 * @flags: KPROBE_FLAG_GONE, _OPTIMIZED, _FTRACE and _ON_FUNC_ENTRY, as
 *	in struct kprobe; tested with kprobe_gone() and friends (core)
 * @opcode: what the breakpoint replaced (arch, arch_kprobe_prepare())
 * @post: an enabled member has a post handler, so a hit must come back
 *	after the instruction (core; read it once per hit)
 * @state: where the site is in its life (enum kprobe_site_state of
 *	kernel/kprobes/internal.h; core, under the registration lock).  Not
 *	read by the hit path; it is here because it fits the padding.
 *
 * Not a struct kprobe: the site is the core's, and the users' kprobes are
 * its members.  A handler runs with current_kprobe set to its own kprobe
 * (see kprobe_hit_pre()); before the first, and on a site with no solo
 * member between handlers, current_kprobe is &kprobe_hit_marker or the
 * member whose handler ran last.  The architecture keeps the site itself
 * in its per-CPU state while it steps the instruction.
 */
struct kprobe_hit_site {
	kprobe_opcode_t *addr;
	struct kprobe *solo;
	unsigned long resume;
	struct arch_specific_insn ainsn;
	u32 flags;
	kprobe_opcode_t opcode;
	bool post;
	u8 state;
};

/**
 * struct kprobe_hit_table - the address table: sites by address
 * @mult: KPROBE_HIT_MULT, kept here so that a hit on a 64-bit kernel
 *	loads it with @shift: a 64-bit constant takes five instructions on
 *	powerpc, four on arm64 (a 32-bit one is an immediate or two)
 * @shift: BITS_PER_LONG - @order (the hash is the top @order bits of
 *	addr * @mult in a word: kprobe_hit_hash())
 * @order: log2 of the number of buckets
 * @mask: number of buckets - 1
 * @bucket: the buckets, an allocation of their own: NULL (empty, ends a
 *	search), a site, or a removed entry, a site whose addr is NULL (never
 *	matches)
 * @live: sites in the table (core)
 * @used: buckets not empty (core)
 * @rcu: deferred free of a replaced table (core)
 *
 * Open addressing with linear probing; there is always an empty bucket.
 * A new table is published with rcu_assign_pointer(kprobe_hit_table).
 * The buckets are not a flexible array at the end: 2^order pointers and
 * a header would need the next power of two of memory once the table is
 * page-sized, twice what it holds.
 */
struct kprobe_hit_table {
	unsigned long mult;
	unsigned int shift;
	unsigned int order;
	unsigned long mask;
	struct kprobe_hit_site __rcu **bucket;
	unsigned int live;
	unsigned int used;
	struct rcu_head rcu;
};

extern struct kprobe_hit_table __rcu *kprobe_hit_table;

/* current_kprobe while a hit runs none of its members' handlers (core). */
extern struct kprobe kprobe_hit_marker;

/*
 * The handlers of a site that has no @solo member: every enabled member's,
 * in registration order; the pre handlers stop at the first that returns
 * non-zero (core; hit).
 */
int kprobe_hit_pre_all(struct kprobe_hit_site *p, struct pt_regs *regs);
void kprobe_hit_post_all(struct kprobe_hit_site *p, struct pt_regs *regs);

/* A hit whose handlers did not run: every member's nmissed grows (hit). */
void kprobe_hit_missed(struct kprobe_hit_site *p);

/*
 * The multiplier of the address hash: hash_64()'s on 64-bit kernels,
 * hash_32()'s on 32-bit ones, where a 64-bit product would take three
 * multiplies and a carry on every hit.  A 32-bit kernel multiplies
 * through __hash_32(), the same product, which an architecture without
 * an integer multiply does in fewer steps than the compiler would
 * (parisc's asm/hash.h).
 */
#define KPROBE_HIT_MULT	(BITS_PER_LONG == 64 ?				\
			 (unsigned long)GOLDEN_RATIO_64 : GOLDEN_RATIO_32)

/* The first bucket of @addr in table @t. */
static __always_inline unsigned long
kprobe_hit_hash(const struct kprobe_hit_table *t, unsigned long addr)
{
	if (BITS_PER_LONG == 32)
		return __hash_32(addr) >> t->shift;
	return addr * t->mult >> t->shift;
}

/*
 * The search in table @t (core: also under its lock).  Buckets need no
 * lockdep predicate of their own: whoever may read @t may read them.
 */
static __always_inline struct kprobe_hit_site *
kprobe_hit_table_search(struct kprobe_hit_table *t, unsigned long addr)
{
	struct kprobe_hit_site *p;
	unsigned long i;

	i = kprobe_hit_hash(t, addr);
	for (;;) {
		/* Pairs with rcu_assign_pointer() of the bucket. */
		p = rcu_dereference_raw(t->bucket[i]);
		if (!p || (unsigned long)p->addr == addr)
			return p;
		i = (i + 1) & t->mask;
	}
}

/**
 * kprobe_hit_find() - the probe site a CPU trapped on
 * @addr: the trap address, never NULL
 *
 * The table pointer is read without a lockdep predicate: hits run with
 * preemption or interrupts disabled, which makes them RCU readers, and
 * under CONFIG_PROVE_LOCKING the check would cost as much as the hit.
 * Context: hit.
 * Return: the site at @addr, or NULL.  A site armed through ftrace has
 * KPROBE_FLAG_FTRACE and no breakpoint of ours.
 */
static __always_inline struct kprobe_hit_site *
kprobe_hit_find(unsigned long addr)
{
	return kprobe_hit_table_search(rcu_dereference_raw(kprobe_hit_table),
				       addr);
}

/*
 * The member a hit of @p calls directly, or NULL to walk the members; read
 * once per hit, for kprobe_claim_idle_here() and kprobe_hit_pre().  A
 * member being disabled stops being solo before its site's text is
 * disarmed: a hit in between runs it, as if it came earlier.
 */
static __always_inline struct kprobe *kprobe_hit_solo(struct kprobe_hit_site *p)
{
	return READ_ONCE(p->solo);
}

/**
 * kprobe_hit_pre() - run the pre handlers of a hit site
 * @p: the site, from kprobe_hit_find()
 * @solo: kprobe_hit_solo(@p), as the caller read it
 * @regs: the registers of the hit
 *
 * A handler runs with current_kprobe set to its own kprobe, which is what
 * kprobe_running() tells it (and bpf_get_func_ip()): the caller made
 * @solo current when it claimed the CPU, the walk sets each member.
 * Context: hit.
 * Return: non-zero if a handler changed the instruction pointer: then
 * the probed instruction must not run, and no post handler either.
 */
static __always_inline int kprobe_hit_pre(struct kprobe_hit_site *p,
					  struct kprobe *solo,
					  struct pt_regs *regs)
{
	if (solo)
		return solo->pre_handler(solo, regs);
	return kprobe_hit_pre_all(p, regs);
}

/*
 * The body of kprobe_hit_post() and kprobe_hit_post_here(): @here (a
 * constant) says whether current_kprobe is reached through the per-CPU
 * base or through @cur.  The handler is read once, before the store to
 * current_kprobe, which the compiler cannot tell from a store to it.
 */
static __always_inline void __kprobe_hit_post(struct kprobe_hit_site *p,
					      struct pt_regs *regs,
					      struct kprobe **cur, bool here)
{
	struct kprobe *m = READ_ONCE(p->solo);
	kprobe_post_handler_t post;

	if (!m) {
		kprobe_hit_post_all(p, regs);
		return;
	}
	post = m->post_handler;
	if (!post)
		return;
	if (here)
		__this_cpu_write(current_kprobe, m);
	else
		WRITE_ONCE(*cur, m);
	post(m, regs, 0);
}

/**
 * kprobe_hit_post() - run the post handlers of a hit site
 * @p: the site, whose @post the caller found true
 * @regs: the registers after the probed instruction
 * @cur: this CPU's current_kprobe, as the caller holds it (struct
 *	kprobe_cpu's @cur): never NULL
 *
 * kprobe_hit_post_here() is the same for a caller that holds no pointer
 * (x86: a per-CPU access is one instruction there).
 * Context: hit, as kprobe_hit_pre().
 */
static __always_inline void kprobe_hit_post(struct kprobe_hit_site *p,
					    struct pt_regs *regs,
					    struct kprobe **cur)
{
	__kprobe_hit_post(p, regs, cur, false);
}

/* kprobe_hit_post(), current_kprobe through the per-CPU base. */
static __always_inline void kprobe_hit_post_here(struct kprobe_hit_site *p,
						 struct pt_regs *regs)
{
	__kprobe_hit_post(p, regs, NULL, true);
}

/*
 * kprobe_hit_resume() (below) for a hit path that has just read @p->post
 * and found it false: the hit goes on as if it came before any post
 * handler registered since.
 */
static __always_inline unsigned long
kprobe_hit_resume_no_post(struct kprobe_hit_site *p)
{
	if (!IS_ENABLED(CONFIG_OPTPROBES))
		return 0;
	/* Pairs with the store-release of the core: the detour is written. */
	return smp_load_acquire(&p->resume);
}

/**
 * kprobe_hit_resume() - where a hit goes instead of running in place
 * @p: the site
 *
 * While a site's detour is published (CONFIG_OPTPROBES), its region must
 * not be entered in place: a hit goes to the detour's copy of the region,
 * which jumps back after it.  Never for a site with a post handler, which
 * needs the instruction stepped.
 * Context: hit.
 * Return: that address, or 0 to execute the instruction as usual.
 */
static __always_inline unsigned long
kprobe_hit_resume(struct kprobe_hit_site *p)
{
	if (!IS_ENABLED(CONFIG_OPTPROBES) || READ_ONCE(p->post))
		return 0;
	return kprobe_hit_resume_no_post(p);
}

#endif /* CONFIG_KPROBES */

#endif /* _LINUX_KPROBES_ARCH_H */
