#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# churn.sh - probes come and go while probed functions run on every CPU.
#
# Two callers run probed functions in a loop (reads, forks, execs, and
# kprobes_test_target's kpt_target(), which checks its own results), while
# this script, for CHURN_SECS seconds (60 with KASAN, else 15), over and
# over: adds kprobe and kretprobe events on vfs_read() and kpt_target(),
# enables and disables them, flips the jump-optimization sysctl and the
# global "enabled" switch, loads and unloads the sample modules
# (register_kprobe() and register_kretprobe() users), and removes the
# events again.  Then, with everything quiet:
#
#  - every operation that must succeed did, and no caller saw kpt_target()
#    compute a wrong value;
#  - the probe list is empty;
#  - kretprobe instances balance: a kretprobe event and a kprobe event on
#    kpt_target(), armed while nothing calls it, count every one of 500
#    calls, entries = returns + misses, as before the churn (skipped where
#    the kernel cannot probe kpt_target's entry: no_entry_probe,
#    common.inc; the churn then puts its kprobe past the ftrace site and
#    no kretprobe on kpt_target);
#  - kmemleak (the debug configuration) finds nothing unreferenced.
#
# Kernel reports (KASAN, lockdep, WARN) fail the harness's run.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

# A minute in the debug configuration (KASAN, kmemleak: what the churn is
# for), a quarter of it elsewhere.
if kconfig KASAN; then
	CHURN_SECS=${CHURN_SECS:-60}
else
	CHURN_SECS=${CHURN_SECS:-15}
fi
SYSCTL=$OPT_SYSCTL
STOP=/tmp/kpsel-churn.stop
BAD=/tmp/kpsel-churn.bad
MOD=kprobes_test_target
CALLS=/sys/module/$MOD/parameters/calls
MOD_KO=$(find_ko "$MOD") || skip_all "no $MOD.ko"
find_samples
READ_FN=vfs_read
READ_PT=$(probe_point "$READ_FN") || skip_all "no probe point in $READ_FN"

old_opt=
[ -w "$SYSCTL" ] && old_opt=$(cat "$SYSCTL")
old_enabled=$(cat "$KPDIR/enabled")

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	touch "$STOP"
	wait
	kp_cleanup_events
	unload_samples
	unload "$MOD"
	[ -n "$old_opt" ] && echo "$old_opt" > "$SYSCTL"
	echo "$old_enabled" > "$KPDIR/enabled"
	rm -f "$STOP" "$BAD"
}
at_exit cleanup now
echo 1 > "$KPDIR/enabled"

insmod "$MOD_KO" || { fail "load $MOD"; finish; }
# Where kpt_target's entry is an ftrace site that kprobes cannot use (mips
# modules: no KPROBES_ON_FTRACE), its kprobe goes past it and no
# kretprobe is put on it.
MOD_PT=$(probe_point kpt_target "$MOD") || MOD_PT=$MOD:kpt_target
NOENTRY=$(no_entry_probe kpt_target) || NOENTRY=

# balance WHEN - arm a kretprobe event and a kprobe event on kpt_target()
# while nothing calls it, call it 500 times, disarm: entries = returns +
# misses = 500.
balance()
{
	if [ -n "$NOENTRY" ]; then
		skip "$1: kretprobe instances balance: $NOENTRY"
		return
	fi
	if ! ev_add "r:$GROUP/bal_r $MOD:kpt_target" ||
	   ! ev_add "p:$GROUP/bal_p $MOD:kpt_target" ||
	   ! ev_enable bal_r 1 || ! ev_enable bal_p 1; then
		fail "$1: kprobe and kretprobe events on kpt_target"
		kp_cleanup_events
		return
	fi
	echo 500 > "$CALLS" || fail "$1: kpt_target() calls"
	ev_enable bal_p 0
	ev_enable bal_r 0
	p=$(ev_hits bal_p)
	r=$(ev_hits bal_r)
	m=$(awk -v g="$GROUP/bal_r" '$1 == "bal_r" || $1 == g { print $3; exit }' \
		"$TRACEFS/kprobe_profile")
	kp_cleanup_events
	if [ "$p" = 500 ] && [ $((r + m)) = 500 ]; then
		pass "$1: kretprobe instances balance: 500 entries, $r returns + $m misses"
	else
		fail "$1: 500 calls: $p entries, $r returns + $m misses"
	fi
}

kmemleak_clear
balance "before the churn"

# Two callers, one per CPU.
rm -f "$STOP" "$BAD"
for c in 1 2; do
	(
		KP_WL_TAG=$c
		while ! [ -e "$STOP" ]; do
			workload
			echo 20 > "$CALLS" || echo "caller $c: kpt_target" >> "$BAD"
		done
	) &
done

# group_enable 0|1 - disable or enable every event of the group at once.
# shellcheck disable=SC2317 # called through must
group_enable()
{
	echo "$1" > "$TRACEFS/events/$GROUP/enable"
}

# must DESC COMMAND... - an operation of the churn that must succeed.
must()
{
	kp_d=$1
	shift
	"$@" || echo "churn: $kp_d" >> "$BAD"
}

rounds=0
end=$(($(date +%s) + CHURN_SECS))
while [ "$(date +%s)" -lt "$end" ]; do
	rounds=$((rounds + 1))
	must "add p $READ_PT" ev_add "p:$GROUP/ch_k $READ_PT"
	must "add r $READ_FN" ev_add "r:$GROUP/ch_r $READ_FN"
	must "add p $MOD_PT" ev_add "p:$GROUP/ch_m $MOD_PT"
	[ -n "$NOENTRY" ] ||
		must "add r kpt_target" ev_add "r4:$GROUP/ch_mr $MOD:kpt_target"
	must "enable the group" group_enable 1
	[ -n "$old_opt" ] && must "optimization sysctl" \
		sh -c "echo $((rounds % 2)) > $SYSCTL"
	case $((rounds % 3)) in
	0)	[ -n "$KP_KO" ] && must "load kprobe_example" insmod "$KP_KO"
		[ -n "$KRP_KO" ] && must "load kretprobe_example" insmod "$KRP_KO" ;;
	1)	must "disable kprobes" sh -c "echo 0 > $KPDIR/enabled"
		must "enable kprobes" sh -c "echo 1 > $KPDIR/enabled" ;;
	2)	[ -n "$KP_KO" ] && must "unload kprobe_example" unload kprobe_example
		[ -n "$KRP_KO" ] && must "unload kretprobe_example" unload kretprobe_example ;;
	esac
	must "disable kretprobe event" ev_enable ch_r 0
	must "disable kprobe event" ev_enable ch_k 0
	must "disable the group" group_enable 0
	must "remove events" kp_cleanup_events
done
touch "$STOP"
wait
unload_samples
[ -n "$old_opt" ] && echo 1 > "$SYSCTL"

diag "$rounds rounds in ${CHURN_SECS}s"
if [ -s "$BAD" ]; then
	sort "$BAD" | uniq -c | sed 's/^/# /'
	fail "churn: $(wc -l < "$BAD") operations failed"
else
	pass "churn: $rounds rounds, every operation succeeded, every kpt_target() call right"
fi
check "nothing left in the probe list" sh -c "! grep -q . $KPDIR/list"
balance "after the churn"
unload "$MOD" || fail "unload $MOD"
kmemleak_check "churn"
finish
