/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the KUnit suites of kprobes share.
 *
 * The suites are one module (kprobes_kunit), a file per subject.  Black
 * box, through <linux/kprobes.h> only:
 *
 *   register.c      "kprobes_register": registering, refusing (every
 *                   error code), enabling, disabling, unregistering
 *   hit.c           "kprobes_hit": what a hit does: every instruction,
 *                   several probes at one address, recursion, handlers
 *                   that redirect or fault, arming under load
 *   kretprobe.c     "kprobes_kretprobe": struct kretprobe (and one
 *                   count of the core's, the pools not yet freed)
 *   ftrace.c        "kprobes_ftrace": probes on ftrace call sites next
 *                   to other ftrace users of the function
 *
 * White box, reading or driving the core's internals (../internal.h):
 *
 *   internals.c     "kprobes_internals": blacklisted parts, busy
 *                   sections, instruction slots, dying text
 *   optimize.c      "kprobes_optimize": jump optimization, on assembly
 *                   targets each architecture describes in a table of
 *                   its own (optimize.h, optimize_<arch>.c)
 *   optimize_arm64.c "kprobes_optimize_arm64": arm64's refusals, with
 *                   their reasons, its detour and the branch's reach
 *   optimize_riscv.c "kprobes_optimize_riscv": the same for riscv's jal
 *
 * Beside them:
 *
 *   helpers.c       the probe targets, reference results, counting
 *                   handlers, decoded target text
 *   insn.c          the suites of instructions a back-end computes in
 *                   its trap (kpkt_insn_*() below)
 *   arch_<arch>.c   what the suites must know of an architecture:
 *                   instruction boundaries, the names it refuses, its
 *                   argument register (the kpkt_arch_*() below)
 *
 * An architecture's own suites live with its back-end and use these
 * helpers (x86: arch/x86/kernel/kprobes/boost_kunit.c).
 *
 * Probes go on small functions of helpers.c (kpkt_*); the
 * functions are called and the cases check what the handlers saw and
 * what the callers got back.  Targets are always called through
 * kpkt_call(), which hides the function pointer from the compiler: a
 * direct call could be redirected to a specialised clone
 * (kpkt_x.constprop.0) that the probe is not on, and an indirect call
 * also proves that a landing pad at the start of the target (x86 IBT) is
 * still intact while it is probed.
 *
 * Some cases need helpers that vmlinux does not export to modules (the
 * instruction decoder, kallsyms iteration, exception tables, the
 * optimizer barrier).  Those run when the suites are built in and skip,
 * saying so, when they are a module.
 */
#ifndef _KPROBES_KUNIT_H
#define _KPROBES_KUNIT_H

#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/types.h>

/* True when vmlinux-internal helpers may be called (see above). */
#define KPKT_BUILTIN	IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST)
#define KPKT_NO_HELPERS	"needs vmlinux-internal helpers; runs only when built in"

typedef long (*kpkt_fn_t)(long);
typedef void (*kpkt_hook_t)(void);

/* Call @fn on @x without letting the compiler see which function it is. */
static __always_inline long kpkt_call(kpkt_fn_t fn, long x)
{
	OPTIMIZER_HIDE_VAR(fn);
	OPTIMIZER_HIDE_VAR(x);
	return fn(x);
}

/* The targets (helpers.c says what each one is for). */
long kpkt_arith(long x);
long kpkt_alt(long x);
long kpkt_rip(long x);
long kpkt_leaf(long x);
long kpkt_caller(long x);
long kpkt_branch(long x);
long kpkt_inner(long x);
long kpkt_peek(long from);
long kpkt_rsum(long n);
long kpkt_inflight(long x);
long kpkt_nokprobe(long x);
long kpkt_keyed(long x);
long kpkt_static_caller(long x);
long kpkt_kprobes_text(long x);
long kpkt_ret_caller(kpkt_fn_t fn, long x);

/* Called in the middle of kpkt_inflight() when set. */
extern kpkt_hook_t kpkt_inflight_hook;

/* Odd and even arguments, so both sides of kpkt_branch() run. */
#define KPKT_NARGS	4
extern const long kpkt_args[KPKT_NARGS];

/**
 * struct kpkt_ref - what a target returns while nothing probes it
 * @fn: the target
 * @want: its result for each of kpkt_args[]
 */
struct kpkt_ref {
	kpkt_fn_t fn;
	long want[KPKT_NARGS];
};

void kpkt_ref_init(struct kpkt_ref *ref, kpkt_fn_t fn);
int kpkt_run(struct kunit *test, const struct kpkt_ref *ref, const char *what);

/**
 * struct kpkt_probe - a kprobe and what its handlers observed
 * @kp: the probe
 * @pre_hits: pre handler calls
 * @post_hits: post handler calls
 * @not_running: handler calls that found kprobe_running() != &@kp
 * @arg0: first argument register as the pre handler saw it
 * @redirect: if non-zero, the pre handler resumes there and returns 1
 * @set_arg0: if @do_set_arg0, the pre handler writes it to the first
 *	argument register
 * @do_set_arg0: see @set_arg0
 * @nest_fn: called by the pre (or, with @nest_in_post, post) handler
 * @nest_in_post: call @nest_fn from the post handler instead
 * @nest_ret: what @nest_fn returned the last time
 * @fault_in_pre: the pre handler reads kpkt_bad_addr
 * @fault_in_post: the post handler reads kpkt_bad_addr
 * @fault_ret: what the last read of kpkt_bad_addr returned
 */
struct kpkt_probe {
	struct kprobe kp;
	atomic_t pre_hits;
	atomic_t post_hits;
	atomic_t not_running;
	unsigned long arg0;
	unsigned long redirect;
	unsigned long set_arg0;
	bool do_set_arg0;
	kpkt_fn_t nest_fn;
	bool nest_in_post;
	long nest_ret;
	bool fault_in_pre;
	bool fault_in_post;
	int fault_ret;
};

/* An unmapped kernel address (a vmalloc guard page) for the fault cases. */
extern void *kpkt_bad_addr;

struct kpkt_probe *kpkt_probe_new(struct kunit *test, void *addr,
				  const char *sym, unsigned int offset);
void kpkt_probe_reset(struct kpkt_probe *pp);
int kpkt_pre_hits(struct kpkt_probe *pp);
int kpkt_post_hits(struct kpkt_probe *pp);
int kpkt_pre(struct kprobe *p, struct pt_regs *regs);
void kpkt_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags);
int kpkt_register(struct kunit *test, struct kprobe *kp);
void kpkt_unregister(struct kunit *test, struct kprobe *kp);
void kpkt_expect_reject(struct kunit *test, struct kprobe *kp, int err,
			const char *what);
