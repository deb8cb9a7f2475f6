# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # settings used by the scripts sourcing this
#
# lib.sh - settings and helpers shared by the kprobes harness scripts.
#
# Sourced (never executed) by the scripts next to it.  Every setting can come
# from the environment, which is how the top-level Makefile passes them on:
#
#   BASE      base kernel: a linux-source tarball or a kernel source directory
#   BUILD     output directory (relative paths are relative to the repo root)
#   BASELINE  1: build upstream's unmodified kprobes instead of ours
#   JOBS      parallel kernel build jobs
#   PREEMPT   1: the CONFIG_PREEMPT=y configuration (flavour dir *-preempt)
#   DEBUG     1: the debug boot of the x86-64 test kernel: the same build
#             (the flavour's own directory), booted with preempt=full and
#             kmemleak=on; its console and results go to *-debug/
#   PROD      1: the production configuration of make bench, without the
#             debug options (flavour dir *-prod, kprobes-test-prod.config)
#   ARCH      x86_64 (default), i386 (the 32-bit kernel and guest: flavour
#             dir *-i386, kprobes-test-i386.config merged last), riscv64
#             (cross-built, qemu-system-riscv64: flavour dir *-riscv64,
#             kprobes-test-riscv64.config merged last) or ppc64le (alias
#             ppc64el; cross-built, qemu-system-ppc64 -M pseries: flavour
#             dir *-ppc64le, kprobes-test-ppc64le.config merged last)
#
# Layout under $BUILD:
#
#   base-<version>/      pristine extraction of BASE, made once, never written
#   base-id/             which tarball (path, size, mtime) holds which version
#   ours/ baseline/      one directory per flavour (ours-debug/ and
#                        baseline-debug/ with DEBUG=1 hold only a boot's
#                        results: console.log, boot.result, kunit.json;
#                        ours-preempt/ and
#                        baseline-preempt/ with PREEMPT=1, ours-i386/ and
#                        baseline-i386/ with ARCH=i386, ours-riscv64/ and
#                        baseline-riscv64/ with ARCH=riscv64, ours-ppc64le/
#                        and baseline-ppc64le/ with ARCH=ppc64le):
#     src/                 the kernel work tree (pristine + overlay + patches)
#     obj/                 kbuild's O= object directory
#     modroot/             modules_install output
#     initramfs/           the initramfs contents
#     initramfs.cpio.gz    the initramfs image
#     console.log          serial console of the last boot
#     boot.result          how the last boot ended (written by boot.sh)
#   i386-userland/       ARCH=i386: Debian's i386 busybox and bash-static
#   riscv64-userland/    ARCH=riscv64: busybox and bash-static built from
#                        Debian's sources (deps.sh)
#   ppc64le-userland/    ARCH=ppc64le: the same, for ppc64le

set -euo pipefail

KP_PROG=$(basename "$0" .sh)
KP_TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KP_REPO=$(cd "$KP_TOOLS/../../.." && pwd)

BASE=${BASE:-/usr/src/linux-source-6.12.tar.xz}
BUILD=${BUILD:-build}
BASELINE=${BASELINE:-}
JOBS=${JOBS:-$(nproc)}

