#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# list_format.sh - the format of /sys/kernel/debug/kprobes/list.
#
# Each registered probe is one line, as kprobes has always printed it
# (scripts parse it): its address (16 hex digits, 8 on 32-bit), two
# spaces, its type ("k" kprobe, "r" kretprobe), two spaces,
# symbol+offset, two spaces, the module or a space, one space, then the
# status tags: [GONE], [DISABLED], [OPTIMIZED], [FTRACE].  The probes are
# made through kprobe events on vfs_read, which are registered disabled
# until the event is enabled.  Where the kernel has it (ours), the
# "missed" file lists the same probes with their missed-hit counts.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

at_exit kp_cleanup_events now

# An entry probe lands on vfs_read+0, after the ENDBR (+4) with IBT, or
# past the ftrace site where kprobes cannot use it (entry_offre).  Where
# the kernel cannot probe vfs_read's entry, the kprobe goes just past it
# (probe_point, common.inc) and the kretprobe checks are skipped.
VR=$(probe_point vfs_read) || skip_all "no place in vfs_read takes a kprobe event"
ENTRYRE=$(entry_offre vfs_read)
case $VR in
*+0x*)	OFFRE=${VR#vfs_read+} ;;
*)	OFFRE=$ENTRYRE ;;
esac
KLINE="^[0-9a-f]{$KP_XD}  k  vfs_read\\+$OFFRE( |\$)"
RLINE="^[0-9a-f]{$KP_XD}  r  vfs_read\\+$ENTRYRE( |\$)"

check "no probe on vfs_read before the test" \
	[ "$(list_count '  [kr]  vfs_read\+')" -eq 0 ]

if ! ev_add "p:$GROUP/vfsr $VR"; then
	fail "create kprobe event p:$GROUP/vfsr $VR"
	finish
fi
pass "create kprobe event p:$GROUP/vfsr $VR"

line=$(list_lines "$KLINE")
diag "list: $line"
check "one 'k' line for vfs_read" [ "$(list_count "$KLINE")" -eq 1 ]
# Kernel text: "vfs_read+0xN", two spaces, a space for the module, a space.
check "the line is exactly 'ADDR  k  vfs_read+OFF    [DISABLED]...'" \
	[ "$(list_count "^[0-9a-f]{$KP_XD}  k  vfs_read\\+$OFFRE    \\[DISABLED\\](\\[(OPTIMIZED|FTRACE)\\])*\$")" -eq 1 ]
case $line in
*'[DISABLED]'*)	pass "a disabled event's probe is tagged [DISABLED]" ;;
*)		fail "a disabled event's probe is tagged [DISABLED]" ;;
esac
case $line in
*'[GONE]'*)	fail "a live probe is not tagged [GONE]" ;;
*)		pass "a live probe is not tagged [GONE]" ;;
esac

# The address column is where the probe is: vfs_read plus the offset shown.
base=$(ksym_addr vfs_read)
if [ -n "$base" ] && [ -n "$line" ]; then
	addr=${line%% *}
	off=$(echo "$line" | sed -n 's/.*vfs_read+\(0x[0-9a-f]*\).*/\1/p')
	check "address column $addr = vfs_read ($base) + $off" \
		addr_is "$addr" "$base" "$off"
else
	skip "address column (no address for vfs_read in /proc/kallsyms)"
fi

# Enabled: the tag goes, the probe fires.
if ev_enable vfsr 1; then
	pass "enable event $GROUP/vfsr"
else
	fail "enable event $GROUP/vfsr"
fi
workload
line=$(list_lines "$KLINE")
diag "list: $line"
case $line in
'')		fail "the enabled probe is still listed" ;;
*'[DISABLED]'*)	fail "an enabled probe is not tagged [DISABLED]" ;;
*)		pass "an enabled probe is not tagged [DISABLED]" ;;
esac
hits=$(ev_hits vfsr)
check "the enabled probe fired (hits=${hits:-none})" [ "${hits:-0}" -gt 0 ]

# With KPROBES_ON_FTRACE an entry probe on a traceable function uses ftrace.
if [ "$VR" != vfs_read ]; then
	skip "[FTRACE] tag (the probe is not at vfs_read's entry)"
