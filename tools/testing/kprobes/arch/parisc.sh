# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# parisc: 32-bit PA-RISC, kprobes on ftrace.  Not ported yet (issue 35):
# KPROBES stays unavailable (HAVE_KPROBES_ARCH_CONTRACT unselected), and
# make matrix's gate builds it.  The keys are described in arch-
# defaults.sh.

ALIASES='hppa'
KARCH=parisc
CROSS=hppa-linux-gnu-
PACKAGES='gcc-hppa-linux-gnu:hppa-linux-gnu-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=generic-32bit_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