void kpkt_check_probe(struct kunit *test, struct kpkt_probe *pp,
		      const struct kpkt_ref *ref, bool at_entry);
void kpkt_settle(void);
bool kpkt_site_boostable(void *addr);
void kpkt_setup_bad_addr(struct kunit *test);
int kpkt_case_init(struct kunit *test);

/* KUnit deferred actions (kunit_add_action() and friends). */
void kpkt_unregister_action(void *kp);
void kpkt_unregister_ret_action(void *rp);
void kpkt_vfree_action(void *addr);

#define KPKT_MAX_INSNS	64

/**
 * struct kpkt_text - the instructions of a target after its entry sequence
 * @start: the function's address
 * @nr: number of instructions in @off/@len
 * @off: offset of each instruction from @start
 * @len: length of each instruction
 */
struct kpkt_text {
	unsigned long start;
	unsigned int nr;
	unsigned int off[KPKT_MAX_INSNS];
	unsigned char len[KPKT_MAX_INSNS];
};

int kpkt_decode_now(kpkt_fn_t fn, bool to_ret, struct kpkt_text *t);
int kpkt_suite_init(struct kunit_suite *suite);
int kpkt_decode(kpkt_fn_t fn, bool to_ret, struct kpkt_text *t);
void kpkt_decode_or_skip(struct kunit *test, kpkt_fn_t fn, bool to_ret,
			 struct kpkt_text *t);
void *kpkt_mid_addr(struct kunit *test, kpkt_fn_t fn);

/*
 * The suites of the instructions a back-end computes in its trap instead
 * of stepping them (insn.c; arm, mips, powerpc, s390).  A target is
 * "long f(long x)" in assembly around the instruction under test, whose
 * address the word f_at holds; the suite writes down what each target
 * returns for its four arguments (not asking the CPU), and checks it
 * unprobed and probed, once per hit for each handler, and that the site
 * is computed (or, for the controls, stepped).
 */
#define KPKT_INSN_NARGS	4

struct kprobe_hit_site;

#define KPKT_INSN_DECLARE(name)				\
	long name(long x);				\
	extern const unsigned long name##_at

/**
 * struct kpkt_insn_target - one target of a computed-instruction suite
 * @insn: the instruction, as messages name it
 * @fn: the target
 * @at: where the address of the instruction under test is
 * @computed: whether the back-end computes it, rather than steps it
 * @want: the result for each of the suite's arguments
 */
struct kpkt_insn_target {
	const char *insn;
	kpkt_fn_t fn;
	const unsigned long *at;
	bool computed;
	unsigned long want[KPKT_INSN_NARGS];
};

