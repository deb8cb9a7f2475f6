#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh MODE - boot the flavour's kernel and initramfs in QEMU.
#
# MODE is run, check, bench or shell (the guest's /init reads it as
# kp.mode=).  The serial console goes to stdout and to
# $BUILD/<flavour>/console.log; how the boot ended goes to
# $BUILD/<flavour>/boot.result for parse.py.
#
# Environment:
#   TIMEOUT=SECS     stop QEMU after SECS (default 900, riscv64 and ppc64le
#                    1500; none for shell)
#   ICOUNT=1         deterministic instruction counting (-icount shift=0)
#   ACCEL=...        QEMU accelerator (default tcg,thread=single, see below)
#   KP_INIT_HANG=1   make /init hang, to test the timeout
#   KP_APPEND=...    extra kernel command-line arguments
#   KP_QEMU_ARGS=... extra QEMU arguments, split at white space
#                    (hitcount.sh: its gdbstub)
#   KP_LOG_PREFIX=   prefix of this boot's files in the flavour dir, instead
#                    of the mode's ("bench-" for bench, none otherwise)
#
# The guest stops QEMU through the isa-debug-exit device (riscv64: the
# sifive_test device, written so as to give the same), which makes QEMU
# exit with status (guest status << 1) | 1.  Any other ending - a timeout, a
# panic (panic=-1 reboots, -no-reboot turns that into an exit with status 0),
# a QEMU error - is a failure, and so is a console without the guest's
# "kp: guest done" marker.
# ppc64le (pseries) has no exit device: kp-exit powers the machine off for
# status 0 (QEMU exits with 0) and, for any other status, prints "kp-exit:
# panic on purpose: guest status N" and panics the kernel, which QEMU
# (-action panic=exit-failure) turns into exit status 1.  There a power-off
# with the marker "kp: guest done status=0" is status 0, a panic after
# kp-exit's line is status N, and any other panic (exit 1 without that
# line), power-off without the marker, timeout or QEMU error is a failure.
#
# Hang diagnosis: in run and check mode QEMU reads its console input from a
# pipe that this script holds.  DUMP_LEAD seconds before the timeout the
# script types into it: the QEMU monitor's "info registers -a" (where every
# CPU is), then serial BREAK (ppc64le's hvc0: ^O) + sysrq l (backtrace of
# all CPUs), w (blocked tasks) and d (locks held).  The console line where that starts goes to
# boot.result, so that parse.py can tell the dump from the failure.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

MODE=${1:-run}
case $MODE in
# riscv64 under TCG runs the same tests in 11 - 13 minutes (2 CPUs shared),
# ppc64le's are as slow.
run|check|bench)	TIMEOUT=${TIMEOUT:-$([ -n "$KP_CROSS" ] || [ "$KP_BOOT_CONFIG" = -debug ] && echo 1500 || echo 900)} ;;
shell)		TIMEOUT=${TIMEOUT:-0} ;;
*)		die "unknown mode '$MODE' (run, check, bench or shell)" ;;
esac
# Single-threaded TCG: with one host thread per vCPU (MTTCG), QEMU 7.2 lets
# a vCPU run code another vCPU has just patched back, and upstream's own
# ftrace boot self-test dies with "Oops: int3" in about one boot of four.
# Kprobes patch live text all the time; they need the coherent mode.
ACCEL=${ACCEL:-tcg,thread=single}
DUMP_LEAD=30

KERNEL=$KP_OBJ/$KP_IMAGE_PATH
INITRD=$KP_TREE/initramfs.cpio.gz
# A bench boot keeps files of its own (bench-console.log, ...), so that a
# make check of the same flavour meanwhile does not overwrite them.
P=
[ "$MODE" = bench ] && P=bench-
P=${KP_LOG_PREFIX-$P}
CONSOLE=$KP_DIR/${P}console.log
RESULT=$KP_DIR/${P}boot.result
DUMP_LINE=$KP_DIR/${P}hang-dump.line

mkdir -p "$KP_DIR"
[ -f "$KERNEL" ] || die "no $KERNEL; run make build"
[ -f "$INITRD" ] || die "no $INITRD; run make initramfs"
command -v "$KP_QEMU" >/dev/null || die "$KP_QEMU missing; run make deps"

