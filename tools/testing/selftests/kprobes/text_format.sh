#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# text_format.sh - the text that tools parse, field by field: the lines of
# debugfs kprobes/list and kprobes/blacklist, and what a run of refused
# registrations writes to the kernel log.
#
# The expectations are exact strings with the addresses masked ("ADDR"):
# the same script, unchanged, passes on upstream's kprobes (the harness's
# BASELINE=1) and on ours, which is the proof that the two print the same
# bytes where a parser looks.  The addresses are then checked on their
# own, against /proc/kallsyms.
#
#   list       "ADDR  T  SYM+0xOFF  MOD TAGS": T is k or r; MOD is the
#              module's bare name, or a space for kernel text; then one
#              space and the tags, in the order [GONE] or [DISABLED],
#              [OPTIMIZED], [FTRACE].  A gone probe (its module
#              unloaded) is "ADDR  T  0xADDR TAGS": its text is not
#              looked up again.  Checked for a kprobe and a
#              kretprobe on kernel text, disabled then enabled; an
#              optimized kprobe; a kprobe and a kretprobe on module text,
#              then the module unloaded.
#   blacklist  "0xSTART-0xEND<TAB>SYM", one line per function, also for
#              the functions of an area (x86's entry and noinstr text).
#   the log    N refused probes in a row (offsets inside an instruction)
#              write a bounded number of lines; where a kernel logs the
#              refusals (ours), the lines it dropped are counted in a line
#              of their own.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

TAB=$(printf '\t')
MOD=kprobes_test_target
MFN=kpt_target

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	[ -w "$OPT_SYSCTL" ] && echo 1 > "$OPT_SYSCTL" 2>/dev/null
	kp_cleanup_events
	unload "$MOD"
}
at_exit cleanup now

# mask LINE - LINE with its address columns spelled ADDR: the leading
# address of a list line, every 0x-address of a blacklist line.
mask()
{
	printf '%s\n' "$1" | sed -E -e "s/^[0-9a-f]{$KP_XD}  /ADDR  /" \
		-e "s/0x[0-9a-f]{$KP_XD}/0xADDR/g"
}

# same DESCRIPTION GOT WANT - one result: GOT equals WANT, byte for byte;
# both are shown, quoted (trailing blanks matter), when they differ.
same()
{
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		diag "got:  '$2'"
		diag "want: '$3'"
		fail "$1"
	fi
}

# one_line ERE - the single list line matching ERE; fails (printing
# nothing) if there is none or several.
one_line()
{
	[ "$(list_count "$1")" -eq 1 ] || return 1
	list_lines "$1"
}

# fields LINE - "ADDR|TYPE|SYMBOL|OFFSET|MODULE|TAGS" of a list line, or
# nothing if LINE does not have the shape.
fields()
{
	fl_re="^([0-9a-f]{$KP_XD})  ([kr])  ([^ +]+)\\+(0x[0-9a-f]+)  ([^ ]+| ) (.*)\$"
	printf '%s\n' "$1" | sed -n -E "s/$fl_re/\\1|\\2|\\3|\\4|\\5|\\6/p"
}

# field N LINE - the Nth field of fields LINE.
field()
{
	fields "$2" | cut -d'|' -f"$1"
}

# check_line DESC LINE TYPE SYM OFFRE MOD TAGS - LINE, field by field:
# TYPE, SYM, an offset matching OFFRE, MOD (" " for kernel text), TAGS
# exactly; then the whole line with its address masked.  Sets LINE_OFF to
# the offset shown.
check_line()
{
	cl_d=$1
	cl_l=$2
	LINE_OFF=
	if [ -z "$cl_l" ]; then
		fail "$cl_d: listed once"
		return
	fi
	diag "$cl_d: '$cl_l'"
	if [ -z "$(fields "$cl_l")" ]; then
		fail "$cl_d: 'ADDR  T  SYM+0xOFF  MOD TAGS'"
		return
	fi
	LINE_OFF=$(field 4 "$cl_l")
	same "$cl_d: type" "$(field 2 "$cl_l")" "$3"
	same "$cl_d: symbol" "$(field 3 "$cl_l")" "$4"
	check "$cl_d: offset $LINE_OFF is $5" matches "$LINE_OFF" "^($5)\$"
	same "$cl_d: module" "$(field 5 "$cl_l")" "$6"
	same "$cl_d: tags" "$(field 6 "$cl_l")" "$7"
	same "$cl_d: the line" "$(mask "$cl_l")" "ADDR  $3  $4+$LINE_OFF  $6 $7"
}

