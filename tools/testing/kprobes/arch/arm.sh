# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# arm: 32-bit ARM (ARMv7), undefined-instruction breakpoints; an
# ARM-mode kernel cross-built and booted in qemu-system-arm (virt).  The
# Thumb-2 kernel (THUMB2_KERNEL) is arm-thumb2.sh, a variant of this file.
# The keys are described in arch-defaults.sh.

ALIASES='arm32 armhf'
KARCH=arm
CROSS=arm-linux-gnueabihf-
PORTED=1
BOOT=1
# Booted by make check-all, not by .ci/run: CI builds its gate row only
# (README, CI: the cold run's budget).
CI_BOOT=0
HELP='cross-built 32-bit ARM kernel (ARM mode), qemu-system-arm virt'
# QEMU's virt machine needs no firmware: QEMU loads zImage itself and
# implements PSCI (power-off, CPU bring-up).
PACKAGES='
gcc-arm-linux-gnueabihf:arm-linux-gnueabihf-gcc
qemu-system-arm:qemu-system-arm
'

# Upstream's kprobes: the back-end under arch/arm/probes/kprobes/ (its
# action handlers and checkers, the optimizer, the instruction test
# module) and the header.  The directory's Makefile is ours; the decode
# tables of arch/arm/probes/ and uprobes stay upstream's.
REMOVED='
arch/arm/probes/kprobes/Makefile
arch/arm/probes/kprobes/actions-arm.c
arch/arm/probes/kprobes/actions-common.c
arch/arm/probes/kprobes/actions-thumb.c
arch/arm/probes/kprobes/checkers-arm.c
arch/arm/probes/kprobes/checkers-common.c
arch/arm/probes/kprobes/checkers-thumb.c
arch/arm/probes/kprobes/checkers.h
arch/arm/probes/kprobes/core.c
arch/arm/probes/kprobes/core.h
arch/arm/probes/kprobes/opt-arm.c
arch/arm/probes/kprobes/test-arm.c
arch/arm/probes/kprobes/test-core.c
arch/arm/probes/kprobes/test-core.h
arch/arm/probes/kprobes/test-thumb.c
arch/arm/include/asm/kprobes.h
'

# patches/0026: flush_tlb_kernel_range() cuts over to a full flush beyond
# 512 pages.  Without it the vmap purge after a module's init (and after
# kprobes free a slot page) flushes ~200,000 pages one by one: under TCG
# the flushing CPU stalls for minutes, and a stop_machine() meanwhile (as
# upstream's optimizer does) holds the other; the bench's baseline stopped
# there.
BASE_FIXES='0026'

# Debian's armhf busybox-static and bash-static, downloaded and unpacked
# by deps.sh as arm64's; the guest's helpers are built with the cross
# compiler and libc6-dev-armhf-cross.
USERLAND=debian
# ARM code: gcc's armhf default is Thumb-2, and ARM uprobes (upstream's,
# shared) take ARM-mode user code only (uprobe_event.sh's target).
GUEST_CFLAGS='-marm'
DEB_ARCH=armhf
QEMU=qemu-system-arm
IMAGE=zImage
IMAGE_PATH=arch/arm/boot/zImage
# The virt machine (GICv2, PL011, PSCI), a Cortex-A15 (ARMv7 with LPAE
# and the virtualization extensions; the kernel runs in SVC mode).
MACHINE='-M virt,highmem=off -cpu cortex-a15'
MEM=768M
# Under -icount (make bench), QEMU 7.2's virt machine with two CPUs stops
# making progress after the guest patches text in stop_machine() (both
# flavours, as riscv64's): one CPU there.  The per-hit numbers do not
# depend on the second CPU.
SMP_ICOUNT=1
# virt has no exit device (EXIT=panic): kp-exit 0 powers off (PSCI
# SYSTEM_OFF), any other status panics on purpose, and the pvpanic PCI
# device tells QEMU, which -action panic=exit-failure turns into exit
# status 1.
QEMU_EXTRA='-device pvpanic-pci -action panic=exit-failure'
EXIT=panic
CONSOLE=ttyAMA0
APPEND_FIRST='earlycon'
# hostile_input.sh loads its module once per input, some 1.5 s each under
# TCG here: about 160 s in all, past the 120 s of the kselftest settings;
# CI boots this guest beside another and a build, which can double it.
APPEND='kp.test_timeout=600'
# Boot and tests take 330 s on a quiet host; the same margin in CI.
BOOT_TIMEOUT=1500
# As arm64: the arch-independent ftracetest cases are left to x86 (each
# costs 10 - 30 s under TCG).
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP='
dynevent/add_remove_fprobe.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_args_vfs.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_entry_arg.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_syntax_errors.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/tprobe_syntax_errors.tc|no fprobe on arm 6.12, tprobes use it
kprobe/kprobe_args_user.tc|fetches a function argument, which needs HAVE_FUNCTION_ARG_ACCESS_API, not on arm 6.12 (its requires line finds the argument syntax of return probes in README)
kprobe/kretprobe_entry_arg.tc|fetches a function argument, which needs HAVE_FUNCTION_ARG_ACCESS_API, not on arm 6.12 (its requires line finds the argument syntax of return probes in README)
'
# QEMU's "info registers" on arm: "R00=c0123456 R01=... R15=c0101234".
HANG_PC='R15='
# make hitcount (ARM mode only: arm-thumb2.sh turns it off).  gdb would
# step ARM in software, a breakpoint after the instruction, which a UDF
# runs past with the whole exception: the stub's own step, as riscv64's.
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$lr'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$r0 $r1 $r2 $r3'
HITCOUNT_STEP='maintenance packet s'
# A UDF in SVC mode enters the high vector page at 0xffff0004 (no symbol:
# .vectors is linked there, copied at boot), which branches to the
# vector_und stub (vector_bhb_*_und with branch-history hardening), in
# UND mode on its own small stack; the stub's "movs pc, lr" enters
# __und_svc in SVC mode, whose __und_fault jumps to do_undefinstr ->
# call_undef_hook -> the probes' hook; __und_svc_finish's svc_exit (an
# "ldmia sp, {r0 - pc}^") returns.  The trap opens at the vector page's
# address, where the stack pointer is still the interrupted SVC one: not
# the stub's symbol as well (the trap would reopen at the UND stack).
# Checked by hand on a production arm-thumb2 baseline, whose vector page
# is the same (2026-12-06): the stub's step from a kpbench probe's UDF
# stops at 0xffff0004 in UND mode, then 38 steps in the stubs
# (vector_bhb_loop8_und's loop: branch-history hardening on the
# Cortex-A15) on the UND stack, then __und_svc on the SVC stack.  Run
# end to end by make bench ARCH=arm on 2026-12-06 (both flavours).
HITCOUNT_VECTORS=0xffff0004
# The gate builds the stock multi_v7 kernel (ARM mode, the unwind-table
# unwinder, many platforms) with kprobes on.
GATE_DEFCONFIG=multi_v7_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS OPTPROBES'
