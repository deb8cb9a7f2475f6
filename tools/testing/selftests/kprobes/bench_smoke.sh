#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench_smoke.sh - the kprobes benchmark module (test_modules/kpbench.ko,
# which a benchmark harness loads at full size) at a tiny size: every
# measurement runs, on 100 calls and 10 mass probes, so that a test run
# notices when the benchmark breaks.  Its numbers mean nothing at this
# size and are not judged.  KPBENCH_KO=PATH tests another build of it.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
KO=${KPBENCH_KO:-$(test_module kpbench)} ||
	skip_all "no test_modules/kpbench.ko (built where kpbench_targets.S has targets: test_modules/Makefile)"
[ -f "$KO" ] || skip_all "no benchmark module $KO"

dmesg -c > /dev/null
check "the benchmark module loads and runs" \
	insmod "$KO" iters=100 reps=1 mass_max=10
dmesg | sed -n 's/.*\(kpbench,.*\)/\1/p' > /tmp/kpbench.out
sed 's/^/# /' /tmp/kpbench.out
check "it reports the end of its run" grep -q '^kpbench,done,' /tmp/kpbench.out
# An ftrace site at kpb_ftrace_target's entry that kprobes refuse
# (upstream riscv: no KPROBES_ON_FTRACE) is the kernel's limit, not the
# benchmark's error.
refused_f='^kpbench,error,hit_f_ns: register_kprobe -22$'
grep '^kpbench,error,' /tmp/kpbench.out > /tmp/kpbench.err
f_refused=
if grep -q "$refused_f" /tmp/kpbench.err && kconfig_off KPROBES_ON_FTRACE; then
	f_refused=1
	grep -v "$refused_f" /tmp/kpbench.err > /tmp/kpbench.err.rest
	mv /tmp/kpbench.err.rest /tmp/kpbench.err
fi
check "it reports no error" sh -c '! [ -s /tmp/kpbench.err ]'
metrics="hit_k_ns hit_b_ns hit_f_ns hit_r_ns hit_kr_ns"
metrics="$metrics mass10_reg_us single10_reg_us scale10_k_ns"
# Jump-optimized cases, where the kernel has jump optimization.
if kconfig_off OPTPROBES; then
	skip "it reports hit_o_ns and hit_ro_ns (no OPTPROBES in this kernel)"
else
	metrics="$metrics hit_o_ns hit_ro_ns"
fi
for m in $metrics; do
	# A measurement the module says this kernel cannot make (powerpc:
	# no optimized probe in module text), with why.
	why=$(sed -n "s/^kpbench,skip,$m: //p" /tmp/kpbench.out | head -n 1)
	if [ -n "$why" ]; then
		skip "it reports $m ($why)"
		continue
	fi
	if [ "$m" = hit_f_ns ] && [ -n "$f_refused" ]; then
		skip "it reports $m (kprobes refuse the ftrace site at kpb_ftrace_target)"
		continue
	fi
	check "it reports $m" grep -q "^kpbench,$m,-\{0,1\}[0-9]" /tmp/kpbench.out
done
check "it unloads" rmmod kpbench
finish
