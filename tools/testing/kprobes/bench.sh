#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: our kprobes against upstream's, same base, same
# config, same machine, same run.
#
# For each flavour (baseline, then ours) this builds the kernel and the
# initramfs (the benchmark module kpbench.ko, whose sources are
# tools/testing/selftests/kprobes/test_modules/kpbench*, is built into it
# with the kselftests' modules by mkinitramfs.sh), boots it under QEMU
# with -icount shift=0 (not where the arch file's BENCH_NO_ICOUNT says
# why QEMU cannot) in kp.mode=bench (boot.sh writes
# $BUILD/<flavour>/bench-console.log and bench-boot.result).  bench.py
# then prints the table
# "metric | baseline | ours | ratio" and writes $BUILD/bench.csv and
# $BUILD/bench-scaling.svg.
#
# What is measured is the production configuration (PROD=1,
# kernel/configs/kprobes-test-prod.config: the test configuration without
# lockdep and the other debug options, flavour dirs *-prod), because that
# is what people trace, and lockdep's costs fall on the two
# implementations unevenly.  BENCH_CONFIG=debug measures the test
# configuration itself (flavour dirs ours/, baseline/; on x86-64 that
# kernel boots with preemption none and kmemleak off).  PREEMPT=1 and
# DEBUG=1 are ignored.  The report of each is
# $BUILD/bench-<arch>-<config>.csv (x86-64: bench-<config>.csv), so that
# the architectures do not overwrite each other's.
#
# KP_TREE_NAME=NAME puts the two flavours in trees of their own,
# $BUILD/baseline-NAME and $BUILD/ours-NAME, instead of the shared
# baseline<arch suffix><config> and ours<...> (one name for both would
# build them in one tree).
#
# The benchmark reports, it does not judge: the exit status is 0 when both
# boots produced numbers, whatever the ratios.
#
# Environment (besides lib.sh's BASE, BUILD, JOBS, and boot.sh's TIMEOUT):
#   BENCH_ITERS=N     calls per timing loop [20000]
#   BENCH_REPS=N      timing loops per number, the fastest counts [3]
#   BENCH_MASS=N      largest mass registration [10000]; 0 skips mass
#                     registration and scaling
#   BENCH_FLAVOURS=   which flavours to run ["baseline ours"]
#   BENCH_NO_BUILD=1  boot what is built already
#   BENCH_CONFIG=     prod (default) or debug
#   BENCH_HITCOUNT=0  no make hitcount after each boot (it runs where the
#                     arch file has HITCOUNT_GDB: the split of each hit
#                     into the base's trap and kprobes' own instructions,
#                     in bench.py's report)

BENCH_CONFIG=${BENCH_CONFIG:-prod}
export PREEMPT='' DEBUG=''
case $BENCH_CONFIG in
prod)	export PROD=1 ;;
debug)	export PROD= ;;
*)	echo "bench: BENCH_CONFIG must be prod or debug, not '$BENCH_CONFIG'" >&2
	exit 2 ;;
esac

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

ITERS=${BENCH_ITERS:-20000}
REPS=${BENCH_REPS:-3}
MASS=${BENCH_MASS:-10000}
FLAVOURS=${BENCH_FLAVOURS:-baseline ours}
export TIMEOUT=${TIMEOUT:-1800}

# tsc=reliable: under -icount the TSC counts guest instructions on both
# CPUs alike, but the boot-time sync check can still call it unstable, and
# a jiffies clocksource (4 ms steps) would make every per-hit number 0.
# kunit.enable=0: the boot-time KUnit suites are make check's business.
GUEST_ARGS="tsc=reliable kunit.enable=0 kpbench.iters=$ITERS kpbench.reps=$REPS kpbench.mass_max=$MASS"

# The flavour directories: <flavour>$tsuffix.
tsuffix=$KP_ARCH_SUFFIX$KP_CONFIG
[ -n "${KP_TREE_NAME:-}" ] && tsuffix=-$KP_TREE_NAME
name=${KP_ARCH_SUFFIX:+${KP_ARCH_SUFFIX#-}-}$BENCH_CONFIG

# Deterministic guest time, where QEMU can count instructions.
icount=1
no_icount=$(kp_arch BENCH_NO_ICOUNT)
if [ -n "$no_icount" ]; then
	icount=
	note "no -icount on ${KP_ARCH:-x86_64} ($no_icount): the ns are host time, noisy unless the host is idle"
fi

status=0
for flavour in $FLAVOURS; do
	case $flavour in
	baseline)	bl=1 ;;
	ours)		bl= ;;
	*)		die "unknown flavour '$flavour' in BENCH_FLAVOURS" ;;
	esac
	dir=$BUILD/$flavour$tsuffix
	[ -n "${KP_TREE_NAME:-}" ] && export KP_TREE_NAME=$flavour$tsuffix
	rm -f "$dir/bench-console.log" "$dir/bench-boot.result"
	if [ "${BENCH_NO_BUILD:-}" != 1 ]; then
		for step in prepare config build mkinitramfs; do
			if ! BASELINE=$bl "$KP_TOOLS/$step.sh"; then
				note "$flavour: $step failed; no numbers for it"
				status=1
				continue 2
			fi
		done
	fi
	BASELINE=$bl ICOUNT=$icount \
		KP_APPEND="${KP_APPEND:+$KP_APPEND }$GUEST_ARGS" \
		"$KP_TOOLS/boot.sh" bench |
		grep -a --line-buffered -E 'kpbench,|^boot: |kp: bench' || true
	if [ "${BENCH_HITCOUNT:-1}" = 1 ] && [ -n "$(kp_arch HITCOUNT_GDB)" ]; then
		BASELINE=$bl "$KP_TOOLS/hitcount.sh" > "$dir/hitcount.log" 2>&1 ||
			note "$flavour: make hitcount failed (see $dir/hitcount.log)"
	fi
done

"$KP_TOOLS/bench.py" "$BUILD" "$tsuffix" "$name" ||
	status=1
exit "$status"
