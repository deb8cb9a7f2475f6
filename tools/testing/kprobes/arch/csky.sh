# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# csky: C-SKY.  Not ported yet (issue 36): KPROBES stays unavailable
# (HAVE_KPROBES_ARCH_CONTRACT unselected).  Nothing here compiles it, so
# make matrix's gate row only says so.  The keys are described in
# arch-defaults.sh.

ALIASES=''
KARCH=csky
CROSS=
PACKAGES=''
PORTED=0
BOOT=0
GATE_DEFCONFIG=defconfig
# Debian 12 has no csky cross compiler, and clang-19 has no csky target
# that builds the kernel (LLVM=1 is not supported by arch/csky): the gate
# row says so and counts as skipped.
GATE_UNBUILDABLE='no csky toolchain here (Debian 12: no gcc-csky, clang has no kernel support)'
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
