#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - make sure the host has what the harness needs (Debian packages).
#
# As root, missing packages are installed with apt-get; otherwise the
# missing packages are named and the script fails.

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

# Static libc, for the guest's kp-exit helper.
static_libc()
{
	local libc

	libc=$(gcc -print-file-name=libc.a 2>/dev/null) || return 1
	[ -f "$libc" ]
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

missing=$(missing_pkgs "${REQUIRED[@]}" | sort -u | tr '\n' ' ')
optional=$(missing_pkgs "${OPTIONAL[@]}" | sort -u | tr '\n' ' ')

if [ -z "$missing$optional" ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	[ -n "$optional" ] &&
		note "optional packages missing (no /bin/bash in the guest): $optional"
	[ -z "$missing" ] && exit 0
	die "missing packages: $missing
deps: install them as root: apt-get install -y $missing"
fi

note "installing: $missing$optional"
export DEBIAN_FRONTEND=noninteractive
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
