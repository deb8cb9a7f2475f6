#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpf_kprobe.sh - BPF programs attached to kprobes, the way BPF loaders do
# it: a kprobe or kretprobe created on the kprobe PMU with perf_event_open(),
# and a BPF_PROG_TYPE_KPROBE program tied to it with PERF_EVENT_IOC_SET_BPF,
# which the kprobe event handler then runs through trace_call_bpf().
#
# The work is done by kp-bpf (tools/testing/kprobes/guest/kp-bpf.c, a static
# binary in the harness's initramfs, raw bpf(2), no libbpf): a program that
# counts its runs in an array map must run on each getpid() of the process,
# once on a kprobe and once on a kretprobe on the getpid system call
# (__x64_sys_getpid, __ia32_sys_getpid on i386).  The probes
# must be gone from the probe list afterwards.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs

KP_BPF=$(command -v kp-bpf) || skip_all "no kp-bpf binary in PATH"
[ -r /sys/bus/event_source/devices/kprobe/type ] ||
	skip_all "no kprobe PMU (CONFIG_KPROBE_EVENTS, CONFIG_PERF_EVENTS)"
# kprobe_prog_ops exists only with CONFIG_BPF_EVENTS (CONFIG_KALLSYMS_ALL
# lists data symbols); without it BPF_PROG_LOAD refuses the program type.
grep -q ' kprobe_prog_ops$' /proc/kallsyms ||
	skip_all "no BPF kprobe programs (CONFIG_BPF_SYSCALL, CONFIG_BPF_EVENTS)"
# __x64_sys_getpid on x86-64, __ia32_sys_getpid on i386.
FUNC=$(sys_func getpid) || skip_all "no getpid entry point in /proc/kallsyms"

before=$(list_count "$FUNC")
"$KP_BPF" "$FUNC"
rc=$?
case $rc in
0)	pass "kp-bpf: BPF program on a kprobe and a kretprobe" ;;
4)	skip_all "kp-bpf skipped" ;;
*)	fail "kp-bpf: exit status $rc" ;;
esac
after=$(list_count "$FUNC")
check "the BPF programs' probes are unregistered when their events close" \
	[ "$after" -eq "$before" ]
finish
