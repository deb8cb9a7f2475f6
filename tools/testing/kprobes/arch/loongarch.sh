# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# loongarch: LoongArch64, built with clang-19 (Debian 12 has no
# loongarch64 cross gcc).  break-instruction probes stepped from slots,
# pc-relative instructions and branches simulated, kprobes on ftrace,
# kretprobes (arch/loongarch/kernel/probes/).  Built, never run: QEMU
# 7.2's virt machine starts a -kernel ELF at its entry with a0 - a2 zero
# (measured 2026-12-05: no EFI system table, command line or device
# tree), which a 6.12 kernel cannot boot from, and Debian 12 has no
# LoongArch EDK2 firmware.  The keys are described in arch-defaults.sh.

ALIASES='loongarch64'
KARCH=loongarch
CROSS=
PACKAGES='clang-19:clang-19 lld-19:ld.lld-19 llvm-19:llvm-ar-19'
PORTED=1
BOOT=0
# Upstream's kprobes: kprobes.c and its header.  Its kprobe_ftrace_handler()
# and arch_prepare_kprobe_ftrace() at the end of ftrace_dyn.c are taken
# out by patches/0021; rethook.c stays for fprobe.
REMOVED='
arch/loongarch/kernel/kprobes.c
arch/loongarch/include/asm/kprobes.h
'
GATE_DEFCONFIG=defconfig
GATE_LLVM=-19
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
