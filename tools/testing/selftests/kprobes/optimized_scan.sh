#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# optimized_scan.sh - jump-optimized probes across the first 256 bytes of a
# busy kernel function.
#
# A kprobe event goes at every offset 0..255 of ksys_read (or vfs_write)
# that kprobes accepts; offsets inside an instruction are refused, which is
# expected.  Then probes at accepted offsets spaced 24 bytes apart are
# enabled, and the optimizer must turn at least one into a jump
# ([OPTIMIZED] in the probe list).  A fixed workload then runs twice:
# with the probes optimized, and with optimization off
# (/proc/sys/debug/kprobes-optimization = 0, plain int3 probes).  Which
# offsets execute depends on the branches taken, so instead of expecting
# every probe to hit, every optimized probe must hit exactly when its int3
# twin hits for the same workload, and some optimized probe must hit.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_optprobes
require_kprobes_debugfs
require_kprobe_events

SYSCTL=$OPT_SYSCTL

FUNC=$(first_func ksys_read vfs_write) ||
	skip_all "neither ksys_read nor vfs_write in /proc/kallsyms"

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	[ -w "$SYSCTL" ] && echo 1 > "$SYSCTL" 2>/dev/null
	kp_cleanup_events
}
at_exit cleanup now

# The same reads each time: dd from /dev/zero, a proc file, a file.
fixed_workload()
{
	dd if=/dev/zero of=/dev/null bs=64 count=32 2>/dev/null
	cat /proc/version > /dev/null
	cat ./settings > /dev/null
}

# hits_of OFFSETS... - "offset:hits" words for the probes at OFFSETS.
hits_of()
{
	for h_o in "$@"; do
		printf '%s:%s ' "$h_o" "$(ev_hits "o$h_o")"
	done
}

# Register every offset that kprobes accepts.
registered=$(accepted_offsets "$FUNC" 0 256 1 keep)
n=$(echo "$registered" | wc -w)
diag "$FUNC: $n of 256 offsets accepted: $registered"
check "probes are accepted at some offsets of $FUNC" [ "$n" -gt 0 ]
case " $registered " in
*" 0 "*)	pass "offset 0 is accepted" ;;
*)		fail "offset 0 is accepted" ;;
esac
[ "$n" -gt 0 ] || finish

# A probe is only optimized when no other probe lies in the bytes its jump
# would cover, so with a probe on every instruction only the few
# instructions of 5 bytes or more could be.  Hence a second step: keep
# probes at least SPACING bytes apart (a detour region is at most 19), enable
# them and let the optimizer work; if none gets optimized, try again with
# the set shifted by one accepted offset (three sets at most).
SPACING=24

kp_cleanup_events
opt=
nopt=0
for start in 2 3 4; do
	# shellcheck disable=SC2086 # one word per offset
	set_=$(spaced_offsets "$SPACING" "$start" $registered)
	used=0
	for o in $set_; do
		ev_add "p:$GROUP/o$o $FUNC+$o" && used=$((used + 1))
	done
	echo 1 > "$TRACEFS/events/$GROUP/enable"
	check "probes at$(echo " $set_" | sed 's/ /, +/g; s/^,//') enabled" \
		[ "$(cat "$TRACEFS/events/$GROUP"/o*/enable | grep -c '^1')" -eq "$used" ]
	wait_optimized "$FUNC" 10
	opt=$(optimized_offsets "$FUNC" | xargs)
	nopt=$(echo "$opt" | wc -w)
	diag "optimized offsets: ${opt:-none}"
	[ "$nopt" -gt 0 ] && break
	list_lines "  k  $FUNC\\+" | sed 's/^/# /'
	kp_cleanup_events
done
registered=$set_
check "at least one probe is [OPTIMIZED] ($nopt)" [ "$nopt" -gt 0 ]
[ "$nopt" -gt 0 ] || finish

# Workload with the probes optimized.
# shellcheck disable=SC2086 # one word per offset
before=$(hits_of $opt)
fixed_workload
# shellcheck disable=SC2086
after_opt=$(hits_of $opt)
check "probes are still optimized after the workload" \
	[ "$(n_optimized "$FUNC")" -eq "$nopt" ]

hit_opt=
for o in $opt; do
	b=$(echo "$before" | tr ' ' '\n' | sed -n "s/^$o://p")
	a=$(echo "$after_opt" | tr ' ' '\n' | sed -n "s/^$o://p")
	[ "$a" -gt "$b" ] && hit_opt="$hit_opt $o"
done
diag "optimized probes hit by the workload:$hit_opt"
check "some optimized probe hits" [ -n "$hit_opt" ]

total=0
for o in $registered; do
	total=$((total + $(ev_hits "o$o")))
done
check "the probes of $FUNC hit ($total hits in all)" [ "$total" -gt 0 ]

# The same workload on int3 probes: the same optimized offsets must hit.
if [ -w "$SYSCTL" ] && echo 0 > "$SYSCTL"; then
	check "no probe is optimized with $SYSCTL = 0" \
		[ "$(n_optimized "$FUNC")" -eq 0 ]
	# shellcheck disable=SC2086
	before=$(hits_of $opt)
	fixed_workload
	# shellcheck disable=SC2086
	after=$(hits_of $opt)
	hit_int3=
	for o in $opt; do
		b=$(echo "$before" | tr ' ' '\n' | sed -n "s/^$o://p")
		a=$(echo "$after" | tr ' ' '\n' | sed -n "s/^$o://p")
		[ "$a" -gt "$b" ] && hit_int3="$hit_int3 $o"
	done
	diag "the same offsets hit as int3 probes:$hit_int3"
	check "optimized probes hit where int3 probes hit" \
		[ "$hit_opt" = "$hit_int3" ]
	echo 1 > "$SYSCTL"
else
	skip "compare with int3 probes (no writable $SYSCTL)"
fi

kp_cleanup_events
check "no probe on $FUNC is left" [ "$(list_count "  k  $FUNC\\+")" -eq 0 ]

finish