# ppc64le: the PAPR hypervisor console (spapr-vty) is hvc0; the kernel
# writes to it through hypervisor calls from early boot on (udbg).
console=ttyS0
[ "$KP_ARCH" = ppc64le ] && console=hvc0
append="console=$console panic=-1 kp.mode=$MODE"
# riscv64: the SBI console until the 8250 driver takes over, so that a
# panic before it (which hangs QEMU there) still shows on the console.
[ "$KP_ARCH" = riscv64 ] && append="earlycon=sbi $append"
[ "${KP_INIT_HANG:-}" = 1 ] && append+=" kp.hang=1"
# x86: under TCG the guest's TSC is the host's, but the kernel calibrates
# it against the emulated PIT, which fails on a busy host (seen in CI
# beside a build: "Unable to calibrate against PIT"); sched_clock is then
# jiffies, every event of a jiffy has the same timestamp, and the trace's
# merge of the per-CPU buffers interleaves two CPUs' events at random
# (ftracetest's kretprobe_entry_arg.tc reads the line after an entry event
# as its return event).  The x86-tsc trace clock reads the TSC itself:
# the trace keeps the order in which events happened.
case $KP_ARCH in
"" | i386) append+=" trace_clock=x86-tsc" ;;
esac
# The debug boot (DEBUG=1): the same x86-64 kernel with full preemption
# and kmemleak on, for KUnit, the module tests and the kselftests (the
# fault-injection one among them); ftracetest's cases, which exercise the
# event parser more than kprobes, run in the default boot.
[ "$KP_BOOT_CONFIG" = -debug ] && append+=" preempt=full kmemleak=on kp.ftrace=0"
[ -n "${KP_APPEND:-}" ] && append+=" $KP_APPEND"

# x86: two sockets of one core each: without ACPI the kernel learns the
# CPUs from SeaBIOS's MP table, which lists one CPU per socket.
# riscv64: the virt machine, OpenSBI 1.1 (qemu-system-data) as its
# firmware; its sifive_test device, which kp-exit writes, is always there.
# ppc64le: the pseries machine (a PAPR guest, TCG) with QEMU's minimal
# Open Firmware, VOF (x-vof=on: vof.bin, qemu-system-data), which enters
# vmlinux's prom_init at once, where SLOF takes seconds; a POWER9 CPU
# (radix MMU).  -serial gives the machine its spapr-vty (hvc0).  A guest
# panic (RTAS ibm,os-term) makes QEMU exit with status 1, see above.
# shellcheck disable=SC2054 # the commas belong to QEMU options
qemu=(
	"$KP_QEMU"
	-accel "$ACCEL"
	-nodefaults
	-display none
	-no-reboot
	-chardev "stdio,id=con,mux=on,signal=off,logfile=$CONSOLE"
	-serial chardev:con
	-mon chardev=con,mode=readline
	-kernel "$KERNEL"
	-initrd "$INITRD"
	-append "$append"
)
if [ "$KP_ARCH" = riscv64 ]; then
	# Under -icount, QEMU 7.2's riscv64 virt machine with two harts stops
	# making progress as soon as the guest patches text (stop_machine():
	# measured, the guest's clock runs, no task gets scheduled again);
	# with one hart it runs.  The bench's per-hit numbers do not depend
	# on the second CPU.
	if [ "${ICOUNT:-}" = 1 ]; then
		qemu+=(-M virt -bios default -smp 1)
	else
		qemu+=(-M virt -bios default -smp 2)
	fi
elif [ "$KP_ARCH" = ppc64le ]; then
	# shellcheck disable=SC2054 # the commas belong to QEMU options
	qemu+=(-M pseries,x-vof=on -cpu power9 -smp 2
	       -action panic=exit-failure)
else
	# shellcheck disable=SC2054 # the commas belong to QEMU options
	qemu+=(-smp 2,sockets=2,cores=1,threads=1
	       -device isa-debug-exit,iobase=0xf4,iosize=0x04)
fi
[ "${ICOUNT:-}" = 1 ] && qemu+=(-icount shift=0)
# shellcheck disable=SC2206 # split on purpose: several arguments
[ -n "${KP_QEMU_ARGS:-}" ] && qemu+=($KP_QEMU_ARGS)
# ARCH=i386: lowmem only (CONFIG_NOHIGHMEM keeps 896 MB).  The default
# CPU (qemu32) has what the 686 kernel needs; "-cpu max" would be an AMD
# CPU that the 32-bit kernel warns about with SMP, and would add SMAP.
if [ "$KP_ARCH" = i386 ]; then
	qemu+=(-m 768M)
