# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# sparc64: SPARC64.  Not ported yet (issue 36): KPROBES stays unavailable
# (HAVE_KPROBES_ARCH_CONTRACT unselected), and make matrix's gate builds
# it.  The keys are described in arch-defaults.sh.

ALIASES='sparc'
KARCH=sparc
CROSS=sparc64-linux-gnu-
PACKAGES='gcc-sparc64-linux-gnu:sparc64-linux-gnu-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=sparc64_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
