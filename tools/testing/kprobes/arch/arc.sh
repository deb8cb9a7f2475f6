# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# arc: ARC HS.  Not ported yet (issue 36): KPROBES stays unavailable
# (HAVE_KPROBES_ARCH_CONTRACT unselected), and make matrix's gate builds
# it.  The keys are described in arch-defaults.sh.

ALIASES=''
KARCH=arc
CROSS=arc-linux-gnu-
PACKAGES='gcc-arc-linux-gnu:arc-linux-gnu-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=haps_hs_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
