#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# matrix.sh - the configurations that are built, not booted.
#
# A kprobes series must build in every configuration a distribution or a
# build bot tries, not only in the harness's test fragment.  Each cell is
# named, built, and prints one line "matrix: CELL: PASS|FAIL ...":
#
#   debian     Debian's amd64 config (config.amd64_none_amd64.xz of the
#              linux-config-6.12 package), olddefconfig, then compile only:
#              every object of the base whose source includes
#              <linux/kprobes.h>, <asm/kprobes.h>, <linux/rethook.h> or
#              <linux/fprobe.h> or calls the kprobes API (the list is
#              computed from the base each run), plus every object of the
#              kprobes directories that the config builds.  The same list
#              is compiled on the baseline (upstream's kprobes, same base
#              and config); an object that fails there is not part of this
#              config's build (32-bit-only files, other options) and is
#              skipped.  FAIL: an object that compiles on the baseline does
#              not compile on ours, an object of ours warns, or an object
#              warns about something (gcc or objtool) it does not on the
#              baseline.  A full distribution kernel takes hours here.
#              The baseline's side (candidate list, which objects compile,
#              their warnings) depends only on the base tarball, Debian's
#              config, gcc and this script: it is kept in
#              matrix-debian-baseline.txt beside this script and used
#              when its key matches, so the cell compiles ours alone; a
#              run whose key does not match compiles the baseline and
#              writes $BUILD/matrix-debian-baseline.txt for the repository.
#   nokprobes  the x86-64 test config with CONFIG_KPROBES off (and all that
#              depends on it), kprobes-test-nokprobes.config merged last;
#              .config must really have kprobes off while ftrace, fprobe,
#              perf and BPF stay on.  Compile only, when the x86-64 test
#              kernel of the same flavour is built ($BUILD/ours/obj, as in
#              CI, where "make check" runs first): every object of that
#              build whose compile read a file the series overlays or
#              patches (its .cmd dependency list against tracked.list:
#              101 objects, every includer of <linux/kprobes.h> among
#              them), if this config builds it (a dry run of the whole
#              build says so: 61 of them), is compiled with
#              kprobes off and must compile without a warning; and no
#              symbol they leave undefined may be one that only the kprobes
#              core defines (the default build's kernel/kprobes/ and
#              arch/x86/kernel/kprobes/ objects): in a kernel without
#              kprobes that is an undefined reference at the link.  The
#              other objects read none of the series' files: with kprobes
#              off they are the base's code in a configuration the base
#              itself supports, and are not compiled.  Without that build
#              (or BASELINE=1, or MATRIX_NOKPROBES=full): vmlinux and the
#              modules are built and linked, 10 minutes more (CI's time
#              budget).
#   gate       one row, gate-<name>, per architecture file arch/<name>.sh:
#              every architecture with kprobes upstream.  The file's
#              GATE_DEFCONFIG with KPROBES, KRETPROBES, KPROBE_EVENTS and
#              ftrace turned on (kprobes on ftrace and optprobes are
#              def_bool where the architecture has them), olddefconfig,
#              then compile only, with the file's cross gcc (or clang,
#              GATE_LLVM): the objects of the base that use kprobes (as
#              for debian, with this architecture's directory), those
#              of the kprobes directories, and every .c of the
#              architecture's directory that includes a kprobes header or
#              marks a symbol NOKPROBE_SYMBOL (its traps and entry code),
#              as many of them as this configuration builds (a dry run of
#              the directories that hold them says which); an unported
#              architecture, whose kprobes are off, compiles those of its
#              own directory only (the generic objects with kprobes off
#              are the nokprobes cell's).  Each must
#              compile without an error or a warning.  The kprobes
#              options the configuration ends with are compared with
#              GATE_OPTIONS, what upstream has there.  A ported
#              architecture (PORTED=1) fails on a lost option, but for
#              those its GATE_LOST names with a reason; an unported
#              one must have KPROBES off (the series makes it unavailable
#              until the architecture has a back-end of ours), and its
#              row, when it builds, is SKIP "not ported", with the options
#              it lost.  A booted architecture (no GATE_DEFCONFIG) prints
#              a row that points at make check; one that cannot be built
#              here (GATE_UNBUILDABLE, csky) is SKIP.  BASELINE=1 runs the
#              rows on upstream's kprobes and checks GATE_OPTIONS.
#              MATRIX_CELLS=gate-<name> runs one row.
#
# The booted cells are "make check" (x86-64: kprobes, kretprobes,
# optprobes, kprobes on ftrace, fprobe, BPF kprobe_multi), "make check
# DEBUG=1" (the same kernel, full preemption, kmemleak), "make check
# ARCH=i386", "make check ARCH=ppc64le" and "make check ARCH=riscv64";
# .ci/run runs them and this script.
#
# BASELINE=1 runs the cells on upstream's kprobes instead.  MATRIX_CELLS
# picks cells ("debian nokprobes gate" by default); MATRIX_REUSE=1 judges
# the debian cell from the logs of its last compile; MATRIX_NOKPROBES=full
# or compile picks how the nokprobes cell builds.  The last line is
# "N passed, N failed" over the cells, with ", N skipped" when a gate row
# was skipped; the exit status is non-zero if one failed.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

export LC_ALL=C

CELLS=${MATRIX_CELLS:-debian nokprobes gate}
DEBIAN_CONFIG=${DEBIAN_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}
# The baseline's side of the debian cell, kept (see above).
DEBIAN_DIGEST=$KP_TOOLS/matrix-debian-baseline.txt
RESULTS=$BUILD/matrix-$KP_FLAVOUR.results

