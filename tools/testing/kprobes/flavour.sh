#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# flavour.sh [--help-arches] - the name of the flavour directory that
# BASELINE=, PREEMPT=, DEBUG=, PROD= and ARCH= select (ours, ours-i386,
# baseline-riscv64-prod, ...), for the top Makefile, which does not know
# the architectures: lib.sh and arch/<name>.sh do.
#
# --help-arches: make help's lines of the ARCH= values instead.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2031 # KP_ARCHDATA[<arch>.KEY]: indexes, not variables
if [ "${1:-}" = --help-arches ]; then
	for a in "${KP_ARCHES[@]}"; do
		[ "${KP_ARCHDATA[$a.BOOT]}" = 1 ] || continue
		s=-$a
		[ "$a" = x86_64 ] && s=
		printf '  %-12s %s (+ kprobes-test-%s.config)%s\n' "ARCH=$a" \
			"${KP_ARCHDATA[$a.HELP]}" "$a" "${s:+, *$s dirs}"
	done
	exit 0
fi
basename "$KP_DIR"