# set_opt 0|1 - debug.kprobes-optimization, where the kernel has it.  The
# lines of kernel and module text below are checked with it at 0: where
# an entry probe is no ftrace probe (arm64), it would be optimized, and
# [OPTIMIZED] has a section of its own.
set_opt()
{
	[ -w "$OPT_SYSCTL" ] && echo "$1" > "$OPT_SYSCTL"
}

# ---- list: kernel text -------------------------------------------------------

VR=$(probe_point vfs_read) || skip_all "no place in vfs_read takes a kprobe event"
ENTRYRE=$(entry_offre vfs_read)
case $VR in
*+0x*)	OFFRE=${VR#vfs_read+} ;;
*)	OFFRE=$ENTRYRE ;;
esac
# An entry probe on a traceable function goes through ftrace where the
# kernel can (KPROBES_ON_FTRACE), and says so, disabled or not.
FT=
if [ "$VR" = vfs_read ] && ftrace_site vfs_read && kconfig KPROBES_ON_FTRACE; then
	FT='[FTRACE]'
fi
diag "vfs_read probe at $VR, expected tag '$FT'"
set_opt 0

KRE="^[0-9a-f]{$KP_XD}  k  vfs_read\\+"
RRE="^[0-9a-f]{$KP_XD}  r  vfs_read\\+"
check "no probe on vfs_read before the test" \
	[ "$(list_count "$KRE|$RRE")" -eq 0 ]

if ev_add "p:$GROUP/tfk $VR"; then
	pass "kprobe event p:$GROUP/tfk $VR"
	check_line "disabled kprobe" "$(one_line "$KRE")" k vfs_read "$OFFRE" ' ' "[DISABLED]$FT"
	kline=$(one_line "$KRE")
	base=$(ksym_addr vfs_read)
	if [ -n "$base" ] && [ -n "$LINE_OFF" ]; then
		check "the address column is vfs_read + $LINE_OFF" \
			addr_is "${kline%% *}" "$base" "$LINE_OFF"
	else
		skip "the address column (no vfs_read in /proc/kallsyms)"
	fi
	ev_enable tfk 1
	workload
	check_line "enabled kprobe" "$(one_line "$KRE")" k vfs_read "$OFFRE" ' ' "$FT"
else
	fail "kprobe event p:$GROUP/tfk $VR"
fi

if why=$(no_entry_probe vfs_read); then
	skip "kretprobe lines: $why"
elif ev_add "r:$GROUP/tfr vfs_read"; then
	pass "kretprobe event r:$GROUP/tfr vfs_read"
	check_line "disabled kretprobe" "$(one_line "$RRE")" \
		r vfs_read "$ENTRYRE" ' ' "[DISABLED]$FT"
	ev_enable tfr 1
	workload
	# No counts ride on the line (a parser splits it at blanks).
	check_line "enabled kretprobe" "$(one_line "$RRE")" r vfs_read "$ENTRYRE" ' ' "$FT"
else
	fail "kretprobe event r:$GROUP/tfr vfs_read"
fi
kp_cleanup_events

# ---- list: an optimized kprobe -------------------------------------------------

# A probe past the entry of a busy function, alone there, is jump-optimized
# where the kernel can: the first accepted offset from 8 on.
set_opt 1
if kconfig_off OPTPROBES; then
	skip "the [OPTIMIZED] line (no CONFIG_OPTPROBES)"
elif ! [ -w "$OPT_SYSCTL" ] || [ "$(cat "$OPT_SYSCTL")" != 1 ]; then
	skip "the [OPTIMIZED] line (optimization is off)"
else
	FN=$(first_func ksys_read vfs_write vfs_read)
	# One probe at a time (a neighbour in the bytes a jump would cover
	# keeps a probe from being optimized), at the first accepted offsets
	# from 8 on, until one is.
	oline=
	tried=
	for o in $(accepted_offsets "$FN" 8 64 | cut -d' ' -f1-4); do
		ev_add "p:$GROUP/tfo $FN+$o" || continue
		ev_enable tfo 1
		ore=$(printf '0x%x' "$o")
		ORE="^[0-9a-f]{$KP_XD}  k  $FN\\+$ore  "
		i=0
		while [ $i -lt 5 ] && ! list_lines "$ORE" | grep -q OPTIMIZED; do
			workload
			sleep 1
			i=$((i + 1))
		done
		oline=$(one_line "$ORE")
		tried="$tried $FN+$ore"
		case $oline in
		*'[OPTIMIZED]'*)	break ;;
		esac
		diag "not optimized: '$oline'"
		oline=
		ev_enable tfo 0
		ev_del tfo
	done
	if [ -n "$oline" ]; then
		check_line "optimized kprobe" "$oline" k "$FN" "$ore" ' ' '[OPTIMIZED]'
	else
		skip "the [OPTIMIZED] line (none of$tried was optimized)"
	fi
	kp_cleanup_events