# A kernel make in work tree $1 with objects in $2, clean environment (the
# matrix cells are x86-64 configurations: ARCH=i386 does not apply).
mk()
{
	local src=$1 obj=$2

	shift 2
	clean_make -C "$src" O="$obj" "$@"
}


# Lay out flavour $1's work tree (prepare.sh is incremental).
# $2: the tree's name under $BUILD, if not the flavour's own.
prepare_flavour()
{
	if [ "$1" = baseline ]; then
		BASELINE=1 PREEMPT='' PROD='' KP_TREE_NAME=${2:-} "$KP_TOOLS/prepare.sh" >&2
	else
		BASELINE='' PREEMPT='' PROD='' KP_TREE_NAME=${2:-} "$KP_TOOLS/prepare.sh" >&2
	fi
}

# The gate's own work tree: the same files as the flavour's x86-64 tree,
# prepared apart from it, so that a gate row run from one work tree does
# not lay its files over a make check of another sharing BUILD=.
# KP_GATE_TREE names another, for gate rows run from several work trees
# at once: each prepare lays its own files over the shared one.
GATE_TREE=${KP_GATE_TREE:-gate-$KP_FLAVOUR}

passed=0
failed=0
skipped=0
: > "$RESULTS"

result()
{
	local cell=$1 verdict=$2

	shift 2
	echo "matrix: $cell: $verdict $*" | tee -a "$RESULTS"
	case $verdict in
	PASS)	passed=$((passed + 1)) ;;
	SKIP)	skipped=$((skipped + 1)) ;;
	*)	failed=$((failed + 1)) ;;
	esac
}

# ---- debian ---------------------------------------------------------------

# The base objects to compile: .c files of the base work tree $1 that use
# kprobes, outside other architectures, tools and samples.  Printed as
# object paths, one per line.
debian_candidates()
{
	local base=$1
	local api='register_kprobes?|unregister_kprobes?|register_kretprobes?|unregister_kretprobes?|enable_kprobe|disable_kprobe|enable_kretprobe|disable_kretprobe|kprobe_running|get_kprobe|kprobe_on_func_entry|within_kprobe_blacklist|kretprobe_find_ret_addr|is_kretprobe_trampoline|kprobe_page_fault|kprobe_busy_begin|kprobe_int3_handler|NOKPROBE_SYMBOL'

	(cd "$base" &&
	 grep -rlE --include='*.c' \
		"#include <(linux/(kprobes|rethook|fprobe)|asm/kprobes)\\.h>|\\b($api)\\b" \
		arch/x86 block certs crypto drivers fs init io_uring ipc kernel \
		lib mm net security sound virt) |
		grep -vE '^(kernel/kprobes\.c|arch/x86/kernel/kprobes/|arch/x86/um/)' |
		sed 's/\.c$/.o/' | sort -u
}

# A compiler wrapper that keeps each object's diagnostics and exit status
# in $KP_CCLOG/<object path with / as #>.{log,rc}: parallel make output
# cannot be attributed to objects reliably, a per-object file can.
write_cc_wrapper()
{
	cat > "$1" <<'EOF'
#!/bin/sh
# kbuild unexports LC_ALL: gcc's quotes would follow the host's locale.
LC_ALL=C
export LC_ALL
out=
prev=
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	prev=$a
done
case $out in
*.o)	;;
*)	exec ccache gcc "$@" ;;
esac
log=$KP_CCLOG/$(echo "$out" | tr / '#')
ccache gcc "$@" 2> "$log.log"
rc=$?
cat "$log.log" >&2
echo "$rc" > "$log.rc"
exit "$rc"
EOF
	chmod +x "$1"
}

# Configure and compile the list in $3 for flavour $1 (work tree $2).
# Diagnostics land in $BUILD/$1/obj-debian/cclog/.
debian_compile()
{
	local fl=$1 src=$2 list=$3 extra=$4
	local obj=$BUILD/$fl/obj-debian
	local cclog=$obj/cclog wrapper=$BUILD/$fl/debian-cc o
	local -a objs=()

	mkdir -p "$obj"
	if ! [ -f "$obj/.config" ] || [ "$DEBIAN_CONFIG" -nt "$obj/.config" ] ||
	   [ -n "$(find "$src" -name 'Kconfig*' -newer "$obj/.config" -print -quit)" ]; then
		xz -dc "$DEBIAN_CONFIG" > "$obj/.config"
		mk "$src" "$obj" -s olddefconfig
	fi
	rm -rf "$cclog"
	mkdir -p "$cclog"
	write_cc_wrapper "$wrapper"
	mapfile -t objs < "$list"
	# shellcheck disable=SC2206 # directory targets, word splitting intended
	objs+=($extra)
	# Every object must be compiled again so that its diagnostics are
	# logged (ccache replays them): make would skip up-to-date ones.
	for o in "${objs[@]}"; do
		case $o in
		*/)	[ -d "$obj/$o" ] && find "$obj/$o" -name '*.o' -delete ;;
		*)	rm -f "$obj/$o" ;;
		esac
	done
	# -k: an object that does not build in this config must not stop the
	# others; the verdict comes from the per-object logs, not from make.
	KP_CCLOG=$cclog CCACHE_BASEDIR=$BUILD \
		mk "$src" "$obj" -k -j"$JOBS" CC="$wrapper" HOSTCC="ccache gcc" \
		KCFLAGS="-fmacro-prefix-map=../src/=" "${objs[@]}" \
		> "$obj/make.log" 2>&1 || true
}

