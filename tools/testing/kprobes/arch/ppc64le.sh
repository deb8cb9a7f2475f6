# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# ppc64le: the powerpc back-end, cross-built, booted as a pseries guest
# in qemu-system-ppc64.
# The keys are described in arch-defaults.sh.

ALIASES='ppc64el powerpc64le'
KARCH=powerpc
CROSS=powerpc64le-linux-gnu-
PORTED=1
BOOT=1
# Booted by make check-all, not by .ci/run: CI builds its gate row only
# (README, CI: the cold run's budget).
CI_BOOT=0
HELP='cross-built ppc64le kernel, qemu-system-ppc64 pseries'
# QEMU's pseries machine and its minimal firmware, VOF (qemu-system-data).
PACKAGES='
qemu-system-ppc:qemu-system-ppc64
qemu-system-data:/usr/share/qemu/vof.bin
'

# Upstream's kprobes, its ftrace and jump-optimization halves, and its
# rethook (a kprobe on a trampoline).  Ours, rethook included, is
# arch/powerpc/kernel/probes/.
REMOVED='
arch/powerpc/kernel/kprobes.c
arch/powerpc/kernel/kprobes-ftrace.c
arch/powerpc/kernel/optprobes.c
arch/powerpc/kernel/optprobes_head.S
arch/powerpc/kernel/rethook.c
arch/powerpc/include/asm/kprobes.h
'

# Debian's ppc64el busybox-static and bash-static, downloaded and
# unpacked by deps.sh as i386's and arm64's: compiling them from Debian's
# sources, as riscv64 must, cost CI some three minutes of a CPU.
USERLAND=debian
DEB_ARCH=ppc64el
QEMU=qemu-system-ppc64
# vmlinux itself: QEMU's pseries machine loads the ELF (-kernel), and its
# firmware (VOF, x-vof=on) enters it through prom_init.
IMAGE=vmlinux
IMAGE_PATH=vmlinux
# The pseries machine (a PAPR guest, TCG) with QEMU's minimal Open
# Firmware, VOF (x-vof=on: vof.bin), which enters vmlinux's prom_init at
# once, where SLOF takes seconds; a POWER9 CPU (radix MMU).  -serial gives
# the machine its spapr-vty (hvc0).
MACHINE='-M pseries,x-vof=on -cpu power9'
# A guest panic (RTAS ibm,os-term) makes QEMU exit with status 1: how
# kp-exit reports a non-zero status here (EXIT=panic).
QEMU_EXTRA='-action panic=exit-failure'
EXIT=panic
# The PAPR hypervisor console (spapr-vty): the kernel writes to it through
# hypervisor calls from early boot on (udbg).  Its sysrq key is ^O.
CONSOLE=hvc0
SYSRQ=ctrl-o
# As slow under TCG as riscv64.
BOOT_TIMEOUT=1500
# Tests that hang the guest of upstream's kprobes (BASELINE=1), tools/testing/kprobes/README's
# ppc64le section has the details:
# - upstream's optimized probes on ksys_read (QEMU 7.2, TCG) leave a
#   read(2) spinning for ever through a detour (soft lockups at
#   optinsn_slot+..., ksys_read+0x84 and +0xdc: each time the probe after
#   a "bl vfs_read"), in optimization_sysctl.sh and optimized_scan.sh;
# - multiple_kprobes.tc puts a probe on do_program_check+0x8, the program
#   check (trap) handler's helper, which upstream powerpc does not
#   blacklist: both CPUs then loop in program check exceptions for ever.
# Ours (its own optimized probes, and do_program_check() blacklisted)
# runs all three.
NOTRUN_BASELINE="
kprobes:optimization_sysctl.sh|hangs the guest: a read(2) spins in an optimized probe's detour on ksys_read (soft lockup), see tools/testing/kprobes/README
kprobes:optimized_scan.sh|hangs the guest: a read(2) spins in an optimized probe's detour on ksys_read (soft lockup), see tools/testing/kprobes/README
ftrace:kprobe/multiple_kprobes.tc|hangs the guest: a probe on do_program_check+0x8 (not blacklisted) traps in the trap handler for ever, see tools/testing/kprobes/README
"
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP="
direct/kprobe-direct.tc|no ftrace direct calls on powerpc 6.12 (no ftrace-direct sample), unsupported there
dynevent/add_remove_fprobe.tc|arch-independent, run on x86: fprobe events' plumbing (fprobe_entry_arg and fprobe_args_vfs run fprobes here)
dynevent/fprobe_syntax_errors.tc|arch-independent, run on x86: the fprobe event parser
dynevent/tprobe_syntax_errors.tc|arch-independent, run on x86: the tprobe event parser
"
# QEMU's NVRAM (spapr-nvram) starts zeroed, and with VOF as the firmware
# nothing formats it, as SLOF would; the kernel's partition scan
# (arch/powerpc/kernel/nvram_64.c) then prints this KERN_WARNING line, a
# message, not a WARN() splat.  (Double quotes for the apostrophes: "$"
# only ends a line there, which is no expansion.)
CONSOLE_KNOWN="
report: WARNING: nvram corruption detected: 0-length partition$
config: CONFIG_PPC_PSERIES=y
why: QEMU's pseries NVRAM is left unformatted by VOF (no SLOF); the kernel's nvram scan says so
"
HANG_PC='NIP\s+'
# make hitcount: a call's return address is in the link register at the
# callee's first instruction; arguments in r3 - r6.  A probe's trap is a
# program check, taken at the relocation-on vector (AIL) or, in real
# mode, at 0x700.  The module loader's relocation function is stopped
# at its ELFv2 local entry point too (the kernel's calls skip the TOC
# setup), and the boot is under -icount (HITCOUNT_ICOUNT): a
# decrementer interrupt due from the host's stepping time used to be
# replayed at the trap's exit, tick by missed tick, into the kretprobe
# paths' traces.
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$lr'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$r3 $r4 $r5 $r6'
HITCOUNT_VECTORS='exc_virt_0x4700_program_check exc_real_0x700_program_check'
HITCOUNT_ICOUNT=1
# The gate row: what CI builds of it (CI_BOOT=0), the stock ppc64le_defconfig
# with kprobes turned on; a ported row fails on any error, warning or
# option of GATE_OPTIONS it lost.
GATE_DEFCONFIG=ppc64le_defconfig
# What upstream's kprobes offers there (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
