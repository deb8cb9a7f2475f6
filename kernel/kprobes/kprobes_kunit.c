// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Black-box KUnit tests of the kprobes API.
 *
 * Everything here goes through <linux/kprobes.h> and nothing looks inside
 * the core: probes are put on small functions of this file (kpkt_*), the
 * functions are called, and the cases check what the handlers saw and what
 * the callers got back.  Two suites: "kprobes_api" (struct kprobe) and
 * "kprobes_api_kretprobe" (struct kretprobe).  Two more at the end,
 * "kprobes_boost" and "kprobes_batch", cover x86 boosting and batched
 * arming; the first asks the architecture whether a site is boosted, the
 * only look inside (internal.h).
 *
 * Targets are always called through kpkt_call(), which hides the function
 * pointer from the compiler.  A direct call could be redirected to a
 * specialised clone (kpkt_x.constprop.0) that the probe is not on, and an
 * indirect call also proves that the IBT landing pad at the start of the
 * target is still intact while it is probed.
 *
 * Some cases need helpers that vmlinux does not export to modules (the x86
 * instruction decoder, kallsyms iteration, exception tables, the optimizer
 * barrier).  Those run when the suite is built in and skip, saying so, when
 * it is a module.
 */

/* First: it defines pr_fmt.  Only for arch_kprobe_boostable(). */
#include "internal.h"

#include <kunit/test.h>
#include <linux/bsearch.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sizes.h>
#include <linux/sort.h>
#include <linux/static_call.h>
#include <linux/stringhash.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/ibt.h>
#include <asm/insn.h>
#include <asm/ptrace.h>
#include <asm/text-patching.h>
#include <asm/vsyscall.h>

/* True when vmlinux-internal helpers may be called (see the top comment). */
#define KPKT_BUILTIN	IS_BUILTIN(CONFIG_KPROBES_KUNIT_TEST)
#define KPKT_NO_HELPERS	"needs vmlinux-internal helpers; runs only when built in"

typedef long (*kpkt_fn_t)(long);

/* Call @fn on @x without letting the compiler see which function it is. */
static __always_inline long kpkt_call(kpkt_fn_t fn, long x)
{
	OPTIMIZER_HIDE_VAR(fn);
	OPTIMIZER_HIDE_VAR(x);
	return fn(x);
}

/* ------------------------------------------------------------------
 * Probe targets.  Each computes something that depends on every one of
 * its instructions, so an instruction that is mis-executed out of line
 * shows up as a wrong result.
 * ------------------------------------------------------------------
 */

/* Read with a RIP-relative load: the copy in a slot must be relocated. */
static long kpkt_rip_data = 0x1234;

/* Straight-line arithmetic; the hidden values keep every step in the code. */
static __used noinline long kpkt_arith(long x)
{
	long a = x * 3;

	OPTIMIZER_HIDE_VAR(a);
	a += 0x11;
	OPTIMIZER_HIDE_VAR(a);
	a ^= 0x5a5a;
	OPTIMIZER_HIDE_VAR(a);
	return a - x;
}

/* Same signature as kpkt_arith, different results: the redirect target. */
static __used noinline long kpkt_alt(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x + 100000;
}

static __used noinline long kpkt_rip(long x)
{
	long v = READ_ONCE(kpkt_rip_data);

	OPTIMIZER_HIDE_VAR(v);
	return v * 2 + x;
}

static __used noinline long kpkt_leaf(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x * 11 - 2;
}

/* Contains a direct relative CALL: probing it needs the call emulated. */
static __used noinline long kpkt_caller(long x)
{
	long r = kpkt_leaf(x + 1);

	OPTIMIZER_HIDE_VAR(r);
	return r + x;
}

/* Two paths (or a CMOV): a probed conditional branch must go both ways. */
static __used noinline long kpkt_branch(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	if (x & 1) {
		x *= 5;
		OPTIMIZER_HIDE_VAR(x);
		return x + 3;
	}
	return x - 9;
}

/* Called from inside handlers to provoke recursion. */
static __used noinline long kpkt_inner(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x * x + 1;
}

/* A load with an exception-table fixup: returns -EFAULT for a bad @addr. */
static __used noinline long kpkt_peek(long addr)
{
	long v;

	OPTIMIZER_HIDE_VAR(addr);
	__get_kernel_nofault(&v, (long *)addr, long, fault);
	return v;
fault:
	return -EFAULT;
}

/* Sum of 0..n, recursing through kpkt_call() so it cannot become a loop. */
static __used noinline long kpkt_rsum(long n)
{
	long r;

	if (n <= 0)
		return 0;
	r = kpkt_call(kpkt_rsum, n - 1);
	OPTIMIZER_HIDE_VAR(r);
	return r + n;
}

/* Runs kpkt_inflight_hook (if set) in the middle of the call. */
typedef void (*kpkt_hook_t)(void);
static kpkt_hook_t kpkt_inflight_hook;

static __used noinline long kpkt_inflight(long x)
{
	kpkt_hook_t hook = READ_ONCE(kpkt_inflight_hook);

	if (hook)
		hook();
	OPTIMIZER_HIDE_VAR(x);
	return x * 2 + 5;
}

/* On the blacklist through NOKPROBE_SYMBOL(). */
static __used noinline long kpkt_nokprobe(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x + 1;
}

NOKPROBE_SYMBOL(kpkt_nokprobe);

/*
 * Text that is patched at run time.  With CONFIG_JUMP_LABEL kpkt_keyed()
 * has a jump label site (a NOP that enabling the key makes a jump); with
 * inline static calls kpkt_static_caller() has a static call site (a call
 * that static_call_update() re-aims).
 */
static DEFINE_STATIC_KEY_FALSE(kpkt_key);

static __used noinline long kpkt_keyed(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	if (static_branch_unlikely(&kpkt_key))
		return x - 1;
	return x + 1;
}

DEFINE_STATIC_CALL(kpkt_static, kpkt_leaf);

static __used noinline long kpkt_static_caller(long x)
{
	long r = static_call(kpkt_static)(x);

	OPTIMIZER_HIDE_VAR(r);
	return r + 1;
}

/* In .kprobes.text, which is never probed as a whole. */
static __used noinline long __kprobes kpkt_kprobes_text(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x + 2;
}

/* The return address every kretprobe'd call made from here must report. */
static __used noinline long kpkt_ret_caller(kpkt_fn_t fn, long x)
{
	long r = kpkt_call(fn, x);

	OPTIMIZER_HIDE_VAR(r);
	return r;
}

/* ------------------------------------------------------------------
 * Reference results
 * ------------------------------------------------------------------
 */

/* Odd and even arguments, so both sides of kpkt_branch() run. */
#define KPKT_NARGS	4
static const long kpkt_args[KPKT_NARGS] = { 1, 2, 7, 42 };

struct kpkt_ref {
	kpkt_fn_t fn;
	long want[KPKT_NARGS];
};

/* Record what @fn returns while nothing probes it. */
static void kpkt_ref_init(struct kpkt_ref *ref, kpkt_fn_t fn)
{
	unsigned int i;

	ref->fn = fn;
	for (i = 0; i < KPKT_NARGS; i++)
		ref->want[i] = kpkt_call(fn, kpkt_args[i]);
}

/* Call the target on every argument and compare; returns the call count. */
static int kpkt_run(struct kunit *test, const struct kpkt_ref *ref,
		    const char *what)
{
	unsigned int i;

	for (i = 0; i < KPKT_NARGS; i++)
		KUNIT_EXPECT_EQ_MSG(test, kpkt_call(ref->fn, kpkt_args[i]),
				    ref->want[i], "%ps(%ld), %s", ref->fn,
				    kpkt_args[i], what);
	return KPKT_NARGS;
}

/* ------------------------------------------------------------------
 * Probes with counting handlers
 * ------------------------------------------------------------------
 */

/**
 * struct kpkt_probe - a kprobe and what its handlers observed
 * @kp: the probe
 * @pre_hits: pre handler calls
 * @post_hits: post handler calls
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
static void *kpkt_bad_addr;

static void kpkt_handler_fault(struct kpkt_probe *pp)
{
	long v;

	pp->fault_ret = copy_from_kernel_nofault(&v, kpkt_bad_addr, sizeof(v));
}

static int kpkt_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpkt_probe *pp = container_of(p, struct kpkt_probe, kp);

	atomic_inc(&pp->pre_hits);
	pp->arg0 = regs_get_kernel_argument(regs, 0);
	if (pp->fault_in_pre)
		kpkt_handler_fault(pp);
	if (pp->nest_fn && !pp->nest_in_post)
		pp->nest_ret = kpkt_call(pp->nest_fn, 5);
	/* The first argument: %rdi, or %eax on i386 (regparm(3)). */
	if (pp->do_set_arg0 && IS_ENABLED(CONFIG_X86_64))
		regs->di = pp->set_arg0;
	else if (pp->do_set_arg0)
		regs->ax = pp->set_arg0;
	if (pp->redirect) {
		instruction_pointer_set(regs, pp->redirect);
		return 1;
	}
	return 0;
}

static void kpkt_post(struct kprobe *p, struct pt_regs *regs,
		      unsigned long flags)
{
	struct kpkt_probe *pp = container_of(p, struct kpkt_probe, kp);

	atomic_inc(&pp->post_hits);
	if (pp->fault_in_post)
		kpkt_handler_fault(pp);
	if (pp->nest_fn && pp->nest_in_post)
		pp->nest_ret = kpkt_call(pp->nest_fn, 5);
}

static struct kpkt_probe *kpkt_probe_new(struct kunit *test, void *addr,
					 const char *sym, unsigned int offset)
{
	struct kpkt_probe *pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pp);
	pp->kp.addr = addr;
	pp->kp.symbol_name = sym;
	pp->kp.offset = offset;
	pp->kp.pre_handler = kpkt_pre;
	pp->kp.post_handler = kpkt_post;
	return pp;
}

/* Make a used probe registrable again, the way a user re-arms one. */
static void kpkt_probe_reset(struct kpkt_probe *pp)
{
	if (pp->kp.symbol_name)
		pp->kp.addr = NULL;
	pp->kp.flags = 0;
	atomic_set(&pp->pre_hits, 0);
	atomic_set(&pp->post_hits, 0);
	pp->kp.nmissed = 0;
}

static int kpkt_pre_hits(struct kpkt_probe *pp)
{
	return atomic_read(&pp->pre_hits);
}

static int kpkt_post_hits(struct kpkt_probe *pp)
{
	return atomic_read(&pp->post_hits);
}

KUNIT_DEFINE_ACTION_WRAPPER(kpkt_unregister_action, unregister_kprobe,
			    struct kprobe *);
KUNIT_DEFINE_ACTION_WRAPPER(kpkt_unregister_ret_action, unregister_kretprobe,
			    struct kretprobe *);
KUNIT_DEFINE_ACTION_WRAPPER(kpkt_vfree_action, vfree, const void *);

/*
 * Register @kp; when that works, also arrange for it to be unregistered
 * when the case ends, however it ends, because the probe lives in memory
 * that KUnit frees after the case.
 */
static int kpkt_register(struct kunit *test, struct kprobe *kp)
{
	int ret = register_kprobe(kp);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, kpkt_unregister_action, kp);
}

/* Unregister now what kpkt_register() registered. */
static void kpkt_unregister(struct kunit *test, struct kprobe *kp)
{
	kunit_release_action(test, kpkt_unregister_action, kp);
}

/* Registration must fail with @err; undo it if it wrongly succeeded. */
static void kpkt_expect_reject(struct kunit *test, struct kprobe *kp, int err,
			       const char *what)
{
	int ret = register_kprobe(kp);

	if (!ret)
		unregister_kprobe(kp);
	KUNIT_EXPECT_EQ_MSG(test, ret, err, "register_kprobe(%s)", what);
}

/* Wait until deferred optimization (if any) has been done. */
static void kpkt_settle(void)
{
	if (KPKT_BUILTIN)
		wait_for_kprobe_optimizer();
	else
		msleep(200);
}

/* ------------------------------------------------------------------
 * Instruction boundaries, from the kernel's x86 instruction decoder
 * ------------------------------------------------------------------
 */

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

/*
 * Decode @fn from its first byte.  The entry sequence (ENDBR, then the
 * fentry call site) is walked over but not recorded: probes there are the
 * function-entry cases.  With @to_ret the walk stops after the first RET
 * (straight-line targets); otherwise it goes to the end of the symbol and
 * stops at INT3 padding.  Returns 0 or -errno (-EOPNOTSUPP as a module).
 */
static int kpkt_decode_now(kpkt_fn_t fn, bool to_ret, struct kpkt_text *t)
{
	unsigned long start = (unsigned long)fn;
	unsigned long size, offset, entry_end, addr, fentry;
	struct insn insn;
	int ret;

	if (!KPKT_BUILTIN)
		return -EOPNOTSUPP;
	if (!kallsyms_lookup_size_offset(start, &size, &offset) || offset)
		return -ENOENT;

	fentry = ftrace_location(start);
	if (fentry)
		entry_end = fentry + MCOUNT_INSN_SIZE;
	else if (is_endbr(*(u32 *)start))
		entry_end = start + ENDBR_INSN_SIZE;
	else
		entry_end = start;

	t->start = start;
	t->nr = 0;
	for (addr = start; addr < start + size; addr += insn.length) {
		ret = insn_decode_kernel(&insn, (void *)addr);
		if (ret < 0)
			return ret;
		if (!to_ret && insn.opcode.bytes[0] == INT3_INSN_OPCODE)
			break;
		if (addr >= entry_end) {
			if (t->nr == KPKT_MAX_INSNS)
				return -E2BIG;
			t->off[t->nr] = addr - start;
			t->len[t->nr] = insn.length;
			t->nr++;
		}
		if (to_ret && insn.opcode.bytes[0] == RET_INSN_OPCODE)
			break;
	}
	return t->nr ? 0 : -ENODATA;
}

