#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hostile_input.sh - the kprobes API and its files against hostile input.
#
# Each input of test_modules/kp_hostile.ko (addresses that are not text or
# must not be probed, every form of symbol name, offsets and flags out of
# range, registrations and unregistrations out of order, bad batches,
# kretprobe parameters out of range, NULL to every entry point) runs at the
# module's load, several rounds; the module reports what the hostile call
# returned, whether the text involved is still what it was and the slab
# growth over the rounds.  Per input, one result: the errno is the one in
# the table below (what our kprobes answer: a clean refusal), the text is
# unchanged, the probe list is as before once the module is gone, the
# slab did not grow, the kernel did not taint itself (a WARN, BUG or
# Oops; the harness also reads the whole log).  Then junk written to
# debugfs "enabled" and to the kprobes-optimization sysctl must be refused
# and change nothing.
#
# Upstream's kprobes (impl=upstream) crash on some inputs (NULL arguments,
# a double free) and WARN on others (re-registration): those are skipped
# there.  Everything else runs on both, with the same expectations.

set -u
cd "$(dirname "$0")" || exit 1
. ./common.inc

require_root
require_kprobes_debugfs
require_kprobe_events

KO=$(test_module kp_hostile) || skip_all "no test_modules/kp_hostile.ko"
ROUNDS=${KP_HOSTILE_ROUNDS:-8}
# Slab growth allowed over the rounds of one input, in KiB: slab pages
# come and go in whole pages with the rest of the system.  Under KASAN,
# freed objects wait in its quarantine instead of going back to their
# slab, so the slab grows with every allocation: there the growth is only
# shown, and kmemleak (the debug configuration has both) judges leaks.
SLAB_KB=${KP_HOSTILE_SLAB_KB:-64}
SLAB_JUDGED=1
kconfig KASAN && SLAB_JUDGED=0
PARAMS=/sys/module/kp_hostile/parameters
ENABLED=$KPDIR/enabled
OPTSYSCTL=$OPT_SYSCTL

OLD_ENABLED=$(cat "$ENABLED" 2>/dev/null)
OLD_OPT=$(cat "$OPTSYSCTL" 2>/dev/null)

# shellcheck disable=SC2317 # run by at_exit (the EXIT trap)
cleanup()
{
	unload kp_hostile
	kp_cleanup_events
	[ -n "$OLD_ENABLED" ] && echo "$OLD_ENABLED" > "$ENABLED" 2>/dev/null
	[ -n "$OLD_OPT" ] && echo "$OLD_OPT" > "$OPTSYSCTL" 2>/dev/null
}
at_exit cleanup now

