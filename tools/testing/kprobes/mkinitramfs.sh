#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh - build $BUILD/<flavour>/initramfs.cpio.gz.
#
# Contents:
#   /init                  tools/testing/kprobes/init
#   /bin/busybox + links   the host's busybox-static, or the arch's of
#                          deps.sh (USERLAND=debian: Debian's package,
#                          e.g. i386; USERLAND=source: built from Debian's
#                          source package, e.g. riscv64)
#   /bin/bash              the host's bash-static, if installed (or the
#                          one of deps.sh, as busybox)
#   /usr/bin/timeout       busybox's timeout, behind a wrapper that takes
#                          coreutils' --foreground (the kselftest runner
#                          passes it)
#   /bin/kp-exit           guest/kp-exit.c, built statically here (with the
#                          cross compiler of a cross architecture, as
#                          the kselftests' helpers; -DKP_EXIT_PANIC for
#                          an EXIT=panic architecture)
#   /etc/kp-kernel.config  the kernel's .config (what tests may expect)
#   /etc/kp-notrun         tests that hang this arch's guest: not run,
#                          reported as failures (kp_notrun_tests below)
#   /lib/modules/<rel>/    every module of the build (modules_install);
#                          on the baseline also extra/kprobes_test_target.ko,
#                          built here from kernel/kprobes/tests/kprobes_test_target.c
#   /kselftest/            the kprobes kselftests as the kselftest framework
#                          installs them (make -C tools/testing/selftests
#                          TARGETS=kprobes install, below): run_kselftest.sh,
#                          kselftest-list.txt, kselftest/ (runner.sh,
#                          ktap_helpers.sh...), kprobes/ (the scripts, their
#                          static helpers kp-perf, kp-bpf, kp-uprobe-target,
#                          and test_modules/*.ko, the benchmark module
#                          kpbench.ko among them)
#   /bench/kpbench.ko      a link to kselftest/kprobes/test_modules/kpbench.ko
#                          (kp.mode=bench)
#   /kselftest/ftrace/     tools/testing/selftests/ftrace/ of the work tree,
#                          with kp-cases: the kprobe-related cases /init runs
#
# The archive is written by the base's own usr/gen_initramfs.sh, so files are
# owned by root and /dev/console exists without running as root.
#
# KP_DRY_RUN=1: print the lists of /etc/kp-notrun and kp-skip (TEST|why),
# build nothing.
#
# mkinitramfs.sh tools (make check-tools, after make initramfs): the
# initramfs of the tools boot instead, $BUILD/<flavour>/tools-initramfs.cpio:
# the Debian userland of deps.sh (KP_CHECK_TOOLS=1; its archive
# tools-userland.cpio, bpftrace and perf), followed by a second archive
# with this flavour's own files (the kernel unpacks both, the second
# over the first):
#   /init                  tools/testing/kprobes/tools-init
#   /usr/local/bin/kp-exit the one of the flavour's initramfs
#   /usr/lib/modules/<rel>/  the modules of the flavour's initramfs
#                          (kprobes_test_target.ko among them; Debian's
#                          /lib is a link to usr/lib)
#   /etc/kp-tools.conf     what tools-init needs from the kernel's build:
#                          KP_VFS_READ_OFF, the offset of an instruction
#                          inside vfs_read (the third), from vmlinux
# Uncompressed: 460 MB, which the kernel unpacks faster than it inflates
# gzip's 150 MB under TCG.

# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

ROOT=$KP_TREE/initramfs
CPIO=$KP_TREE/initramfs.cpio
BUSYBOX=$KP_BUSYBOX
BASH_STATIC=$KP_BASH_STATIC

# kp_notrun_tests - TEST|why lines, TEST as /init names it in its TAP
# (kprobes:SCRIPT, ftrace:CASE): tests that hang the guest of $KP_ARCH
# (the arch's NOTRUN_OURS or NOTRUN_BASELINE).  /init does not run them
# and reports each as "not ok ... # NOT RUN: why": a failure, counted,
# that does not take the rest of the run down with it.  Take a line out
# once the hang is gone (KP_NOTRUN=none runs every test anyway).
kp_notrun_tests()
{
	[ "${KP_NOTRUN:-}" = none ] && return
	if [ "$KP_FLAVOUR" = baseline ]; then
		kp_arch NOTRUN_BASELINE
	else
		kp_arch NOTRUN_OURS
	fi | sed '/^[[:space:]]*$/d'
}