/*
 * The targets are decoded once, before any case put a probe on them: the
 * text of a function that was probed a moment ago need not be back to its
 * original bytes yet (a jump optimization may be undone lazily).
 */
static struct kpkt_decoded {
	kpkt_fn_t fn;
	bool to_ret;
	int ret;
	struct kpkt_text t;
} kpkt_decoded[] = {
	{ kpkt_arith, true }, { kpkt_rip, true }, { kpkt_caller, true },
	{ kpkt_leaf, true }, { kpkt_inner, true }, { kpkt_branch, false },
	{ kpkt_peek, false },
};

static bool kpkt_decoded_all;

static int kpkt_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	if (kpkt_decoded_all)
		return 0;
	for (i = 0; i < ARRAY_SIZE(kpkt_decoded); i++)
		kpkt_decoded[i].ret = kpkt_decode_now(kpkt_decoded[i].fn,
						      kpkt_decoded[i].to_ret,
						      &kpkt_decoded[i].t);
	kpkt_decoded_all = true;
	return 0;
}

/* What kpkt_suite_init() found for @fn. */
static int kpkt_decode(kpkt_fn_t fn, bool to_ret, struct kpkt_text *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kpkt_decoded); i++) {
		if (kpkt_decoded[i].fn != fn || kpkt_decoded[i].to_ret != to_ret)
			continue;
		if (!kpkt_decoded[i].ret)
			*t = kpkt_decoded[i].t;
		return kpkt_decoded[i].ret;
	}
	return -ENOENT;		/* not in kpkt_decoded[]: a bug here */
}

/* Decode @fn or skip the case when that is impossible here. */
static void kpkt_decode_or_skip(struct kunit *test, kpkt_fn_t fn, bool to_ret,
				struct kpkt_text *t)
{
	int ret = kpkt_decode(fn, to_ret, t);

	if (ret == -EOPNOTSUPP)
		kunit_skip(test, "x86 instruction decoder: " KPKT_NO_HELPERS);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "decoding %ps", fn);
}

/*
 * The address of a body instruction of @fn that is not its first one (or
 * NULL when the decoder is not available): a probe there is an int3
 * probe, never an ftrace one.
 */
static void *kpkt_mid_addr(struct kunit *test, kpkt_fn_t fn)
{
	struct kpkt_text *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	if (kpkt_decode(fn, true, t))
		return NULL;
	return (void *)(t->start + t->off[t->nr > 2 ? 1 : 0]);
}

/* ------------------------------------------------------------------
 * Suite kprobes_api
 * ------------------------------------------------------------------
 */

/* A probe, its handler counts, and the target's results while probed. */
static void kpkt_check_probe(struct kunit *test, struct kpkt_probe *pp,
			     const struct kpkt_ref *ref, bool at_entry)
{
	int calls;

	atomic_set(&pp->pre_hits, 0);
	atomic_set(&pp->post_hits, 0);
	calls = kpkt_run(test, ref, "probed");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), calls);
	if (at_entry)
		KUNIT_EXPECT_EQ(test, (long)pp->arg0,
				kpkt_args[KPKT_NARGS - 1]);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 0UL);
}

static void kpkt_register_by_addr(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, true);

	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), KPKT_NARGS);
}

static void kpkt_register_by_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, true);
	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
}

/* symbol_name + offset, on the second instruction of the body. */
static void kpkt_register_by_symbol_offset(struct kunit *test)
{
	struct kpkt_text t;
	struct kpkt_probe *pp;
	struct kpkt_ref ref;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	KUNIT_ASSERT_GE(test, t.nr, 2U);
	kpkt_ref_init(&ref, kpkt_arith);
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", t.off[1]);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, false);
	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
}

static void kpkt_reject_addr_and_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, kpkt_arith, "kpkt_arith",
					       0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "addr and symbol_name");
	kpkt_run(test, &ref, "not probed");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
}

static void kpkt_reject_unknown_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL,
					       "kpkt_no_such_symbol_anywhere",
					       0);

	kpkt_expect_reject(test, &pp->kp, -ENOENT, "unknown symbol");
}

/*
 * NULL to any entry point is refused or ignored (it used to Oops inside
 * kprobe_mutex, leaving kprobes unusable).
 */
static void kpkt_null_args(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kprobe *kps[2] = { &pp->kp, NULL };
	struct kretprobe *rps[1] = { NULL };

	KUNIT_EXPECT_EQ(test, register_kprobe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kprobes(NULL, 1), -EINVAL);
	/* The good one before the NULL is unregistered again. */
	KUNIT_EXPECT_EQ(test, register_kprobes(kps, 2), -EINVAL);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, get_kprobe((void *)kpkt_arith), NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, enable_kprobe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, disable_kprobe(NULL), -EINVAL);
	unregister_kprobe(NULL);
	unregister_kprobes(NULL, 1);
	unregister_kprobes(kps + 1, 1);
	KUNIT_EXPECT_EQ(test, register_kretprobe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kretprobes(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kretprobes(rps, 1), -EINVAL);
	unregister_kretprobe(NULL);
	unregister_kretprobes(NULL, 1);
	unregister_kretprobes(rps, 1);
	/* kprobes still work. */
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	KUNIT_EXPECT_EQ(test, kpkt_register(test, &pp->kp), 0);
}

/* "module:" with an empty symbol is an unknown symbol. */
static void kpkt_reject_empty_module_symbol(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL,
					       "kprobes_test_target:", 0);

	kpkt_expect_reject(test, &pp->kp, -ENOENT, "module:");
	pp = kpkt_probe_new(test, NULL, ":kpkt_arith", 0);
	kpkt_expect_reject(test, &pp->kp, -ENOENT, ":symbol");
}

/*
 * The vsyscall page is user text, not a kernel address to probe, although
 * is_kernel_text() and kallsyms (as "_end+off") count it: -EINVAL, as
 * upstream.  It used to fail later, by accident (-EILSEQ).
 */
static void kpkt_reject_vsyscall(struct kunit *test)
{
	struct kpkt_probe *pp;

	if (!in_gate_area_no_mm(VSYSCALL_ADDR))
		kunit_skip(test, "no vsyscall page in this kernel");
	pp = kpkt_probe_new(test, (void *)VSYSCALL_ADDR, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "vsyscall page");
}

/*
 * As upstream: symbol + offset is re-based on the function that covers it,
 * so an offset to the end of kpkt_arith is the next function's entry.
 */
static void kpkt_offset_into_next_function(struct kunit *test)
{
	unsigned long start = (unsigned long)kpkt_arith, size, off, nsize;
	struct kpkt_probe *pp;

	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(start, &size, &off));
	if (!kallsyms_lookup_size_offset(start + size, &nsize, &off) || off ||
	    within_kprobe_blacklist(start + size))
		kunit_skip(test, "no probe-able function right after kpkt_arith");
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", size);
	pp->kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)pp->kp.addr, start + size);
	KUNIT_EXPECT_TRUE(test, pp->kp.flags & KPROBE_FLAG_ON_FUNC_ENTRY);
}

/* As upstream: an address that no symbol covers (here, heap) is -ENOENT. */
static void kpkt_reject_no_symbol(struct kunit *test)
{
	void *heap = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct kpkt_probe *pp;

	KUNIT_ASSERT_NOT_NULL(test, heap);
	pp = kpkt_probe_new(test, heap, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -ENOENT, "heap address");
}

static void kpkt_reject_blacklisted(struct kunit *test)
{
	struct kpkt_probe *pp;

	/* NOKPROBE_SYMBOL() of the base kernel (kernel/notifier.c). */
	pp = kpkt_probe_new(test, NULL, "notifier_call_chain", 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "notifier_call_chain");

	/* NOKPROBE_SYMBOL() of this file, by name and by address. */
	pp = kpkt_probe_new(test, NULL, "kpkt_nokprobe", 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "kpkt_nokprobe by name");
	pp = kpkt_probe_new(test, kpkt_nokprobe, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "kpkt_nokprobe by addr");

	/* .kprobes.text */
	pp = kpkt_probe_new(test, kpkt_kprobes_text, NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "kpkt_kprobes_text");

	/* The kprobes trap handler itself. */
	pp = kpkt_probe_new(test, NULL, "kprobe_int3_handler", 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, "kprobe_int3_handler");
}

/* Documented: x86-64's __switch_to() takes no kprobe (nor kretprobe). */
static void kpkt_reject_switch_to(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "__switch_to", 0);

	kpkt_expect_reject(test, &pp->kp, -EINVAL, "__switch_to");
}

/*
 * The first address in @fn that @reserved (jump_label_text_reserved() or
 * static_call_text_reserved()) claims, or 0.
 */
static unsigned long kpkt_patched_addr(struct kunit *test, kpkt_fn_t fn,
				       int (*reserved)(void *, void *))
{
	unsigned long start = (unsigned long)fn, size, off, addr;
	bool found = false;

	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(start, &size, &off));
	/* As kprobes asks: the site tables change under this lock. */
	jump_label_lock();
	for (addr = start; addr < start + size && !found; addr++)
		found = reserved((void *)addr, (void *)addr);
	jump_label_unlock();
	return found ? addr - 1 : 0;
}

/* Jump label and static call sites: -EINVAL, as upstream (not -EBUSY). */
static void kpkt_reject_patched_sites(struct kunit *test)
{
	struct kpkt_probe *pp;
	unsigned long addr;
	bool tried = false;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "site tables: " KPKT_NO_HELPERS);
	if (IS_ENABLED(CONFIG_JUMP_LABEL)) {
		addr = kpkt_patched_addr(test, kpkt_keyed,
					 jump_label_text_reserved);
		KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no jump label in %ps",
				    kpkt_keyed);
		pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
		kpkt_expect_reject(test, &pp->kp, -EINVAL, "jump label site");
		tried = true;
	}
	if (IS_ENABLED(CONFIG_HAVE_STATIC_CALL_INLINE)) {
		addr = kpkt_patched_addr(test, kpkt_static_caller,
					 static_call_text_reserved);
		KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no static call in %ps",
				    kpkt_static_caller);
		pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
		kpkt_expect_reject(test, &pp->kp, -EINVAL, "static call site");
		tried = true;
	}
	if (!tried)
		kunit_skip(test, "no jump labels, no inline static calls");
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_keyed, 1), 2L);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_static_caller, 1),
			kpkt_call(kpkt_leaf, 1) + 1);
}

/* Which symbol names are parts of another function (blacklist.c). */
static void kpkt_part_names(struct kunit *test)
{
	static const struct {
		const char *name;
		size_t base_len;
	} names[] = {
		{ "foo.cold", 3 }, { "foo.isra.0", 3 },
		{ "foo.constprop.0", 3 }, { "foo.part.0", 3 },
		{ "foo.llvm.123", 3 }, { "foo.cold.7", 3 },
		{ "foo.constprop.0.isra.0", 3 }, { "foo.part.0.cold", 3 },
		{ "do_it.isra.12", 5 },
		{ "foo", 0 }, { "foo.", 0 }, { ".cold", 0 }, { "foo.isra", 0 },
		{ "foo.coldx", 0 }, { "foo.isra.0x", 0 }, { "foo.cold.", 0 },
		{ "foo..cold", 0 }, { "foo.part.0.bar", 0 },
		{ "foo.localalias", 0 }, { "__func__.12", 0 },
	};
	unsigned int i;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_part_base_len(): " KPKT_NO_HELPERS);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		KUNIT_EXPECT_EQ_MSG(test, kprobe_part_base_len(names[i].name),
				    names[i].base_len, "%s", names[i].name);
}

/**
 * struct kpkt_parts - parts of NOKPROBE_SYMBOL() functions in vmlinux
 * @nokprobe: the functions, by start address, sorted
 * @nr: entries in @nokprobe
 * @found: parts seen
 * @missed: parts the blacklist does not cover
 * @part: the first part seen
 * @bad: the first part not covered
 * @base: scratch: the function name of a part
 */
struct kpkt_parts {
	unsigned long *nokprobe;
	unsigned int nr;
	unsigned int found;
	unsigned int missed;
	char part[KSYM_NAME_LEN];
	char bad[KSYM_NAME_LEN];
	char base[KSYM_NAME_LEN];
};

static int kpkt_cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static int kpkt_check_part(void *data, const char *name, unsigned long addr)
{
	struct kpkt_parts *p = data;
	size_t len = kprobe_part_base_len(name);
	unsigned long base;

	if (!len || !is_kernel_text(addr))
		return 0;
	strscpy(p->base, name, len + 1);
	base = kallsyms_lookup_name(p->base);
	if (!base || !bsearch(&base, p->nokprobe, p->nr, sizeof(base),
			      kpkt_cmp_ulong))
		return 0;
	if (!p->found++)
		strscpy(p->part, name, sizeof(p->part));
	if (!within_kprobe_blacklist(addr) && !p->missed++)
		strscpy(p->bad, name, sizeof(p->bad));
	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(kpkt_kvfree_action, kvfree, const void *);

/*
 * The .cold, .isra.N, ... parts of NOKPROBE_SYMBOL() functions that this
 * kernel has are blacklisted too, and refused by name.
 */
static void kpkt_reject_blacklisted_parts(struct kunit *test)
{
	struct kpkt_parts *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	unsigned long *entry, size, off;
	struct kpkt_probe *pp;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kallsyms iteration: " KPKT_NO_HELPERS);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->nokprobe = kvmalloc_array(__stop_kprobe_blacklist -
				     __start_kprobe_blacklist,
				     sizeof(*p->nokprobe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->nokprobe);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kpkt_kvfree_action,
							p->nokprobe), 0);
	for (entry = __start_kprobe_blacklist;
	     entry < __stop_kprobe_blacklist; entry++)
		if (kallsyms_lookup_size_offset(*entry, &size, &off))
			p->nokprobe[p->nr++] = *entry - off;
	sort(p->nokprobe, p->nr, sizeof(*p->nokprobe), kpkt_cmp_ulong, NULL);

	kallsyms_on_each_symbol(kpkt_check_part, p);
	if (!p->found)
		kunit_skip(test, "no NOKPROBE_SYMBOL() function has a part here");
	kunit_info(test, "%u part(s), the first: %s\n", p->found, p->part);
	KUNIT_EXPECT_EQ_MSG(test, p->missed, 0U, "%s is not blacklisted",
			    p->bad);
	pp = kpkt_probe_new(test, NULL, p->part, 0);
	kpkt_expect_reject(test, &pp->kp, -EINVAL, p->part);
}

