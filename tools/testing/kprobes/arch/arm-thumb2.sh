# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# arm-thumb2: the 32-bit ARM kernel built in the Thumb-2 instruction set
# (THUMB2_KERNEL), as Debian's and Ubuntu's armhf kernels are; the
# configuration of arm.sh that takes the other half of our back-end
# (arch/arm/probes/kprobes/thumb.c).  Its fragment is merged after arm's,
# its guest is arm's.  The keys are described in arch-defaults.sh.

ALIASES='thumb2 arm-t2'
VARIANT_OF=arm
KARCH=arm
CROSS=arm-linux-gnueabihf-
PORTED=1
BOOT=1
# As arm: booted by make check-all, CI builds its gate row only.
CI_BOOT=0
HELP='cross-built 32-bit ARM kernel (Thumb-2), qemu-system-arm virt'
PACKAGES='
gcc-arm-linux-gnueabihf:arm-linux-gnueabihf-gcc
qemu-system-arm:qemu-system-arm
'

# arm's userland (VARIANT_OF), its ARM-mode guest helpers (uprobes take
# ARM code only).
USERLAND=debian
GUEST_CFLAGS='-marm'
DEB_ARCH=armhf
QEMU=qemu-system-arm
IMAGE=zImage
IMAGE_PATH=arch/arm/boot/zImage
MACHINE='-M virt,highmem=off -cpu cortex-a15'
MEM=768M
QEMU_EXTRA='-device pvpanic-pci -action panic=exit-failure'
EXIT=panic
CONSOLE=ttyAMA0
APPEND_FIRST='earlycon'
# As arm (hostile_input.sh's module loads under TCG).
APPEND='kp.test_timeout=600'
BOOT_TIMEOUT=1500
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP='
kprobe/kprobe_opt_types.tc|no optimized probes on Thumb-2 kernels (upstream has none either), the case knows x86 only
dynevent/add_remove_fprobe.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_args_vfs.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_entry_arg.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/fprobe_syntax_errors.tc|no fprobe on arm 6.12 (no DYNAMIC_FTRACE_WITH_REGS)
dynevent/tprobe_syntax_errors.tc|no fprobe on arm 6.12, tprobes use it
kprobe/kprobe_args_user.tc|fetches a function argument, which needs HAVE_FUNCTION_ARG_ACCESS_API, not on arm 6.12 (its requires line finds the argument syntax of return probes in README)
kprobe/kretprobe_entry_arg.tc|fetches a function argument, which needs HAVE_FUNCTION_ARG_ACCESS_API, not on arm 6.12 (its requires line finds the argument syntax of return probes in README)
'
HANG_PC='R15='
# The gate builds the stock multi_v7 kernel in Thumb-2.
GATE_DEFCONFIG=multi_v7_defconfig
GATE_CONFIG='THUMB2_KERNEL'
# Upstream has no OPTPROBES on Thumb-2 kernels (arch/arm/Kconfig).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
