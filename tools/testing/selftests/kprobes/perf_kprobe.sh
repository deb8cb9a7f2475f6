#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf_kprobe.sh - kprobes created through perf_event_open() on the kprobe
# PMU (/sys/bus/event_source/devices/kprobe), the way perf and BPF loaders
# create them without tracefs.
#
# The work is done by kp-perf (tools/testing/kprobes/guest/kp-perf.c, a
# static binary in the harness's initramfs): a kprobe and a kretprobe on
# the getpid system call (__x64_sys_getpid, __ia32_sys_getpid on i386)
# must count every getpid() of the process, and an unknown
# function must be refused.  The probes must be gone from the probe list
# afterwards.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

KP_PERF=$(command -v kp-perf) || skip_all "no kp-perf binary in PATH"
[ -r /sys/bus/event_source/devices/kprobe/type ] ||
	skip_all "no kprobe PMU (CONFIG_KPROBE_EVENTS, CONFIG_PERF_EVENTS)"
# __x64_sys_getpid on x86-64, __ia32_sys_getpid on i386.
FUNC=$(sys_func getpid) || skip_all "no getpid entry point in /proc/kallsyms"
# The probes sit at its entry, the kretprobes cannot sit anywhere else.
if why=$(no_entry_probe "$FUNC"); then
	skip_all "$why"
fi

before=$(list_count "$FUNC")
"$KP_PERF" "$FUNC"
rc=$?
case $rc in
0)	pass "kp-perf: kprobe and kretprobe through the kprobe PMU" ;;
4)	skip_all "kp-perf skipped" ;;
*)	fail "kp-perf: exit status $rc" ;;
esac
after=$(list_count "$FUNC")
check "perf's probes are unregistered when their events close" \
	[ "$after" -eq "$before" ]
finish
