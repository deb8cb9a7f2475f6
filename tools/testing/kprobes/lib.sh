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
#   ARCH      x86_64 (default) or another architecture of arch/<name>.sh
#             (or one of its ALIASES): its flavour dirs are *-<name>, its
#             kprobes-test-<name>.config is merged last.  What the harness
#             knows of an architecture is that file; its keys and their
#             defaults are described in arch-defaults.sh.
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
#                        baseline-i386/ with ARCH=i386, and so on):
#     src/                 the kernel work tree (pristine + overlay + patches)
#     obj/                 kbuild's O= object directory
#     modroot/             modules_install output
#     initramfs/           the initramfs contents
#     initramfs.cpio.gz    the initramfs image
#     console.log          serial console of the last boot
#     boot.result          how the last boot ended (written by boot.sh)
#   tools-userland[-<arch>]/  make check-tools' Debian userland (debootstrap:
#                        bpftrace, linux-perf), made by deps.sh
#   <arch>-userland/     the guest's busybox and bash-static, when not the
#                        host's (USERLAND=debian: Debian's packages, e.g.
#                        i386, arm64; USERLAND=source: built from Debian's
#                        sources by deps.sh, e.g. riscv64)

set -euo pipefail

KP_PROG=$(basename "$0" .sh)
KP_TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KP_REPO=$(cd "$KP_TOOLS/../../.." && pwd)

BASE=${BASE:-/usr/src/linux-source-6.12.tar.xz}
BUILD=${BUILD:-build}
BASELINE=${BASELINE:-}
JOBS=${JOBS:-$(nproc)}

# ccache's depend mode, for every compiler the harness runs through
# ccache: on a miss, ccache takes the result key from the dependency file
# the compiler writes (kbuild's -Wp,-MMD,...) instead of running the
# preprocessor first.  That first run costs 0.3 - 0.4 s of CPU per kernel
# object (a 4 - 5 MB .i file each) on top of a 1 - 5 s compile: from an
# empty cache, a seventh or so of every build.  Hits are unchanged
# (direct mode).  CCACHE_NODEPEND=1 in the environment turns it off.
if [ -z "${CCACHE_NODEPEND:-}" ]; then
	export CCACHE_DEPEND=1
fi

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

# ARCH: what the harness knows of an architecture is its file,
# arch/<name>.sh (keys and defaults: arch-defaults.sh).  kp_arch_load
# reads every file, each sourced in a subshell of its own (so that one
# file's keys, or the environment's, do not leak into another's), into
# KP_ARCHDATA[<name>.<KEY>]; a key that arch-defaults.sh does not list is
# an error.  A file with VARIANT_OF=<other> takes <other>'s keys for those
# it does not set.  The settings of the selected architecture follow from its
# file: kbuild gets KARCH and CROSS (KP_KBUILD_ARCH), its fragment
# kprobes-test-<name>.config is merged last, the guest runs in its QEMU.
# KP_ARCH is the canonical name, empty for x86-64, where kbuild is not
# given ARCH at all (so that the existing x86-64 builds keep their
# configuration untouched) and the flavour dirs have no suffix.
KP_ARCH_FILES=("$KP_TOOLS"/arch/*.sh)
kp_arch_load()
{
	local f line keys=" "

	# The keys: what arch-defaults.sh assigns (read as text, without a
	# command: every script sources this).
	while IFS= read -r line; do
		[[ $line =~ ^([A-Z][A-Z0-9_]*)= ]] && keys+="${BASH_REMATCH[1]} "
	done < "$KP_TOOLS/arch-defaults.sh"
	echo "KP_ARCHDATA=("
	for f in "${KP_ARCH_FILES[@]}"; do
		while IFS= read -r line; do
			[[ $line =~ ^([A-Za-z_][A-Za-z0-9_]*)= ]] || continue
			[[ $keys == *" ${BASH_REMATCH[1]} "* ]] || {
				echo "$KP_PROG: $f: unknown key ${BASH_REMATCH[1]} (see arch-defaults.sh)" >&2
				return 1
			}
		done < "$f"
		(
			name=${f##*/}
			name=${name%.sh}
			# shellcheck disable=SC2086 # the keys, one word each
			unset $keys
			# shellcheck source=arch-defaults.sh
			. "$KP_TOOLS/arch-defaults.sh"
			# shellcheck disable=SC1090 # one of arch/*.sh
			. "$f"
			# A configuration of another architecture: that one's
			# keys, then its own again.
			if [ -n "$VARIANT_OF" ]; then
				# shellcheck disable=SC1090 # one of arch/*.sh
				. "$KP_TOOLS/arch/$VARIANT_OF.sh"
				# shellcheck disable=SC1090 # one of arch/*.sh
				. "$f"
			fi
			for k in $keys; do
				printf '[%q]=%q\n' "$name.$k" "${!k}"
			done
		) || return 1
	done
	echo ")"
}
declare -A KP_ARCHDATA
kp_arch_data=$(kp_arch_load) || exit 2
eval "$kp_arch_data"
unset kp_arch_data
# The architectures: every file's name (those with BOOT=1 boot).
KP_ARCHES=("${KP_ARCH_FILES[@]##*/}")
KP_ARCHES=("${KP_ARCHES[@]%.sh}")
# cross_packages PREFIX - the "package:test" pairs of a cross toolchain
# (CROSS=PREFIX, e.g. riscv64-linux-gnu-): Debian's gcc-<triplet> and
# binutils-<triplet>.  deps.sh and the gate (matrix.sh) install them.
cross_packages()
{
	[ -n "$1" ] || return 0
	printf '%s\n' "gcc-${1%-}:${1}gcc" "binutils-${1%-}:${1}strip"
}

