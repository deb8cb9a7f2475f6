/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The targets of the "kprobes_opt" KUnit suite, in
 * kprobes_kunit_opt_targets.S (x86) and
 * kprobes_kunit_opt_targets_powerpc.S: each is "long f(long x)".
 */
#ifndef _KPROBES_KUNIT_OPT_H
#define _KPROBES_KUNIT_OPT_H

#include <linux/types.h>

typedef long (*kpopt_fn_t)(long);

/* fn(x), called from a known place: see kpopt_invoke_ret_addr. */
long kpopt_invoke(kpopt_fn_t fn, long x);
/* Where a target called by kpopt_invoke() returns to. */
extern const unsigned long kpopt_invoke_ret_addr;
long kpopt_good(long x);
long kpopt_rip(long x);
long kpopt_call(long x);
long kpopt_jump_in(long x);
long kpopt_indirect(long x);
extern long kpopt_rip_data;

/* powerpc's targets: kprobes_kunit_opt_targets_powerpc.S */
long kpopt_ppc_good(long x);
long kpopt_ppc_branch(long x);
long kpopt_ppc_amr(long x);

#endif /* _KPROBES_KUNIT_OPT_H */