# The cross architectures (riscv64, ppc64le, arm64) run under TCG several
# times slower than x86-64, and every ftracetest case costs 10 - 30 s there
# whatever it tests (ftracetest resets every event before and after it).
# They run the cases whose outcome depends on the architecture's back-end:
# where a probe sits and how a hit runs the probed instruction
# (add_and_remove, probepoint, kprobe_insn_boundary, kprobe_multiprobe),
# argument and return registers (kprobe_args, kretprobe_args,
# kretprobe_entry_arg), a handler faulting on user
# memory in the breakpoint trap (kprobe_args_user), module text
# (kprobe_module), probes next to ftrace's patchable entry (kprobe_ftrace,
# kprobe-direct), and what only some architectures have (optimized
# probes, fprobe on the architecture's rethook).  The others test
# trace_kprobe's parser and the event plumbing, code that is the same on
# every architecture and that the x86-64 and i386 cells run, or cannot run
# on that architecture; kp-skip lists them, CASE<TAB>why, and /init
# reports them as skipped with that reason: the generic ones below for an
# architecture with FTRACE_SKIP_GENERIC=1, and its FTRACE_SKIP.  i386
# runs every case but kretprobe_maxactive (maxactive's syntax, on
# inet_csk_accept): i386, ppc64le, riscv64 and arm64 build without
# networking, for CI's time budget.
# What the generic ones took in a full riscv64 run (2026-12-01, 980
# events, the machine busy): busy_check, kprobe_args_char, kprobe_args_comm,
# kprobe_args_string 22 s each, kprobe_args_symbol 20 s,
# kprobe_args_syntax 32 s; every case of that run took 20 - 32 s.
# kp_skip_cases - CASE|why lines for $KP_ARCH: the generic ones, then the
# architecture's own.
kp_skip_cases()
{
	local generic='arch-independent, run on x86'

	[ "$(kp_arch FTRACE_SKIP_GENERIC)" = 1 ] && cat <<EOF
kprobe/busy_check.tc|$generic: removing a busy event
kprobe/kprobe_args_char.tc|$generic: the char type
kprobe/kprobe_args_comm.tc|$generic: \$comm
kprobe/kprobe_args_string.tc|$generic: string fetches
kprobe/kprobe_args_symbol.tc|$generic: the symbol type
kprobe/kprobe_args_syntax.tc|$generic: the fetch-argument parser
kprobe/kprobe_args_type.tc|$generic: type casts
kprobe/kprobe_args_vfs.tc|$generic: %pd/%pD
kprobe/kprobe_eventname.tc|$generic: event names
kprobe/kprobe_non_uniq_symbol.tc|one name_show in this kernel, unsupported everywhere
kprobe/kprobe_syntax_errors.tc|$generic: the event parser's errors
kprobe/kretprobe_return_suffix.tc|$generic: the %return syntax
kprobe/kretprobe_maxactive.tc|$generic: maxactive's syntax
kprobe/profile.tc|$generic: kprobe_profile, which the kselftests read
kprobe/uprobe_syntax_errors.tc|$generic: the uprobe event parser
dynevent/add_remove_kprobe.tc|$generic: dynamic_events
dynevent/add_remove_btfarg.tc|no BTF in this kernel, unsupported everywhere
dynevent/clear_select_events.tc|$generic: synthetic events
dynevent/generic_clear_event.tc|$generic: synthetic events
dynevent/test_duplicates.tc|eprobes on syscall events, which $KP_ARCH builds without
EOF
	printf '%s\n%s\n' "$(kp_arch FTRACE_SKIP)" "$(kp_arch FTRACE_SKIP_MORE)" | sed '/^[[:space:]]*$/d'
}

