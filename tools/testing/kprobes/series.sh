#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh - the overlay as a patch series against the pristine base.
#
#   series.sh          (make series) write $BUILD/series/: a cover letter and
#                      one "git format-patch" patch per entry of series.plan,
#                      then check the series (below)
#   series.sh check    (make series-check) make the same commits (not the
#                      patch files, not the checks), then build the kernel
#                      after each patch; stop at the first one that does
#                      not build, naming it
#
# The series is made from the same files as the work tree of "make
# prepare", nothing else: the overlay (every repository file that is not
# harness, as prepare.sh lists it), the wiring diffs patches/*.patch and the
# removal of upstream's kprobes (KP_REMOVED in lib.sh).  series.plan only
# says which of them goes into which patch, in which order, and why (the
# subject and commit message); the format is described at its top.  Like
# prepare.sh, it takes the files as they are in the work tree, committed
# or not (untracked files count unless git ignores them).
#
# Layout under $BUILD:
#
#   series/         the output: 0000-cover-letter.patch, 0001-*.patch, ...
#   series-git/     a git repository: refs/kp/base is the pristine base
#                   (committed once per base, ~30 s), branch "series" the
#                   generated commits, branch "am-check" the series as git
#                   am applied it.  Commits are made in a separate index,
#                   without a checkout.
#   series-work/    src/: the one work tree (a hard-link copy of the base;
#                   git replaces a file by unlinking it, so nothing is
#                   written through the links; checked at the end);
#                   obj*/: the object directories of "series-check";
#                   checkpatch/, log/: the reports; ok/: build stamps
#
# Checks of "make series" (any failure: exit status 1, after the report):
#
#   plan     every overlay file and every patches/*.patch is in exactly one
#            patch, every KP_REMOVED entry is removed by exactly one, an
#            overlay file at an upstream path that KP_REMOVED deletes comes
#            in the patch that deletes it, every pattern matches something
#            and no patch is empty
#   am       "git am" of the patches onto the base gives the commits' tree,
#            and that tree is exactly the work tree of "make prepare"
#            ($KP_SRC: diff -r --no-dereference, and the executable bits;
#            kbuild's outputs there, such as the kselftest modules built
#            in place, do not count)
#   checkpatch  scripts/checkpatch.pl --strict (the base's) on each patch:
#            every ERROR and WARNING type must be listed by the patch's
#            %checkpatch line in series.plan, whose commit message says why
#            it stays; CHECKs are counted
#   kernel-doc  scripts/kernel-doc -none -Wall on the C files and headers the
#            series adds: no warning
#   get_maintainer  scripts/get_maintainer.pl of the assembled tree names,
#            for every patch, the MAINTAINERS entry that lists
#            kernel/kprobes/, or the entry its %entry line names (a patch
#            that only touches another subsystem's files, such as a Kconfig
#            select, goes to that subsystem's maintainers)
#
# series-check configurations (SERIES_CONFIGS, default "test"):
#
#   test       the harness's fragments (kprobes-test.config and what
#              PREEMPT=, DEBUG=, PROD=, ARCH= add; see lib.sh), applied with
#              allnoconfig + KCONFIG_ALLCONFIG at every patch as config.sh
#              does, so that a symbol a later patch defines is set when it
#              arrives
#   nokprobes  the same with kprobes-test-nokprobes.config merged last
#
# Each configuration has its own object directory, kept between runs; the
# build is "$KP_IMAGE modules" with "ccache gcc" (the cross gcc for
# ARCH=riscv64 and ppc64le), under the harness's build lock.  A patch that
# built in a configuration is not built again (series-work/ok/).
# SERIES_TARGETS= replaces "$KP_IMAGE modules" (e.g. one object, to try
# the machinery out).

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

export LC_ALL=C

PLAN=${SERIES_PLAN:-$KP_TOOLS/series.plan}
OUT=$BUILD/series
SGIT=$BUILD/series-git
WORK=$BUILD/series-work
WSRC=$WORK/src
SERIES_CONFIGS=${SERIES_CONFIGS:-test}
SERIES_TARGETS=${SERIES_TARGETS:-$KP_IMAGE modules}

MODE=${1:-generate}
case $MODE in
generate|check)	;;
*)		die "usage: series.sh [check]" ;;
esac

[ "$KP_FLAVOUR" = ours ] || die "the series is ours: BASELINE=1 does not apply"

