#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# list_nonroot.sh - an unprivileged reader of the debugfs files "list" and
# "blacklist" sees no kernel addresses.
#
# Both files are root-only (0400); an administrator may make them readable
# to others, and then the address columns must read as zeros for a reader
# without CAP_SYSLOG, as /proc/kallsyms does (kallsyms_show_value() of the
# opener's credentials).  kptr_restrict=1 makes that rule independent of
# perf_event_paranoid.  The same files read by root show the addresses:
# the control that keeps the test from passing on a kernel that hides them
# from everyone.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

# Run "$@" (simple words only) as user nobody: su where there is such a
# user, else util-linux's setpriv (busybox's has no --reuid).
as_nobody()
{
	if id nobody >/dev/null 2>&1; then
		su -s /bin/sh nobody -c "$*"
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	fi
}

if ! id nobody >/dev/null 2>&1 &&
   ! setpriv --help 2>&1 | grep -q -- --reuid; then
	skip_all "neither a user 'nobody' nor util-linux setpriv"
fi

KPTR=/proc/sys/kernel/kptr_restrict
old_kptr=$(cat "$KPTR" 2>/dev/null)
# "path mode" pairs to put back
modes=
for f in "$DEBUGFS" "$KPDIR" "$KPDIR/list" "$KPDIR/blacklist"; do
	modes="$modes $f $(stat -c %a "$f")"
done

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	kp_cleanup_events
	# shellcheck disable=SC2086 # pairs of words
	set -- $modes
	while [ $# -ge 2 ]; do
		chmod "$2" "$1" 2>/dev/null
		shift 2
	done
	[ -n "$old_kptr" ] && echo "$old_kptr" > "$KPTR"
}
at_exit cleanup now

# vfs_read's entry, or just past it where the kernel cannot probe the
# entry (probe_point, common.inc).
VR=$(probe_point vfs_read) || VR=vfs_read
if ! ev_add "p:$GROUP/nonroot $VR"; then
	fail "create kprobe event p:$GROUP/nonroot $VR"
	finish
fi
pass "create kprobe event p:$GROUP/nonroot $VR"

echo 1 > "$KPTR"
chmod o+x "$DEBUGFS" "$KPDIR" &&
	chmod o+r "$KPDIR/list" "$KPDIR/blacklist"
check "debugfs files made readable to others" \
	[ "$(stat -c %a "$KPDIR/list" | cut -c3)" -ge 4 ]

# Root first: the addresses are there.
LINE="  k  vfs_read\\+0x[0-9a-f]+"
raddr=$(list_lines "$LINE" | cut -d' ' -f1)
diag "root: $(list_lines "$LINE")"
check "root sees the probe's address ($raddr)" \
	[ -n "$raddr" ] && [ -n "$(echo "$raddr" | tr -d 0)" ]
rbl=$(grep -c -v -E '^0x0+-0x0+[[:space:]]' "$KPDIR/blacklist")
check "root sees the blacklist's addresses ($rbl non-zero ranges)" \
	[ "$rbl" -gt 0 ]

# Then nobody.
if ! out=$(as_nobody cat "$KPDIR/list"); then
	fail "nobody reads list"
	finish
fi
pass "nobody reads list"
nline=$(echo "$out" | grep -E "$LINE")
diag "nobody: $nline"
check "nobody sees the probe line" [ -n "$nline" ]
check "nobody sees the same symbol+offset as root" \
	[ "${nline#* }" = "$(list_lines "$LINE" | cut -d' ' -f2-)" ]
nz=$(echo "$out" | cut -d' ' -f1 | tr -d '0\n')
check "nobody sees only zero addresses in list" [ -z "$nz" ]

if ! out=$(as_nobody cat "$KPDIR/blacklist"); then
	fail "nobody reads blacklist"
	finish
fi
pass "nobody reads blacklist"
check "nobody's blacklist has as many ranges as root's" \
	[ "$(echo "$out" | wc -l)" -eq "$(wc -l < "$KPDIR/blacklist")" ]
bad=$(echo "$out" | grep -c -v -E '^0x0+-0x0+[[:space:]]')
check "nobody sees only zero addresses in blacklist ($bad other lines)" \
	[ "$bad" -eq 0 ]

finish
