# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
#
# arch-defaults.sh - the keys of an architecture file, arch/<name>.sh, and
# their defaults.
#
# An architecture is one file of the harness: arch/<name>.sh, <name> the
# canonical ARCH= value, read by lib.sh (bash) and kparch.py (python),
# plus its kernel/configs/kprobes-test-<name>.config and the kernel's
# back-end.  Like this file, it holds only assignments KEY=value,
# KEY='...' or KEY="..." (no $ expansion, no arrays, no commands: both
# readers must read the same values), comments and blank lines; a quoted
# value may span lines, one item a line.  Single quotes for regexes;
# double quotes (for an apostrophe) take no backslash, and a "$" only at
# the end of a line.  A key not listed here is an error.  Lists are split
# at white space unless said otherwise; "TEST|why" lists have one entry a line.

# ---- what every file has --------------------------------------------------
# Other accepted ARCH= spellings.
ALIASES=
# Kbuild's ARCH= (empty: none given, as for x86-64).
KARCH=
# CROSS_COMPILE prefix (empty: native).
CROSS=
# Build the booted kernel and its modules with LLVM=<this> (e.g. -19:
# clang-19, ld.lld-19, llvm-objcopy-19...) instead of CROSS's gcc, for a
# configuration gcc cannot make (arm64-bti: ARM64_BTI_KERNEL needs
# clang); CROSS stays kbuild's CROSS_COMPILE (clang's --target) and the
# guest's helpers' gcc.  The gate row has its own, GATE_LLVM.
LLVM=
# Debian packages the build and boot need beyond deps.sh's common ones:
# PACKAGE:TEST (TEST: a command, an absolute path, or one of deps.sh's
# checks static-libc32, static-libc-cross), or PACKAGE alone (dpkg says
# whether it is installed).
PACKAGES=
# 1: our kprobes back-end supports it.
PORTED=
# 1: make check ARCH=<name> boots it.
BOOT=
# 0: .ci/run does not boot it (make check-all does): CI compiles its gate
# row only (which needs a GATE_DEFCONFIG), to keep CI's cold run in its
# budget (README: CI).  Empty: as BOOT.
CI_BOOT=
# One line for make help.
HELP=
# The architecture this one is a configuration of (arm-thumb2: arm): its
# file gives the keys this one does not set, its
# kernel/configs/kprobes-test-<it>.config is merged before this one's
# fragment, and its guest userland (<it>-userland) is this one's.
VARIANT_OF=
# Upstream's kprobes files of the architecture, deleted from the "ours"
# work tree before our overlay goes in (lib.sh's KP_REMOVED: every
# architecture's, whatever ARCH).
REMOVED=
# Numbers of patches/ (NNNN) that fix the base itself, nothing about
# kprobes, without which the machine below does not boot: the baseline
# flavour gets them as well (prepare.sh), ours has every patch anyway.
BASE_FIXES=