# The repository's identity signs the patches; read it before the user's
# configuration is shut out below.  A clone with none (a fresh CI machine)
# signs with a placeholder, said so: the checks do not depend on it.
AUTHOR_NAME=$(git -C "$KP_REPO" config user.name || true)
AUTHOR_EMAIL=$(git -C "$KP_REPO" config user.email || true)
if [ -z "$AUTHOR_NAME" ] || [ -z "$AUTHOR_EMAIL" ]; then
	AUTHOR_NAME="Kprobes series"
	AUTHOR_EMAIL=kprobes-series@localhost
	echo "series: no git identity (user.name, user.email) in $KP_REPO: signed as '$AUTHOR_NAME <$AUTHOR_EMAIL>'" >&2
fi

# Reproducible git: no system or global configuration (format.*, diff.*,
# user.*), nothing inherited from a calling git.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CEILING_DIRECTORIES
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

# git on the series repository, for what needs no work tree (objects,
# refs, an index): run at the top of a stand-in work tree, the repository
# itself, so that no path is taken relative to the caller's directory.
g()
{
	(cd "$SGIT" && GIT_DIR=$SGIT GIT_WORK_TREE=$SGIT git "$@")
}

# git on the series repository with its work tree $WSRC.
gw()
{
	(cd "$WSRC" && GIT_DIR=$SGIT GIT_WORK_TREE=$WSRC git "$@")
}

# A kernel make in the series work tree, objects in $1, clean environment.
smake()
{
	local obj=$1

	shift
	clean_make -C "$WSRC" O="$obj" "${KP_KBUILD_ARCH[@]}" "$@"
}

# ---- the plan ----------------------------------------------------------------

# Per patch (1..NP): subject, message body, file patterns, wiring diffs,
# KP_REMOVED entries, accepted checkpatch types, line of the plan.
NP=0
declare -a P_SUBJECT=() P_BODY=() P_FILES=() P_WIRING=() P_REMOVE=() \
	P_CHECKPATCH=() P_ENTRY=() P_LINE=()
COVER_SUBJECT=
COVER_BODY=
PLAN_DATE=

# Strip the blank lines at both ends of $1.
trim_blank_lines()
{
	printf '%s\n' "$1" | sed -e '/./,$!d' | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
}

parse_plan()
{
	local line lineno=0 mode='' key rest

	[ -f "$PLAN" ] || die "no plan $PLAN"
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		case $line in
		'%#'*)
			continue ;;
		'%'*)
			key=${line%%[[:space:]]*}
			rest=${line#"$key"}
			rest=$(echo "$rest" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
			[ -n "$rest" ] || die "$PLAN:$lineno: $key without an argument"
			case $key in
			%date)
				PLAN_DATE=$(date -u -d "$rest" +%s) ||
					die "$PLAN:$lineno: bad date '$rest'" ;;
			%cover)
				mode='cover'
				COVER_SUBJECT=$rest ;;
			%patch)
				mode='patch'
				NP=$((NP + 1))
				P_SUBJECT[NP]=$rest
				P_BODY[NP]=
				P_FILES[NP]=
				P_WIRING[NP]=
				P_REMOVE[NP]=
				P_CHECKPATCH[NP]=
				P_ENTRY[NP]=
				P_LINE[NP]=$lineno ;;
			%entry)
				[ "$mode" = patch ] ||
					die "$PLAN:$lineno: $key outside a %patch"
				[ -z "${P_ENTRY[NP]}" ] ||
					die "$PLAN:$lineno: a second %entry"
				P_ENTRY[NP]=$rest ;;
			%files|%wiring|%remove|%checkpatch)
				[ "$mode" = patch ] ||
					die "$PLAN:$lineno: $key outside a %patch"
				case $key in
				%files)		P_FILES[NP]+=" $rest" ;;
				%wiring)	P_WIRING[NP]+=" $rest" ;;
				%remove)	P_REMOVE[NP]+=" $rest" ;;
				%checkpatch)	P_CHECKPATCH[NP]+=" $rest" ;;
				esac ;;
			*)
				die "$PLAN:$lineno: unknown directive $key" ;;
			esac ;;
		*)
			case $mode in
			cover)	COVER_BODY+=$line$'\n' ;;
			patch)	P_BODY[NP]+=$line$'\n' ;;
			'')	[ -z "${line//[[:space:]]/}" ] ||
					die "$PLAN:$lineno: text before %cover or %patch" ;;
			esac ;;
		esac
	done < "$PLAN"

	[ "$NP" -gt 0 ] || die "$PLAN: no %patch"
	[ -n "$COVER_SUBJECT" ] || die "$PLAN: no %cover"
	[ -n "$PLAN_DATE" ] || die "$PLAN: no %date"
	COVER_BODY=$(trim_blank_lines "$COVER_BODY")
	local i
	for ((i = 1; i <= NP; i++)); do
		P_BODY[i]=$(trim_blank_lines "${P_BODY[i]}")
		[ -n "${P_BODY[i]}" ] ||
			die "$PLAN:${P_LINE[i]}: patch $i has no commit message"
		[ -n "${P_FILES[i]}${P_WIRING[i]}${P_REMOVE[i]}" ] ||
			die "$PLAN:${P_LINE[i]}: patch $i has no %files, %wiring or %remove"
	done
}

