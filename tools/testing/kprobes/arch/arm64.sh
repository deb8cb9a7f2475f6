# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# arm64: AArch64, BRK breakpoints.  Not ported yet (issue 33): KPROBES
# stays unavailable (HAVE_KPROBES_ARCH_CONTRACT unselected), and make
# matrix's gate builds it.  The keys are described in arch-defaults.sh.

ALIASES='aarch64'
KARCH=arm64
CROSS=aarch64-linux-gnu-
PACKAGES='gcc-aarch64-linux-gnu:aarch64-linux-gnu-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
