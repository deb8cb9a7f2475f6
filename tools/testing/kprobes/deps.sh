#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - make sure the host has what the harness needs (Debian packages).
#
# As root, missing packages are installed with apt-get; otherwise the
# missing packages are named and the script fails.
#
# ARCH=i386 also needs gcc-multilib (gcc -m32 -static for the guest's
# helpers) and a 32-bit static userland: Debian's busybox-static:i386 and
# bash-static:i386, downloaded with "apt-get download" (the i386
# architecture is added to dpkg if it is not there) and unpacked with
# dpkg-deb -x into $BUILD/i386-userland, so nothing of the host's amd64
# system changes.

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
	"qemu-system-x86:qemu-system-x86_64"
	"busybox-static:static-busybox"
	"linux-source-6.12:/usr/src/linux-source-6.12.tar.xz"
	"linux-config-6.12:/usr/src/linux-config-6.12/config.amd64_none_amd64.xz"
)
OPTIONAL=(
	"bash-static:/usr/bin/bash-static"
)
if [ -n "$KP_ARCH" ]; then
	REQUIRED+=(
		"gcc-multilib:static-libc32"
		"qemu-system-x86:qemu-system-i386"
	)
fi
# The i386 userland: package, file it must leave in $KP_USERLAND/bin.
I386_USERLAND=(
	"busybox-static:busybox"
	"bash-static:bash-static"
)

# Static libc, for the guest's kp-exit helper.
static_libc()
{
	local libc

	libc=$(gcc -print-file-name=libc.a 2>/dev/null) || return 1
	[ -f "$libc" ]
}

# The same for gcc -m32 (gcc-multilib).
static_libc32()
{
	local libc

	libc=$(gcc -m32 -print-file-name=libc.a 2>/dev/null) || return 1
	[ -f "$libc" ] && [ "$libc" != libc.a ]
}

# The guest needs a statically linked busybox; Debian's "busybox" package
# installs a dynamic one at the same path as "busybox-static" does.
static_busybox()
{
	[ -x /bin/busybox ] || return 1
	! LC_ALL=C readelf -l /bin/busybox 2>/dev/null | grep -q 'program interpreter'
}

present()
{
	case $1 in
	static-libc)	static_libc ;;
	static-libc32)	static_libc32 ;;
	static-busybox)	static_busybox ;;
	/*)		[ -e "$1" ] ;;
	*)		command -v "$1" >/dev/null 2>&1 ;;
	esac
}

missing_pkgs()
{
	local entry pkg

	for entry in "$@"; do
		pkg=${entry%%:*}
		present "${entry#*:}" || echo "$pkg"
	done
}

# The i386 userland packages not unpacked yet.
missing_userland()
{
	local entry

	[ -n "$KP_ARCH" ] || return 0
	for entry in "${I386_USERLAND[@]}"; do
		[ -x "$KP_USERLAND/bin/${entry#*:}" ] || echo "${entry%%:*}"
	done
}

# Download the i386 packages $@ and unpack them into $KP_USERLAND.
install_userland()
{
	local tmp pkg deb

	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		note "adding the i386 architecture to dpkg"
		dpkg --add-architecture i386
		apt-get update
	fi
	tmp=$BUILD/i386-debs
	rm -rf "$tmp"
	mkdir -p "$tmp" "$KP_USERLAND/bin"
	for pkg in "$@"; do
		if ! (cd "$tmp" && apt-get download "$pkg:i386"); then
			apt-get update
			(cd "$tmp" && apt-get download "$pkg:i386") ||
				die "cannot download $pkg:i386"
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
		die "the i386 userland is incomplete: $(missing_userland | xargs)"
	note "i386 userland in $KP_USERLAND: $(cd "$KP_USERLAND/bin" && echo *)"
}

missing=$(missing_pkgs "${REQUIRED[@]}" | sort -u | tr '\n' ' ')
optional=$(missing_pkgs "${OPTIONAL[@]}" | sort -u | tr '\n' ' ')
userland=$(missing_userland | xargs)

if [ -z "$missing$optional$userland" ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	[ -n "$optional" ] &&
		note "optional packages missing (no /bin/bash in the guest): $optional"
	[ -z "$missing$userland" ] && exit 0
	[ -n "$userland" ] && [ -z "$missing" ] &&
		die "missing i386 packages: $userland
deps: as root, tools/testing/kprobes/deps.sh (ARCH=i386) unpacks them into $KP_USERLAND"
	die "missing packages: $missing
deps: install them as root: apt-get install -y $missing"
fi

export DEBIAN_FRONTEND=noninteractive
if [ -z "$missing$optional" ]; then
	# shellcheck disable=SC2086 # word splitting of the package list is intended
	install_userland $userland
	exit 0
fi
note "installing: $missing$optional"
apt-get update
# Debian 12 has the 6.12 packages in bookworm-security only.
for pkg in $missing; do
	case $pkg in
	linux-source-6.12|linux-config-6.12)
		apt-cache policy "$pkg" 2>/dev/null | grep -q 'Candidate: [0-9]' ||
			die "apt cannot find $pkg: add bookworm-security to the apt sources
(deb http://deb.debian.org/debian-security bookworm-security main)" ;;
	esac
done
# shellcheck disable=SC2086 # word splitting of the package list is intended
apt-get install -y --no-install-recommends $missing $optional

missing=$(missing_pkgs "${REQUIRED[@]}" | sort -u | tr '\n' ' ')
[ -z "$missing" ] || die "still missing after apt-get install: $missing"
# shellcheck disable=SC2086 # word splitting of the package list is intended
[ -z "$userland" ] || install_userland $userland
