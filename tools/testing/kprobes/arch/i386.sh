# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# i386: the 32-bit x86 kernel (ARCH=i386 turns CONFIG_64BIT off) and guest.
# The keys are described in arch-defaults.sh.

ALIASES='x86_32'
KARCH=i386
CROSS=
PORTED=1
BOOT=1
# Booted by make check-all, not by .ci/run: CI builds its gate row only
# (README, CI: the cold run's budget).
CI_BOOT=0
HELP='32-bit kernel and guest'
# gcc-12-multilib, not gcc-multilib, which conflicts with every cross gcc.
PACKAGES='
gcc-12-multilib:static-libc32
qemu-system-x86:qemu-system-i386
'

# Debian's i386 busybox-static and bash-static, downloaded and unpacked by
# deps.sh: nothing of the host's amd64 system changes.
USERLAND=debian
DEB_ARCH=i386
# <asm/*.h> for -m32 come from the x86-64 linux-libc-dev (they are
# bi-arch); gcc-multilib's /usr/include/asm link, which finds them
# otherwise, conflicts with every cross gcc (riscv64's included).
GUEST_CFLAGS='-m32 -idirafter /usr/include/x86_64-linux-gnu'
QEMU=qemu-system-i386
IMAGE=bzImage
IMAGE_PATH=arch/x86/boot/bzImage
SMP=2,sockets=2,cores=1,threads=1
QEMU_EXTRA='-device isa-debug-exit,iobase=0xf4,iosize=0x04'
# Lowmem only (CONFIG_NOHIGHMEM keeps 896 MB).  The default CPU (qemu32)
# has what the 686 kernel needs; "-cpu max" would be an AMD CPU that the
# 32-bit kernel warns about with SMP, and would add SMAP.
MEM=768M
# As x86_64 (see there).
APPEND='trace_clock=x86-tsc'
# make hitcount: the host's gdb debugs a 32-bit x86 guest.  The kernel is
# built with -mregparm=3: a function's first arguments are in eax, edx,
# ecx (hitcount.py reads apply_relocate()'s, the REL relocation of
# i386's modules), its return address at the stack pointer.
HITCOUNT_GDB=gdb
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='*(unsigned long *)$sp'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$eax $edx $ecx'
# As x86-64: int3 (both flavours' probes, upstream's step of a copied
# instruction ends with a #DB) enters asm_exc_int3 or asm_exc_debug, which
# push the C handler and jump to handle_exception; the trap returns by
# the iret of entry_INT80_32's .Lirq_return, on the interrupted kernel
# stack (no stack switch for a trap from kernel mode on i386).
HITCOUNT_VECTORS='asm_exc_int3 asm_exc_debug'
# Every ftracetest case but the one that needs networking, which this
# kernel is built without (for CI's time budget).
FTRACE_SKIP="
kprobe/kretprobe_maxactive.tc|arch-independent, run on x86-64: maxactive's syntax (probes inet_csk_accept: no networking in this kernel)
"
# The gate row: what CI builds of it (CI_BOOT=0), the stock i386_defconfig
# with kprobes turned on; a ported row fails on any error, warning or
# option of GATE_OPTIONS it lost.
GATE_DEFCONFIG=i386_defconfig
# What upstream's kprobes offers there (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'