/* A row of the table: target @name, the address word @name##_at. */
#define KPKT_INSN(name, text, computed, ...) \
	{ text, name, &name##_at, computed, { __VA_ARGS__ } }

/**
 * struct kpkt_insn_suite - a computed-instruction suite
 * @targets: its table
 * @count: how many rows
 * @args: the arguments each target is called with
 * @low32: compare the results' low 32 bits only
 * @computed: does the back-end compute @p's instruction in the trap?
 *	Called under rcu_read_lock().
 */
struct kpkt_insn_suite {
	const struct kpkt_insn_target *targets;
	unsigned int count;
	long args[KPKT_INSN_NARGS];
	bool low32;
	bool (*computed)(const struct kprobe_hit_site *p);
};

void kpkt_insn_unprobed(struct kunit *test, const struct kpkt_insn_suite *s);
void kpkt_insn_probed(struct kunit *test, const struct kpkt_insn_suite *s);

/*
 * KPKT_INSN_SUITE() - the KUnit suite @suite_name over struct
 * kpkt_insn_suite @s: two cases, "targets_unprobed" and "targets_probed",
 * skipped when the suites are a module (kprobe_hit_find() is
 * vmlinux-internal).
 */
#define KPKT_INSN_SUITE(suite_name, s)					\
static const struct kpkt_insn_suite *const kpkt_insn_this = &(s);	\
static void targets_unprobed(struct kunit *test)			\
{									\
	kpkt_insn_unprobed(test, kpkt_insn_this);			\
}									\
static void targets_probed(struct kunit *test)				\
{									\
	kpkt_insn_probed(test, kpkt_insn_this);				\
}									\
static struct kunit_case kpkt_insn_cases[] = {				\
	KUNIT_CASE(targets_unprobed),					\
	KUNIT_CASE(targets_probed),					\
	{}								\
};									\
static struct kunit_suite kpkt_insn_kunit_suite = {			\
	.name = suite_name,						\
	.init = kpkt_insn_case_init,					\
	.test_cases = kpkt_insn_cases,					\
};									\
kunit_test_suite(kpkt_insn_kunit_suite)

int kpkt_insn_case_init(struct kunit *test);

/*
 * What each architecture tells the suites (arch_<arch>.c).
 *
 * kpkt_arch_entry_end() - where the body of the function at @start
 * begins: past what the kernel puts at every entry (x86: ENDBR and the
 * fentry call; riscv: ftrace's patchable nops).
 *
 * kpkt_arch_insn() - the length of the instruction at @addr (0 or
 * -errno when it cannot tell); *@ret is set if it returns from the
 * function, *@pad if it is the padding between functions.
 *
 * kpkt_arch_refused - names that the architecture never lets a kprobe
 * on (its trap handlers and the like), NULL-terminated.
 *
 * kpkt_arch_set_arg0() - make @v the first argument in @regs at an entry.
 *
 * kpkt_arch_user_text() - an address of user text that kallsyms and
 * is_kernel_text() nonetheless count as kernel (x86-64's vsyscall page),
 * or 0.
 *
 * kpkt_arch_fn_addr() - the address of @fn's first instruction (weak: the
 * pointer itself; a Thumb-2 kernel's function pointers have bit 0 set).
 *
 * kpkt_arch_mid_insn_off() - an offset into a longer instruction that
 * is inside it and not taken for something else (weak: 1; a Thumb-2
 * kernel: 2, an odd address being a Thumb function pointer's).
 *
 * kpkt_arch_mid_insn_err() - what registering a probe inside an
 * instruction returns: -EILSEQ (a weak default in helpers.c),
 * -EINVAL where upstream has always answered so (s390).
 *
 * kpkt_arch_ret_addr() - the return address in @regs at a function's
 * entry (before its prologue), or 0 where the suites do not know it (a
 * weak default in helpers.c; arm64: the link register).
 *
 * kpkt_arch_ftrace_regs() - check what the architecture promises of the
 * registers a handler of a probe armed through ftrace sees, @regs in its
 * pre handler (weak default: nothing more than the generic checks; arm64:
 * the registers ftrace_regs does not hold read as 0).
 */
unsigned long kpkt_arch_entry_end(unsigned long start);
int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad);
extern const char *const kpkt_arch_refused[];
void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v);
unsigned long kpkt_arch_user_text(void);
unsigned long kpkt_arch_fn_addr(kpkt_fn_t fn);
unsigned int kpkt_arch_mid_insn_off(void);
int kpkt_arch_mid_insn_err(void);
unsigned long kpkt_arch_ret_addr(const struct pt_regs *regs);
void kpkt_arch_ftrace_regs(struct kunit *test, const struct pt_regs *regs);

#endif /* _KPROBES_KUNIT_H */
