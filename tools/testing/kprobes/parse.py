#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# parse.py FLAVOUR_DIR - the verdict of one harness boot.
#
# Reads FLAVOUR_DIR/console.log and FLAVOUR_DIR/boot.result (see boot.sh)
# and counts:
#
#   kunit      KUnit results, parsed by the base's own
#              tools/testing/kunit/kunit.py parse, fed with the kernel's
#              (timestamped) console lines only
#   ftrace     boot-time ftrace self-tests (FTRACE_STARTUP_TEST) that passed
#   kselftest  the TAP that /init prints between "kp: tap begin" and
#              "kp: tap end" (module load tests, tools/testing/selftests/kprobes,
#              the base's ftracetest over the kprobe cases)
#   ftracetest the ftracetest cases once more: each flavour's results go to
#              FLAVOUR_DIR/ftracetest.results; with both flavours' files the
#              table test | baseline | ours is printed, and a case passing on
#              the baseline but not on ours is a failure of ours
#   console    failure reports in kernel messages (BUG, WARNING, Oops,
#              lockdep, ...); one report counts once however many of its
#              lines match; a stack dump outside any report counts too
#   guest      a missing "kp: guest done" marker (hang, panic, dead /init),
#              or a non-zero /init status that no failed test explains
#   hang       after a timeout: where each CPU was, from boot.sh's hang dump
#              (its sysrq output is not counted as failure reports)
#
# Prints a summary, then "N passed, N failed" alone on the last line, and
# exits non-zero if anything failed.
#
# parse.py --tools FLAVOUR_DIR: the verdict of make check-tools' boot
# instead (tools-console.log, tools-boot.result; no KUnit, no
# ftracetest): its TAP (tools-init's cases), the boot-time self-tests,
# failure reports, the guest's end.  Each flavour's results and times
# ("kp-tools: time NAME SECONDS" lines) go to FLAVOUR_DIR/tools.results;
# with both flavours' files, the table case | baseline | ours is printed.

import json
import os
import re
import subprocess
import sys

import kparch

# A printk timestamp (CONFIG_PRINTK_TIME): kernel lines carry one, the
# output of /init and its tests does not.
TIMESTAMP = re.compile(r'\[\s*\d+\.\d{6}\] ')

# The first line of a failure report in kernel messages.
SIGNATURES = re.compile('|'.join([
	r'\bBUG: ',
	r'kernel BUG at',
	r'\bWARNING: ',
	r'possible recursive locking',
	r'possible circular locking',
	r'inconsistent lock state',
	r'\bKASAN: ',
	r'\bUBSAN: ',
	r'\bKFENCE: ',
	r'rcu: INFO: ',
	r'INFO: task .* blocked for more than',
	r'FAILED!',				# ftrace startup tests
	r'NG: Some tests are failed',		# kprobe-events startup test
]))
# Lines that belong to the report before them, if there is one, and start a
# report of their own otherwise.
FOLLOWERS = re.compile('|'.join([
	r'\bCall Trace:',
	r'\bOops\b',
	r'Kernel panic',
	r'general protection fault',
	r'Unable to handle kernel',
]))
# The panic that follows an oops belongs to it, even after its end marker.
CONSEQUENCES = re.compile(r'Kernel panic - not syncing: Fatal exception')

