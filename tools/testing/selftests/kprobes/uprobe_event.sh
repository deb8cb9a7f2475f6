#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# uprobe_event.sh - a uprobe event on a user function counts its hits,
# records them, and leaves the function computing what it computes.
#
# Uprobes are not kprobes, but on some architectures (riscv) they share
# the instruction decoder and simulator with kprobes, so a kprobes series
# must keep them working.  The target is kp-uprobe-target
# (kp-uprobe-target.c, built next to the scripts by the Makefile): it
# prints the file offset of its function kp_uprobe_fn(), and with an
# argument N calls it N times and prints the sum of the results.  With a uprobe event at
# that offset, N calls must count N hits in uprobe_profile and record N
# events in the trace, and the sum must be the unprobed one (the probed
# instruction is executed out of line, or simulated, on every hit).

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

N=1000
UPROBE_EVENTS=$TRACEFS/uprobe_events
UPROBE_PROFILE=$TRACEFS/uprobe_profile

require_root
mount_tracefs uprobe_events
[ -w "$UPROBE_EVENTS" ] || skip_all "no $UPROBE_EVENTS (CONFIG_UPROBE_EVENTS)"
TARGET=$(helper kp-uprobe-target) ||
	skip_all "no kp-uprobe-target here or in PATH"
OFF=$("$TARGET" --offset) || skip_all "kp-uprobe-target --offset failed"
diag "kp_uprobe_fn is at $TARGET:$OFF"

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	{
		echo 0 > "$TRACEFS/events/$GROUP/kpup/enable"
		echo "-:$GROUP/kpup" >> "$UPROBE_EVENTS"
		echo > "$TRACEFS/trace"
	} 2>/dev/null
}
at_exit cleanup now

want=$("$TARGET" "$N")
diag "unprobed: $N calls sum to $want"

hits()
{
	awk '$2 == "kpup" || $2 == "'"$GROUP"'/kpup" { print $3; exit }' \
		"$UPROBE_PROFILE"
}

check "a uprobe event at kp_uprobe_fn is accepted" \
	sh -c "echo 'p:$GROUP/kpup $TARGET:$OFF' >> '$UPROBE_EVENTS'"
check "it is listed in uprobe_events" grep -q "$GROUP/kpup " "$UPROBE_EVENTS"
check "it can be enabled" ev_enable kpup 1

h0=$(hits)
h0=${h0:-0}
got=$("$TARGET" "$N")
h1=$(hits)
h1=${h1:-0}
diag "probed: sum $got, hits $h0 -> $h1"
check "the probed function computes what it does unprobed" [ "$got" = "$want" ]
check "uprobe_profile counts $N hits" [ $((h1 - h0)) -eq "$N" ]
rec=$(grep -c " kpup: " "$TRACEFS/trace")
diag "trace records: $rec"
check "the trace records $N events" [ "$rec" -eq "$N" ]

ev_enable kpup 0
got=$("$TARGET" "$N")
h2=$(hits)
check "a disabled uprobe event does not count" [ "${h2:-0}" -eq "$h1" ]
check "the unprobed function still computes the same" [ "$got" = "$want" ]
check "the event can be removed" \
	sh -c "echo '-:$GROUP/kpup' >> '$UPROBE_EVENTS'"
check "it is gone from uprobe_events" \
	sh -c "! grep -q '$GROUP/kpup ' '$UPROBE_EVENTS'"
finish
