/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpbench.h - the assembly probe targets of kpbench_targets.S, for
 * kpbench_main.c.  Each is "long f(long a, long b)".
 */
#ifndef KPBENCH_H
#define KPBENCH_H

#define KPB_MASS_FUNCS	10240	/* kpb_m0 ... kpb_m10239 */

long kpb_t_plain(long a, long b);
long kpb_t_k(long a, long b);
long kpb_t_o(long a, long b);
long kpb_t_ro(long a, long b);
long kpb_t_kr(long a, long b);
long kpb_t_scale(long a, long b);
long kpb_t_short_plain(long a, long b);
long kpb_t_b(long a, long b);
long kpb_t_r(long a, long b);
long kpb_m0(long a, long b);
long kpb_m1(long a, long b);

#endif /* KPBENCH_H */
