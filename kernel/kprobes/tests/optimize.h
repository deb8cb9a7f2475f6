/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the "kprobes_optimize" suite (optimize.c) must know of an
 * architecture, which optimize_<arch>.c tells it: targets written in
 * assembly (optimize_<arch>_targets.S), so that what a jump at a probe
 * covers does not depend on the compiler, the probe points in them that
 * must be optimized and those that must be refused, and how to read the
 * text and pt_regs.  The cases are written once, in optimize.c; a case
 * that needs what an architecture does not describe skips, saying so.
 */
#ifndef _KPROBES_KUNIT_OPTIMIZE_H
#define _KPROBES_KUNIT_OPTIMIZE_H

#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/types.h>

/* Every target is "long f(long x)". */
typedef long (*kpopt_fn_t)(long);

/**
 * struct kpopt_point - a probe point in an assembly target
 * @what: what it is, for messages
 * @fn: the target
 * @ref: what @fn(x) returns
 * @off: the probe's offset in bytes from @fn's first instruction
 *	(&kpopt_arch.entry)
 * @arg_at: the argument register at the probe when @fn(x) is called;
 *	NULL: x itself
 * @after: what @fn returns when a pre handler at the probe sets the
 *	argument register to v
 * @data: the datum a PC-relative region loads, or NULL; a case changes
 *	it and puts it back
 */
struct kpopt_point {
	const char *what;
	kpopt_fn_t fn;
	kpopt_fn_t ref;
	unsigned int off;
	kpopt_fn_t arg_at;
	kpopt_fn_t after;
	long *data;
};

/**
 * struct kpopt_arch - what optimize.c needs of an architecture
 * @good: points that must be optimized, at least two; @good[0] is the
 *	one most cases use, one of them is at a function entry (for the
 *	recursion and kretprobe cases)
 * @nr_good: entries in @good
 * @refused: points whose region cannot take a jump
 * @nr_refused: entries in @refused
 * @inner_off: offset from @good[0] of an instruction inside its region,
 *	or 0 when a region is the probed instruction alone
 * @patch_len: bytes the jump replaces at a probe
 * @entry: the address of @fn's first instruction (past a landing pad or
 *	a TOC setup)
 * @call: call @fn(@x); on x86 from a known return address
 * @arg: the argument register in @regs
 * @regs_ok: whether @regs, in a pre handler of @p called from a target
 *	with interrupts on, are those of a hit at @p->addr, in the context
 *	of a breakpoint or a detour
 * @jumps: whether the text at @addr is the optimizer's jump
 * @traps: whether the text at @addr is the breakpoint
 * @unwinds: called in a pre handler of @p: whether a stack trace from
 *	there reaches the probed target's caller; NULL when not checked
 * @user_access: the case "handlers_run_with_user_access_closed", for an
 *	architecture with a user access window (powerpc's KUAP); NULL
 *	otherwise
 */
struct kpopt_arch {
	const struct kpopt_point *good;
	unsigned int nr_good;
	const struct kpopt_point *refused;
	unsigned int nr_refused;
	unsigned int inner_off;
	size_t patch_len;
	unsigned long (*entry)(kpopt_fn_t fn);
	long (*call)(kpopt_fn_t fn, long x);
	unsigned long *(*arg)(struct pt_regs *regs);
	bool (*regs_ok)(struct kprobe *p, struct pt_regs *regs);
	bool (*jumps)(unsigned long addr);
	bool (*traps)(unsigned long addr);
	bool (*unwinds)(struct kprobe *p);
	void (*user_access)(struct kunit *test);
};

/*
 * x86's targets (optimize_x86_targets.S; optimize_x86.c says what each is
 * for).  kpopt_invoke(fn, x) calls fn(x) and returns to
 * kpopt_invoke_ret_addr.
 */
long kpopt_invoke(kpopt_fn_t fn, long x);
extern const unsigned long kpopt_invoke_ret_addr;
long kpopt_good(long x);
long kpopt_rip(long x);
long kpopt_call(long x);
long kpopt_jump_in(long x);
long kpopt_indirect(long x);
extern long kpopt_rip_data;

/* powerpc's targets (optimize_powerpc_targets.S, optimize_powerpc.c). */
long kpopt_ppc_good(long x);
long kpopt_ppc_branch(long x);
long kpopt_ppc_amr(long x);

/* arm64's targets (optimize_arm64_targets.S, optimize_arm64.c). */
long kpopt_a64_good(long x);
long kpopt_a64_branch(long x);
long kpopt_a64_literal(long x);
long kpopt_a64_bti(long x);
long kpopt_a64_extable(long x);
long kpopt_a64_pan(long x);

/* riscv's targets (optimize_riscv_targets.S, optimize_riscv.c). */
long kpopt_rv_good(long x);
long kpopt_rv_auipc(long x);
long kpopt_rv_jump(long x);
long kpopt_rv_extable(long x);
long kpopt_rv_compressed(long x);
long kpopt_rv_unaligned(long x);

/* 32-bit ARM's targets (optimize_arm_targets.S, optimize_arm.c). */
long kpopt_arm_good(long x);
long kpopt_arm_ipsp(long x);
long kpopt_arm_push(long x);
long kpopt_arm_branch(long x);
long kpopt_arm_literal(long x);
long kpopt_arm_stm_pc(long x);
long kpopt_arm_extable(long x);
long kpopt_arm_dacr(long x);

/*
 * The architecture's description, from optimize_<arch>.c; a weak default
 * in optimize.c returns NULL, and the suite skips.
 */
const struct kpopt_arch *kpopt_arch(void);

/* The address of point @pt, through @a->entry. */
static inline unsigned long kpopt_addr(const struct kpopt_arch *a,
				       const struct kpopt_point *pt)
{
	return a->entry(pt->fn) + pt->off;
}

#endif /* _KPROBES_KUNIT_OPTIMIZE_H */