# The warnings of object $2 in compile log dir $1, one normalised message a
# line: gcc's (location dropped, so that a header's changed line numbers do
# not count as new; quotes ASCII whatever the locale was) and objtool's
# from the make log $3.
debian_warnings()
{
	local cclog=$1 o=$2 makelog=$3
	local f

	f=$cclog/$(echo "$o" | tr / '#')

	{
		[ -f "$f.log" ] && grep -E 'warning:' "$f.log" |
			sed -E "s/^.*warning: //; s/\xe2\x80[\x98\x99]/'/g"
		grep -F "$o: warning: objtool:" "$makelog" |
			sed -E 's/^.*warning: //'
	} | sort -u || true
}

debian_ok()
{
	local f
	f=$1/$(echo "$2" | tr / '#')
	[ -f "$f.rc" ] && [ "$(cat "$f.rc")" = 0 ]
}

# What the baseline's side of the cell is a function of, one "name value"
# a line; nothing when BASE is a directory (no cheap identity).
debian_digest_key()
{
	[ -f "$BASE" ] || return 0
	echo "base $(sha256sum < "$BASE" | cut -c1-16)"
	echo "config $(sha256sum < "$DEBIAN_CONFIG" | cut -c1-16)"
	echo "gcc $(gcc --version | head -n 1)"
	echo "script $(declare -f debian_candidates write_cc_wrapper debian_compile \
		debian_warnings debian_ok | sha256sum | cut -c1-16)"
}

# Write the baseline's side, from the compile logs in $BUILD/baseline/
# obj-debian and the candidate list $3, to file $1 under key $2.
debian_write_digest()
{
	local out=$1 key=$2 list=$3 bobj=$BUILD/baseline/obj-debian o rc line

	{
		echo "# The baseline's side of the debian cell of matrix.sh, generated by it:"
		echo "# key lines, then each candidate object (obj NAME EXIT-STATUS) and"
		echo "# its normalised warnings (warn NAME MESSAGE)."
		[ -z "$key" ] || while IFS= read -r line; do echo "key $line"; done <<< "$key"
		while IFS= read -r o; do
			rc=1
			debian_ok "$bobj/cclog" "$o" && rc=0
			echo "obj $o $rc"
			debian_warnings "$bobj/cclog" "$o" "$bobj/make.log" | sed "s|^|warn $o |"
		done < "$list"
	} > "$out.new"
	mv "$out.new" "$out"
}

# Load the baseline's side from file $1 if its key is $2: the candidates
# into base_list, exit statuses into base_rc, warnings into base_warn.
declare -a base_list=()
declare -A base_rc=() base_warn=()
debian_load_digest()
{
	local file=$1 key=$2 tag o rest

	[ -f "$file" ] || return 1
	[ "$(sed -n 's/^key //p' "$file")" = "$key" ] || return 1
	base_list=()
	base_rc=()
	base_warn=()
	while IFS=' ' read -r tag o rest; do
		case $tag in
		obj)	base_list+=("$o")
			base_rc[$o]=$rest ;;
		warn)	base_warn[$o]+="$rest"$'\n' ;;
		esac
	done < "$file"
}

base_ok()
{
	[ "${base_rc[$1]:-1}" = 0 ]
}

base_warnings()
{
	printf '%s' "${base_warn[$1]:-}"
}

