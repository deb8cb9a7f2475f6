# SPDX-License-Identifier: GPL-2.0
#
# Build, boot and test harness for the kprobes overlay (not kbuild).
# The work is done by the scripts in tools/testing/kprobes/; "make help"
# lists the targets.

BASE		?= /usr/src/linux-source-6.12.tar.xz
BUILD		?= build
BASELINE	?=
PREEMPT		?=
DEBUG		?=
PROD		?=
ARCH		?=
JOBS		?= $(shell nproc)

export BASE BUILD BASELINE JOBS PREEMPT DEBUG PROD ARCH
# Optional knobs, passed to the scripts when set (see "make help").
export TIMEOUT ICOUNT ACCEL KP_INIT_HANG KP_APPEND KP_NO_WAIT KP_NOTRUN MATRIX_CELLS \
	BENCH_CONFIG BENCH_FLAVOURS BENCH_MASS BENCH_ITERS BENCH_REPS BENCH_NO_BUILD \
	SERIES_CONFIGS SERIES_TARGETS

T		:= tools/testing/kprobes
# The flavour directory (ours, ours-i386, ...): the scripts know the
# architectures (tools/testing/kprobes/arch/), this file does not.
# KP_TREE_NAME= (a tree of its own, lib.sh) moves it too: make check and
# make run must read the console the boot just wrote there.
FLAVOUR_ENV	:= BASELINE='$(BASELINE)' PREEMPT='$(PREEMPT)' DEBUG='$(DEBUG)' PROD='$(PROD)' ARCH='$(ARCH)' BUILD='$(BUILD)' \
		   KP_TREE_NAME='$(KP_TREE_NAME)'
FLAVOUR		:= $(shell $(FLAVOUR_ENV) $(T)/flavour.sh)

.DEFAULT_GOAL	:= help
.NOTPARALLEL:
.PHONY: help deps prepare config build initramfs run check check-tools check-all shell bench hitcount matrix \
	harness-check lint \
	series series-check clean distclean

help:
	@echo 'kprobes harness targets (flavour: $(FLAVOUR), output: $(BUILD)/$(FLAVOUR)/):'
	@echo '  deps       install missing host packages (as root), or name them'
	@echo '  prepare    lay out the work tree: base + overlay + patches/'
	@echo '  config     configure from kernel/configs/kprobes-test.config'
	@echo '  build      build the kernel image (the ARCH'"'"'s IMAGE: bzImage, Image, vmlinux...) and modules (ccache)'
	@echo '  initramfs  build the busybox initramfs'
	@echo '  run        boot, load the sample modules and show what they report'
	@echo '  check      boot, run KUnit, boot self-tests and kselftests; verdict'
	@echo '  check-tools  Debian'"'"'s bpftrace and perf (debootstrap userland, $(BUILD)/tools-userland) on the kernel: TAP, times (not in CI)'
	@echo '  check-all  what CI runs (.ci/run), every booted architecture included (CI: not those with CI_BOOT=0)'
	@echo '  shell      boot to an interactive shell on the serial console'
	@echo '  bench      ours vs baseline, QEMU -icount: table, build/bench-<arch>-<config>.csv'
	@echo '  hitcount   each bench path'"'"'s hit split: the base'"'"'s trap, kprobes'"'"' own, the handler (gdb; arches with HITCOUNT_GDB; built flavour)'
	@echo '  matrix     the built-only configurations: Debian amd64, KPROBES=n, the gate (every arch, compile)'
	@echo '  harness-check  the harness'"'"'s own tests (architecture files, console verdicts; no kernel)'
	@echo '  lint       W=1 and sparse over the objects of ours in the built flavour (any ARCH=)'
	@echo '  series     the overlay as a git patch series, $(BUILD)/series/; checks am, checkpatch, maintainers'
	@echo '  series-check  build the kernel after each patch of the series (ccache), stop at a broken one'
	@echo '  clean      remove the flavour directories (keep the base extraction)'
	@echo '  distclean  remove $(BUILD)/ entirely'
	@echo 'Variables:'
	@echo '  BASE=      base kernel tarball or source directory [$(BASE)]'
	@echo '  BUILD=     output directory [$(BUILD)]'
	@echo '  BASELINE=1 upstream kprobes instead of ours, same config and tests'
	@echo '  PREEMPT=1  CONFIG_PREEMPT=y config (+ kprobes-test-preempt.config), *-preempt dirs'
	@echo '  DEBUG=1    x86-64: boot the same kernel with preempt=full kmemleak=on (results in *-debug dirs)'
	@echo '  PROD=1     production config, no lockdep (+ kprobes-test-prod.config), *-prod dirs'
	@echo '  BENCH_CONFIG=  what make bench measures: prod (PROD=1 config) or debug [prod]'
	@echo '  ARCH=      the architecture, one of $(T)/arch/*.sh [x86_64]; those make check boots:'
	@$(FLAVOUR_ENV) $(T)/flavour.sh --help-arches | sed 's/^/  /'
	@echo '  JOBS=      kernel build jobs [$(JOBS)]'
	@echo '  TIMEOUT=   seconds before a boot counts as hung [the ARCH'"'"'s BOOT_TIMEOUT, 900 unless its arch file says; DEBUG=1: 1500; shell: none]'
	@echo '  ICOUNT=1   deterministic QEMU instruction counting'
	@echo '  ACCEL=     QEMU accelerator [tcg,thread=single]'
	@echo '  KP_INIT_HANG=1  make the guest hang (tests the timeout)'
	@echo '  KP_APPEND= extra kernel command-line arguments'
	@echo '  KP_NOTRUN=none  run the kselftests an arch lists as hanging its guest (mkinitramfs.sh)'
	@echo '  KP_BUILT=1 check: boot what make initramfs has just built, no build step'
	@echo '  MATRIX_CELLS=  matrix cells to run (gate-NAME: one architecture'"'"'s row) [debian nokprobes gate]'
	@echo '  SERIES_CONFIGS=  what series-check builds: test (the flavour'"'"'s config), nokprobes (KPROBES=n) [test]'

