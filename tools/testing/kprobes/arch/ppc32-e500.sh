# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# ppc32-e500: 32-bit BookE, the e500 cores of NXP's QorIQ P1/P2 and
# MPC85xx parts, booted as QEMU's ppce500 machine with an e500mc core.  The powerpc
# back-end with no single-step facility: a copy ends at the trap after
# it, as on Book3S; BookE's MSR has no IR/DR bits, and its own returns
# from interrupts (rfci, rfdi, rfmci) are refused.  A configuration of
# ppc32 (VARIANT_OF): the cross tools, upstream's files and the guest's
# userland are ppc32's, and kprobes-test-ppc32.config is merged before
# kprobes-test-ppc32-e500.config.  The keys are described in
# arch-defaults.sh.

VARIANT_OF=ppc32
ALIASES='e500 ppc-e500'
HELP='cross-built 32-bit powerpc BookE kernel (e500mc), qemu-system-ppc ppce500'
REMOVED=
# Booted by make check-all, not by .ci/run (ppc32's reason).
BOOT=1
CI_BOOT=0
# QEMU's paravirtual e500 board: it makes the device tree itself (a
# 16550 at the CCSR, MPIC, PCI) and loads the ELF vmlinux.  No display.
# The e500mc (the kernel's PPC_E500MC): see the fragment.
MACHINE='-M ppce500 -cpu e500mc'
CONSOLE=ttyS0
# A reboot (the guts' RSTCR) ends QEMU under -no-reboot, as ppc32's does.
EXIT=panic
# The e500v2 SMP kernel (P1/P2 boards): the stock defconfig of the part
# most e500 systems in use have.
GATE_DEFCONFIG=mpc85xx_smp_defconfig
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
GATE_LOST=
# make hitcount: ppc32's keys but the vector.  BookE takes the program
# interrupt through IVOR6 at head_85xx.S's Program (head_booke.h's
# exception prolog) with the MMU on, so no physical PCs to map back.
HITCOUNT_VECTORS=Program
HITCOUNT_REAL_OFFSET=