cell_debian()
{
	local list start ours_objs skipped=0 built=0 errors=0 warns=0
	local o w fl oobj key kept=
	local -a problems=()

	[ -f "$DEBIAN_CONFIG" ] || {
		result debian FAIL "no $DEBIAN_CONFIG (package linux-config-6.12; make deps)"
		return
	}
	start=$(mark)
	list=$BUILD/matrix-debian.list
	key=$(debian_digest_key)
	if [ "$KP_FLAVOUR" = ours ] && [ -n "$key" ] &&
	   debian_load_digest "$DEBIAN_DIGEST" "$key"; then
		kept=1
		printf '%s\n' "${base_list[@]}" > "$list"
		note "debian: the baseline's side from $(basename "$DEBIAN_DIGEST")" \
			"(its key matches)"
	else
		prepare_flavour baseline ||
			{ result debian FAIL "prepare baseline"; return; }
		# The baseline work tree is the pristine base (plus
		# selftests/kprobes).
		debian_candidates "$BUILD/baseline/src" > "$list"
	fi
	[ "$KP_FLAVOUR" = ours ] &&
		{ prepare_flavour ours || { result debian FAIL "prepare ours"; return; }; }
	note "debian: $(wc -l < "$list") base objects use kprobes"

	[ "${MATRIX_REUSE:-}" = 1 ] || {
	take_build_lock
	if [ -z "$kept" ]; then
		note "debian: compiling on the baseline"
		debian_compile baseline "$BUILD/baseline/src" "$list" \
			"kernel/kprobes.o arch/x86/kernel/kprobes/"
	fi
	if [ "$KP_FLAVOUR" = ours ]; then
		note "debian: compiling on ours"
		debian_compile ours "$BUILD/ours/src" "$list" \
			"kernel/kprobes/ arch/x86/kernel/kprobes/"
	fi
	drop_build_lock
	}
	if [ -z "$kept" ]; then
		debian_write_digest "$BUILD/matrix-debian-baseline.txt" "$key" "$list"
		debian_load_digest "$BUILD/matrix-debian-baseline.txt" "$key"
		[ -z "$key" ] || [ "$KP_FLAVOUR" != ours ] ||
			note "debian: $(basename "$DEBIAN_DIGEST") is out of date; to" \
				"skip the baseline's compile next time:" \
				"cp $BUILD/matrix-debian-baseline.txt $DEBIAN_DIGEST"
	fi

	fl=$KP_FLAVOUR
	oobj=$BUILD/$fl/obj-debian
	while IFS= read -r o; do
		if ! base_ok "$o"; then
			skipped=$((skipped + 1))
			continue
		fi
		built=$((built + 1))
		[ "$fl" = baseline ] && continue
		if ! debian_ok "$oobj/cclog" "$o"; then
			errors=$((errors + 1))
			problems+=("$o: does not compile on ours")
			continue
		fi
		w=$(comm -13 <(base_warnings "$o") \
			     <(debian_warnings "$oobj/cclog" "$o" "$oobj/make.log"))
		if [ -n "$w" ]; then
			warns=$((warns + 1))
			problems+=("$o: new warning: $(echo "$w" | head -n 1)")
		fi
	done < "$list"

	# The kprobes implementation itself: every object the config builds.
	if [ "$fl" = ours ]; then
		ours_objs=$(cd "$oobj" && find kernel/kprobes arch/x86/kernel/kprobes \
			-name '*.o' ! -name '*.mod.o' 2>/dev/null | sort)
	else
		ours_objs=$(cd "$oobj" && { ls kernel/kprobes.o 2>/dev/null;
			find arch/x86/kernel/kprobes -name '*.o' 2>/dev/null; } | sort)
	fi
	for o in $ours_objs; do
		built=$((built + 1))
		w=$(debian_warnings "$oobj/cclog" "$o" "$oobj/make.log")
		if ! debian_ok "$oobj/cclog" "$o"; then
			errors=$((errors + 1))
			problems+=("$o: does not compile")
		elif [ -n "$w" ]; then
			warns=$((warns + 1))
			problems+=("$o: warning: $(echo "$w" | head -n 1)")
		fi
	done
	if grep -qE '^[^ ]*(kernel/kprobes|arch/x86/kernel/kprobes)[^ ]*: (error|fatal)' \
		"$oobj/make.log" || [ -z "$ours_objs" ]; then
		errors=$((errors + 1))
		problems+=("the kprobes directories do not build (see $oobj/make.log)")
	fi

	for w in "${problems[@]}"; do
		echo "matrix: debian: $w"
	done
	if [ "$errors" = 0 ] && [ "$warns" = 0 ]; then
		result debian PASS "$built objects compiled, $errors errors," \
			"$warns with new warnings ($skipped not in this config), $(spent "$start")"
	else
		result debian FAIL "$built objects, $errors errors, $warns with new" \
			"warnings ($skipped not in this config); logs in $oobj/"
	fi
}

# ---- nokprobes ------------------------------------------------------------

# The objects of the default x86-64 build in $1 whose compile read a file
# that the series overlays or patches (a path of $2, tracked.list): the
# objects that kprobes off can change.  One object path a line.
nokprobes_candidates()
{
	local dobj=$1 tracked=$2 pat=$3

	# Dependencies are listed as ../src/PATH or /abs/.../src/PATH.  The
	# patterns are a file: every grep that xargs starts reads all of it.
	sed -n 's|^\(.*\.[chS]\)$|src/\1|p' "$tracked" > "$pat"
	[ -s "$pat" ] || return 0
	# (A grep of xargs' that matches nothing exits 1: not an error.)
	{ (cd "$dobj" && find . -name '.*.o.cmd' ! -name '.*.mod.o.cmd' \
			! -path './.tmp_*' ! -path './.vmlinux*' -print0 |
		xargs -0 -r grep -l -F -f "$pat") || true; } |
		sed -E 's|^\./||; s|(^\|/)\.([^/]*\.o)\.cmd$|\1\2|' | sort -u
}