/* An address one byte into a multi-byte instruction: not a boundary. */
static void kpkt_reject_mid_instruction(struct kunit *test)
{
	struct kpkt_probe *pp;
	struct kpkt_text t;
	unsigned int i;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	for (i = 0; i < t.nr && t.len[i] < 2; i++)
		;
	KUNIT_ASSERT_LT_MSG(test, i, t.nr, "no multi-byte instruction");

	pp = kpkt_probe_new(test, (void *)(t.start + t.off[i] + 1), NULL, 0);
	kpkt_expect_reject(test, &pp->kp, -EILSEQ, "addr inside an insn");
	pp = kpkt_probe_new(test, NULL, "kpkt_arith", t.off[i] + 1);
	kpkt_expect_reject(test, &pp->kp, -EILSEQ, "symbol+offset inside");
}

/* Finding a name that several text symbols carry, through kallsyms. */
#define KPKT_MAX_SYMS	SZ_256K
#define KPKT_MAX_DUPS	4096U

struct kpkt_dups {
	u32 *hash;
	unsigned int nr;
	u32 *dup;
	unsigned int nr_dup;
	char name[KSYM_NAME_LEN];
};

/* Compiler clones and prefix symbols are not names users probe. */
static bool kpkt_plain_text_sym(const char *name, unsigned long addr)
{
	return is_kernel_text(addr) && !strchr(name, '.') &&
	       !strstarts(name, "__pfx_") && !strstarts(name, "__cfi_");
}

static u32 kpkt_name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

static int kpkt_hash_sym(void *data, const char *name, unsigned long addr)
{
	struct kpkt_dups *d = data;

	if (kpkt_plain_text_sym(name, addr) && d->nr < KPKT_MAX_SYMS)
		d->hash[d->nr++] = kpkt_name_hash(name);
	return 0;
}

struct kpkt_match {
	unsigned long first;
	unsigned int nr;
	bool unusable;
};

static int kpkt_count_match(void *data, unsigned long addr)
{
	struct kpkt_match *m = data;

	/* Every copy must be a probeable function at its own address. */
	if (!is_kernel_text(addr) || within_kprobe_blacklist(addr) ||
	    (m->nr && addr == m->first))
		m->unusable = true;
	if (!m->nr)
		m->first = addr;
	m->nr++;
	return 0;
}

static int kpkt_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int kpkt_pick_dup(void *data, const char *name, unsigned long addr)
{
	struct kpkt_dups *d = data;
	struct kpkt_match m = {};
	u32 h;

	if (!kpkt_plain_text_sym(name, addr))
		return 0;
	h = kpkt_name_hash(name);
	if (!bsearch(&h, d->dup, d->nr_dup, sizeof(h), kpkt_cmp_u32))
		return 0;
	kallsyms_on_each_match_symbol(kpkt_count_match, name, &m);
	if (m.nr < 2 || m.unusable)
		return 0;
	strscpy(d->name, name, sizeof(d->name));
	return 1;
}

/* Find a vmlinux function name that several functions share. */
static int kpkt_find_ambiguous(struct kunit *test, struct kpkt_dups *d)
{
	unsigned int i;

	if (!KPKT_BUILTIN)
		return -EOPNOTSUPP;
	d->hash = vmalloc_array(KPKT_MAX_SYMS + KPKT_MAX_DUPS, sizeof(u32));
	if (!d->hash)
		return -ENOMEM;
	kunit_add_action_or_reset(test, kpkt_vfree_action, d->hash);
	d->dup = d->hash + KPKT_MAX_SYMS;

	kallsyms_on_each_symbol(kpkt_hash_sym, d);
	sort(d->hash, d->nr, sizeof(u32), kpkt_cmp_u32, NULL);
	for (i = 1; i < d->nr && d->nr_dup < KPKT_MAX_DUPS; i++)
		if (d->hash[i] == d->hash[i - 1] &&
		    (!d->nr_dup || d->dup[d->nr_dup - 1] != d->hash[i]))
			d->dup[d->nr_dup++] = d->hash[i];
	if (!d->nr_dup)
		return -ENOENT;
	return kallsyms_on_each_symbol(kpkt_pick_dup, d) ? 0 : -ENOENT;
}

/*
 * A name several functions share is not refused: as upstream, the probe
 * goes on the one kallsyms_lookup_name() finds first.  Registered disabled,
 * since that function belongs to somebody else.
 */
static void kpkt_ambiguous_symbol_first(struct kunit *test)
{
	struct kpkt_dups *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	unsigned long addr, size, off, first;
	struct kpkt_probe *pp;
	int ret;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kallsyms iteration: " KPKT_NO_HELPERS);
	KUNIT_ASSERT_NOT_NULL(test, d);
	ret = kpkt_find_ambiguous(test, d);
	if (ret == -ENOENT)
		kunit_skip(test, "no function name is shared by two functions");
	KUNIT_ASSERT_EQ(test, ret, 0);

	kunit_info(test, "ambiguous name: %s\n", d->name);
	first = kallsyms_lookup_name(d->name);
	pp = kpkt_probe_new(test, NULL, d->name, 0);
	pp->kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
			    "register_kprobe(%s)", d->name);
	addr = (unsigned long)pp->kp.addr;
	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(addr, &size, &off));
	KUNIT_EXPECT_EQ_MSG(test, addr - off, first,
			    "%s: probed %pS, first match %pS", d->name,
			    (void *)addr, (void *)first);
}

static void kpkt_reject_registered_twice(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_EQ(test, register_kprobe(&pp->kp), -EINVAL);
	/* Still registered exactly once: one hit per call, not two. */
	kpkt_check_probe(test, pp, &ref, true);
}

/*
 * Flag bits other than KPROBE_FLAG_DISABLED are dropped at registration
 * (as upstream does), not refused: the probe registers, enabled or
 * disabled by that one bit, and the core's own bits are its own again.
 */
static void kpkt_mask_core_flags(struct kunit *test)
{
	static const u32 bad[] = {
		KPROBE_FLAG_GONE, KPROBE_FLAG_OPTIMIZED, KPROBE_FLAG_FTRACE,
		KPROBE_FLAG_ON_FUNC_ENTRY, KPROBE_FLAG_DISABLED | 0x100,
		0x80000000,
	};
	const u32 site_kind = KPROBE_FLAG_ON_FUNC_ENTRY | KPROBE_FLAG_FTRACE;
	struct kpkt_probe *pp[ARRAY_SIZE(bad)];
	struct kpkt_ref ref;
	unsigned int i;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		pp[i] = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
		pp[i]->kp.flags = bad[i];
		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp[i]->kp), 0,
				    "flags %#x", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, pp[i]->kp.flags & ~site_kind,
				    bad[i] & KPROBE_FLAG_DISABLED,
				    "flags %#x", bad[i]);
		KUNIT_EXPECT_FALSE_MSG(test, kprobe_gone(&pp[i]->kp),
				       "flags %#x", bad[i]);
	}
	calls = kpkt_run(test, &ref, "probed");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp[i]),
				    bad[i] & KPROBE_FLAG_DISABLED ? 0 : calls,
				    "flags %#x", bad[i]);
}

/*
 * A kprobe from kmalloc() with only the user's fields set: the core's
 * fields (list, hlist, ...) hold garbage, which registration must neither
 * trust nor follow.  nmissed is reset, as upstream does.
 */
static void kpkt_register_uninitialised(struct kunit *test)
{
	struct kpkt_probe *pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);
	struct kpkt_probe *named = kunit_kzalloc(test, sizeof(*named),
						 GFP_KERNEL);
	struct kpkt_ref ref;

	KUNIT_ASSERT_NOT_NULL(test, pp);
	KUNIT_ASSERT_NOT_NULL(test, named);
	kpkt_ref_init(&ref, kpkt_arith);
	memset(&pp->kp, 0x5a, sizeof(pp->kp));
	memset(&named->kp, 0x5a, sizeof(named->kp));
	pp->kp.addr = (void *)kpkt_arith;
	pp->kp.symbol_name = NULL;
	pp->kp.offset = 0;
	pp->kp.pre_handler = kpkt_pre;
	pp->kp.post_handler = kpkt_post;
	pp->kp.flags = 0;
	/* At the same address, so that the site already exists. */
	named->kp.addr = NULL;
	named->kp.symbol_name = "kpkt_arith";
	named->kp.offset = 0;
	named->kp.pre_handler = kpkt_pre;
	named->kp.post_handler = kpkt_post;
	named->kp.flags = 0;

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &named->kp), 0);
	KUNIT_EXPECT_EQ(test, pp->kp.nmissed, 0UL);
	kpkt_check_probe(test, pp, &ref, true);
	kpkt_check_probe(test, named, &ref, true);
	/* Registered now, whatever its fields held before. */
	KUNIT_EXPECT_EQ(test, register_kprobe(&pp->kp), -EINVAL);

	kpkt_unregister(test, &pp->kp);
	kpkt_check_probe(test, named, &ref, true);
	kpkt_unregister(test, &named->kp);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(named), KPKT_NARGS);
}

/* Probe each instruction of @fn in turn; @exact: straight-line code. */
static void kpkt_probe_each_insn(struct kunit *test, kpkt_fn_t fn, bool exact)
{
	struct kpkt_text t;
	struct kpkt_probe *pp;
	struct kpkt_ref ref;
	unsigned int i;
	int calls, ret;

	kpkt_decode_or_skip(test, fn, exact, &t);
	kpkt_ref_init(&ref, fn);
	for (i = 0; i < t.nr; i++) {
		pp = kpkt_probe_new(test, (void *)(t.start + t.off[i]), NULL, 0);
		ret = kpkt_register(test, &pp->kp);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%ps+%#x", fn, t.off[i]);
		if (ret)
			continue;
		calls = kpkt_run(test, &ref, "one instruction probed");
		if (exact)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), calls,
					    "%ps+%#x", fn, t.off[i]);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp),
				    kpkt_pre_hits(pp), "%ps+%#x", fn, t.off[i]);
		kpkt_unregister(test, &pp->kp);
	}
}

static void kpkt_every_instruction(struct kunit *test)
{
	kpkt_probe_each_insn(test, kpkt_arith, true);
	kpkt_probe_each_insn(test, kpkt_rip, true);
	kpkt_probe_each_insn(test, kpkt_caller, true);
	kpkt_probe_each_insn(test, kpkt_leaf, true);
	kpkt_probe_each_insn(test, kpkt_branch, false);
}

/* Unregistering a probe that was never registered changes nothing. */
static void kpkt_unregister_unregistered(struct kunit *test)
{
	struct kpkt_probe *live = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_probe *stranger, *zero, *named;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &live->kp), 0);

	/* Same address as the live probe, but never registered. */
	stranger = kpkt_probe_new(test, live->kp.addr, NULL, 0);
	zero = kpkt_probe_new(test, NULL, NULL, 0);
	named = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	unregister_kprobe(&stranger->kp);
	unregister_kprobe(&zero->kp);
	unregister_kprobe(&named->kp);

	/* Documented: the addr field of an incorrect probe is cleared. */
	KUNIT_EXPECT_NULL(test, stranger->kp.addr);
	kpkt_check_probe(test, live, &ref, true);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(stranger), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(named), 0);
}

static void kpkt_enable_disable_unregistered(struct kunit *test)
{
	struct kpkt_probe *live = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_probe *stranger;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), -EINVAL);

	/* Not registered, at a registered address: must not touch that one. */
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &live->kp), 0);
	stranger = kpkt_probe_new(test, live->kp.addr, NULL, 0);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&stranger->kp), -EINVAL);
	kpkt_check_probe(test, live, &ref, true);

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), 0);
	kpkt_unregister(test, &pp->kp);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), -EINVAL);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	kpkt_check_probe(test, live, &ref, true);
}

/* A failing batch leaves none of its probes registered. */
static void kpkt_batch_rollback(struct kunit *test)
{
	struct kpkt_probe *a = kpkt_probe_new(test, kpkt_arith, NULL, 0);
	struct kpkt_probe *b = kpkt_probe_new(test, kpkt_rip, NULL, 0);
	struct kpkt_probe *bad = kpkt_probe_new(test, NULL,
						"kpkt_no_such_symbol_anywhere",
						0);
	struct kprobe *kps[] = { &a->kp, &b->kp, &bad->kp };
	struct kpkt_ref ra, rb;
	int ret;

	kpkt_ref_init(&ra, kpkt_arith);
	kpkt_ref_init(&rb, kpkt_rip);
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	if (!ret)
		unregister_kprobes(kps, ARRAY_SIZE(kps));
	KUNIT_EXPECT_EQ(test, ret, -ENOENT);

	kpkt_run(test, &ra, "after a failed batch");
	kpkt_run(test, &rb, "after a failed batch");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(a), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(b), 0);

	/* Rolled back for real: both can be registered again. */
	kpkt_probe_reset(a);
	kpkt_probe_reset(b);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &b->kp), 0);
	kpkt_check_probe(test, a, &ra, true);
	kpkt_check_probe(test, b, &rb, true);
}

