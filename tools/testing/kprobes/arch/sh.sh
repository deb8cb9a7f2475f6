# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# sh: SuperH SH-4, trapa probes stepped from slots, pc-relative
# instructions and delayed branches computed in the trap
# (arch/sh/kernel/probes/).  The keys are described in arch-defaults.sh.

ALIASES='sh4'
KARCH='sh'
CROSS=sh4-linux-gnu-
PACKAGES='gcc-sh4-linux-gnu:sh4-linux-gnu-gcc'
PORTED=1
# Not booted yet (issue 36): the keys below build the test kernel and
# its initramfs, but QEMU 7.2's r2d never gets past the zImage's
# decompressor: decompress_kernel() ends in one of its error loops
# ("bra ." in arch/sh/boot/compressed/misc.c's inlined error()), with the
# test kernel as with rts7751r2dplus_defconfig, gzip or xz, before any
# kernel code runs and with nothing on the console (2026-12-05).  Set
# BOOT=1 and CI_BOOT=0 once it boots.
BOOT=0

# Upstream's kprobes: one file and its header (sh 6.12 has no rethook:
# its kretprobe trampoline is a probed nop in kprobes.c).
# kprobe_handle_illslot(), which traps_32.c calls, is in our header.
REMOVED='
arch/sh/kernel/kprobes.c
arch/sh/include/asm/kprobes.h
'

# Debian 12 has sh4 only in debian-ports: deps.sh builds busybox and
# bash from Debian's sources, as for riscv64 and parisc;
# libc6-dev-sh4-cross links the guest's helpers.
USERLAND=source
DEB_ARCH=sh4
QEMU=qemu-system-sh4
# QEMU's r2d loads the raw image at the board's load address.
IMAGE=zImage
IMAGE_PATH=arch/sh/boot/zImage
MACHINE='-M r2d'
SMP=1
# r2d has 64 MB of SDRAM and refuses any other -m.
MEM=64M
# serial 0 is the SCI, serial 1 the SCIF: ttySC1
CONSOLE=ttySC1
CONSOLE_SERIAL=1
EXIT=panic
BOOT_TIMEOUT=1500

# SH7785 (SH-4A, movli.l/movco.l atomics), the board's stock config.
GATE_DEFCONFIG=r7785rp_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
# kpbench.ko has no sh probe targets (kpbench_targets.S) yet.
KPBENCH=0