elif kconfig_off KPROBES_ON_FTRACE; then
	skip "[FTRACE] tag (no KPROBES_ON_FTRACE: the entry probe is a breakpoint)"
elif grep -q '^vfs_read$' "$TRACEFS/available_filter_functions" 2>/dev/null; then
	case $line in
	*'[FTRACE]'*)	pass "entry probe on a traceable function is [FTRACE]" ;;
	*)		fail "entry probe on a traceable function is [FTRACE]" ;;
	esac
else
	skip "[FTRACE] tag (vfs_read is not in available_filter_functions)"
fi

# A return probe on the same function: an "r" line beside the "k" line.
rline=
if why=$(no_entry_probe vfs_read); then
	skip "kretprobe event on vfs_read: $why"
elif ev_add "r:$GROUP/vfsrr vfs_read"; then
	pass "create kretprobe event r:$GROUP/vfsrr vfs_read"
	rline=$(list_lines "$RLINE")
	diag "list: $rline"
	check "one 'r' line for vfs_read" [ "$(list_count "$RLINE")" -eq 1 ]
	check "the 'k' line is still there" [ "$(list_count "$KLINE")" -eq 1 ]
	case $rline in
	*'[DISABLED]'*)	pass "the disabled kretprobe is tagged [DISABLED]" ;;
	*)		fail "the disabled kretprobe is tagged [DISABLED]" ;;
	esac
	kaddr=$(list_lines "$KLINE" | cut -d' ' -f1)
	check "kprobe and kretprobe on one function share the address" \
		[ "${rline%% *}" = "$kaddr" ]
	ev_enable vfsrr 1
	workload
	case $(list_lines "$RLINE") in
	*'[DISABLED]'*)	fail "the enabled kretprobe is not tagged [DISABLED]" ;;
	'')		fail "the enabled kretprobe is still listed" ;;
	*)		pass "the enabled kretprobe is not tagged [DISABLED]" ;;
	esac
	hits=$(ev_hits vfsrr)
	check "the kretprobe fired (hits=${hits:-none})" [ "${hits:-0}" -gt 0 ]
else
	fail "create kretprobe event r:$GROUP/vfsrr vfs_read"
fi

# Every line of the list has the documented shape: symbol+offset, the
# module or a space, then tags; or, for a probe whose text kallsyms does
# not know (a gone module's), one token and a space.
TAGS='(\[(GONE|DISABLED|OPTIMIZED|FTRACE)\])*'
bad=$(grep -v -E "^[0-9a-f]{$KP_XD}  [kr]  ([^ ]+\+0x[0-9a-f]+  ([^ ]+| ) |[^ ]+ )$TAGS\$" \
	"$KPDIR/list")
check "every list line is 'ADDR  TYPE  SYMBOL+OFF  MODULE TAGS'" [ -z "$bad" ]
[ -z "$bad" ] || diag "bad lines: $bad"

# The missed-hit counts, in a file of their own so that the list keeps
# its format.  Upstream has no such file.
if [ -e "$KPDIR/missed" ]; then
	nl=$(wc -l < "$KPDIR/list")
	nm=$(wc -l < "$KPDIR/missed")
	check "'missed' has a line per probe ($nm, list $nl)" [ "$nm" -eq "$nl" ]
	kmiss=$(grep -E "^[0-9a-f]{$KP_XD}  k  vfs_read\\+$OFFRE    " "$KPDIR/missed")
	rmiss=$(grep -E "^[0-9a-f]{$KP_XD}  r  vfs_read\\+$ENTRYRE    " "$KPDIR/missed")
	diag "missed: $kmiss"
	check "the kprobe's 'missed' line ends in 'missed=N'" \
		matches "$kmiss" " missed=[0-9]+\$"
	if [ -n "$rline" ]; then
		diag "missed: $rmiss"
		check "the kretprobe's 'missed' line ends in 'missed=N empty=N refused=N'" \
			matches "$rmiss" " missed=[0-9]+ empty=[0-9]+ refused=[0-9]+\$"
	fi
else
	skip "the 'missed' file (this kernel has none)"
fi

# Removing the events removes the lines.
kp_cleanup_events
check "no probe on vfs_read after the events are removed" \
	[ "$(list_count '  [kr]  vfs_read\+')" -eq 0 ]

finish
