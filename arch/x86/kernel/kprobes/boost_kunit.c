// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suites of x86's back-end, on the helpers and targets of the
 * generic kprobes suites (kernel/kprobes/tests/kprobes_kunit.h):
 *
 *   kprobes_x86_boost  boosted execution, where the copied instruction
 *                      runs out of line and jumps back with no single-step
 *                      trap: which instructions are boosted, that a
 *                      boosted copy behaves as the original, post handlers
 *                      run from a trampoline without a second trap
 *   kprobes_x86_batch  register_kprobes() over every instruction of the
 *                      targets at once, half boosted, half stepped
 */

#include <linux/extable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <linux/hardirq.h>
#include <linux/stacktrace.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#include "kprobes_kunit.h"

/* ------------------------------------------------------------------
 * Suites kprobes_x86_boost and kprobes_x86_batch
 *
 * White-box where it must be: whether a site is boosted is asked of the
 * architecture (arch_kprobe_boostable(), <linux/kprobes_arch.h>), so
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
			kunit_skip(test, "instruction decoder: "
				   KPKT_NO_HELPERS);
		KUNIT_ASSERT_EQ_MSG(test, kpbt_targets[i].ret, 0, "decoding %ps",
				    fn);
		return &kpbt_targets[i];
	}
	KUNIT_FAIL_AND_ABORT(test, "%ps is not a target", fn);
	return NULL;
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
		if (kpkt_site_boostable(addr))
			boosted++;
		if (tg->expect[i] != KPBT_ANY)
			KUNIT_EXPECT_EQ_MSG(test, kpkt_site_boostable(addr),
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

static void plain_instructions_boosted(struct kunit *test)
{
	struct kpbt_target *tg = kpbt_target_or_skip(test, kpbt_plain);
	unsigned int i, nr = 0;

	for (i = 0; i < tg->t.nr; i++)
		nr += tg->expect[i] == KPBT_BOOST;
	KUNIT_EXPECT_GT_MSG(test, nr, 0, "no plain instruction in kpbt_plain");
	kpbt_each_insn(test, kpbt_plain);
}

/* Instructions that must not be boosted are not, and all still work. */
static void other_instructions_not_boosted(struct kunit *test)
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
static void instruction_with_fixup_not_boosted(struct kunit *test)
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
	KUNIT_EXPECT_FALSE(test, kpkt_site_boostable((void *)addr));
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
static void interrupt_flag_kept_after_boost(struct kunit *test)
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
		KUNIT_EXPECT_TRUE_MSG(test, kpkt_site_boostable(pp[i]->kp.addr),
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

/*
 * A post handler on the site sends its hits to the post copy while it is
 * there, and to the boosted copy again once it is gone.
 */
static void post_handler_unboosts(struct kunit *test)
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
	KUNIT_EXPECT_TRUE(test, kpkt_site_boostable(addr));
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

/**
 * struct kpbt_post_probe - what the post handler of a probe saw
 * @kp: the probe
 * @next: the address after the probed instruction
 * @fn_start: start of the probed function
 * @fn_end: its end
 * @hits: post handler calls
 * @in_trap: of which inside the int3 exception (in_nmi())
 * @bad_ip: of which with regs->ip not @next
 * @bad_ctx: of which with interrupts on or no probe running
 * @in_stack: of which with the probed function in a stack trace
 */
struct kpbt_post_probe {
	struct kprobe kp;
	unsigned long next;
	unsigned long fn_start;
	unsigned long fn_end;
	atomic_t hits;
	atomic_t in_trap;
	atomic_t bad_ip;
	atomic_t bad_ctx;
	atomic_t in_stack;
};

#define KPBT_TRACE_DEPTH	32

static void kpbt_post_record(struct kprobe *p, struct pt_regs *regs,
			     unsigned long flags)
{
	struct kpbt_post_probe *pp = container_of(p, struct kpbt_post_probe,
						  kp);
	unsigned long entries[KPBT_TRACE_DEPTH];
	unsigned int i, n;

	atomic_inc(&pp->hits);
	if (in_nmi())
		atomic_inc(&pp->in_trap);
	if (regs->ip != pp->next)
		atomic_inc(&pp->bad_ip);
	if (!irqs_disabled() || !kprobe_running())
		atomic_inc(&pp->bad_ctx);
	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++) {
		if (entries[i] >= pp->fn_start && entries[i] < pp->fn_end) {
			atomic_inc(&pp->in_stack);
			break;
		}
	}
}