static void kpkt_batch_register_unregister(struct kunit *test)
{
	struct kpkt_probe *a = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_probe *b = kpkt_probe_new(test, kpkt_rip, NULL, 0);
	struct kpkt_probe *c = kpkt_probe_new(test, NULL, "kpkt_caller", 0);
	struct kpkt_probe *never = kpkt_probe_new(test, kpkt_leaf, NULL, 0);
	struct kprobe *kps[] = { &a->kp, &b->kp, &c->kp };
	struct kprobe *unr[] = { &a->kp, &never->kp, &c->kp };
	struct kpkt_ref ra, rb, rc;
	unsigned int i;
	int ret;

	kpkt_ref_init(&ra, kpkt_arith);
	kpkt_ref_init(&rb, kpkt_rip);
	kpkt_ref_init(&rc, kpkt_caller);
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (i = 0; i < ARRAY_SIZE(kps); i++) {
		ret = kunit_add_action_or_reset(test, kpkt_unregister_action,
						kps[i]);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	kpkt_check_probe(test, a, &ra, true);
	kpkt_check_probe(test, b, &rb, true);
	kpkt_check_probe(test, c, &rc, true);

	/* One bad entry in the middle: the others still go away. */
	unregister_kprobes(unr, ARRAY_SIZE(unr));
	kunit_remove_action(test, kpkt_unregister_action, &a->kp);
	kunit_remove_action(test, kpkt_unregister_action, &c->kp);
	KUNIT_EXPECT_NULL(test, never->kp.addr);
	atomic_set(&a->pre_hits, 0);
	atomic_set(&c->pre_hits, 0);
	kpkt_run(test, &ra, "after batch unregister");
	kpkt_run(test, &rc, "after batch unregister");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(a), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(c), 0);
	kpkt_check_probe(test, b, &rb, true);

	kpkt_probe_reset(a);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	kpkt_check_probe(test, a, &ra, true);
}

static void kpkt_disabled_at_registration(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	pp->kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_disabled(&pp->kp));
	kpkt_run(test, &ref, "registered disabled");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_disabled(&pp->kp));
	kpkt_check_probe(test, pp, &ref, true);

	KUNIT_EXPECT_EQ(test, disable_kprobe(&pp->kp), 0);
	KUNIT_EXPECT_TRUE(test, kprobe_disabled(&pp->kp));
	atomic_set(&pp->pre_hits, 0);
	kpkt_run(test, &ref, "disabled again");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 0);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), KPKT_NARGS);

	KUNIT_EXPECT_EQ(test, enable_kprobe(&pp->kp), 0);
	kpkt_check_probe(test, pp, &ref, true);
}

static void kpkt_zero(struct kpkt_probe *pp)
{
	atomic_set(&pp->pre_hits, 0);
	atomic_set(&pp->post_hits, 0);
}

/* Run the target once per argument; check each probe's pre handler count. */
static void kpkt_expect_hits(struct kunit *test, const struct kpkt_ref *ref,
			     struct kpkt_probe **pp, const int *hits,
			     unsigned int nr, const char *phase)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		kpkt_zero(pp[i]);
	kpkt_run(test, ref, phase);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp[i]),
				    hits[i] * KPKT_NARGS,
				    "probe %c, %s", 'a' + i, phase);
}

/*
 * Three probes on one address: independent enable, disable and removal.
 * c (no post handler) comes first, so the site is armed before members
 * with post handlers join it, and it outlives them.
 */
static void kpkt_aggregate_at(struct kunit *test, void *addr, bool at_entry)
{
	struct kpkt_probe *pp[3];
	struct kpkt_probe *a, *b, *c;
	struct kpkt_ref ref;
	const int n = KPKT_NARGS;

	kpkt_ref_init(&ref, kpkt_arith);
	a = kpkt_probe_new(test, addr, NULL, 0);
	b = kpkt_probe_new(test, addr, NULL, 0);
	c = kpkt_probe_new(test, addr, NULL, 0);
	c->kp.post_handler = NULL;
	pp[0] = a;
	pp[1] = b;
	pp[2] = c;

	KUNIT_ASSERT_EQ(test, kpkt_register(test, &c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "c");
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &b->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 1, 1 }, 3, "c, a, b");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(c), 0);
	if (at_entry) {
		KUNIT_EXPECT_EQ(test, (long)a->arg0, kpkt_args[n - 1]);
		KUNIT_EXPECT_EQ(test, (long)c->arg0, kpkt_args[n - 1]);
	}

	KUNIT_EXPECT_EQ(test, disable_kprobe(&a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 1, 1 }, 3, "a disabled");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&b->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "a, b disabled");
	KUNIT_EXPECT_EQ(test, disable_kprobe(&c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 0 }, 3, "all disabled");

	KUNIT_EXPECT_EQ(test, enable_kprobe(&a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 0 }, 3, "a enabled");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&b->kp), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&c->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 1, 1 }, 3, "all enabled");

	kpkt_unregister(test, &a->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 1, 1 }, 3, "a removed");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(b), n);
	kpkt_unregister(test, &b->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 1 }, 3, "b removed");

	/* The first one comes back to a site that kept running. */
	kpkt_probe_reset(a);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &a->kp), 0);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 1 }, 3, "a is back");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);

	/* The site's first member leaves before the last one. */
	kpkt_unregister(test, &c->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 1, 0, 0 }, 3, "c removed");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(a), n);
	KUNIT_EXPECT_EQ(test, a->kp.nmissed + b->kp.nmissed + c->kp.nmissed,
			0UL);
	kpkt_unregister(test, &a->kp);
	kpkt_expect_hits(test, &ref, pp, (int[]){ 0, 0, 0 }, 3, "all removed");
}

static void kpkt_aggregate_entry(struct kunit *test)
{
	kpkt_aggregate_at(test, kpkt_arith, true);
}

static void kpkt_aggregate_mid(struct kunit *test)
{
	void *addr = kpkt_mid_addr(test, kpkt_arith);

	if (!addr)
		kunit_skip(test, "x86 instruction decoder: " KPKT_NO_HELPERS);
	kpkt_aggregate_at(test, addr, false);
}

/*
 * A handler calls a probed function: the inner probe must not run its
 * handlers, count a miss instead, and the function must still work.
 */
static void kpkt_recursion_one(struct kunit *test, void *outer_addr,
			       void *inner_addr, bool from_post)
{
	struct kpkt_probe *outer = kpkt_probe_new(test, outer_addr, NULL, 0);
	struct kpkt_probe *inner = kpkt_probe_new(test, inner_addr, NULL, 0);
	struct kpkt_ref ref, ref_inner;
	long want_inner = kpkt_call(kpkt_inner, 5);
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_ref_init(&ref_inner, kpkt_inner);
	outer->nest_fn = kpkt_inner;
	outer->nest_in_post = from_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &inner->kp), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &outer->kp), 0);

	calls = kpkt_run(test, &ref, "handler calls a probed function");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(outer), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(outer), calls);
	KUNIT_EXPECT_EQ(test, outer->nest_ret, want_inner);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), 0);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(inner), 0);
	KUNIT_EXPECT_EQ(test, inner->kp.nmissed, (unsigned long)calls);
	KUNIT_EXPECT_EQ(test, outer->kp.nmissed, 0UL);

	/* Outside a handler the inner probe works normally. */
	calls = kpkt_run(test, &ref_inner, "inner called directly");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(inner), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(inner), calls);

	kpkt_unregister(test, &outer->kp);
	kpkt_unregister(test, &inner->kp);
}

static void kpkt_recursion_missed(struct kunit *test)
{
	void *outer_mid = kpkt_mid_addr(test, kpkt_arith);
	void *inner_mid = kpkt_mid_addr(test, kpkt_inner);
	void *outers[] = { kpkt_arith, outer_mid };
	void *inners[] = { kpkt_inner, inner_mid };
	unsigned int o, i, post;

	for (o = 0; o < ARRAY_SIZE(outers); o++)
		for (i = 0; i < ARRAY_SIZE(inners); i++)
			for (post = 0; post < 2; post++)
				if (outers[o] && inners[i])
					kpkt_recursion_one(test, outers[o],
							   inners[i], post);
	if (!outer_mid)
		kunit_info(test, "function-entry probes only; int3 probes: "
			   KPKT_NO_HELPERS "\n");
}

/* A pre handler that moves regs->ip to another function and returns 1. */
static void kpkt_redirect_ip(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref, alt;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kpkt_ref_init(&alt, kpkt_alt);
	KUNIT_ASSERT_NE(test, ref.want[0], alt.want[0]);
	pp->redirect = (unsigned long)kpkt_alt;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);

	/* kpkt_arith's callers get kpkt_alt's results. */
	alt.fn = kpkt_arith;
	calls = kpkt_run(test, &alt, "redirected to kpkt_alt");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), 0);

	pp->redirect = 0;
	kpkt_check_probe(test, pp, &ref, true);
}

/* A pre handler at entry changes an argument; the function sees it. */
static void kpkt_modify_argument(struct kunit *test)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	long want = kpkt_call(kpkt_arith, 1000);
	unsigned int i;

	pp->set_arg0 = 1000;
	pp->do_set_arg0 = true;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	for (i = 0; i < KPKT_NARGS; i++)
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_arith, kpkt_args[i]), want);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), KPKT_NARGS);
}

/* Point kpkt_bad_addr at a vmalloc guard page, or skip. */
static void kpkt_setup_bad_addr(struct kunit *test)
{
	void *buf = vmalloc(PAGE_SIZE);
	long v;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kpkt_vfree_action,
							buf), 0);
	kpkt_bad_addr = buf + PAGE_SIZE;
	if (copy_from_kernel_nofault(&v, kpkt_bad_addr, sizeof(v)) != -EFAULT)
		kunit_skip(test, "no unmapped guard page after a vmalloc area");
}

/* Handlers that take (and survive) a page fault. */
static void kpkt_fault_in_handler_at(struct kunit *test, void *addr,
				     bool in_post)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, addr, NULL, 0);
	struct kpkt_ref ref;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	pp->fault_in_pre = !in_post;
	pp->fault_in_post = in_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	calls = kpkt_run(test, &ref, "handler faulted");
	KUNIT_EXPECT_EQ(test, pp->fault_ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), calls);

	/* And nothing was left behind by the faults. */
	pp->fault_in_pre = false;
	pp->fault_in_post = false;
	kpkt_check_probe(test, pp, &ref, false);
	kpkt_unregister(test, &pp->kp);
}

static void kpkt_fault_in_handler(struct kunit *test)
{
	void *mid;

	kpkt_setup_bad_addr(test);
	kpkt_fault_in_handler_at(test, kpkt_arith, false);
	kpkt_fault_in_handler_at(test, kpkt_arith, true);
	mid = kpkt_mid_addr(test, kpkt_arith);
	if (mid) {
		kpkt_fault_in_handler_at(test, mid, false);
		kpkt_fault_in_handler_at(test, mid, true);
	}
}

/*
 * The probed instruction itself faults and its exception-table fixup must
 * still apply, although it ran out of line.
 */
static void kpkt_fault_in_probed_insn(struct kunit *test)
{
	static long good = 0x5eed;
	struct kpkt_probe *pp;
	struct kpkt_text t;
	unsigned long addr = 0;
	unsigned int i, round;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "exception tables: " KPKT_NO_HELPERS);
	kpkt_decode_or_skip(test, kpkt_peek, false, &t);
	for (i = 0; i < t.nr && !addr; i++)
		if (search_exception_tables(t.start + t.off[i]))
			addr = t.start + t.off[i];
	KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no fixup in kpkt_peek");
	kpkt_setup_bad_addr(test);

	pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
	pp->kp.post_handler = NULL;	/* let it be optimized in round 1 */
	KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
			    "probe on an instruction with a fixup");
	for (round = 0; round < 2; round++) {
		atomic_set(&pp->pre_hits, 0);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)&good), good);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)kpkt_bad_addr),
				(long)-EFAULT);
		KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_peek, (long)&good), good);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), 3, "round %u",
				    round);
		kpkt_settle();
	}
}

/* Probes without a post handler may be optimized; they must still work. */
static void kpkt_optimizable(struct kunit *test)
{
	struct kpkt_probe *pp, *with_post;
	struct kpkt_ref ref;
	struct kpkt_text t;
	int calls;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	kpkt_ref_init(&ref, kpkt_arith);
	pp = kpkt_probe_new(test, (void *)(t.start + t.off[0]), NULL, 0);
	pp->kp.post_handler = NULL;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	kpkt_settle();
	calls = kpkt_run(test, &ref, "maybe optimized");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);

	/* A post handler at the same place forces the slow path back. */
	with_post = kpkt_probe_new(test, pp->kp.addr, NULL, 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &with_post->kp), 0);
	kpkt_check_probe(test, with_post, &ref, false);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 2 * calls);
	kpkt_unregister(test, &with_post->kp);
	kpkt_settle();
	kpkt_run(test, &ref, "optimizable again");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 3 * calls);

	kpkt_unregister(test, &pp->kp);
	kpkt_run(test, &ref, "unregistered");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 3 * calls);
}

