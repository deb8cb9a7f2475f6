# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# s390: s390x, kprobes on ftrace and rethook.  Not ported yet (issue 35):
# KPROBES stays unavailable (HAVE_KPROBES_ARCH_CONTRACT unselected), and
# make matrix's gate builds it.  The keys are described in arch-
# defaults.sh.

ALIASES='s390x'
KARCH=s390
CROSS=s390x-linux-gnu-
PACKAGES='gcc-s390x-linux-gnu:s390x-linux-gnu-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
