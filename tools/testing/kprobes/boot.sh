#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh MODE - boot the flavour's kernel and initramfs in QEMU.
#
# MODE is run, check, bench or shell (the guest's /init reads it as
# kp.mode=), or tools (make check-tools): the tools initramfs
# (mkinitramfs.sh tools, whose /init is tools-init) with the arch's
# TOOLS_MEM of memory, KUnit off (kunit.enable=0: make check runs it),
# the console in tools-console.log and the result in tools-boot.result.  The serial console goes to stdout and to
# $BUILD/<flavour>/console.log; how the boot ended goes to
# $BUILD/<flavour>/boot.result for parse.py.
#
# Environment:
#   TIMEOUT=SECS     stop QEMU after SECS (default: the arch's BOOT_TIMEOUT,
#                    900 unless its file says otherwise, 1500 for DEBUG=1;
#                    none for shell)
#   ICOUNT=1         deterministic instruction counting (-icount shift=0)
#   ACCEL=...        QEMU accelerator (default tcg,thread=single, see below)
#   KP_INIT_HANG=1   make /init hang, to test the timeout
#   KP_APPEND=...    extra kernel command-line arguments
#   KP_QEMU_ARGS=... extra QEMU arguments, split at white space
#                    (hitcount.sh: its gdbstub)
#   KP_LOG_PREFIX=   prefix of this boot's files in the flavour dir, instead
#                    of the mode's ("bench-" for bench, none otherwise)
#   KP_DRY_RUN=1     print the timeout and the QEMU command line, boot
#                    nothing (no file is written)
#
# What QEMU runs (machine, CPU, memory, console, kernel arguments) is the
# architecture's file, arch/<name>.sh, and so is how the guest ends (EXIT):
# with EXIT=debug-exit the guest stops QEMU through an exit device (x86:
# isa-debug-exit; riscv64: the sifive_test device, written so as to give
# the same), which makes QEMU exit with status (guest status << 1) | 1.  Any other ending - a timeout, a
# panic (panic=-1 reboots, -no-reboot turns that into an exit with status 0),
# a QEMU error - is a failure, and so is a console without the guest's
# "kp: guest done" marker.
# EXIT=panic, for a machine without an exit device (ppc64le's pseries,
# arm64's virt): kp-exit powers the machine off for
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
# CPU is), then serial BREAK (SYSRQ=ctrl-o, hvc0: ^O) + sysrq l (backtrace of
# all CPUs), w (blocked tasks) and d (locks held).  The console line where that starts goes to
# boot.result, so that parse.py can tell the dump from the failure.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

MODE=${1:-run}
case $MODE in
# The debug boot (DEBUG=1) takes longer than the default one.
run|check|bench|tools)	if [ "$KP_BOOT_CONFIG" = -debug ]; then
			TIMEOUT=${TIMEOUT:-1500}
		else
			TIMEOUT=${TIMEOUT:-$(kp_arch BOOT_TIMEOUT)}
		fi ;;
shell)		TIMEOUT=${TIMEOUT:-0} ;;
*)		die "unknown mode '$MODE' (run, check, bench, tools or shell)" ;;
esac
# Single-threaded TCG: with one host thread per vCPU (MTTCG), QEMU 7.2 lets
# a vCPU run code another vCPU has just patched back, and upstream's own
# ftrace boot self-test dies with "Oops: int3" in about one boot of four.
# Kprobes patch live text all the time; they need the coherent mode.
ACCEL=${ACCEL:-tcg,thread=single}
DUMP_LEAD=30

KERNEL=$KP_OBJ/$KP_IMAGE_PATH
INITRD=$KP_TREE/initramfs.cpio.gz
MEM=$(kp_arch MEM)
if [ "$MODE" = tools ]; then
	INITRD=$KP_TREE/tools-initramfs.cpio
	MEM=$(kp_arch TOOLS_MEM)
fi
# A bench boot keeps files of its own (bench-console.log, ...), so that a
# make check of the same flavour meanwhile does not overwrite them.
P=
[ "$MODE" = bench ] && P=bench-
[ "$MODE" = tools ] && P=tools-
P=${KP_LOG_PREFIX-$P}
CONSOLE=$KP_DIR/${P}console.log
RESULT=$KP_DIR/${P}boot.result
DUMP_LINE=$KP_DIR/${P}hang-dump.line

