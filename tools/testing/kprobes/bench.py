#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# bench.py BUILD_DIR [SUFFIX NAME] - the report of make bench (see bench.sh).
#
# Reads BUILD_DIR/{baseline,ours}SUFFIX/bench-console.log (the "kpbench,
# METRIC,VALUE" lines of the benchmark module) and bench-boot.result
# (boot.sh's result, for the wall time of the boot), prints the table
#
#	metric | baseline | ours | ratio
#
# (ratio = ours / baseline, lower is better for every metric) and writes
# BUILD_DIR/bench-NAME.csv and BUILD_DIR/bench-NAME-scaling.svg (the int3
# hit cost against the number of probes registered); without NAME,
# bench.csv and bench-scaling.svg.  SUFFIX names the flavour directories
# of a configuration ("-prod"), NAME the configuration ("prod").  Exits
# non-zero only when a flavour produced no numbers.
#
# Then the split of each hit into the base's trap and kprobes' own
# instructions, from make hitcount's BUILD_DIR/{baseline,ours}SUFFIX/
# hitcount.csv (bench.sh runs it after each boot; kphit.py): the table
# "path | baseline trap | baseline own | ours trap | ours own | own ratio",
# also in BUILD_DIR/hitcountSUFFIX.csv; a flavour whose hitcount.csv is
# older than its vmlinux is called stale.

import os
import re
import sys

import kphit

FLAVOURS = ('baseline', 'ours')
LINE = re.compile(r'kpbench,([^,\s]+),(.*?)\s*$')
CLOCK = re.compile(r'clocksource: Switched to clocksource (\S+)')

# Table order and a short description; metrics not listed come last.
METRICS = [
	('hit_k_ns', 'int3 probe with post_handler, ns/hit'),
	('hit_b_ns', 'boosted probe, ns/hit'),
	('hit_o_ns', 'optimized probe, ns/hit'),
	('hit_f_ns', 'probe on ftrace, ns/hit'),
	('hit_r_ns', 'kretprobe, ns/hit'),
	('hit_ro_ns', 'kretprobe, optimized entry, ns/hit'),
	('hit_kr_ns', 'kprobe + kretprobe, ns/hit'),
	('mass1000_reg_us', 'register_kprobes(1,000), us'),
	('mass1000_unreg_us', 'unregister_kprobes(1,000), us'),
	('mass4096_reg_us', 'register_kprobes(4,096), us'),
	('mass4096_unreg_us', 'unregister_kprobes(4,096), us'),
	('mass10000_reg_us', 'register_kprobes(10,000), us'),
	('mass10000_unreg_us', 'unregister_kprobes(10,000), us'),
	('single1000_reg_us', '1,000 x register_kprobe, us'),
	('single1000_unreg_us', '1,000 x unregister_kprobe, us'),
	('perf200_open_us', '200 kprobe perf events opened one by one, us'),
	('perf200_close_us', '... and closed one by one, us'),
	('mass1000_slab_kB_per1k', 'slab kB per 1,000 (batch of 1,000)'),
	('mass1000_percpu_kB_per1k', 'percpu kB per 1,000 (batch of 1,000)'),
	('mass1000_vmalloc_kB_per1k', 'vmalloc kB per 1,000 (batch of 1,000)'),
	('mass10000_slab_kB_per1k', 'slab kB per 1,000 (batch of 10,000)'),
	('mass10000_percpu_kB_per1k', 'percpu kB per 1,000 (batch of 10,000)'),
	('mass10000_vmalloc_kB_per1k', 'vmalloc kB per 1,000 (batch of 10,000)'),
	('single1000_slab_kB_per1k', 'slab kB per 1,000 (single calls)'),
	('single1000_percpu_kB_per1k', 'percpu kB per 1,000 (single calls)'),
	('single1000_vmalloc_kB_per1k', 'vmalloc kB per 1,000 (single calls)'),
	('scale1_k_ns', 'int3 hit, 1 probe registered, ns'),
	('scale100_k_ns', 'int3 hit, 100 probes registered, ns'),
	('scale1000_k_ns', 'int3 hit, 1,000 probes registered, ns'),
	('scale10000_k_ns', 'int3 hit, 10,000 probes registered, ns'),
	('total_ms', 'benchmark module run, guest ms'),
	('boot_wall_s', 'bench boot, host wall s'),
]
SCALE = re.compile(r'scale(\d+)_k_ns$')


