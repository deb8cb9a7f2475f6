# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# arc: ARC HS (ARCv2), unimp_s probes stepped in place with trap_s 2
# planted at the successors, kretprobes (arch/arc/kernel/probes/).  SMP
# kernels build without kprobes (arch/arc/Kconfig selects our contract
# only without SMP: writing the text from the trap is sound on one CPU
# only).  Built, never run: there is no arc system emulator here.  The
# keys are described in arch-defaults.sh.

ALIASES=''
KARCH=arc
CROSS=arc-linux-gnu-
PACKAGES='gcc-arc-linux-gnu:arc-linux-gnu-gcc'
PORTED=1
# No QEMU for arc in Debian 12 (nor upstream QEMU 7.2): built by the gate.
BOOT=0
# Upstream's kprobes: one file and its header (no rethook on arc 6.12:
# its kretprobe trampoline is a probed nop in kprobes.c).
REMOVED='
arch/arc/kernel/kprobes.c
arch/arc/include/asm/kprobes.h
'
GATE_DEFCONFIG=haps_hs_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
