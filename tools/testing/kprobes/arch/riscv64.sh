# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# riscv64: the riscv back-end, cross-built, booted in qemu-system-riscv64.
# The keys are described in arch-defaults.sh.

ALIASES='riscv'
KARCH=riscv
CROSS=riscv64-linux-gnu-
PORTED=1
BOOT=1
# Booted by make check-all, not by .ci/run: CI builds its gate row only
# (README, CI: the cold run's budget).
CI_BOOT=0
HELP='cross-built riscv64 kernel, qemu-system-riscv64'
# QEMU's virt machine and its firmware, OpenSBI 1.1 (qemu-system-data).
PACKAGES='
qemu-system-misc:qemu-system-riscv64
qemu-system-data:/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
'

# Upstream's kprobes and its rethook (whose only user there is
# kretprobes: fprobe needs DYNAMIC_FTRACE_WITH_REGS, which riscv 6.12
# lacks).  The directory's Makefile is ours; uprobes.c and the
# decode-insn/simulate-insn pair it uses stay upstream's.
REMOVED='
arch/riscv/kernel/probes/kprobes.c
arch/riscv/kernel/probes/rethook.c
arch/riscv/kernel/probes/rethook.h
arch/riscv/kernel/probes/rethook_trampoline.S
arch/riscv/kernel/probes/Makefile
arch/riscv/include/asm/kprobes.h
'
# With CPU hotplug (hotplug.sh) lockdep reports the base's ftrace taking
# text_mutex before the CPU hotplug lock (its stop_machine()), the other
# text patchers the other way round; patches/0033 takes them in their
# order, and the baseline needs it as much as ours.
BASE_FIXES='0033'

# Debian 12 has no riscv64 port to download a userland from: deps.sh
# builds it from Debian's sources.
USERLAND=source
DEB_ARCH=riscv64
QEMU=qemu-system-riscv64
IMAGE=Image
IMAGE_PATH=arch/riscv/boot/Image
# The virt machine, OpenSBI as its firmware; its sifive_test device, which
# kp-exit writes (so as to give what x86's isa-debug-exit gives), is
# always there.
MACHINE='-M virt -bios default'
# Under -icount, QEMU 7.2's riscv64 virt machine with two harts stops
# making progress as soon as the guest patches text (stop_machine():
# measured, the guest's clock runs, no task gets scheduled again); with
# one hart it runs.  The bench's per-hit numbers do not depend on the
# second CPU.
SMP_ICOUNT=1
# The SBI console until the 8250 driver takes over, so that a panic
# before it (which hangs QEMU there) still shows on the console.
APPEND_FIRST='earlycon=sbi'
# hostile_input.sh took 130 s of its 120 under a host load of 6 (and
# once past its limit): its probes on a traceable function's entry are
# each an ftrace update, a stop_machine() here (2026-12-06).
APPEND='kp.test_timeout=300'
# Under TCG it runs the same tests in 11 - 13 minutes (2 CPUs shared).
BOOT_TIMEOUT=1500
FTRACE_SKIP_GENERIC=1
FTRACE_SKIP='
kprobe/kprobe_opt_types.tc|the case knows x86, arm and powerpc only (exit_unsupported elsewhere); optimized_scan.sh covers riscv
kprobe/multiple_kprobes.tc|256 entry probes, registration and arming in bulk, covered on riscv by probepoint and the kselftests
dynevent/add_remove_fprobe.tc|no fprobe on riscv 6.12
dynevent/fprobe_args_vfs.tc|no fprobe on riscv 6.12
dynevent/fprobe_entry_arg.tc|no fprobe on riscv 6.12
dynevent/fprobe_syntax_errors.tc|no fprobe on riscv 6.12
dynevent/tprobe_syntax_errors.tc|no fprobe on riscv 6.12, tprobes use it
'
# riscv runs kernel breakpoints inside irqentry_nmi_enter(), and without
# TRACE_IRQFLAGS_NMI lockdep does not follow the interrupt state in NMI
# context: its "hardirqs on" of the probed context stays.  A page fault
# taken by a kprobe handler there (a kprobe event's user memory fetch,
# strnlen_user()/strncpy_from_user() under pagefault_disable(), fixed up
# by the exception table) then returns through irqentry_exit(), whose
# lockdep_assert_irqs_disabled() sees that stale state.  Upstream's riscv
# kprobes give the same report (BASELINE=1, a kprobe event fetching an
# unmapped user address, see tools/testing/kprobes/README), so only that
# report is known: the irqentry_exit() warning on a page fault from a
# user-memory fetch, or from copy_from_kernel_nofault() of an unmapped
# kernel address (a handler of our KUnit suite's fault cases: the same
# fault path, the same exception-table fixup).
CONSOLE_KNOWN='
report: WARNING: .* at kernel/entry/common\.c:\d+ irqentry_exit\+
config: CONFIG_RISCV=y CONFIG_KPROBES=y CONFIG_PROVE_LOCKING=y !CONFIG_TRACE_IRQFLAGS_NMI=y
body: \] \[<[0-9a-f]+>\] (strnlen_user|strncpy_from_user|copy_from_user_nofault|__asm_copy_from_user|copy_from_kernel_nofault)\+
why: a kprobe handler faulting (user fetch or nofault read) inside the NMI-like breakpoint trap of riscv (lockdep without TRACE_IRQFLAGS_NMI); upstream riscv gives it too
'
HANG_PC='\s*pc\s+'
HITCOUNT_GDB=gdb-multiarch
# shellcheck disable=SC2016 # gdb's registers, not the shell's
HITCOUNT_RA='$ra'
# shellcheck disable=SC2016
HITCOUNT_ARGS='$a0 $a1 $a2 $a3'
# ebreak enters stvec's handle_exception (not run with kphit.py yet).
HITCOUNT_VECTORS=handle_exception
# gdb steps riscv in software (a breakpoint after the instruction, which
# an ebreak runs past): the stub's own step instead.
HITCOUNT_STEP='maintenance packet s'
# Debian 12's sparse (0.6.4) rejects the -march the riscv Makefile
# passes (rv64..._zicsr_zifencei: "invalid argument to '-march'").
LINT_NO_SPARSE='sparse 0.6.4 rejects -march=..._zicsr_zifencei'
# The gate row: what CI builds of it (CI_BOOT=0), the stock defconfig
# with kprobes turned on; a ported row fails on any error, warning or
# option of GATE_OPTIONS it lost.
GATE_DEFCONFIG=defconfig
# What upstream's kprobes offers there (make matrix BASELINE=1 checks it).
GATE_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS'
