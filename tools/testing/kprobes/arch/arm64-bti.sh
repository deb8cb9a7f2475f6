# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by lib.sh and kparch.py
# arm64-bti: the arm64 kernel with Branch Target Identification and
# pointer authentication in force (ARM64_BTI_KERNEL, ARM64_PTR_AUTH_KERNEL)
# on a CPU that has both (QEMU's -cpu max): every function that may be
# reached by an indirect branch starts with a BTI landing pad, module and
# kernel text pages are guarded, and every non-leaf function signs its
# return address.  ARM64_BTI_KERNEL cannot be built with gcc (gcc bug
# 106671): this configuration is built with clang-19 and lld-19 (LLVM).
# A configuration of arm64 (VARIANT_OF): every key not set here is
# arm64.sh's (the guest, QEMU's virt machine, the tests it skips), and
# kprobes-test-arm64.config is merged before kprobes-test-arm64-bti.config.
# The keys are described in arch-defaults.sh.

VARIANT_OF=arm64
ALIASES='aarch64-bti'
HELP='cross-built arm64 kernel with BTI and PAC (clang-19), qemu-system-aarch64 virt'
# arm64's, and LLVM's tools; the cross gcc still builds the guest's
# helpers' libc (libc6-dev-arm64-cross) and binutils strip the modules.
PACKAGES='
gcc-aarch64-linux-gnu:aarch64-linux-gnu-gcc
qemu-system-arm:qemu-system-aarch64
clang-19:clang-19
lld-19:ld.lld-19
llvm-19:llvm-objcopy-19
'
LLVM=-19
# arm64's upstream files (REMOVED) are removed once, for arm64.
REMOVED=
# Booted by make check-all, not by CI: CI's cold budget (README: CI) has
# no room for another booted kernel (measured 2026-12-06: 503 CPU-s of
# cold clang build, a 13-minute boot); CI compiles its gate row, the
# back-end built by clang with landing pads.
CI_BOOT=0
# No KASAN here (kprobes-test-arm64-bti.config): the boot through every
# test took 13 min on a loaded host, arm64's KASAN kernel 21.
BOOT_TIMEOUT=1200
# The gate's row: arm64's defconfig (GATE_DEFCONFIG, GATE_OPTIONS) built
# with clang, where BTI_KERNEL (default y) is on: the back-end and every
# object that uses kprobes compiled by LLVM and with landing pads, which
# the booted kernel of CI (gcc) never is.
GATE_LLVM=-19
GATE_CONFIG='ARM64_BTI_KERNEL ARM64_PTR_AUTH_KERNEL'