# One input per line: name|expected return (ours)|extra checks|symbol|
# upstream|description.
#   checks    key=value words the result must contain; text=original
#             unless a text= word says otherwise
#   symbol    the kernel symbol passed as sym= (with its addresses as
#             addrs=): the first of a comma-separated list that this
#             kernel has; name:SYMBOL passes SYMBOL without addresses
#             (freed init text: its pages may belong to anyone now, their
#             bytes are not compared); @dup a name several functions
#             share, @slot an instruction slot page of kprobes; - none
#   upstream  run on upstream's kprobes too (-), or why not: oops (NULL
#             dereference), oops-mutex (... with kprobe_mutex held), uaf
#             (frees twice), warn (WARN_ON on purpose), corrupt (a
#             registered kprobe linked into the probe table twice)
INPUTS='
data_core|-EINVAL|-|-|-|core kernel data (system_state)
data_module|-EINVAL|-|-|-|module data
rodata_core|-EINVAL|-|-|-|core kernel rodata (hex_asc)
rodata_module|-EINVAL|-|-|-|module rodata
stack|-ENOENT|-|-|-|a stack address
heap|-ENOENT|-|-|-|a kmalloc() address
vmalloc|-ENOENT|-|-|-|a vmalloc() address
user|-ENOENT|text=unreadable|-|-|a user address
noncanonical|-ENOENT|text=unreadable|-|-|a non-canonical address
vsyscall|-EINVAL|text=unreadable|-|-|the vsyscall page
no_address|-EINVAL|text=none|-|-|neither addr nor symbol_name, offset 0x1000
kprobe_slot|-ENOENT|-|@slot|-|an instruction slot page of kprobes
entry_text|-EINVAL|-|entry_SYSCALL_64,entry_INT80_32,handle_exception|-|entry text
noinstr|-EINVAL|-|exc_int3,irqentry_enter|-|a noinstr function
init_freed|-EINVAL|text=none|name:start_kernel|-|freed init text (start_kernel)
int3|-EBUSY|-|-|-|an int3 that is in the text already
mid_insn_addr|-EILSEQ|-|-|-|an address inside an instruction
mid_insn_sym|-EILSEQ|-|-|-|symbol + an offset inside an instruction
ftrace_mid|-EILSEQ|-|vfs_read|-|inside the ftrace call site of vfs_read
jump_label|-EINVAL|-|-|-|a jump label site (static_branch_unlikely)
static_call|-EINVAL|-|-|-|a static call site
nokprobe_module|-EINVAL|-|-|-|a NOKPROBE_SYMBOL of the module
kprobes_text_module|-EINVAL|-|-|-|.kprobes.text of the module
noinstr_module|-EINVAL|-|-|-|noinstr text of the module
int3_handler|-EINVAL|-|kprobe_int3_handler,kprobe_breakpoint_handler|-|the int3 handler of kprobes
fault_handler|-EINVAL|-|kprobe_fault_handler|-|the fault handler of kprobes
ftrace_handler|-EINVAL|-|kprobe_ftrace_handler|-|the ftrace handler of kprobes
exceptions_notify|-EINVAL|-|kprobe_exceptions_notify|-|the die notifier of kprobes
busy_begin|-EINVAL|-|kprobe_busy_begin|-|kprobe_busy_begin
kretprobe_trampoline|-EINVAL|-|arch_kretprobe_trampoline,arch_rethook_trampoline,__kretprobe_trampoline|-|the kretprobe trampoline
trampoline_handler|-EINVAL|-|kretprobe_trampoline_handler,rethook_trampoline_handler|-|the kretprobe trampoline handler
arch_arm_kprobe|0|-|arch_arm_kprobe|-|arch_arm_kprobe (registration path)
sym_mod_ok|0|live=CHANGED|-|-|"kp_hostile:kh_target"
sym_colon_sym|-ENOENT|-|-|-|":kh_target"
sym_mod_colon|-ENOENT|-|-|-|"kp_hostile:"
sym_colon|-ENOENT|-|-|-|":"
sym_empty|-ENOENT|-|-|-|an empty symbol name
sym_4k|-ENOENT|-|-|-|a symbol name of 4 KiB
sym_nomod|-ENOENT|-|-|-|a module that does not exist
sym_mod_nosym|-ENOENT|-|-|-|a symbol the module does not have
sym_long_mod|-ENOENT|-|-|-|a 200-character module name
sym_dup|0|-|@dup|-|a name several functions share
sym_data|-EINVAL|-|-|-|a data symbol by name (system_state)
sym_event_syntax|-ENOENT|-|vfs_read|-|"vfs_read+4" as a symbol name
addr_and_sym|-EINVAL|-|-|-|addr and symbol_name both set
off_past_text|-ENOENT|-|-|-|an offset past the end of the module text
off_huge|-ENOENT|-|-|-|offset 0xffffffff
flags_unknown|0|live=CHANGED|-|-|every flag but DISABLED set
flags_disabled|0|live=original|-|-|KPROBE_FLAG_DISABLED: not armed
double_reg|-EINVAL|still=registered|-|warn|the same kprobe registered twice
rereg_same|0|live=CHANGED|-|-|registered again after unregistration
moved_rereg|0|live=CHANGED|-|-|moved to another address, registered again
moved_double_reg|-EINVAL|still=registered|-|corrupt|moved while registered, registered again
rp_moved_double_reg|-EINVAL|still=registered|-|corrupt|a kretprobe renamed while registered, again
rereg_sym|-EINVAL|-|-|-|by symbol again, addr left set by registration
unreg_never|0|addr=cleared|-|-|unregister a kprobe never registered
unreg_stranger|0|still=registered|-|-|unregister a stranger at a probed address
double_unreg|0|-|-|-|unregister twice
enable_unreg|-EINVAL|-|-|-|enable_kprobe() of a kprobe never registered
disable_unreg|-EINVAL|-|-|-|disable_kprobe() of a kprobe never registered
enable_after_unreg|-EINVAL|-|-|-|enable_kprobe() after unregistration
rp_via_kprobe|0|-|-|-|kretprobe taken apart by unregister_kprobe(&rp->kp)
rp_double_unreg|0|-|-|uaf|unregister a kretprobe twice
rp_double_reg|-EINVAL|still=registered|-|warn|the same kretprobe registered twice
batch_null|-EINVAL|leftover=0|-|oops|register_kprobes() with a NULL element
batch_bad_mid|-EINVAL|leftover=0|-|-|register_kprobes() with a bad element in the middle
batch_num0|-EINVAL|leftover=0|-|-|register_kprobes() with num 0
batch_num_neg|-EINVAL|leftover=0|-|-|register_kprobes() with num -1
batch_dup|-EINVAL|leftover=0|-|warn|register_kprobes() with one kprobe twice
unreg_batch_neg|0|still=registered|-|-|unregister_kprobes() with num -1
rp_batch_num0|-EINVAL|-|-|-|register_kretprobes() with num 0
rp_batch_null|-EINVAL|leftover=0|-|oops|register_kretprobes() with a NULL element
rp_maxactive_neg|0|-|-|-|kretprobe maxactive -1
rp_maxactive_zero|0|-|-|-|kretprobe maxactive 0
rp_maxactive_huge|-E2BIG|-|-|-|kretprobe maxactive INT_MAX
rp_data_huge|-E2BIG|-|-|-|kretprobe data_size SIZE_MAX
rp_not_entry|-EINVAL|-|-|-|kretprobe not at a function entry
rp_no_return|-EINVAL|-|do_exit|-|kretprobe on do_exit (never returns)
null_register_kprobe|-EINVAL|text=none|-|oops|register_kprobe(NULL)
null_register_kretprobe|-EINVAL|text=none|-|oops|register_kretprobe(NULL)
null_unregister_kprobe|0|text=none|-|oops-mutex|unregister_kprobe(NULL)
null_unregister_kretprobe|0|text=none|-|oops-mutex|unregister_kretprobe(NULL)
null_enable|-EINVAL|text=none|-|oops-mutex|enable_kprobe(NULL)
null_disable|-EINVAL|text=none|-|oops-mutex|disable_kprobe(NULL)
null_register_kprobes|-EINVAL|text=none|-|oops|register_kprobes(NULL, 1)
null_unregister_kprobes|0|text=none|-|oops-mutex|unregister_kprobes(NULL, 1)
null_register_kretprobes|-EINVAL|text=none|-|oops|register_kretprobes(NULL, 1)
'