/* kprobe_on_func_entry() tells function entries from other addresses. */
static void kpkt_func_entry_query(struct kunit *test)
{
	struct kpkt_text t;

	if (!KPKT_BUILTIN)
		kunit_skip(test, "kprobe_on_func_entry(): " KPKT_NO_HELPERS);
	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry(NULL, "kpkt_arith", 0), 0);
	KUNIT_EXPECT_EQ(test, kprobe_on_func_entry((void *)kpkt_arith, NULL, 0),
			0);
	KUNIT_EXPECT_NE(test, kprobe_on_func_entry(NULL, "kpkt_arith",
						   t.off[t.nr - 1]), 0);
	KUNIT_EXPECT_NE(test, kprobe_on_func_entry(NULL,
						   "kpkt_no_such_symbol", 0),
			0);
}

/* A second CPU calls the targets while probes come and go. */
struct kpkt_stress {
	struct kpkt_ref ref[2];
	atomic_t wrong;
	atomic_long_t calls;
};

static int kpkt_stress_thread(void *data)
{
	struct kpkt_stress *s = data;
	unsigned int i, j;

	while (!kthread_should_stop()) {
		for (j = 0; j < ARRAY_SIZE(s->ref); j++)
			for (i = 0; i < KPKT_NARGS; i++)
				if (kpkt_call(s->ref[j].fn, kpkt_args[i]) !=
				    s->ref[j].want[i])
					atomic_inc(&s->wrong);
		/*
		 * Sleep now and then: on a fully preemptible kernel
		 * cond_resched() is a no-op, and the optimizer's RCU-tasks
		 * grace period needs this thread to switch voluntarily.
		 */
		if (!(atomic_long_inc_return(&s->calls) % 64))
			usleep_range(50, 100);
		else
			cond_resched();
	}
	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(kpkt_kthread_stop_action, kthread_stop,
			    struct task_struct *);

static void kpkt_arm_disarm_stress(struct kunit *test)
{
	struct kpkt_stress *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	void *mid = kpkt_mid_addr(test, kpkt_rip);
	struct kpkt_probe *pe, *pm;
	struct task_struct *tsk;
	unsigned long deadline;
	unsigned int round;
	long seen;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kpkt_ref_init(&s->ref[0], kpkt_arith);
	kpkt_ref_init(&s->ref[1], kpkt_rip);
	tsk = kthread_run(kpkt_stress_thread, s, "kpkt_stress");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kpkt_kthread_stop_action,
							tsk), 0);

	for (round = 0; round < 40; round++) {
		pe = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
		pm = kpkt_probe_new(test, mid ? mid : (void *)kpkt_rip, NULL, 0);
		if (round & 1)
			pm->kp.post_handler = NULL;
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &pe->kp), 0);
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &pm->kp), 0);
		/* Let the other thread run through the armed probes. */
		seen = atomic_long_read(&s->calls);
		deadline = jiffies + HZ;
		while (atomic_long_read(&s->calls) < seen + 2 &&
		       time_before(jiffies, deadline))
			cond_resched();
		KUNIT_EXPECT_EQ(test, disable_kprobe(&pm->kp), 0);
		KUNIT_EXPECT_EQ(test, enable_kprobe(&pm->kp), 0);
		if (round % 8 == 7)
			kpkt_settle();
		kpkt_unregister(test, &pe->kp);
		kpkt_unregister(test, &pm->kp);
	}
	kunit_release_action(test, kpkt_kthread_stop_action, tsk);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->wrong), 0);
	kunit_info(test, "%ld rounds of calls on the other thread\n",
		   atomic_long_read(&s->calls));
}

static int kpkt_case_init(struct kunit *test)
{
	kpkt_bad_addr = NULL;
	WRITE_ONCE(kpkt_inflight_hook, NULL);
	return 0;
}

static struct kunit_case kpkt_cases[] = {
	KUNIT_CASE(kpkt_register_by_addr),
	KUNIT_CASE(kpkt_register_by_symbol),
	KUNIT_CASE(kpkt_register_by_symbol_offset),
	KUNIT_CASE(kpkt_reject_addr_and_symbol),
	KUNIT_CASE(kpkt_reject_unknown_symbol),
	KUNIT_CASE(kpkt_reject_no_symbol),
	KUNIT_CASE(kpkt_null_args),
	KUNIT_CASE(kpkt_reject_empty_module_symbol),
	KUNIT_CASE(kpkt_reject_vsyscall),
	KUNIT_CASE(kpkt_offset_into_next_function),
	KUNIT_CASE(kpkt_reject_blacklisted),
	KUNIT_CASE(kpkt_reject_switch_to),
	KUNIT_CASE(kpkt_reject_patched_sites),
	KUNIT_CASE(kpkt_part_names),
	KUNIT_CASE(kpkt_reject_blacklisted_parts),
	KUNIT_CASE(kpkt_reject_mid_instruction),
	KUNIT_CASE(kpkt_ambiguous_symbol_first),
	KUNIT_CASE(kpkt_reject_registered_twice),
	KUNIT_CASE(kpkt_mask_core_flags),
	KUNIT_CASE(kpkt_register_uninitialised),
	KUNIT_CASE(kpkt_every_instruction),
	KUNIT_CASE(kpkt_unregister_unregistered),
	KUNIT_CASE(kpkt_enable_disable_unregistered),
	KUNIT_CASE(kpkt_batch_rollback),
	KUNIT_CASE(kpkt_batch_register_unregister),
	KUNIT_CASE(kpkt_disabled_at_registration),
	KUNIT_CASE(kpkt_aggregate_entry),
	KUNIT_CASE(kpkt_aggregate_mid),
	KUNIT_CASE(kpkt_recursion_missed),
	KUNIT_CASE(kpkt_redirect_ip),
	KUNIT_CASE(kpkt_modify_argument),
	KUNIT_CASE(kpkt_fault_in_handler),
	KUNIT_CASE(kpkt_fault_in_probed_insn),
	KUNIT_CASE(kpkt_optimizable),
	KUNIT_CASE(kpkt_func_entry_query),
	KUNIT_CASE_SLOW(kpkt_arm_disarm_stress),
	{}
};

static struct kunit_suite kpkt_suite = {
	.name = "kprobes_api",
	.suite_init = kpkt_suite_init,
	.init = kpkt_case_init,
	.test_cases = kpkt_cases,
};

/* ------------------------------------------------------------------
 * Suite kprobes_api_kretprobe
 * ------------------------------------------------------------------
 */

#define KPKT_MAX_REC	16
#define KPKT_MAGIC	0x6b706b74UL	/* "kpkt" */

/* What the entry handler leaves in kretprobe_instance::data. */
struct kpkt_ri_data {
	unsigned long cookie;
	long arg;
};

/**
 * struct kpkt_ret - a kretprobe and what its handlers observed
 * @rp: the kretprobe
 * @entries: entry handler calls
 * @returns: return handler calls
 * @refuse_odd: the entry handler declines calls with an odd argument
 * @bad: handler-side checks that failed (data cookie, get_kretprobe, task)
 * @ret: return values in the order the return handler saw them
 * @arg: the matching arguments, from the instance data (if any)
 * @ret_addr: the return address of the last instance
 */
struct kpkt_ret {
	struct kretprobe rp;
	atomic_t entries;
	atomic_t returns;
	bool refuse_odd;
	atomic_t bad;
	long ret[KPKT_MAX_REC];
	long arg[KPKT_MAX_REC];
	unsigned long ret_addr;
};

/* Handler calls for instances whose kretprobe get_kretprobe() lost. */
static atomic_t kpkt_ret_orphans;

static int kpkt_ret_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kpkt_ret *kr = container_of(rp, struct kpkt_ret, rp);
	struct kpkt_ri_data *d = (struct kpkt_ri_data *)ri->data;
	long arg = regs_get_kernel_argument(regs, 0);

	if (!rp) {
		atomic_inc(&kpkt_ret_orphans);
		return 1;
	}
	atomic_inc(&kr->entries);
	if (kr->refuse_odd && (arg & 1))
		return 1;
	if (kr->rp.data_size >= sizeof(*d)) {
		d->cookie = KPKT_MAGIC ^ (unsigned long)ri;
		d->arg = arg;
	}
	return 0;
}

static int kpkt_ret_handler(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kpkt_ret *kr = container_of(rp, struct kpkt_ret, rp);
	struct kpkt_ri_data *d = (struct kpkt_ri_data *)ri->data;
	int n;

	if (!rp) {
		atomic_inc(&kpkt_ret_orphans);
		return 0;
	}
	n = atomic_inc_return(&kr->returns) - 1;
	if (ri->task != current)
		atomic_inc(&kr->bad);
	kr->ret_addr = get_kretprobe_retaddr(ri);
	if (n >= KPKT_MAX_REC)
		return 0;
	kr->ret[n] = regs_return_value(regs);
	kr->arg[n] = LONG_MIN;
	if (kr->rp.entry_handler && kr->rp.data_size >= sizeof(*d)) {
		if (d->cookie != (KPKT_MAGIC ^ (unsigned long)ri))
			atomic_inc(&kr->bad);
		kr->arg[n] = d->arg;
	}
	return 0;
}

static struct kpkt_ret *kpkt_ret_new(struct kunit *test, const char *sym,
				     bool with_entry)
{
	struct kpkt_ret *kr = kunit_kzalloc(test, sizeof(*kr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, kr);
	kr->rp.kp.symbol_name = sym;
	kr->rp.handler = kpkt_ret_handler;
	if (with_entry) {
		kr->rp.entry_handler = kpkt_ret_entry;
		kr->rp.data_size = sizeof(struct kpkt_ri_data);
	}
	kr->rp.maxactive = 8;
	return kr;
}

static int kpkt_ret_register(struct kunit *test, struct kpkt_ret *kr)
{
	int ret = register_kretprobe(&kr->rp);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, kpkt_unregister_ret_action,
					 &kr->rp);
}

static void kpkt_ret_unregister(struct kunit *test, struct kpkt_ret *kr)
{
	kunit_release_action(test, kpkt_unregister_ret_action, &kr->rp);
}

static void kpkt_ret_expect_reject(struct kunit *test, struct kpkt_ret *kr,
				   int err, const char *what)
{
	int ret = register_kretprobe(&kr->rp);

	if (!ret)
		unregister_kretprobe(&kr->rp);
	KUNIT_EXPECT_EQ_MSG(test, ret, err, "register_kretprobe(%s)", what);
}

static void kpkt_ret_reset(struct kpkt_ret *kr)
{
	atomic_set(&kr->entries, 0);
	atomic_set(&kr->returns, 0);
}

/* Every return seen, in call order, with the value the caller got. */
static void kpkt_ret_check(struct kunit *test, struct kpkt_ret *kr,
			   const struct kpkt_ref *ref)
{
	unsigned int i;
	int calls;

	kpkt_ret_reset(kr);
	calls = kpkt_run(test, ref, "kretprobe'd");
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), calls);
	if (kr->rp.entry_handler)
		KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), calls);
	for (i = 0; i < KPKT_NARGS; i++) {
		KUNIT_EXPECT_EQ(test, kr->ret[i], ref->want[i]);
		if (kr->rp.entry_handler)
			KUNIT_EXPECT_EQ(test, kr->arg[i], kpkt_args[i]);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);
}

static void krpt_return_value(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", false);
	char *where = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	char *want = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	struct kpkt_ref ref;
	unsigned long seen;
	long got;

	KUNIT_ASSERT_NOT_NULL(test, where);
	KUNIT_ASSERT_NOT_NULL(test, want);
	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);

	/*
	 * The instance reports where the function really returns to.  Read
	 * it before anything else can call the target again (the expectation
	 * below may evaluate its operands by calling kpkt_arith directly).
	 */
	got = kpkt_ret_caller(kpkt_arith, kpkt_args[0]);
	seen = READ_ONCE(kr->ret_addr);
	KUNIT_EXPECT_EQ(test, got, ref.want[0]);
	snprintf(where, KSYM_SYMBOL_LEN, "%ps", (void *)seen);
	snprintf(want, KSYM_SYMBOL_LEN, "%ps", kpkt_ret_caller);
	KUNIT_EXPECT_STREQ(test, where, want);

	kpkt_ret_unregister(test, kr);
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "after unregister");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
}

static void krpt_entry_data(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_rip", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_rip);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
}

static void krpt_entry_refuses(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;
	unsigned int i, n = 0, odd = 0;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->refuse_odd = true;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	calls = kpkt_run(test, &ref, "entry handler refusing odd");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), calls);
	for (i = 0; i < KPKT_NARGS; i++) {
		if (kpkt_args[i] & 1) {
			odd++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, kr->arg[n], kpkt_args[i]);
		KUNIT_EXPECT_EQ(test, kr->ret[n], ref.want[i]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), (int)n);
	/*
	 * As upstream: nmissed only counts calls that found no instance.
	 * Declined calls are the debugfs breakdown's "refused".
	 */
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_refused, (unsigned long)odd);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_empty, 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
}

static void krpt_reject(struct kunit *test)
{
	struct kpkt_ret *kr;

	kr = kpkt_ret_new(test, "kpkt_arith", false);
	kr->rp.maxactive = INT_MAX;
	kpkt_ret_expect_reject(test, kr, -E2BIG, "maxactive too big");

	kr = kpkt_ret_new(test, "kpkt_arith", true);
	kr->rp.data_size = KRETPROBE_MAX_DATA_SIZE + 1;
	kpkt_ret_expect_reject(test, kr, -E2BIG, "data_size too big");

	kr = kpkt_ret_new(test, "kpkt_no_such_symbol_anywhere", false);
	kpkt_ret_expect_reject(test, kr, -ENOENT, "unknown symbol");

	kr = kpkt_ret_new(test, "kpkt_arith", false);
	kr->rp.kp.addr = (void *)kpkt_arith;
	kpkt_ret_expect_reject(test, kr, -EINVAL, "addr and symbol_name");

	kr = kpkt_ret_new(test, "kpkt_nokprobe", false);
	kpkt_ret_expect_reject(test, kr, -EINVAL, "blacklisted");

	kr = kpkt_ret_new(test, "__switch_to", false);
	kpkt_ret_expect_reject(test, kr, -EINVAL, "__switch_to");
}