def read_flavour(bdir, flavour, suffix=''):
	"""(numbers {metric: float}, notes [str]) of one flavour's bench boot."""
	fdir = os.path.join(bdir, flavour + suffix)
	nums, notes = {}, []
	try:
		with open(os.path.join(fdir, 'bench-console.log'),
			  errors='backslashreplace') as f:
			for line in f:
				m = CLOCK.search(line)
				if m and not m.group(1).startswith('tsc'):
					notes.append(f'clocksource {m.group(1)}: '
						     'the ns numbers are coarse')
				m = LINE.search(line.replace('\r', ''))
				if not m:
					continue
				metric, value = m.groups()
				try:
					nums[metric] = float(value)
				except ValueError:
					notes.append(f'{metric}: {value}')
	except OSError as e:
		notes.append(f'no console: {e}')
	try:
		with open(os.path.join(fdir, 'bench-boot.result')) as f:
			for line in f:
				key, _, val = line.strip().partition('=')
				if key == 'seconds' and val:
					nums['boot_wall_s'] = float(val)
				if key == 'result' and not val.startswith('guest status 0'):
					notes.append(f'boot: {val}')
	except OSError:
		notes.append('no bench-boot.result')
	return nums, notes


def fmt(v):
	if v is None:
		return '-'
	return f'{v:.1f}' if v != int(v) else f'{int(v)}'


def ratio(b, o):
	if b is None or o is None or b == 0:
		return None
	return o / b