# ---- what goes into the series ----------------------------------------------

# The overlay, one path a line, as prepare.sh lists it for "ours": the
# repository's tracked and untracked (not ignored) files that exist, minus
# the harness and $BUILD.
list_overlay()
{
	local f build_rel=

	case $BUILD/ in
	"$KP_REPO"/*)	build_rel=${BUILD#"$KP_REPO"/} ;;
	esac
	git -C "$KP_REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		die "$KP_REPO is not a git work tree"
	git -C "$KP_REPO" ls-files -z --cached --others --exclude-standard |
		sort -zu | while IFS= read -r -d '' f; do
		is_harness_path "$f" && continue
		[ -n "$build_rel" ] && case $f in "$build_rel"/*) continue ;; esac
		[ -e "$KP_REPO/$f" ] || [ -L "$KP_REPO/$f" ] || continue
		case $f in
		*[[:space:]]*)	die "path with white space: $f" ;;
		esac
		printf '%s\n' "$f"
	done
}

declare -a OVERLAY=() WIRING_ALL=()
declare -A OWNER=() IS_OVERLAY=() WIRING_OWNER=() REMOVE_OWNER=()
declare -a WIRING_FILE=()

# Fill OWNER[file] = patch number from the %files patterns; check that
# every file has exactly one patch and every pattern matches.
assign_files()
{
	local i pat f hit bad=0

	mapfile -t OVERLAY < <(list_overlay)
	[ "${#OVERLAY[@]}" -gt 0 ] || die "no overlay files"
	for f in "${OVERLAY[@]}"; do
		IS_OVERLAY[$f]=1
	done
	for ((i = 1; i <= NP; i++)); do
		for pat in ${P_FILES[i]}; do
			case $pat in
			*/)	pat="$pat*" ;;
			esac
			hit=0
			for f in "${OVERLAY[@]}"; do
				# shellcheck disable=SC2053 # $pat is a glob
				[[ $f == $pat ]] || continue
				hit=1
				if [ -n "${OWNER[$f]:-}" ] && [ "${OWNER[$f]}" != "$i" ]; then
					echo "series: plan: $f is in patch ${OWNER[$f]} and in patch $i" >&2
					bad=1
				fi
				OWNER[$f]=$i
			done
			if [ "$hit" = 0 ]; then
				echo "series: plan: '$pat' (patch $i) matches no overlay file" >&2
				bad=1
			fi
		done
	done
	for f in "${OVERLAY[@]}"; do
		if [ -z "${OWNER[$f]:-}" ]; then
			echo "series: plan: $f is in no patch" >&2
			bad=1
		fi
	done
	[ "$bad" = 0 ] || PLAN_BAD=1
}