fi

# ---- list: module text, then the module gone ---------------------------------

set_opt 0

if ! MOD_KO=$(find_ko "$MOD"); then
	skip "module lines: no $MOD.ko"
elif ! insmod "$MOD_KO"; then
	fail "load $MOD"
else
	MAT=$(probe_point "$MFN" "$MOD") || MAT=$MOD:$MFN
	MENTRY=$(entry_offre "$MFN")
	case $MAT in
	*+0x*)	MOFF=${MAT#"$MOD:$MFN+"} ;;
	*)	MOFF=$MENTRY ;;
	esac
	MFT=
	if [ "$MAT" = "$MOD:$MFN" ] && ftrace_site "$MFN" && kconfig KPROBES_ON_FTRACE; then
		MFT='[FTRACE]'
	fi
	MKRE="^[0-9a-f]{$KP_XD}  k  $MFN\\+"
	MRRE="^[0-9a-f]{$KP_XD}  r  $MFN\\+"
	ev_add "p:$GROUP/tfmk $MAT" && ev_enable tfmk 1
	check_line "kprobe on module text" "$(one_line "$MKRE")" k "$MFN" "$MOFF" "$MOD" "$MFT"
	mkline=$(one_line "$MKRE")
	mbase=$(ksym_addr "$MFN" "$MOD")
	if [ -n "$mbase" ] && [ -n "$LINE_OFF" ]; then
		check "the module probe's address column is $MFN + $LINE_OFF" \
			addr_is "${mkline%% *}" "$mbase" "$LINE_OFF"
	fi
	# The kretprobe stays disabled: a gone probe shows [GONE], never
	# [DISABLED] as well.
	NOENTRY=$(no_entry_probe "$MFN") || NOENTRY=
	if [ -n "$NOENTRY" ]; then
		skip "kretprobe on module text: $NOENTRY"
	elif ev_add "r:$GROUP/tfmr $MOD:$MFN"; then
		check_line "disabled kretprobe on module text" "$(one_line "$MRRE")" \
			r "$MFN" "$MENTRY" "$MOD" "[DISABLED]$MFT"
	else
		fail "kretprobe event r:$GROUP/tfmr $MOD:$MFN"
	fi
	check "unload $MOD with probes on it" unload "$MOD"
	# A gone probe's text is not looked up again: "0x" and the address
	# stand for the symbol and the module.
	maddr=${mkline%% *}
	gk=$(list_lines "^$maddr  k  ")
	gr=$(list_lines "^$maddr  r  ")
	diag "gone kprobe: '$gk'"
	same "gone kprobe: the line" "$(mask "$gk")" "ADDR  k  0xADDR [GONE]$MFT"
	same "gone kprobe: its token is its address" \
		"$(printf '%s\n' "$gk" | cut -d' ' -f5)" "0x$maddr"
	if [ -z "$NOENTRY" ]; then
		diag "gone kretprobe: '$gr'"
		same "gone disabled kretprobe: the line" "$(mask "$gr")" \
			"ADDR  r  0xADDR [GONE]$MFT"
	fi
	kp_cleanup_events
fi

# Every line there is has one of the shapes above.
TAGS='(\[(GONE|DISABLED|OPTIMIZED|FTRACE)\])*'
WHERE="([^ ]+\\+0x[0-9a-f]+  ([^ ]+| )|0x[0-9a-f]{$KP_XD})"
bad=$(grep -v -E "^[0-9a-f]{$KP_XD}  [kr]  $WHERE $TAGS\$" "$KPDIR/list")
check "every list line is 'ADDR  T  SYM+0xOFF  MOD TAGS' or 'ADDR  T  0xADDR TAGS'" [ -z "$bad" ]
[ -z "$bad" ] || diag "bad: $bad"

# ---- blacklist -----------------------------------------------------------------

