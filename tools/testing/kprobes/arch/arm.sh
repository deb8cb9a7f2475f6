# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# arm: 32-bit ARM (ARMv7, Thumb-2 kernel), undefined-instruction
# breakpoints.  Not ported yet (issue 34): KPROBES stays unavailable
# (HAVE_KPROBES_ARCH_CONTRACT unselected), and make matrix's gate builds
# it.  The keys are described in arch-defaults.sh.

ALIASES='arm32'
KARCH=arm
CROSS=arm-linux-gnueabihf-
PACKAGES='gcc-arm-linux-gnueabihf:arm-linux-gnueabihf-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=multi_v7_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS OPTPROBES'