# Fill WIRING_OWNER[name] from %wiring (a number or a file name).
assign_wiring()
{
	local i w p name bad=0
	local -a match

	shopt -s nullglob
	WIRING_ALL=()
	for p in "$KP_REPO"/patches/*.patch; do
		WIRING_ALL+=("$(basename "$p")")
	done
	for ((i = 1; i <= NP; i++)); do
		for w in ${P_WIRING[i]}; do
			match=()
			for p in "$KP_REPO/patches/$w" "$KP_REPO/patches/$w"-*.patch; do
				[ -f "$p" ] && match+=("$(basename "$p")")
			done
			if [ "${#match[@]}" != 1 ]; then
				echo "series: plan: %wiring $w (patch $i) names ${#match[@]} files of patches/" >&2
				bad=1
				continue
			fi
			name=${match[0]}
			if [ -n "${WIRING_OWNER[$name]:-}" ]; then
				echo "series: plan: $name is in patch ${WIRING_OWNER[$name]} and in patch $i" >&2
				bad=1
			fi
			WIRING_OWNER[$name]=$i
			WIRING_FILE[i]+=" $name"
		done
	done
	shopt -u nullglob
	for name in "${WIRING_ALL[@]}"; do
		if [ -z "${WIRING_OWNER[$name]:-}" ]; then
			echo "series: plan: patches/$name is in no patch" >&2
			bad=1
		fi
	done
	[ "$bad" = 0 ] || PLAN_BAD=1
}

# Fill REMOVE_OWNER[entry] from %remove; every KP_REMOVED entry once.
assign_removals()
{
	local i r e known bad=0

	for ((i = 1; i <= NP; i++)); do
		for r in ${P_REMOVE[i]}; do
			known=0
			for e in "${KP_REMOVED[@]}"; do
				[ "$e" = "$r" ] && known=1
			done
			if [ "$known" = 0 ]; then
				echo "series: plan: %remove $r (patch $i) is not in KP_REMOVED (lib.sh)" >&2
				bad=1
			elif [ -n "${REMOVE_OWNER[$r]:-}" ]; then
				echo "series: plan: $r is removed by patch ${REMOVE_OWNER[$r]} and by patch $i" >&2
				bad=1
			fi
			REMOVE_OWNER[$r]=$i
		done
	done
	for e in "${KP_REMOVED[@]}"; do
		if [ -z "${REMOVE_OWNER[$e]:-}" ]; then
			echo "series: plan: upstream's $e is removed by no patch" >&2
			bad=1
		fi
	done
	[ "$bad" = 0 ] || PLAN_BAD=1
}

# An overlay file that replaces an upstream file which KP_REMOVED deletes
# must come with the deletion: before it the two implementations would
# be mixed, after it the path would be missing in between.
check_replacements()
{
	local e f bad=0

	for e in "${KP_REMOVED[@]}"; do
		for f in "${OVERLAY[@]}"; do
			case $f in
			"$e"|"$e"/*)	;;
			*)		continue ;;
			esac
			[ -e "$PRISTINE/$f" ] || continue
			if [ "${OWNER[$f]:-}" != "${REMOVE_OWNER[$e]:-}" ]; then
				echo "series: plan: $f replaces upstream's file in patch ${OWNER[$f]:-none}, but $e is removed in patch ${REMOVE_OWNER[$e]:-none}" >&2
				bad=1
			fi
		done
	done
	[ "$bad" = 0 ] || PLAN_BAD=1
}

# ---- the base repository ------------------------------------------------------

# A fingerprint of the pristine base (names, types, sizes, mtimes, modes).
base_fingerprint()
{
	(cd "$PRISTINE" && find . -printf '%P %y %s %T@ %m\n' | sort | sha1sum |
		cut -d' ' -f1)
}

# Make refs/kp/base the pristine base, once per base; print its commit.
ensure_base_commit()
{
	local fp tree commit idx=$SGIT/base.index

	if ! [ -f "$SGIT/HEAD" ]; then
		git init -q --bare "$SGIT"
	fi
	g config core.bare false
	g config gc.auto 0
	g config core.looseCompression 1
	g config core.autocrlf false
	fp="$PRISTINE $(base_fingerprint)"
	if [ "$(cat "$SGIT/kp-base.id" 2>/dev/null)" = "$fp" ] &&
	   g rev-parse -q --verify refs/kp/base >/dev/null; then
		g rev-parse refs/kp/base
		return
	fi
	note "committing the pristine base $(basename "$PRISTINE") (once)" >&2
	rm -f "$idx"
	# -f: the tarball's files, whatever the base's .gitignore files say.
	(cd "$PRISTINE" &&
	 GIT_INDEX_FILE=$idx GIT_WORK_TREE=$PRISTINE GIT_DIR=$SGIT git add -A -f)
	tree=$(GIT_INDEX_FILE=$idx g write-tree)
	rm -f "$idx"
	commit=$(echo "Linux $KVER, the pristine base of the kprobes series" |
		 identity "$((PLAN_DATE - 60))" g commit-tree "$tree")
	g update-ref refs/kp/base "$commit"
	echo "$fp" > "$SGIT/kp-base.id"
	echo "$commit"
}

# Run "$@" with the plan's identity and date $1 (seconds since the epoch).
identity()
{
	local when=$1

	shift
	GIT_AUTHOR_NAME=$AUTHOR_NAME GIT_AUTHOR_EMAIL=$AUTHOR_EMAIL \
	GIT_COMMITTER_NAME=$AUTHOR_NAME GIT_COMMITTER_EMAIL=$AUTHOR_EMAIL \
	GIT_AUTHOR_DATE="$when +0000" GIT_COMMITTER_DATE="$when +0000" "$@"
}

# The one work tree $WSRC: a hard-link copy of the base whose index is
# the base commit; made again when the base changed.
ensure_worktree()
{
	local base=$1

	if [ -d "$WSRC" ] && [ "$(cat "$WORK/src.base" 2>/dev/null)" = "$base" ]; then
		return
	fi
	note "work tree $WSRC: hard links to the base"
	rm -rf "$WSRC" "$WORK/src.base"
	mkdir -p "$WORK"
	cp -al "$PRISTINE" "$WSRC"
	gw read-tree "$base"
	gw update-index -q --refresh >/dev/null || true
	echo "$base" > "$WORK/src.base"
}

# ---- make series ----------------------------------------------------------------

# The message of patch $1.
commit_message()
{
	printf '%s\n\n%s\n\nSigned-off-by: %s <%s>\n' "${P_SUBJECT[$1]}" \
		"${P_BODY[$1]}" "$AUTHOR_NAME" "$AUTHOR_EMAIL"
}

# Make the series' commits on top of $1, in their own index; print the
# last one.
make_commits()
{
	local base=$1 parent=$1 i r f w tree ptree commit sha mode
	local -a files=() shas=()
	export GIT_INDEX_FILE=$SGIT/series.index

	g read-tree "$base"
	for ((i = 1; i <= NP; i++)); do
		# Upstream's files that this patch removes; ours at the same
		# paths are written by the patches that own them.
		for r in ${P_REMOVE[i]}; do
			[ -n "$(g ls-tree -r --name-only "$base" -- "$r")" ] ||
				die "patch $i: upstream's $r is not in the base"
			g ls-tree -r -z --name-only "$base" -- "$r" |
				while IFS= read -r -d '' f; do
					[ -n "${IS_OVERLAY[$f]:-}" ] || printf '%s\0' "$f"
				done | g update-index -z --force-remove --stdin
		done

		files=()
		for f in "${OVERLAY[@]}"; do
			[ "${OWNER[$f]}" = "$i" ] && files+=("$f")
		done
		if [ "${#files[@]}" -gt 0 ]; then
			mapfile -t shas < <(printf "$KP_REPO/%s\n" "${files[@]}" |
				g hash-object -w --no-filters --stdin-paths)
			for f in "${!files[@]}"; do
				sha=${shas[f]}
				mode=100644
				if [ -L "$KP_REPO/${files[f]}" ]; then
					mode=120000
					sha=$(printf '%s' "$(readlink "$KP_REPO/${files[f]}")" |
					      g hash-object -w --stdin)
				elif [ -x "$KP_REPO/${files[f]}" ]; then
					mode=100755
				fi
				printf '%s %s\t%s\n' "$mode" "$sha" "${files[f]}"
			done | g update-index --index-info
		fi

		for w in ${WIRING_FILE[i]:-}; do
			g apply --cached -p1 "$KP_REPO/patches/$w" ||
				die "patch $i (${P_SUBJECT[i]}): patches/$w does not apply"
		done

		tree=$(g write-tree)
		ptree=$(g rev-parse "$parent^{tree}")
		[ "$tree" != "$ptree" ] || die "patch $i (${P_SUBJECT[i]}) changes nothing"
		commit=$(commit_message "$i" |
			 identity "$((PLAN_DATE + 60 * i))" g commit-tree "$tree" -p "$parent" -F -)
		parent=$commit
	done
	echo "$parent"
}

# The cover letter and the patches, in $OUT.
format_series()
{
	local base=$1

	g config branch.series.description \
		"$(printf '%s\n\n%s\n' "$COVER_SUBJECT" "$COVER_BODY")"
	rm -rf "$OUT"
	mkdir -p "$OUT"
	# Within a patch: documentation, then interfaces, then the code.
	printf '%s\n' 'Documentation/*' MAINTAINERS 'include/*' '*Kconfig*' \
		'*Makefile' '*.h' '*' > "$SGIT/kp-orderfile"
	# -B: a file that is rewritten from scratch reads as the old text
	# removed and the new one added, not as interleaved hunks.
	identity "$PLAN_DATE" g format-patch -q -o "$OUT" --cover-letter \
		--cover-from-description=subject -B --no-renames --no-signature \
		-O"$SGIT/kp-orderfile" "$base..series"
	if grep -q '\*\*\* SUBJECT HERE \*\*\*\|\*\*\* BLURB HERE \*\*\*' \
		"$OUT/0000-cover-letter.patch"; then
		die "cover letter not filled in"
	fi
}

# git am the series onto the base in $WSRC and compare with $KP_SRC.
check_am()
{
	local base=$1 f n=0
	local -a patches=()

	for f in "$OUT"/[0-9][0-9][0-9][0-9]-*.patch; do
		case $f in */0000-cover-letter.patch) continue ;; esac
		patches+=("$f")
	done
	gw am --abort >/dev/null 2>&1 || true
	gw checkout -q -f --detach "$base"
	gw clean -q -f -d -x
	gw branch -q -f am-check "$base"
	gw checkout -q am-check
	if ! identity "$PLAN_DATE" gw am -q --whitespace=nowarn "${patches[@]}"; then
		gw am --abort >/dev/null 2>&1 || true
		echo "series: FAIL: git am of $OUT onto the base" >&2
		FAILED=1
		return
	fi
	AM_DONE=1
	if [ "$(g rev-parse 'am-check^{tree}')" != "$(g rev-parse 'series^{tree}')" ]; then
		echo "series: FAIL: git am gives another tree than the commits" >&2
		FAILED=1
	fi
	# A file only in $KP_SRC named as kbuild names its outputs is one, not
	# part of the tree: the kselftest framework builds test_modules/ in
	# place (external modules have no output directory in 6.12), and
	# "make check" may have done so since make prepare.  (The base's
	# .gitignore cannot say: Debian's ignores everything at the top.)
	{ diff -r -q --no-dereference "$WSRC" "$KP_SRC" 2>&1 || true; } |
		while IFS= read -r line; do
			if [[ $line == "Only in $KP_SRC"*": "* ]]; then
				case ${line##*: } in
				*.o | *.ko | *.mod | *.mod.c | .*.cmd | .*.d | \
				modules.order | Module.symvers)
					continue ;;
				esac
			fi
			echo "$line"
		done > "$WORK/am-diff.txt"
	if [ -s "$WORK/am-diff.txt" ]; then
		echo "series: FAIL: git am result differs from $KP_SRC (make prepare):" >&2
		head -20 "$WORK/am-diff.txt" >&2
		FAILED=1
		return
	fi
	if ! diff <(cd "$WSRC" && find . -type f -perm -u+x | sort) \
		  <(cd "$KP_SRC" && find . -type f -perm -u+x | sort) > "$WORK/am-diff.txt"; then
		echo "series: FAIL: executable bits differ from $KP_SRC:" >&2
		head -20 "$WORK/am-diff.txt" >&2
		FAILED=1
		return
	fi
	n=$(cd "$WSRC" && find . \( -type f -o -type l \) | wc -l)
	note "git am onto the base: the tree of make prepare ($KP_SRC), $n files, identical"
}

