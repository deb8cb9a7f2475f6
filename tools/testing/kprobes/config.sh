#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# config.sh - configure $BUILD/<flavour>/obj from kernel/configs/kprobes-test.config
# (followed by kprobes-test-preempt.config with PREEMPT=1 and by
# kprobes-test-i386.config with ARCH=i386).
#
# The kernel is configured with
#
#	make O=obj KCONFIG_ALLCONFIG=obj/kp-allconfig allnoconfig
#
# where kp-allconfig is the fragment itself: every symbol the fragment does
# not name is off unless selected (tinyconfig semantics), so the kernel stays
# small.  Reconfiguration happens only when the fragment or a Kconfig file
# changed; otherwise kbuild's own syncconfig keeps .config current.  In both
# cases every option line of the fragment is then checked against .config.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

export LC_ALL=C

ALLCONFIG=$KP_OBJ/kp-allconfig
# The fragments merged (PREEMPT=1 adds the preemption one, see lib.sh).
MERGED=$KP_OBJ/kp-fragments
FRAGNAMES=$(for f in "${KP_FRAGMENTS[@]}"; do basename "$f"; done | xargs)

for f in "${KP_FRAGMENTS[@]}"; do
	[ -f "$f" ] || die "no config fragment $f"
done
[ -f "$KP_SRC/Makefile" ] || die "no work tree $KP_SRC; run make prepare"

# Does a Kconfig file of the work tree define symbol $1?
kconfig_defines()
{
	grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+$1[[:space:]]*\$" \
		"$KP_SRC"
}

needs_config()
{
	[ -f "$KP_OBJ/.config" ] || return 0
	cmp -s "$MERGED" "$ALLCONFIG" || return 0
	# A changed Kconfig file (new overlay, patch) may change the result.
	[ -n "$(find "$KP_SRC" -name 'Kconfig*' -newer "$KP_OBJ/.config" -print -quit)" ]
}

mkdir -p "$KP_OBJ"
cat "${KP_FRAGMENTS[@]}" > "$MERGED"
if needs_config; then
	note "$KP_FLAVOUR$KP_ARCH_SUFFIX$KP_CONFIG: allnoconfig + $FRAGNAMES"
	cp "$MERGED" "$ALLCONFIG.new"
	kmake -s KCONFIG_ALLCONFIG="$ALLCONFIG.new" allnoconfig
	mv "$ALLCONFIG.new" "$ALLCONFIG"
fi

# Check the result: the last line of the merged fragments that names a
# symbol is what the symbol must be (a later fragment, PREEMPT=1's or
# ARCH=i386's, overrides an earlier one: CONFIG_64BIT, the unwinder).
declare -A want_of=() marker_of=()
order=()
marker=
while IFS= read -r line; do
	case $line in
	'# kp: optional'|'# kp: ours-only'|'# kp: baseline-only')
		marker=${line#'# kp: '}
		continue ;;
	CONFIG_*=*)
		sym=${line%%=*}
		want=$line ;;
	'# CONFIG_'*' is not set')
		sym=${line#'# '}
		sym=${sym%' is not set'}
		want= ;;
	*)
		continue ;;
	esac
	[ -n "${want_of[$sym]+set}" ] || order+=("$sym")
	want_of[$sym]=$want
	marker_of[$sym]=$marker
	marker=
done < "$MERGED"

failed=0
for sym in "${order[@]}"; do
	want=${want_of[$sym]}
	m=${marker_of[$sym]}
	if [ "$m" = ours-only ] && [ "$KP_FLAVOUR" != ours ]; then
		continue
	fi
	if [ "$m" = baseline-only ] && [ "$KP_FLAVOUR" != baseline ]; then
		continue
	fi
	if [ "$m" = optional ] && ! kconfig_defines "${sym#CONFIG_}"; then
		note "$sym: not defined in this tree, not checked"
		continue
	fi
	got=$(grep -E "^$sym=" "$KP_OBJ/.config" || true)
	if [ "$got" != "$want" ]; then
		echo "config: $sym: fragment wants '${want:-not set}', .config has '${got:-not set}'" >&2
		failed=1
	fi
done
[ "$failed" = 0 ] || die "$KP_FLAVOUR$KP_ARCH_SUFFIX$KP_CONFIG: .config does not match $FRAGNAMES"

note "$KP_FLAVOUR$KP_ARCH_SUFFIX$KP_CONFIG: .config matches $FRAGNAMES"
