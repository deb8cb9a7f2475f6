// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite "kprobes_arm64_entry": where arm64's back-end puts the
 * probe of a function's entry when the function opens with a landing
 * pad of indirect branches (arch_adjust_kprobe_addr() in core.c).
 *
 *   - "bti c" (every SYM_FUNC_START function, BTI or not; with
 *     ARM64_BTI_KERNEL every C function that does not sign its return
 *     address): the probe goes on the instruction after it, and offset 0
 *     and 4 both name that entry;
 *   - PACIASP (a C function that signs its return address): the probe
 *     stays on it, where x30 is still unsigned, so that a kretprobe's
 *     trampoline address is what the function signs and authenticates.
 *
 * Every target is called through a pointer: in a kernel with
 * ARM64_BTI_KERNEL the call is an indirect branch that the CPU checks,
 * and a probe that broke the landing pad would take a Branch Target
 * exception (an oops) instead of a hit.
 */

#include <linux/compiler.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <asm/insn.h>

#include "kprobes_kunit.h"
#include "simulate_kunit.h"

/* What kpae_signed() returns for x, written out. */
#define KPAE_SIGNED(x)	((x) * 3 + 1)

static noinline notrace long kpae_inner(long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x * 3;
}

/*
 * Not a leaf, not traced: with pointer authentication in the kernel it
 * opens with PACIASP (its own landing pad with BTI), no ftrace entry
 * before it.
 */
static noinline notrace long kpae_signed(long x)
{
	long r = kpae_inner(x);

	OPTIMIZER_HIDE_VAR(r);
	return r + 1;
}

static u32 kpae_insn(kpkt_fn_t fn)
{
	return le32_to_cpu(*(__le32 *)fn);
}

KUNIT_DEFINE_ACTION_WRAPPER(kpae_unregister_ret_action, unregister_kretprobe,
			    struct kretprobe *);

static bool kpae_is_paciasp(u32 insn)
{
	return aarch64_insn_is_hint(insn) &&
	       (insn & 0xfe0) == AARCH64_INSN_HINT_PACIASP;
}

/* A kretprobe and what its handler saw. */
struct kpae_ret {
	struct kretprobe rp;
	long want;
	atomic_t returns;
	atomic_t bad;
};

static int kpae_ret_handler(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct kpae_ret *r = container_of(get_kretprobe(ri), struct kpae_ret,
					  rp);

	atomic_inc(&r->returns);
	if (regs_return_value(regs) != r->want)
		atomic_inc(&r->bad);
	return 0;
}

static struct kpae_ret *kpae_ret_new(struct kunit *test, kpkt_fn_t fn,
				     long want)
{
	struct kpae_ret *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->rp.kp.addr = (kprobe_opcode_t *)fn;
	r->rp.handler = kpae_ret_handler;
	r->want = want;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&r->rp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  kpae_unregister_ret_action,
						  &r->rp), 0);
	return r;
}

/*
 * A "bti c" opens kpas_add: the entry probe, asked for at its address,
 * by name or at +4, is on the ADD after it, and the call through a
 * pointer (an indirect branch to the pad, intact) hits it once.
 */
static void entry_probe_after_bti(struct kunit *test)
{
	unsigned long fn = (unsigned long)kpas_add;
	void *body = (void *)(fn + AARCH64_INSN_SIZE);
	struct kpkt_probe *at = kpkt_probe_new(test, (void *)fn, NULL, 0);
	struct kpkt_probe *by_name = kpkt_probe_new(test, NULL, "kpas_add", 0);
	struct kpkt_probe *plus4 = kpkt_probe_new(test, body, NULL, 0);

	KUNIT_ASSERT_TRUE(test, aarch64_insn_is_bti(kpae_insn(kpas_add)));
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &at->kp), 0);
	KUNIT_EXPECT_PTR_EQ(test, (void *)at->kp.addr, body);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &by_name->kp), 0);
	KUNIT_EXPECT_PTR_EQ(test, (void *)by_name->kp.addr, body);
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &plus4->kp), 0);
	KUNIT_EXPECT_PTR_EQ(test, (void *)plus4->kp.addr, body);
	/* The pad itself is untouched. */
	KUNIT_EXPECT_TRUE(test, aarch64_insn_is_bti(kpae_insn(kpas_add)));

	KUNIT_EXPECT_EQ(test, kpkt_call(kpas_add, 7), 7L + 0x123);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(at), 1);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(by_name), 1);
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(plus4), 1);
}

/*
 * A kretprobe asked for at kpas_add is an entry probe after the pad; the
 * return goes through the trampoline with the function's result.
 */
static void kretprobe_after_bti(struct kunit *test)
{
	unsigned long fn = (unsigned long)kpas_add;
	struct kpae_ret *r;

	KUNIT_ASSERT_TRUE(test, aarch64_insn_is_bti(kpae_insn(kpas_add)));
	r = kpae_ret_new(test, kpas_add, 5L + 0x123);
	KUNIT_EXPECT_EQ(test, (unsigned long)r->rp.kp.addr,
			fn + AARCH64_INSN_SIZE);
	KUNIT_EXPECT_EQ(test, kpkt_call(kpas_add, 5), 5L + 0x123);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->returns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->bad), 0);
}

/*
 * A function that signs its return address: the entry probe and a
 * kretprobe's entry stay on the PACIASP (after a "bti c", should a
 * compiler put one first), which signs the trampoline's address, and
 * the AUTIASP before the RET accepts it.
 */
static void entry_probe_on_paciasp(struct kunit *test)
{
	unsigned long fn = (unsigned long)kpae_signed;
	struct kpkt_probe *pp = kpkt_probe_new(test, (void *)fn, NULL, 0);
	struct kpae_ret *r;

	if (aarch64_insn_is_bti(kpae_insn(kpae_signed)))
		fn += AARCH64_INSN_SIZE;
	if (!kpae_is_paciasp(kpae_insn((kpkt_fn_t)fn)))
		kunit_skip(test, "kpae_signed opens with %08x, no PACIASP: no kernel PAC",
			   kpae_insn((kpkt_fn_t)fn));
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)pp->kp.addr, fn);
	r = kpae_ret_new(test, kpae_signed, KPAE_SIGNED(11L));
	KUNIT_EXPECT_EQ(test, (unsigned long)r->rp.kp.addr, fn);

	KUNIT_EXPECT_EQ(test, kpkt_call(kpae_signed, 11), KPAE_SIGNED(11L));
	KUNIT_EXPECT_EQ(test, kpkt_pre_hits(pp), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->returns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->bad), 0);
}

static struct kunit_case kpae_cases[] = {
	KUNIT_CASE(entry_probe_after_bti),
	KUNIT_CASE(kretprobe_after_bti),
	KUNIT_CASE(entry_probe_on_paciasp),
	{}
};

static struct kunit_suite kpae_suite = {
	.name = "kprobes_arm64_entry",
	.test_cases = kpae_cases,
};

kunit_test_suite(kpae_suite);