# Failure reports that a kernel configuration is known to give, with why:
# listed, not counted.  Each architecture's are its file's CONSOLE_KNOWN
# (arch/<name>.sh, every file's: the config lines of each entry tell
# whose kernel it is); the common ones are here, in the same format (see
# arch-defaults.sh): "report:" the regex of the report's first line,
# "config:" the .config lines it needs ("!": needs absent), "body:" a
# regex that some line of the report's body, up to its end marker, must
# match too (each of them), "why:" the reason.
COMMON_KNOWN = r'''
# Upstream's kprobe-event boot self-test (FTRACE_STARTUP_TEST) probes the
# entry of kprobe_trace_selftest_target(), which is built with the ftrace
# flags: an ftrace site, and kprobes refuse ftrace sites without
# KPROBES_ON_FTRACE (upstream riscv 6.12 has none), so it WARNs twice and
# prints "NG".
report: WARNING: .* at kernel/trace/trace_kprobe\.c:\d+ kprobe_trace_self_tests_init|NG: Some tests are failed
config: CONFIG_FTRACE_STARTUP_TEST=y CONFIG_FUNCTION_TRACER=y CONFIG_KPROBE_EVENTS=y !CONFIG_KPROBES_ON_FTRACE=y
why: upstream's kprobe-event self-test probes a function entry that is an ftrace site, and this kernel has no KPROBES_ON_FTRACE
# selftests/kprobes/fault_inject.sh fails one allocation after another
# inside registrations made by its module, kp_faults.ko (fail-nth).
# A failing vmalloc() (instruction slots, a large kretprobe pool)
# reports itself through warn_alloc(): "vmalloc error: ...", then a
# stack dump without a WARN or BUG line.  Known only with the fault
# injection the test uses, and only when warn_alloc() and the
# module's operation are both on the stack, or the optimizer's
# arch_optprobe_prepare() (its worker builds the detour: the test's
# failslab stack filter fails allocations there).
report: Call Trace:
config: CONFIG_FAILSLAB=y
body: \bwarn_alloc\+
body: (\bkpf_op_\w+\+.*\[kp_faults\]|\barch_optprobe_prepare\+)
why: an allocation failure that fault_inject.sh injected on purpose (warn_alloc() of vmalloc(), under kp_faults.ko's registration)
'''


def load_known_reports():
	"""The common known reports, then every architecture's."""
	common = '\n'.join(l for l in COMMON_KNOWN.split('\n')
			   if not l.startswith('#'))
	known = kparch.known_reports(common, 'parse.py')
	for name, conf in kparch.load_all().items():
		known += kparch.known_reports(conf['CONSOLE_KNOWN'], f'arch/{name}.sh')
	return known


def hang_pc_regex():
	"""A CPU's pc in "info registers": every architecture's HANG_PC,
	then 16 hex digits (8 on a 32-bit machine: ppc32)."""
	pcs = [c['HANG_PC'] for c in kparch.load_all().values() if c['HANG_PC']]
	return re.compile(r'(?:%s)([0-9a-f]{8}(?:[0-9a-f]{8})?)\b' %
			  '|'.join(pcs))


KNOWN_REPORTS = load_known_reports()
REPORT_END = re.compile(r'---\[ end (trace|Kernel panic)')
REPORT_LINES = 150	# a report without an end marker ends after this

# "Testing tracer function: PASSED", "(3 3 5 0 600842) PASSED" (the end of a
# multi-line test), "trace_kprobe: Testing kprobe tracing: OK".
FTRACE_PASS = re.compile(r'(\bPASSED|\] (\S+: )?Testing .*: OK)$')
# A test's "OK" printed with pr_cont() lands on a line of its own when
# another message comes in between (seen: "Freeing initrd memory" after
# "trace_kprobe: Testing kprobe tracing:"); it counts for the test that
# started last.
FTRACE_STARTED = re.compile(r'\] (\S+: )?Testing [^:]*:\s*$')
FTRACE_CONT_OK = re.compile(r'\] OK$')

TAP_BEGIN = 'kp: tap begin'
TAP_END = 'kp: tap end'
TAP_PLAN = re.compile(r'^1\.\.(\d+)')
TAP_RESULT = re.compile(r'^(not )?ok (\d+) ?([^#]*?)\s*(?:#\s*(.*))?$')
TAP_TOOK = re.compile(r'^# kp: took (\d+) s$')

