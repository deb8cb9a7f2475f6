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
# make hitcount.  A call leaves its return address in %rp (r2), past
# its delay slot; the arguments are r26 down to r23.  gdb's own step
# would break after the instruction, which a trap runs past: the stub's.
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$rp'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$r26 $r25 $r24 $r23'
HITCOUNT_STEP='maintenance packet s'
HITCOUNT_STACK_UP=1
# A break is interruption 9: the vector table (fault_vector_11 on the
# B160L's PA7300LC, fault_vector_20 on PA 2.0), intr_save,
# handle_interruption(), intr_restore's rfi.  TLB misses come through
# the same table: inside kprobes' own code they count as the base's.
# The table and intr_save run untranslated, at the text's physical
# addresses: 0x10000000 (__PAGE_OFFSET) below its own.
HITCOUNT_VECTORS='fault_vector_11 fault_vector_20'
HITCOUNT_REAL_OFFSET=0x10000000
# Upstream's probes on ftrace are in ftrace.c (patches/0017 takes them out
# of ours).
HITCOUNT_BASELINE_OWN='kprobe_ftrace_handler'
GATE_DEFCONFIG=generic-32bit_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
# make bench: QEMU exits in the firmware under -icount (2026-12-07).
BENCH_NO_ICOUNT='QEMU 7.2 hppa: "Bad icount read" in the firmware'
