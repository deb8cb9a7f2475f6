#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - the kernel's own static checks over our files (make lint):
# every object of the built flavour ($KP_OBJ, any ARCH=) whose source is a
# file of ours (a .c of the repository: the overlay) is compiled again
# with W=1 and checked with sparse (C=2), and each warning or sparse
# report located in a file of ours (its .c or a header of ours it
# includes) fails.  Reports located in the base's files are counted but do
# not fail: they are the base's.
#
# The objects are then compiled once more without W=1 (ccache: cheap), so
# that the next build finds them as it left them and only relinks.  The
# flavour must be built (make build); lint does not build the rest.
#
# The last line is "N passed, N failed" over the objects.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

export LC_ALL=C

if ! [ -f "$KP_OBJ/.config" ] || ! [ -f "$KP_OBJ/vmlinux" ]; then
	die "$KP_FLAVOUR: not built; run make build${KP_ARCH:+ ARCH=$KP_ARCH}"
fi
command -v sparse > /dev/null || die "no sparse; run make deps"

# Our objects in this configuration: a .c of the repository (not the
# harness's: tools/ holds no kernel object) with its .o in $KP_OBJ.
mapfile -t objs < <(cd "$KP_REPO" && git ls-files -- '*.c' ':!tools/' |
	while IFS= read -r c; do
		[ -f "$KP_OBJ/${c%.c}.o" ] && echo "${c%.c}.o"
	done)
[ "${#objs[@]}" -gt 0 ] || die "$KP_FLAVOUR: no object of ours in $KP_OBJ"

# The files of ours, as a compiler names them from $KP_OBJ.
mapfile -t ours < <(cd "$KP_REPO" && git ls-files -- '*.[ch]' ':!tools/')

# Sparse, unless the architecture file says why not (LINT_NO_SPARSE).
check=(C=2)
no_sparse=$(kp_arch LINT_NO_SPARSE)
if [ -n "$no_sparse" ]; then
	check=()
	note "$(basename "$KP_TREE"): W=1 only, no sparse: $no_sparse"
fi

start=$(now)
log=$KP_TREE/lint.log
export CCACHE_BASEDIR=$BUILD
take_build_lock
for o in "${objs[@]}"; do
	rm -f "$KP_OBJ/$o"
done
rc=0
kmake -k -j"$JOBS" W=1 "${check[@]}" CC="ccache $KP_CC" HOSTCC="ccache gcc" \
	KCFLAGS="-fmacro-prefix-map=../src/=" "${objs[@]}" > "$log" 2>&1 || rc=$?
# Back to the build's own flags, whatever happened above: the objects
# were removed.
kmake -s -j"$JOBS" CC="ccache $KP_CC" HOSTCC="ccache gcc" \
	KCFLAGS="-fmacro-prefix-map=../src/=" "${objs[@]}" > "$log.restore" 2>&1 ||
	die "compiling the objects again without W=1 failed (see $log.restore); make build${KP_ARCH:+ ARCH=$KP_ARCH} restores them"
drop_build_lock

# A report is "<path>:<line>:<col>: warning: ..." (gcc, sparse: also
# "error:"), the path relative to $KP_OBJ ("../src/...") or absolute.
declare -A is_ours=()
for f in "${ours[@]}"; do
	is_ours[$f]=1
done
passed=0
failed=0
base=0
for o in "${objs[@]}"; do
	c=${o%.o}.c
	# This object's reports: kbuild prints them between its "CC"/"CHECK"
	# lines, which -j mixes; a report names its file, so take every
	# report of ours that names this object's source, and the header
	# reports once, under the first object.
	bad=$(grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$log" |
		sed -E "s#^(\\.\\./src/|$KP_SRC/)##" | grep -F "$c:" || true)
	if [ -n "$bad" ]; then
		failed=$((failed + 1))
		echo "lint: $c:"
		printf '  %s\n' "${bad//$'\n'/$'\n'  }"
	else
		passed=$((passed + 1))
	fi
done
# Reports in our headers (any object), then the base's.
while IFS= read -r line; do
	f=${line%%:*}
	if [ -n "${is_ours[$f]:-}" ] && [[ $f == *.h ]]; then
		echo "lint: header of ours: $line"
		failed=$((failed + 1))
	elif [ -z "${is_ours[$f]:-}" ]; then
		base=$((base + 1))
	fi
done < <(grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$log" |
	sed -E "s#^(\\.\\./src/|$KP_SRC/)##" | sort -u)
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
	echo "lint: make failed, no report of ours says why (see $log):"
	grep -E 'error|Error' "$log" | head -n 5 | sed 's/^/  /'
	failed=$((failed + 1))
fi

note "$(basename "$KP_TREE"): W=1${check[*]:+ and sparse} on ${#objs[@]} objects of ours, $base reports in the base's files (not ours to fix), $(( $(now) - start )) s; log $log"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
