# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# sparc64: 64-bit SPARC, "ta 0x70" probes stepped from slots ending in
# "ta 0x71", the pc pair moved back from the slot after a control
# transfer (arch/sparc/kernel/probes/).  32-bit sparc has no kprobes,
# upstream or here.  The keys are described in arch-defaults.sh.

ALIASES='sparc'
KARCH=sparc
CROSS=sparc64-linux-gnu-
PACKAGES='gcc-sparc64-linux-gnu:sparc64-linux-gnu-gcc'
PORTED=1
BOOT=0

# Upstream's kprobes: one file and its header (sparc64 6.12 has no
# rethook: its kretprobe trampoline is a probed nop in kprobes.c).  The
# trap table's KPROBES_TRAP entries (asm/ttable.h) call kprobe_trap(),
# which the back-end keeps.
REMOVED='
arch/sparc/kernel/kprobes.c
arch/sparc/include/asm/kprobes.h
'

GATE_DEFCONFIG=sparc64_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
