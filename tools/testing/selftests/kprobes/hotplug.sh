#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hotplug.sh - CPUs go offline and come back while probes are hit,
# registered, optimized and removed.
#
# Kprobes keep per-CPU state (the probe running on each CPU, the step in
# progress, kretprobe instances of the tasks there) and the jump optimizer
# patches text under cpus_read_lock(): a CPU that leaves or joins must
# find nothing stale.  With one CPU (the highest-numbered one that can go
# offline) taken offline and back over and over:
#
#  - a kprobe and a kretprobe armed across an offline-online cycle count
#    every one of 1,000 calls of kprobes_test_target's kpt_target()
#    (entries = returns + misses);
#  - a probe past a function's entry (jump-optimized where the
#    architecture can) keeps being hit while the CPU is away and after it
#    is back;
#  - for HOTPLUG_SECS seconds (30 with KASAN, else 10), while two callers
#    run probed functions: kprobe and kretprobe events on vfs_read() and
#    kpt_target() are added, enabled, disabled and removed, some while the
#    CPU is offline, the optimization sysctl flips, and every operation
#    and every kpt_target() result is right;
#  - afterwards the probe list is empty, every CPU is online again and
#    kmemleak (the debug configuration) finds nothing.
#
# Kernel reports (lockdep, KASAN, WARN) fail the harness's run.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

# The CPU that goes offline and back: the highest-numbered one whose
# "online" file exists (the boot CPU often has none).
CPU=
for kp_d in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -w "$kp_d/online" ] || continue
	kp_n=${kp_d##*/cpu}
	if [ -z "$CPU" ] || [ "$kp_n" -gt "$CPU" ]; then
		CPU=$kp_n
	fi
done
[ -n "$CPU" ] || skip_all "no CPU can go offline (no CONFIG_HOTPLUG_CPU, or one CPU)"
# The last CPU online cannot go: an SMP kernel on one CPU (parisc's
# B160L) has a writable online file all the same.
case $(cat /sys/devices/system/cpu/online) in
*[,-]*)	;;
*)	skip_all "one CPU online: it cannot go offline" ;;
esac
ONLINE=/sys/devices/system/cpu/cpu$CPU/online

if kconfig KASAN; then
	HOTPLUG_SECS=${HOTPLUG_SECS:-30}
else
	HOTPLUG_SECS=${HOTPLUG_SECS:-10}
fi
SYSCTL=$OPT_SYSCTL
STOP=/tmp/kpsel-hotplug.stop
BAD=/tmp/kpsel-hotplug.bad
MOD=kprobes_test_target
CALLS=/sys/module/$MOD/parameters/calls
MOD_KO=$(find_ko "$MOD") || skip_all "no $MOD.ko"
READ_FN=vfs_read
READ_PT=$(probe_point "$READ_FN") || skip_all "no probe point in $READ_FN"
# A probe point past the entry: where the jump optimizer can work.
INNER_OFF=$(accepted_offsets "$READ_FN" 16 64 1 first) ||
	skip_all "no probe point in $READ_FN+16..63"
INNER_PT=$READ_FN+$INNER_OFF

old_opt=
[ -w "$SYSCTL" ] && old_opt=$(cat "$SYSCTL")

# cpu_set 0|1 - take $CPU offline or bring it back; status of the write.
cpu_set()
{
	echo "$1" > "$ONLINE" 2>/dev/null && [ "$(cat "$ONLINE")" = "$1" ]
}

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	touch "$STOP"
	wait
	echo 1 > "$ONLINE" 2>/dev/null
	kp_cleanup_events
	unload "$MOD"
	[ -n "$old_opt" ] && echo "$old_opt" > "$SYSCTL"
	rm -f "$STOP" "$BAD"
}
at_exit cleanup now

insmod "$MOD_KO" || { fail "load $MOD"; finish; }
diag "cpu$CPU goes offline and back; probes on $READ_PT, $INNER_PT, $MOD:kpt_target"