# kp_arch KEY - the selected architecture's value of KEY.
kp_arch()
{
	printf '%s' "${KP_ARCHDATA[$KP_ARCH_NAME.$1]}"
}

ARCH=${ARCH:-}
KP_ARCH_NAME=
for kp_a in "${KP_ARCHES[@]}"; do
	# shellcheck disable=SC2031 # an index, not the file's variable
	for kp_n in "$kp_a" ${KP_ARCHDATA[$kp_a.ALIASES]}; do
		[ "${ARCH:-x86_64}" = "$kp_n" ] && KP_ARCH_NAME=$kp_a
	done
done
[ -n "$KP_ARCH_NAME" ] || {
	echo "$KP_PROG: ARCH must be one of ${KP_ARCHES[*]} (tools/testing/kprobes/arch/), not '$ARCH'" >&2
	exit 2
}
KP_ARCH=$KP_ARCH_NAME
[ "$KP_ARCH" = x86_64 ] && KP_ARCH=
KP_ARCH_SUFFIX=${KP_ARCH:+-$KP_ARCH}
# The guest's static userland (KP_CROSS_USERLAND=1: deps.sh builds it with
# the cross compiler; KP_DEB_ARCH: Debian's name of the architecture), the
# compiler of its helpers and their flags, the kernel image that boot.sh
# boots (KP_IMAGE: kbuild target, and its path under obj/) and the cross
# prefix of the binutils that handle the guest's modules (strip).
# A configuration of another architecture (VARIANT_OF) boots its userland.
KP_VARIANT_OF=$(kp_arch VARIANT_OF)
KP_USERLAND=$BUILD/${KP_VARIANT_OF:-${KP_ARCH:-x86_64}}-userland
# make check-tools: the Debian userland holding bpftrace and perf
# (deps.sh, KP_TOOLS=1).
KP_TOOLS_USERLAND=$BUILD/tools-userland$KP_ARCH_SUFFIX
KP_CROSS=$(kp_arch CROSS)
KP_CROSS_USERLAND=
[ "$(kp_arch USERLAND)" = source ] && KP_CROSS_USERLAND=1
KP_DEB_ARCH=$(kp_arch DEB_ARCH)
KP_GUEST_CC=${KP_CROSS}gcc
read -ra KP_GUEST_CFLAGS <<< "$(kp_arch GUEST_CFLAGS)"
KP_QEMU=$(kp_arch QEMU)
KP_IMAGE=$(kp_arch IMAGE)
KP_IMAGE_PATH=$(kp_arch IMAGE_PATH)
KP_IMAGE_PATH=${KP_IMAGE_PATH:-$KP_IMAGE}
KP_BUSYBOX=$KP_USERLAND/bin/busybox
KP_BASH_STATIC=$KP_USERLAND/bin/bash-static
if [ "$(kp_arch USERLAND)" = host ]; then
	KP_BUSYBOX=/bin/busybox
	KP_BASH_STATIC=/usr/bin/bash-static
