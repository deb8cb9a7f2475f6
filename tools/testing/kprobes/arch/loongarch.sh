# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# loongarch: LoongArch64, built with clang-19 (Debian 12 has no
# loongarch64 cross gcc).  Not ported yet (issue 36): KPROBES stays
# unavailable (HAVE_KPROBES_ARCH_CONTRACT unselected), and make matrix's
# gate builds it.  The keys are described in arch-defaults.sh.

ALIASES='loongarch64'
KARCH=loongarch
CROSS=
PACKAGES='clang-19:clang-19 lld-19:ld.lld-19 llvm-19:llvm-ar-19'
PORTED=0
BOOT=0
GATE_DEFCONFIG=defconfig
GATE_LLVM=-19
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
