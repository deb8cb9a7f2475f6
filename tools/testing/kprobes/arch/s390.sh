# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# s390: s390x (z/Architecture), breakpoint 0x0002, the probed instruction
# stepped from a slot up to a second breakpoint, branches simulated;
# cross-built, booted in qemu-system-s390x (s390-ccw-virtio).
# The keys are described in arch-defaults.sh.

ALIASES='s390x'
KARCH=s390
CROSS=s390x-linux-gnu-
PORTED=1
BOOT=1
# Booted by make check-all, not by .ci/run: CI builds its gate row only
# (README, CI: the cold run's budget).
CI_BOOT=0
HELP='cross-built s390x kernel, qemu-system-s390x s390-ccw-virtio'
# The cross gcc is also the gate's.  QEMU loads bzImage itself (its
# s390-ccw.img firmware is not entered for a -kernel boot).
PACKAGES='
gcc-s390x-linux-gnu:s390x-linux-gnu-gcc
qemu-system-misc:qemu-system-s390x
'

# Upstream's kprobes: its back-end, and the kprobe half of ftrace.c
# (kprobe_ftrace_handler() and arch_prepare_kprobe_ftrace(), taken out by
# patches/0015), which also selects the instance pool.  rethook.c and arch_rethook_trampoline stay: fprobe
# runs on rethook, as on x86.  lib/probes.c (the opcode checks) is
# shared with uprobes and used by ours; the header is ours and keeps
# what uprobes.c needs of it.
REMOVED='
arch/s390/kernel/kprobes.c
arch/s390/include/asm/kprobes.h
'

# Debian's s390x busybox-static and bash-static, downloaded and unpacked
# by deps.sh as arm64's; the guest's helpers are built with the cross
# compiler and libc6-dev-s390x-cross.
USERLAND=debian
DEB_ARCH=s390x
QEMU=qemu-system-s390x
IMAGE=bzImage
IMAGE_PATH=arch/s390/boot/bzImage
# -cpu qemu: the CPU model TCG implements (the kernel's kunit QEMU
# configuration uses it too).
MACHINE='-M s390-ccw-virtio -cpu qemu'
# No exit device (EXIT=panic): kp-exit 0 powers off (every CPU stopped,
# which QEMU takes as a shutdown: exit status 0), any other status panics
# on purpose.  s390's panic notifier (on_panic=stop, the default) loads a
# disabled-wait PSW, which QEMU reports as a guest panic and
# -action panic=exit-failure turns into exit status 1.
QEMU_EXTRA='-action panic=exit-failure'
EXIT=panic
# -serial is the SCLP VT220 console of s390-ccw-virtio (ttysclp0); the
# SCLP line-mode console (ttyS0 on s390) is its second serial, not
# connected here.
CONSOLE=ttysclp0
BOOT_TIMEOUT=1500
# As arm64's, riscv64's and ppc64le's: the arch-independent ftracetest
# cases are left to x86 (CI's budget).
# Upstream's kprobes under QEMU 7.2 (BASELINE=1): kprobe_insn_boundary.tc
# (a probe on every instruction of kernel_clone) stalls the guest for
# good; QEMU's PER events, which upstream steps with, report a taken
# branch as not taken (see tools/testing/kprobes/README).  Ours runs it.
NOTRUN_BASELINE="
ftrace:kprobe/kprobe_insn_boundary.tc|hangs the guest: upstream steps branches with PER, whose events QEMU 7.2 reports with the PSW past a taken branch, see tools/testing/kprobes/README
"
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP="
kprobe/kprobe_opt_types.tc|no optimized probes on s390, the case knows x86 only
dynevent/add_remove_fprobe.tc|arch-independent, run on x86: fprobe events' plumbing (fprobe_entry_arg and fprobe_args_vfs run fprobes here)
dynevent/fprobe_syntax_errors.tc|arch-independent, run on x86: the fprobe event parser (120 s here)
dynevent/tprobe_syntax_errors.tc|arch-independent, run on x86: the tprobe event parser
"
# QEMU's "info registers" on s390x: "PSW=mask 0704c00180000000 addr 0000000000123456 cc 00".
HANG_PC='PSW=mask\s+[0-9a-f]+\s+addr\s+'
# make hitcount: the stub's own step (gdb's stepi would step s390 with
# a breakpoint after the instruction, which a program check runs past).
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$r14'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$r2 $r3 $r4 $r5'
HITCOUNT_STEP='maintenance packet s'
# The probes' 0x0002 is an operation exception: the program-check new
# PSW enters entry.S's pgm_check_handler on the interrupted stack (a
# kernel-mode check), __do_pgm_check(), the probes' handler; the return
# is an lpswe of the saved PSW.
HITCOUNT_VECTORS=pgm_check_handler
# vmlinux is linked at 0x100000 and runs at CONFIG_KERNEL_IMAGE_BASE
# above that (boot/startup.c's __kaslr_offset; the test kernels have no
# RANDOMIZE_BASE).
HITCOUNT_KERNEL_OFFSET=0x3ffe0000000
# Upstream's probes on ftrace are in ftrace.c (patches/0015 takes them out
# of ours), its kretprobes return through rethook's trampoline in
# mcount.S (ours keep it for fprobe, and return through their own).
HITCOUNT_BASELINE_OWN='kprobe_ftrace_handler arch_rethook_trampoline'
# The gate row stays (as arm64's): defconfig builds what the test kernel
# leaves out (PCI, KVM, crypto, the channel subsystem drivers...), and a
# ported row fails if ours loses an option.
GATE_DEFCONFIG=defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE'