/*
 * A post handler on a boostable instruction runs without a second trap
 * (the post copy calls the post trampoline), and sees what the trap would
 * have shown: ip after the instruction, interrupts off, its probe running,
 * a stack that goes on at the probed function.  Any other stepped or
 * emulated instruction still ends in the int3 exception.
 */
static void post_handler_without_second_trap(struct kunit *test)
{
	static const kpkt_fn_t fns[] = { kpbt_plain, kpbt_flags };
	unsigned long size, off, addr;
	unsigned int f, i, trampolined = 0;
	struct kpbt_post_probe *pp;
	struct kpbt_target *tg;
	struct kpkt_ref ref;
	struct insn insn;
	int hits;

	for (f = 0; f < ARRAY_SIZE(fns); f++) {
		tg = kpbt_target_or_skip(test, fns[f]);
		KUNIT_ASSERT_TRUE(test,
				  kallsyms_lookup_size_offset((unsigned long)fns[f],
							      &size, &off));
		kpkt_ref_init(&ref, fns[f]);
		for (i = 0; i < tg->t.nr; i++) {
			addr = tg->t.start + tg->t.off[i];
			KUNIT_ASSERT_GE(test,
					insn_decode_kernel(&insn, (void *)addr), 0);
			pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, pp);
			pp->kp.addr = (void *)addr;
			pp->kp.post_handler = kpbt_post_record;
			pp->next = addr + insn.length;
			pp->fn_start = (unsigned long)fns[f] - off;
			pp->fn_end = pp->fn_start + size;
			if (kpkt_register(test, &pp->kp)) {
				KUNIT_FAIL(test, "%pS: not registered",
					   (void *)addr);
				continue;
			}
			kpkt_run(test, &ref, "post handler");
			hits = atomic_read(&pp->hits);
			if (tg->straight)
				KUNIT_EXPECT_GT_MSG(test, hits, 0, "%pS",
						    (void *)addr);
			KUNIT_EXPECT_EQ_MSG(test, atomic_read(&pp->bad_ctx), 0,
					    "%pS", (void *)addr);
			if (kpkt_site_boostable((void *)addr)) {
				trampolined += hits > 0;
				KUNIT_EXPECT_EQ_MSG(test,
						    atomic_read(&pp->in_trap),
						    0, "%pS: trapped",
						    (void *)addr);
				KUNIT_EXPECT_EQ_MSG(test,
						    atomic_read(&pp->bad_ip),
						    0, "%pS: ip", (void *)addr);
				KUNIT_EXPECT_EQ_MSG(test,
						    atomic_read(&pp->in_stack),
						    hits, "%pS: stack",
						    (void *)addr);
			} else {
				KUNIT_EXPECT_EQ_MSG(test,
						    atomic_read(&pp->in_trap),
						    hits, "%pS: not trapped",
						    (void *)addr);
			}
			kpkt_unregister(test, &pp->kp);
		}
	}
	KUNIT_EXPECT_GT_MSG(test, trampolined, 0,
			    "no boostable instruction was hit");
}

static int kpbt_case_init(struct kunit *test)
{
	kpkt_bad_addr = NULL;
	if (!KPKT_BUILTIN)
		kunit_skip(test, "arch_kprobe_boostable(): " KPKT_NO_HELPERS);
	return 0;
}

static struct kunit_case kpbt_cases[] = {
	KUNIT_CASE(plain_instructions_boosted),
	KUNIT_CASE(other_instructions_not_boosted),
	KUNIT_CASE(instruction_with_fixup_not_boosted),
	KUNIT_CASE(interrupt_flag_kept_after_boost),
	KUNIT_CASE(post_handler_unboosts),
	KUNIT_CASE(post_handler_without_second_trap),
	{}
};

static struct kunit_suite kpbt_suite = {
	.name = "kprobes_x86_boost",
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
static void register_every_instruction_at_once(struct kunit *test)
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
	KUNIT_CASE(register_every_instruction_at_once),
	{}
};

static struct kunit_suite kpbt_batch_suite = {
	.name = "kprobes_x86_batch",
	.suite_init = kpbt_suite_init,
	.init = kpkt_case_init,
	.test_cases = kpbt_batch_cases,
};

kunit_test_suites(&kpbt_suite, &kpbt_batch_suite);

MODULE_DESCRIPTION("KUnit tests of x86's kprobes back-end: boosting");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