# scripts/checkpatch.pl --strict of the base on each patch.
check_checkpatch()
{
	local p num log e w c t allowed bad i=0 stale

	mkdir -p "$WORK/checkpatch"
	rm -f "$WORK/checkpatch"/*.log
	note "checkpatch.pl --strict (ERROR, WARNING, CHECK; logs in $WORK/checkpatch/):"
	for p in "$OUT"/[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		i=$((i + 1))
		num=$(basename "$p" | cut -c1-4)
		log=$WORK/checkpatch/$num.log
		(cd "$PRISTINE" && perl scripts/checkpatch.pl --strict --show-types \
			--no-summary --no-color "$p") > "$log" 2>&1 || true
		e=$(grep -c '^ERROR:' "$log" || true)
		w=$(grep -c '^WARNING:' "$log" || true)
		c=$(grep -c '^CHECK:' "$log" || true)
		allowed=" ${P_CHECKPATCH[i]} "
		bad=
		while IFS= read -r t; do
			case $allowed in
			*" $t "*)	;;
			*)		bad+=" $t" ;;
			esac
		done < <(sed -n 's/^\(ERROR\|WARNING\):\([A-Z0-9_]*\):.*/\2/p' "$log" | sort -u)
		stale=
		for t in ${P_CHECKPATCH[i]}; do
			grep -q "^[A-Z]*:$t:" "$log" || stale+=" $t"
		done
		printf '  %s  %2d %2d %2d  %s%s%s\n' "$num" "$e" "$w" "$c" "${P_SUBJECT[i]}" \
			"${bad:+  UNJUSTIFIED:$bad}" "${stale:+  (%checkpatch not needed:$stale)}"
		[ -z "$bad" ] || FAILED=1
	done
}

