#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# module_gone.sh - probes on module text, and what happens when it goes.
#
# A probe on a module function is listed with the module's name and fires
# when the function runs.  When the module is unloaded the probe stays
# registered but is tagged [GONE] and never fires again; unregistering it
# later works.  Kprobe events on the module come back to life when it is
# loaded again.  Checked for kprobe and kretprobe events, and for
# register_kprobe()/register_kretprobe() users (the sample modules).
#
# The target is kprobes_test_target.ko, which calls its kpt_target() N times
# when N is written to its "calls" parameter, so hits can be counted
# exactly.  Without it, a function of kretprobe_example.ko (run on every
# fork) is used instead, and hits are only checked to happen.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

find_samples
if MOD_KO=$(find_ko kprobes_test_target); then
	MOD=kprobes_test_target
	FN=kpt_target
	EXACT=1
elif [ -n "$KRP_KO" ]; then
	MOD=kretprobe_example
	MOD_KO=$KRP_KO
	FN=
	EXACT=0
	diag "no kprobes_test_target.ko: probing kretprobe_example instead"
else
	skip_all "no kprobes_test_target.ko or kretprobe_example.ko"
fi

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	kp_cleanup_events
	unload_samples
	unload "$MOD"
}
at_exit cleanup now

# run_target N - make the target function run (N times, if EXACT).
run_target()
{
	if [ "$EXACT" = 1 ]; then
		echo "$1" > "/sys/module/$MOD/parameters/calls"
	else
		workload
	fi
}

# hits_grew NAME BEFORE N - did event NAME get N more hits (EXACT), or any?
# shellcheck disable=SC2317 # called through check
hits_grew()
{
	kp_h=$(ev_hits "$1")
	if [ "$EXACT" = 1 ]; then
		[ "${kp_h:-0}" -eq $(($2 + $3)) ]
	else
		[ "${kp_h:-0}" -gt "$2" ]
	fi
}

# gone_at ADDR - is the list line at ADDR tagged [GONE]?
# shellcheck disable=SC2317 # called through check
gone_at()
{
	list_lines "^$1 " | grep -q '\[GONE\]'
}

# The fallback target: a function of kretprobe_example that kprobe events
# accept (not its init/exit code, not a blacklisted one) and that runs.
pick_function()
{
	# shellcheck disable=SC2013 # symbol names have no blanks
	for f in $(awk -v m="[$MOD]" '$4 == m && $2 ~ /^[tT]$/ { print $3 }' \
			/proc/kallsyms |
		   grep -v -E '^__(pfx|cfi)_|\.|^(init|cleanup)_module$|_(init|exit)$'); do
		ev_add "p:$GROUP/pick $MOD:$f" || continue
		ev_enable pick 1
		workload
		h=$(ev_hits pick)
		kp_cleanup_events
		if [ "${h:-0}" -gt 0 ]; then
			echo "$f"
			return 0
		fi
	done
	return 1
}

insmod "$MOD_KO" || { fail "load $MOD"; finish; }
pass "load $MOD"
if [ -z "$FN" ]; then
	FN=$(pick_function) ||
		skip_all "no function of $MOD takes a kprobe event and runs"
fi
diag "target: $MOD:$FN"
# Where the kernel cannot probe $FN's entry (no_entry_probe, common.inc),
# the kprobe event goes just past it and the kretprobe checks, which need
# the entry, are skipped, as are the sample modules (entry probes only).
KAT=$(probe_point "$FN" "$MOD") || KAT=$MOD:$FN
NOENTRY=$(no_entry_probe "$FN") || NOENTRY=
[ -n "$NOENTRY" ] && diag "kprobe event at $KAT; no kretprobe: $NOENTRY"
KRE="^[0-9a-f]{$KP_XD}  k  $FN\\+0x[0-9a-f]+"
RRE="^[0-9a-f]{$KP_XD}  r  $FN\\+0x[0-9a-f]+"

# ---- instruction boundaries in module text ----------------------------------
# The function around a module address comes from kprobes' symbol index of
# the module: if it were wrong, every offset would be refused (function
# unknown) or boundaries would be checked from the wrong start.  The first
# 24 bytes of the function hold several instructions, some longer than one
# byte: some offsets must be accepted, some refused.  A mips module
# function opens with a five-word mcount call that kprobes refuse (an
# ftrace site, words ftrace branches over, delay slots): 32 bytes there.
SCAN=24
case $(uname -m) in mips*) SCAN=32 ;; esac
accepted=$(accepted_offsets "$MOD:$FN" 0 $SCAN | wc -w)
refused=$((SCAN - accepted))
diag "$MOD:$FN+0..$((SCAN - 1)): $accepted offsets accepted, $refused refused"
check "some offsets of $MOD:$FN are instruction boundaries" \
	[ "$accepted" -gt 1 ]
check "some offsets of $MOD:$FN are inside an instruction" \
	[ "$refused" -gt 0 ]

# ---- kprobe events on module text -------------------------------------------

# relisted ERE - the list line matching ERE is back, and not [GONE].
relisted()
{
	line=$(list_lines "$1")
	diag "list: $line"
	case $line in
	''|*'[GONE]'*)	fail "the event is registered again: $line" ;;
	*)		pass "the event is registered again: ${line%% *}" ;;
	esac
}

# names_mod LINE - does list line LINE name the target module?
# shellcheck disable=SC2317 # called through rcheck
names_mod()
{
	case $1 in
	*"$MOD"*)	return 0 ;;
	esac
	return 1
}