# errno NAME <-> number; mips, parisc and sparc number EILSEQ and
# EOPNOTSUPP their own way
ERRNOS='EPERM 1 ENOENT 2 E2BIG 7 ENOMEM 12 EFAULT 14 EBUSY 16 EEXIST 17
ENODEV 19 EINVAL 22 ENOSPC 28 ERANGE 34'
case $(uname -m) in
mips*)	ERRNOS="$ERRNOS EILSEQ 88 EOPNOTSUPP 122" ;;
parisc*)	ERRNOS="$ERRNOS EILSEQ 47 EOPNOTSUPP 223" ;;
sparc*)	ERRNOS="$ERRNOS EILSEQ 122 EOPNOTSUPP 45" ;;
*)	ERRNOS="$ERRNOS EILSEQ 84 EOPNOTSUPP 95" ;;
esac

# errno_num -ENAME|0 - set $errno_n to its number (-22), or to the
# argument itself if it is no name.  (The helpers set variables instead of
# printing: a command substitution costs a fork, slow under emulation.)
errno_num()
{
	errno_n=${1#-}
	# shellcheck disable=SC2086 # pairs of words
	set -- $ERRNOS
	while [ $# -ge 2 ]; do
		[ "$1" = "$errno_n" ] && { errno_n=-$2; return; }
		shift 2
	done
}

# errno_str NUMBER - set $errno_s to "-EINVAL (-22)", "0" or "-123".
errno_str()
{
	errno_s=$1
	[ "$1" = 0 ] && return
	kh_n=${1#-}
	# shellcheck disable=SC2086 # pairs of words
	set -- $ERRNOS
	while [ $# -ge 2 ]; do
		[ "$2" = "$kh_n" ] && { errno_s="-$1 (-$kh_n)"; return; }
		shift 2
	done
}

# value RESULT KEY - set $val to the value of KEY=... in RESULT.
value()
{
	val=
	for kh_w in $1; do
		case $kh_w in
		"$2"=*)	val=${kh_w#*=}
			return ;;
		esac
	done
}

# The kernel's taint flags, but for "out-of-tree module" (kp_hostile.ko's
# own): a warning, a BUG or an Oops sets one.
TAINT_OOT=4096
taints()
{
	read -r taint_now < /proc/sys/kernel/tainted
	taint_now=$((taint_now & ~TAINT_OOT))
}

# sym_addrs NAME - the core kernel text addresses kallsyms gives for NAME
# (weak definitions too), comma-separated ("0x..."), or nothing.
sym_addrs()
{
	awk -v s="$1" '$3 == s && NF == 3 && $2 ~ /^[tTwW]$/ {
			printf "%s0x%s", n++ ? "," : "", $1 }' /proc/kallsyms
}

# A core kernel function name that several functions share, all of them
# traceable and none on the blacklist: registration takes the first one.
dup_name()
{
	awk 'NF == 3 && $2 ~ /^[tT]$/ { print $3 }' /proc/kallsyms |
		sort | uniq -d | grep -v -E '^__|\.' |
		while read -r kh_d; do
			grep -q -x "$kh_d" "$TRACEFS/available_filter_functions" ||
				continue
			grep -q "	$kh_d\$" "$KPDIR/blacklist" && continue
			echo "$kh_d"
			break
		done
}

# Put a kprobe event where its probe needs an instruction slot and print
# the address of that slot page (kallsyms: kprobe_insn_page), or fail.
slot_page()
{
	for kh_f in vfs_read vfs_write; do
		for kh_o in 5 6 7 8 9 10 11 12 13 14 15 16; do
			ev_add "p:$GROUP/kh_slot $kh_f+$kh_o" || continue
			kh_p=$(awk '$3 == "kprobe_insn_page" { print $1; exit }' \
				/proc/kallsyms)
			if [ -n "$kh_p" ]; then
				echo "0x$kh_p"
				return 0
			fi
			ev_del kh_slot
		done
	done
	return 1
}

# run_input NAME PARAMETER... - load the module for input NAME and set
# $res to its result, or to nothing if it did not load.
run_input()
{
	res=
	kh_in=$1
	shift
	insmod "$KO" "input=$kh_in" "rounds=$ROUNDS" "$@" || return 0
	read -r res < "$PARAMS/result"
	rmmod kp_hostile || res="$res rmmod=failed"
}

# The addresses of every symbol the table names, in one pass over
# /proc/kallsyms: "NAME ADDRS" pairs (ADDRS as sym_addrs prints them).
TABLE_SYMS=$(echo "$INPUTS" | cut -d'|' -f4 | tr ',' '\n' |
	grep -v -e '^-$' -e '^@' -e '^name:' -e '^$' | sort -u)
KSYMS=$(awk -v names="$(echo "$TABLE_SYMS" | tr '\n' ' ')" '
	BEGIN { n = split(names, l, " "); for (i = 1; i <= n; i++) want[l[i]] = 1 }
	NF == 3 && $2 ~ /^[tTwW]$/ && ($3 in want) && cnt[$3] < 8 {
		a[$3] = a[$3] (cnt[$3]++ ? "," : "") "0x" $1
	}
	END { for (s in a) print s, a[s] }' /proc/kallsyms)

# ksym NAME - set $addrs_of to NAME's addresses from $KSYMS, or nothing.
ksym()
{
	addrs_of=
	# shellcheck disable=SC2086 # pairs of words
	set -- "$1" $KSYMS
	kh_k=$1
	shift
	while [ $# -ge 2 ]; do
		[ "$1" = "$kh_k" ] && { addrs_of=$2; return; }
		shift 2
	done
}

# Whose kprobes are these?
IMPL=
if insmod "$KO" input=none; then
	IMPL=$(cat "$PARAMS/impl")
	rmmod kp_hostile
fi
[ -n "$IMPL" ] || skip_all "kp_hostile.ko does not load"
if [ "$SLAB_JUDGED" = 1 ]; then
	diag "kprobes: $IMPL, $ROUNDS rounds per input, slab growth bound ${SLAB_KB} KiB"
else
	diag "kprobes: $IMPL, $ROUNDS rounds per input, slab growth not judged (KASAN quarantine): kmemleak judges leaks"
fi
[ "$(wc -l < "$KPDIR/list")" = 0 ] ||
	diag "probes registered before the test: $(wc -l < "$KPDIR/list")"

kmemleak_clear

# skip_because DESCRIPTION REASON - a skipped result.
skip_because()
{
	skip "$1 ($2)"
}

# hostile NAME|RET|CHECKS|SYMBOL|UPSTREAM|DESCRIPTION - one result.
hostile()
{
	IFS='|' read -r name want checks symbol upstream desc <<EOF
$1
EOF
	label="$name, $desc"
	if [ "$IMPL" != ours ]; then
		case $upstream in
		oops)		skip_because "$label" "upstream Oopses (NULL dereference)"
				return ;;
		oops-mutex)	skip_because "$label" "upstream Oopses (kprobe_mutex held)"
				return ;;
		uaf)		skip_because "$label" "upstream frees the rethook twice"
				return ;;
		warn)		skip_because "$label" "upstream WARNs (re-registration)"
				return ;;
		corrupt)	skip_because "$label" "upstream links a kprobe in twice"
				return ;;
		esac
	fi

	args=
	slot=
	case $symbol in
	-)	;;
	@dup)
		s=$(dup_name)
		[ -n "$s" ] || { skip_because "$label" "no shared traceable name"; return; }
		args="sym=$s addrs=$(sym_addrs "$s" | cut -d, -f1-8)"
		label="$label ($s)" ;;
	name:*)
		args="sym=${symbol#name:}" ;;
	@slot)
		if ! a=$(slot_page); then
			kp_cleanup_events
			skip_because "$label" "no instruction slot page in /proc/kallsyms"
			return
		fi
		slot=1
		args="addrs=$a" ;;
	*)
		a=
		kh_ifs=$IFS
		IFS=,
		# shellcheck disable=SC2086 # comma-separated names
		set -- $symbol
		IFS=$kh_ifs
		for s in "$@"; do
			ksym "$s"
			a=$addrs_of
			[ -n "$a" ] && break
		done
		if [ -z "$a" ]; then
			skip_because "$label" "none of $symbol in /proc/kallsyms"
			return
		fi
		args="sym=$s addrs=$a" ;;
	esac

	list_before=$(cat "$KPDIR/list")
	taints
	taint=$taint_now
	# shellcheck disable=SC2086 # one word per parameter
	run_input "$name" $args
	list_after=$(cat "$KPDIR/list")
	[ -n "$slot" ] && kp_cleanup_events
	diag "$name: ${res:-no result}"

	case $res in
	'')		fail "$label: kp_hostile.ko input=$name does not load"
			return ;;
	*skip=*)	skip_because "$label" "${res#*skip=}"
			return ;;
	*error=*)	fail "$label: the module says $res"
			return ;;
	esac

	value "$res" ret
	got=$val
	errno_num "$want"
	why=
	if [ "$got" != "$errno_n" ]; then
		errno_str "$errno_n"
		why="$why, expected $errno_s"
	fi
	case $checks in
	*text=*)	;;
	-)		checks=text=original ;;
	*)		checks="text=original $checks" ;;
	esac
	for c in $checks; do
		[ "$c" = - ] && continue
		value "$res" "${c%%=*}"
		[ "$val" = "${c#*=}" ] ||
			why="$why, ${c%%=*}=$val (want ${c#*=})"
	done
	value "$res" varied
	[ "$val" = 0 ] || why="$why, the rounds returned different values"
	case $res in
	*setup=failed*)	why="$why, a setup registration failed" ;;
	esac
	case $res in
	*rmmod=failed*)	why="$why, rmmod failed" ;;
	esac
	value "$res" slab_kb
	[ "$SLAB_JUDGED" = 0 ] || [ "${val:-0}" -le "$SLAB_KB" ] ||
		why="$why, slab grew by $val KiB over $ROUNDS rounds"
	[ "$list_after" = "$list_before" ] ||
		why="$why, the probe list changed: $(echo "$list_after" | head -n 3)"
	taints
	new=$((taint_now & ~taint))
	[ "$new" = 0 ] || why="$why, new taint flags $new (a WARN, BUG or Oops)"

	errno_str "$got"
	if [ -z "$why" ]; then
		pass "$label: $errno_s"
	else
		fail "$label: $errno_s$why"
	fi
}