GUEST_DONE = re.compile(r'kp: guest done status=(\d+)')
# EXIT=panic (ppc64le, arm64): kp-exit reports a non-zero status by panicking the kernel on
# purpose (pseries and virt have no exit device, see guest/kp-exit.c); that panic,
# after this line, is how the guest ended, not a failure report.
DELIBERATE_PANIC = re.compile(r'kp-exit: panic on purpose: guest status \d+')


class Verdict:
	def __init__(self):
		self.passed = 0
		self.failures = []
		self.lines = []		# summary lines

	def fail(self, what):
		self.failures.append(what)

	def section(self, name, text):
		self.lines.append(f'{name:<10} {text}')


def kernel_lines(lines):
	"""(line number, text from the timestamp on) of every kernel line.

	A kernel line may start with the rest of a user-space line that it
	interrupted, but not with "# ", the prefix /init gives test output.
	"""
	for n, line in enumerate(lines, 1):
		m = TIMESTAMP.search(line)
		if m and not line.startswith('# '):
			yield n, line[m.start():]


def parse_kunit(v, fdir, tree, lines):
	kunit = os.path.join(tree, 'src', 'tools', 'testing', 'kunit', 'kunit.py')
	if not os.path.exists(kunit):
		v.fail(f'kunit: no {kunit}')
		return
	# kunit.py changes to the kernel tree: the path must be absolute.
	json_file = os.path.abspath(os.path.join(fdir, 'kunit.json'))
	if os.path.exists(json_file):
		os.remove(json_file)
	ktap = ''.join(text + '\n' for _, text in kernel_lines(lines))
	env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1')
	proc = subprocess.run([sys.executable, kunit, 'parse', f'--json={json_file}'],
			      input=ktap, capture_output=True, text=True, env=env)
	print('---- kunit.py parse ----')
	print(proc.stdout.rstrip())
	if proc.stderr.strip():
		print(proc.stderr.rstrip())

	m = re.search(r'Testing complete\. Ran (\d+) tests?(?:: (.*))?', proc.stdout)
	if not m:
		v.fail('kunit: kunit.py parse printed no summary')
		return
	if m.group(1) == '0':
		v.section('kunit', 'no results')
		v.fail('kunit: no KTAP output (the kernel did not reach or finish '
		       'the KUnit executor)')
		return
	counts = {k: int(n) for k, n in re.findall(r'(\w+): (\d+)', m.group(2) or '')}
	passed = counts.get('passed', 0)
	failed = counts.get('failed', 0) + counts.get('crashed', 0)
	errors = counts.get('errors', 0)
	v.passed += passed
	v.section('kunit', f'{passed} passed, {failed} failed, '
		  f'{counts.get("skipped", 0)} skipped, {errors} errors')

	failed_cases = []
	try:
		with open(json_file) as f:
			failed_cases = list(failed_kunit_cases(json.load(f)))
	except (OSError, ValueError):
		pass
	for name in failed_cases:
		v.fail(f'kunit: {name}')
	for _ in range(len(failed_cases), failed):
		v.fail('kunit: a test case failed or crashed')
	if errors:
		v.fail(f'kunit: {errors} parse error(s), see kunit.py output above')
	elif proc.returncode and not failed:
		v.fail(f'kunit: kunit.py parse failed with exit status {proc.returncode}')


def failed_kunit_cases(group, prefix=''):
	name = group.get('name', '')
	if prefix or name != 'KUnit Test Group':
		prefix = f'{prefix}{name}.'
	else:
		prefix = ''
	for case in group.get('test_cases', []):
		if case.get('status') not in ('PASS', 'SKIP'):
			name = case.get('name') or '(a test that never reported)'
			yield f'{prefix}{name}: {case.get("status")}'
	for sub in group.get('sub_groups', []):
		yield from failed_kunit_cases(sub, prefix)


def parse_ftrace(v, lines):
	passed = 0
	pending = False
	for _, text in kernel_lines(lines):
		if FTRACE_PASS.search(text):
			passed += 1
			pending = False
		elif FTRACE_STARTED.search(text):
			pending = True
		elif pending and FTRACE_CONT_OK.search(text):
			passed += 1
			pending = False
	v.passed += passed
	v.section('ftrace', f'{passed} boot-time self-tests passed')