BL=$KPDIR/blacklist
# bl_check SYM - SYM's lines in the blacklist: at least one, each exactly
# "0xADDR-0xADDR<TAB>SYM" masked, starting at SYM's address.
bl_check()
{
	bl_l=$(grep -E "${TAB}$1\$" "$BL")
	bl_n=$(printf '%s' "$bl_l" | grep -c .)
	diag "blacklist, $1 ($bl_n): $(printf '%s' "$bl_l" | head -n 1)"
	if [ "$bl_n" -eq 0 ]; then
		fail "blacklist: $1 has a line of its own"
		return
	fi
	pass "blacklist: $1 has a line of its own"
	same "blacklist: $1's line" "$(mask "$(printf '%s\n' "$bl_l" | head -n 1)")" \
		"0xADDR-0xADDR${TAB}$1"
	bl_a=$(ksym_addr "$1")
	if [ -n "$bl_a" ]; then
		same "blacklist: $1's line starts at its address" \
			"$(printf '%s\n' "$bl_l" | head -n 1 | cut -d- -f1)" "0x$bl_a"
	fi
	check "blacklist: 'grep -w $1' finds it" grep -q -w "$1" "$BL"
}

if ! [ -r "$BL" ]; then
	skip "blacklist lines: no $BL"
else
	BLRE="^0x[0-9a-f]{$KP_XD}-0x[0-9a-f]{$KP_XD}${TAB}[^ $TAB]+( \\[[^] ]+\\])?\$"
	bad=$(grep -v -E "$BLRE" "$BL")
	check "every blacklist line is '0xSTART-0xEND<TAB>SYM'" [ -z "$bad" ]
	[ -z "$bad" ] || diag "bad: $(printf '%s\n' "$bad" | head -n 5)"
	# Sorted or not, for the record: a parser cannot rely on either.
	unsorted=$(awk 'NR > 1 && ("" $0) < ("" prev) { print NR ": " prev " > " $0; exit }
			{ prev = $0 }' "$BL")
	diag "blacklist: $(wc -l < "$BL") lines," \
		"${unsorted:+not }sorted by address${unsorted:+ (line $unsorted)}"
	# A NOKPROBE_SYMBOL() function of generic code.
	bl_check notifier_call_chain
	# x86-64: a NOKPROBE_SYMBOL() handler, the first function of the
	# entry text, a noinstr function.
	if [ "$(uname -m)" = x86_64 ]; then
		bl_check exc_int3
		bl_check entry_SYSCALL_64
		bl_check irqentry_nmi_enter
	fi
fi

# ---- the kernel log: refusals in a row -------------------------------------------

# Offsets inside vfs_read's instructions are refused; scan enough of
# them.  A rate limit lets a few lines through per window of time, so
# the bound grows with the time the scan took, not with the refusals:
# 12 lines per started 5 s, plus one window.  First a pause longer
# than a window: the refusals of the script run before (hostile input,
# say) must neither use up this window's lines nor have their count
# logged after the mark.
sleep 6
log_mark
SCAN=160
# A Thumb-2 kernel takes an odd offset for a function pointer's bit 0 (the
# probe goes to the even address before it), as upstream's does: only the
# second halves of 32-bit instructions are refused, one offset in four or
# so.  vfs_read is 400 bytes long there.
kconfig THUMB2_KERNEL && SCAN=400
t0=$(date +%s)
acc=$(accepted_offsets vfs_read 1 $SCAN | wc -w)
t1=$(date +%s)
refused=$((SCAN - 1 - acc))
sleep 1
lines=$(log_since_mark | grep -c .)
klines=$(log_since_mark | grep -c 'kprobes: refusing')
bound=$((12 * ((t1 - t0) / 5 + 2)))
diag "$refused refusals of vfs_read+1..$((SCAN - 1)) in $((t1 - t0)) s:" \
	"$lines log lines, $klines 'kprobes: refusing'"
log_since_mark | head -n 15 | sed 's/^/# log: /'
check "at least 50 refusals in a row ($refused)" [ "$refused" -ge 50 ]
if [ "$bound" -ge "$refused" ]; then
	skip "a bounded log (the scan took $((t1 - t0)) s: too slow to tell)"
else
	check "$refused refusals in $((t1 - t0)) s write at most $bound log lines ($lines)" \
		[ "$lines" -le "$bound" ]
fi
if [ "$klines" -eq 0 ]; then
	skip "the count of dropped lines (this kernel logs no refusal)"
else
	# The count comes once the rate limit's window (5 s) has passed.
	sleep 6
	DROPRE='.*kprobes: ([0-9]+) refusal\(s\) not logged.*'
	dropped=$(log_since_mark | sed -n -E "s/$DROPRE/\\1/p" |
		awk '{ n += $1 } END { print n + 0 }')
	diag "dropped lines counted: $dropped"
	check "the dropped lines are counted ($klines logged + $dropped counted >= $refused)" \
		[ $((klines + dropped)) -ge "$refused" ]
fi

finish
