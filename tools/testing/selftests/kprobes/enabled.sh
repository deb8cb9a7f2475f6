#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# enabled.sh - /sys/kernel/debug/kprobes/enabled, the global switch.
#
# Writing 0 disarms every registered probe, writing 1 arms them again;
# probes disabled one by one ([DISABLED]) stay disabled across the switch.
# Only boolean values are accepted.  Hits are counted through the hit
# column of kprobe events (tracefs kprobe_profile).

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

ENABLED=$KPDIR/enabled
[ -w "$ENABLED" ] || skip_all "no writable $ENABLED"

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	echo 1 > "$ENABLED" 2>/dev/null
	kp_cleanup_events
}
at_exit cleanup now

enabled()
{
	cat "$ENABLED"
}

check "enabled reads 1 at the start" [ "$(enabled)" = 1 ]

# The probes sit at the entries of vfs_read and vfs_write, or just past
# them where a kernel cannot probe an entry (probe_point, common.inc).
RD=$(probe_point vfs_read) || skip_all "no place in vfs_read takes a kprobe event"
WR=$(probe_point vfs_write) || skip_all "no place in vfs_write takes a kprobe event"
diag "probes at $RD and $WR"

# rd: an enabled probe; off: one that is never enabled.
if ! { ev_add "p:$GROUP/rd $RD" && ev_enable rd 1 &&
	ev_add "p:$GROUP/off $RD"; }; then
	fail "set up kprobe events on vfs_read"
	finish
fi
pass "set up kprobe events on vfs_read"

h=$(ev_hits rd)
workload
check "an enabled probe fires" ev_grew rd "$h"
DISABLED_LINES='  k  vfs_read\+0x[0-9a-f]+ .*\[DISABLED\]'
check "one probe is listed [DISABLED]" [ "$(list_count "$DISABLED_LINES")" -eq 1 ]

# Off: nothing fires, not even a probe registered and enabled meanwhile.
check "writing 0 succeeds" sh -c "echo 0 > $ENABLED"
check "enabled reads 0" [ "$(enabled)" = 0 ]
check "writing 0 again succeeds" sh -c "echo 0 > $ENABLED"
check "enabled still reads 0" [ "$(enabled)" = 0 ]
if ev_add "p:$GROUP/wr $WR" && ev_enable wr 1; then
	pass "register and enable a probe while disarmed"
else
	fail "register and enable a probe while disarmed"
fi
h=$(ev_hits rd)
hw=$(ev_hits wr)
workload
check "no hits while disarmed (rd: $h -> $(ev_hits rd))" [ "$(ev_hits rd)" -eq "$h" ]
check "no hits on the new probe (wr: $hw -> $(ev_hits wr))" [ "$(ev_hits wr)" -eq "${hw:-0}" ]
write_refused "$ENABLED" abc

# On again: both fire, the disabled one stays disabled.
check "writing 1 succeeds" sh -c "echo 1 > $ENABLED"
check "enabled reads 1" [ "$(enabled)" = 1 ]
h=$(ev_hits rd)
hw=$(ev_hits wr)
ho=$(ev_hits off)
workload
check "the probe fires again after 1" ev_grew rd "$h"
check "the probe registered while disarmed fires" ev_grew wr "${hw:-0}"
check "a disabled probe stays disabled (hits $ho -> $(ev_hits off))" \
	[ "$(ev_hits off)" -eq "$ho" ]
check "it is still listed [DISABLED]" [ "$(list_count "$DISABLED_LINES")" -eq 1 ]

check "writing 1 again succeeds" sh -c "echo 1 > $ENABLED"
check "enabled still reads 1" [ "$(enabled)" = 1 ]
write_refused "$ENABLED" 2
write_refused "$ENABLED" abc
write_refused "$ENABLED" -1

# Events removed while disarmed are really gone once armed again.
echo 0 > "$ENABLED"
kp_cleanup_events
echo 1 > "$ENABLED"
check "no probe on vfs_read/vfs_write is left" \
	[ "$(list_count '  k  vfs_(read|write)\+')" -eq 0 ]

finish