def parse_tap(v, lines):
	plan = None
	results = {}
	passed = skipped = failed = 0
	inside = ended = False
	took = None
	times = []		# (seconds, test) of the tests init timed
	for line in lines:
		if line == TAP_BEGIN:
			inside = True
			continue
		if line == TAP_END:
			ended = True
			break
		if not inside or TIMESTAMP.search(line):
			continue
		m = TAP_PLAN.match(line)
		if m:
			plan = int(m.group(1))
			continue
		m = TAP_TOOK.match(line)
		if m:
			took = int(m.group(1))
			continue
		m = TAP_RESULT.match(line)
		if not m:
			continue
		notok, num, name, directive = m.groups()
		directive = directive or ''
		results[int(num)] = name
		if took is not None:
			times.append((took, name))
			took = None
		if directive.upper().startswith('SKIP'):
			skipped += 1
		elif notok and not directive.upper().startswith('TODO'):
			failed += 1
			v.fail(f'kselftest: not ok {num} {name} {directive}'.rstrip())
		else:
			passed += 1

	if not inside:
		v.section('kselftest', 'not run')
		return
	v.passed += passed
	v.section('kselftest', f'{passed} passed, {failed} failed, {skipped} skipped'
		  f' of {plan if plan is not None else "?"} planned')
	if times:
		# Where the guest's time goes (the CI budget's question).
		slowest = ', '.join(f'{name} {t} s' for t, name in
				    sorted(times, reverse=True)[:5])
		v.section('kselftest time', f'{sum(t for t, _ in times)} s; slowest: {slowest}')
	missing = (plan or 0) - len(results)
	if plan is None:
		v.fail('kselftest: no TAP plan')
	elif missing > 0 or not ended:
		v.fail(f'kselftest: {max(missing, 0)} of {plan} tests never reported'
		       f'{"" if ended else " (no " + repr(TAP_END) + ")"}')


def read_config(fdir):
	"""The set of lines of the flavour's obj/.config."""
	try:
		with open(os.path.join(fdir, 'obj', '.config')) as f:
			return set(line.rstrip('\n') for line in f)
	except OSError:
		return set()


def report_body(lines, n):
	"""The kernel lines after console line n, up to the report's end."""
	body = []
	for _, text in kernel_lines(lines[n:n + REPORT_LINES]):
		body.append(text)
		if REPORT_END.search(text):
			break
	return body


def known_report(config, text, body):
	"""Why the failure report starting with text is expected, or None."""
	for regex, need, absent, why, in_body in KNOWN_REPORTS:
		if (regex.search(text) and all(c in config for c in need) and
		    not any(c in config for c in absent) and
		    all(any(r.search(b) for b in body) for r in in_body)):
			return why
	return None


def parse_reports(v, tree, lines, stop):
	"""Failure reports before console line stop (the hang dump, if any)."""
	config = read_config(tree)
	reports = 0
	known = 0
	open_until = 0		# the last report is open up to this line
	last = -REPORT_LINES	# the line where the last report started
	for n, text in kernel_lines(lines):
		if n > stop:
			break
		primary = SIGNATURES.search(text)
		if n <= open_until:
			if REPORT_END.search(text):
				open_until = 0
			if not primary:
				continue
		elif not primary:
			if CONSEQUENCES.search(text) and n <= last + REPORT_LINES:
				continue
			if not FOLLOWERS.search(text):
				continue
		last = n
		open_until = n + REPORT_LINES
		why = known_report(config, text, report_body(lines, n))
		if why:
			known += 1
			v.section('known', f'console.log:{n}: {text.strip()}: {why}')
			continue
		reports += 1
		v.fail(f'console.log:{n}: {text}')
	v.section('console', f'{reports} failure report(s)'
		  f'{f", {known} known (listed, not counted)" if known else ""}')