def svg_scaling(path, data):
	"""Hit cost against probes registered, log x axis, one line per flavour."""
	w, h, left, right, top, bottom = 560, 340, 70, 20, 40, 50
	series = {}
	for fl in FLAVOURS:
		pts = sorted((int(m.group(1)), v) for k, v in data[fl].items()
			     if (m := SCALE.match(k)))
		if pts:
			series[fl] = pts
	xs = [x for pts in series.values() for x, _ in pts]
	ys = [y for pts in series.values() for _, y in pts]
	if not xs:
		return False
	import math
	xmin, xmax = math.log10(min(xs)), math.log10(max(xs))
	if xmax == xmin:
		xmax = xmin + 1
	ymax = max(ys) * 1.1 or 1
	ymin = min(0, min(ys))

	def px(x):
		return left + (math.log10(x) - xmin) / (xmax - xmin) * (w - left - right)

	def py(y):
		return h - bottom - (y - ymin) / (ymax - ymin) * (h - top - bottom)

	out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
	       f'font-family="sans-serif" font-size="12">',
	       f'<rect width="{w}" height="{h}" fill="white"/>',
	       f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">'
	       'kprobes: int3 hit cost vs probes registered (QEMU -icount, guest ns)</text>',
	       f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
	       f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="black"/>']
	for x in sorted(set(xs)):
		out.append(f'<text x="{px(x):.1f}" y="{h - bottom + 18}" text-anchor="middle">{x}</text>')
	for i in range(5):
		y = ymin + (ymax - ymin) * i / 4
		out.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:.0f}</text>')
		out.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{w - right}" y2="{py(y):.1f}" '
			   'stroke="#ddd"/>')
	out.append(f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">probes registered (log)</text>')
	out.append(f'<text x="16" y="{h / 2}" transform="rotate(-90 16 {h / 2})" '
		   'text-anchor="middle">ns per hit</text>')
	colours = {'baseline': '#888888', 'ours': '#1f5fbf'}
	for n, (fl, pts) in enumerate(series.items()):
		c = colours[fl]
		line = ' '.join(f'{px(x):.1f},{py(y):.1f}' for x, y in pts)
		out.append(f'<polyline points="{line}" fill="none" stroke="{c}" stroke-width="2"/>')
		for x, y in pts:
			out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>')
		out.append(f'<text x="{w - right - 90}" y="{top + 16 + 16 * n}" fill="{c}">{fl}</text>')
	out.append('</svg>')
	with open(path, 'w') as f:
		f.write('\n'.join(out) + '\n')
	return True


def hitcount(bdir, suffix):
	"""Print make hitcount's table of both flavours, or how to get it."""
	print()
	for fl in FLAVOURS:
		fdir = os.path.join(bdir, fl + suffix)
		try:
			if os.path.getmtime(os.path.join(fdir, 'hitcount.csv')) < \
			   os.path.getmtime(os.path.join(fdir, 'obj', 'vmlinux')):
				print(f'{fl}: hitcount.csv is older than its vmlinux (stale)')
		except OSError:
			pass
	if not kphit.combined(bdir, suffix):
		print('kprobes\' own instructions per hit, apart from the trap: '
		      'make hitcount PROD=1 [BASELINE=1]')


def main():
	if len(sys.argv) not in (2, 4):
		sys.exit('usage: bench.py BUILD_DIR [SUFFIX NAME]')
	bdir = sys.argv[1]
	suffix, name = (sys.argv[2], sys.argv[3]) if len(sys.argv) == 4 else ('', '')
	stem = f'bench-{name}' if name else 'bench'
	data, notes = {}, {}
	for fl in FLAVOURS:
		data[fl], notes[fl] = read_flavour(bdir, fl, suffix)
	if name:
		print(f'configuration: {name} ({" ".join(fl + suffix for fl in FLAVOURS)})')

	names = [m for m, _ in METRICS]
	extra = sorted({k for fl in FLAVOURS for k in data[fl]} - set(names) - {'done'})
	rows = []
	for metric in names + extra:
		b, o = data['baseline'].get(metric), data['ours'].get(metric)
		if b is None and o is None:
			continue
		rows.append((metric, b, o, ratio(b, o)))

	width = max([len(r[0]) for r in rows] + [6])
	print(f'{"metric":<{width}} | {"baseline":>10} | {"ours":>10} | {"ratio":>6}')
	print(f'{"-" * width}-|-{"-" * 10}-|-{"-" * 10}-|-{"-" * 6}')
	for metric, b, o, r in rows:
		rs = f'{r:.2f}' if r is not None else '-'
		print(f'{metric:<{width}} | {fmt(b):>10} | {fmt(o):>10} | {rs:>6}')
	print('ratio = ours / baseline: below 1 is better for every metric')

	for fl in FLAVOURS:
		for n in notes[fl]:
			print(f'{fl}: {n}')

	csv = os.path.join(bdir, f'{stem}.csv')
	with open(csv, 'w') as f:
		f.write('metric,baseline,ours,ratio\n')
		for metric, b, o, r in rows:
			f.write(f'{metric},{fmt(b) if b is not None else ""},'
				f'{fmt(o) if o is not None else ""},'
				f'{f"{r:.3f}" if r is not None else ""}\n')
	print(f'wrote {csv}')
	svg = os.path.join(bdir, f'{stem}-scaling.svg')
	if svg_scaling(svg, data):
		print(f'wrote {svg}')

	hitcount(bdir, suffix)

	# Only the flavours this run booted (BENCH_FLAVOURS) must have numbers.
	ran = os.environ.get('BENCH_FLAVOURS') or ' '.join(FLAVOURS)
	missing = [fl for fl in FLAVOURS if fl in ran.split()
		   and not any(k.startswith('hit_') for k in data[fl])]
	if missing:
		print(f'no numbers from: {" ".join(missing)}')
		sys.exit(1)


if __name__ == '__main__':
	main()
