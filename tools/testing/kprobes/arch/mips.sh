# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# mips: 32-bit MIPS on QEMU's Malta board, break-instruction probes
# (arch/mips/kernel/probes/).  Two byte orders, one file: make check
# boots a little-endian kernel (kprobes-test-mips.config), because
# Debian 12 has a mipsel userland to download and no big-endian one;
# the gate row builds the big-endian malta_defconfig, the board's stock
# configuration.  One cross compiler does both: the kernel's Makefile
# passes -EB or -EL to whichever mips gcc it is given, and binutils
# links both.  The keys are described in arch-defaults.sh.

ALIASES='mipsel mips32'
KARCH=mips
CROSS=mipsel-linux-gnu-
PORTED=1
BOOT=1
HELP='cross-built 32-bit mipsel kernel, qemu-system-mipsel malta'
PACKAGES='
gcc-mipsel-linux-gnu:mipsel-linux-gnu-gcc
qemu-system-mips:qemu-system-mipsel
'

# Upstream's kprobes: one file and its header (mips 6.12 has no rethook:
# its kretprobe trampoline is a probed nop in kprobes.c).  probes-common.h
# and branch.c stay: uprobes and the back-end share them.
REMOVED='
arch/mips/kernel/kprobes.c
arch/mips/include/asm/kprobes.h
'

# Debian's mipsel busybox-static and bash-static, downloaded and unpacked
# by deps.sh as arm64's; the guest's helpers are built with the cross
# compiler and libc6-dev-mipsel-cross.
USERLAND=debian
DEB_ARCH=mipsel
QEMU=qemu-system-mipsel
IMAGE=vmlinux
IMAGE_PATH=vmlinux
# Malta with its default CPU (24Kf, MIPS32r2).  QEMU loads the ELF
# vmlinux itself and passes the command line the way YAMON does.
MACHINE='-M malta'
# Malta's SMP needs the MT ASE (34K) or CPS: the test kernel is
# uniprocessor, as ppc32's.
SMP=1
# No exit device, and no working power-off: QEMU's PIIX4 has no power
# management I/O base without YAMON (guest/kp-exit.c).  kp-exit 0
# reboots through the FPGA's syscon-reboot, which -no-reboot turns into
# an exit with 0 after the "kp: guest done status=0" marker; any other
# status, and any panic, ends the same way without that marker: a
# failure.
EXIT=panic
MEM=256M
CONSOLE=ttyS0
BOOT_TIMEOUT=1500
# As arm64: the arch-independent ftracetest cases are left to x86 (each
# costs 10 - 30 s under TCG).
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP='
kprobe/kprobe_opt_types.tc|no optimized probes on mips, the case knows x86 only
dynevent/add_remove_fprobe.tc|no fprobe on mips 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_args_vfs.tc|no fprobe on mips 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_entry_arg.tc|no fprobe on mips 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_syntax_errors.tc|no fprobe on mips 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/tprobe_syntax_errors.tc|no fprobe on mips 6.12, tprobes use it
kprobe/kprobe_args_user.tc|no $argN on mips 6.12 (no HAVE_FUNCTION_ARG_ACCESS_API; the README names $arg<N> for return probes anyway)
kprobe/kretprobe_entry_arg.tc|no $argN on mips 6.12 (no HAVE_FUNCTION_ARG_ACCESS_API; the README names $arg<N> for return probes anyway)
'
# QEMU's "info registers" on mips: "pc=0x80123456 HI=...".
HANG_PC='pc=0x'
# make hitcount.  gdb steps mips in software (a breakpoint after the
# instruction, which a break runs past): the stub's own step instead.
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$ra'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$a0 $a1 $a2 $a3'
HITCOUNT_STEP='maintenance packet s'
# A break enters the general exception vector at ebase + 0x180, a copy of
# except_vec3_generic (no symbol; ebase is allocated at boot on MIPS32r2,
# so no fixed address either: kphit.py knows the copy by its bytes and
# counts it as the base's), which jumps through exception_handlers[] to
# genex.S's handle_bp: SAVE_ALL, do_bp(), notify_die(), the probes'
# notifier; ret_from_exception's eret returns.  The trap opens at
# handle_bp: k0/k1 only before it, the interrupted stack pointer intact.
HITCOUNT_VECTORS=handle_bp
# The gate row stays: the big-endian malta_defconfig is a configuration
# make check does not build (other byte order, PREEMPT_NONE, SMP through
# MT, modules, networking).  The mipsel compiler builds it with -EB.
GATE_DEFCONFIG=malta_defconfig
# What upstream's kprobes offers with that defconfig and kprobes turned on
# (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