while IFS= read -r line; do
	[ -n "$line" ] && hostile "$line" < /dev/null
done <<EOF
$INPUTS
EOF

# junk_write FILE WHAT VALUE - writing VALUE must fail and change nothing.
junk_write()
{
	before=$(cat "$1")
	if echo "$3" > "$1" 2>/dev/null; then
		ok=accepted
	else
		ok=refused
	fi
	after=$(cat "$1")
	if [ "$ok" = refused ] && [ "$after" = "$before" ]; then
		pass "$2: writing '$4' is refused, the value stays $before"
	else
		fail "$2: writing '$4' is $ok, the value went from $before to $after"
	fi
}

BIG=$(printf '%4096s' '' | tr ' ' 'x')
if [ -w "$ENABLED" ]; then
	for v in 2 abc '' -1; do
		junk_write "$ENABLED" "debugfs enabled" "$v" "$v"
	done
	junk_write "$ENABLED" "debugfs enabled" "$BIG" "x * 4096"
	check "debugfs enabled reads 1 at the end" [ "$(cat "$ENABLED")" = 1 ]
else
	skip "debugfs enabled: no writable $ENABLED"
fi
if [ -w "$OPTSYSCTL" ]; then
	for v in 2 -1 x ''; do
		junk_write "$OPTSYSCTL" "kprobes-optimization" "$v" "$v"
	done
else
	skip "kprobes-optimization: no writable $OPTSYSCTL"
fi

kmemleak_check "hostile inputs"

finish
