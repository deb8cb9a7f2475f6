# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# arm64: AArch64, BRK breakpoints; cross-built, booted in
# qemu-system-aarch64 (virt).
# The keys are described in arch-defaults.sh.

ALIASES='aarch64'
KARCH=arm64
CROSS=aarch64-linux-gnu-
PORTED=1
BOOT=1
HELP='cross-built arm64 kernel, qemu-system-aarch64 virt'
# The cross gcc is also the gate's (make matrix installs the PACKAGES
# of the files with a GATE_DEFCONFIG).  QEMU's virt machine needs no
# firmware: QEMU itself loads Image and implements PSCI (power-off, CPU
# bring-up).
PACKAGES='
gcc-aarch64-linux-gnu:aarch64-linux-gnu-gcc
qemu-system-arm:qemu-system-aarch64
'

# Upstream's kprobes (its kretprobe trampoline included: arm64 6.12 has
# no rethook).  The directory's Makefile is ours; uprobes.c and the
# decode-insn/simulate-insn pair it uses stay upstream's.
REMOVED='
arch/arm64/kernel/probes/kprobes.c
arch/arm64/kernel/probes/kprobes_trampoline.S
arch/arm64/kernel/probes/Makefile
arch/arm64/include/asm/kprobes.h
'

# Debian's arm64 busybox-static and bash-static, downloaded and unpacked
# by deps.sh as i386's (Debian has an arm64 port); the guest's helpers
# are built with the cross compiler and libc6-dev-arm64-cross.
USERLAND=debian
DEB_ARCH=arm64
QEMU=qemu-system-aarch64
IMAGE=Image
IMAGE_PATH=arch/arm64/boot/Image
# The virt machine (GICv2, PL011, PSCI through HVC), entered by QEMU's
# own boot code at EL1.  -cpu max has pointer authentication, which the
# kernel uses (kprobes-test-arm64.config); pauth-impdef=on makes QEMU
# compute the PAC with a cheap hash instead of QARMA5, whose emulation in
# every function's prologue and epilogue costs TCG most of its time (the
# kernel's kunit config uses it for the same reason): measured, a boot
# through upstream's kprobes_test KUnit suite took 11 s with it, 50 s
# with plain -cpu max.
MACHINE='-M virt -cpu max,pauth-impdef=on'
# virt has no exit device (EXIT=panic): kp-exit 0 powers off (PSCI
# SYSTEM_OFF: QEMU exits with 0), any other status panics on purpose,
# and the pvpanic PCI device (CONFIG_PVPANIC_PCI) tells QEMU of the
# panic, which -action panic=exit-failure turns into exit status 1.
QEMU_EXTRA='-device pvpanic-pci -action panic=exit-failure'
EXIT=panic
# The PL011, also as early console (the device tree's stdout-path), so
# that a panic before the driver's probe still shows.
CONSOLE=ttyAMA0
APPEND_FIRST='earlycon'
# hostile_input.sh registers its probes at function entries, which are
# jump-optimized here (no ftrace probes): the optimizer's detours, IPIs
# and grace periods come with every input.  57 s without optimization,
# past the kselftest settings' 120 s with it on a loaded host (2026-12-05).
APPEND='kp.test_timeout=300'
# KASAN, kmemleak and lockdep (kprobes-test-arm64.config): measured below.
BOOT_TIMEOUT=1500
# make hitcount: a call's return address is in x30 at the callee's first
# instruction (before its paciasp signs it).  The BRK exceptions of the
# probes and of the steps enter the vector table; with the Spectre-BHB
# mitigation VBAR_EL1 may be __bp_harden_el1_vectors, which branches to
# vectors.
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$x30'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$x0 $x1 $x2 $x3'
HITCOUNT_VECTORS='vectors __bp_harden_el1_vectors'
# As riscv64 and ppc64le, the arch-independent ftracetest cases are left
# to x86 (each costs 10 - 30 s under TCG).  Ours probes a traceable
# function's entry through ftrace (KPROBES_ON_FTRACE on
# DYNAMIC_FTRACE_WITH_ARGS, kprobes-test-arm64.config), upstream with a
# BRK on the "mov x9, x30" before ftrace's call: kprobe_ftrace.tc,
# multiple_kprobes.tc and kprobe-direct.tc run on both.  fprobe stays
# out: in 6.12 it needs DYNAMIC_FTRACE_WITH_REGS and rethook.
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP='
kprobe/kprobe_opt_types.tc|the case knows uname -m x86_64, arm* and ppc*, not aarch64 (it exits UNSUPPORTED); optimized probes are kselftests here
dynevent/add_remove_fprobe.tc|no fprobe on arm64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_args_vfs.tc|no fprobe on arm64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_entry_arg.tc|no fprobe on arm64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_syntax_errors.tc|no fprobe on arm64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/tprobe_syntax_errors.tc|no fprobe on arm64 6.12, tprobes use it
'
# QEMU's "info registers" on aarch64: " PC=ffff800080012345 X00=...".
HANG_PC='\s*PC='
# The gate row stays (unlike the other booted architectures'): defconfig
# builds what the test kernel leaves out (ACPI, EFI, KVM, the errata
# workarounds, ...), and a ported row fails if ours loses an option.
GATE_DEFCONFIG=defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
