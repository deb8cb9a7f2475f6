#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sample_module.sh - the kprobes sample modules as users of the API.
#
# kprobe_example.ko (parameter "symbol") and kretprobe_example.ko
# (parameter "func") probe one function, kernel_clone by default, and log
# every hit.  Loading one must register its probe (it shows up in the probe
# list), forks must hit it (its messages appear in the kernel log), and
# unloading it must remove the probe.  Both at once aggregate on one site.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

find_samples
[ -n "$KP_KO$KRP_KO" ] || skip_all "no kprobe_example.ko or kretprobe_example.ko under /lib/modules"

at_exit unload_samples now

# param MODULE NAME DEFAULT - a module parameter's value, or DEFAULT.
param()
{
	cat "/sys/module/$1/parameters/$2" 2>/dev/null || echo "$3"
}

# sample_test MODULE KO PARAM TYPE - load, trigger, check, unload.
sample_test()
{
	mod=$1 ko=$2 par=$3 type=$4

	log_mark
	if ! insmod "$ko"; then
		fail "$mod loads"
		return
	fi
	pass "$mod loads"
	sym=$(param "$mod" "$par" kernel_clone)
	diag "$mod probes $sym"
	re="^[0-9a-f]{$KP_XD}  $type  $sym\\+0x[0-9a-f]+"
	line=$(list_lines "$re")
	diag "list: $line"
	check "$mod's probe is listed ('$type' on $sym)" [ -n "$line" ]
	case $line in
	*'[DISABLED]'*|*'[GONE]'*)	fail "$mod's probe is active" ;;
	*)				pass "$mod's probe is active" ;;
	esac

	workload
	n=$(log_since_mark | grep -c "$sym")
	diag "$n log lines of $mod about $sym"
	# One line when loading, then at least one per fork of the workload.
	check "$mod logged its hits" [ "$n" -ge 4 ]

	check "$mod unloads" unload "$mod"
	check "$mod's probe is gone from the list" \
		[ "$(list_count "$re")" -eq 0 ]
}

# The samples probe kernel_clone's entry: where the kernel cannot (see
# no_entry_probe in common.inc) only the unknown symbol is tried.
NOENTRY=$(no_entry_probe kernel_clone) || NOENTRY=

if [ -n "$NOENTRY" ]; then
	skip "kprobe_example, kretprobe_example, both on kernel_clone: $NOENTRY"
elif [ -n "$KP_KO" ]; then
	sample_test kprobe_example "$KP_KO" symbol k
else
	skip "kprobe_example (no kprobe_example.ko)"
fi
if [ -n "$NOENTRY" ]; then
	:
elif [ -n "$KRP_KO" ]; then
	sample_test kretprobe_example "$KRP_KO" func r
else
	skip "kretprobe_example (no kretprobe_example.ko)"
fi

# Both on one function; each unload leaves the other one working.
if [ -z "$NOENTRY" ] && [ -n "$KP_KO" ] && [ -n "$KRP_KO" ]; then
	KRE='  k  kernel_clone\+0x[0-9a-f]+'
	RRE='  r  kernel_clone\+0x[0-9a-f]+'
	if insmod "$KP_KO" symbol=kernel_clone &&
	   insmod "$KRP_KO" func=kernel_clone; then
		pass "both samples load on kernel_clone"
		check "the kprobe is listed" [ "$(list_count "$KRE")" -eq 1 ]
		check "the kretprobe is listed" [ "$(list_count "$RRE")" -eq 1 ]
		check "unloading kprobe_example works" unload kprobe_example
		check "the kretprobe remains" [ "$(list_count "$RRE")" -eq 1 ]
		check "the kprobe went" [ "$(list_count "$KRE")" -eq 0 ]
		log_mark
		workload
		n=$(log_since_mark | grep -c kernel_clone)
		check "the remaining kretprobe still fires ($n lines)" [ "$n" -ge 3 ]
		check "unloading kretprobe_example works" unload kretprobe_example
		check "no probe is left on kernel_clone" \
			[ "$(list_count '  [kr]  kernel_clone\+')" -eq 0 ]
	else
		fail "both samples load on kernel_clone"
	fi
fi

# A symbol that does not exist: the module's init fails, nothing is left.
if [ -n "$KP_KO" ]; then
	before=$(wc -l < "$KPDIR/list")
	if insmod "$KP_KO" symbol=kpsel_no_such_function 2>/dev/null; then
		fail "kprobe_example on an unknown symbol fails to load"
	else
		pass "kprobe_example on an unknown symbol fails to load"
	fi
	check "the probe list did not grow" [ "$(wc -l < "$KPDIR/list")" -eq "$before" ]
fi

finish