def read_boot_result(v, fdir, prefix=''):
	result = {}
	try:
		with open(os.path.join(fdir, prefix + 'boot.result')) as f:
			for line in f:
				key, _, val = line.rstrip('\n').partition('=')
				result[key] = val
	except OSError:
		v.fail('boot: no boot.result (did boot.sh run?)')
	return result


def load_symbols(fdir):
	"""Sorted (address, name) of the text symbols in obj/System.map."""
	syms = []
	try:
		with open(os.path.join(fdir, 'obj', 'System.map')) as f:
			for line in f:
				addr, kind, name = line.split()[:3]
				if kind in 'tTwW':
					syms.append((int(addr, 16), name))
	except (OSError, ValueError):
		pass
	syms.sort()
	return syms


def symbolize(syms, addr):
	lo, hi = 0, len(syms)
	while lo < hi:
		mid = (lo + hi) // 2
		if syms[mid][0] <= addr:
			lo = mid + 1
		else:
			hi = mid
	if lo == 0:
		return '?'
	base, name = syms[lo - 1]
	return f'{name}+{addr - base:#x}'


def parse_hang_dump(v, tree, lines, start):
	"""Where each CPU was, from the "info registers -a" of boot.sh's dump."""
	syms = load_symbols(tree)
	pc = hang_pc_regex()
	cpu = None
	for line in lines[start:]:
		m = re.match(r'CPU#(\d+)', line)
		if m:
			cpu = m.group(1)
		# x86 "RIP=...", riscv " pc       ...", powerpc "NIP ...",
		# aarch64 " PC=..."
		m = pc.match(line)
		if m and cpu is not None:
			addr = int(m.group(1), 16)
			v.section('hang', f'cpu{cpu} at {addr:#x} {symbolize(syms, addr)}')
			cpu = None
	v.section('hang', f'sysrq l/w/d output from console.log:{start + 1} on')


def parse_guest(v, result, lines, tap_failures):
	how = result.get('result', 'unknown')
	v.section('boot', f'{result.get("mode", "?")} mode, {how}, '
		  f'{result.get("seconds", "?")} s')

	statuses = [int(m.group(1)) for line in lines if (m := GUEST_DONE.search(line))]
	if not statuses:
		v.fail(f"guest: no 'kp: guest done' marker ({how})")
	elif statuses[-1] != 0 and not tap_failures:
		v.fail(f'guest: /init ended with status {statuses[-1]}')


# ---- ftracetest: per-case results of each flavour, side by side ------------

FTRACE_PREFIX = 'ftrace:'
FTRACE_RESULTS = 'ftracetest.results'
FTRACE_PASSING = ('PASS', 'XFAIL')


def ftrace_case_results(lines):
	"""{case: (result, reason)} from the "ftrace:CASE" TAP lines of /init.

	/init writes "ok N ftrace:CASE" (PASS), "... # XFAIL", "... # SKIP
	RESULT: reason" (UNSUPPORTED, UNTESTED, UNRESOLVED) and "not ok N
	ftrace:CASE # RESULT" (FAIL, a timeout, ...).
	"""
	cases = {}
	inside = False
	for line in lines:
		if line in (TAP_BEGIN, TAP_END):
			inside = line == TAP_BEGIN
			continue
		m = TAP_RESULT.match(line) if inside else None
		if not m or not m.group(3).startswith(FTRACE_PREFIX):
			continue
		notok, _, name, directive = m.groups()
		case = name[len(FTRACE_PREFIX):]
		directive = (directive or '').strip()
		if directive.upper().startswith('SKIP'):
			word, _, reason = directive[4:].strip().partition(':')
			cases[case] = (word.strip() or 'SKIP', reason.strip())
		elif notok and directive.startswith('FAIL'):
			cases[case] = ('FAIL', directive[4:].lstrip(': '))
		elif notok:
			cases[case] = ('NORESULT', directive)
		else:
			cases[case] = (directive.upper() or 'PASS', '')
	return cases


