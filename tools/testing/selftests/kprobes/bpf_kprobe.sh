#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpf_kprobe.sh - BPF programs attached to kprobes, the way BPF loaders do
# it: a kprobe or kretprobe created on the kprobe PMU with perf_event_open(),
# and a BPF_PROG_TYPE_KPROBE program tied to it with PERF_EVENT_IOC_SET_BPF,
# which the kprobe event handler then runs through trace_call_bpf().
#
# The work is done by kp-bpf (kp-bpf.c, built next to the scripts by the
# Makefile; raw bpf(2), no libbpf; its own TAP lines are shown as
# diagnostics): a program that counts its runs in an array map must run
# on each getpid() of the process, once on a kprobe and once on a
# kretprobe on the getpid system call (__x64_sys_getpid, __ia32_sys_getpid
# on i386).  The probes must be gone from the probe list afterwards.
#
# Then bpf_get_func_ip(), which in a kprobe program returns the address of
# the probed function when the running probe is at a function entry
# (kprobe_running(), KPROBE_FLAG_ON_FUNC_ENTRY), must give the address that
# /proc/kallsyms has (kp-bpf --func-ip) for:
#   - a kprobe on a function entry armed with an int3: kpt_notrace_target()
#     of kprobes_test_target.ko, which is notrace, with optimization off;
#   - a kprobe on an ftrace site: the entry of the getpid system call;
#   - a kretprobe: on the getpid system call, and on kpt_notrace_target().
# How each kprobe is armed is read in the probe list while it is registered
# (kp-bpf prints its lines), so that the test proves what it claims.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

KP_BPF=$(helper kp-bpf) || skip_all "no kp-bpf here or in PATH"
require_kprobe_pmu
# kprobe_prog_ops exists only with CONFIG_BPF_EVENTS (CONFIG_KALLSYMS_ALL
# lists data symbols); without it BPF_PROG_LOAD refuses the program type.
grep -q ' kprobe_prog_ops$' /proc/kallsyms ||
	skip_all "no BPF kprobe programs (CONFIG_BPF_SYSCALL, CONFIG_BPF_EVENTS)"
# __x64_sys_getpid on x86-64, __ia32_sys_getpid on i386.
FUNC=$(sys_func getpid) || skip_all "no getpid entry point in /proc/kallsyms"
# The probes sit at its entry, the kretprobes cannot sit anywhere else.
require_entry_probe "$FUNC"

SYSCTL=$OPT_SYSCTL
MOD=kprobes_test_target
MOD_FN=kpt_notrace_target
MOD_LOADED=0
OPT_SAVED=

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	[ -n "$OPT_SAVED" ] && echo "$OPT_SAVED" > "$SYSCTL" 2>/dev/null
	[ "$MOD_LOADED" = 1 ] && unload "$MOD"
}
at_exit cleanup

before=$(list_count "$FUNC")
before_all=$(list_count "$FUNC|$MOD_FN")
sub_tap "$KP_BPF" "$FUNC"
rc=$?
case $rc in
0)	pass "kp-bpf: BPF program on a kprobe and a kretprobe" ;;
4)	skip_all "kp-bpf skipped" ;;
*)	fail "kp-bpf: exit status $rc" ;;
esac
after=$(list_count "$FUNC")
check "the BPF programs' probes are unregistered when their events close" \
	[ "$after" -eq "$before" ]

# ---- bpf_get_func_ip() -------------------------------------------------------

FIP_OUT=

# func_ip DESCRIPTION KP-BPF-ARGUMENTS... - one result line for
# "kp-bpf --func-ip ...", whose output is shown and kept in FIP_OUT.
func_ip()
{
	fi_desc=$1
	shift
	sub_tap "$KP_BPF" --func-ip "$@"
	fi_rc=$?
	FIP_OUT=$SUB_OUT
	case $fi_rc in
	0)	pass "$fi_desc" ;;
	4)	skip "$fi_desc (kp-bpf skipped)" ;;
	*)	fail "$fi_desc (kp-bpf exit status $fi_rc)" ;;
	esac
}

# fip_list k|r - the probe list line of that type kp-bpf printed last.
fip_list()
{
	printf '%s\n' "$FIP_OUT" |
		sed -n "s/^# list: \([0-9a-f]\{8,16\}  $1  .*\)/\1/p" | head -n 1
}

# is_int3 LINE - a listed probe armed with an int3: not on ftrace, not
# optimized (optimization is off while it is checked).
# shellcheck disable=SC2317 # called through check
is_int3()
{
	case $1 in
	''|*'[FTRACE]'*|*'[OPTIMIZED]'*)	return 1 ;;
	esac
}

# is_ftrace LINE - a listed probe on an ftrace site.
# shellcheck disable=SC2317 # called through check
is_ftrace()
{
	case $1 in
	*'[FTRACE]'*)	return 0 ;;
	esac
	return 1
}

