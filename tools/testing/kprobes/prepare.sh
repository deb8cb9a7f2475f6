#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prepare.sh - lay out the kernel work tree $BUILD/<flavour>/src.
#
# The work tree is assembled in a staging tree of hard links to the pristine
# base, then synchronised into src/ with rsync, whose size+mtime quick check
# leaves unchanged files alone so that kbuild stays incremental.  What src/
# takes over from the base unchanged is a hard link to the pristine file too
# (rsync --link-dest), so a work tree costs the disk only its own files, a
# few MB, instead of a 1.7 GB copy: CI lays out a dozen of them.  Nothing
# writes into src/ (kbuild, the kselftest and tools builds all write under
# O=); a file edited there in place would be edited in the base.
#
# ours:      pristine base
#            - upstream's kprobes implementation (KP_REMOVED in lib.sh)
#            + every file of this repository at its in-tree path, except the
#              harness itself (the overlay; mtimes taken from the repo)
#            + patches/*.patch, in order (mtimes taken from the patch)
# baseline:  pristine base
#            + tools/testing/selftests/kprobes/ from this repository, which
#              only uses the public kprobes API
#            + the architecture's BASE_FIXES patches (fixes of the base
#              that its machine needs to boot)
#
# The pristine base is never written: every file that is replaced or patched
# in the staging tree has its hard link broken first.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

export LC_ALL=C

# Extract (or copy) BASE into $BUILD/base-<version> once; print that path.
ensure_base()
{
	local id ver tmp dir idfile

	mkdir -p "$BUILD/base-id"
	exec 9>"$BUILD/.base.lock"
	flock 9

	if [ -d "$BASE" ]; then
		ver=$(kernel_version "$BASE") ||
			die "BASE=$BASE is not a kernel source directory"
		# A directory of its own per source directory: the tarball's
		# extraction (base-<version>) is never the target of this
		# rsync --delete.
		dir=$BUILD/base-$ver-$(realpath "$BASE" | sha1sum | cut -c1-8)
		# Cheap when nothing changed; picks up edits to BASE otherwise.
		rsync -a --delete --exclude=/.git "$BASE/" "$dir/" >&2
	elif [ -f "$BASE" ]; then
		id=$(stat -L -c '%s %Y' "$BASE")
		id=$(echo "$(realpath "$BASE") $id" | sha1sum | cut -c1-16)
		idfile=$BUILD/base-id/$id
		if [ -f "$idfile" ] && [ -d "$BUILD/base-$(cat "$idfile")" ]; then
			ver=$(cat "$idfile")
		else
			tmp=$BUILD/base-tmp.$$
			rm -rf "$tmp"
			mkdir -p "$tmp"
			note "extracting $BASE (once)" >&2
			tar -xf "$BASE" -C "$tmp" --strip-components=1 ||
				die "cannot extract $BASE"
			ver=$(kernel_version "$tmp") ||
				die "$BASE does not hold a kernel source tree"
			if [ -d "$BUILD/base-$ver" ]; then
				rm -rf "$tmp"
			else
				mv "$tmp" "$BUILD/base-$ver"
			fi
			echo "$ver" > "$idfile"
		fi
		dir=$BUILD/base-$ver
	else
		die "BASE=$BASE: no such tarball or directory"
	fi

	exec 9>&-
	echo "$dir"
}

