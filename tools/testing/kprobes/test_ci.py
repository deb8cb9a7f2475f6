#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# test_ci.py - .ci/run's schedule, with a stub "make" first in PATH: every
# configuration runs and is counted once, the filler's matrix, series and
# lint reach their turns, a failure anywhere fails the run and is recapped,
# CI_BASELINE=1, CI_SERIAL=1 and CI_ALL=1 run what they say.  No kernel is built;
# a run takes a few seconds.  Run by "make harness-check" (test_parse.py
# loads these cases).

import os
import re
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
CI_RUN = os.path.join(REPO, '.ci', 'run')

# The stub: records its arguments, prints the summary line the real
# targets end with, and fails the targets named in $STUB_FAIL (a regex
# over its arguments).
STUB = r'''#!/bin/bash
echo "$*" >> "$STUB_CALLS"
t=
for a in "$@"; do
	case $a in
	deps|initramfs|build|check|matrix|series|lint|harness-check) t=$a ;;
	esac
done
if [ -n "${STUB_FAIL:-}" ] && [[ "$*" =~ $STUB_FAIL ]]; then
	echo "2 passed, 1 failed"
	exit 1
fi
case $t in
check|matrix|series|lint|harness-check) echo "3 passed, 0 failed" ;;
esac
exit 0
'''


def booted_archs(ci_all=False):
	"""The arch files that say BOOT=1, x86_64 aside, as .ci/run reads them:
	without those that say CI_BOOT=0 unless ci_all (make check-all)."""
	out = subprocess.run(
		['bash', '-c', 'for f in tools/testing/kprobes/arch/*.sh; do '
		 'env -i bash -c \'. "$1"; [ "${BOOT:-}" = 1 ] && '
		 '{ [ "$2" = 1 ] || [ "${CI_BOOT:-1}" != 0 ]; } && basename "$1" .sh\' x "$f" "$0"; '
		 'done', '1' if ci_all else '0'],
		cwd=REPO, capture_output=True, text=True, check=True).stdout
	return sorted(a for a in out.split() if a != 'x86_64')


class CiRunTest(unittest.TestCase):
	def run_ci(self, **env):
		with tempfile.TemporaryDirectory() as tmp:
			stub = os.path.join(tmp, 'make')
			with open(stub, 'w') as f:
				f.write(STUB)
			os.chmod(stub, 0o755)
			calls = os.path.join(tmp, 'calls')
			e = dict(os.environ, PATH=tmp + ':' + os.environ['PATH'],
				 STUB_CALLS=calls, **env)
			p = subprocess.run([CI_RUN], cwd=REPO, env=e, capture_output=True,
					   timeout=300)
			with open(calls) as f:
				made = f.read().splitlines()
		out = p.stdout.decode(errors='replace')
		self.assertNotIn('\0', out, 'a hole in a log')
		return p.returncode, out, made

	def configs(self, out):
		return re.findall(r'^==== \.ci/run: (\S+) configuration: (\d+) passed, (\d+) failed',
				  out, re.M)

	def check_all_pass(self, archs, **env):
		rc, out, made = self.run_ci(**env)
		self.assertEqual(rc, 0)
		names = [c[0] for c in self.configs(out)]
		# The booted architectures come in .ci/run's order (the
		# shorter BOOT_TIMEOUT first), each once.
		n = len(archs)
		self.assertEqual(names[0], 'default')
		self.assertEqual(sorted(names[1:1 + n]), archs)
		self.assertEqual(names[1 + n:], ['debug', 'matrix', 'series', 'lint', 'harness'])
		# Every booted configuration linted once, in the same order.
		lints = [m for m in made if m.split()[0] == 'lint']
		self.assertEqual(lints, ['lint'] + ['lint ARCH=' + a for a in names[1:1 + n]])
		self.assertEqual(sum(m.split()[0] == 'series' for m in made), 1)
		total = sum(int(c[1]) for c in self.configs(out))
		self.assertTrue(out.rstrip().endswith(f'{total} passed, 0 failed'))
		return made

	def test_all_pass(self):
		archs = booted_archs()
		made = self.check_all_pass(archs)
		# CI boots no architecture that says CI_BOOT=0.
		for a in set(booted_archs(ci_all=True)) - set(archs):
			self.assertFalse([m for m in made if f'ARCH={a}' in m.split()], a)

	def test_check_all(self):
		archs = booted_archs(ci_all=True)
		self.assertGreater(len(archs), len(booted_archs()))
		self.check_all_pass(archs, CI_ALL='1')

	def test_a_lint_fails(self):
		arch = booted_archs()[-1]
		rc, out, _ = self.run_ci(STUB_FAIL=f'^lint ARCH={arch}$')
		self.assertEqual(rc, 1)
		self.assertIn('recap of the lint configuration', out)
		self.assertTrue(out.rstrip().endswith(' 1 failed'))

	def test_a_boot_fails(self):
		arch = booted_archs()[0]
		rc, out, _ = self.run_ci(STUB_FAIL=f'^check ARCH={arch}$')
		self.assertEqual(rc, 1)
		self.assertIn(f'==== .ci/run: {arch} configuration: 2 passed, 1 failed', out)

	def test_baseline(self):
		rc, out, made = self.run_ci(CI_BASELINE='1')
		self.assertEqual(rc, 0)
		names = [c[0] for c in self.configs(out)]
		self.assertNotIn('series', names)
		self.assertNotIn('lint', names)
		self.assertTrue(all('BASELINE=1' in m for m in made
				    if m.split()[0] in ('check', 'initramfs')))

	def test_serial(self):
		rc, out, made = self.run_ci(CI_SERIAL='1')
		self.assertEqual(rc, 0)
		names = [c[0] for c in self.configs(out)]
		self.assertEqual(names[-4:], ['matrix', 'series', 'lint', 'harness'])
		self.assertEqual(sum(m.split()[0] == 'lint' for m in made),
				 1 + len(booted_archs()))


if __name__ == '__main__':
	unittest.main(verbosity=2)