# Configure the cell in $2 (work tree $1): the x86-64 test configuration
# (whatever ARCH, PREEMPT or PROD say: the cell is an x86-64 one, and
# compile only compares it with the default x86-64 build),
# kprobes-test-nokprobes.config merged last.  Fails with a reason.
nokprobes_config()
{
	local src=$1 obj=$2 sym bad=
	local frag=$KP_REPO/kernel/configs/kprobes-test-nokprobes.config

	if ! mkdir -p "$obj" ||
	   ! cat "$KP_FRAGMENT" "$KP_REPO/kernel/configs/kprobes-test-x86_64.config" \
		"$frag" > "$obj/kp-allconfig.new"; then
		echo "cannot write $obj/kp-allconfig.new"
		return 1
	fi
	if ! [ -f "$obj/.config" ] || ! cmp -s "$obj/kp-allconfig.new" "$obj/kp-allconfig" ||
	   [ -n "$(find "$src" -name 'Kconfig*' -newer "$obj/.config" -print -quit)" ]; then
		mk "$src" "$obj" -s KCONFIG_ALLCONFIG="$obj/kp-allconfig.new" \
			allnoconfig > "$obj/config.log" 2>&1 ||
			{ echo "allnoconfig (see $obj/config.log)"; return 1; }
	fi
	mv "$obj/kp-allconfig.new" "$obj/kp-allconfig" || { echo "mv failed"; return 1; }
	grep -q '^CONFIG_KPROBES=y' "$obj/.config" && bad="CONFIG_KPROBES still on"
	for sym in FTRACE FUNCTION_TRACER FPROBE BPF_EVENTS PERF_EVENTS MODULES; do
		grep -q "^CONFIG_$sym=y" "$obj/.config" || bad="${bad:+$bad, }CONFIG_$sym off"
	done
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# Why compile only cannot use the default build in $1 with work tree $2
# (nothing when it can): it must exist, and be newer than every file of
# the series in the work tree (its dependency lists are then current).
nokprobes_compile_unusable()
{
	local dobj=$1 src=$2 tracked f

	tracked=$(dirname "$dobj")/tracked.list
	[ "$KP_FLAVOUR" = ours ] || { echo "BASELINE=1"; return; }
	if ! [ -f "$dobj/vmlinux" ] || ! [ -f "$tracked" ]; then
		echo "no x86-64 test build in $dobj"
		return
	fi
	while IFS= read -r f; do
		# Another architecture's file cannot change an x86-64 object.
		case $f in arch/x86/*) ;; arch/*) continue ;; esac
		if [ "$src/$f" -nt "$dobj/vmlinux" ]; then
			echo "$f is newer than the x86-64 test build (make build first)"
			return
		fi
	done < "$tracked"
}

# The whole kernel: vmlinux and the modules.
nokprobes_full()
{
	local src=$1 obj=$2 start=$3

	if CCACHE_BASEDIR=$BUILD mk "$src" "$obj" -j"$JOBS" CC="ccache gcc" \
		HOSTCC="ccache gcc" KCFLAGS="-fmacro-prefix-map=../src/=" \
		vmlinux modules > "$obj/make.log" 2>&1; then
		result nokprobes PASS "vmlinux and modules built with CONFIG_KPROBES off," \
			"$(spent "$start")"
	else
		grep -E 'error|Error' "$obj/make.log" | head -n 20 | sed 's/^/matrix: nokprobes: /'
		result nokprobes FAIL "build failed (see $obj/make.log)"
	fi
}

# Global symbols that objects $2... of directory $1 define, one a line.
defined_syms()
{
	local dir=$1

	shift
	(cd "$dir" || exit 0; nm --defined-only "$@" 2>/dev/null; true) |
		awk 'NF == 3 && $2 ~ /[A-Z]/ { print $3 }' | sort -u
}

# Compile only what kprobes off can change (see the top of this file), then
# check that nothing of it needs what a kernel without kprobes lacks.
nokprobes_compile()
{
	local src=$1 obj=$2 start=$3 dobj=$4
	local cand=$obj/candidates.list members=$obj/members.list
	local o n=0 errors=0 warns=0 unresolved gone
	local -a objs=() nonmembers=() problems=()

	nokprobes_candidates "$dobj" "$(dirname "$dobj")/tracked.list" \
		"$obj/tracked.pat" > "$cand"
	[ -s "$cand" ] || { result nokprobes FAIL "no object of $dobj reads the series"; return; }
	# Every candidate is compiled again (its diagnostics must be seen,
	# and a missing object is what tells the dry run below that this
	# configuration builds it).
	mapfile -t objs < "$cand"
	for o in "${objs[@]}"; do
		rm -f "$obj/$o"
	done
	mk "$src" "$obj" -s -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc" \
		KCFLAGS="-fmacro-prefix-map=../src/=" prepare > "$obj/make.log" 2>&1 ||
		{ tail -n 20 "$obj/make.log" | sed 's/^/matrix: nokprobes: /'
		  result nokprobes FAIL "make prepare failed (see $obj/make.log)"; return; }
	# Which candidates this configuration builds: the objects a dry run of
	# the whole build would compile (kbuild's own Makefiles decide).  With
	# no object there, the dry run walks every directory and then stops
	# at vmlinux.a, which it did not make; stopping anywhere else, it may
	# not have seen every directory.
	mk "$src" "$obj" -n -j1 CC="ccache gcc" vmlinux modules \
		> "$obj/dry-run.log" 2>&1 || true
	grep -q "No rule to make target 'vmlinux.a'" "$obj/dry-run.log" ||
		{ result nokprobes FAIL "the dry run did not get to vmlinux.a" \
			"(see $obj/dry-run.log)"; return; }
	{ grep -oE -- '-c -o [^ ]+\.o( |;|$)' "$obj/dry-run.log" || true; } |
		sed -E 's/^-c -o //; s/[ ;]$//' | sort -u |
		comm -12 - "$cand" > "$members"
	mapfile -t objs < "$members"
	mapfile -t nonmembers < <(comm -23 "$cand" "$members")
	[ "${#objs[@]}" -gt 0 ] ||
		{ result nokprobes FAIL "the dry run compiles no candidate" \
			"(see $obj/dry-run.log)"; return; }
	CCACHE_BASEDIR=$BUILD mk "$src" "$obj" -k -j"$JOBS" CC="ccache gcc" \
		HOSTCC="ccache gcc" KCFLAGS="-fmacro-prefix-map=../src/=" \
		"${objs[@]}" >> "$obj/make.log" 2>&1 || true

	for o in "${objs[@]}"; do
		n=$((n + 1))
		if ! [ -f "$obj/$o" ]; then
			errors=$((errors + 1))
			problems+=("$o: does not compile")
		fi
	done
	while IFS= read -r o; do
		warns=$((warns + 1))
		problems+=("warning: $o")
	done < <(grep -E ': warning: ' "$obj/make.log" | sort -u)

	# Link: what kprobes off takes away are the candidates this config
	# does not build (the kprobes core, trace_kprobe, error injection...).
	# A global symbol only they define, left undefined by an object that
	# is built, is an undefined reference at the link.
	gone=$(comm -23 <(defined_syms "$dobj" "${nonmembers[@]}") \
			<(defined_syms "$obj" "${objs[@]}"))
	[ -n "$gone" ] || {
		errors=$((errors + 1))
		problems+=("no symbol of the kprobes core in $dobj: the link check would check nothing")
	}
	unresolved=$(comm -12 \
		<( (cd "$obj" || exit 0; nm -u "${objs[@]}" 2>/dev/null; true) |
			awk '$1 == "U" { print $2 }' | sort -u) \
		<(printf '%s\n' "$gone"))
	for o in $unresolved; do
		errors=$((errors + 1))
		problems+=("undefined reference without kprobes: $o, in $(cd "$obj" &&
			{ nm -A -u "${objs[@]}" 2>/dev/null || true; } |
			awk -v s="$o" '$NF == s { sub(/:.*/, "", $1); l = l (l ? " " : "") $1 }
				END { print l }')")
	done

	for o in "${problems[@]}"; do
		echo "matrix: nokprobes: $o"
	done
	if [ "$errors" = 0 ] && [ "$warns" = 0 ]; then
		result nokprobes PASS "$n objects that read the series compiled with" \
			"CONFIG_KPROBES off, none needs the $(wc -l <<< "$gone") symbols" \
			"it takes away, $(spent "$start")"
	else
		result nokprobes FAIL "$n objects, $errors errors, $warns warnings" \
			"(see $obj/make.log)"
	fi
}

