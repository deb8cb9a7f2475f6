// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites share (kprobes_kunit.h says which file
 * has which suite): the probe targets, their results while unprobed,
 * counting handlers, and the targets' instructions as the architecture
 * decodes them.
 */

#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kprobes_kunit.h"

/* ------------------------------------------------------------------
 * Probe targets.  Each computes something that depends on every one of
 * its instructions, so an instruction that is mis-executed out of line
 * shows up as a wrong result.
 * ------------------------------------------------------------------
 */

/*
 * Read with a PC-relative load (x86 RIP-relative, riscv auipc): the copy
 * in a slot must be relocated, or the load simulated.
 */
static long kpkt_rip_data = 0x1234;

/* Straight-line arithmetic; the hidden values keep every step in the code. */
__used noinline long kpkt_arith(long x)
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
__used noinline long kpkt_alt(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x + 100000;
}

__used noinline long kpkt_rip(long x)
{
	long v = READ_ONCE(kpkt_rip_data);

	OPTIMIZER_HIDE_VAR(v);
	return v * 2 + x;
}

__used noinline long kpkt_leaf(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x * 11 - 2;
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_leaf);

/* Contains a direct relative CALL: probing it needs the call emulated. */
__used noinline long kpkt_caller(long x)
{
	long r = kpkt_leaf(x + 1);

	OPTIMIZER_HIDE_VAR(r);
	return r + x;
}

/* Two paths (or a CMOV): a probed conditional branch must go both ways. */
__used noinline long kpkt_branch(long x)
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
__used noinline long kpkt_inner(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x * x + 1;
}

/*
 * A load with an exception-table fixup: returns -EFAULT for a bad @from.
 * Not named addr: sparc64's __get_kernel_nofault() declares an addr of its
 * own, which would be initialised from itself.
 */
__used noinline long kpkt_peek(long from)
{
	long v;

	OPTIMIZER_HIDE_VAR(from);
	__get_kernel_nofault(&v, (long *)from, long, fault);
	return v;
fault:
	return -EFAULT;
}

/* Sum of 0..n, recursing through kpkt_call() so it cannot become a loop. */
__used noinline long kpkt_rsum(long n)
{
	long r;

	if (n <= 0)
		return 0;
	r = kpkt_call(kpkt_rsum, n - 1);
	OPTIMIZER_HIDE_VAR(r);
	return r + n;
}

/* Runs kpkt_inflight_hook (if set) in the middle of the call. */
kpkt_hook_t kpkt_inflight_hook;

__used noinline long kpkt_inflight(long x)
{
	kpkt_hook_t hook = READ_ONCE(kpkt_inflight_hook);

	if (hook)
		hook();
	OPTIMIZER_HIDE_VAR(x);
	return x * 2 + 5;
}

/* On the blacklist through NOKPROBE_SYMBOL(). */
__used noinline long kpkt_nokprobe(long x)
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

__used noinline long kpkt_keyed(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	if (static_branch_unlikely(&kpkt_key))
		return x - 1;
	return x + 1;
}

DEFINE_STATIC_CALL(kpkt_static, kpkt_leaf);

__used noinline long kpkt_static_caller(long x)
{
	long r = static_call(kpkt_static)(x);

	OPTIMIZER_HIDE_VAR(r);
	return r + 1;
}

/* In .kprobes.text, which is never probed as a whole. */
__used noinline long __kprobes kpkt_kprobes_text(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x + 2;
}

/* The return address every kretprobe'd call made from here must report. */
__used noinline long kpkt_ret_caller(kpkt_fn_t fn, long x)
{
	long r = kpkt_call(fn, x);

	OPTIMIZER_HIDE_VAR(r);
	return r;
}

/* ------------------------------------------------------------------
 * Reference results
 * ------------------------------------------------------------------
 */

const long kpkt_args[KPKT_NARGS] = { 1, 2, 7, 42 };

/* Record what @fn returns while nothing probes it. */
void kpkt_ref_init(struct kpkt_ref *ref, kpkt_fn_t fn)
{
	unsigned int i;

	ref->fn = fn;
	for (i = 0; i < KPKT_NARGS; i++)
		ref->want[i] = kpkt_call(fn, kpkt_args[i]);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_ref_init);

/* Call the target on every argument and compare; returns the call count. */
int kpkt_run(struct kunit *test, const struct kpkt_ref *ref, const char *what)
{
	unsigned int i;

	for (i = 0; i < KPKT_NARGS; i++)
		KUNIT_EXPECT_EQ_MSG(test, kpkt_call(ref->fn, kpkt_args[i]),
				    ref->want[i], "%ps(%ld), %s", ref->fn,
				    kpkt_args[i], what);
	return KPKT_NARGS;
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_run);