/* Core-owned flag bits are dropped, as for kprobes: registered, enabled. */
static void krpt_core_flags_masked(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.kp.flags = KPROBE_FLAG_GONE | 0x100;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_FALSE(test, kprobe_gone(&kr->rp.kp));
	KUNIT_EXPECT_FALSE(test, kprobe_disabled(&kr->rp.kp));
	kpkt_ret_check(test, kr, &ref);
}

/*
 * A kretprobe taken apart through its kprobe (unregister_kprobe(&rp->kp),
 * then unregister_kretprobe()) gives its pool back at the first call: it
 * used to stay allocated, with a back-pointer to the kretprobe.
 */
static void krpt_unregister_through_kprobe(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.maxactive = 1000;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&kr->rp), 0);
	KUNIT_EXPECT_NOT_NULL(test, rcu_access_pointer(kr->rp.pool));
	unregister_kprobe(&kr->rp.kp);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(kr->rp.pool));
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "after unregister_kprobe()");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	unregister_kretprobe(&kr->rp);
	KUNIT_EXPECT_NULL(test, kr->rp.kp.addr);
	/* And it can be registered again. */
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
}

/*
 * maxactive <= 0 picks the default, whatever the pool bound says of it;
 * the same kretprobe twice in one unregister_kretprobes() is unregistered
 * once, its pool given back.
 */
static void krpt_default_maxactive_twice_unregistered(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kretprobe *rps[2] = { &kr->rp, &kr->rp };
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.maxactive = -1;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&kr->rp), 0);
	KUNIT_EXPECT_GT(test, kr->rp.maxactive, 0);
	unregister_kretprobes(rps, 2);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(kr->rp.pool));
	KUNIT_EXPECT_NOT_NULL(test, kr->rp.kp.addr);
	kr->rp.kp.addr = NULL;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
}

/* As upstream, maxactive has no fixed limit: 8192 instances register. */
static void krpt_large_maxactive(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.maxactive = 8192;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_ret_check(test, kr, &ref);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
}

/* Garbage in every field the user does not set (kmalloc()): registers. */
static void krpt_register_uninitialised(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	memset(&kr->rp, 0x5a, sizeof(kr->rp));
	kr->rp.kp.addr = NULL;
	kr->rp.kp.symbol_name = "kpkt_arith";
	kr->rp.kp.offset = 0;
	kr->rp.kp.flags = 0;
	kr->rp.handler = kpkt_ret_handler;
	kr->rp.entry_handler = kpkt_ret_entry;
	kr->rp.data_size = sizeof(struct kpkt_ri_data);
	kr->rp.maxactive = 8;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
	kpkt_ret_check(test, kr, &ref);
	KUNIT_EXPECT_EQ(test, register_kretprobe(&kr->rp), -EINVAL);
	kpkt_ret_check(test, kr, &ref);
}

/*
 * Unregistering a kretprobe that is not registered clears its kp.addr
 * (documented; upstream does the same) and touches nothing else, not even
 * a pool pointer full of garbage.
 */
static void krpt_unregister_unregistered(struct kunit *test)
{
	struct kpkt_ret *live = kpkt_ret_new(test, "kpkt_arith", false);
	struct kpkt_ret *stranger = kpkt_ret_new(test, NULL, false);
	struct kpkt_ret *garbage = kpkt_ret_new(test, NULL, false);
	struct kpkt_ret *once = kpkt_ret_new(test, "kpkt_rip", false);
	struct kretprobe *rps[] = { &stranger->rp, &live->rp };
	struct kpkt_ref ref;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, live), 0);

	/* At the live one's address, never registered. */
	stranger->rp.kp.addr = live->rp.kp.addr;
	unregister_kretprobe(&stranger->rp);
	KUNIT_EXPECT_NULL(test, stranger->rp.kp.addr);

	memset(&garbage->rp, 0x5a, sizeof(garbage->rp));
	garbage->rp.kp.addr = live->rp.kp.addr;
	garbage->rp.kp.symbol_name = NULL;
	unregister_kretprobe(&garbage->rp);
	KUNIT_EXPECT_NULL(test, garbage->rp.kp.addr);
	kpkt_ret_check(test, live, &ref);

	/* Unregistered already: the second time it is a stranger too. */
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, once), 0);
	kpkt_ret_unregister(test, once);
	KUNIT_EXPECT_NOT_NULL(test, once->rp.kp.addr);
	unregister_kretprobe(&once->rp);
	KUNIT_EXPECT_NULL(test, once->rp.kp.addr);

	/* In a batch, with a registered one after it. */
	stranger->rp.kp.addr = live->rp.kp.addr;
	unregister_kretprobes(rps, ARRAY_SIZE(rps));
	kunit_remove_action(test, kpkt_unregister_ret_action, &live->rp);
	KUNIT_EXPECT_NULL(test, stranger->rp.kp.addr);
	KUNIT_EXPECT_NOT_NULL(test, live->rp.kp.addr);
	kpkt_ret_reset(live);
	calls = kpkt_run(test, &ref, "after batch unregister");
	KUNIT_EXPECT_GT(test, calls, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&live->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);
}

/* A return probe is only possible at a function entry. */
static void krpt_reject_not_entry(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", false);
	struct kpkt_text t;

	kpkt_decode_or_skip(test, kpkt_arith, true, &t);
	kr->rp.kp.offset = t.off[t.nr > 1 ? 1 : 0];
	kpkt_ret_expect_reject(test, kr, -EINVAL, "offset past the entry");
}

static void krpt_shared_function(struct kunit *test)
{
	struct kpkt_ret *k1 = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ret *k2 = kpkt_ret_new(test, "kpkt_arith", false);
	struct kpkt_probe *pp = kpkt_probe_new(test, NULL, "kpkt_arith", 0);
	struct kpkt_ref ref;
	int calls;

	kpkt_ref_init(&ref, kpkt_arith);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, k1), 0);
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, k2), 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);

	kpkt_ret_reset(k2);
	kpkt_ret_check(test, k1, &ref);
	KUNIT_EXPECT_EQ(test, atomic_read(&k2->returns), KPKT_NARGS);
	KUNIT_EXPECT_EQ(test, k2->ret[KPKT_NARGS - 1], ref.want[KPKT_NARGS - 1]);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), KPKT_NARGS);

	kpkt_ret_unregister(test, k1);
	kpkt_ret_reset(k1);
	kpkt_ret_check(test, k2, &ref);
	KUNIT_EXPECT_EQ(test, atomic_read(&k1->returns), 0);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 2 * KPKT_NARGS);

	kpkt_unregister(test, &pp->kp);
	calls = kpkt_run(test, &ref, "kprobe gone, kretprobe stays");
	KUNIT_EXPECT_EQ(test, atomic_read(&k2->returns), 2 * calls);
}

/* Returns come back innermost first, each with its own value. */
static void krpt_recursion(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_rsum", true);
	const long depth = 5;
	long i;

	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_rsum, depth),
			depth * (depth + 1) / 2);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), (int)depth + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), (int)depth + 1);
	for (i = 0; i <= depth; i++) {
		KUNIT_EXPECT_EQ(test, kr->arg[i], i);
		KUNIT_EXPECT_EQ(test, kr->ret[i], i * (i + 1) / 2);
	}
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
}

/*
 * Calls of kpkt_inflight() from kthreads.  A worker makes @calls calls; the
 * one worker kpkt_gated points to stops inside its call, its instance
 * taken, until the case opens the gate, and then returns or, with @exit,
 * exits right there so that its instance never comes back by the
 * trampoline.
 */
struct kpkt_worker {
	struct task_struct *task;
	unsigned int calls;
	long want;
	int wrong;
	bool exit;
	struct completion inside;
	struct completion open;
	struct completion done;
};

static struct kpkt_worker *kpkt_gated;

/* The kpkt_inflight_hook of the cases that use a gated worker. */
static void kpkt_gate_hook(void)
{
	struct kpkt_worker *w = READ_ONCE(kpkt_gated);
	bool exit;

	if (!w || w->task != current)
		return;
	exit = w->exit;
	complete(&w->inside);
	wait_for_completion(&w->open);
	if (exit)
		kthread_exit(0);
}

static int kpkt_worker_fn(void *data)
{
	struct kpkt_worker *w = data;
	unsigned int i;

	for (i = 0; i < w->calls; i++)
		if (kpkt_call(kpkt_inflight, 9) != w->want)
			w->wrong++;
	complete(&w->done);
	return 0;
}

/*
 * Let @w go and wait until it has exited: only then is it sure not to
 * touch @w (even a completion it waited on) any more.  The kthread exits
 * by itself, so kthread_stop() is not used; exit_state is set once the
 * task is past everything it ran of ours.
 */
static void kpkt_worker_reap(void *data)
{
	struct kpkt_worker *w = data;
	unsigned long deadline = jiffies + 60 * HZ;

	complete_all(&w->open);
	while (!READ_ONCE(w->task->exit_state) && time_before(jiffies, deadline))
		msleep(20);
	WARN_ON(!READ_ONCE(w->task->exit_state));
	put_task_struct(w->task);
}

static struct kpkt_worker *kpkt_worker_new(struct kunit *test,
					   unsigned int calls, long want)
{
	struct kpkt_worker *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->calls = calls;
	w->want = want;
	init_completion(&w->inside);
	init_completion(&w->open);
	init_completion(&w->done);
	return w;
}

/* Start @w on @cpu (anywhere if @cpu >= nr_cpu_ids); reaped at case end. */
static void kpkt_worker_run(struct kunit *test, struct kpkt_worker *w,
			    unsigned int cpu)
{
	struct task_struct *tsk;

	tsk = kthread_create(kpkt_worker_fn, w, "kpkt_worker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
	if (cpu < nr_cpu_ids)
		kthread_bind(tsk, cpu);
	/* Kept until kpkt_worker_reap(): the cases look at the dead task. */
	w->task = get_task_struct(tsk);
	wake_up_process(tsk);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kpkt_worker_reap,
							w), 0);
}

static void kpkt_worker_wait(struct kunit *test, struct completion *c,
			     const char *what)
{
	KUNIT_ASSERT_NE_MSG(test, wait_for_completion_timeout(c, 30 * HZ), 0,
			    "worker %s", what);
}

/*
 * The only instance is held by a call asleep on one CPU while another
 * thread calls the function on the other CPU: each of those calls misses,
 * without its entry handler, and nothing else does.
 */
static void krpt_pool_exhausted(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);
	unsigned int cpu = cpumask_first(cpu_online_mask);
	unsigned int other = cpumask_next(cpu, cpu_online_mask);
	struct kpkt_worker *blocker, *caller;
	const int misses = 5;

	/* With one CPU the blocker sleeps anyway; only the placement differs. */
	if (other >= nr_cpu_ids)
		other = cpu;
	kr->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	WRITE_ONCE(kpkt_inflight_hook, kpkt_gate_hook);

	blocker = kpkt_worker_new(test, 1, want);
	WRITE_ONCE(kpkt_gated, blocker);
	kpkt_worker_run(test, blocker, cpu);
	kpkt_worker_wait(test, &blocker->inside, "never entered the target");

	caller = kpkt_worker_new(test, misses, want);
	kpkt_worker_run(test, caller, other);
	kpkt_worker_wait(test, &caller->done, "calls did not finish");
	KUNIT_EXPECT_EQ(test, caller->wrong, 0);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, misses);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_empty, misses);
	KUNIT_EXPECT_EQ(test, kr->rp.kp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);

	/* The blocked call returns through the trampoline and is reported. */
	complete_all(&blocker->open);
	kpkt_worker_wait(test, &blocker->done, "did not return");
	KUNIT_EXPECT_EQ(test, blocker->wrong, 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), 1);
	KUNIT_EXPECT_EQ(test, kr->arg[0], 9L);
	KUNIT_EXPECT_EQ(test, kr->ret[0], want);

	/* Its instance is back: the next call is tracked, no new miss. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 2);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, misses);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);
}

/* One instance for three nested calls: the nested two are missed. */
static void krpt_pool_exhausted_nested(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_rsum", true);

	kr->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_rsum, 2), 3L);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 2);
	/* Documented: no instance, no entry handler either. */
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), 1);
	KUNIT_EXPECT_EQ(test, kr->arg[0], 2L);
	KUNIT_EXPECT_EQ(test, kr->ret[0], 3L);

	/* The instance came back: the next call is tracked again. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_rsum, 0), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 2);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 2);
}

static void krpt_disable_enable(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpkt_arith);
	kr->rp.kp.flags = KPROBE_FLAG_DISABLED;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_run(test, &ref, "registered disabled");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);

	KUNIT_EXPECT_EQ(test, enable_kretprobe(&kr->rp), 0);
	kpkt_ret_check(test, kr, &ref);

	KUNIT_EXPECT_EQ(test, disable_kretprobe(&kr->rp), 0);
	kpkt_ret_reset(kr);
	kpkt_run(test, &ref, "disabled");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	KUNIT_EXPECT_EQ(test, enable_kretprobe(&kr->rp), 0);
	kpkt_ret_check(test, kr, &ref);
}

/* Unregistered while an instance is on the stack: the call still returns. */
static struct kunit *kpkt_inflight_test;
static struct kpkt_ret *kpkt_inflight_kr;

