# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# ppc32-8xx: the MPC8xx PowerQUICC cores (MPC866, MPC885), embedded
# 32-bit powerpc with their own MMU.  The powerpc back-end as everywhere:
# no single-step facility, a copy ends at the trap after it.  A
# configuration of ppc32 (VARIANT_OF): the cross tools and upstream's
# files are ppc32's.  No QEMU machine models an 8xx.  The keys are
# described in arch-defaults.sh.

VARIANT_OF=ppc32
ALIASES='8xx ppc-8xx'
HELP='32-bit powerpc 8xx, built by the gate'
REMOVED=
BOOT=0
CI_BOOT=
# mpc885_ads_defconfig turns on the CPM microcode patch, whose source
# (micropatch.c) Debian strips from its linux-source as non-free.
GATE_DEFCONFIG=tqm8xx_defconfig
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
GATE_LOST=
HITCOUNT_GDB=
