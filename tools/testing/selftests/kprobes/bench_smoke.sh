#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench_smoke.sh - the kprobes benchmark module (tools/testing/kprobes/bench,
# "make bench") at a tiny size: every measurement runs, on 100 calls and
# 10 mass probes, so that make check notices when the benchmark breaks.
# Its numbers mean nothing at this size and are not judged.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

KO=${KPBENCH_KO:-/bench/kpbench.ko}

require_root
require_kprobes_debugfs
[ -f "$KO" ] || skip_all "no benchmark module $KO"

dmesg -c > /dev/null
check "the benchmark module loads and runs" \
	insmod "$KO" iters=100 reps=1 mass_max=10
dmesg | sed -n 's/.*\(kpbench,.*\)/\1/p' > /tmp/kpbench.out
sed 's/^/# /' /tmp/kpbench.out
check "it reports the end of its run" grep -q '^kpbench,done,' /tmp/kpbench.out
check "it reports no error" \
	sh -c '! grep -q "^kpbench,error," /tmp/kpbench.out'
for m in hit_k_ns hit_b_ns hit_o_ns hit_f_ns hit_r_ns hit_ro_ns hit_kr_ns \
	 mass10_reg_us single10_reg_us scale10_k_ns; do
	check "it reports $m" grep -q "^kpbench,$m,-\{0,1\}[0-9]" /tmp/kpbench.out
done
check "it unloads" rmmod kpbench
finish