cell_nokprobes()
{
	local src=$BUILD/$KP_FLAVOUR/src obj dobj=$BUILD/$KP_FLAVOUR/obj
	local start why mode=${MATRIX_NOKPROBES:-}

	start=$(mark)
	prepare_flavour "$KP_FLAVOUR" || { result nokprobes FAIL "prepare"; return; }
	# Compile only needs the default build's dependency lists (the
	# objects of the same tree at kprobes on) and the series' file list.
	if [ -z "$mode" ]; then
		why=$(nokprobes_compile_unusable "$dobj" "$src")
		mode=compile
		[ -z "$why" ] || { mode=full; note "nokprobes: the whole kernel: $why"; }
	fi
	obj=$BUILD/$KP_FLAVOUR/obj-nokprobes
	[ "$mode" = compile ] && obj=$BUILD/$KP_FLAVOUR/obj-nokprobes-compile
	why=$(nokprobes_config "$src" "$obj") || { result nokprobes FAIL "$why"; return; }

	take_build_lock
	case $mode in
	full)		nokprobes_full "$src" "$obj" "$start" ;;
	compile)	nokprobes_compile "$src" "$obj" "$start" "$dobj" ;;
	*)		result nokprobes FAIL "MATRIX_NOKPROBES=$mode: full or compile" ;;
	esac
	drop_build_lock
}

# ---- gate -----------------------------------------------------------------

# The kprobes options the gate compares: what a user of a stock defconfig
# with kprobes turned on gets, on upstream's kprobes and on ours.
GATE_KPROBES_OPTIONS='KPROBES KRETPROBES KPROBE_EVENTS KPROBES_ON_FTRACE OPTPROBES'

