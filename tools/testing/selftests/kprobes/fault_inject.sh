#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fault_inject.sh - a registration whose allocation fails fails cleanly.
#
# The kernel's systematic fault injection: writing N to /proc/self/fail-nth
# makes the Nth fault-injection point this task passes fail (failslab: a
# slab allocation; fail_page_alloc: a page allocation), whatever the
# probability settings.  For each operation of test_modules/kp_faults.ko
# (kprobe, batch, kretprobe: see the module), N runs from 1 upwards: every
# allocation the operation makes fails once, in order, until N is past the
# last one (the operation then ran without a failure).  After each run:
#
#  - the registration either succeeded, and then every probe fired once
#    per call, or failed, and then no handler ran ("hits" = "want");
#  - the probed functions compute the right values and their text is what
#    it was before (nothing left armed);
#  - nothing is left in the kprobes list.
#
# A failing kmalloc() or page allocation prints nothing; a failing
# vmalloc() (instruction slots, a large kretprobe pool) prints its
# allocation-failure report with a stack dump, which the harness knows
# (tools/testing/kprobes/parse.py: a warn_alloc() dump from inside
# kp_faults).  Any other report in the kernel log (WARN, KASAN, lockdep)
# fails the harness's run.  At the end, kmemleak (the debug
# configuration) must find nothing unreferenced.
#
# Every step between arming fail-nth and reading it back is a shell
# builtin: a fork would pass points of its own.
#
# The jump optimizer's worker, which builds the detours, is another task:
# there failslab's stack filter fails the allocations made under
# arch_optprobe_prepare(), the first one, then all (where the kernel has
# the filter and jump optimization).

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

FAILNTH=/proc/self/fail-nth
[ -e "$FAILNTH" ] || skip_all "no $FAILNTH (CONFIG_FAULT_INJECTION)"
KO=$(test_module kp_faults) || skip_all "no test_modules/kp_faults.ko"
PARAMS=/sys/module/kp_faults/parameters
MAX_N=400

# Which kinds of points fail.  failslab and fail_page_alloc skip
# allocations that may sleep by default (ignore-gfp-wait): not here.
# fail_page_alloc keeps its min-order of 1: the page allocations of
# order 1 and up are points (a kretprobe pool too big for one slab
# object, say), the single pages vmalloc() maps one by one are not (each
# would be a point of its own, in a path a failing slab allocation of
# vmalloc() already takes).  No report per failure (verbose 0);
# probability 0 keeps everything but fail-nth from failing.
FAILSLAB=$DEBUGFS/failslab
FAILPAGE=$DEBUGFS/fail_page_alloc
SAVED=
kinds=
set_attr()	# dir file value; the first value is saved for cleanup
{
	[ -w "$1/$2" ] || return 1
	case " $SAVED " in
	*" $1/$2="*)	;;
	*)		SAVED="$SAVED $1/$2=$(cat "$1/$2")" ;;
	esac
	echo "$3" > "$1/$2"
}
for d in "$FAILSLAB" "$FAILPAGE"; do
	[ -d "$d" ] || continue
	set_attr "$d" probability 0
	set_attr "$d" verbose 0
	set_attr "$d" ignore-gfp-wait N
	kinds="$kinds ${d##*/}"
done
[ -n "$kinds" ] || skip_all "neither failslab nor fail_page_alloc (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC)"
diag "fault injection points:$kinds"

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	echo 0 > "$FAILNTH" 2>/dev/null
	unload kp_faults
	for kv in $SAVED; do
		echo "${kv#*=}" > "${kv%%=*}" 2>/dev/null
	done
}
at_exit cleanup

kmemleak_clear
insmod "$KO" || { fail "load kp_faults"; finish; }

# parse_result RESULT - r_ret, r_hits, r_want, r_text and r_calls from a
# result line (no fork).
parse_result()
{
	r_ret='' r_hits='' r_want='' r_text='' r_calls=''
	for kp_w in $1; do
		case $kp_w in
		ret=*)		r_ret=${kp_w#ret=} ;;
		hits=*)		r_hits=${kp_w#hits=} ;;
		want=*)		r_want=${kp_w#want=} ;;
		text=*)		r_text=${kp_w#text=} ;;
		calls=*)	r_calls=${kp_w#calls=} ;;
		esac
	done
}

# Standard error goes nowhere while the loops run: opening /dev/null for
# each command would be one more point inside the armed window.  (The
# shell's own failures there, "can't create ...: Cannot allocate memory",
# are expected.)
exec 3>&2 2>/dev/null
for op in kprobe batch kretprobe; do
	n=0
	bad=
	failed_ops=0
	errnos=
	while [ "$n" -lt "$MAX_N" ]; do
		n=$((n + 1))
		echo none > "$PARAMS/result"
		# From here to the read below, this shell's Nth allocation fails:
		# opening the parameter file, writing it, or one the operation
		# makes.  Only builtins run in between (no fork).
		echo "$n" > "$FAILNTH"
		echo "$op" > "$PARAMS/op"
		left=
		read -r left < "$FAILNTH"
		echo 0 > "$FAILNTH"
		res=
		read -r res < "$PARAMS/result"
		# "none": the write failed before it reached the module.
		case $res in
		"op=$op "*)	;;
		*)		res= ;;
		esac
		if [ -n "$res" ]; then
			parse_result "$res"
			if [ "$r_ret" != 0 ]; then
				failed_ops=$((failed_ops + 1))
				case " $errnos " in
				*" $r_ret "*)	;;
				*)		errnos="${errnos:+$errnos }$r_ret" ;;
				esac
			fi
			if [ "$r_hits" != "$r_want" ] || [ "$r_text" != original ] ||
			   [ "$r_calls" != right ]; then
				bad="$bad