static void kpkt_unregister_inflight(void)
{
	kpkt_ret_unregister(kpkt_inflight_test, kpkt_inflight_kr);
}

static void krpt_unregister_in_flight(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);

	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	kpkt_inflight_test = test;
	kpkt_inflight_kr = kr;
	WRITE_ONCE(kpkt_inflight_hook, kpkt_unregister_inflight);
	KUNIT_EXPECT_EQ(test, kpkt_ret_caller(kpkt_inflight, 9), want);
	WRITE_ONCE(kpkt_inflight_hook, NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	/* Its kretprobe is gone: no handler may run for the instance. */
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);

	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
}

/*
 * Unregistered while another task sleeps inside the function: that call
 * returns later with the right value and no handler runs for it.
 */
static void krpt_unregister_sleeper(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);
	struct kpkt_worker *w;

	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	WRITE_ONCE(kpkt_inflight_hook, kpkt_gate_hook);
	w = kpkt_worker_new(test, 1, want);
	WRITE_ONCE(kpkt_gated, w);
	kpkt_worker_run(test, w, nr_cpu_ids);
	kpkt_worker_wait(test, &w->inside, "never entered the target");
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);

	kpkt_ret_unregister(test, kr);
	complete_all(&w->open);
	kpkt_worker_wait(test, &w->done, "did not return");
	KUNIT_EXPECT_EQ(test, w->wrong, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);

	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);
}

/*
 * A kthread exits inside the function, so its instance never returns by
 * the trampoline.  kprobe_flush_task() must hand it back when the task is
 * freed: with a single instance, the call made meanwhile misses and the
 * one made after the task is gone is tracked.
 */
static void krpt_task_exit_in_flight(struct kunit *test)
{
	struct kpkt_ret *kr = kpkt_ret_new(test, "kpkt_inflight", true);
	long want = kpkt_call(kpkt_inflight, 9);
	unsigned long deadline;
	struct kpkt_worker *w;
	struct llist_head *left;

	kr->rp.maxactive = 1;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, kr), 0);
	WRITE_ONCE(kpkt_inflight_hook, kpkt_gate_hook);
	w = kpkt_worker_new(test, 1, want);
	w->exit = true;
	WRITE_ONCE(kpkt_gated, w);
	kpkt_worker_run(test, w, nr_cpu_ids);
	kpkt_worker_wait(test, &w->inside, "never entered the target");

	/* The worker holds the only instance. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 1);

	/*
	 * Let it exit, then wait until its task_struct has been released
	 * (an RCU callback after its last schedule): that is where the
	 * instance is flushed.  The worker's reference keeps the struct.
	 */
	complete_all(&w->open);
	left = &w->task->kretprobe_instances;
	deadline = jiffies + 30 * HZ;
	while (!llist_empty(left) && time_before(jiffies, deadline)) {
		rcu_barrier();
		msleep(20);
	}
	KUNIT_ASSERT_TRUE_MSG(test, llist_empty(left),
			      "the dead task's instance was not reclaimed");
	KUNIT_EXPECT_NE(test, READ_ONCE(w->task->exit_state), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->returns), 0);

	/* Back in the pool: tracked, no new miss. */
	KUNIT_EXPECT_EQ(test, kpkt_call(kpkt_inflight, 9), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->entries), 2);
	KUNIT_ASSERT_EQ(test, atomic_read(&kr->returns), 1);
	KUNIT_EXPECT_EQ(test, kr->arg[0], 9L);
	KUNIT_EXPECT_EQ(test, kr->ret[0], want);
	KUNIT_EXPECT_EQ(test, kr->rp.nmissed, 1);
	KUNIT_EXPECT_EQ(test, kr->rp.missed_empty, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr->bad), 0);

	kpkt_ret_unregister(test, kr);
	KUNIT_EXPECT_EQ(test, atomic_read(&kpkt_ret_orphans), 0);
}

static void krpt_batch_rollback(struct kunit *test)
{
	struct kpkt_ret *good = kpkt_ret_new(test, "kpkt_arith", true);
	struct kpkt_ret *bad = kpkt_ret_new(test, "kpkt_no_such_symbol_anywhere",
					    false);
	struct kretprobe *rps[] = { &good->rp, &bad->rp };
	struct kpkt_ref ref;
	int ret;

	kpkt_ref_init(&ref, kpkt_arith);
	ret = register_kretprobes(rps, ARRAY_SIZE(rps));
	if (!ret)
		unregister_kretprobes(rps, ARRAY_SIZE(rps));
	KUNIT_EXPECT_EQ(test, ret, -ENOENT);
	kpkt_run(test, &ref, "after a failed batch");
	KUNIT_EXPECT_EQ(test, atomic_read(&good->entries), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&good->returns), 0);

	good->rp.kp.addr = NULL;
	good->rp.kp.flags = 0;
	KUNIT_ASSERT_EQ(test, kpkt_ret_register(test, good), 0);
	kpkt_ret_check(test, good, &ref);
}

static int krpt_case_init(struct kunit *test)
{
	atomic_set(&kpkt_ret_orphans, 0);
	WRITE_ONCE(kpkt_inflight_hook, NULL);
	kpkt_inflight_test = NULL;
	kpkt_inflight_kr = NULL;
	WRITE_ONCE(kpkt_gated, NULL);
	return 0;
}

static struct kunit_case krpt_cases[] = {
	KUNIT_CASE(krpt_return_value),
	KUNIT_CASE(krpt_entry_data),
	KUNIT_CASE(krpt_entry_refuses),
	KUNIT_CASE(krpt_reject),
	KUNIT_CASE(krpt_reject_not_entry),
	KUNIT_CASE(krpt_core_flags_masked),
	KUNIT_CASE(krpt_large_maxactive),
	KUNIT_CASE(krpt_default_maxactive_twice_unregistered),
	KUNIT_CASE(krpt_unregister_through_kprobe),
	KUNIT_CASE(krpt_register_uninitialised),
	KUNIT_CASE(krpt_unregister_unregistered),
	KUNIT_CASE(krpt_shared_function),
	KUNIT_CASE(krpt_recursion),
	KUNIT_CASE(krpt_pool_exhausted),
	KUNIT_CASE(krpt_pool_exhausted_nested),
	KUNIT_CASE(krpt_disable_enable),
	KUNIT_CASE(krpt_unregister_in_flight),
	KUNIT_CASE(krpt_unregister_sleeper),
	KUNIT_CASE(krpt_task_exit_in_flight),
	KUNIT_CASE(krpt_batch_rollback),
	{}
};

static struct kunit_suite krpt_suite = {
	.name = "kprobes_api_kretprobe",
	.suite_init = kpkt_suite_init,
	.init = krpt_case_init,
	.test_cases = krpt_cases,
};

/* ------------------------------------------------------------------
 * Suites kprobes_boost and kprobes_batch
 *
 * White-box where it must be: whether a site is boosted is asked of the
 * architecture (arch_kprobe_boostable(), kernel/kprobes/internal.h), so
 * these cases run only when the suite is built in.  They use targets of
 * their own, decoded before any of their cases ran.
 * ------------------------------------------------------------------
 */

/* Two instructions the cases find by their opcodes: lea, then xor imm8. */
#define KPBT_PAIR	"lea 0x2(%0,%0,2), %0\n\txor $0x55, %0"

static long kpbt_data = 0x77;

/* Straight-line: a rip-relative load and arithmetic. */
static __used noinline long kpbt_plain(long x)
{
	long a = x * 5 + READ_ONCE(kpbt_data);

	OPTIMIZER_HIDE_VAR(a);
	a ^= 0x3c3c;
	OPTIMIZER_HIDE_VAR(a);
	return a + x;
}

/*
 * pushf, cli, sti (local_irq_save/restore), popf, and KPBT_PAIR once with
 * interrupts as the caller has them (on) and once with them off.
 */
static __used noinline long kpbt_flags(long x)
{
	unsigned long flags;

	asm volatile(KPBT_PAIR : "+r" (x));
	local_irq_save(flags);
	asm volatile(KPBT_PAIR : "+r" (x));
	local_irq_restore(flags);
	asm volatile("pushf\n\tpopf" : : : "memory", "cc");
	return x;
}

static kpkt_fn_t kpbt_fp = kpkt_leaf;

/* Direct and indirect calls, a branch, a return. */
static __used noinline long kpbt_mix(long x)
{
	long r = kpkt_leaf(x) + kpbt_fp(x);

	OPTIMIZER_HIDE_VAR(r);
	if (r & 1)
		r = r * 3;
	return r;
}

/* A load with an exception-table fixup, like kpkt_peek(). */
static __used noinline long kpbt_peek(long addr)
{
	long v;

	OPTIMIZER_HIDE_VAR(addr);
	__get_kernel_nofault(&v, (long *)addr, long, fault);
	return v;
fault:
	return -EFAULT;
}

/**
 * enum kpbt_expect - what a probe on an instruction must be
 * @KPBT_ANY: either (not an instruction kind the cases know)
 * @KPBT_BOOST: boosted: plain data movement or arithmetic
 * @KPBT_NO_BOOST: not boosted: emulated, needs work after the copy, sets
 *	IF, or has an exception-table fixup
 */
enum kpbt_expect {
	KPBT_ANY,
	KPBT_BOOST,
	KPBT_NO_BOOST,
};

static enum kpbt_expect kpbt_classify(unsigned long addr)
{
	struct insn insn;
	u8 op;

	if (!KPKT_BUILTIN)
		return KPBT_ANY;
	if (search_exception_tables(addr))
		return KPBT_NO_BOOST;
	if (insn_decode_kernel(&insn, (void *)addr) < 0 || insn_is_avx(&insn))
		return KPBT_ANY;
	op = insn.opcode.bytes[0];
	if (insn.opcode.nbytes == 2 && op == 0x0f) {
		op = insn.opcode.bytes[1];
		if (op >= 0x80 && op <= 0x8f)		/* jcc rel32 */
			return KPBT_NO_BOOST;
		return op == 0xaf ? KPBT_BOOST : KPBT_ANY;	/* imul */
	}
	if (insn.opcode.nbytes != 1)
		return KPBT_ANY;
	switch (op) {
	case 0x9c: case 0x9d:			/* pushf, popf */
	case 0xfa: case 0xfb:			/* cli, sti */
	case 0xc2: case 0xc3:			/* ret */
	case 0xe8: case 0xe9: case 0xeb:	/* call, jmp */
	case 0x70 ... 0x7f:			/* jcc rel8 */
		return KPBT_NO_BOOST;
	case 0xff:				/* call/jmp *r/m */
		if (X86_MODRM_REG(insn.modrm.bytes[0]) == 2 ||
		    X86_MODRM_REG(insn.modrm.bytes[0]) == 4)
			return KPBT_NO_BOOST;
		return KPBT_ANY;
	case 0x01: case 0x03: case 0x09: case 0x0b:	/* add, or */
	case 0x21: case 0x23: case 0x29: case 0x2b:	/* and, sub */
	case 0x31: case 0x33:				/* xor */
	case 0x69: case 0x6b:				/* imul */
	case 0x88 ... 0x8b: case 0x8d:			/* mov, lea */
		return KPBT_BOOST;
	}
	return KPBT_ANY;
}

/**
 * struct kpbt_target - a target of these suites, decoded at suite init
 * @fn: the function
 * @straight: every instruction runs once per call
 * @ret: what decoding returned
 * @t: its instructions after the entry sequence
 * @expect: enum kpbt_expect of each
 */
struct kpbt_target {
	kpkt_fn_t fn;
	bool straight;
	int ret;
	struct kpkt_text t;
	u8 expect[KPKT_MAX_INSNS];
};

static struct kpbt_target kpbt_targets[] = {
	{ kpbt_plain, true }, { kpbt_flags, false }, { kpbt_mix, false },
	{ kpbt_peek, false },
};

static int kpbt_suite_init(struct kunit_suite *suite)
{
	struct kpbt_target *tg;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(kpbt_targets); i++) {
		tg = &kpbt_targets[i];
		if (tg->t.nr)
			continue;	/* the other suite decoded it already */
		tg->ret = kpkt_decode_now(tg->fn, tg->straight, &tg->t);
		for (j = 0; !tg->ret && j < tg->t.nr; j++)
			tg->expect[j] = kpbt_classify(tg->t.start + tg->t.off[j]);
	}
	return 0;
}

static struct kpbt_target *kpbt_target_or_skip(struct kunit *test,
					       kpkt_fn_t fn)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kpbt_targets); i++) {
		if (kpbt_targets[i].fn != fn)
			continue;
		if (kpbt_targets[i].ret == -EOPNOTSUPP)
			kunit_skip(test, "x86 instruction decoder: "
				   KPKT_NO_HELPERS);
		KUNIT_ASSERT_EQ_MSG(test, kpbt_targets[i].ret, 0, "decoding %ps",
				    fn);
		return &kpbt_targets[i];
	}
	KUNIT_FAIL_AND_ABORT(test, "%ps is not a target", fn);
	return NULL;
}

/* Is the site at @addr boosted whenever it has no post handler? */
static bool kpbt_boostable(void *addr)
{
	struct kprobe *p;
	bool ret;

	if (!KPKT_BUILTIN)
		return false;
	rcu_read_lock();
	p = get_kprobe(addr);
	ret = p && arch_kprobe_boostable(p);
	rcu_read_unlock();
	return ret;
}

#define KPBT_MAX_PAIRS	4

/*
 * Indexes of the leas of KPBT_PAIR in kpbt_flags() (each xor follows at
 * index + 1); returns how many.  The first runs with interrupts on.  The
 * compiler may have copied the second one into each path of
 * local_irq_restore(): any pair after the first runs with them off.
 */
