# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# mips: 32-bit big-endian MIPS (Malta).  Not ported yet (issue 35):
# KPROBES stays unavailable (HAVE_KPROBES_ARCH_CONTRACT unselected), and
# make matrix's gate builds it.  The keys are described in arch-
# defaults.sh.

ALIASES=''
KARCH=mips
CROSS=mips-linux-gnu-
PACKAGES='gcc-mips-linux-gnu:mips-linux-gnu-gcc'
PORTED=0
BOOT=0
GATE_DEFCONFIG=malta_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
