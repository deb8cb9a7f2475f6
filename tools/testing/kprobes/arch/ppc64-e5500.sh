# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# ppc64-e5500: 64-bit BookE (NXP QorIQ e5500/e6500: T-series, P5).  Not
# ported: its exception code (exceptions-64e.S, the TLB miss handlers)
# lies outside the head text, and the powerpc back-end has no bounds for
# it yet, so HAVE_KPROBES_ARCH_CONTRACT stays unselected there
# (arch/powerpc/Kconfig) and KPROBES unavailable.  The gate row checks
# that the stock defconfig still builds.  A configuration of ppc64le
# (VARIANT_OF) for the cross tools: the big-endian kernel is built with
# the little-endian compiler (kbuild passes -mbig-endian).  The keys are
# described in arch-defaults.sh.

VARIANT_OF=ppc64le
ALIASES='e5500 ppc64e'
HELP='64-bit powerpc BookE (e5500), not ported, built by the gate'
REMOVED=
PORTED=0
BOOT=0
CI_BOOT=
GATE_DEFCONFIG=corenet64_smp_defconfig
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
HITCOUNT_GDB=
