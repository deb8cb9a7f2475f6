# SPDX-License-Identifier: GPL-2.0
#
# test_parse.py - tests of the architecture files' reader (kparch.py and
# lib.sh's) and of parse.py's console verdicts, without a kernel:
#
#	cd tools/testing/kprobes && python3 -m unittest
#
# testdata/<arch>-known.log holds console reports that arch's kernel is
# known to give (listed, not counted), testdata/<arch>-failure.log real
# failure reports, testdata/<arch>.config the .config lines that decide.

import importlib.util
import os
import shutil
import subprocess
import tempfile
import unittest

import kparch

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'testdata')
BOOTED = ('x86_64', 'i386', 'riscv64', 'ppc64le')


def load_parse():
	spec = importlib.util.spec_from_file_location('parse', os.path.join(HERE, 'parse.py'))
	mod = importlib.util.module_from_spec(spec)
	spec.loader.exec_module(mod)
	return mod


parse = load_parse()


class ArchFileTest(unittest.TestCase):
	def write(self, text):
		fd, path = tempfile.mkstemp(suffix='.sh')
		with os.fdopen(fd, 'w') as f:
			f.write(text)
		self.addCleanup(os.remove, path)
		return path

	def test_unknown_key(self):
		path = self.write('# x\nKARCH=arm64\nQMEU=qemu-system-aarch64\n')
		with self.assertRaisesRegex(kparch.ArchFileError, 'unknown key QMEU'):
			kparch.read_file(path, set(kparch.defaults()))

	def test_gate_keys(self):
		path = self.write('GATE_DEFCONFIG=defconfig\nGATE_OPTIONS="a b"\n')
		self.assertEqual(kparch.read_file(path, set(kparch.defaults()))['GATE_OPTIONS'], 'a b')
		path = self.write('GATE_ANYTHING=x\n')
		with self.assertRaisesRegex(kparch.ArchFileError, 'unknown key GATE_ANYTHING'):
			kparch.read_file(path, set(kparch.defaults()))

	def test_multiline_and_quotes(self):
		path = self.write("PACKAGES='\na:b\nc:/d\n'\nHELP=\"it's\"\n"
				  "HANG_PC='\\s*pc\\s+'\nCONSOLE_KNOWN=\"\nreport: x$\nwhy: y\n\"\n")
		v = kparch.read_file(path, set(kparch.defaults()))
		self.assertEqual(kparch.lines(v['PACKAGES']), ['a:b', 'c:/d'])
		self.assertEqual(v['HELP'], "it's")
		self.assertEqual(v['HANG_PC'], r'\s*pc\s+')
		self.assertEqual(kparch.known_reports(v['CONSOLE_KNOWN'])[0][0].pattern, 'x$')

	def test_no_code(self):
		for text in ('KARCH=$(uname -m)\n', 'KARCH="$HOME"\n', 'KARCH=a; rm x\n',
			     'echo hi\n', 'KARCH=(a b)\n', "KARCH='unterminated\n"):
			path = self.write(text)
			with self.assertRaises(kparch.ArchFileError, msg=text):
				kparch.read_file(path, set(kparch.defaults()))

	def test_every_file_parses(self):
		names = kparch.names()
		for name in BOOTED:
			self.assertIn(name, names)
		for name, conf in kparch.load_all().items():
			kparch.known_reports(conf['CONSOLE_KNOWN'], name)
			if conf['BOOT'] == '1':
				self.assertTrue(conf['QEMU'], f'{name}: BOOT=1 without QEMU')

	def test_bash_reads_the_same(self):
		script = ('. ./lib.sh; for k in "${!KP_ARCHDATA[@]}"; do '
			  'printf "%s\\0%s\\0" "$k" "${KP_ARCHDATA[$k]}"; done')
		env = {k: v for k, v in os.environ.items() if k not in ('ARCH', 'BASELINE', 'DEBUG', 'PROD', 'PREEMPT')}
		out = subprocess.run(['bash', '-c', script], cwd=HERE, env=env,
				     capture_output=True, text=True, check=True).stdout
		items = out.split('\0')[:-1]
		bash = dict(zip(items[::2], items[1::2]))
		py = {f'{n}.{k}': v for n, c in kparch.load_all().items()
		      for k, v in c.items()}
		self.assertEqual(bash, py)

	def test_llvm_key(self):
		"""LLVM builds the booted kernel with clang: every kbuild make
		gets LLVM=, the compiler run through ccache is clang."""
		conf = kparch.load('arm64-bti')
		self.assertEqual(conf['VARIANT_OF'], 'arm64')
		self.assertEqual(conf['LLVM'], '-19')
		self.assertEqual(conf['QEMU'], kparch.load('arm64')['QEMU'])
		script = '. ./lib.sh; printf "%s\\n" "$KP_CC" "${KP_KBUILD_ARCH[*]}"'
		env = {k: v for k, v in os.environ.items() if k not in ('BASELINE', 'DEBUG', 'PROD', 'PREEMPT')}
		for arch, cc, llvm in (('arm64-bti', 'clang-19', True),
				       ('arm64', 'aarch64-linux-gnu-gcc', False)):
			env['ARCH'] = arch
			out = subprocess.run(['bash', '-c', script], cwd=HERE, env=env,
					     capture_output=True, text=True, check=True).stdout
			got_cc, kbuild = out.split('\n')[:2]
			self.assertEqual(got_cc, cc, arch)
			self.assertEqual('LLVM=-19' in kbuild.split(), llvm, arch)


