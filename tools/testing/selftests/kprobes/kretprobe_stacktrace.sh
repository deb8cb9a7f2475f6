#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kretprobe_stacktrace.sh - stack traces taken below a function whose
# return is probed show its real caller, not the kretprobe trampoline.
#
# A kretprobe replaces the return address of every probed call by the
# trampoline's.  An unwinder walking through such a frame must ask
# kretprobes for the real address (kretprobe_find_ret_addr(), through
# asm/unwind.h); trace output prints the trampoline itself as
# "[unknown/kretprobe'd]" (is_kretprobe_trampoline(), trace_output.c).
#
# Here a kretprobe event sits on vfs_read, and a kprobe event with a
# stacktrace trigger on seq_read_iter, which vfs_read reaches for a seq
# file such as /proc/version (read(2) on it).  Every recorded stack must name vfs_read and
# then ksys_read, and none may show the trampoline.  The return event must
# name ksys_read as the caller vfs_read returned to (%pS of the real
# return address).

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobe_events

for kp_sym in vfs_read ksys_read seq_read_iter; do
	ksym_addr "$kp_sym" > /dev/null ||
		skip_all "no $kp_sym in /proc/kallsyms"
done

# The kretprobe sits at vfs_read's entry, and the stacks are read from the
# trace buffer.
if why=$(no_entry_probe vfs_read) || why=$(no_trace_records); then
	skip_all "$why"
fi
# An architecture whose unwinder does not ask kretprobes for the real
# return address (upstream powerpc 6.12, for instance) does not select
# ARCH_CORRECT_STACKTRACE_ON_KRETPROBE; upstream's own KUnit kprobes_test
# leaves its stacktrace cases out there the same way.
kconfig_off ARCH_CORRECT_STACKTRACE_ON_KRETPROBE &&
	skip_all "stack traces through a kretprobe'd frame show the trampoline on this architecture (no ARCH_CORRECT_STACKTRACE_ON_KRETPROBE)"

at_exit kp_cleanup_events now

check "a kretprobe event on vfs_read is accepted" \
	ev_add "r:$GROUP/vfsret vfs_read"
check "a kprobe event on seq_read_iter is accepted" \
	ev_add "p:$GROUP/seqit seq_read_iter"
check "a stacktrace trigger on it is accepted" \
	sh -c "echo stacktrace > '$TRACEFS/events/$GROUP/seqit/trigger'"

echo 0 > "$TRACEFS/tracing_on"
echo > "$TRACEFS/trace"
ev_enable vfsret 1
ev_enable seqit 1
echo 1 > "$TRACEFS/tracing_on"
# The shell's read, not cat: busybox cat copies with sendfile(), which
# reaches seq_read_iter through splice, not vfs_read.
for kp_i in 1 2 3; do
	read -r _ < /proc/version
done
echo 0 > "$TRACEFS/tracing_on"
ev_enable seqit 0
ev_enable vfsret 0
echo '!stacktrace' > "$TRACEFS/events/$GROUP/seqit/trigger"
out=/tmp/kretprobe_stacktrace.$$
cat "$TRACEFS/trace" > "$out"
echo 1 > "$TRACEFS/tracing_on"

stacks=$(grep -c '<stack trace>' "$out")
check "stack traces were recorded ($stacks)" [ "$stacks" -gt 0 ]

# The frame after each "=> vfs_read" line, one per stack that has one.
after=$(awk '/=> vfs_read/ { want = 1; next }
	     want { sub(/^ *=> */, ""); print; want = 0 }' "$out")
diag "frames above vfs_read: $(echo "$after" | sort | uniq -c | tr '\n' ' ')"
check "the stacks go through vfs_read" [ -n "$after" ]
# (A file, not sh -c: a frame may be "[unknown/kretprobe'd]", quote and all.)
printf '%s\n' "$after" > "$out.after"
check "vfs_read's caller is ksys_read in every stack" \
	sh -c "! grep -v -q '^ksys_read' '$out.after'"
check "no stack shows the kretprobe trampoline" \
	sh -c "! grep -q -e 'kretprobe_trampoline' -e \"unknown/kretprobe'd\" '$out'"
check "the return event names ksys_read as the caller" \
	grep -q -E 'vfsret: \(ksys_read\+0x[0-9a-f]+(/0x[0-9a-f]+)? <- vfs_read\)' "$out"

if [ "$(n_failed)" -gt 0 ]; then
	diag "trace:"
	head -n 60 "$out" | sed 's/^/#   /'
fi
rm -f "$out" "$out.after"
finish