fi
KP_KBUILD_ARCH=()
[ -n "$(kp_arch KARCH)" ] && KP_KBUILD_ARCH+=(ARCH="$(kp_arch KARCH)")
[ -n "$KP_CROSS" ] && KP_KBUILD_ARCH+=(CROSS_COMPILE="$KP_CROSS")
# The kernel's compiler (KP_CC, run through ccache): CROSS's gcc, or with
# LLVM (arm64-bti) clang<LLVM>, kbuild then given LLVM=<LLVM> for every
# make (configuration, modules, the kselftests' modules and helpers), so
# that Kconfig sees the compiler the build uses.
KP_LLVM=$(kp_arch LLVM)
KP_CC=${KP_CROSS}gcc
if [ -n "$KP_LLVM" ]; then
	KP_CC=clang$KP_LLVM
	KP_KBUILD_ARCH+=(LLVM="$KP_LLVM")
fi

[ -n "$KP_BOOT_CONFIG" ] && [ -n "$KP_ARCH" ] && {
	echo "$KP_PROG: DEBUG=1 is a boot of the x86-64 test kernel; not with ARCH=$KP_ARCH" >&2
	exit 2
}
# KP_TREE: the build (src/, obj/, modroot/, initramfs); KP_DIR: where a
# boot writes its console and results.  They differ only with DEBUG=1.
# KP_TREE_NAME (make matrix's gate) names a tree of its own instead.
KP_TREE=$BUILD/${KP_TREE_NAME:-$KP_FLAVOUR$KP_ARCH_SUFFIX$KP_CONFIG}
KP_DIR=$KP_TREE$KP_BOOT_CONFIG
KP_SRC=$KP_TREE/src
KP_OBJ=$KP_TREE/obj
KP_FRAGMENT=$KP_REPO/kernel/configs/kprobes-test.config
# Every fragment of the configuration, merged in this order (later wins):
# the test configuration, the architecture's (x86-64 too; after that of
# the one it is a configuration of, VARIANT_OF), then PREEMPT=1's or
# PROD=1's, which may turn an architecture's debug option off again.
KP_FRAGMENTS=("$KP_FRAGMENT")
[ -n "$KP_VARIANT_OF" ] &&
	KP_FRAGMENTS+=("$KP_REPO/kernel/configs/kprobes-test-$KP_VARIANT_OF.config")
KP_FRAGMENTS+=("$KP_REPO/kernel/configs/kprobes-test-${KP_ARCH:-x86_64}.config")
for kp_f in "${KP_CONFIG_FRAGMENTS[@]}"; do
	KP_FRAGMENTS+=("$KP_REPO/kernel/configs/$kp_f")
done

# Upstream's kprobes implementation, deleted from the "ours" work tree before
# our overlay goes in (see prepare.sh): the common files and every
# architecture's (its REMOVED).
KP_REMOVED=(
	kernel/kprobes.c
	include/linux/kprobes.h
	include/asm-generic/kprobes.h
	samples/kprobes
)
for kp_a in "${KP_ARCHES[@]}"; do
	# shellcheck disable=SC2206,SC2031 # a list, one path a word
	KP_REMOVED+=(${KP_ARCHDATA[$kp_a.REMOVED]})
done

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

# A step's cost: start=$(mark) before it, $(spent "$start") after it
# prints "N s, CPU M s": the wall time, and the CPU time (user + system)
# of the processes the script's shell waited for meanwhile (its children's
# in /proc/$$/stat), which says what the step cost when other work shared
# the CPUs.  The step must run in the script's own shell, not a subshell.
children_cpu()
{
	local -a st

	read -ra st < "/proc/$$/stat"
	echo $(((st[15] + st[16]) / $(getconf CLK_TCK)))
}

mark()
{
	echo "$(now) $(children_cpu)"
}

spent()
{
	local t0 c0

	read -r t0 c0 <<< "$1"
	echo "$(($(now) - t0)) s, CPU $(($(children_cpu) - c0)) s"
}
