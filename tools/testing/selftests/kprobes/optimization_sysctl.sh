#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# optimization_sysctl.sh - /proc/sys/debug/kprobes-optimization
# (sysctl debug.kprobes-optimization).
#
# On by default (1).  Writing 0 turns every optimized probe back into an
# int3 probe before the write returns, and the probes keep hitting; writing
# 1 lets them be optimized again.  Any other value is refused and changes
# nothing.  Optimizable probes are found as in optimized_scan.sh: kprobe
# events at accepted offsets 0..255 of ksys_read (or vfs_write), spaced
# apart; only those that end up [OPTIMIZED] are kept.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_optprobes
require_kprobes_debugfs
require_kprobe_events

SYSCTL=$OPT_SYSCTL
[ -w "$SYSCTL" ] || skip_all "no writable $SYSCTL (CONFIG_OPTPROBES, CONFIG_SYSCTL)"

FUNC=$(first_func ksys_read vfs_write) ||
	skip_all "neither ksys_read nor vfs_write in /proc/kallsyms"

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	echo 1 > "$SYSCTL" 2>/dev/null
	kp_cleanup_events
}
at_exit cleanup

value()
{
	cat "$SYSCTL"
}

# total_hits - the hits of every kept probe together.
total_hits()
{
	t_sum=0
	for t_o in $KEEP; do
		t_sum=$((t_sum + $(ev_hits "o$t_o")))
	done
	echo "$t_sum"
}

check "$SYSCTL reads 1 at the start" [ "$(value)" = 1 ]
cleanup

# The offsets kprobes accepts; then probes 24 bytes apart or more (no
# probe in another's detour region, see optimized_scan.sh), enabled; keep
# the optimized ones.
accepted=$(accepted_offsets "$FUNC" 0 256 1 keep)
kp_cleanup_events
# shellcheck disable=SC2086 # one word per offset
for off in $(spaced_offsets 24 2 $accepted); do
	ev_add "p:$GROUP/o$off $FUNC+$off"
done
echo 1 > "$TRACEFS/events/$GROUP/enable" 2>/dev/null
wait_optimized "$FUNC" 15
KEEP=$(optimized_offsets "$FUNC" | xargs)
[ -n "$KEEP" ] || { fail "some probe of $FUNC+0..255 gets optimized"; finish; }
# Drop the others: only optimizable probes, none blocking another's region.
# shellcheck disable=SC2013 # event names have no blanks
for e in $(sed -n "s|^p:$GROUP/\\([^ ]*\\) .*|\\1|p" "$TRACEFS/kprobe_events"); do
	case " $KEEP " in
	*" ${e#o} "*)	;;
	*)		ev_enable "$e" 0; ev_del "$e" ;;
	esac
done
wait_n_optimized "$FUNC" "$(echo "$KEEP" | wc -w)" 10
N=$(n_optimized "$FUNC")
diag "optimized probes kept: $FUNC + $KEEP"
check "$N probes are [OPTIMIZED]" [ "$N" -gt 0 ]

h=$(total_hits)
workload
check "the optimized probes hit ($h -> $(total_hits))" [ "$(total_hits)" -gt "$h" ]

# 0: all int3 probes at once, still hitting.
check "writing 0 succeeds" sh -c "echo 0 > $SYSCTL"
check "$SYSCTL reads 0" [ "$(value)" = 0 ]
check "no probe is [OPTIMIZED] right after writing 0" [ "$(n_optimized "$FUNC")" -eq 0 ]
h=$(total_hits)
workload
check "the probes still hit ($h -> $(total_hits))" [ "$(total_hits)" -gt "$h" ]
sleep 2
check "they stay unoptimized" [ "$(n_optimized "$FUNC")" -eq 0 ]
write_refused "$SYSCTL" 2
check "still no probe is [OPTIMIZED]" [ "$(n_optimized "$FUNC")" -eq 0 ]

# 1: optimized again.
check "writing 1 succeeds" sh -c "echo 1 > $SYSCTL"
check "$SYSCTL reads 1" [ "$(value)" = 1 ]
check "the $N probes are [OPTIMIZED] again" wait_n_optimized "$FUNC" "$N" 10
h=$(total_hits)
workload
check "the probes hit ($h -> $(total_hits))" [ "$(total_hits)" -gt "$h" ]

write_refused "$SYSCTL" 2
write_refused "$SYSCTL" abc
write_refused "$SYSCTL" -1
check "the $N probes are still [OPTIMIZED]" [ "$(n_optimized "$FUNC")" -eq "$N" ]

kp_cleanup_events
check "no probe on $FUNC is left" [ "$(list_count "  k  $FUNC\\+")" -eq 0 ]

finish