/* ------------------------------------------------------------------
 * Probes with counting handlers
 * ------------------------------------------------------------------
 */

/* An unmapped kernel address (a vmalloc guard page) for the fault cases. */
void *kpkt_bad_addr;
EXPORT_SYMBOL_IF_KUNIT(kpkt_bad_addr);

static void kpkt_handler_fault(struct kpkt_probe *pp)
{
	long v;

	pp->fault_ret = copy_from_kernel_nofault(&v, kpkt_bad_addr, sizeof(v));
}

int kpkt_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpkt_probe *pp = container_of(p, struct kpkt_probe, kp);

	atomic_inc(&pp->pre_hits);
	if (kprobe_running() != p)
		atomic_inc(&pp->not_running);
	pp->arg0 = regs_get_kernel_argument(regs, 0);
	if (pp->fault_in_pre)
		kpkt_handler_fault(pp);
	if (pp->nest_fn && !pp->nest_in_post)
		pp->nest_ret = kpkt_call(pp->nest_fn, 5);
	if (pp->do_set_arg0)
		kpkt_arch_set_arg0(regs, pp->set_arg0);
	if (pp->redirect) {
		instruction_pointer_set(regs, pp->redirect);
		return 1;
	}
	return 0;
}

void kpkt_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	struct kpkt_probe *pp = container_of(p, struct kpkt_probe, kp);

	atomic_inc(&pp->post_hits);
	if (kprobe_running() != p)
		atomic_inc(&pp->not_running);
	if (pp->fault_in_post)
		kpkt_handler_fault(pp);
	if (pp->nest_fn && pp->nest_in_post)
		pp->nest_ret = kpkt_call(pp->nest_fn, 5);
}

struct kpkt_probe *kpkt_probe_new(struct kunit *test, void *addr,
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
EXPORT_SYMBOL_IF_KUNIT(kpkt_probe_new);

/* Make a used probe registrable again, the way a user re-arms one. */
void kpkt_probe_reset(struct kpkt_probe *pp)
{
	if (pp->kp.symbol_name)
		pp->kp.addr = NULL;
	pp->kp.flags = 0;
	atomic_set(&pp->pre_hits, 0);
	atomic_set(&pp->post_hits, 0);
	pp->kp.nmissed = 0;
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_probe_reset);

int kpkt_pre_hits(struct kpkt_probe *pp)
{
	return atomic_read(&pp->pre_hits);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_pre_hits);

int kpkt_post_hits(struct kpkt_probe *pp)
{
	return atomic_read(&pp->post_hits);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_post_hits);

void kpkt_unregister_action(void *kp)
{
	unregister_kprobe(kp);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_unregister_action);

void kpkt_unregister_ret_action(void *rp)
{
	unregister_kretprobe(rp);
}

void kpkt_vfree_action(void *addr)
{
	vfree(addr);
}

/*
 * Register @kp; when that works, also arrange for it to be unregistered
 * when the case ends, however it ends, because the probe lives in memory
 * that KUnit frees after the case.
 */
int kpkt_register(struct kunit *test, struct kprobe *kp)
{
	int ret = register_kprobe(kp);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, kpkt_unregister_action, kp);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_register);

/* Unregister now what kpkt_register() registered. */
void kpkt_unregister(struct kunit *test, struct kprobe *kp)
{
	kunit_release_action(test, kpkt_unregister_action, kp);
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_unregister);

/* Registration must fail with @err; undo it if it wrongly succeeded. */
void kpkt_expect_reject(struct kunit *test, struct kprobe *kp, int err,
			const char *what)
{
	int ret = register_kprobe(kp);

	if (!ret)
		unregister_kprobe(kp);
	KUNIT_EXPECT_EQ_MSG(test, ret, err, "register_kprobe(%s)", what);
}

/* Wait until deferred optimization (if any) has been done. */
void kpkt_settle(void)
{
	if (KPKT_BUILTIN)
		wait_for_kprobe_optimizer();
	else
		msleep(200);
}

/**
 * kpkt_site_boostable() - does the site at @addr run its instruction
 *	without a second trap (arch_kprobe_boostable())?
 * @addr: a registered probe's address
 *
 * The site table is vmlinux-internal: built as a module, the suites
 * cannot ask, and this says false (their cases skip first).
 *
 * Return: true if the site exists and the architecture says so.
 */
