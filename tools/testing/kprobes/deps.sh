#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - make sure the host has what the harness needs (Debian packages).
#
# As root, missing packages are installed with apt-get; otherwise the
# missing packages are named and the script fails.
#
# An architecture other than x86-64 also needs the packages of its file's
# PACKAGES (arch/<name>.sh: its QEMU, gcc-12-multilib for i386's gcc -m32,
# ...), the cross compiler and binutils of its CROSS (gcc-<triplet>,
# binutils-<triplet>), and a static userland of that architecture
# (USERLAND):
#
# USERLAND=debian (i386, arm64, ppc64le): Debian's busybox-static:<DEB_ARCH> and
# bash-static:<DEB_ARCH>, downloaded with "apt-get download" (the
# architecture is added to dpkg if it is not there) and unpacked with
# dpkg-deb -x into $BUILD/<arch>-userland, so nothing of the host's amd64
# system changes.
#
# A cross architecture (CROSS) also needs the static libc of its cross
# compiler (libc6-dev-<DEB_ARCH>-cross), for the guest's helpers.
#
# USERLAND=source (riscv64): the userland is built from source.  Debian
# 12 has no riscv64 port, so there is no busybox-static:riscv64 to
# download: the userland is built here from
# Debian's own source packages of busybox and bash (the versions the x86
# guests run), fetched with "apt-get source" through a private apt state
# in $BUILD/<arch>-src (deb-src lines made from the host's own apt
# sources; the host's apt configuration is not touched), unpacked with
# dpkg-source, configured as Debian configures busybox-static and
# bash-static, and cross-compiled statically into $BUILD/<arch>-userland
# (about 2.5 minutes of CPU).
#
# KP_USERLAND_LATER=1: install the packages only; a userland built from
# source is left for a later run without it (.ci/run builds it niced,
# beside the kernel builds, rather than before them).
#
# KP_CHECK_TOOLS=1 (make check-tools): also the Debian userland that holds
# Debian's own bpftrace and perf (linux-perf), made with debootstrap
# (minbase, DEB_ARCH, the suite and mirror that the host's apt takes
# bpftrace from: apt-cache policy) into $BUILD/tools-userland[-<arch>]
# and kept there: it is made again only when what it was made from (the
# stamp file .kp-tools-stamp: packages, suite, mirror, architecture)
# changes.  460 MB once the documentation, translations and apt's caches
# are removed; 2 minutes (2026-12-05).  Beside it, tools-userland.cpio:
# the same as an uncompressed initramfs archive, every file root's
# (written here, as root, since some files are readable by root only;
# mkinitramfs.sh tools appends the kernel's own files).
#
# KP_DRY_RUN=1: print the package:test pairs that would be checked.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# "package:test" pairs.  A test is a command name, an absolute file path, or
# one of the special checks static-libc and static-busybox.
# bash-static is optional: without it the guest has no /bin/bash.
REQUIRED=(
	"make:make"
	"gcc:gcc"
	"binutils:ld"
	"binutils:readelf"
	"libc6-dev:static-libc"
	"flex:flex"
	"bison:bison"
	"bc:bc"
	"perl:perl"
	"libelf-dev:/usr/include/libelf.h"
	"libssl-dev:/usr/include/openssl/opensslv.h"
	"python3:python3"
	"rsync:rsync"
	"cpio:cpio"
	"kmod:depmod"
	"xz-utils:xz"
	"gzip:gzip"
	"patch:patch"
	"git:git"
	"util-linux:flock"
	"coreutils:timeout"
	"ccache:ccache"
	# make lint (lint.sh) checks our objects with sparse as well as W=1.
	"sparse:sparse"
	"qemu-system-x86:qemu-system-x86_64"
	"busybox-static:static-busybox"
	"linux-source-6.12:/usr/src/linux-source-6.12.tar.xz"
	"linux-config-6.12:/usr/src/linux-config-6.12/config.amd64_none_amd64.xz"
)
OPTIONAL=(
	"bash-static:/usr/bin/bash-static"
)
# The architecture's own (arch/<name>.sh).
# shellcheck disable=SC2207 # a list, one entry a word
REQUIRED+=($(kp_arch PACKAGES))
# Every cross architecture: the cross compiler and binutils, and the
# static libc of the cross compiler (the guest's helpers are linked
# statically, whatever USERLAND).
if [ -n "$KP_CROSS" ]; then
	# shellcheck disable=SC2207 # a list, one entry a word
	REQUIRED+=($(cross_packages "$KP_CROSS")
		"libc6-dev-$KP_DEB_ARCH-cross:static-libc-cross")