# notrace_refused - do kprobe events refuse $MOD_FN for being notrace?
# Without CONFIG_KPROBE_EVENTS_ON_NOTRACE, trace_kprobe refuses a function
# that has no ftrace site when kprobes can use ftrace: then every kprobe
# event, and so every BPF kprobe program, at a function entry goes through
# ftrace, and the int3 case cannot be reached from BPF.
notrace_refused()
{
	log_mark
	if ev_add "p:$GROUP/fipnt $MOD:$MOD_FN"; then
		ev_del fipnt
		return 1
	fi
	log_since_mark | grep -q "Could not probe notrace function $MOD_FN"
}

# ftrace_site_at ADDR NAME - is function NAME at ADDR traceable (an ftrace
# site)?  Its name in available_filter_functions may be an alias
# (__do_sys_getpid).  available_filter_functions_addrs lists the call
# sites, which are not at the function's address everywhere: arm64's is
# its patchable entry's second instruction (the third after "bti c").
ftrace_site_at()
{
	if [ -r "$TRACEFS/available_filter_functions_addrs" ]; then
		fsa_re="^$1 "
		if [ "$(uname -m)" = aarch64 ]; then
			# The low 32 bits only: no 64-bit unsigned shell arithmetic.
			fsa_hi=${1%????????}
			fsa_lo=$((0x${1#"$fsa_hi"}))
			fsa_re=$(printf '^(%s%08x|%s%08x) ' "$fsa_hi" $((fsa_lo + 4)) \
				"$fsa_hi" $((fsa_lo + 8)))
		fi
		grep -qE "$fsa_re" "$TRACEFS/available_filter_functions_addrs"
	else
		grep -qx "$2" "$TRACEFS/available_filter_functions" 2>/dev/null
	fi
}

# (a) An int3 at a function entry, on the test module's notrace function.
# The module calls it N times for N written to its "calls" parameter.
mount_tracefs kprobe_events
if MOD_KO=$(find_ko "$MOD"); then
	if ! is_loaded "$MOD"; then
		insmod "$MOD_KO" && MOD_LOADED=1
	fi
fi
why=
if ! is_loaded "$MOD" || ! ksym_addr "$MOD_FN" "$MOD" > /dev/null; then
	why="no $MOD.ko with $MOD_FN"
elif notrace_refused; then
	why="kprobe events refuse notrace functions: no CONFIG_KPROBE_EVENTS_ON_NOTRACE"
fi
if [ -z "$why" ]; then
	TRIGGER="--trigger-file /sys/module/$MOD/parameters/calls --trigger-value 10"
	# Optimization off: the probe stays an int3 and is listed as one.
	if [ -w "$SYSCTL" ]; then
		OPT_SAVED=$(cat "$SYSCTL")
		echo 0 > "$SYSCTL"
	else
		diag "no $SYSCTL: the kprobe on $MOD_FN may be optimized"
	fi
	# shellcheck disable=SC2086 # TRIGGER is two options with their values
	func_ip "bpf_get_func_ip() in a kprobe at an int3 function entry ($MOD_FN)" \
		"$MOD_FN" $TRIGGER
	line=$(fip_list k)
	check "the kprobe on $MOD_FN is an int3, not on ftrace: $line" \
		is_int3 "$line"
	# shellcheck disable=SC2086
	func_ip "bpf_get_func_ip() in a kretprobe with an int3 entry ($MOD_FN)" \
		"$MOD_FN" --kretprobe $TRIGGER
	if [ -n "$OPT_SAVED" ]; then
		echo "$OPT_SAVED" > "$SYSCTL"
		OPT_SAVED=
	fi
else
	skip "bpf_get_func_ip() in a kprobe at an int3 function entry ($why)"
	skip "the kprobe on $MOD_FN is an int3, not on ftrace ($why)"
	skip "bpf_get_func_ip() in a kretprobe with an int3 entry ($why)"
fi
[ "$MOD_LOADED" = 1 ] && unload "$MOD" && MOD_LOADED=0

# (b) A kprobe on an ftrace site: $FUNC is traceable, so its
# entry is its fentry call and the kprobe goes through ftrace.
func_ip "bpf_get_func_ip() in a kprobe on an ftrace site ($FUNC)" \
	"$FUNC"
line=$(fip_list k)
if kconfig_off KPROBES_ON_FTRACE; then
	skip "the kprobe on $FUNC is on ftrace (no KPROBES_ON_FTRACE: an entry probe sits past the ftrace site)"
elif ftrace_site_at "$(ksym_addr "$FUNC")" "$FUNC"; then
	check "the kprobe on $FUNC is on ftrace: $line" \
		is_ftrace "$line"
else
	skip "the kprobe on $FUNC is on ftrace (not an ftrace site here)"
fi

# (c) A kretprobe: its handler runs from the return trampoline, not from
# the entry probe.
func_ip "bpf_get_func_ip() in a kretprobe ($FUNC)" \
	"$FUNC" --kretprobe

check "no probe on $FUNC or $MOD_FN is left" \
	[ "$(list_count "$FUNC|$MOD_FN")" -eq "$before_all" ]
finish
