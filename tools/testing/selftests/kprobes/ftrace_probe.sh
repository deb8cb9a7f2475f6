#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftrace_probe.sh - a kprobe at a function's fentry site goes through
# ftrace ([FTRACE] in the probe list) and coexists with the function
# tracer.
#
# A kprobe event on FUNC (offset 0: kprobes moves it to the fentry call)
# must be listed [FTRACE] and hit; with the function tracer tracing the
# same function it must keep hitting while the tracer records the calls;
# with the tracer off again it must still hit.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

FILTERS=$TRACEFS/available_filter_functions
[ -r "$FILTERS" ] || skip_all "no $FILTERS (CONFIG_DYNAMIC_FTRACE)"
grep -qw function "$TRACEFS/available_tracers" ||
	skip_all "no function tracer (CONFIG_FUNCTION_TRACER)"

FUNC=$(first_func -t vfs_read ksys_read vfs_write) ||
	skip_all "no traceable vfs_read, ksys_read or vfs_write"
# Upstream riscv 6.12 has none, for instance.
kconfig_off KPROBES_ON_FTRACE &&
	skip_all "this kernel has no kprobes on ftrace (CONFIG_KPROBES_ON_FTRACE)"

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	echo nop > "$TRACEFS/current_tracer" 2>/dev/null
	echo > "$TRACEFS/set_ftrace_filter" 2>/dev/null
	kp_cleanup_events
	echo > "$TRACEFS/trace" 2>/dev/null
}
at_exit cleanup now

FT_RE="  k  $FUNC\\+0x[0-9a-f]+  .*\\[FTRACE\\]"

# Does the trace buffer hold the function tracer's line for a call of
# FUNC ("... FUNC <-caller")?  Read with the kprobe event disabled: with it
# enabled every read() of the trace file would add an event of its own to
# the buffer being read.
# shellcheck disable=SC2317 # called through check
traced()
{
	ev_enable ft 0
	grep -q " $FUNC <-" "$TRACEFS/trace"
	t_rc=$?
	ev_enable ft 1
	return "$t_rc"
}

if ev_add "p:$GROUP/ft $FUNC" && ev_enable ft 1; then
	pass "kprobe event on $FUNC"
else
	fail "kprobe event on $FUNC"
	finish
fi
list_lines "  k  $FUNC\\+" | sed 's/^/# /'
check "the probe is listed [FTRACE]" [ "$(list_count "$FT_RE")" -eq 1 ]
check "it is not [OPTIMIZED]" [ "$(list_count "  k  $FUNC\\+.*OPTIMIZED")" -eq 0 ]
h=$(ev_hits ft)
workload
check "it hits" ev_grew ft "$h"

# The function tracer on the same function.
check "filter the function tracer to $FUNC" \
	sh -c "echo $FUNC > $TRACEFS/set_ftrace_filter"
check "turn the function tracer on" \
	sh -c "echo function > $TRACEFS/current_tracer"
echo > "$TRACEFS/trace"
h=$(ev_hits ft)
workload
check "the probe hits with the function tracer on" ev_grew ft "$h"
check "the function tracer records $FUNC" traced
check "the probe is still listed [FTRACE]" [ "$(list_count "$FT_RE")" -eq 1 ]

# A second kprobe at the same site while the tracer is on.
if ev_add "p:$GROUP/ft2 $FUNC" && ev_enable ft2 1; then
	h2=$(ev_hits ft2)
	workload
	check "a second probe added with the tracer on hits" ev_grew ft2 "$h2"
	ev_enable ft2 0
	ev_del ft2
else
	fail "a second kprobe event on $FUNC with the tracer on"
fi

# The tracer off again.
check "turn the function tracer off" sh -c "echo nop > $TRACEFS/current_tracer"
echo > "$TRACEFS/set_ftrace_filter"
echo > "$TRACEFS/trace"
h=$(ev_hits ft)
workload
check "the probe hits with the tracer off" ev_grew ft "$h"
check "the tracer records nothing more" eval '! traced'
check "the probe is still listed [FTRACE]" [ "$(list_count "$FT_RE")" -eq 1 ]

# Disabled and enabled again: still an ftrace probe, still hitting.
ev_enable ft 0
h=$(ev_hits ft)
workload
check "a disabled probe does not hit" [ "$(ev_hits ft)" -eq "$h" ]
ev_enable ft 1
workload
check "enabled again, it hits" ev_grew ft "$h"
check "and is listed [FTRACE]" [ "$(list_count "$FT_RE")" -eq 1 ]

kp_cleanup_events
check "no probe on $FUNC is left" [ "$(list_count "  k  $FUNC\\+")" -eq 0 ]

finish
