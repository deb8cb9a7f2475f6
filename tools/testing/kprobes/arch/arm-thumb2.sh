# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# arm-thumb2: the 32-bit ARM kernel built in the Thumb-2 instruction set
# (THUMB2_KERNEL), as Debian's and Ubuntu's armhf kernels are; the other
# half of our back-end (arch/arm/probes/kprobes/thumb.c).  A configuration
# of arm (VARIANT_OF): every key not set here is arm.sh's (the cross tools,
# the guest and its userland, QEMU's virt machine, CI_BOOT=0), and
# kprobes-test-arm.config is merged before kprobes-test-arm-thumb2.config.
# The keys are described in arch-defaults.sh.

VARIANT_OF=arm
ALIASES='thumb2 arm-t2'
HELP='cross-built 32-bit ARM kernel (Thumb-2), qemu-system-arm virt'
# arm's upstream files (REMOVED) are removed once, for arm.
REMOVED=
# FTRACE_SKIP: arm's (no optimized probes here either, the same fprobe
# and argument-access gaps).
# The gate builds the stock multi_v7 kernel in Thumb-2.
GATE_CONFIG='THUMB2_KERNEL'
# Upstream has no OPTPROBES on Thumb-2 kernels (arch/arm/Kconfig).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
GATE_LOST=
# make hitcount: arm.sh's keys but the return address, which in Thumb
# state has bit 0 set in lr (a pc never has): masked, hitcount.py's return
# test (pc == the entry's RA) and kphit.py's call regions hold.  The
# module's and vmlinux's function symbols carry the Thumb bit too;
# kphit.Elf clears it on any ARM ELF.
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$lr & ~1'
# More skips than arm's: kprobe_opt_types.tc finds "arm*" in uname -m and
# writes the optimization sysctl, which a kernel without OPTPROBES (every
# Thumb-2 kernel, ours and upstream's) does not have.
FTRACE_SKIP_MORE='
kprobe/kprobe_opt_types.tc|no OPTPROBES on a Thumb-2 kernel (upstream neither): the case writes the optimization sysctl
'
