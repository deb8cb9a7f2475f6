#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# model.sh - a long random sequence of kprobes API calls, replayable from
# its seed, with the kernel checked against a model after every step,
# while two threads call the probed functions and the jump-optimization
# sysctl flips.  test_modules/kp_model.c runs it and says what it draws
# (register, unregister, batches with an unknown symbol among them,
# enable, disable, a registered struct registered again or its fields
# changed, calls, and rarely a load or an unload of the target module
# test_modules/kp_model_target.ko, by insmod and rmmod run from the
# kernel) and what it checks after each step (return values, handler
# counts, the probe list line by line with [GONE] probes, the text at the
# targets, no handler after unregistration or unloading, kretprobe data).
#
# KP_MODEL_SEED   the seed (default: random; printed either way)
# KP_MODEL_OPS    operations at most (default 1000000)
# KP_MODEL_SECS   seconds at most (default: 60 with KASAN, else 20)
# KP_MODEL_MOD_EVERY  one step in this many loads or unloads the target
#                 (default 2000; 0: never)
# KP_MODEL_THREADS  threads calling the targets meanwhile (default 2)
#
# KP_MODEL_FAULTS  0: skip the runs below that make the model wrong on
#                 purpose (default 1)
#
# A divergence prints its step, what the model expected and the kernel
# showed, the steps before it and the insmod line that replays it.
#
# First, three short runs show that the checks can fail: kp_model's
# fault= makes the model's list, text or hit counts wrong at one step,
# and that step must diverge.  The main run's result line says where a
# step's time went (each kind of operation, each check), and after it
# kp_model times the kernel's own waits (yardsticks=: a grace period, an
# expedited one, stop_machine(), a registration at each place of two
# targets) for comparison.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

KO=$(test_module kp_model) || skip_all "no test_modules/kp_model.ko"
# The kernel runs insmod and rmmod by their absolute paths (busybox's
# command -v names its own applets without one).
TARGET=$(test_module kp_model_target) || TARGET=
TOOLS=
for d in /sbin /usr/sbin /bin /usr/bin; do
	if [ -x "$d/insmod" ] && [ -x "$d/rmmod" ]; then
		TOOLS=$d
		break
	fi
done
[ -n "$TOOLS" ] || TARGET=
[ -n "$TARGET" ] || diag "no kp_model_target.ko or insmod and rmmod: no module loads"
MOD_EVERY=${KP_MODEL_MOD_EVERY:-2000}
THREADS=${KP_MODEL_THREADS:-2}
SEED=${KP_MODEL_SEED:-0}
OPS=${KP_MODEL_OPS:-1000000}
if kconfig KASAN; then
	SECS=${KP_MODEL_SECS:-60}
else
	SECS=${KP_MODEL_SECS:-20}
fi
# Fewer steps than this in the time given is a failure: the check would
# say little.
MIN_OPS=${KP_MODEL_MIN_OPS:-200}
PARAMS=/sys/module/kp_model/parameters
STOP=/tmp/kpsel-model.stop
FLIPPER=
OLD_OPT=
[ -w "$OPT_SYSCTL" ] && OLD_OPT=$(cat "$OPT_SYSCTL")

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	touch "$STOP"
	[ -n "$FLIPPER" ] && wait "$FLIPPER" 2>/dev/null
	FLIPPER=
	unload kp_model
	unload kp_model_target
	[ -n "$OLD_OPT" ] && echo "$OLD_OPT" > "$OPT_SYSCTL" 2>/dev/null
	rm -f "$STOP"
}
at_exit cleanup now

unload kp_model_target || fail "kp_model_target stays loaded from before"
# GONE probes of other tests' modules, if any: the model's are its own.
GONE=$(list_count '\[GONE\]')
kmemleak_clear
if [ -n "$OLD_OPT" ]; then
	(
		v=0
		while [ ! -e "$STOP" ]; do
			echo "$v" > "$OPT_SYSCTL"
			v=$((1 - v))
			sleep 1
		done
	) &
	FLIPPER=$!
fi

# fault_run KIND: a short run with the model's KIND made wrong from
# step 40 on; the step it is made wrong at must be the divergence's.
fault_run()
{
	log_mark
	insmod "$KO" seed=1 ops=80 seconds=0 threads=0 fault="$1" fault_step=40
	fr_res=$(cat "$PARAMS/result" 2>/dev/null)
	unload kp_model
	fr_at=$(log_since_mark | sed -n "s/.*kp_model: fault: the model's $1 made wrong at step \([0-9]*\)$/\1/p")
	if [ -z "$fr_at" ]; then
		fail "fault=$1: no fault made ($fr_res)"
	elif ! log_since_mark | grep -q "kp_model: divergence at step $fr_at: "; then
		log_since_mark | grep 'kp_model' | sed 's/^/# /' | tail -n 5
		fail "fault=$1 made at step $fr_at: no divergence there ($fr_res)"
	else
		pass "fault=$1: the model made wrong at step $fr_at diverges there"
	fi
}

if [ "${KP_MODEL_FAULTS:-1}" != 0 ]; then
	for kind in list text counts; do
		fault_run "$kind"
	done
fi

log_mark
t0=$(date +%s)
insmod "$KO" seed="$SEED" ops="$OPS" seconds="$SECS" threads="$THREADS" \
	target="$TARGET" tools="$TOOLS" mod_every="$MOD_EVERY" yardsticks=20
rc=$?
t=$(($(date +%s) - t0))
touch "$STOP"
[ -n "$FLIPPER" ] && wait "$FLIPPER" 2>/dev/null
FLIPPER=
res=$(cat "$PARAMS/result" 2>/dev/null)
log_since_mark | grep 'kp_model' | sed 's/^/# /' | tail -n 40
diag "$res"

done_ops=$(echo "$res" | sed -n 's/.* done=\([0-9]*\).*/\1/p')
div=$(echo "$res" | sed -n 's/.* divergences=\([0-9]*\).*/\1/p')
wrong=$(echo "$res" | sed -n 's/.* wrong=\([0-9]*\).*/\1/p')
loads=$(echo "$res" | sed -n 's/.* loads=\([0-9]*\).*/\1/p')
gone=$(echo "$res" | sed -n 's/.* gone=\([0-9]*\).*/\1/p')
seed=$(echo "$res" | sed -n 's/^seed=\([0-9]*\).*/\1/p')
if [ "$rc" != 0 ] || [ -z "$done_ops" ]; then
	fail "kp_model did not load or reported nothing (insmod status $rc)"
elif [ "$div" != 0 ] || [ "$wrong" != 0 ]; then
	fail "seed $seed: the kernel left the model after $done_ops steps (the replay line is above)"
elif [ "$done_ops" -lt "$MIN_OPS" ]; then
	fail "seed $seed: only $done_ops steps in $t s (at least $MIN_OPS wanted)"
else
	pass "seed $seed: $done_ops steps in $t s ($((done_ops / (t > 0 ? t : 1))) a second), ${loads:-0} loads of the target module (${gone:-0} probes GONE), the kernel as the model after every one, the optimization sysctl flipping"
fi
if list_lines 'kpmt?_(t[0-9]|boot)' > /dev/null 2>&1 ||
   [ "$(list_count '\[GONE\]')" != "$GONE" ]; then
	list_lines 'kpmt?_(t[0-9]|boot)|\[GONE\]' | sed 's/^/# /'
	fail "probes left on kp_model's or kp_model_target's functions"
fi
is_loaded kp_model_target && fail "kp_model left kp_model_target loaded"
unload kp_model || fail "kp_model does not unload"
kmemleak_check "kp_model"
finish
