# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# ppc32: the powerpc back-end on 32-bit Book3S (PowerMac), cross-built,
# booted as a mac99 guest in qemu-system-ppc.
# The keys are described in arch-defaults.sh.

ALIASES='powerpc32 ppc'
KARCH=powerpc
CROSS=powerpc-linux-gnu-
PORTED=1
BOOT=1
# Booted by make check-all, not by .ci/run: CI builds its gate row only
# (README, CI: the cold run's budget).
CI_BOOT=0
HELP='cross-built 32-bit powerpc kernel, qemu-system-ppc mac99'
# QEMU's PowerMac machines and their firmware, OpenBIOS
# (qemu-system-data).
PACKAGES='
gcc-powerpc-linux-gnu:powerpc-linux-gnu-gcc
qemu-system-ppc:qemu-system-ppc
qemu-system-data:/usr/share/qemu/openbios-ppc
'

# Upstream's kprobes, its ftrace and jump-optimization halves, and its
# rethook: the same files as ppc64le's (one powerpc back-end).
REMOVED='
arch/powerpc/kernel/kprobes.c
arch/powerpc/kernel/kprobes-ftrace.c
arch/powerpc/kernel/optprobes.c
arch/powerpc/kernel/optprobes_head.S
arch/powerpc/kernel/rethook.c
arch/powerpc/include/asm/kprobes.h
'

# Debian 12 has no 32-bit powerpc port (it is in debian-ports): deps.sh
# builds busybox and bash from Debian's sources, as for riscv64.
USERLAND=source
DEB_ARCH=powerpc
QEMU=qemu-system-ppc
# vmlinux itself: OpenBIOS loads the ELF (-kernel) and enters it through
# prom_init.
IMAGE=vmlinux
IMAGE_PATH=vmlinux
# The PowerMac G4 (mac99): measured against g3beige (G3) and ppce500 in
# tools/testing/kprobes/README.  OpenBIOS needs a display for its
# stdout, which prom_init writes to: without one (-nodefaults) the boot
# hangs in the firmware, so the standard VGA is added back.  QEMU's
# PowerMacs have one CPU.
MACHINE='-M mac99 -vga std'
SMP=1
# No exit device: power-off (CUDA) ends QEMU with 0.  pvpanic-pci reads
# back no capability on mac99 (QEMU 7.2), so a panic on purpose is a
# reboot, which -no-reboot ends with 0 too: boot.sh tells a guest status
# other than 0 from the console ("power-off or reboot without kp-exit's
# status 0"), a failure either way.
EXIT=panic
MEM=512M
# The ESCC's first port (pmac_zilog).
CONSOLE=ttyPZ0
BOOT_TIMEOUT=1500
# Tests that hang ppc64le's guest of upstream's kprobes (BASELINE=1, see
# arch/ppc64le.sh): upstream's 32-bit code is the same (optprobes.c,
# optprobes_head.S, kprobes.c, and do_program_check not blacklisted), so
# they are not run on ppc32's baseline either; not measured there.
NOTRUN_BASELINE="
kprobes:optimization_sysctl.sh|hangs upstream's ppc64le guest (a read(2) spins in an optimized probe's detour on ksys_read); the same upstream code on 32-bit, not run
kprobes:optimized_scan.sh|hangs upstream's ppc64le guest (a read(2) spins in an optimized probe's detour on ksys_read); the same upstream code on 32-bit, not run
ftrace:kprobe/multiple_kprobes.tc|hangs upstream's ppc64le guest (a probe on do_program_check, not blacklisted upstream, traps in the trap handler); the same upstream code on 32-bit, not run
"
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP="
direct/kprobe-direct.tc|no ftrace direct calls on powerpc 6.12 (no ftrace-direct sample), unsupported there
dynevent/add_remove_fprobe.tc|arch-independent, run on x86: fprobe events' plumbing (fprobe_entry_arg and fprobe_args_vfs run fprobes here)
dynevent/fprobe_syntax_errors.tc|arch-independent, run on x86: the fprobe event parser
dynevent/tprobe_syntax_errors.tc|arch-independent, run on x86: the tprobe event parser
"
HANG_PC='NIP\s+'
# make hitcount.  The probes' trap is a program check: the vector at
# 0x700 (head_book3s_32.S's ProgramCheck) runs its prolog with the MMU
# off, at the physical address, the interrupted r1 kept until it makes a
# frame; its rfi turns the MMU on at ProgramCheck_virt, and
# interrupt_return's rfi returns.  KERNELBASE maps the physical vector
# into the text (HITCOUNT_REAL_OFFSET).
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$lr'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$r3 $r4 $r5 $r6'
HITCOUNT_VECTORS=ProgramCheck
HITCOUNT_REAL_OFFSET=0xc0000000
GATE_DEFCONFIG=pmac32_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