case $BUILD in
/*)	;;
*)	BUILD=$KP_REPO/$BUILD ;;
esac

case $BASELINE in
1)		KP_FLAVOUR=baseline ;;
''|0)		KP_FLAVOUR=ours ;;
*)		echo "$KP_PROG: BASELINE must be 1 or empty, not '$BASELINE'" >&2
		exit 2 ;;
esac

# PREEMPT=1: the second test configuration, full preemption.  The
# fragment kprobes-test-preempt.config is merged after the main one, and
# the flavour gets its own directory ($BUILD/ours-preempt,
# $BUILD/baseline-preempt) so both configurations keep incremental builds.
# KP_FLAVOUR stays "ours" or "baseline"; KP_CONFIG names the configuration.
PREEMPT=${PREEMPT:-}
case $PREEMPT in
1)		KP_CONFIG=-preempt ;;
''|0)		KP_CONFIG= ;;
*)		echo "$KP_PROG: PREEMPT must be 1 or empty, not '$PREEMPT'" >&2
		exit 2 ;;
esac
# DEBUG=1: the debug boot.  The x86-64 test kernel chooses its preemption
# model at boot and has kmemleak compiled in but off
# (kprobes-test-x86_64.config): DEBUG=1 boots that same build with
# preempt=full and kmemleak=on (boot.sh).  Nothing is built for it; the
# boot's results go to their own directory (KP_DIR, suffix -debug) while
# the work tree, objects, modules and initramfs stay in the flavour's
# (KP_TREE).  It is the second x86-64 configuration of CI.
DEBUG=${DEBUG:-}
KP_CONFIG_FRAGMENTS=()
[ -n "$KP_CONFIG" ] && KP_CONFIG_FRAGMENTS=("kprobes-test$KP_CONFIG.config")
KP_BOOT_CONFIG=
case $DEBUG in
1)		[ -z "$KP_CONFIG" ] || {
			echo "$KP_PROG: DEBUG=1 boots the default configuration; PREEMPT=1 does not combine" >&2
			exit 2
		}
		KP_BOOT_CONFIG=-debug ;;
''|0)		;;
*)		echo "$KP_PROG: DEBUG must be 1 or empty, not '$DEBUG'" >&2
		exit 2 ;;
esac
# PROD=1: the production configuration that make bench measures (the
# test configuration minus lockdep and the other debug options, fragment
# kprobes-test-prod.config); one configuration at a time.
PROD=${PROD:-}
case $PROD in
1)		[ -z "$KP_CONFIG$KP_BOOT_CONFIG" ] || {
			echo "$KP_PROG: PROD=1 and PREEMPT=1 or DEBUG=1 do not combine" >&2
			exit 2
		}
		KP_CONFIG=-prod
		KP_CONFIG_FRAGMENTS=(kprobes-test-prod.config) ;;
''|0)		;;
*)		echo "$KP_PROG: PROD must be 1 or empty, not '$PROD'" >&2
		exit 2 ;;
esac

# ARCH=i386: the 32-bit configuration.  Kbuild gets ARCH=i386 (which
# turns CONFIG_64BIT off), the fragment kprobes-test-i386.config is merged
# after the others, the guest runs in qemu-system-i386 with a 32-bit
# userland (Debian's i386 busybox-static and bash-static, unpacked by
# deps.sh into $BUILD/i386-userland; helpers built with gcc -m32).
# The cross architectures, riscv64 and ppc64le: kbuild gets the kernel's
# name of the architecture (riscv, powerpc) and the Debian cross tools
# (KP_CROSS: riscv64-linux-gnu-, powerpc64le-linux-gnu-),
# kprobes-test-$KP_ARCH.config is merged last, the guest runs in
# $KP_QEMU (riscv64: -M virt with OpenSBI; ppc64le: -M pseries with
# QEMU's own firmware, VOF).  deps.sh builds their userland, busybox and
# bash statically from Debian's source packages with the cross compiler,
# into $BUILD/$KP_ARCH-userland (Debian 12 has no riscv64 port to
# download binaries from; for ppc64el it could, but one way for both
# keeps one code path), and the guest's helpers are cross-compiled.
# KP_ARCH is empty for x86-64, where kbuild is not given ARCH at all (so
# that the existing x86-64 builds keep their configuration untouched).
ARCH=${ARCH:-}
case $ARCH in
i386|x86_32)	KP_ARCH=i386 ;;
riscv64|riscv)	KP_ARCH=riscv64 ;;
ppc64le|ppc64el|powerpc64le)	KP_ARCH=ppc64le ;;
''|x86|x86_64)	KP_ARCH= ;;
*)		echo "$KP_PROG: ARCH must be x86_64, i386, riscv64 or ppc64le, not '$ARCH'" >&2
		exit 2 ;;
esac
KP_ARCH_SUFFIX=${KP_ARCH:+-$KP_ARCH}
# The guest's static userland, the compiler of its helpers and their
# flags, the kernel image that boot.sh boots (KP_IMAGE: kbuild target, and
# its path under obj/) and the cross prefix of the binutils that handle
# the guest's modules (strip).  KP_CROSS_USERLAND=1: deps.sh builds the
# userland with the cross compiler (KP_DEB_ARCH: Debian's name of the
# architecture, as in libc6-dev-<it>-cross).
KP_USERLAND=$BUILD/${KP_ARCH:-x86_64}-userland
KP_CROSS=
KP_CROSS_USERLAND=
KP_DEB_ARCH=
KP_GUEST_CC=gcc
KP_IMAGE=bzImage
KP_IMAGE_PATH=arch/x86/boot/bzImage
case $KP_ARCH in
i386)
	KP_BUSYBOX=$KP_USERLAND/bin/busybox
	KP_BASH_STATIC=$KP_USERLAND/bin/bash-static
	# <asm/*.h> for -m32 come from the x86-64 linux-libc-dev (they are
	# bi-arch); gcc-multilib's /usr/include/asm link, which finds them
	# otherwise, conflicts with every cross gcc (riscv64's included).
	KP_GUEST_CFLAGS=(-m32 -idirafter /usr/include/x86_64-linux-gnu)
	KP_QEMU=qemu-system-i386
	KP_KBUILD_ARCH=(ARCH="$KP_ARCH") ;;
riscv64)
	KP_CROSS=riscv64-linux-gnu-
	KP_DEB_ARCH=riscv64
	KP_QEMU=qemu-system-riscv64
	KP_IMAGE=Image
	KP_IMAGE_PATH=arch/riscv/boot/Image
	KP_KBUILD_ARCH=(ARCH=riscv CROSS_COMPILE="$KP_CROSS") ;;
ppc64le)
	# vmlinux itself: QEMU's pseries machine loads the ELF (-kernel), and
	# its firmware (VOF, x-vof=on) enters it through prom_init.
	KP_CROSS=powerpc64le-linux-gnu-
	KP_DEB_ARCH=ppc64el
	KP_QEMU=qemu-system-ppc64
	KP_IMAGE=vmlinux
	KP_IMAGE_PATH=vmlinux
	KP_KBUILD_ARCH=(ARCH=powerpc CROSS_COMPILE="$KP_CROSS") ;;
*)
	KP_BUSYBOX=/bin/busybox
	KP_BASH_STATIC=/usr/bin/bash-static
	KP_GUEST_CFLAGS=()
	KP_QEMU=qemu-system-x86_64
	KP_KBUILD_ARCH=() ;;
esac
# What every cross architecture shares.
if [ -n "$KP_CROSS" ]; then
	KP_CROSS_USERLAND=1
	KP_GUEST_CC=${KP_CROSS}gcc
	KP_BUSYBOX=$KP_USERLAND/bin/busybox
	KP_BASH_STATIC=$KP_USERLAND/bin/bash-static
	KP_GUEST_CFLAGS=()
fi

[ -n "$KP_BOOT_CONFIG" ] && [ -n "$KP_ARCH" ] && {
	echo "$KP_PROG: DEBUG=1 is a boot of the x86-64 test kernel; not with ARCH=$KP_ARCH" >&2
	exit 2
}
# KP_TREE: the build (src/, obj/, modroot/, initramfs); KP_DIR: where a
# boot writes its console and results.  They differ only with DEBUG=1.
KP_TREE=$BUILD/$KP_FLAVOUR$KP_ARCH_SUFFIX$KP_CONFIG
KP_DIR=$KP_TREE$KP_BOOT_CONFIG
KP_SRC=$KP_TREE/src
KP_OBJ=$KP_TREE/obj
KP_FRAGMENT=$KP_REPO/kernel/configs/kprobes-test.config
# Every fragment of the configuration, merged in this order (later wins):
# the test configuration, the architecture's (x86-64 too), then PREEMPT=1's
# or PROD=1's, which may turn an architecture's debug option off again.
KP_FRAGMENTS=("$KP_FRAGMENT" "$KP_REPO/kernel/configs/kprobes-test-${KP_ARCH:-x86_64}.config")
for kp_f in "${KP_CONFIG_FRAGMENTS[@]}"; do
	KP_FRAGMENTS+=("$KP_REPO/kernel/configs/$kp_f")
done

# Upstream's kprobes implementation, deleted from the "ours" work tree before
# our overlay goes in (see prepare.sh).
KP_REMOVED=(
	kernel/kprobes.c
	include/linux/kprobes.h
	include/asm-generic/kprobes.h
	arch/x86/kernel/kprobes
	arch/x86/include/asm/kprobes.h
	# riscv: kprobes and its rethook (whose only user there is kretprobes:
	# fprobe needs DYNAMIC_FTRACE_WITH_REGS, which riscv 6.12 lacks).  The
	# directory's Makefile is ours; uprobes.c and the decode-insn/
	# simulate-insn pair it uses stay upstream's.
	arch/riscv/kernel/probes/kprobes.c
	arch/riscv/kernel/probes/rethook.c
	arch/riscv/kernel/probes/rethook.h
	arch/riscv/kernel/probes/rethook_trampoline.S
	arch/riscv/kernel/probes/Makefile
	arch/riscv/include/asm/kprobes.h
	# powerpc: kprobes, its ftrace and jump-optimization halves, and its
	# rethook (a kprobe on a trampoline).  Ours, rethook included, is
	# arch/powerpc/kernel/probes/.
	arch/powerpc/kernel/kprobes.c
	arch/powerpc/kernel/kprobes-ftrace.c
	arch/powerpc/kernel/optprobes.c
	arch/powerpc/kernel/optprobes_head.S
	arch/powerpc/kernel/rethook.c
	arch/powerpc/include/asm/kprobes.h
	samples/kprobes
)

die()
{
	echo "$KP_PROG: $*" >&2
	exit 1
}

note()
{
	echo "$KP_PROG: $*"
}

# Repository paths that are harness, not kernel tree: neither the overlay
# (prepare.sh) nor the series (series.sh).
is_harness_path()
{
	case $1 in
	Makefile|README.md|.gitignore|.ci/*|patches/*|tools/testing/kprobes/*)
		return 0 ;;
	esac
	return 1
}

# One kernel build at a time on this machine: build.sh, matrix.sh and
# series.sh hold this lock (fd 8) while they build.  KP_NO_WAIT=1 skips it
# (.ci/run's check of a configuration that is already built).
KP_LOCK=${KP_BUILD_LOCK:-/tmp/kprobes-harness-build.lock}

take_build_lock()
{
	[ "${KP_NO_WAIT:-}" = 1 ] && return 0
	exec 8>"$KP_LOCK"
	if ! flock -n 8; then
		note "waiting for another harness build to finish"
		flock 8
	fi
}

drop_build_lock()
{
	[ "${KP_NO_WAIT:-}" = 1 ] && return 0
	exec 8>&-
}

# clean_make ARGS - make with a clean environment, for every make of the
# kernel tree (kbuild, its selftests): the harness's own make passes its
# command-line variables (BUILD=, BASE=, ...) down through MAKEFLAGS, and
# kbuild must not see those.  Nor ARCH or DEBUG, which the top Makefile
# exports: the tools/ makefiles read DEBUG (DEBUG=1 builds objtool without
# optimization), and a new objtool rebuilds every object.
clean_make()
{
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u ARCH -u DEBUG \
		make "$@"
}

# A kernel make in the flavour's work tree and object directory.
kmake()
{
	clean_make -C "$KP_SRC" O="$KP_OBJ" "${KP_KBUILD_ARCH[@]}" "$@"
}

# The version of the kernel source in directory $1 ("6.12.117").
kernel_version()
{
	awk '
		$1 == "VERSION"     && $2 == "=" { v = $3 }
		$1 == "PATCHLEVEL"  && $2 == "=" { p = $3 }
		$1 == "SUBLEVEL"    && $2 == "=" { s = $3 }
		$1 == "EXTRAVERSION" && $2 == "=" { e = $3 }
		NR > 20 { exit }
		END { if (v == "") exit 1; printf "%s.%s.%s%s\n", v, p, s, e }
	' "$1/Makefile"
}

# Seconds since the epoch, for the "took N s" lines.
now()
{
	date +%s
}