class ConsoleTest(unittest.TestCase):
	def verdict(self, arch, log):
		tree = tempfile.mkdtemp()
		self.addCleanup(shutil.rmtree, tree)
		os.mkdir(os.path.join(tree, 'obj'))
		shutil.copy(os.path.join(DATA, arch + '.config'), os.path.join(tree, 'obj', '.config'))
		with open(os.path.join(DATA, log)) as f:
			lines = f.read().split('\n')
		v = parse.Verdict()
		parse.parse_reports(v, tree, lines, len(lines))
		known = [l for l in v.lines if l.startswith('known')]
		return [f for f in v.failures if f.startswith('console.log:')], known

	def test_known(self):
		expect = {'x86_64': 2, 'i386': 1, 'riscv64': 1, 'ppc64le': 1}
		for arch in BOOTED:
			failures, known = self.verdict(arch, f'{arch}-known.log')
			self.assertEqual(failures, [], arch)
			self.assertEqual(len(known), expect[arch], (arch, known))

	def test_failure(self):
		expect = {'x86_64': 2, 'i386': 1, 'riscv64': 1, 'ppc64le': 1}
		for arch in BOOTED:
			failures, _ = self.verdict(arch, f'{arch}-failure.log')
			self.assertEqual(len(failures), expect[arch], (arch, failures))

	def test_known_needs_its_config(self):
		# riscv64's known report on another arch's kernel is a failure.
		failures, known = self.verdict('x86_64', 'riscv64-known.log')
		self.assertEqual((len(failures), known), (1, []))

	def test_hang_pc(self):
		v = parse.Verdict()
		lines = ['CPU#0', 'RIP=ffffffff81000000 RFL=1', 'CPU#1', ' pc       ffffffff80001234',
			 'CPU#2', 'NIP c000000000001234   LR c0000000000012a8',
			 'CPU#3', ' PC=ffff800080012345 X00=0000000000000000 X01=0000000000000001']
		parse.parse_hang_dump(v, '/nonexistent', lines, 0)
		self.assertEqual(sum(l.startswith('hang') and 'cpu' in l for l in v.lines), 4)

	def test_tap_times(self):
		# init's "took" line belongs to the result that follows it; a
		# result without one has no time, and a kernel line between
		# them changes nothing.
		v = parse.Verdict()
		lines = [parse.TAP_BEGIN, '1..3', '# kp: took 3 s', 'ok 1 module:a',
			 'ok 2 kprobes:b.sh', '# kp: took 40 s',
			 '[   12.000000] kernel line', 'not ok 3 ftrace:c.tc # exit=1',
			 parse.TAP_END]
		parse.parse_tap(v, lines)
		self.assertEqual(v.passed, 2)
		self.assertIn('kselftest time 43 s; slowest: ftrace:c.tc 40 s, module:a 3 s',
			      v.lines)

	def test_tools_side_by_side(self):
		# make check-tools: each flavour's results and times go to its
		# tools.results; with both, one table; a failed case is counted.
		top = tempfile.mkdtemp()
		self.addCleanup(shutil.rmtree, top)
		runs = {'baseline-tools': ('ok', '3.5'), 'ours-tools': ('not ok', '1.25')}
		for name, (res, t) in runs.items():
			os.mkdir(os.path.join(top, name))
			lines = [parse.TAP_BEGIN, '1..2', '# kp-tools: time perf-50-add ' + t,
				 '# kp: took 2 s', 'ok 1 perf-50-probes',
				 '[   12.000000] kernel line', f'{res} 2 bpftrace-kstack',
				 parse.TAP_END]
			v = parse.Verdict()
			parse.parse_tap(v, lines)
			parse.parse_tools(v, os.path.join(top, name), lines)
			self.assertEqual(len(v.failures), 0 if res == 'ok' else 1)
			self.assertIn(f'times      perf-50-add {t} s', v.lines)
		got = parse.read_tools_results(os.path.join(top, 'ours-tools', parse.TOOLS_RESULTS))
		self.assertEqual(got, {'time perf-50-add': '1.25 s', 'perf-50-probes': 'ok',
				       'bpftrace-kstack': 'not ok'})


# .ci/run's schedule (test_ci.py), in the same report.
from test_ci import CiRunTest  # noqa: E402,F401
# make hitcount's classifier and table (test_hitcount.py).
from test_hitcount import (  # noqa: E402,F401
	BenchReportTest, ClassifyTest, ElfAndObjectsTest, RealHitTest, TableTest, TraceTest)


if __name__ == '__main__':
	# "make harness-check": unittest's report, then the line .ci/run counts.
	result = unittest.main(exit=False, verbosity=2).result
	bad = len(result.failures) + len(result.errors)
	print(f'{result.testsRun - bad} passed, {bad} failed')
	raise SystemExit(1 if bad else 0)