# The tools boot's initramfs (see the top).
tools_initramfs()
{
	local root=$KP_TREE/tools-overlay cpio=$KP_TREE/tools-initramfs.cpio
	local addr third off=

	[ -f "$KP_TOOLS_USERLAND.cpio" ] ||
		die "no $KP_TOOLS_USERLAND.cpio; run KP_CHECK_TOOLS=1 make deps (make check-tools does)"
	[ -x "$KP_TREE/initramfs/bin/kp-exit" ] || die "no $KP_TREE/initramfs; run make initramfs"
	rm -rf "$root"
	mkdir -p "$root/etc" "$root/usr/local/bin" "$root/usr/lib"
	install -m 0755 "$KP_TOOLS/tools-init" "$root/init"
	cp "$KP_TREE/initramfs/bin/kp-exit" "$root/usr/local/bin/"
	cp -a "$KP_TREE/initramfs/lib/modules" "$root/usr/lib/"
	# An instruction boundary inside vfs_read, past its first two
	# instructions (the ftrace call site and the next): the third.
	# (awk reads to the end: pipefail must not see a SIGPIPE.)
	addr=$(nm "$KP_OBJ/vmlinux" | awk '$3 == "vfs_read" && $2 ~ /^[tT]$/ && !a { a = $1 } END { print a }')
	[ -n "$addr" ] || die "no vfs_read in $KP_OBJ/vmlinux"
	third=$("${KP_CROSS}objdump" -d --no-show-raw-insn --start-address="0x$addr" \
		--stop-address="$((0x$addr + 64))" "$KP_OBJ/vmlinux" |
		awk '$1 ~ /^[0-9a-f]+:$/ && ++n == 3 { sub(":", "", $1); t = $1 } END { print t }')
	[ -n "$third" ] && off=$((0x$third - 0x$addr))
	[ -n "$off" ] || die "no third instruction in vfs_read"
	echo "KP_VFS_READ_OFF=$off" > "$root/etc/kp-tools.conf"
	(cd "$KP_OBJ" && sh "$KP_SRC/usr/gen_initramfs.sh" -o "$cpio.overlay" \
		-u squash -g squash "$root")
	cat "$KP_TOOLS_USERLAND.cpio" "$cpio.overlay" > "$cpio"
	rm -f "$cpio.overlay"
	note "$KP_FLAVOUR: $(du -h "$cpio" | cut -f1) $(basename "$cpio") (vfs_read+$off)"
}

if [ "${1:-}" = tools ]; then
	tools_initramfs
	exit 0
fi

if [ "${KP_DRY_RUN:-}" = 1 ]; then
	echo "== notrun"
	kp_notrun_tests
	echo "== skip"
	kp_skip_cases
	exit 0
fi

[ -d "$KP_TREE/modroot" ] || die "no modules in $KP_TREE/modroot; run make build"
[ -x "$KP_OBJ/usr/gen_init_cpio" ] || die "no $KP_OBJ/usr/gen_init_cpio; run make build"
if ! [ -x "$BUSYBOX" ] ||
   LC_ALL=C readelf -l "$BUSYBOX" | grep 'program interpreter' > /dev/null; then
	die "$BUSYBOX is missing or not static; run make deps (busybox-static)"
fi

rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,root,etc,lib}

cp "$BUSYBOX" "$ROOT/bin/busybox"
# The applets: a busybox of another architecture cannot run here to list
# them, so deps.sh keeps the busybox.links of its build next to it.  The
# i386 one (Debian's busybox-static) has none, and some hosts cannot run
# 32-bit programs (seen: "Exec format error" in a sandboxed host kernel);
# there the host's busybox-static, the same Debian package built with the
# same configuration, lists the same applets.
if [ -f "$BUSYBOX.links" ]; then
	sed 's|^/||' "$BUSYBOX.links"
elif "$BUSYBOX" true 2>/dev/null; then
	"$BUSYBOX" --list-full
else
	note "$BUSYBOX cannot run here: the applets of the host's /bin/busybox" >&2
	/bin/busybox --list-full
fi | sed 's|^/||' | while read -r applet; do
	[ -e "$ROOT/$applet" ] || ln -s /bin/busybox "$ROOT/$applet"
done
# The kselftest runner runs each test under "timeout --foreground", which
# busybox's timeout does not take; the guest's process groups need none
# of what the option does.
rm -f "$ROOT/usr/bin/timeout"
cat > "$ROOT/usr/bin/timeout" <<'EOF'
#!/bin/sh
# busybox's timeout, taking (and ignoring) coreutils' --foreground.
[ "${1:-}" = --foreground ] && shift
exec /bin/busybox timeout "$@"
EOF
chmod 0755 "$ROOT/usr/bin/timeout"
if [ -x "$BASH_STATIC" ]; then
	rm -f "$ROOT/bin/bash"
	cp "$BASH_STATIC" "$ROOT/bin/bash"