DRY=${KP_DRY_RUN:-}
if [ "$DRY" != 1 ]; then
	mkdir -p "$KP_DIR"
	[ -f "$KERNEL" ] || die "no $KERNEL; run make build"
	[ -f "$INITRD" ] || die "no $INITRD; run make initramfs (tools: make check-tools)"
	command -v "$KP_QEMU" >/dev/null || die "$KP_QEMU missing; run make deps"
fi
EXIT=$(kp_arch EXIT)
case $EXIT in
debug-exit|panic)	;;
*)		die "arch/${KP_ARCH:-x86_64}.sh: EXIT must be debug-exit or panic, not '$EXIT'" ;;
esac

append="console=$(kp_arch CONSOLE) panic=-1 kp.mode=$MODE"
[ -n "$(kp_arch APPEND_FIRST)" ] && append="$(kp_arch APPEND_FIRST) $append"
[ "${KP_INIT_HANG:-}" = 1 ] && append+=" kp.hang=1"
[ -n "$(kp_arch APPEND)" ] && append+=" $(kp_arch APPEND)"
# The debug boot (DEBUG=1): the same x86-64 kernel with full preemption
# and kmemleak on, for KUnit, the module tests and the kselftests (the
# fault-injection one among them); ftracetest's cases, which exercise the
# event parser more than kprobes, run in the default boot.
[ "$KP_BOOT_CONFIG" = -debug ] && append+=" preempt=full kmemleak=on kp.ftrace=0"
[ "$MODE" = tools ] && append+=" kunit.enable=0"
[ -n "${KP_APPEND:-}" ] && append+=" $KP_APPEND"

# The machine: the arch's MACHINE, -smp SMP (SMP_ICOUNT under ICOUNT=1),
# QEMU_EXTRA, MEM.
smp=$(kp_arch SMP)
[ "${ICOUNT:-}" = 1 ] && [ -n "$(kp_arch SMP_ICOUNT)" ] && smp=$(kp_arch SMP_ICOUNT)
read -ra machine <<< "$(kp_arch MACHINE)"
read -ra extra <<< "$(kp_arch QEMU_EXTRA)"
serial=()
for ((i = 0; i < $(kp_arch CONSOLE_SERIAL); i++)); do
	serial+=(-serial null)
done
# shellcheck disable=SC2054 # the commas belong to QEMU options
qemu=(
	"$KP_QEMU"
	-accel "$ACCEL"
	-nodefaults
	-display none
	-no-reboot
	-chardev "stdio,id=con,mux=on,signal=off,logfile=$CONSOLE"
	"${serial[@]}"
	-serial chardev:con
	-mon chardev=con,mode=readline
	-kernel "$KERNEL"
	-initrd "$INITRD"
	-append "$append"
	"${machine[@]}"
	-smp "$smp"
	"${extra[@]}"
)
[ "${ICOUNT:-}" = 1 ] && qemu+=(-icount shift=0)
# shellcheck disable=SC2206 # split on purpose: several arguments
[ -n "${KP_QEMU_ARGS:-}" ] && qemu+=($KP_QEMU_ARGS)
qemu+=(-m "$MEM")

if [ "$DRY" = 1 ]; then
	echo "timeout=$TIMEOUT"
	printf '%q ' "${qemu[@]}"
	echo
	exit 0
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
		if [ "$(kp_arch SYSRQ)" = ctrl-o ]; then
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
# EXIT=panic: the status kp-exit's deliberate panic reports, and /init's.
panic_status=$(sed -n 's/.*kp-exit: panic on purpose: guest status \([0-9][0-9]*\).*/\1/p' \
	"$CONSOLE" 2>/dev/null | tail -n 1)
done_status=$(sed -n 's/.*kp: guest done status=\([0-9][0-9]*\).*/\1/p' \
	"$CONSOLE" 2>/dev/null | tail -n 1)
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	result="timeout: QEMU killed after ${TIMEOUT}s"
elif [ "$EXIT" = panic ] && [ "$rc" = 0 ] && [ "$done_status" = 0 ]; then
	status=0
	result="guest status 0 (power-off)"
elif [ "$EXIT" = panic ] && [ "$rc" = 1 ] && [ -n "$panic_status" ]; then
	status=$panic_status
	result="guest status $status (kp-exit's panic on purpose)"
elif [ "$EXIT" = panic ] && [ "$rc" = 1 ]; then
	result="kernel panic (QEMU exited with 1, -action panic=exit-failure)"
elif [ "$EXIT" = panic ] && [ "$rc" = 0 ]; then
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
