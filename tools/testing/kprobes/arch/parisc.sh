# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# parisc: 32-bit PA-RISC, break-instruction probes stepped from slots,
# branches evaluated in software, kprobes on ftrace
# (arch/parisc/kernel/probes/).  A 64-bit kernel builds without kprobes
# (arch/parisc/Kconfig selects our contract only without 64BIT).  The
# keys are described in arch-defaults.sh.

ALIASES='hppa'
KARCH=parisc
CROSS=hppa-linux-gnu-
PORTED=1
# QEMU 7.2's firmware (SeaBIOS-hppa 6) reports no data cache but a
# 32 KB flush stride, which 6.12 makes the slab's minimum alignment: the
# kernel died in kmem_cache_init() until patches/0022, which the
# baseline needs as much as ours (BASE_FIXES), as patches/0023 (the
# base's get_user() read every other byte of a tracefs write).
BOOT=1
CI_BOOT=0
BASE_FIXES='0022 0023'
HELP='cross-built 32-bit parisc kernel, qemu-system-hppa B160L'
# QEMU's B160L and its firmware, SeaBIOS-hppa (qemu-system-data).
PACKAGES='
gcc-hppa-linux-gnu:hppa-linux-gnu-gcc
qemu-system-misc:qemu-system-hppa
qemu-system-data:/usr/share/qemu/hppa-firmware.img
'

# Upstream's kprobes: one file and its header (parisc 6.12 has no
# rethook: its kretprobe trampoline is a probed nop in kprobes.c).  Its
# probes on ftrace, kprobe_ftrace_handler() and
# arch_prepare_kprobe_ftrace() at the end of arch/parisc/kernel/ftrace.c,
# are taken out by patches/0017 (the rest of that file is ftrace's).
REMOVED='
arch/parisc/kernel/kprobes.c
arch/parisc/include/asm/kprobes.h
'

# Debian 12 has no hppa port (it is in debian-ports): deps.sh builds
# busybox and bash from Debian's sources, as for riscv64 and ppc32.
USERLAND=source
DEB_ARCH=hppa
QEMU=qemu-system-hppa
IMAGE=vmlinux
IMAGE_PATH=vmlinux
# The B160L (PA7300LC), QEMU's only hppa machine in 7.2; the firmware
# loads the ELF vmlinux and the initramfs itself.
MACHINE='-M hppa'
SMP=1
# No exit device: kp-exit 0 reboots through the firmware (PDC reset),
# which -no-reboot turns into an exit with 0 after the "kp: guest done
# status=0" marker; parisc's power-off only asks for the button.  Any
# other status, and any panic (panic=-1 reboots), ends the same way
# without that marker: a failure.
EXIT=panic
MEM=512M
CONSOLE=ttyS0
# As arm: hostile_input.sh loads its module once per input, which under
# TCG can take longer than the 120 s of the kselftest settings.
APPEND='kp.test_timeout=600'
BOOT_TIMEOUT=1500
# As arm64: the arch-independent ftracetest cases are left to x86 (each
# costs 10 - 30 s under TCG).
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP='
kprobe/kprobe_opt_types.tc|no optimized probes on parisc, the case knows x86 only
dynevent/add_remove_fprobe.tc|no fprobe on parisc 6.12 (no rethook)
dynevent/fprobe_args_vfs.tc|no fprobe on parisc 6.12 (no rethook)
dynevent/fprobe_entry_arg.tc|no fprobe on parisc 6.12 (no rethook)
dynevent/fprobe_syntax_errors.tc|no fprobe on parisc 6.12 (no rethook)
dynevent/tprobe_syntax_errors.tc|no fprobe on parisc 6.12, tprobes use it
kprobe/kprobe_args_user.tc|no $argN on parisc 6.12 (no HAVE_FUNCTION_ARG_ACCESS_API; the README names $arg<N> for return probes anyway)
kprobe/kretprobe_entry_arg.tc|no $argN on parisc 6.12 (no HAVE_FUNCTION_ARG_ACCESS_API; the README names $arg<N> for return probes anyway)
'
# QEMU 7.2's "info registers" on hppa: "IA_F 0000000010123456 IA_B ...".
HANG_PC='IA_F '
GATE_DEFCONFIG=generic-32bit_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
# make bench: QEMU exits in the firmware under -icount (2026-12-07).
BENCH_NO_ICOUNT='QEMU 7.2 hppa: "Bad icount read" in the firmware'