# ---- the guest ------------------------------------------------------------
# Where its static busybox and bash come from (deps.sh): host (the host's
# busybox-static and bash-static), debian (Debian's packages of DEB_ARCH,
# downloaded and unpacked) or source (built from Debian's source
# packages with CROSS).
USERLAND=host
# Debian's name of the architecture (libc6-dev-<it>-cross, pkg:<it>).
DEB_ARCH=
# Flags of the guest's helpers (the compiler is ${CROSS}gcc).
GUEST_CFLAGS=
# ---- the boot (boot.sh) ---------------------------------------------------
QEMU=
# Kbuild's target of the kernel that boots, and its path under obj/ (empty:
# IMAGE).
IMAGE=vmlinux
IMAGE_PATH=
# QEMU arguments before -smp: machine, firmware, CPU.
MACHINE=
# -smp, and -smp under ICOUNT=1 (empty: SMP).
SMP=2
SMP_ICOUNT=
# QEMU arguments after -smp: devices, actions.
QEMU_EXTRA=
MEM=1G
# -m of make check-tools' boot: its initramfs is a Debian userland of
# 460 MB (bpftrace's LLVM among it), unpacked into memory.
TOOLS_MEM=3G
# The console= device.
CONSOLE=ttyS0
# QEMU's serial port of the console, from 0: the ports before it are
# -serial null (sh's r2d: SCI, then the SCIF that is ttySC1).
CONSOLE_SERIAL=0
# Kernel arguments before console=, and after the harness's own.
APPEND_FIRST=
APPEND=
# How the guest's status reaches boot.sh: debug-exit (an exit device
# makes QEMU exit with (status << 1) | 1) or panic (power-off for 0,
# kp-exit's panic on purpose otherwise, QEMU exiting with 1).
EXIT=debug-exit
# How the hang dump types sysrq: break (a serial BREAK) or ctrl-o (hvc0).
SYSRQ='break'
# TIMEOUT's default for run, check and bench, seconds.
BOOT_TIMEOUT=900
# ---- the tests (mkinitramfs.sh, parse.py, hitcount.sh) ---------------------
# TEST|why lines, TEST as /init names it (kprobes:SCRIPT, ftrace:CASE):
# tests that hang this guest, not run and reported as failures, on ours
# and on the baseline (KP_NOTRUN=none runs them anyway).
NOTRUN_OURS=
NOTRUN_BASELINE=
# 1: skip the arch-independent ftracetest cases (mkinitramfs.sh lists
# them), for a slow guest; FTRACE_SKIP: CASE|why lines of more to skip;
# FTRACE_SKIP_MORE: more of them, for a VARIANT_OF file to add to the
# FTRACE_SKIP it takes from the other.
FTRACE_SKIP_GENERIC=
FTRACE_SKIP=
FTRACE_SKIP_MORE=
# Console reports that are known, not failures (parse.py), one or more
# entries: "report: REGEX" (of the report's first line) starts one,
# "config: [!]CONFIG_X=y ..." lines the .config must have (or not, !),
# "body: REGEX" (each: some line of the report's body matches), "why:"
# the reason printed.
CONSOLE_KNOWN=
# Regex before the 16 hex digits (8 on a 32-bit machine) of a CPU's pc in
# QEMU's "info registers" (parse.py's hang report).
HANG_PC=
# The gdb of hitcount.sh (empty: hitcount.py does not know the arch).
HITCOUNT_GDB=
# hitcount.py's gdb expressions: a function's return address at its first
# instruction; the first four integer arguments of a call, space-separated.
HITCOUNT_RA=
HITCOUNT_ARGS=
# The base's exception entries that the probes' traps reach (symbols):
# kphit.py counts everything from one to the exception's return as the
# trap's, the kprobes code it calls apart.
HITCOUNT_VECTORS=
# The gdb command that steps one instruction, where gdb's stepi would not
# (empty: stepi); the registers are read again after it.
HITCOUNT_STEP=
# Upstream's kprobes functions that sit in a base file the series changes
# rather than removes (patches/ takes them out of ours): kphit.py counts
# them as the baseline's own, not as the base's trap.
HITCOUNT_BASELINE_OWN=
# 1: the stack grows to higher addresses (parisc); hitcount.py and
# kphit.py compare stack pointers the other way round.
HITCOUNT_STACK_UP=
# 1: make hitcount boots under -icount shift=0, where the guest's clocks
# move by its instructions, not by the host's time gdb's stepping takes
# (ppc64le: else a decrementer interrupt is due when a stepped trap
# returns, and replayed there tick by missed tick).  Not everywhere:
# QEMU 7.2's s390x stub stops at one breakpoint under -icount, then
# never again.
HITCOUNT_ICOUNT=
# Where vectors run with the MMU off (32-bit Book3S powerpc: at 0x700,
# the text's 0xc0000700): the offset, in hex, from such a physical PC to
# the text's address of the same code (empty: none).
HITCOUNT_REAL_OFFSET=
# Where the kernel runs minus where vmlinux is linked, in hex (s390's
# relocatable kernel without KASLR: CONFIG_KERNEL_IMAGE_BASE; empty: 0).
HITCOUNT_KERNEL_OFFSET=
# Why make lint cannot run sparse on this architecture (empty: it does).
LINT_NO_SPARSE=
# 0: kpbench.ko has no probe targets here (the kselftests' test_modules/
# Makefile builds none): the initramfs has no kp.mode=bench module.
KPBENCH=1
# Why QEMU cannot run this machine under -icount (empty: it can): make
# bench then boots without it, and its ns are the host's, as noisy as the
# host is busy; it says so.
BENCH_NO_ICOUNT=
# ---- the gate (matrix.sh's gate-<name> rows of make matrix) ----------------
# The stock defconfig the gate builds with kprobes, kretprobes, kprobe
# events and ftrace turned on (empty: no row compiles it; a booted
# architecture's row points at make check).
GATE_DEFCONFIG=
# The kprobes options upstream's kprobes has in that configuration, of
# KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES: a ported
# architecture without one of them fails its row, an unported one lists
# them as what the series makes unavailable; BASELINE=1 checks the list.
GATE_OPTIONS=
# OPTION|why lines: options of GATE_OPTIONS a ported architecture does not
# have yet, each with the reason; its row passes without them and names
# them (only a speed-up, never what a probe can do, belongs here).
GATE_LOST=
# Options the gate turns on after the defconfig, beyond the kprobes and
# ftrace ones (THUMB2_KERNEL for arm-thumb2).
GATE_CONFIG=
# Build with LLVM=<this> (e.g. -19: clang-19, ld.lld-19) instead of
# CROSS's gcc.
GATE_LLVM=
# Why nothing here compiles it: its row is skipped, saying so.
GATE_UNBUILDABLE=