# The value of key $2 in architecture file $1: what lib.sh has read of
# every architecture file (KP_ARCHDATA, defaults included).
gate_key()
{
	local name=${1##*/}

	printf '%s' "${KP_ARCHDATA[${name%.sh}.$2]:-}"
}

# The packages of every gate row ("package:test" pairs), installed as
# deps.sh installs its own (as root, apt-get) when a test is missing:
# the file's PACKAGES and, as deps.sh adds them, the gcc and binutils of
# its CROSS (lib.sh's cross_packages), which a gate row compiles with
# unless it says GATE_LLVM.  (riscv64's and ppc64le's PACKAGES do not name their
# compiler: a fresh machine's CI failed their rows without this.)
gate_deps()
{
	local f pair pkg test cross
	local -a missing=()

	for f in "$KP_TOOLS"/arch/*.sh; do
		[ -n "$(gate_key "$f" GATE_DEFCONFIG)" ] || continue
		cross=$(gate_key "$f" CROSS)
		[ -n "$(gate_key "$f" GATE_LLVM)" ] && cross=
		for pair in $(gate_key "$f" PACKAGES) $(cross_packages "$cross"); do
			pkg=${pair%%:*}
			test=${pair#*:}
			# deps.sh's named checks (static-libc32, ...) are the
			# guest's: here the package itself is what counts.
			case $test in
			/*)	[ -e "$test" ] ;;
			static-*|dpkg-installed)
				dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null |
					grep -q ' installed$' ;;
			*)	command -v "$test" > /dev/null ;;
			esac || missing+=("$pkg")
		done
	done
	[ "${#missing[@]}" = 0 ] && return 0
	if [ "$(id -u)" != 0 ]; then
		note "gate: missing packages: ${missing[*]}"
		return 0
	fi
	note "gate: installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" \
		> "$BUILD/gate-apt.log" 2>&1 ||
		{ apt-get update -q > /dev/null 2>&1
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" \
			>> "$BUILD/gate-apt.log" 2>&1; } ||
		note "gate: apt-get failed (see $BUILD/gate-apt.log)"
}

# The candidate objects of architecture $2 (its kbuild source directory)
# in work tree $1: what the debian cell compiles, with this architecture's
# directory instead of x86's, and the kprobes directories themselves.
gate_candidates()
{
	local src=$1 srcarch=$2

	{
		debian_candidates "$src" | grep -v '^arch/x86/'
		(cd "$src" || exit 0
		 grep -rlE --include='*.c' \
			'#include <(linux/(kprobes|rethook|fprobe)|asm/kprobes)\.h>|\bNOKPROBE_SYMBOL\b|\bkprobe_(running|page_fault|fault_handler)\b' \
			"arch/$srcarch" kernel/kprobes 2>/dev/null || true) |
			sed 's/\.c$/.o/'
	} | sort -u
}

# The kbuild directory targets whose dry run lists every candidate of
# file $1 that the configuration builds.  A dry run of the whole build
# would do (the nokprobes cell's), but walks drivers/, net/ and sound/ for
# 40 s a row; the top-level directories that every build enters are
# walked whole, the others only where a candidate is, and an
# architecture's by its subdirectories (arch/<arch>/lib/ is not under
# arch/<arch>/'s own Makefile).
gate_dirs()
{
	awk -F/ '
		$1 == "arch"	{ print $1 "/" $2 "/" $3 "/"; next }
		$1 ~ /^(drivers|net|sound|fs|crypto|security|block|virt|io_uring)$/ {
				d = $0; sub(/[^\/]*$/, "", d); print d; next }
				{ print $1 "/" }' "$1" | sort -u
}

# One row of the gate: architecture file $1, on flavour $KP_FLAVOUR.  See
# the top of this file.
cell_gate_arch()
{
	local file=$1 name row start karch cross llvm defconfig srcarch what
	local src=$BUILD/$GATE_TREE/src obj cc wrapper cand members o w opt
	local ported have lost='' extra='' n=0 errors=0 warns=0 why accepted=''
	local -a tool=() objs=() problems=() gate_config=()

	name=$(basename "$file" .sh)
	row=gate-$name
	defconfig=$(gate_key "$file" GATE_DEFCONFIG)
	ported=$(gate_key "$file" PORTED)
	why=$(gate_key "$file" GATE_UNBUILDABLE)
	if [ -n "$why" ]; then
		result "$row" SKIP "not buildable here: $why"
		return
	fi
	if [ -z "$defconfig" ]; then
		# The booted architectures: make check builds and boots them.
		echo "matrix: $row: ported, built and booted by make check ARCH=$name"
		return
	fi
	start=$(mark)
	karch=$(gate_key "$file" KARCH)
	cross=$(gate_key "$file" CROSS)
	llvm=$(gate_key "$file" GATE_LLVM)
	if [ -n "$llvm" ]; then
		cc=clang$llvm
		tool=(LLVM="$llvm")
	else
		cc=${cross}gcc
		tool=(CROSS_COMPILE="$cross")
	fi
	command -v "$cc" > /dev/null ||
		{ result "$row" FAIL "no $cc (package list: arch/$name.sh)"; return; }
	obj=$BUILD/$GATE_TREE/obj-$name
	mkdir -p "$obj"
	wrapper=$obj/gate-cc
	# The debian cell's per-object logging wrapper, with this compiler.
	write_cc_wrapper "$wrapper"
	sed -i "s|ccache gcc|ccache $cc|" "$wrapper"
	tool+=(CC="$wrapper" HOSTCC="ccache gcc")

	# The stock defconfig with kprobes, kprobe events and ftrace turned on,
	# and the architecture's GATE_CONFIG (kprobes on ftrace and optprobes are def_bool where the
	# architecture has them), again when a Kconfig file or the
	# architecture's file is newer.
	for opt in $(gate_key "$file" GATE_CONFIG); do
		gate_config+=(-e "$opt")
	done
	if ! [ -f "$obj/.config" ] || [ "$file" -nt "$obj/.config" ] ||
	   [ -n "$(find "$src" -name 'Kconfig*' -newer "$obj/.config" -print -quit)" ]; then
		{ clean_make -C "$src" O="$obj" ARCH="$karch" "${tool[@]}" -s "$defconfig" &&
		  "$src/scripts/config" --file "$obj/.config" -e KPROBES -e KRETPROBES \
			-e KPROBE_EVENTS -e FTRACE -e FUNCTION_TRACER -e DYNAMIC_FTRACE \
			"${gate_config[@]}" &&
		  clean_make -C "$src" O="$obj" ARCH="$karch" "${tool[@]}" -s olddefconfig; } \
			> "$obj/config.log" 2>&1 ||
			{ rm -f "$obj/.config"
			  result "$row" FAIL "$defconfig does not configure (see $obj/config.log)"
			  return; }
	fi
	have=$(for opt in $GATE_KPROBES_OPTIONS; do
		if grep -qx "CONFIG_$opt=y" "$obj/.config"; then echo "$opt"; fi
	done | xargs)
	for opt in $(gate_key "$file" GATE_OPTIONS); do
		case " $have " in
		*" $opt "*)	;;
		*)		lost+=" $opt" ;;
		esac
	done
	for opt in $have; do
		case " $(gate_key "$file" GATE_OPTIONS) " in
		*" $opt "*)	;;
		*)		extra+=" $opt" ;;
		esac
	done
	if [ "$KP_FLAVOUR" = baseline ]; then
		# GATE_OPTIONS records what the baseline offers: check it.
		[ -z "$lost$extra" ] ||
			problems+=("GATE_OPTIONS of arch/$name.sh is out of date: the baseline has '$have'")
	elif [ "$ported" = 1 ]; then
		# The lost options GATE_LOST accepts, with their reasons.
		while IFS='|' read -r opt w; do
			[ -n "$opt" ] || continue
			case " $lost " in
			*" $opt "*)
				lost=$(echo " $lost " | sed "s/ $opt / /; s/ *$//")
				accepted+="; $opt not yet: $w" ;;
			esac
		done <<< "$(gate_key "$file" GATE_LOST)"
		[ -z "$lost" ] || problems+=("lost kprobes options:$lost")
	else
		# Unported: the series must keep kprobes off, so that it builds.
		case " $have " in
		*" KPROBES "*)	problems+=("KPROBES is on without a back-end of ours") ;;
		esac
	fi

	take_build_lock
	# kbuild's source directory of ARCH= (sparc64: sparc, i386: x86).
	srcarch=$karch
	case $karch in
	i386|x86_64|'')	srcarch=x86 ;;
	sparc64|sparc32) srcarch=sparc ;;
	esac
	cand=$obj/candidates.list
	members=$obj/members.list
	# An unported architecture compiles its own directory's candidates
	# only: with kprobes off, the generic ones are the nokprobes cell's
	# (x86-64, same headers of ours), and the architecture's own include
	# <linux/kprobes.h> over its <asm/kprobes.h> all the same.
	if [ "$ported" = 1 ]; then
		gate_candidates "$src" "$srcarch" > "$cand"
	else
		gate_candidates "$src" "$srcarch" | grep -E '^(arch|kernel/kprobes)/' > "$cand" || true
	fi
	mapfile -t objs < "$cand"
	for o in "${objs[@]}"; do
		rm -f "$obj/$o"
	done
	clean_make -C "$src" O="$obj" ARCH="$karch" "${tool[@]}" -s -j"$JOBS" \
		prepare > "$obj/make.log" 2>&1 || {
		drop_build_lock
		tail -n 20 "$obj/make.log" | sed "s/^/matrix: $row: /"
		result "$row" FAIL "make prepare failed (see $obj/make.log)"
		return
	}
	# Which candidates this configuration builds: what a dry run of the
	# directories that hold them would compile (kbuild's own Makefiles
	# decide; see gate_dirs()).
	# shellcheck disable=SC2046 # directory targets, one word each
	clean_make -C "$src" O="$obj" ARCH="$karch" "${tool[@]}" -n -j"$JOBS" \
		$(gate_dirs "$cand") > "$obj/dry-run.log" 2>&1 || {
		drop_build_lock
		result "$row" FAIL "the dry run failed (see $obj/dry-run.log)"
		return
	}
	{ grep -oE -- '-c -o [^ ]+\.o( |;|$)' "$obj/dry-run.log" || true; } |
		sed -E 's/^-c -o //; s/[ ;]$//' | sort -u |
		comm -12 - "$cand" > "$members"
	mapfile -t objs < "$members"
	rm -rf "$obj/cclog"
	mkdir -p "$obj/cclog"
	[ "${#objs[@]}" = 0 ] ||
		KP_CCLOG=$obj/cclog CCACHE_BASEDIR=$BUILD clean_make -C "$src" O="$obj" \
			ARCH="$karch" "${tool[@]}" -k -j"$JOBS" \
			KCFLAGS="-fmacro-prefix-map=../src/=" "${objs[@]}" \
			>> "$obj/make.log" 2>&1 || true
	drop_build_lock

	for o in "${objs[@]}"; do
		n=$((n + 1))
		if ! debian_ok "$obj/cclog" "$o" || ! [ -f "$obj/$o" ]; then
			errors=$((errors + 1))
			problems+=("$o: does not compile")
			continue
		fi
		w=$(debian_warnings "$obj/cclog" "$o" "$obj/make.log")
		if [ -n "$w" ]; then
			warns=$((warns + 1))
			problems+=("$o: warning: $(echo "$w" | head -n 1)")
		fi
	done
	[ "$n" -gt 0 ] || problems+=("the dry run compiles no candidate (see $obj/dry-run.log)")

	for w in "${problems[@]}"; do
		echo "matrix: $row: $w"
	done
	what="$n objects that use kprobes compiled, $errors errors, $warns warnings, $(spent "$start")"
	if [ "${#problems[@]}" != 0 ]; then
		result "$row" FAIL "$what; logs in $obj/"
	elif [ "$KP_FLAVOUR" = baseline ] || [ "$ported" = 1 ]; then
		result "$row" PASS "kprobes options: ${have:-none}$accepted; $what"
	else
		result "$row" SKIP "not ported, builds: kprobes options the baseline has and ours" \
			"makes unavailable:${lost:- none}; $what"
	fi
}

# Every architecture file, in name order (MATRIX_CELLS=gate-NAME picks one).
cell_gate()
{
	local f

	gate_deps
	prepare_flavour "$KP_FLAVOUR" "$GATE_TREE" || { result gate FAIL "prepare"; return; }
	for f in "$KP_TOOLS"/arch/*.sh; do
		[ -z "${1:-}" ] || [ "$(basename "$f" .sh)" = "$1" ] || continue
		cell_gate_arch "$f"
	done
}

for cell in $CELLS; do
	case $cell in
	debian)		cell_debian ;;
	nokprobes)	cell_nokprobes ;;
	gate)		cell_gate ;;
	# Only the gate's packages (.ci/run installs them early).
	deps)		gate_deps ;;
	gate-*)		if [ -f "$KP_TOOLS/arch/${cell#gate-}.sh" ]; then
				cell_gate "${cell#gate-}"
			else
				result "$cell" FAIL "no tools/testing/kprobes/arch/${cell#gate-}.sh"
			fi ;;
	*)		result "$cell" FAIL "no such cell" ;;
	esac
done

if [ "$skipped" = 0 ]; then
	echo "$passed passed, $failed failed"
else
	echo "$passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" = 0 ]
