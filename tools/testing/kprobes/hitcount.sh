#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hitcount.sh - where the instructions of a probe hit go (the arches with
# HITCOUNT_GDB in their arch/<name>.sh: x86-64, riscv64).
#
# Boots the flavour's kernel and initramfs (build them first: "make
# initramfs PROD=1" for the bench's production config) through boot.sh
# in bench mode with three calls per case, QEMU's gdbstub on and the guest
# stopped at its first instruction (KP_QEMU_ARGS), and lets gdb run
# hitcount.py against it: every call of the functions in
# HITCOUNT_FUNCS is single-stepped to its return and reported, one line
# per hit, in $KP_DIR/hitcount.txt, with the instructions per function.
# The bench (make bench) says how much a hit costs; this says where.
# Under -icount one instruction is one guest nanosecond, so the counts are
# the bench's units.
#
# HITCOUNT_FUNCS  functions to count [arch_optprobe_handler
#                 kretprobe_trampoline_handler]
# HITCOUNT_N      hits to count before gdb detaches [18: the bench's o, ro,
#                 kr entries and r, ro, kr returns, three calls each]

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

out=$KP_DIR/hitcount.txt
port=$((20000 + $$ % 10000))
rm -f "$out"
# boot.sh's bench boot, stopped at the first instruction for gdb; its
# files are hitcount-*, not the bench's.
KP_QEMU_ARGS="-gdb tcp::$port -S" KP_LOG_PREFIX=hitcount- TIMEOUT=900 \
	KP_APPEND="tsc=reliable kunit.enable=0 kpbench.iters=3 kpbench.reps=1 kpbench.mass_max=0" \
	"$KP_TOOLS/boot.sh" bench > "$KP_DIR/hitcount-boot.log" 2>&1 &
boot=$!
sleep 2
HITCOUNT_OUT=$out timeout 900 "$gdb" -q -batch -ex "file $KP_OBJ/vmlinux" \
	-ex "target remote :$port" -x "$KP_TOOLS/hitcount.py" \
	> "$KP_DIR/hitcount-gdb.log" 2>&1 || true
wait "$boot" || die "the boot failed (see $KP_DIR/hitcount-boot.log)"
[ -s "$out" ] || die "no hit counted (see $KP_DIR/hitcount-gdb.log)"
cat "$out"
