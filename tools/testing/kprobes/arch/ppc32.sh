# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# ppc32: 32-bit powerpc (PowerMac), the powerpc back-end is 64-bit only.
# Not ported yet (issue 34): KPROBES stays unavailable
# (HAVE_KPROBES_ARCH_CONTRACT unselected), and make matrix's gate builds
# it.  The keys are described in arch-defaults.sh.

ALIASES='powerpc32 ppc'
KARCH=powerpc
CROSS=powerpc-linux-gnu-
PACKAGES='gcc-powerpc-linux-gnu:powerpc-linux-gnu-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=pmac32_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
