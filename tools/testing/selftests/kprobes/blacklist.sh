#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# blacklist.sh - /sys/kernel/debug/kprobes/blacklist and its enforcement.
#
# The file lists what may not be probed, one function per line:
# "0xSTART-0xEND<TAB>symbol".  NOKPROBE_SYMBOL() functions are in it, and
# probing them fails, through kprobe events and through register_kprobe()
# (the sample module's init fails).

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

BL=$KPDIR/blacklist
TAB=$(printf '\t')

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	kp_cleanup_events
	unload_samples
}

[ -r "$BL" ] || skip_all "no $BL"
at_exit cleanup now

n=$(wc -l < "$BL")
check "the blacklist is not empty ($n lines)" [ "$n" -gt 0 ]

bad=$(grep -v -E "^0x[0-9a-f]{$KP_XD}-0x[0-9a-f]{$KP_XD}${TAB}[^[:space:]]+\$" "$BL")
check "every line is '0xSTART-0xEND<TAB>symbol'" [ -z "$bad" ]
[ -z "$bad" ] && diag "first line: $(head -n 1 "$BL")"
[ -n "$bad" ] && diag "bad lines: $(echo "$bad" | head -n 5)"

# Equal-width hex strings compare like the numbers they spell.
inverted=$(awk -F "[-$TAB]" '("" $1) >= ("" $2) { print }' "$BL")
check "every range has START < END" [ -z "$inverted" ]
[ -n "$inverted" ] && diag "inverted: $(echo "$inverted" | head -n 5)"

# One function per line, as kprobes has always listed it: no text symbol of
# /proc/kallsyms starts strictly inside a listed range (an area such as the
# entry or noinstr text is listed function by function, so that
# "grep -w FUNCTION" finds every blacklisted function).  Symbols sort
# before ranges that start at the same address ("A" < "B"); a symbol is
# inside when it is below the furthest end of the ranges started before it.
inside=$( { awk '$2 ~ /^[tT]$/ { print $1, "A", $3 }' /proc/kallsyms
	    awk -F "[-$TAB]" '{ sub(/^0x/, "", $1); sub(/^0x/, "", $2)
				print $1, "B", $2, $3 }' "$BL"; } |
	LC_ALL=C sort |
	awk '$2 == "B" { if (("" $3) > ("" reach)) { reach = $3; who = $4 }; next }
	     ("" $1) < ("" reach) { print $3 " inside the line of " who; n++ }
	     n == 5 { exit }')
check "every line is one function (no symbol inside a listed range)" [ -z "$inside" ]
[ -n "$inside" ] && diag "$inside"

# bl_start SYMBOL - the START of SYMBOL's range, without 0x.
bl_start()
{
	awk -F "[-$TAB]" -v s="$1" '$3 == s { sub(/^0x/, "", $1); print $1; exit }' "$BL"
}

# bl_covers ADDR - is ADDR ($KP_XD hex digits) inside a listed range?
# shellcheck disable=SC2317 # called through check
bl_covers()
{
	awk -F "[-$TAB]" -v a="$1" '
		{ sub(/^0x/, "", $1); sub(/^0x/, "", $2) }
		("" $1) <= ("" a) && ("" a) < ("" $2) { found = 1; exit }
		END { exit !found }' "$BL"
}

# A NOKPROBE_SYMBOL() function of the base: listed under its own name.
addr=$(ksym_addr notifier_call_chain)
start=$(bl_start notifier_call_chain)
check "notifier_call_chain is listed" [ -n "$start" ]
if [ -n "$start" ] && [ -n "$addr" ]; then
	check "its range starts at its address $addr" [ "$start" = "$addr" ]
fi

# The kprobes trap handler, and the KUnit suite's NOKPROBE_SYMBOL() target
# (when the suite is built in): inside some listed range.
for sym in notifier_call_chain kprobe_int3_handler kpkt_nokprobe; do
	addr=$(ksym_addr "$sym")
	if [ -z "$addr" ]; then
		skip "$sym is covered (no address for it in /proc/kallsyms)"
		continue
	fi
	check "$sym ($addr) is covered by a listed range" bl_covers "$addr"
done

# Through kprobe events (only meaningful on a traceable function: kprobe
# events refuse notrace functions for their own reasons).
mount_tracefs kprobe_events
if ! [ -w "$TRACEFS/kprobe_events" ]; then
	skip "kprobe events on a blacklisted function (no kprobe_events)"
elif ! grep -q '^notifier_call_chain$' "$TRACEFS/available_filter_functions"; then
	skip "kprobe events on a blacklisted function (notifier_call_chain not traceable)"
else
	# vfs_read's entry, or just past it where the entry cannot be
	# probed (probe_point, common.inc)
	good=$(probe_point vfs_read) || good=vfs_read
	check "kprobe event on $good is accepted" \
		ev_add "p:$GROUP/good $good"
	if ev_add "p:$GROUP/bad notifier_call_chain"; then
		fail "kprobe event on notifier_call_chain is refused"
	else
		pass "kprobe event on notifier_call_chain is refused"
	fi
	if ev_add "r:$GROUP/badr notifier_call_chain"; then
		fail "kretprobe event on notifier_call_chain is refused"
	else
		pass "kretprobe event on notifier_call_chain is refused"
	fi
	kp_cleanup_events
fi
check "nothing is registered on notifier_call_chain" \
	[ "$(list_count '  [kr]  notifier_call_chain\+')" -eq 0 ]

# Through register_kprobe()/register_kretprobe() in the sample modules.
find_samples
if [ -n "$KP_KO" ]; then
	if insmod "$KP_KO" symbol=notifier_call_chain 2>/dev/null; then
		fail "kprobe_example symbol=notifier_call_chain fails to load"
	else
		pass "kprobe_example symbol=notifier_call_chain fails to load"
	fi
	if why=$(no_entry_probe vfs_read); then
		skip "kprobe_example symbol=vfs_read loads: $why"
	else
		check "kprobe_example symbol=vfs_read loads" insmod "$KP_KO" symbol=vfs_read
		check "kprobe_example unloads" unload kprobe_example
	fi
else
	skip "register_kprobe on a blacklisted function (no kprobe_example.ko)"
fi
if [ -n "$KRP_KO" ]; then
	if insmod "$KRP_KO" func=notifier_call_chain 2>/dev/null; then
		fail "kretprobe_example func=notifier_call_chain fails to load"
	else
		pass "kretprobe_example func=notifier_call_chain fails to load"
	fi
else
	skip "register_kretprobe on a blacklisted function (no kretprobe_example.ko)"
fi
check "still nothing registered on notifier_call_chain" \
	[ "$(list_count '  [kr]  notifier_call_chain\+')" -eq 0 ]

finish
