# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# sparc64: 64-bit SPARC, "ta 0x70" probes stepped from slots ending in
# "ta 0x71", the pc pair moved back from the slot after a control
# transfer (arch/sparc/kernel/probes/).  32-bit sparc has no kprobes,
# upstream or here.  The keys are described in arch-defaults.sh.

ALIASES='sparc'
KARCH=sparc
CROSS=sparc64-linux-gnu-
PORTED=1
BOOT=1
# 6.12.118 builds no sparc64 kernel: FMODE_NONOTIFY shares a bit with
# sparc's __O_TMPFILE and fs/fcntl.c's BUILD_BUG_ON fails.  patches/0024
# moves it; the baseline needs it as much as ours.
BASE_FIXES='0024'
# Booted by make check-all, not by .ci/run: CI builds its gate row only
# (README, CI: the cold run's budget).
CI_BOOT=0
HELP='cross-built sparc64 kernel, qemu-system-sparc64 sun4u'
# QEMU's sun4u and its firmware, OpenBIOS (qemu-system-data).
PACKAGES='
gcc-sparc64-linux-gnu:sparc64-linux-gnu-gcc
qemu-system-sparc:qemu-system-sparc64
qemu-system-data:/usr/share/qemu/openbios-sparc64
'

# Upstream's kprobes: one file and its header (sparc64 6.12 has no
# rethook: its kretprobe trampoline is a probed nop in kprobes.c).  The
# trap table's KPROBES_TRAP entries (asm/ttable.h) call kprobe_trap(),
# which the back-end keeps.
REMOVED='
arch/sparc/kernel/kprobes.c
arch/sparc/include/asm/kprobes.h
'

# Debian 12 has no sparc64 port (it is in debian-ports): deps.sh builds
# busybox and bash from Debian's sources, as for riscv64 and ppc32;
# libc6-dev-sparc64-cross links the helpers.
USERLAND=source
DEB_ARCH=sparc64
QEMU=qemu-system-sparc64
# vmlinux itself: QEMU loads the ELF and tells the kernel where the
# initramfs is through its header; OpenBIOS enters it.
IMAGE=vmlinux
IMAGE_PATH=vmlinux
# The Ultra 5 (UltraSPARC IIi, one CPU): its EBus 16550 is the console
# (SERIAL_SUNSU).
MACHINE='-M sun4u'
SMP=1
# No exit device: see guest/kp-exit.c.  Any status but 0, and any panic
# (panic=-1 reboots), end QEMU through -no-reboot without the
# "kp: guest done status=0" marker: a failure.
EXIT=panic
MEM=512M
CONSOLE=ttyS0
APPEND='kp.test_timeout=600'
BOOT_TIMEOUT=1500
# As arm64: the arch-independent ftracetest cases are left to x86.
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP='
kprobe/kprobe_opt_types.tc|no optimized probes on sparc64, the case knows x86 only
dynevent/add_remove_fprobe.tc|no fprobe on sparc64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_args_vfs.tc|no fprobe on sparc64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_entry_arg.tc|no fprobe on sparc64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_syntax_errors.tc|no fprobe on sparc64 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/tprobe_syntax_errors.tc|no fprobe on sparc64 6.12, tprobes use it
kprobe/kprobe_args_user.tc|no $argN on sparc64 6.12 (no HAVE_FUNCTION_ARG_ACCESS_API)
kprobe/kretprobe_entry_arg.tc|no $argN on sparc64 6.12 (no HAVE_FUNCTION_ARG_ACCESS_API)
'
# QEMU 7.2's "info registers" on sparc64: "pc: 0000000000404000  npc: ...".
HANG_PC='\bpc: '
# make hitcount.  A call leaves its own address in %o7 and returns past
# its delay slot; gdb steps sparc in software (a breakpoint after the
# instruction, which a trap runs past): the stub's own step instead.
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$o7 + 8'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$o0 $o1 $o2 $o3'
HITCOUNT_STEP='maintenance packet s'
# "ta 0x70" and "ta 0x71" enter the trap table at tl0_resv170 (its
# entries 0x170 and 0x171: KPROBES_TRAP, etrap_irq, kprobe_trap(),
# rtrap_irq).
HITCOUNT_VECTORS=tl0_resv170
GATE_DEFCONFIG=sparc64_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