bool kpkt_site_boostable(void *addr)
{
	struct kprobe_hit_site *p;
	bool ret;

	if (!KPKT_BUILTIN)
		return false;
	rcu_read_lock();
	p = kprobe_hit_find((unsigned long)addr);
	ret = p && arch_kprobe_boostable(p);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_site_boostable);

/* ------------------------------------------------------------------
 * Instruction boundaries, from the architecture
 * ------------------------------------------------------------------
 */

/* See kprobes_kunit.h; arm overrides it. */
unsigned long __weak kpkt_arch_fn_addr(kpkt_fn_t fn)
{
	return (unsigned long)fn;
}

/* See kprobes_kunit.h; arm overrides it. */
unsigned int __weak kpkt_arch_mid_insn_off(void)
{
	return 1;
}

/* See kprobes_kunit.h; s390 overrides it. */
int __weak kpkt_arch_mid_insn_err(void)
{
	return -EILSEQ;
}

/* See kprobes_kunit.h; arm64 overrides both. */
unsigned long __weak kpkt_arch_ret_addr(const struct pt_regs *regs)
{
	return 0;
}

void __weak kpkt_arch_ftrace_regs(struct kunit *test,
				  const struct pt_regs *regs)
{
}

/*
 * Walk @fn from its first byte, one instruction at a time as the
 * architecture measures them.  The entry sequence (kpkt_arch_entry_end())
 * is walked over but not recorded: probes there are the function-entry
 * cases.  With @to_ret the walk stops after the first return
 * (straight-line targets); otherwise it goes to the end of the symbol and
 * stops at padding.  Returns 0 or -errno (-EOPNOTSUPP as a module).
 */
int kpkt_decode_now(kpkt_fn_t fn, bool to_ret, struct kpkt_text *t)
{
	unsigned long start = kpkt_arch_fn_addr(fn);
	unsigned long size, offset, entry_end, addr;
	bool ret, pad;
	int len;

	if (!KPKT_BUILTIN)
		return -EOPNOTSUPP;
	if (!kallsyms_lookup_size_offset(start, &size, &offset) || offset)
		return -ENOENT;

	entry_end = kpkt_arch_entry_end(start);
	t->start = start;
	t->nr = 0;
	for (addr = start; addr < start + size; addr += len) {
		ret = false;
		pad = false;
		len = kpkt_arch_insn(addr, &ret, &pad);
		if (len <= 0)
			return len ? len : -EILSEQ;
		if (!to_ret && pad)
			break;
		if (addr >= entry_end) {
			if (t->nr == KPKT_MAX_INSNS)
				return -E2BIG;
			t->off[t->nr] = addr - start;
			t->len[t->nr] = len;
			t->nr++;
		}
		if (to_ret && ret)
			break;
	}
	return t->nr ? 0 : -ENODATA;
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_decode_now);

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

int kpkt_suite_init(struct kunit_suite *suite)
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
int kpkt_decode(kpkt_fn_t fn, bool to_ret, struct kpkt_text *t)
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
void kpkt_decode_or_skip(struct kunit *test, kpkt_fn_t fn, bool to_ret,
			 struct kpkt_text *t)
{
	int ret = kpkt_decode(fn, to_ret, t);

	if (ret == -EOPNOTSUPP)
		kunit_skip(test, "instruction decoder: " KPKT_NO_HELPERS);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "decoding %ps", fn);
}

/*
 * The address of a body instruction of @fn that is not its first one (or
 * NULL when the decoder is not available): a probe there is a breakpoint
 * probe, never an ftrace one.
 */
void *kpkt_mid_addr(struct kunit *test, kpkt_fn_t fn)
{
	struct kpkt_text *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	if (kpkt_decode(fn, true, t))
		return NULL;
	return (void *)(t->start + t->off[t->nr > 2 ? 1 : 0]);
}

/* ------------------------------------------------------------------
 * Helpers of the cases
 * ------------------------------------------------------------------
 */

/* A probe, its handler counts, and the target's results while probed. */
void kpkt_check_probe(struct kunit *test, struct kpkt_probe *pp,
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
EXPORT_SYMBOL_IF_KUNIT(kpkt_check_probe);

/* Point kpkt_bad_addr at a vmalloc guard page, or skip. */
void kpkt_setup_bad_addr(struct kunit *test)
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
EXPORT_SYMBOL_IF_KUNIT(kpkt_setup_bad_addr);

/* Every case starts without a bad address or an in-flight hook. */
int kpkt_case_init(struct kunit *test)
{
	kpkt_bad_addr = NULL;
	WRITE_ONCE(kpkt_inflight_hook, NULL);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kpkt_case_init);

MODULE_DESCRIPTION("Black-box KUnit tests of the kprobes API");
MODULE_LICENSE("GPL");