def flavour_pair(fdir):
	"""The baseline and ours directories of fdir's configuration:
	ours-i386 goes with baseline-i386, ours-preempt with baseline-preempt."""
	top = os.path.dirname(os.path.normpath(fdir))
	name = os.path.basename(os.path.normpath(fdir))
	is_ours = name == 'ours' or name.startswith('ours-')
	suffix = name[len('ours'):] if is_ours else name[len('baseline'):]
	return os.path.join(top, 'baseline' + suffix), os.path.join(top, 'ours' + suffix)


def read_ftrace_results(path):
	cases = {}
	try:
		with open(path) as f:
			for line in f:
				case, result, reason = (line.rstrip('\n').split('\t') +
							['', ''])[:3]
				cases[case] = (result, reason)
	except OSError:
		return None
	return cases


def parse_ftracetest(v, fdir, lines):
	"""Write FLAVOUR_DIR/ftracetest.results; compare with the other flavour.

	A case counts as a failure on its own only if it fails (the TAP line
	is "not ok", counted by parse_tap).  With the results of both flavours
	present, the table test | baseline | ours is printed; a case that fails
	on the baseline too is no failure of ours (it is listed, with the
	error, in the table), and for ours any case that passes on the
	baseline but not on ours is a failure.
	"""
	cases = ftrace_case_results(lines)
	if not cases:
		return
	with open(os.path.join(fdir, FTRACE_RESULTS), 'w') as f:
		for case, (result, reason) in cases.items():
			f.write(f'{case}\t{result}\t{reason}\n')
	counts = {}
	for result, _ in cases.values():
		counts[result] = counts.get(result, 0) + 1
	v.section('ftracetest', ', '.join(f'{n} {r}' for r, n in sorted(counts.items())))

	# The other flavour of the same configuration.
	base_dir, ours_dir = flavour_pair(fdir)
	base = read_ftrace_results(os.path.join(base_dir, FTRACE_RESULTS))
	ours = read_ftrace_results(os.path.join(ours_dir, FTRACE_RESULTS))
	if base is None or ours is None:
		print('---- ftracetest: no side-by-side table (run make check and '
		      'make check BASELINE=1) ----')
		return
	width = max(len(c) for c in list(base) + list(ours))
	print('---- ftracetest, kprobe cases: baseline vs ours ----')
	print(f'{"test":<{width}}  {"baseline":<11} {"ours":<11} note')
	for case in sorted(set(base) | set(ours), key=lambda c: (c not in ours, c)):
		b, b_why = base.get(case, ('-', 'not run'))
		o, o_why = ours.get(case, ('-', 'not run'))
		note = o_why or b_why
		if b in FTRACE_PASSING and o not in FTRACE_PASSING:
			note = f'REGRESSION: passes on baseline; {note}'.rstrip('; ')
			# A failing case counts once, as its "not ok" TAP line.
			if is_ours and o not in ('FAIL', 'NORESULT'):
				v.fail(f'ftracetest: {case}: {o} on ours, {b} on baseline')
		if o in ('FAIL', 'NORESULT') and b in ('FAIL', 'NORESULT'):
			note = f'fails on baseline too; {note}'.rstrip('; ')
			tap = re.compile(rf'kselftest: not ok \d+ {re.escape(FTRACE_PREFIX + case)}( |$)')
			v.failures = [f for f in v.failures if not tap.match(f)]
		print(f'{case:<{width}}  {b:<11} {o:<11} {note}'.rstrip())


# ---- make check-tools: each flavour's results, side by side -----------------

TOOLS_RESULTS = 'tools.results'
TOOLS_TIME = re.compile(r'^# kp-tools: time (\S+) ([0-9.]+)$')


