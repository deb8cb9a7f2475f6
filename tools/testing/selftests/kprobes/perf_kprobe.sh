#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf_kprobe.sh - kprobes created through perf_event_open() on the kprobe
# PMU (/sys/bus/event_source/devices/kprobe), the way perf and BPF loaders
# create them without tracefs.
#
# The work is done by kp-perf (kp-perf.c, built next to the scripts by the
# Makefile; its own TAP lines are shown as diagnostics): a kprobe and a
# kretprobe on the getpid system call (__x64_sys_getpid, __ia32_sys_getpid
# on i386) must count every getpid() of the process, and an unknown
# function must be refused.  The probes must be gone from the probe list
# afterwards.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

KP_PERF=$(helper kp-perf) || skip_all "no kp-perf here or in PATH"
require_kprobe_pmu
# __x64_sys_getpid on x86-64, __ia32_sys_getpid on i386.
FUNC=$(sys_func getpid) || skip_all "no getpid entry point in /proc/kallsyms"
# The probes sit at its entry, the kretprobes cannot sit anywhere else.
require_entry_probe "$FUNC"

before=$(list_count "$FUNC")
sub_tap "$KP_PERF" "$FUNC"
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