else
	note "no $BASH_STATIC: the guest has no /bin/bash"
fi

# The architecture's EXIT says how kp-exit stops QEMU: through an exit
# device, or (panic) by power-off or a panic on purpose.
exit_cflags=()
[ "$(kp_arch EXIT)" = panic ] && exit_cflags=(-DKP_EXIT_PANIC)
"$KP_GUEST_CC" "${KP_GUEST_CFLAGS[@]}" "${exit_cflags[@]}" -static -O2 -Wall \
	-o "$ROOT/bin/kp-exit" "$KP_TOOLS/guest/kp-exit.c"
install -m 0755 "$KP_TOOLS/init" "$ROOT/init"
kp_notrun_tests | while IFS='|' read -r test why; do
	printf '%s\t%s: %s\n' "$test" "$KP_ARCH" "$why"
done > "$ROOT/etc/kp-notrun"
echo "kprobes-guest" > "$ROOT/etc/hostname"
# The kernel's configuration, for tests that depend on what the kernel
# can do (selftests/kprobes/common.inc: kconfig, no_entry_probe).
cp "$KP_OBJ/.config" "$ROOT/etc/kp-kernel.config"
# An unprivileged user for the tests that read as one (list_nonroot.sh).
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' \
	> "$ROOT/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$ROOT/etc/group"

cp -a "$KP_TREE/modroot/lib/modules" "$ROOT/lib/"

# The kselftests' target module (module_gone.sh, bpf_kprobe.sh) is built
# with our kernel/kprobes/, which the baseline does not have: build it out
# of tree there, in a copy as the benchmark module below, so that both
# flavours are tested on the same module text.  It uses the module API only.
if [ -z "$(find "$ROOT/lib/modules" -name kprobes_test_target.ko)" ]; then
	tt=$KP_TREE/test-target
	rm -rf "$tt"
	mkdir -p "$tt"
	cp "$KP_REPO/kernel/kprobes/tests/kprobes_test_target.c" "$tt/"
	echo 'obj-m += kprobes_test_target.o' > "$tt/Makefile"
	kmake -s M="$tt" modules ||
		die "$KP_FLAVOUR: kprobes_test_target.ko does not build"
	rel=$(cat "$KP_OBJ/include/config/kernel.release")
	mkdir -p "$ROOT/lib/modules/$rel/extra"
	"${KP_CROSS}strip" --strip-debug -o "$ROOT/lib/modules/$rel/extra/kprobes_test_target.ko" \
		"$tt/kprobes_test_target.ko"
fi