# rcheck DESCRIPTION COMMAND... - a kretprobe check, skipped without one.
rcheck()
{
	if [ -n "$NOENTRY" ]; then
		skip "$1: $NOENTRY"
	else
		check "$@"
	fi
}

check "kprobe event on $KAT" ev_add "p:$GROUP/mk $KAT"
rcheck "kretprobe event on $MOD:$FN" ev_add "r:$GROUP/mr $MOD:$FN"
NEV=2
[ -n "$NOENTRY" ] && NEV=1
ev_enable mk 1
[ -n "$NOENTRY" ] || ev_enable mr 1
kline=$(list_lines "$KRE")
rline=$(list_lines "$RRE")
diag "list: $kline"
diag "list: $rline"
case $kline in
*"$MOD"*)	pass "the list names the module of the kprobe" ;;
*)		fail "the list names the module of the kprobe" ;;
esac
rcheck "the list names the module of the kretprobe" names_mod "$rline"
# The line as kprobes has always printed it: symbol+offset, two spaces,
# the module's bare name, one space, the tags.
MODLINE="^[0-9a-f]{$KP_XD}  [kr]  $FN\\+0x[0-9a-f]+  $MOD (\\[[A-Z]+\\])*\$"
check "the kprobe's line is 'ADDR  k  SYM+OFF  MODULE TAGS'" \
	matches "$kline" "$MODLINE"
rcheck "the kretprobe's line is 'ADDR  r  SYM+OFF  MODULE TAGS'" \
	matches "$rline" "$MODLINE"
KADDR=${kline%% *}
RADDR=${rline%% *}

hk=$(ev_hits mk)
hr=$(ev_hits mr)
check "the probed module function still works" run_target 5
check "the kprobe on module text fires ($hk -> $(ev_hits mk))" hits_grew mk "${hk:-0}" 5
rcheck "the kretprobe on module text fires ($hr -> $(ev_hits mr))" hits_grew mr "${hr:-0}" 5

check "unload $MOD with probes on it" unload "$MOD"
if [ -n "$KADDR" ]; then
	check "the kprobe at $KADDR is tagged [GONE]" gone_at "$KADDR"
fi
if [ -n "$RADDR" ]; then
	check "the kretprobe at $RADDR is tagged [GONE]" gone_at "$RADDR"
fi
check "the events still exist ($NEV)" \
	[ "$(grep -c -E "^[pr][0-9]*:$GROUP/m[kr] " "$TRACEFS/kprobe_events")" -eq "$NEV" ]
hk=$(ev_hits mk)
hr=$(ev_hits mr)
workload
check "the gone kprobe does not fire" [ "$(ev_hits mk)" -eq "${hk:-0}" ]
rcheck "the gone kretprobe does not fire" [ "$(ev_hits mr)" -eq "${hr:-0}" ]

# Loading the module again brings the events back on the new text.
if insmod "$MOD_KO"; then
	pass "load $MOD again"
	relisted "$KRE"
	[ -n "$NOENTRY" ] || relisted "$RRE"
	check "no [GONE] probe is left" [ "$(list_count '\[GONE\]')" -eq 0 ]
	hk=$(ev_hits mk)
	hr=$(ev_hits mr)
	run_target 3
	check "the kprobe event fires again" hits_grew mk "${hk:-0}" 3
	rcheck "the kretprobe event fires again" hits_grew mr "${hr:-0}" 3
else
	fail "load $MOD again"
fi
kp_cleanup_events
check "removing the events removes their probes" \
	[ "$(list_count "  [kr]  $FN\\+")" -eq 0 ]

# ---- register_kprobe()/register_kretprobe() users on module text --------------

# user_test MODULE KO PARAM TYPE
user_test()
{
	umod=$1 uko=$2 upar=$3 utype=$4

	is_loaded "$MOD" || insmod "$MOD_KO"
	if ! insmod "$uko" "$upar=$FN"; then
		fail "$umod $upar=$FN loads"
		return
	fi
	pass "$umod $upar=$FN loads"
	line=$(list_lines "^[0-9a-f]{$KP_XD}  $utype  $FN\\+0x[0-9a-f]+")
	diag "list: $line"
	addr=${line%% *}
	check "$umod's probe is listed" [ -n "$addr" ]
	log_mark
	run_target 4
	n=$(log_since_mark | grep -c "$FN")
	check "$umod's probe fires ($n log lines)" [ "$n" -ge 1 ]

	check "unload $MOD under $umod's probe" unload "$MOD"
	[ -n "$addr" ] && check "$umod's probe is tagged [GONE]" gone_at "$addr"
	workload
	check "unload $umod (unregister a gone probe)" unload "$umod"
	[ -n "$addr" ] &&
		check "the gone probe left the list" [ "$(list_count "^$addr  $utype ")" -eq 0 ]
}

if [ -n "$NOENTRY" ]; then
	skip "register_kprobe() and register_kretprobe() on module text: $NOENTRY"
else
	if [ -n "$KP_KO" ] && [ "$MOD" != kprobe_example ]; then
		user_test kprobe_example "$KP_KO" symbol k
	else
		skip "register_kprobe() on module text (no kprobe_example.ko)"
	fi
	if [ -n "$KRP_KO" ] && [ "$MOD" != kretprobe_example ]; then
		user_test kretprobe_example "$KRP_KO" func r
	else
		skip "register_kretprobe() on module text (no separate target module)"
	fi
fi

finish