fi
# A userland built from source: what building takes.
if [ -n "$KP_CROSS_USERLAND" ]; then
	REQUIRED+=(
		"dpkg-dev:dpkg-source"
		"bzip2:bzip2"
	)
fi
# make check-tools: debootstrap makes the Debian userland.
if [ "${KP_CHECK_TOOLS:-}" = 1 ]; then
	REQUIRED+=("debootstrap:debootstrap")
fi
# The userland of an architecture that is not the host's: package, file
# it must leave in $KP_USERLAND/bin (downloaded, or built from the source
# packages).
# Another apt or dpkg (a helper's, unattended-upgrades) may hold the
# locks: wait for it rather than fail.
APT_WAIT=(-o DPkg::Lock::Timeout=600)

USERLAND_PKGS=(
	"busybox-static:busybox"
	"bash-static:bash-static"
)

if [ "${KP_DRY_RUN:-}" = 1 ]; then
	echo "== required"
	printf '%s\n' "${REQUIRED[@]}" | sort -u
	echo "== optional"
	printf '%s\n' "${OPTIONAL[@]}"
	echo "userland=$KP_CROSS_USERLAND"
	exit 0
fi

# Static libc, for the guest's kp-exit helper.
static_libc()
{
	local libc

	libc=$(gcc -print-file-name=libc.a 2>/dev/null) || return 1
	[ -f "$libc" ]
}

# The same for gcc -m32 (i386: gcc-12-multilib): a static 32-bit program
# that includes kernel headers links, with the flags the guest's helpers
# get.
static_libc32()
{
	printf '#include <errno.h>\n#include <linux/perf_event.h>\nint main(void) { return EINVAL; }\n' |
		gcc "${KP_GUEST_CFLAGS[@]}" -static \
			-x c - -o /dev/null 2>/dev/null
}

# The guest needs a statically linked busybox; Debian's "busybox" package
# installs a dynamic one at the same path as "busybox-static" does.
static_busybox()
{
	[ -x /bin/busybox ] || return 1
	! LC_ALL=C readelf -l /bin/busybox 2>/dev/null |
		grep 'program interpreter' > /dev/null
}

# The same for the cross compiler (libc6-dev-<debian arch>-cross).
static_libc_cross()
{
	local libc

	libc=$("${KP_CROSS}gcc" -print-file-name=libc.a 2>/dev/null) || return 1
	[ -f "$libc" ] && [ "$libc" != libc.a ]
}

