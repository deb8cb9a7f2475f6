#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh - build the kernel image (bzImage; Image on riscv64 and arm64) and modules in $BUILD/<flavour>/obj with ccache,
# and install the modules into $BUILD/<flavour>/modroot.
#
# Only one kernel build runs at a time on the machine: harness builds queue
# on a lock, and a kernel build started by hand elsewhere ("make ... O=...")
# is waited for.  KP_NO_WAIT=1 skips both.
#
# ccache keeps its default cache (~/.cache/ccache, or $CCACHE_DIR), which
# survives "make clean".  CCACHE_BASEDIR makes ccache hand the compiler
# paths relative to obj/ ("../src/lib/foo.c"), so that both flavours and any
# fresh $BUILD share cache entries.  Kbuild's -fmacro-prefix-map only strips
# the absolute source path from __FILE__; the extra map below strips the
# relative one, so WARN()/BUG() still name "lib/foo.c".

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

[ -f "$KP_OBJ/.config" ] || die "no $KP_OBJ/.config; run make config"

# Kernel builds (make with an O= argument) not belonging to this flavour.
foreign_builds()
{
	pgrep -f 'make.*O=.*obj' | while read -r pid; do
		tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null |
			grep -qF "O=$KP_OBJ" || echo "$pid"
	done
}

take_build_lock
if [ "${KP_NO_WAIT:-}" != 1 ]; then
	if [ -n "$(foreign_builds)" ]; then
		note "waiting for another kernel build to finish (pids $(foreign_builds | xargs))"
		while [ -n "$(foreign_builds)" ]; do
			sleep 10
		done
	fi
fi

command -v ccache >/dev/null || die "ccache missing; run make deps"
export CCACHE_BASEDIR=$BUILD

start=$(now)
note "$KP_FLAVOUR: building with $JOBS jobs"
kmake -j"$JOBS" CC="ccache $KP_CC" HOSTCC="ccache gcc" \
	KCFLAGS="${KCFLAGS:+$KCFLAGS }-fmacro-prefix-map=../src/=" "$KP_IMAGE" modules

# ARM's zImage carries the kernel through piggy.S, whose text never
# changes: it .incbin's the compressed kernel, which neither the
# preprocessor's dependency list nor ccache's hash sees.  ccache then
# hands back the piggy.o of an earlier kernel, and the zImage boots that.
# Assemble it again without ccache (same command line, so nothing else is
# rebuilt).
piggy=$KP_OBJ/arch/arm/boot/compressed/piggy.o
if [ -f "$piggy" ]; then
	rm -f "$piggy"
	CCACHE_DISABLE=1 kmake -j"$JOBS" CC="ccache $KP_CC" HOSTCC="ccache gcc" \
		KCFLAGS="${KCFLAGS:+$KCFLAGS }-fmacro-prefix-map=../src/=" "$KP_IMAGE"
fi

rm -rf "$KP_TREE/modroot"
kmake -s INSTALL_MOD_PATH="$KP_TREE/modroot" INSTALL_MOD_STRIP=1 modules_install \
	> /dev/null

note "$KP_FLAVOUR: $(kmake -s kernelrelease) built in $(( $(now) - start )) s"