# The kprobes kselftests, installed by the kselftest framework of the work
# tree as a kernel developer installs them:
#
#	make -C tools/testing/selftests TARGETS=kprobes O=<obj> \
#		KSFT_INSTALL_PATH=<dir> install
#
# which builds the helpers (TEST_GEN_FILES, with the guest's compiler:
# lib.mk's $(CROSS_COMPILE)gcc is $KP_GUEST_CC, plus $KP_GUEST_CFLAGS and
# -static) into <obj>/kselftest/kprobes/, the modules of test_modules/
# (TEST_GEN_MODS_DIR, KDIR: this flavour's objects) in the work tree's
# test_modules/ (prepare.sh's rsync removes them again), and installs
# them with the scripts, common.inc, config, settings, the framework's
# runner and run_kselftest.sh with its kselftest-list.txt.  /init runs
# each script through run_kselftest.sh, one TAP line each, and sources
# common.inc for its own helpers.
selftests=$KP_SRC/tools/testing/selftests
if [ -d "$selftests/kprobes" ]; then
	ksft_log=$KP_TREE/kselftest-install.log
	clean_make -s -C "$selftests" -j"$JOBS" "${KP_KBUILD_ARCH[@]}" \
		TARGETS=kprobes O="$KP_OBJ" KDIR="$KP_SRC" \
		USERCFLAGS="${KP_GUEST_CFLAGS[*]}" USERLDFLAGS=-static \
		KSFT_INSTALL_PATH="$ROOT/kselftest" install > "$ksft_log" 2>&1 || {
		tail -n 40 "$ksft_log" >&2
		die "$KP_FLAVOUR: the kprobes kselftests do not build or install (log: $ksft_log)"
	}
	# An architecture without kpbench.ko (KPBENCH=0): bench_smoke.sh
	# skips there, and kp.mode=bench has nothing to load.
	kpbench=kprobes/test_modules/kpbench.ko
	[ "$(kp_arch KPBENCH)" = 0 ] && kpbench=
	for f in run_kselftest.sh kselftest-list.txt kselftest/ktap_helpers.sh \
		 kprobes/common.inc kprobes/kp-perf kprobes/kp-bpf \
		 kprobes/kp-uprobe-target kprobes/test_modules/kp_hostile.ko \
		 $kpbench; do
		[ -e "$ROOT/kselftest/$f" ] ||
			die "$KP_FLAVOUR: the kselftest install has no $f (log: $ksft_log)"
	done
	for ko in "$ROOT/kselftest/kprobes/test_modules"/*.ko; do
		"${KP_CROSS}strip" --strip-debug "$ko"
	done
	# The benchmark module of kp.mode=bench (bench.sh).
	mkdir -p "$ROOT/bench"
	[ -z "$kpbench" ] ||
		ln -s ../kselftest/kprobes/test_modules/kpbench.ko "$ROOT/bench/kpbench.ko"
fi

# The base's ftracetest and the cases of it that create kprobe events: all
# of test.d/kprobe/ and the few elsewhere (grep -l kprobe, and dynevent
# cases writing "p:"/"r:" to dynamic_events).  No trigger/ case creates one.
# Plus direct/kprobe-direct.tc: kprobe events next to ftrace direct calls,
# and the fprobe event cases (fprobe runs on rethook, which builds on a
# header of ours, and shares kprobe_busy_begin()/end() with kprobes).
# The config fragment turns on what they need (see its last section).
# CI has no baseline run to compare with, so a case failing on both would
# count as a failure of ours there.
ftrace=$KP_SRC/tools/testing/selftests/ftrace
if [ -x "$ftrace/ftracetest" ]; then
	mkdir -p "$ROOT/kselftest"
	cp -a "$ftrace" "$ROOT/kselftest/ftrace"
	rm -rf "$ROOT/kselftest/ftrace/logs"
	(cd "$ftrace/test.d" &&
	 ls kprobe/*.tc &&
	 ls direct/kprobe-direct.tc \
	    dynevent/add_remove_kprobe.tc dynevent/add_remove_btfarg.tc \
	    dynevent/clear_select_events.tc dynevent/generic_clear_event.tc \
	    dynevent/test_duplicates.tc \
	    dynevent/add_remove_fprobe.tc dynevent/fprobe_args_vfs.tc \
	    dynevent/fprobe_entry_arg.tc dynevent/fprobe_syntax_errors.tc \
	    dynevent/tprobe_syntax_errors.tc) \
		> "$ROOT/kselftest/ftrace/kp-cases" ||
		die "ftracetest cases missing in $ftrace/test.d"
fi

# The ftracetest cases this architecture skips (kp_skip_cases, above).
if [ -n "$(kp_skip_cases)" ] && [ -x "$ftrace/ftracetest" ]; then
	kp_skip_cases | while IFS='|' read -r case why; do
		printf '%s\t%s: %s\n' "$case" "$KP_ARCH" "$why"
	done > "$ROOT/kselftest/ftrace/kp-skip"
fi

# Extra entries that a directory cannot express without root.
cat > "$KP_TREE/initramfs.list" <<EOF
nod /dev/console 0600 0 0 c 5 1
nod /dev/null 0666 0 0 c 1 3
EOF

(cd "$KP_OBJ" && sh "$KP_SRC/usr/gen_initramfs.sh" -o "$CPIO" \
	-u squash -g squash "$ROOT" "$KP_TREE/initramfs.list")
gzip -f -6 "$CPIO"

note "$KP_FLAVOUR: $(du -h "$CPIO.gz" | cut -f1) $(basename "$CPIO.gz"), $(find "$ROOT" -name '*.ko' | wc -l) modules"