present()
{
	case $1 in
	static-libc)	static_libc ;;
	static-libc32)	static_libc32 ;;
	static-libc-cross)	static_libc_cross ;;
	static-busybox)	static_busybox ;;
	dpkg-installed)	dpkg-query -W -f='${Status}' "$2" 2>/dev/null |
				grep -q ' installed$' ;;
	/*)		[ -e "$1" ] ;;
	*)		command -v "$1" >/dev/null 2>&1 ;;
	esac
}

missing_pkgs()
{
	local entry pkg

	for entry in "$@"; do
		pkg=${entry%%:*}
		# A package without a test: dpkg says.
		if [ "$pkg" = "$entry" ]; then
			present dpkg-installed "$pkg" || echo "$pkg"
			continue
		fi
		present "${entry#*:}" || echo "$pkg"
	done
}

# The userland packages (USERLAND=debian or source) not unpacked or built
# yet.
missing_userland()
{
	local entry

	[ "$(kp_arch USERLAND)" != host ] || return 0
	for entry in "${USERLAND_PKGS[@]}"; do
		[ -x "$KP_USERLAND/bin/${entry#*:}" ] || echo "${entry%%:*}"
	done
}

# Download the packages $@ of $KP_DEB_ARCH and unpack them into
# $KP_USERLAND (USERLAND=debian); with USERLAND=source, build the userland
# instead.
# apt-get update fails as a whole when one index of one architecture does
# not download (a mirror in the middle of a sync: "File has unexpected
# size"), although every other index, and all this script needs, may be
# there.  The failure is reported, not fatal: the install or download
# that follows fails if what it needs is really missing.
apt_update()
{
	apt-get "${APT_WAIT[@]}" update || note "apt-get update reported errors (above); going on with the indexes it has"
}

install_userland()
{
	local tmp pkg deb a=$KP_DEB_ARCH

	if [ -n "$KP_CROSS_USERLAND" ]; then
		build_userland_cross
		return
	fi
	if ! dpkg --print-foreign-architectures | grep -x "$a" > /dev/null; then
		note "adding the $a architecture to dpkg"
		dpkg --add-architecture "$a"
		apt_update
	fi
	tmp=$BUILD/$a-debs
	rm -rf "$tmp"
	mkdir -p "$tmp" "$KP_USERLAND/bin"
	for pkg in "$@"; do
		if ! (cd "$tmp" && apt-get download "$pkg:$a"); then
			apt_update
			(cd "$tmp" && apt-get download "$pkg:$a") ||
				die "cannot download $pkg:$a"
		fi
	done
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root"
	done
	# busybox-static: /bin/busybox; bash-static: /bin/bash-static
	# (/usr/bin in some releases).
	for pkg in busybox bash-static; do
		for f in "$tmp/root/bin/$pkg" "$tmp/root/usr/bin/$pkg"; do
			[ -x "$f" ] && cp "$f" "$KP_USERLAND/bin/$pkg"
		done
	done
	rm -rf "$tmp"
	[ -z "$(missing_userland)" ] ||
		die "the $KP_ARCH userland is incomplete: $(missing_userland | xargs)"
	note "$KP_ARCH userland in $KP_USERLAND: $(cd "$KP_USERLAND/bin" && echo *)"
}

# deb-src lines for the Debian archives that the host's apt takes the
# binary packages $@ from (apt-cache policy: "500 URI SUITE/COMPONENT ARCH
# Packages"), so that the sources come from where the host's packages do.
deb_src_lines()
{
	apt-cache policy "$@" 2>/dev/null | awk '
		$2 ~ /^[a-z]+:/ && $3 ~ /\// && $NF == "Packages" {
			split($3, sc, "/")
			line = "deb-src " $2 " " sc[1] " " sc[2]
			if (!(line in seen)) { seen[line] = 1; print line }
		}'
}

# Build the userland of the cross architecture $KP_ARCH from Debian's
# source packages (see the top).
build_userland_cross()
{
	local src=$BUILD/$KP_ARCH-src cross=$KP_CROSS d
	local -a apt=(
		-o Dir::Etc::SourceList="$src/sources.list"
		-o Dir::Etc::SourceParts="$src/sources.list.d"
		-o Dir::State::Lists="$src/lists"
		-o Dir::Cache="$src/cache"
		-o APT::Sandbox::User=root
	)

	rm -rf "$src"
	mkdir -p "$src/sources.list.d" "$src/lists/partial" \
		"$src/cache/archives/partial" "$KP_USERLAND/bin"
	deb_src_lines busybox-static bash-static > "$src/sources.list"
	[ -s "$src/sources.list" ] ||
		die "no Debian archive for busybox-static/bash-static in the apt sources"
	note "$KP_ARCH userland: fetching the busybox and bash sources"
	apt-get "${apt[@]}" update > "$src/apt.log" 2>&1 ||
		note "apt-get update (deb-src) reported errors: see $src/apt.log"
	(cd "$src" && apt-get "${apt[@]}" source --download-only busybox bash) \
		>> "$src/apt.log" 2>&1 ||
		die "apt-get source busybox bash failed: see $src/apt.log"
	# The archive's signed Release file vouches for the .dsc hashes that
	# apt checked; dpkg-source only warns that it has no keyring.
	for d in "$src"/busybox_*.dsc "$src"/bash_*.dsc; do
		dpkg-source -x "$d" "$src/$(basename "${d%%_*}")" \
			>> "$src/apt.log" 2>&1 || die "dpkg-source -x $d failed"
	done

	# Compiling takes a few minutes of both CPUs: queue behind kernel
	# builds as build.sh does (unless KP_NO_WAIT=1: .ci/run runs this
	# niced beside the x86-64 build instead of before it).
	take_build_lock

	# busybox: Debian's busybox-static configuration, as is (oldconfig
	# answers the questions of options it does not name with their
	# defaults; yes dies of SIGPIPE, which pipefail must not see).
	note "$KP_ARCH userland: building busybox (static)"
	cp "$src/busybox/debian/config/pkg/static" "$src/busybox/.config"
	(cd "$src/busybox" &&
	 { yes '' || true; } | make CROSS_COMPILE="$cross" oldconfig &&
	 make CROSS_COMPILE="$cross" -j"$JOBS" busybox busybox.links) > "$src/busybox.log" 2>&1 ||
		die "busybox does not build: see $src/busybox.log"
	cp "$src/busybox/busybox" "$KP_USERLAND/bin/busybox"
	# The applet list, for mkinitramfs.sh (which cannot run $KP_ARCH code).
	cp "$src/busybox/busybox.links" "$KP_USERLAND/bin/busybox.links"

	# bash: debian/rules' bash-static configure arguments, less what
	# only installing needs; no ncurses of the cross architecture here,
	# so readline uses bash's own termcap (configure picks it by itself).
	note "$KP_ARCH userland: building bash (static)"
	mkdir -p "$src/bash/build-static"
	(cd "$src/bash/build-static" &&
	 ../configure --build="$(gcc -dumpmachine)" --host="${cross%-}" \
		--enable-largefile --without-bash-malloc --enable-static-link \
		--disable-nls --prefix=/usr &&
	 make -j"$JOBS") > "$src/bash.log" 2>&1 ||
		die "bash does not build: see $src/bash.log"
	"${cross}strip" -o "$KP_USERLAND/bin/bash-static" "$src/bash/build-static/bash"
	drop_build_lock

	[ -z "$(missing_userland)" ] ||
		die "the $KP_ARCH userland is incomplete: $(missing_userland | xargs)"
	rm -rf "$src"
	note "$KP_ARCH userland in $KP_USERLAND: $(cd "$KP_USERLAND/bin" && echo *)"
}

# ---- make check-tools: the Debian userland with bpftrace and perf ---------

# What the tools userland holds besides minbase: the tools, and what the
# guest's /init (tools-init) runs besides bash and coreutils.
TOOLS_PACKAGES=bpftrace,linux-perf,kmod,procps
# One line per input of the userland; a change makes it again.
tools_stamp()
{
	local arch=${KP_DEB_ARCH:-amd64}

	# The suite and mirror the host's apt takes bpftrace from (the
	# first "500 URI SUITE/COMPONENT ARCH Packages" line of its policy).
	apt-cache policy bpftrace 2>/dev/null | awk -v a="$arch" '
		$2 ~ /^[a-z]+:/ && $3 ~ /\// && $4 == a && $NF == "Packages" {
			split($3, sc, "/")
			print "mirror=" $2; print "suite=" sc[1]; exit
		}'
	echo "arch=$arch"
	echo "packages=$TOOLS_PACKAGES"
	echo "variant=minbase"
}

tools_userland_missing()
{
	[ "${KP_CHECK_TOOLS:-}" = 1 ] || return 0
	# A foreign userland needs debootstrap's second stage run in the
	# guest (or under qemu-user): not done yet.
	[ -z "$KP_ARCH" ] || die "make check-tools: x86-64 only so far, not ARCH=$KP_ARCH"
	[ -x "$KP_TOOLS_USERLAND/usr/bin/bpftrace" ] &&
		[ -x "$KP_TOOLS_USERLAND/usr/bin/perf" ] &&
		[ "$(tools_stamp)" = "$(cat "$KP_TOOLS_USERLAND/.kp-tools-stamp" 2>/dev/null)" ] &&
		[ "$KP_TOOLS_USERLAND.cpio" -nt "$KP_TOOLS_USERLAND/.kp-tools-stamp" ] &&
		return 0
	echo "tools-userland"
}

# debootstrap the tools userland into a new directory, trim it, then
# put it in place of the old one.
make_tools_userland()
{
	local stamp mirror suite arch new=$KP_TOOLS_USERLAND.new start

	stamp=$(tools_stamp)
	# Made already: only the archive is missing.
	if [ -x "$KP_TOOLS_USERLAND/usr/bin/bpftrace" ] &&
	   [ "$stamp" = "$(cat "$KP_TOOLS_USERLAND/.kp-tools-stamp" 2>/dev/null)" ]; then
		tools_userland_cpio
		return
	fi
	mirror=$(sed -n 's/^mirror=//p' <<< "$stamp")
	suite=$(sed -n 's/^suite=//p' <<< "$stamp")
	arch=$(sed -n 's/^arch=//p' <<< "$stamp")
	if [ -z "$mirror" ] || [ -z "$suite" ]; then
		die "no Debian archive in the apt sources has bpftrace for $arch (apt-cache policy bpftrace)"
	fi
	rm -rf "$new"
	mkdir -p "$new"
	note "tools userland: debootstrap --variant=minbase --arch=$arch $suite $mirror (+ $TOOLS_PACKAGES; log $new.log)"
	start=$(now)
	debootstrap --variant=minbase --arch="$arch" --include="$TOOLS_PACKAGES" \
		"$suite" "$new" "$mirror" > "$new.log" 2>&1 || {
		tail -n 20 "$new.log" >&2
		die "debootstrap failed: see $new.log"
	}
	# What nothing in the guest reads: documentation, translations and
	# apt's caches (the guest never runs apt).
	rm -rf "$new"/usr/share/{doc,man,info,locale} "$new"/var/cache/apt/* \
		"$new"/var/lib/apt/lists/* "$new"/var/cache/debconf/*-old
	mkdir -p "$new/usr/share/locale"
	printf '%s\n' "$stamp" > "$new/.kp-tools-stamp"
	rm -rf "$KP_TOOLS_USERLAND" "$KP_TOOLS_USERLAND.cpio"
	mv "$new" "$KP_TOOLS_USERLAND"
	mv "$new.log" "$KP_TOOLS_USERLAND.log"
	tools_userland_cpio
	note "tools userland in $KP_TOOLS_USERLAND: $(du -sh "$KP_TOOLS_USERLAND" | cut -f1), $(($(now) - start)) s; $(chroot "$KP_TOOLS_USERLAND" dpkg-query -W bpftrace linux-perf | xargs)"
}

# The userland as an initramfs archive (newc, uncompressed: the kernel
# unpacks it several times faster than a gzipped one under TCG).
tools_userland_cpio()
{
	(cd "$KP_TOOLS_USERLAND" && find . -mindepth 1 ! -name .kp-tools-stamp |
	 LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$KP_TOOLS_USERLAND.cpio.new" ||
		die "cannot write $KP_TOOLS_USERLAND.cpio"
	mv "$KP_TOOLS_USERLAND.cpio.new" "$KP_TOOLS_USERLAND.cpio"
	note "tools userland archive: $(du -h "$KP_TOOLS_USERLAND.cpio" | cut -f1) $KP_TOOLS_USERLAND.cpio"
}

missing=$(missing_pkgs "${REQUIRED[@]}" | sort -u | tr '\n' ' ')
optional=$(missing_pkgs "${OPTIONAL[@]}" | sort -u | tr '\n' ' ')
userland=$(missing_userland | xargs)
[ "${KP_USERLAND_LATER:-}" = 1 ] && [ -n "$KP_CROSS_USERLAND" ] && userland=
tools=$(tools_userland_missing)

if [ -z "$missing$optional$userland$tools" ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	[ -n "$optional" ] &&
		note "optional packages missing (no /bin/bash in the guest): $optional"
	[ -n "$tools" ] && [ -z "$missing$userland" ] &&
		die "no Debian userland with bpftrace and perf in $KP_TOOLS_USERLAND
deps: as root, KP_CHECK_TOOLS=1 tools/testing/kprobes/deps.sh makes it (debootstrap)"
	[ -z "$missing$userland" ] && exit 0
	[ -n "$userland" ] && [ -z "$missing" ] &&
		die "missing $KP_ARCH userland: $userland
deps: as root, tools/testing/kprobes/deps.sh (ARCH=$KP_ARCH) puts it into $KP_USERLAND"
	die "missing packages: $missing
deps: install them as root: apt-get install -y $missing"
fi

export DEBIAN_FRONTEND=noninteractive
if [ -z "$missing$optional" ]; then
	# shellcheck disable=SC2086 # word splitting of the package list is intended
	[ -z "$userland" ] || install_userland $userland
	[ -z "$tools" ] || make_tools_userland
	exit 0
fi
note "installing: $missing$optional"
apt_update
# Debian 12 has the 6.12 packages in bookworm-security only.
for pkg in $missing; do
	case $pkg in
	linux-source-6.12|linux-config-6.12)
		apt-cache policy "$pkg" 2>/dev/null |
			grep 'Candidate: [0-9]' > /dev/null ||
			die "apt cannot find $pkg: add bookworm-security to the apt sources
(deb http://deb.debian.org/debian-security bookworm-security main)" ;;
	esac
done
# shellcheck disable=SC2086 # word splitting of the package list is intended
apt-get "${APT_WAIT[@]}" install -y --no-install-recommends $missing $optional

missing=$(missing_pkgs "${REQUIRED[@]}" | sort -u | tr '\n' ' ')
[ -z "$missing" ] || die "still missing after apt-get install: $missing"
# shellcheck disable=SC2086 # word splitting of the package list is intended
[ -z "$userland" ] || install_userland $userland
[ -z "$tools" ] || make_tools_userland
