#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hitcount.sh - where the instructions of a probe hit go (the arches with
# HITCOUNT_GDB in their arch/<name>.sh): the base's trap, kprobes' own
# work, the user's handler, for every path of the bench.
#
# Boots the flavour's kernel and initramfs (build them first: "make
# initramfs PROD=1 [BASELINE=1]" for the bench's production config)
# through boot.sh in bench mode with three calls per path (no mass
# registration, no perf probes), QEMU's gdbstub
# on and the guest stopped at its first instruction (KP_QEMU_ARGS), and
# lets gdb run hitcount.py against it: every call of a probed function of
# the bench is single-stepped to its return, the trace in
# $KP_DIR/hitcount-trace.txt.  kphit.py then classifies each instruction
# (its opening comment says how) and writes $KP_DIR/hitcount.txt (per
# hit: the counts and the functions of each class) and hitcount.csv (per
# path, the last call), and, once both flavours have one,
# $BUILD/hitcount<arch suffix><config>.csv and the table
# "path | baseline trap | baseline own | ours trap | ours own | own ratio".
# The bench (make bench) says how much a hit costs; this says where.
# Under -icount one instruction is one guest nanosecond, so the counts are
# the bench's units.
#
# HITCOUNT_N      hits to trace before gdb detaches [21: three calls of
#                 each of the seven paths]

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# The arch's HITCOUNT_GDB: empty where hitcount.py does not know the calls.
gdb=$(kp_arch HITCOUNT_GDB)
if [ -z "$gdb" ]; then
	known=
	for a in "${KP_ARCHES[@]}"; do
		# shellcheck disable=SC2031 # an index, not a variable
		[ -n "${KP_ARCHDATA[$a.HITCOUNT_GDB]}" ] && known+=" $a"
	done
	die "only${known:-} (hitcount.py knows their calls)"
fi
command -v "$gdb" >/dev/null || die "$gdb missing (apt-get install $gdb)"
KERNEL=$KP_OBJ/$KP_IMAGE_PATH
INITRD=$KP_TREE/initramfs.cpio.gz
if ! [ -f "$KERNEL" ] || ! [ -f "$INITRD" ]; then
	die "$KP_FLAVOUR is not built (make initramfs)"
fi

ko=$KP_TREE/initramfs/bench/kpbench.ko
[ -f "$ko" ] || die "$ko missing (make initramfs)"
out=$KP_DIR/hitcount-trace.txt
port=$((20000 + $$ % 10000))
# A kernel that runs away from its link address (s390) has gdb's symbols
# moved by the arch file's HITCOUNT_KERNEL_OFFSET, and kphit.py's.
offset=$(kp_arch HITCOUNT_KERNEL_OFFSET)
symbols="file $KP_OBJ/vmlinux"
[ -n "$offset" ] && symbols="symbol-file -o $offset $KP_OBJ/vmlinux"
rm -f "$out" "$KP_DIR/hitcount.txt" "$KP_DIR/hitcount.csv"
# boot.sh's bench boot, stopped at the first instruction for gdb; its
# files are hitcount-*, not the bench's; under -icount where the arch
# file's HITCOUNT_ICOUNT says so.
ICOUNT=$(kp_arch HITCOUNT_ICOUNT) KP_QEMU_ARGS="-gdb tcp::$port -S" KP_LOG_PREFIX=hitcount- TIMEOUT=900 \
	KP_APPEND="tsc=reliable kunit.enable=0 kpbench.iters=3 kpbench.reps=1 kpbench.mass_max=0 kp.bench_perf=0" \
	"$KP_TOOLS/boot.sh" bench > "$KP_DIR/hitcount-boot.log" 2>&1 &
boot=$!
sleep 2
HITCOUNT_OUT=$out HITCOUNT_KO=$ko HITCOUNT_VMLINUX=$KP_OBJ/vmlinux HITCOUNT_TOOLS=$KP_TOOLS \
	HITCOUNT_RA=$(kp_arch HITCOUNT_RA) HITCOUNT_ARGS=$(kp_arch HITCOUNT_ARGS) \
	HITCOUNT_STEP=$(kp_arch HITCOUNT_STEP) HITCOUNT_STACK_UP=$(kp_arch HITCOUNT_STACK_UP) \
	timeout 900 "$gdb" -q -batch -ex "$symbols" \
	-ex "target remote :$port" -x "$KP_TOOLS/hitcount.py" \
	> "$KP_DIR/hitcount-gdb.log" 2>&1 || true
# The hits are traced by the time kpbench is unloaded: a failure of the
# bench boot after it (upstream riscv64 refuses kp-perf's entry probes,
# so its guest ends with status 1) loses nothing of the trace.
wait "$boot" || note "the boot failed (see $KP_DIR/hitcount-boot.log)"
grep -q '^hit ' "$out" || die "no hit traced (see $KP_DIR/hitcount-gdb.log)"
KP_FLAVOUR=$KP_FLAVOUR KP_REMOVED="${KP_REMOVED[*]}" HITCOUNT_VECTORS=$(kp_arch HITCOUNT_VECTORS) \
	HITCOUNT_REAL_OFFSET=$(kp_arch HITCOUNT_REAL_OFFSET) HITCOUNT_KERNEL_OFFSET=$offset \
	HITCOUNT_STACK_UP=$(kp_arch HITCOUNT_STACK_UP) HITCOUNT_BASELINE_OWN=$(kp_arch HITCOUNT_BASELINE_OWN) \
	"$KP_TOOLS/kphit.py" split "$KP_DIR" "$KP_REPO" ||
	die "kphit.py split failed"
# The pair of trees to set side by side: make bench's KP_TREE_NAME puts a
# flavour in <flavour><suffix> (bench.sh), the default trees are
# <flavour><arch suffix><config>.
suffix=$KP_ARCH_SUFFIX$KP_CONFIG
case ${KP_TREE_NAME:-} in
"$KP_FLAVOUR"?*)	suffix=${KP_TREE_NAME#"$KP_FLAVOUR"} ;;
esac
"$KP_TOOLS/kphit.py" table "$BUILD" "$suffix"