deps:
	@$(T)/deps.sh

prepare: deps
	@$(T)/prepare.sh

config: prepare
	@$(T)/config.sh

build: config
	@$(T)/build.sh

initramfs: build
	@$(T)/mkinitramfs.sh

run: initramfs
	@$(T)/boot.sh run || true
	@$(T)/parse.py $(BUILD)/$(FLAVOUR)

# KP_BUILT=1: the flavour was just built ("make initramfs"): boot it
# without going through the build steps again (.ci/run).
check: $(if $(filter 1,$(KP_BUILT)),,initramfs)
	@$(T)/boot.sh check || true
	@$(T)/parse.py $(BUILD)/$(FLAVOUR)

shell: initramfs
	@$(T)/boot.sh shell

# Debian's own bpftrace and perf on the flavour's kernel (tools-init): the
# Debian userland comes from deps (KP_CHECK_TOOLS=1: debootstrap, once),
# the kernel and modules from make initramfs.  Its console and verdict are
# tools-console.log and tools.results in the flavour directory.
check-tools: export KP_CHECK_TOOLS := 1
check-tools: $(if $(filter 1,$(KP_BUILT)),,initramfs)
	@$(T)/deps.sh
	@$(T)/mkinitramfs.sh tools
	@$(T)/boot.sh tools || true
	@$(T)/parse.py --tools $(BUILD)/$(FLAVOUR)

# The configuration matrix cells that are built, not booted (matrix.sh).
matrix: deps
	@$(T)/matrix.sh

# What CI runs (.ci/run), with every booted architecture: CI leaves out
# the boots of those whose arch file says CI_BOOT=0 (it compiles their
# gate rows).  Output also in $(BUILD)/check-all.log.
check-all: SHELL := /bin/bash
check-all:
	@mkdir -p $(BUILD); CI_ALL=1 CI_BASELINE=$(if $(filter 1,$(BASELINE)),1,0) \
		./.ci/run 2>&1 | tee $(BUILD)/check-all.log; exit $${PIPESTATUS[0]}

# The harness's own tests: no kernel, a few seconds.
harness-check:
	@cd $(T) && python3 test_parse.py

# W=1 and sparse over our objects of the built flavour (lint.sh).
lint:
	@$(T)/lint.sh

# Builds and boots both flavours itself (BASELINE= does not apply).
bench: deps
	@$(T)/bench.sh

hitcount:
	@$(T)/hitcount.sh

# The series is checked against the work tree that prepare lays out.
series: prepare
	@$(T)/series.sh

series-check: prepare
	@$(T)/series.sh check

clean:
	rm -rf $(BUILD)/ours $(BUILD)/ours-* $(BUILD)/baseline $(BUILD)/baseline-*

distclean:
	rm -rf $(BUILD)
