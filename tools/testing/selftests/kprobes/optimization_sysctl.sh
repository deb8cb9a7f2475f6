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
# Upstream riscv 6.12 has no optimized probes, for instance.
kconfig_off OPTPROBES &&
	skip_all "this kernel has no optimized probes (CONFIG_OPTPROBES)"
require_kprobes_debugfs
require_kprobe_events

SYSCTL=/proc/sys/debug/kprobes-optimization
[ -w "$SYSCTL" ] || skip_all "no writable $SYSCTL (CONFIG_OPTPROBES, CONFIG_SYSCTL)"

FUNC=
for f in ksys_read vfs_write; do
	if ksym_addr "$f" > /dev/null; then
		FUNC=$f
		break
	fi
done
[ -n "$FUNC" ] || skip_all "neither ksys_read nor vfs_write in /proc/kallsyms"

cleanup()
{
	echo 1 > "$SYSCTL" 2>/dev/null
	kp_cleanup_events
}
trap cleanup EXIT
trap 'exit 1' INT TERM

OPT_RE="  k  $FUNC\\+0x[0-9a-f]+  .*\\[OPTIMIZED\\]"

value()
{
	cat "$SYSCTL"
}

n_optimized()
{
	list_count "$OPT_RE"
}

# wait_count N SECS - wait up to SECS s until N probes are optimized.
wait_count()
{
	w_i=0
	while [ "$(n_optimized)" -ne "$1" ] && [ "$w_i" -lt "$2" ]; do
		sleep 1
		w_i=$((w_i + 1))
	done
	[ "$(n_optimized)" -eq "$1" ]
}

# write_fails VALUE - writing VALUE must fail and leave the value alone.
write_fails()
{
	before=$(value)
	if echo "$1" > "$SYSCTL" 2>/dev/null; then
		fail "writing '$1' is refused"
	else
		pass "writing '$1' is refused"
	fi
	check "writing '$1' leaves the value at $before" [ "$(value)" = "$before" ]
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
accepted=
off=0
while [ "$off" -lt 256 ]; do
	ev_add "p:$GROUP/o$off $FUNC+$off" && accepted="$accepted $off"
	off=$((off + 1))
done
kp_cleanup_events
for off in $(echo "$accepted" | tr ' ' '\n' | sed '/^$/d' | sed -n '2,$p' |
	     awk 'NR == 1 || $1 - last >= 24 { print; last = $1 }'); do
	ev_add "p:$GROUP/o$off $FUNC+$off"
done
echo 1 > "$TRACEFS/events/$GROUP/enable" 2>/dev/null
prev=-1
i=0
while [ "$i" -lt 15 ]; do
	cur=$(n_optimized)
	[ "$cur" -gt 0 ] && [ "$cur" -eq "$prev" ] && break
	prev=$cur
	sleep 1
	i=$((i + 1))
done
KEEP=$(list_lines "$OPT_RE" |
	sed -n "s/.*  k  $FUNC+0x\\([0-9a-f]*\\)  .*/\\1/p" |
	while read -r x; do echo $((0x$x)); done | xargs)
[ -n "$KEEP" ] || { fail "some probe of $FUNC+0..255 gets optimized"; finish; }
# Drop the others: only optimizable probes, none blocking another's region.
# shellcheck disable=SC2013 # event names have no blanks
for e in $(sed -n "s|^p:$GROUP/\\([^ ]*\\) .*|\\1|p" "$TRACEFS/kprobe_events"); do
	case " $KEEP " in
	*" ${e#o} "*)	;;
	*)		ev_enable "$e" 0; ev_del "$e" ;;
	esac
done
wait_count "$(echo "$KEEP" | wc -w)" 10
N=$(n_optimized)
diag "optimized probes kept: $FUNC + $KEEP"
check "$N probes are [OPTIMIZED]" [ "$N" -gt 0 ]

h=$(total_hits)
workload
check "the optimized probes hit ($h -> $(total_hits))" [ "$(total_hits)" -gt "$h" ]

# 0: all int3 probes at once, still hitting.
check "writing 0 succeeds" sh -c "echo 0 > $SYSCTL"
check "$SYSCTL reads 0" [ "$(value)" = 0 ]
check "no probe is [OPTIMIZED] right after writing 0" [ "$(n_optimized)" -eq 0 ]
h=$(total_hits)
workload
check "the probes still hit ($h -> $(total_hits))" [ "$(total_hits)" -gt "$h" ]
sleep 2
check "they stay unoptimized" [ "$(n_optimized)" -eq 0 ]
write_fails 2
check "still no probe is [OPTIMIZED]" [ "$(n_optimized)" -eq 0 ]

# 1: optimized again.
check "writing 1 succeeds" sh -c "echo 1 > $SYSCTL"
check "$SYSCTL reads 1" [ "$(value)" = 1 ]
check "the $N probes are [OPTIMIZED] again" wait_count "$N" 10
h=$(total_hits)
workload
check "the probes hit ($h -> $(total_hits))" [ "$(total_hits)" -gt "$h" ]

write_fails 2
write_fails abc
write_fails -1
check "the $N probes are still [OPTIMIZED]" [ "$(n_optimized)" -eq "$N" ]

kp_cleanup_events
check "no probe on $FUNC is left" [ "$(list_count "  k  $FUNC\\+")" -eq 0 ]

finish