# A kprobe and a kretprobe on kpt_target(), armed while nothing else calls
# it: 500 calls with the CPU offline, 500 with it back.
kmemleak_clear
if ev_add "r:$GROUP/bal_r $MOD:kpt_target" &&
   ev_add "p:$GROUP/bal_p $MOD:kpt_target" &&
   ev_enable bal_r 1 && ev_enable bal_p 1; then
	ok=1
	cpu_set 0 || { fail "cpu$CPU offline with probes armed"; ok=0; }
	echo 500 > "$CALLS" || ok=0
	cpu_set 1 || { fail "cpu$CPU online with probes armed"; ok=0; }
	echo 500 > "$CALLS" || ok=0
	ev_enable bal_p 0
	ev_enable bal_r 0
	p=$(ev_hits bal_p)
	r=$(ev_hits bal_r)
	m=$(awk -v g="$GROUP/bal_r" '$1 == "bal_r" || $1 == g { print $3; exit }' \
		"$TRACEFS/kprobe_profile")
	if [ "$ok" = 1 ] && [ "$p" = 1000 ] && [ $((r + m)) = 1000 ]; then
		pass "armed across a hotplug cycle: 1000 entries, $r returns + $m misses"
	else
		fail "armed across a hotplug cycle: 1000 calls: $p entries, $r returns + $m misses"
	fi
else
	fail "kprobe and kretprobe events on kpt_target"
fi
kp_cleanup_events

# A probe past vfs_read()'s entry, optimized where it can be, keeps being
# hit while the CPU is away and once it is back.
if ev_add "p:$GROUP/inner $INNER_PT" && ev_enable inner 1; then
	[ -n "$old_opt" ] && echo 1 > "$SYSCTL" && wait_optimized "$READ_FN" 5
	diag "$(list_lines " $READ_FN\\+0x$(printf %x "$INNER_OFF") " | head -n 1)"
	h=$(ev_hits inner)
	cpu_set 0 || fail "cpu$CPU offline with $INNER_PT armed"
	workload
	check "$INNER_PT hit with cpu$CPU offline" ev_grew inner "$h"
	h=$(ev_hits inner)
	cpu_set 1 || fail "cpu$CPU online with $INNER_PT armed"
	workload
	check "$INNER_PT hit with cpu$CPU back" ev_grew inner "$h"
else
	fail "kprobe event at $INNER_PT"
fi
kp_cleanup_events

# Two callers of probed functions for the rest.
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

# must DESC COMMAND... - an operation that must succeed.
must()
{
	kp_d=$1
	shift
	"$@" || echo "hotplug: $kp_d" >> "$BAD"
}

rounds=0
end=$(($(date +%s) + HOTPLUG_SECS))
while [ "$(date +%s)" -lt "$end" ]; do
	rounds=$((rounds + 1))
	must "add p $READ_PT" ev_add "p:$GROUP/hp_k $READ_PT"
	must "add r $READ_FN" ev_add "r:$GROUP/hp_r $READ_FN"
	must "add p $INNER_PT" ev_add "p:$GROUP/hp_i $INNER_PT"
	must "add r kpt_target" ev_add "r4:$GROUP/hp_mr $MOD:kpt_target"
	must "enable the group" sh -c "echo 1 > $TRACEFS/events/$GROUP/enable"
	must "cpu$CPU offline" cpu_set 0
	if [ $((rounds % 2)) = 0 ]; then
		# Registered, enabled and removed while the CPU is away.
		must "add p kpt_target, offline" ev_add "p:$GROUP/hp_m $MOD:kpt_target"
		must "enable p kpt_target, offline" ev_enable hp_m 1
		[ -n "$old_opt" ] && must "optimization sysctl, offline" \
			sh -c "echo $(((rounds / 2) % 2)) > $SYSCTL"
		must "disable p kpt_target, offline" ev_enable hp_m 0
		must "remove p kpt_target, offline" ev_del hp_m
	fi
	must "cpu$CPU online" cpu_set 1
	must "disable the group" sh -c "echo 0 > $TRACEFS/events/$GROUP/enable"
	must "remove events" kp_cleanup_events
done
touch "$STOP"
wait
[ -n "$old_opt" ] && echo 1 > "$SYSCTL"

diag "$rounds rounds in ${HOTPLUG_SECS}s"
if [ -s "$BAD" ]; then
	sort "$BAD" | uniq -c | sed 's/^/# /'
	fail "hotplug: $(wc -l < "$BAD") operations failed"
else
	pass "hotplug: $rounds offline-online rounds, every operation succeeded, every kpt_target() call right"
fi
check "nothing left in the probe list" sh -c "! grep -q . $KPDIR/list"
check "cpu$CPU online at the end" [ "$(cat "$ONLINE")" = 1 ]
unload "$MOD" || fail "unload $MOD"
kmemleak_check "hotplug"
finish