# Print the overlay's repository paths, NUL-terminated.
list_overlay()
{
	local f build_rel=

	case $BUILD/ in
	"$KP_REPO"/*)	build_rel=${BUILD#"$KP_REPO"/} ;;
	esac

	if git -C "$KP_REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$KP_REPO" ls-files -z --cached --others --exclude-standard
	else
		(cd "$KP_REPO" &&
		 find . -path ./.git -prune -o \( -type f -o -type l \) -printf '%P\0')
	fi | sort -zu | while IFS= read -r -d '' f; do
		is_harness_path "$f" && continue
		[ -n "$build_rel" ] && case $f in "$build_rel"/*) continue ;; esac
		# Tracked files deleted from the work tree are not part of it.
		[ -e "$KP_REPO/$f" ] || [ -L "$KP_REPO/$f" ] || continue
		if [ "$KP_FLAVOUR" = baseline ]; then
			case $f in
			tools/testing/selftests/kprobes/*)	;;
			*)					continue ;;
			esac
		fi
		printf '%s\0' "$f"
	done
}

# Every file of the overlay that git tracks must be in the work tree.  The
# overlay is what the work tree holds (list_overlay), so a tracked file
# deleted by mistake, or moved without git mv, would just drop out of the
# kernel tree and of the series: stop instead, naming it.  A removal on
# purpose is a "git rm".  Outside a git work tree (an exported copy) there
# is nothing to compare with.
check_tracked()
{
	local f missing=0

	git -C "$KP_REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		return 0
	while IFS= read -r -d '' f; do
		is_harness_path "$f" && continue
		echo "prepare: $f is tracked by git but missing from the work tree (git rm it, or git checkout it)" >&2
		missing=1
	done < <(git -C "$KP_REPO" ls-files -z --deleted)
	[ "$missing" = 0 ] || exit 1
}

# Replace the hard link $1 by a private copy, so that writing it cannot
# reach the pristine base.
unshare_file()
{
	cp -p "$1" "$1.kp-unshare"
	mv -f "$1.kp-unshare" "$1"
}

# Apply $1 to the staging tree; print the paths it touched.
apply_patch()
{
	local p=$1 out f
	local -a files=()
	local opts=(-d "$STAGING" -p1 --batch --forward --fuzz=0 -i "$p")

	out=$(patch --dry-run "${opts[@]}" 2>&1) ||
		die "patch does not apply: ${p#"$KP_REPO"/}
$out"
	mapfile -t files < <(echo "$out" | sed -n "s/^checking file //p" |
			     sed "s/^'\(.*\)'$/\1/")
	for f in "${files[@]}"; do
		[ -f "$STAGING/$f" ] && unshare_file "$STAGING/$f"
	done
	out=$(patch --no-backup-if-mismatch "${opts[@]}" 2>&1) ||
		die "patch failed: ${p#"$KP_REPO"/}
$out"
	for f in "${files[@]}"; do
		[ -e "$STAGING/$f" ] && touch -r "$p" "$STAGING/$f"
		echo "$f"
	done
}

# What the work tree is made of, one line each: the pristine base, the
# overlay's and the patches' paths, modes, sizes and modification times, and
# the scripts that lay it out.  The same lines as last time, with the work
# tree in place, mean there is nothing to do: laying out the tree again
# (a hard-link copy of the base, an rsync over it) costs 10 to 30 seconds,
# and every harness target that builds starts here.  A BASE directory can
# change in place, so it is laid out every time.
inputs_of_tree()
{
	[ -f "$BASE" ] || { echo "BASE is a directory: $(now) $$"; return; }
	echo "$PRISTINE $KP_FLAVOUR"
	[ "$KP_FLAVOUR" = baseline ] && echo "BASE_FIXES $(kp_arch BASE_FIXES)"
	(cd "$KP_REPO" && printf '%s\0' "${overlay[@]}" |
		xargs -0 -r stat -c '%N %a %s %y' --)
	stat -c '%n %s %y' "$KP_REPO"/patches/*.patch "$KP_TOOLS/prepare.sh" \
		"$KP_TOOLS/lib.sh" 2>/dev/null
}

start=$(now)

check_tracked

# Resolved: "cp -a" of a symbolic link to the base would copy the link, and
# the staging tree would then be the pristine base itself.
PRISTINE=$(realpath "$(ensure_base)")
STAGING=$KP_TREE/staging
note "$KP_FLAVOUR: base $(basename "$PRISTINE")"

mkdir -p "$KP_TREE"
# One prepare of a tree at a time: two (make matrix's gate rows and a
# make check of the same flavour, from two work trees) would rebuild the
# staging tree under each other, and a patch applied to a file the other
# had just linked again would write through the link into the pristine
# base.  Held until this script exits.
exec 8> "$KP_TREE/.prepare.lock"
if ! flock -n 8; then
	note "$KP_FLAVOUR: waiting for another prepare of $KP_TREE"
	flock 8
fi
# Which pristine base the tree is laid over (series.sh compares with it):
# base-<version>, or base-<version>-<hash> for a BASE directory.
echo "$PRISTINE" > "$KP_TREE/base.path"

# The overlay.
overlay_list=$KP_TREE/overlay.list0
list_overlay > "$overlay_list"
mapfile -d '' -t overlay < "$overlay_list"
rm -f "$overlay_list"

stamp=$KP_TREE/prepare.stamp
inputs_of_tree > "$stamp.new"
if [ -f "$KP_SRC/Makefile" ] && cmp -s "$stamp.new" "$stamp"; then
	rm -f "$stamp.new"
	note "$KP_FLAVOUR: up to date (${#overlay[@]} overlay files), $(( $(now) - start )) s"
	exit 0
fi
rm -f "$stamp"

rm -rf "$STAGING"
cp -al "$PRISTINE" "$STAGING"

if [ "$KP_FLAVOUR" = ours ]; then
	for p in "${KP_REMOVED[@]}"; do
		rm -rf "${STAGING:?}/$p"
	done
fi

# Lay the overlay in.  "rm -f" first: the staging file may be a hard link
# into the pristine base, and cp would write through it.
for f in "${overlay[@]}"; do
	mkdir -p "$(dirname "$STAGING/$f")"
	rm -rf "${STAGING:?}/$f"
	cp -P "$KP_REPO/$f" "$STAGING/$f"
	touch -h -r "$KP_REPO/$f" "$STAGING/$f"
done

patched=()
if [ "$KP_FLAVOUR" = ours ]; then
	shopt -s nullglob
	for p in "$KP_REPO"/patches/*.patch; do
		touched=$(apply_patch "$p") || exit 1
		mapfile -t -O "${#patched[@]}" patched <<< "$touched"
		note "applied ${p#"$KP_REPO"/}"
	done
	shopt -u nullglob

	# Whatever remains at an upstream kprobes path must be ours.
	declare -A ours_path=()
	for f in "${overlay[@]}"; do
		ours_path[$f]=1
	done
	stale=0
	for p in "${KP_REMOVED[@]}"; do
		[ -e "$STAGING/$p" ] || [ -L "$STAGING/$p" ] || continue
		while IFS= read -r -d '' f; do
			if [ -z "${ours_path[$f]:-}" ]; then
				echo "prepare: upstream kprobes file not replaced by the overlay: $f" >&2
				stale=1
			fi
		done < <(cd "$STAGING" && find "$p" \( -type f -o -type l \) -print0)
	done
	[ "$stale" = 0 ] || exit 1
else
	# The architecture's BASE_FIXES: fixes of the base without which
	# its machine does not boot, none about kprobes; the baseline gets
	# them too, so that both flavours boot the same base.
	for n in $(kp_arch BASE_FIXES); do
		p=$(compgen -G "$KP_REPO/patches/$n-*.patch") ||
			die "BASE_FIXES of ${KP_ARCH_NAME}: no patches/$n-*.patch"
		touched=$(apply_patch "$p") || exit 1
		mapfile -t -O "${#patched[@]}" patched <<< "$touched"
		note "applied ${p#"$KP_REPO"/} (BASE_FIXES)"
	done
fi

# Keep kbuild honest.  It rebuilds what is newer than its object, but a file
# can change without looking newer than the object: when it stops being
# overlaid or patched (it gets its old pristine mtime back), when a
# repository file is replaced by an older copy, or when it was edited
# while a build was running (after this script had copied the old text,
# before kbuild compiled it).  So every path that is or ever was overlaid
# or patched is compared with the work tree: a changed file gets the time
# of now, and an unchanged file never goes back in time.
tracked=$KP_TREE/tracked.list
{ cat "$tracked" 2>/dev/null || true; printf '%s\n' "${overlay[@]}" "${patched[@]}"; } |
	sed '/^$/d' | sort -u > "$tracked.new"
while IFS= read -r f; do
	s=$STAGING/$f
	d=$KP_SRC/$f
	if ! [ -f "$s" ] || ! [ -f "$d" ]; then
		continue
	fi
	if cmp -s "$s" "$d"; then
		if [ "$d" -nt "$s" ]; then
			unshare_file "$s"
			touch -r "$d" "$s"
		fi
	else
		unshare_file "$s"
		touch "$s"
	fi
done < "$tracked.new"
mv "$tracked.new" "$tracked"

mkdir -p "$KP_SRC"
rsync -a --delete --link-dest="$PRISTINE" "$STAGING/" "$KP_SRC/"
rm -rf "$STAGING"
mv "$stamp.new" "$stamp"

note "$KP_FLAVOUR: ${#overlay[@]} overlay files, ${#patched[@]} patched files, $(( $(now) - start )) s"