fail-nth=$n: $res"
			fi
		fi
		listed=
		read -r listed < "$KPDIR/list"
		if [ -n "$listed" ]; then
			bad="$bad
fail-nth=$n: left in the list: $listed"
			break
		fi
		# Not injected: the operation got through every point.
		[ -n "$left" ] && [ "$left" != 0 ] && break
	done
	if [ "$n" -ge "$MAX_N" ]; then
		fail "$op: still failing after $MAX_N injection points"
	elif [ -n "$bad" ]; then
		echo "$bad" | sed '/^$/d; s/^/# /'
		fail "$op: $((n - 1)) injection points, some left a wrong state"
	else
		pass "$op: $((n - 1)) injection points (the task's allocations in turn, the kernel's own among them): $failed_ops clean refusals (${errnos:-none}), the rest succeeded; nothing left armed or listed"
	fi
done

exec 2>&3 3>&-

# ---- the jump optimizer's allocations ---------------------------------------
# Its worker, not the registering task, builds the detour
# (arch_optprobe_prepare()): no task filter reaches it, but failslab's
# stack filter does, failing only allocations made under that function.
# The first one fails, then every one: the probe must stay a breakpoint
# probe that fires once per call, and leave the text as it found it.  An
# architecture whose arch_optprobe_prepare() allocates nothing when a
# detour page has room (arm64's detours come from an area of the kernel
# image) skips both.
OPTSYSCTL=/proc/sys/debug/kprobes-optimization

# sym_range NAME - "START END" of a text symbol: its address and the next
# higher one in /proc/kallsyms (fixed-width hex sorts as text).
sym_range()
{
	sort /proc/kallsyms | awk -v s="$1" '
		found && $1 != start { print start, "0x" $1; exit }
		!found && $3 == s && $2 ~ /^[tT]$/ { found = 1; start = "0x" $1 }'
}

optimizer_faults()	# first|all
{
	[ "$1" = first ] && times=1 || times=-1
	for kv in task-filter=N probability=100 interval=1 space=0 \
		  stacktrace-depth=32 "require-start=$OPT_START" \
		  "require-end=$OPT_END" "times=$times"; do
		set_attr "$FAILSLAB" "${kv%%=*}" "${kv#*=}"
	done
	echo hold > "$PARAMS/op"
	read -r res < "$PARAMS/result"
	if [ "$res" != "op=hold ret=0" ]; then
		echo 0 > "$FAILSLAB/probability"
		fail "optimizer ($1 allocation fails): register: $res"
		return
	fi
	# The worker runs a few jiffies later: give the first failure up to
	# 10 s to happen, the others 2 s.
	i=0
	while [ "$i" -lt 20 ]; do
		[ "$1" = first ] && [ "$(cat "$FAILSLAB/times")" = 0 ] && break
		[ "$1" = all ] && [ "$i" = 4 ] && break
		sleep 0.5
		i=$((i + 1))
	done
	injected=yes
	[ "$1" = first ] && [ "$(cat "$FAILSLAB/times")" != 0 ] && injected=no
	opt=$(grep -c 'OPTIMIZED' "$KPDIR/list")
	echo 0 > "$FAILSLAB/probability"
	echo release > "$PARAMS/op"
	read -r res < "$PARAMS/result"
	parse_result "$res"
	if [ "$injected" = no ] && [ "$r_hits" = 1 ] &&
	   [ "$r_text" = original ] && [ "$r_calls" = right ] &&
	   ! grep -q . "$KPDIR/list"; then
		# arm64 (powerpc) takes detours from pages it already has.
		skip "optimizer: arch_optprobe_prepare() allocated nothing in 10 s, nothing to fail ($res, [OPTIMIZED] $opt)"
		return 1
	elif [ "$injected" = no ]; then
		fail "optimizer: no allocation under arch_optprobe_prepare() in 10 s ($res)"
	elif [ "$r_hits" != 1 ] || [ "$r_text" != original ] ||
	     [ "$r_calls" != right ] || grep -q . "$KPDIR/list" ||
	     { [ "$1" = all ] && [ "$opt" != 0 ]; }; then
		fail "optimizer ($1 allocation fails): $res, [OPTIMIZED] $opt"
	elif [ "$opt" = 0 ]; then
		pass "optimizer ($1 allocation fails): the probe stays a breakpoint, fires once per call, leaves the text as it was"
	else
		pass "optimizer ($1 allocation fails): optimized all the same (a fallback allocation), fires once per call, leaves the text as it was"
	fi
}

if ! [ -w "$FAILSLAB/require-start" ]; then
	skip "optimizer: no failslab stack filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)"
elif ! [ -r "$OPTSYSCTL" ] || [ "$(cat "$OPTSYSCTL")" != 1 ]; then
	skip "optimizer: no jump optimization here (CONFIG_OPTPROBES, the sysctl)"
elif ! range=$(sym_range arch_optprobe_prepare) || [ -z "$range" ]; then
	skip "optimizer: no arch_optprobe_prepare in /proc/kallsyms"
else
	OPT_START=${range% *}
	OPT_END=${range#* }
	diag "failslab only under arch_optprobe_prepare: $OPT_START - $OPT_END"
	# The second run only means something if the first could fail.
	if optimizer_faults first; then
		optimizer_faults all
	fi
fi

unload kp_faults || fail "unload kp_faults"
kmemleak_check "fault injection"
finish
