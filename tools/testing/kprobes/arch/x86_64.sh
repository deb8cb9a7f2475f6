# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# x86_64: the 64-bit x86 kernel and guest, the default ARCH.
# The keys are described in arch-defaults.sh.

ALIASES='x86'
# No ARCH= for kbuild at all: the existing x86-64 builds keep their
# configuration untouched.
KARCH=
CROSS=
PORTED=1
BOOT=1
HELP='the 64-bit x86 kernel and guest (the default)'

# Upstream's x86 kprobes (i386 builds the same directory).
REMOVED='
arch/x86/kernel/kprobes
arch/x86/include/asm/kprobes.h
'

# The host's own busybox-static and bash-static.
USERLAND=host
QEMU=qemu-system-x86_64
IMAGE=bzImage
IMAGE_PATH=arch/x86/boot/bzImage
# Two sockets of one core each: without ACPI the kernel learns the CPUs
# from SeaBIOS's MP table, which lists one CPU per socket.
SMP=2,sockets=2,cores=1,threads=1
QEMU_EXTRA='-device isa-debug-exit,iobase=0xf4,iosize=0x04'
# Under TCG the guest's TSC is the host's, but the kernel calibrates it
# against the emulated PIT, which fails on a busy host (seen in CI beside
# a build: "Unable to calibrate against PIT"); sched_clock is then
# jiffies, every event of a jiffy has the same timestamp, and the trace's
# merge of the per-CPU buffers interleaves two CPUs' events at random
# (ftracetest's kretprobe_entry_arg.tc reads the line after an entry
# event as its return event).  The x86-tsc trace clock reads the TSC
# itself: the trace keeps the order in which events happened.
APPEND='trace_clock=x86-tsc'
HANG_PC='RIP='
HITCOUNT_GDB=gdb
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='*(unsigned long *)$sp'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$rdi $rsi $rdx $rcx'
# int3 (both flavours' probes and upstream's step of a copied
# instruction), #DB (a hardware single-step).
HITCOUNT_VECTORS='asm_exc_int3 asm_exc_debug'
# The test kernel has KASAN (kprobes-test-x86_64.config): its check boot
# took 749 s on a slow host, close to the 900 s default.
BOOT_TIMEOUT=1500