static unsigned int kpbt_pairs(struct kunit *test, struct kpbt_target *tg,
			       unsigned int *idx)
{
	const struct kpkt_text *t = &tg->t;
	struct insn lea, xor;
	unsigned int i, nr = 0;

	for (i = 0; KPKT_BUILTIN && i + 1 < t->nr; i++) {
		if (insn_decode_kernel(&lea, (void *)(t->start + t->off[i])) < 0 ||
		    insn_decode_kernel(&xor,
				       (void *)(t->start + t->off[i + 1])) < 0)
			continue;
		if (lea.opcode.bytes[0] != 0x8d || xor.opcode.bytes[0] != 0x83 ||
		    X86_MODRM_REG(xor.modrm.bytes[0]) != 6 ||
		    xor.immediate.value != 0x55)
			continue;
		if (nr < KPBT_MAX_PAIRS)
			idx[nr++] = i;
	}
	if (nr < 2)
		KUNIT_FAIL_AND_ABORT(test, "KPBT_PAIR not found in kpbt_flags");
	return nr;
}

/* Probe each instruction of @fn alone, without a post handler. */
static void kpbt_each_insn(struct kunit *test, kpkt_fn_t fn)
{
	struct kpbt_target *tg = kpbt_target_or_skip(test, fn);
	unsigned int i, boosted = 0;
	struct kpkt_probe *pp;
	struct kpkt_ref ref;
	int calls, ret;
	void *addr;

	kpkt_ref_init(&ref, fn);
	for (i = 0; i < tg->t.nr; i++) {
		addr = (void *)(tg->t.start + tg->t.off[i]);
		pp = kpkt_probe_new(test, addr, NULL, 0);
		pp->kp.post_handler = NULL;
		ret = kpkt_register(test, &pp->kp);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%pS", addr);
		if (ret)
			continue;
		if (kpbt_boostable(addr))
			boosted++;
		if (tg->expect[i] != KPBT_ANY)
			KUNIT_EXPECT_EQ_MSG(test, kpbt_boostable(addr),
					    tg->expect[i] == KPBT_BOOST,
					    "%pS: boosted?", addr);
		calls = kpkt_run(test, &ref, "one instruction probed");
		if (tg->straight)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp), calls,
					    "%pS", addr);
		else
			KUNIT_EXPECT_LE_MSG(test, kpkt_pre_hits(pp), calls,
					    "%pS", addr);
		kpkt_unregister(test, &pp->kp);
	}
	kunit_info(test, "%ps: %u of %u instructions boosted\n", fn, boosted,
		   tg->t.nr);
}

static void kpbt_plain_insns(struct kunit *test)
{
	struct kpbt_target *tg = kpbt_target_or_skip(test, kpbt_plain);
	unsigned int i, nr = 0;

	for (i = 0; i < tg->t.nr; i++)
		nr += tg->expect[i] == KPBT_BOOST;
	KUNIT_EXPECT_GT_MSG(test, nr, 0, "no plain instruction in kpbt_plain");
	kpbt_each_insn(test, kpbt_plain);
}

/* Instructions that must not be boosted are not, and all still work. */
static void kpbt_refused_kinds(struct kunit *test)
{
	static const kpkt_fn_t fns[] = { kpbt_flags, kpbt_mix, kpbt_peek };
	struct kpbt_target *tg;
	unsigned int i, j, nr = 0;

	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		tg = kpbt_target_or_skip(test, fns[i]);
		for (j = 0; j < tg->t.nr; j++)
			nr += tg->expect[j] == KPBT_NO_BOOST;
		kpbt_each_insn(test, fns[i]);
	}
	/* At least pushf, cli, popf, the fixup load, a call and a return. */
	KUNIT_EXPECT_GE(test, nr, 6);
}

/* kpbt_peek() with the fixup load probed: faults still find the fixup. */
static void kpbt_fixup_not_boosted(struct kunit *test)
{
	struct kpbt_target *tg = kpbt_target_or_skip(test, kpbt_peek);
	static long good = 0x600d;
	struct kpkt_probe *pp;
	unsigned long addr = 0;
	unsigned int i;

	for (i = 0; KPKT_BUILTIN && i < tg->t.nr && !addr; i++)
		if (search_exception_tables(tg->t.start + tg->t.off[i]))
			addr = tg->t.start + tg->t.off[i];
	KUNIT_ASSERT_NE_MSG(test, addr, 0UL, "no fixup in kpbt_peek");
	kpkt_setup_bad_addr(test);

	pp = kpkt_probe_new(test, (void *)addr, NULL, 0);
	pp->kp.post_handler = NULL;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_FALSE(test, kpbt_boostable((void *)addr));
	KUNIT_EXPECT_EQ(test, kpkt_call(kpbt_peek, (long)&good), good);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpbt_peek, (long)kpkt_bad_addr),
			(long)-EFAULT);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 2);
}

/**
 * struct kpbt_if_probe - records EFLAGS.IF at each hit
 * @kp: the probe
 * @hits: pre handler calls
 * @if_on: of which with IF set
 */
struct kpbt_if_probe {
	struct kprobe kp;
	atomic_t hits;
	atomic_t if_on;
};

static int kpbt_if_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpbt_if_probe *ip = container_of(p, struct kpbt_if_probe, kp);

	atomic_inc(&ip->hits);
	if (regs->flags & X86_EFLAGS_IF)
		atomic_inc(&ip->if_on);
	return 0;
}

/*
 * A boosted copy returns without a trap that could restore IF: the next
 * instruction must find IF as the probed code had it, on or off.
 */
static void kpbt_if_after_boost(struct kunit *test)
{
	struct kpbt_target *tg = kpbt_target_or_skip(test, kpbt_flags);
	struct kpbt_if_probe *ip[KPBT_MAX_PAIRS];
	struct kpkt_probe *pp[KPBT_MAX_PAIRS];
	unsigned int idx[KPBT_MAX_PAIRS];
	int calls, hits = 0, if_on = 0;
	unsigned int i, nr;
	struct kpkt_ref ref;

	kpkt_ref_init(&ref, kpbt_flags);
	nr = kpbt_pairs(test, tg, idx);
	for (i = 0; i < nr; i++) {
		pp[i] = kpkt_probe_new(test, (void *)(tg->t.start +
						      tg->t.off[idx[i]]),
				       NULL, 0);
		pp[i]->kp.post_handler = NULL;
		ip[i] = kunit_kzalloc(test, sizeof(*ip[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ip[i]);
		ip[i]->kp.addr = (void *)(tg->t.start + tg->t.off[idx[i] + 1]);
		ip[i]->kp.pre_handler = kpbt_if_pre;
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp[i]->kp), 0);
		KUNIT_ASSERT_EQ(test, kpkt_register(test, &ip[i]->kp), 0);
		KUNIT_EXPECT_TRUE_MSG(test, kpbt_boostable(pp[i]->kp.addr),
				      "%pS", pp[i]->kp.addr);
	}

	calls = kpkt_run(test, &ref, "pairs probed");
	/* Interrupts on: once per call, IF set each time. */
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp[0]), calls);
	KUNIT_EXPECT_EQ(test, atomic_read(&ip[0]->hits), calls);
	KUNIT_EXPECT_EQ(test, atomic_read(&ip[0]->if_on), calls);
	/* Interrupts off: one of the copies per call, IF clear each time. */
	for (i = 1; i < nr; i++) {
		KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp[i]),
				atomic_read(&ip[i]->hits));
		hits += atomic_read(&ip[i]->hits);
		if_on += atomic_read(&ip[i]->if_on);
	}
	KUNIT_EXPECT_EQ(test, hits, calls);
	KUNIT_EXPECT_EQ(test, if_on, 0);
}

/* A post handler on the site turns boosting off while it is there. */
static void kpbt_post_handler_unboosts(struct kunit *test)
{
	struct kpbt_target *tg = kpbt_target_or_skip(test, kpbt_flags);
	unsigned int idx[KPBT_MAX_PAIRS];
	struct kpkt_probe *pp, *with_post;
	struct kpkt_ref ref;
	void *addr;
	int calls;

	kpbt_pairs(test, tg, idx);
	addr = (void *)(tg->t.start + tg->t.off[idx[0]]);
	kpkt_ref_init(&ref, kpbt_flags);
	pp = kpkt_probe_new(test, addr, NULL, 0);
	pp->kp.post_handler = NULL;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_TRUE(test, kpbt_boostable(addr));
	calls = kpkt_run(test, &ref, "boosted");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), calls);

	with_post = kpkt_probe_new(test, addr, NULL, 0);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &with_post->kp), 0);
	kpkt_check_probe(test, with_post, &ref, false);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 2 * calls);

	/* Disabled, its post handler no longer runs; enabled, it does. */
	KUNIT_EXPECT_EQ(test, disable_kprobe(&with_post->kp), 0);
	kpkt_run(test, &ref, "post member disabled");
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(with_post), calls);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&with_post->kp), 0);
	kpkt_check_probe(test, with_post, &ref, false);

	kpkt_unregister(test, &with_post->kp);
	kpkt_run(test, &ref, "boosted again");
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 5 * calls);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(with_post), calls);
}

static int kpbt_case_init(struct kunit *test)
{
	kpkt_bad_addr = NULL;
	if (!KPKT_BUILTIN)
		kunit_skip(test, "arch_kprobe_boostable(): " KPKT_NO_HELPERS);
	return 0;
}

static struct kunit_case kpbt_cases[] = {
	KUNIT_CASE(kpbt_plain_insns),
	KUNIT_CASE(kpbt_refused_kinds),
	KUNIT_CASE(kpbt_fixup_not_boosted),
	KUNIT_CASE(kpbt_if_after_boost),
	KUNIT_CASE(kpbt_post_handler_unboosts),
	{}
};

static struct kunit_suite kpbt_suite = {
	.name = "kprobes_boost",
	.suite_init = kpbt_suite_init,
	.init = kpbt_case_init,
	.test_cases = kpbt_cases,
};

/*
 * register_kprobes() and unregister_kprobes() over every instruction of
 * the targets at once, in descending address order, with a duplicate
 * address and a function-entry probe among them.  Twice, so the second
 * round reuses what the first one left.
 */
static void kpbt_batch_every_instruction(struct kunit *test)
{
	static const kpkt_fn_t fns[] = { kpbt_plain, kpbt_flags, kpbt_mix };
	struct kpkt_ref ref[ARRAY_SIZE(fns)];
	struct kpkt_probe **pp;
	struct kpbt_target *tg;
	struct kprobe **kps;
	unsigned int i, j, n = 0, round, nplain = 0;
	int ret, calls = 0;

	pp = kunit_kcalloc(test, 2 * ARRAY_SIZE(fns) * KPKT_MAX_INSNS + 2,
			   sizeof(*pp), GFP_KERNEL);
	kps = kunit_kcalloc(test, 2 * ARRAY_SIZE(fns) * KPKT_MAX_INSNS + 2,
			    sizeof(*kps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pp);
	KUNIT_ASSERT_NOT_NULL(test, kps);

	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		tg = kpbt_target_or_skip(test, fns[i]);
		kpkt_ref_init(&ref[i], fns[i]);
		for (j = tg->t.nr; j-- > 0; ) {
			pp[n] = kpkt_probe_new(test, (void *)(tg->t.start +
							      tg->t.off[j]),
					       NULL, 0);
			/* Half boosted (where possible), half stepped. */
			if (n & 1)
				pp[n]->kp.post_handler = NULL;
			n++;
		}
		if (fns[i] == kpbt_plain)
			nplain = n;
	}
	/* A second member at kpbt_plain's last instruction, and its entry. */
	pp[n++] = kpkt_probe_new(test, pp[0]->kp.addr, NULL, 0);
	pp[n++] = kpkt_probe_new(test, NULL, "kpbt_plain", 0);
	for (i = 0; i < n; i++)
		kps[i] = &pp[i]->kp;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < n; i++)
			kpkt_probe_reset(pp[i]);
		ret = register_kprobes(kps, n);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "round %u", round);
		for (i = 0; i < n; i++)
			KUNIT_ASSERT_EQ(test,
					kunit_add_action_or_reset(test,
								  kpkt_unregister_action,
								  kps[i]), 0);
		for (i = 0; i < ARRAY_SIZE(fns); i++)
			calls = kpkt_run(test, &ref[i], "all probed");
		for (i = 0; i < nplain; i++) {
			KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp[i]), calls,
					    "%pS", pp[i]->kp.addr);
			KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp[i]),
					    pp[i]->kp.post_handler ? calls : 0,
					    "%pS", pp[i]->kp.addr);
		}
		for (i = n - 2; i < n; i++)
			KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp[i]), calls);

		unregister_kprobes(kps, n);
		for (i = 0; i < n; i++)
			kunit_remove_action(test, kpkt_unregister_action, kps[i]);
		for (i = 0; i < n; i++)
			atomic_set(&pp[i]->pre_hits, 0);
		for (i = 0; i < ARRAY_SIZE(fns); i++)
			kpkt_run(test, &ref[i], "all unregistered");
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp[i]), 0,
					    "%pS", pp[i]->kp.addr);
	}
}

static struct kunit_case kpbt_batch_cases[] = {
	KUNIT_CASE(kpbt_batch_every_instruction),
	{}
};

static struct kunit_suite kpbt_batch_suite = {
	.name = "kprobes_batch",
	.suite_init = kpbt_suite_init,
	.init = kpkt_case_init,
	.test_cases = kpbt_batch_cases,
};

kunit_test_suites(&kpkt_suite, &krpt_suite, &kpbt_suite, &kpbt_batch_suite);

MODULE_DESCRIPTION("Black-box KUnit tests of the kprobes API");
MODULE_LICENSE("GPL");