# scripts/kernel-doc -none -Wall (the base's) on the C files and headers
# the series adds, in the tree git am assembled: none may warn (the
# rst's kernel-doc directives include some of them).
check_kernel_doc()
{
	local f log=$WORK/kernel-doc.log
	local -a files=()

	for f in "${OVERLAY[@]}"; do
		case $f in
		tools/*)	;;
		*.c|*.h)	files+=("$f") ;;
		esac
	done
	(cd "$WSRC" && perl scripts/kernel-doc -none -Wall "${files[@]}") > "$log" 2>&1 || true
	if [ -s "$log" ]; then
		echo "series: FAIL: scripts/kernel-doc -Wall warns on files of the series:" >&2
		head -n 20 "$log" >&2
		FAILED=1
		return
	fi
	note "kernel-doc -Wall on the series' ${#files[@]} C files and headers: no warning"
}

# get_maintainer.pl of the assembled tree, on the series and on each patch:
# every patch must reach the entry that lists kernel/kprobes/, or the one
# its %entry names.
check_maintainers()
{
	local entry want out p num line missed=
	local -a patches=()

	for p in "$OUT"/[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		patches+=("$p")
	done
	# The entry that lists kernel/kprobes/: its title line.
	entry=$(awk '
		/^$/ { title = ""; next }
		title == "" { title = $0; next }
		$0 == "F:\tkernel/kprobes/" { print title; exit }
	' "$WSRC/MAINTAINERS")
	if [ -z "$entry" ]; then
		echo "series: FAIL: no MAINTAINERS entry lists kernel/kprobes/" >&2
		FAILED=1
		return
	fi
	out=$(cd "$WSRC" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
		"${patches[@]}" 2>&1) || true
	note "get_maintainer.pl on the series (assembled tree):"
	printf '%s\n' "$out" | while IFS= read -r line; do
		echo "  $line"
	done
	for p in "${patches[@]}"; do
		num=$(basename "$p" | cut -c1-4)
		want=${P_ENTRY[10#$num]:-$entry}
		# --sections: every entry the patch's files match, by title.
		# The default output names one entry per person or list, and
		# which one, when several entries share them (Song Liu and
		# bpf@ are in BPF [GENERAL] and BPF [TRACING]), follows
		# perl's hash order: it changes from run to run.
		out=$(cd "$WSRC" && perl scripts/get_maintainer.pl --no-git \
			--no-git-fallback --sections "$p" 2>/dev/null) || true
		if ! grep -qxF -- "$want" <<< "$out"; then
			echo "series: FAIL: get_maintainer.pl does not map patch $num to '$want'" >&2
			missed+=" $num"
		fi
	done
	if [ -n "$missed" ]; then
		FAILED=1
		return
	fi
	note "get_maintainer.pl maps each patch to '$entry' or to its %entry"
}

# The plan, checked, and its commits: BASE_COMMIT, branch "series".
build_series()
{
	PLAN_BAD=0
	parse_plan
	assign_files
	assign_wiring
	assign_removals
	check_replacements
	[ "$PLAN_BAD" = 0 ] || die "$PLAN does not fit the overlay (above)"
	BASE_COMMIT=$(ensure_base_commit)
	SERIES_TIP=$(make_commits "$BASE_COMMIT")
	g update-ref refs/heads/series "$SERIES_TIP"
}

# Run check $1 (with its arguments) and count it passed or failed by
# whether it set FAILED.
counted()
{
	local before=$FAILED

	FAILED=0
	"$@"
	if [ "$FAILED" = 0 ]; then
		CHECKS_PASSED=$((CHECKS_PASSED + 1))
	else
		CHECKS_FAILED=$((CHECKS_FAILED + 1))
	fi
	[ "$before" = 0 ] || FAILED=$before
}

generate()
{
	local base start fp_before

	start=$(now)
	fp_before=$(base_fingerprint)
	build_series
	base=$BASE_COMMIT
	format_series "$base"
	note "$NP patches and a cover letter in $OUT (base: Linux $KVER)"

	FAILED=0
	AM_DONE=0
	CHECKS_PASSED=0
	CHECKS_FAILED=0
	ensure_worktree "$base"
	counted check_am "$base"
	counted check_checkpatch
	# kernel-doc and get_maintainer.pl run in the tree that git am
	# assembled: without it, they count as failed.
	if [ "$AM_DONE" = 1 ]; then
		counted check_kernel_doc
		counted check_maintainers
	else
		CHECKS_FAILED=$((CHECKS_FAILED + 2))
	fi

	[ "$(base_fingerprint)" = "$fp_before" ] ||
		die "the pristine base $PRISTINE changed while the series was made"
	if [ "$FAILED" != 0 ]; then
		note "FAILED ($(( $(now) - start )) s)"
	else
		note "passed ($(( $(now) - start )) s)"
	fi
	# The harness's summary line (.ci/run adds them up): the checks.
	echo "$CHECKS_PASSED passed, $CHECKS_FAILED failed"
	[ "$FAILED" = 0 ] || exit 1
}

# ---- make series-check ------------------------------------------------------------

# Build every patch of the series in configuration $1.
check_config()
{
	local cfg=$1 obj sum i=0 c f subject stamp log want
	local -a frags=("${KP_FRAGMENTS[@]}") commits=() targets=()

	case $cfg in
	test)		want='^CONFIG_KPROBES=y$' ;;
	nokprobes)	frags+=("$KP_REPO/kernel/configs/kprobes-test-nokprobes.config")
			want='^# CONFIG_KPROBES is not set$' ;;
	*)		die "SERIES_CONFIGS: unknown configuration '$cfg' (test, nokprobes)" ;;
	esac
	for f in "${frags[@]}"; do
		[ -f "$f" ] || die "no config fragment $f"
	done
	obj=$WORK/obj$KP_ARCH_SUFFIX$KP_CONFIG
	[ "$cfg" = test ] || obj+=-$cfg
	mkdir -p "$obj" "$WORK/log" "$WORK/ok"
	read -ra targets <<< "$SERIES_TARGETS"
	sum=$({ cat "${frags[@]}"; echo "${targets[*]}"; } | sha1sum | cut -c1-12)
	mapfile -t commits < <(g rev-list --reverse "$BASE_COMMIT..series")

	for c in "${commits[@]}"; do
		i=$((i + 1))
		subject=$(g log -1 --format=%s "$c")
		stamp=$WORK/ok/$c-$(basename "$obj")-$sum
		log=$WORK/log/$(printf '%04d' "$i")-$(basename "$obj").log
		if [ -f "$stamp" ]; then
			note "$cfg: $(printf '%04d' "$i") built before: $subject"
			continue
		fi
		note "$cfg: $(printf '%04d' "$i") $subject"
		gw checkout -q -f --detach "$c"
		gw clean -q -f -d -x
		cat "${frags[@]}" > "$obj/kp-allconfig"
		if ! { smake "$obj" -s KCONFIG_ALLCONFIG="$obj/kp-allconfig" allnoconfig &&
		       grep -qE "$want" "$obj/.config" &&
		       CCACHE_BASEDIR=$BUILD smake "$obj" -j"$JOBS" CC="ccache $KP_CC" \
				HOSTCC="ccache gcc" \
				KCFLAGS="${KCFLAGS:+$KCFLAGS }-fmacro-prefix-map=../src/=" \
				"${targets[@]}"; } > "$log" 2>&1; then
			tail -30 "$log" >&2
			die "$cfg: patch $(printf '%04d' "$i") does not build: $subject (log: $log)"
		fi
		touch "$stamp"
	done
	note "$cfg: all ${#commits[@]} patches build ($(basename "$obj"): ${targets[*]})"
}

series_check()
{
	local cfg start fp_before

	start=$(now)
	command -v ccache >/dev/null || die "ccache missing; run make deps"
	fp_before=$(base_fingerprint)
	# The commits of the plan and the files as they are now (cheap: no
	# patches are written, no other check is run).
	build_series
	ensure_worktree "$BASE_COMMIT"
	take_build_lock
	for cfg in $SERIES_CONFIGS; do
		check_config "$cfg"
	done
	[ "$(base_fingerprint)" = "$fp_before" ] ||
		die "the pristine base $PRISTINE changed during the builds"
	note "passed: ${SERIES_CONFIGS// /, } ($(( $(now) - start )) s)"
}

# ---- main ----------------------------------------------------------------------------

[ -f "$KP_SRC/Makefile" ] || die "no work tree $KP_SRC; run make prepare"
KVER=$(kernel_version "$KP_SRC")
# The base prepare laid the tree over (base.path; a tree prepared before
# it wrote one: the tarball's extraction).
PRISTINE=$BUILD/base-$KVER
[ -f "$KP_TREE/base.path" ] && PRISTINE=$(cat "$KP_TREE/base.path")
[ -d "$PRISTINE" ] || die "no pristine base $PRISTINE; run make prepare"

mkdir -p "$WORK"
exec 7>"$WORK/.lock"
flock -n 7 || { note "waiting for another series.sh"; flock 7; }

case $MODE in
generate)	generate ;;
check)		series_check ;;
esac