else
	qemu+=(-m 1G)
fi

# Type the hang diagnosis into QEMU's console input (see above) after $1 s.
hang_dump()
{
	local pid key

	trap 'kill "$pid" 2>/dev/null; exit 0' TERM
	sleep "$1" &
	pid=$!
	wait "$pid"

	wc -l < "$CONSOLE" > "$DUMP_LINE"
	printf '\001c'				# mux: to the QEMU monitor
	sleep 1
	printf 'info registers -a\n'
	sleep 2
	printf '\001c'				# mux: back to the serial port
	sleep 1
	for key in l w d; do
		if [ "$KP_ARCH" = ppc64le ]; then
			printf '\017'		# hvc0: ^O is its sysrq key
		else
			printf '\001b'		# mux: serial BREAK
		fi
		sleep 1
		printf '%s' "$key"
		sleep 5
	done
}

rm -f "$CONSOLE" "$RESULT" "$DUMP_LINE"
note "$KP_FLAVOUR: booting ($MODE, $ACCEL, timeout ${TIMEOUT}s): $append"
start=$(now)
set +e
if [ "$MODE" = shell ]; then
	note "QEMU monitor: Ctrl-A c; quit: Ctrl-A x"
	timeout --foreground -k 10 "$TIMEOUT" "${qemu[@]}"
	rc=$?
	[ -t 0 ] && stty sane
else
	fifo=$KP_DIR/${P}console.in
	rm -f "$fifo"
	mkfifo "$fifo"
	exec 7<>"$fifo"
	rm -f "$fifo"
	watcher=
	if [ "$TIMEOUT" -gt $((2 * DUMP_LEAD)) ]; then
		hang_dump $((TIMEOUT - DUMP_LEAD)) >&7 &
		watcher=$!
	fi
	timeout --foreground -k 10 "$TIMEOUT" "${qemu[@]}" <&7
	rc=$?
	[ -n "$watcher" ] && kill "$watcher" 2>/dev/null && wait "$watcher"
	exec 7>&-
fi
set -e
elapsed=$(( $(now) - start ))

status=
# ppc64le: the status kp-exit's deliberate panic reports, and /init's.
panic_status=$(sed -n 's/.*kp-exit: panic on purpose: guest status \([0-9][0-9]*\).*/\1/p' \
	"$CONSOLE" 2>/dev/null | tail -n 1)
done_status=$(sed -n 's/.*kp: guest done status=\([0-9][0-9]*\).*/\1/p' \
	"$CONSOLE" 2>/dev/null | tail -n 1)
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	result="timeout: QEMU killed after ${TIMEOUT}s"
elif [ "$KP_ARCH" = ppc64le ] && [ "$rc" = 0 ] && [ "$done_status" = 0 ]; then
	status=0
	result="guest status 0 (power-off)"
elif [ "$KP_ARCH" = ppc64le ] && [ "$rc" = 1 ] && [ -n "$panic_status" ]; then
	status=$panic_status
	result="guest status $status (kp-exit's panic on purpose)"
elif [ "$KP_ARCH" = ppc64le ] && [ "$rc" = 1 ]; then
	result="kernel panic (QEMU exited with 1, -action panic=exit-failure)"
elif [ "$KP_ARCH" = ppc64le ] && [ "$rc" = 0 ]; then
	result="power-off or reboot without kp-exit's status 0"
elif [ "$rc" = 0 ]; then
	result="no kp-exit: the guest stopped by itself (panic, reboot or power-off)"
elif [ $((rc & 1)) = 1 ] && [ "$rc" -lt 256 ]; then
	status=$((rc >> 1))
	result="guest status $status"
else
	result="QEMU failed with exit status $rc"
fi
marker=
if ! grep -aq 'kp: guest done status=' "$CONSOLE" 2>/dev/null; then
	marker=", no 'kp: guest done' marker"
	status=
fi

cat > "$RESULT" <<EOF
mode=$MODE
qemu_rc=$rc
seconds=$elapsed
guest_status=$status
hang_dump_line=$(cat "$DUMP_LINE" 2>/dev/null)
result=$result
tree=$KP_TREE
EOF
rm -f "$DUMP_LINE"

note "$KP_FLAVOUR: $MODE boot ended after ${elapsed}s: $result$marker"
[ "$status" = 0 ]