def tools_results(lines):
	"""The cases' results (ok, SKIP, not ok) and the times, in order."""
	out = {}
	inside = False
	for line in lines:
		if line == TAP_BEGIN:
			inside = True
		elif line == TAP_END:
			break
		elif inside and not TIMESTAMP.search(line):
			m = TOOLS_TIME.match(line)
			if m:
				out[f'time {m.group(1)}'] = m.group(2) + ' s'
				continue
			m = TAP_RESULT.match(line)
			if m:
				notok, _, name, directive = m.groups()
				directive = (directive or '').upper()
				out[name] = ('not ok' if notok else
					     'skip' if directive.startswith('SKIP') else 'ok')
	return out


def read_tools_results(path):
	try:
		with open(path) as f:
			return dict(line.rstrip('\n').split('\t', 1) for line in f if '\t' in line)
	except OSError:
		return None


def parse_tools(v, fdir, lines):
	"""Write FLAVOUR_DIR/tools.results; print both flavours side by side."""
	res = tools_results(lines)
	with open(os.path.join(fdir, TOOLS_RESULTS), 'w') as f:
		for k, val in res.items():
			f.write(f'{k}\t{val}\n')
	times = [f'{k[5:]} {val}' for k, val in res.items() if k.startswith('time ')]
	if times:
		v.section('times', ', '.join(times))
	base_dir, ours_dir = flavour_pair(fdir)
	base = read_tools_results(os.path.join(base_dir, TOOLS_RESULTS))
	ours = read_tools_results(os.path.join(ours_dir, TOOLS_RESULTS))
	if base is None or ours is None:
		print('---- tools: no side-by-side table (run make check-tools and '
		      'make check-tools BASELINE=1) ----')
		return
	keys = list(ours) + [k for k in base if k not in ours]
	keys.sort(key=lambda k: k.startswith('time '))	# stable: the cases, then the times
	width = max(len(k) for k in keys)
	print('---- tools: baseline vs ours ----')
	print(f'{"case":<{width}}  {"baseline":<10} ours')
	for k in keys:
		print(f'{k:<{width}}  {base.get(k, "-"):<10} {ours.get(k, "-")}')


def main():
	args = sys.argv[1:]
	tools = bool(args) and args[0] == '--tools'
	if tools:
		args = args[1:]
	if len(args) != 1:
		sys.exit('usage: parse.py [--tools] FLAVOUR_DIR')
	fdir = args[0]
	prefix = 'tools-' if tools else ''
	console = os.path.join(fdir, prefix + 'console.log')
	v = Verdict()
	try:
		with open(console, errors='backslashreplace') as f:
			lines = f.read().replace('\r', '').split('\n')
	except OSError as e:
		lines = []
		v.fail(f'console: {e}')

	result = read_boot_result(v, fdir, prefix)
	# The build the boot ran (src/, obj/): the flavour directory itself,
	# except for a DEBUG=1 boot, whose build is the default one's.
	tree = result.get('tree') or fdir
	if not tools:
		parse_kunit(v, fdir, tree, lines)
	parse_ftrace(v, lines)
	before = len(v.failures)
	parse_tap(v, lines)
	tap_failures = len(v.failures) - before
	if tools:
		parse_tools(v, fdir, lines)
	else:
		parse_ftracetest(v, fdir, lines)
	try:
		dump = int(result.get('hang_dump_line') or len(lines))
	except ValueError:
		dump = len(lines)
	stop = dump
	for n, line in enumerate(lines, 1):
		if n < stop and DELIBERATE_PANIC.search(line):
			stop = n
			break
	parse_reports(v, tree, lines, stop)
	parse_guest(v, result, lines, tap_failures)
	if dump < len(lines):
		parse_hang_dump(v, tree, lines, dump)

	print(f'---- summary: {prefix}{os.path.basename(os.path.normpath(fdir))} ----')
	for line in v.lines:
		print(line)
	if v.failures:
		print('failures:')
		for what in v.failures:
			print(f'  {what}')
	print(f'{v.passed} passed, {len(v.failures)} failed')
	sys.exit(1 if v.failures else 0)


if __name__ == '__main__':
	main()
