# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# ppc32-44x: 32-bit BookE, the PowerPC 440 and 460 (AMCC/AppliedMicro
# boards: bamboo, canyonlands, sam460ex).  The powerpc back-end as on
# e500 (ppc32-e500.sh): no single-step facility, a copy ends at the trap
# after it.  A configuration of ppc32 (VARIANT_OF): the cross tools and
# upstream's files are ppc32's.  The keys are described in
# arch-defaults.sh.

VARIANT_OF=ppc32
ALIASES='44x ppc-44x'
HELP='32-bit powerpc BookE (440/460), built by the gate'
REMOVED=
# Not booted yet: gate row only.
BOOT=0
CI_BOOT=
# The 440EP board that QEMU models too (bamboo), its stock defconfig.
GATE_DEFCONFIG=44x/bamboo_defconfig
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
GATE_LOST=
HITCOUNT_GDB=
