#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# kphit.py - make hitcount's analysis: where the instructions of a probe
# hit go, split into the base's trap, kprobes' own work, the user's
# handler and the probed function itself.
#
#	kphit.py split FLAVOUR_DIR REPO	  the traces of hitcount.py ->
#					  FLAVOUR_DIR/hitcount.{txt,csv}
#	kphit.py table BUILD_DIR SUFFIX	  both flavours' hitcount.csv ->
#					  the table, BUILD_DIR/hitcountSUFFIX.csv
#
# hitcount.py (gdb) writes FLAVOUR_DIR/hitcount-trace.txt: for each hit
# the PC, stack pointer and return-address register (x86: the word at the
# stack pointer) of every instruction stepped, from the probed function's
# first instruction until it returned to its caller, and the bytes at
# each address outside the kernel's and the module's text.  This file
# classifies every one of those instructions (classify()):
#
#   own      inside the flavour's kprobes: from the moment control enters
#	     one of its functions until that call returns (or, entered by
#	     a jump or a return, until it is back in other code at the
#	     stack depth it entered at), base helpers it calls included.
#	     Its functions are the symbols of its objects in the build
#	     (kprobes_objects(): ours, the overlay's .c and .S files under
#	     kernel/kprobes/ and arch/<arch>/ but tests; upstream, the
#	     objects of the files the series removes, lib.sh's KP_REMOVED,
#	     and rethook's with CONFIG_KRETPROBE_ON_RETHOOK), never a list
#	     of names.  Code outside any text (instruction slots, detours)
#	     is kprobes' too, unless it is a copy of a base function (its
#	     first bytes are that function's: the base's ftrace trampolines)
#	     or the probed function called it (an fentry call: ftrace's).
#   handler  the bench module's handlers (HANDLERS), wherever called from.
#   target   the probed function's own instructions (the unprobed twin
#	     runs them too: the bench subtracts them).
#   trap     the base's: from the entry of one of its exception vectors
#	     (the arch file's HITCOUNT_VECTORS: symbols, or addresses where
#	     the entry has none) until the exception returns,
#	     the kprobes code it calls apart; its ftrace trampoline and ops
#	     dispatch; any other base code outside kprobes' calls.

import bisect
import collections
import glob
import os
import struct
import sys

CLASSES = ('trap', 'own', 'handler', 'target')
# The bench's hit paths (kpbench_main.c's kpb_hit_costs()), their probed
# functions and handlers.
PATHS = (('k', 'kpb_t_k'), ('b', 'kpb_t_b'), ('o', 'kpb_t_o'),
	 ('f', 'kpb_ftrace_target'), ('r', 'kpb_t_r'), ('ro', 'kpb_t_ro'),
	 ('kr', 'kpb_t_kr'))
# powerpc's o and ro probe a kernel function instead (a detour in the
# kernel text cannot reach module text): each path calls it from a module
# function of its own, where its trace starts.
KERNEL_TEXT_PATHS = {'o': 'kpb_t_ko', 'ro': 'kpb_t_kro'}
KERNEL_TARGET = 'memchr_inv'
HANDLERS = ('kpb_pre', 'kpb_post', 'kpb_ret')
MODULE = 'kpbench.ko'
# Bytes compared to find the origin of code outside the text.
COPY_BYTES = 16

SHF_EXECINSTR = 0x4
SHT_SYMTAB = 2
STT_NOTYPE, STT_FUNC = 0, 2
EM_ARM = 40
EM_PPC64 = 21


# ---- ELF ---------------------------------------------------------------

class Elf:
	"""Sections and symbols of an ELF file (32 or 64 bits, either order)."""

	def __init__(self, path):
		with open(path, 'rb') as f:
			self.data = d = f.read()
		if d[:4] != b'\x7fELF':
			raise ValueError(f'{path}: not ELF')
		self.is64 = d[4] == 2
		self.order = e = '<' if d[5] == 1 else '>'
		self.machine, = struct.unpack_from(e + 'H', d, 0x12)
		if self.is64:
			shoff, = struct.unpack_from(e + 'Q', d, 0x28)
			shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', d, 0x3a)
			fmt = e + 'IIQQQQII'
		else:
			shoff, = struct.unpack_from(e + 'I', d, 0x20)
			shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', d, 0x2e)
			fmt = e + 'IIIIIIII'
		self.shoff, self.shentsize = shoff, shentsize
		self.sections = []
		for i in range(shnum):
			name, typ, flags, addr, off, size, link, info = \
				struct.unpack_from(fmt, d, shoff + i * shentsize)
			self.sections.append({'name': name, 'type': typ, 'flags': flags,
					      'addr': addr, 'offset': off, 'size': size,
					      'link': link, 'info': info})
		strs = self.sections[shstrndx]
		for s in self.sections:
			s['name'] = self._str(strs['offset'], s['name'])

	def _str(self, base, off):
		end = self.data.index(b'\0', base + off)
		return self.data[base + off:end].decode('latin-1')

	def loaded_at(self, i, header):
		"""Section i's sh_addr in header, the bytes of its section
		header in a module loader's copy, or None where another field
		differs (another module): the loader changes sh_addr, and
		sh_entsize (the last field, where it keeps the section's
		offset in the module's layout), only."""
		n = self.shentsize
		mine = self.data[self.shoff + i * n:self.shoff + (i + 1) * n]
		lo, w = (16, 8) if self.is64 else (12, 4)
		if len(header) != n or header[:lo] != mine[:lo] or \
		   header[lo + w:n - w] != mine[lo + w:n - w]:
			return None
		return int.from_bytes(header[lo:lo + w],
				      'little' if self.order == '<' else 'big')

	def section_index(self, name):
		for i, s in enumerate(self.sections):
			if s['name'] == name:
				return i
		raise KeyError(name)

	def symbols(self):
		"""[(name, value, size, type, shndx)] of the symbol table.
		An ARM function's value is its address: bit 0 of it says the
		function is Thumb code (the ARM ELF ABI), which a Thumb-2
		kernel's and its modules' functions all are."""
		out = []
		ent = 24 if self.is64 else 16
		for s in self.sections:
			if s['type'] != SHT_SYMTAB:
				continue
			strtab = self.sections[s['link']]['offset']
			for i in range(1, s['size'] // ent):
				o = s['offset'] + i * ent
				if self.is64:
					name, info, _, shndx, value, size = \
						struct.unpack_from(self.order + 'IBBHQQ', self.data, o)
				else:
					name, value, size, info, _, shndx = \
						struct.unpack_from(self.order + 'IIIBBH', self.data, o)
				if self.machine == EM_ARM and info & 0xf == STT_FUNC:
					value &= ~1
				out.append((self._str(strtab, name), value, size, info & 0xf, shndx))
		return out

	def local_entry(self, name):
		"""How many bytes into function name its local entry point
		is: under 64-bit powerpc's ELFv2 ABI a call from code that
		shares the callee's TOC (all of the kernel's own calls) skips
		the global entry's TOC setup, by the amount st_other's bits
		5 - 7 encode (0: none; 1 << n bytes for n of 2 to 6).  0 on
		other machines or where name is no symbol."""
		if self.machine != EM_PPC64 or not self.is64:
			return 0
		want = name.encode() + b'\0'
		for s in self.sections:
			if s['type'] != SHT_SYMTAB:
				continue
			strtab = self.sections[s['link']]['offset']
			for o in range(s['offset'] + 24, s['offset'] + s['size'], 24):
				n, _, other = struct.unpack_from(self.order + 'IBB', self.data, o)
				if self.data.startswith(want, strtab + n):
					v = other >> 5
					return 1 << v if 2 <= v <= 6 else 0
		return 0

	def code_symbols(self):
		"""[(name, value, size)] of the functions and labels in code."""
		out = []
		for name, value, size, typ, shndx in self.symbols():
			if typ not in (STT_NOTYPE, STT_FUNC) or not name or \
			   name.startswith(('$', '.L')) or not 0 < shndx < len(self.sections):
				continue
			if self.sections[shndx]['flags'] & SHF_EXECINSTR:
				out.append((name, value, size))
		return out

	def text_ranges(self):
		return [(s['addr'], s['addr'] + s['size']) for s in self.sections
			if s['flags'] & SHF_EXECINSTR and s['addr'] and s['type'] == 1]

	def read(self, addr, n):
		"""n bytes at a linked address, or None."""
		for s in self.sections:
			if s['type'] == 1 and s['addr'] <= addr and addr + n <= s['addr'] + s['size']:
				o = s['offset'] + addr - s['addr']
				return self.data[o:o + n]
		return None


# ---- which code is whose -----------------------------------------------

def kprobes_objects(obj, baseline, removed, repo_files):
	"""The flavour's kprobes objects under obj (paths relative to it).

	Ours: the objects of the repository's .c and .S files under
	kernel/kprobes/ and arch/ (tests and KUnit suites left out).
	Upstream: the objects of the files and directories the series
	removes (removed), and rethook's where kretprobes use it."""
	def obj_of(src):
		base, ext = os.path.splitext(src)
		return base + '.o' if ext in ('.c', '.S') else None

	objs = set()
	if baseline:
		for r in removed:
			if os.path.isdir(os.path.join(obj, r)):
				objs.update(os.path.relpath(p, obj) for p in
					    glob.glob(os.path.join(obj, r, '**', '*.o'), recursive=True)
					    if not p.endswith(('built-in.o', '.mod.o')))
			elif obj_of(r):
				objs.add(obj_of(r))
		try:
			with open(os.path.join(obj, '.config')) as f:
				rethook = 'CONFIG_KRETPROBE_ON_RETHOOK=y\n' in f.read()
		except OSError:
			rethook = False
		if rethook:
			objs.update(os.path.relpath(p, obj) for p in
				    glob.glob(os.path.join(obj, 'kernel', 'trace', 'rethook.o')) +
				    glob.glob(os.path.join(obj, 'arch', '*', 'kernel', 'rethook*.o')))
	else:
		for src in repo_files:
			o = obj_of(src)
			if not o or not src.startswith(('kernel/kprobes/', 'arch/')) or \
			   '/tests/' in src or 'kunit' in os.path.basename(src):
				continue
			objs.add(o)
	return sorted(o for o in objs if os.path.exists(os.path.join(obj, o)))


class Code:
	"""What an address is: (kind, name), kind one of own, base, handler,
	target, module (the bench module's other code) or None (no text)."""

	def __init__(self, kernel_syms, own_names, text_ranges,
		     module_syms=(), module_range=(0, 0), target=None,
		     real_offset=0):
		syms = [(a, s, n, 'own' if n in own_names else 'base')
			for n, a, s in kernel_syms]
		for n, a, s in module_syms:
			kind = ('handler' if n in HANDLERS else
				'target' if n == target else 'module')
			syms.append((a, s, n, kind))
		syms.sort()
		self.addrs = [s[0] for s in syms]
		self.syms = syms
		self.ranges = list(text_ranges) + [module_range]
		# The arch file's HITCOUNT_REAL_OFFSET: code run with the MMU
		# off at its physical address (32-bit Book3S powerpc's vectors)
		# is the text at that address plus the offset.
		self.real_offset = real_offset

	def _in_text(self, pc):
		return any(lo <= pc < hi for lo, hi in self.ranges)

	def at(self, pc):
		if not self._in_text(pc):
			if not (self.real_offset and pc < self.real_offset and
				self._in_text(pc + self.real_offset)):
				return None, None
			pc += self.real_offset
		i = bisect.bisect_right(self.addrs, pc) - 1
		if i < 0:
			return 'base', '0x%x' % pc
		_, _, name, kind = self.syms[i]
		return kind, name

	def with_target(self, target):
		"""The same map with another probed function (a name, or a
		set of names: path_targets())."""
		names = {target} if isinstance(target, str) else set(target)
		c = Code.__new__(Code)
		c.addrs, c.ranges = self.addrs, self.ranges
		c.real_offset = self.real_offset
		c.syms = [(a, s, n, 'target' if n in names else
			   'module' if k == 'target' else k)
			  for a, s, n, k in self.syms]
		return c


def path_targets(path):
	"""The functions that are the probed code in a hit of path: its
	module function, and on a kernel-text path the caller and the
	kernel function."""
	names = {dict(PATHS)[path]}
	if path in KERNEL_TEXT_PATHS:
		names |= {KERNEL_TEXT_PATHS[path], KERNEL_TARGET}
	return names


def own_names(obj, objects):
	"""Names of the code symbols of the objects."""
	names = set()
	for o in objects:
		names.update(n for n, _, _ in Elf(os.path.join(obj, o)).code_symbols())
	return names


# ---- the classifier ----------------------------------------------------

class Region:
	"""Code run on behalf of cls since the stack pointer was sp.

	ra: a call's return address (None: entered by a jump or a return);
	trap: an exception, sp the interrupted code's; stub: code outside
	the text that the probed function called (ftrace's trampoline, or a
	module's call stub)."""

	def __init__(self, cls, sp, ra=None, trap=False, stub=False):
		self.cls, self.sp, self.ra, self.trap = cls, sp, ra, trap
		self.stub = stub

	def left(self, pc, sp, kind):
		if self.ra is not None:
			# A call: back at its return address, the stack as before.
			return pc == self.ra and sp >= self.sp
		if self.trap:
			# Back in the interrupted code (iret, eret).
			return kind != 'base' and sp >= self.sp
		# Entered by a jump or a return: back in other code at the
		# depth it was entered at.
		return kind not in ('own', None) and sp >= self.sp


def called(prev, ra, sp):
	"""Whether the step from prev = (pc, sp) was a call: the return
	address points just past prev's instruction, the stack no higher."""
	return prev is not None and ra is not None and \
		0 < ra - prev[0] <= 16 and sp <= prev[1]


def classify(steps, code, copies=None, vectors=()):
	"""Class of every step, and the name of its function.

	steps: [(pc, sp, ra)], the hit from the probed function's first
	instruction; code: a Code; copies: {pc: (kind, name)} for addresses
	outside the text whose bytes are a copy of a function's start;
	vectors: the base's exception entries that the probes' traps reach
	(the arch file's HITCOUNT_VECTORS): entering one opens the base's
	trap, whatever runs, until the exception returns.  A vector is a
	symbol, or an address (an int) where the exception's first
	instruction has none (arm's vector page): the trap must open there,
	at the interrupted code's stack pointer, before a banked one (arm's
	exception modes) shows in the trace."""
	copies = copies or {}
	regions = []
	out = []
	prev = None
	prev_kind = prev_name = None
	for pc, sp, ra in steps:
		kind, name = code.at(pc)
		if pc in vectors:
			kind, name = 'base', '[vector %#x]' % pc
		elif kind is None:
			name = '[no text]'
		while regions and regions[-1].left(pc, sp, kind):
			regions.pop()
		top = regions[-1].cls if regions else None
		call = called(prev, ra, sp)
		if kind == 'base' and (name in vectors or pc in vectors) and \
		   name != prev_name:
			regions.append(Region('trap', prev[1] if prev else sp, trap=True))
		elif kind == 'target' and top == 'trap' and regions[-1].stub:
			# The stub was a module's way to a probed kernel
			# function (powerpc's o and ro): that is the target.
			regions.pop()
		elif kind == 'handler' and top != 'handler':
			regions.append(Region('handler', sp, ra if call else None))
		elif kind == 'own' and top in (None, 'trap'):
			regions.append(Region('own', sp, ra if call else None))
		elif kind is None and top is None:
			# Outside any text: a copy of a function is that
			# function's; else a kprobes slot or detour, unless the
			# probed function called it (ftrace's trampoline).
			copy = copies.get(pc)
			stub = False
			if copy:
				cls = 'own' if copy[0] == 'own' else 'trap'
				name = copy[1] + ' (copy)'
			elif call and prev_kind == 'target':
				cls, stub = 'trap', True
			else:
				cls = 'own'
			regions.append(Region(cls, sp, ra if call else None, stub=stub))
		if regions:
			cls = regions[-1].cls
		else:
			cls = 'target' if kind in ('target', 'module') else 'trap'
		out.append((cls, name))
		prev = (pc, sp)
		prev_kind, prev_name = kind, name
	return out


def parse_vectors(words):
	"""HITCOUNT_VECTORS: symbols, and addresses written 0x..."""
	return {int(w, 16) if w.startswith('0x') else w for w in words.split()}


def summarize(classified):
	"""{class: count} and {class: Counter(function: count)}."""
	counts = collections.Counter()
	funcs = collections.defaultdict(collections.Counter)
	for cls, name in classified:
		counts[cls] += 1
		funcs[cls][name] += 1
	return counts, funcs


# ---- the trace ---------------------------------------------------------

def read_trace(path, stack_up=False):
	"""(module text base, [(path, [(pc, sp, ra)])], {pc: bytes},
	{section index: address} of the module's other code sections).

	stack_up: the stack grows to higher addresses (parisc); each sp is
	negated, so that for classify() as on every other machine a deeper
	frame has a lower one."""
	sign = -1 if stack_up else 1
	text = None
	hits = []
	mem = {}
	sections = {}
	with open(path) as f:
		for line in f:
			w = line.split()
			if not w:
				continue
			if w[0] == 'module':
				text = int(w[2], 16)
			elif w[0] == 'section':
				sections[int(w[1])] = int(w[2], 16)
			elif w[0] == 'hit':
				hits.append((w[1], []))
			elif w[0] == 'overrun' and hits:
				# hitcount.py missed the return: not a hit.
				hits.pop()
			elif w[0] == 's' and hits:
				pc, sp = int(w[1], 16), sign * int(w[2], 16)
				ra = int(w[3], 16) if w[3] != '-' else None
				hits[-1][1].append((pc, sp, ra))
				if len(w) > 4:
					mem[pc] = bytes.fromhex(w[4])
	return text, hits, mem, sections


def find_copies(mem, vmlinux, code, offset=0):
	"""{pc: (kind, name)} for the recorded bytes that begin a function
	of vmlinux (its bytes in the file, the same COPY_BYTES; code's
	addresses are the file's plus offset)."""
	starts = {}
	for a, s, n, k in code.syms:
		if k in ('own', 'base') and s >= COPY_BYTES:
			b = vmlinux.read(a - offset, COPY_BYTES)
			if b:
				starts.setdefault(b, (k, n))
	return {pc: starts[b] for pc, b in mem.items()
		if len(b) >= COPY_BYTES and b[:COPY_BYTES] in starts}


def split(fdir, repo):
	"""Classify fdir's hitcount-trace.txt: fdir/hitcount.{txt,csv}."""
	obj = os.path.join(fdir, 'obj')
	# hitcount.sh names the flavour; else the directory does (baseline-*).
	flavour = os.environ.get('KP_FLAVOUR') or os.path.basename(os.path.normpath(fdir))
	baseline = flavour.startswith('baseline')
	removed = os.environ.get('KP_REMOVED', '').split()
	files = []
	for top in ('kernel/kprobes', 'arch'):
		for dirpath, _, names in os.walk(os.path.join(repo, top)):
			files += [os.path.relpath(os.path.join(dirpath, n), repo) for n in names]
	objects = kprobes_objects(obj, baseline, removed, files)
	if not objects:
		sys.exit(f'kphit: no kprobes objects under {obj}')
	own = own_names(obj, objects)
	if baseline:
		# Upstream's kprobes functions in base files the series
		# changes rather than removes (the arch file's
		# HITCOUNT_BASELINE_OWN).
		own |= set(os.environ.get('HITCOUNT_BASELINE_OWN', '').split())
	vml = Elf(os.path.join(obj, 'vmlinux'))
	# Where the kernel runs, from where vmlinux is linked (s390).
	koff = int(os.environ.get('HITCOUNT_KERNEL_OFFSET') or '0', 16)
	text, hits, mem, secs = read_trace(os.path.join(fdir, 'hitcount-trace.txt'),
					   os.environ.get('HITCOUNT_STACK_UP') == '1')
	ko = Elf(module_path(fdir))
	ti = ko.section_index('.text')
	secs[ti] = text
	msyms = [(n, secs[shndx] + v, s) for n, v, s, t, shndx in ko.symbols()
		 if shndx in secs and t in (STT_NOTYPE, STT_FUNC) and n]
	# The module's code outside .text (parisc: a section a function) is
	# text as much as the kernel's.
	more = [(a, a + ko.sections[i]['size']) for i, a in secs.items() if i != ti]
	code = Code([(n, a + koff, s) for n, a, s in vml.code_symbols()], own,
		    [(lo + koff, hi + koff) for lo, hi in vml.text_ranges()] + more, msyms,
		    (text, text + ko.sections[ti]['size']),
		    real_offset=int(os.environ.get('HITCOUNT_REAL_OFFSET') or '0', 16))
	copies = find_copies(mem, vml, code, koff)
	vectors = parse_vectors(os.environ.get('HITCOUNT_VECTORS', ''))
	rows = {}
	seen = collections.Counter()
	with open(os.path.join(fdir, 'hitcount.txt'), 'w') as out:
		out.write(f'# kprobes objects: {" ".join(objects)}\n')
		for i, (path, steps) in enumerate(hits):
			counts, funcs = summarize(classify(
				steps, code.with_target(path_targets(path)), copies, vectors))
			n = sum(counts.values())
			out.write(f'{path} {n} ' + ' '.join(f'{c}={counts[c]}' for c in CLASSES) + '\n')
			for c in CLASSES:
				if funcs[c]:
					out.write(f'  {c}: ' + ', '.join(f'{f} {k}' for f, k in
								     funcs[c].most_common()) + '\n')
			# The steady state: of a path's hits after its first, the
			# shortest (where gdb's steps do not hold interrupts off,
			# ppc64le's decrementer, a timer interrupt can land in
			# one).
			seen[path] += 1
			if (seen[path] <= 2 or
			    n < sum(rows[path].values())):
				rows[path] = counts
	write_csv(os.path.join(fdir, 'hitcount.csv'),
		  ['path', 'total'] + list(CLASSES),
		  [[p, sum(rows[p].values())] + [rows[p][c] for c in CLASSES]
		   for p, _ in PATHS if p in rows])
	return rows


def module_path(fdir):
	for p in ('initramfs/bench', 'initramfs/kselftest/kprobes/test_modules'):
		f = os.path.join(fdir, p, MODULE)
		if os.path.exists(f):
			return f
	sys.exit(f'kphit: no {MODULE} under {fdir}/initramfs')


def write_csv(path, head, rows):
	with open(path, 'w') as f:
		for r in [head] + rows:
			f.write(','.join(str(x) for x in r) + '\n')


def read_csv(path):
	"""{path: {column: int}} of a flavour's hitcount.csv."""
	out = {}
	with open(path) as f:
		head = f.readline().strip().split(',')
		for line in f:
			w = line.strip().split(',')
			if len(w) == len(head):
				out[w[0]] = {h: int(v) for h, v in zip(head[1:], w[1:])}
	return out


# ---- the table ---------------------------------------------------------

TABLE_HEAD = ['path', 'baseline trap', 'baseline own', 'ours trap', 'ours own',
	      'own ratio']
CSV_HEAD = ['path', 'baseline_total', 'baseline_trap', 'baseline_own',
	    'baseline_handler', 'baseline_target', 'ours_total', 'ours_trap',
	    'ours_own', 'ours_handler', 'ours_target', 'own_ratio']


def table(base, ours):
	"""The rows of both flavours (read_csv()), bench path order: (text
	rows for the table, csv rows)."""
	text, csv = [], []
	for p, _ in PATHS:
		b, o = base.get(p), ours.get(p)
		if b is None and o is None:
			continue

		def cell(d, k):
			return '-' if d is None else str(d[k])
		r = (f'{o["own"] / b["own"]:.2f}' if b and o and b['own'] else '-')
		text.append([p, cell(b, 'trap'), cell(b, 'own'), cell(o, 'trap'),
			     cell(o, 'own'), r])
		csv.append([p] + [('' if d is None else d[k]) for d in (b, o)
				  for k in ('total',) + CLASSES] + [r if r != '-' else ''])
	return text, csv


def format_table(rows):
	w = [max(len(str(r[i])) for r in [TABLE_HEAD] + rows) for i in range(len(TABLE_HEAD))]
	lines = [' | '.join(str(c).ljust(w[i]) if i == 0 else str(c).rjust(w[i])
			    for i, c in enumerate(r)) for r in [TABLE_HEAD] + rows]
	lines.insert(1, '-|-'.join('-' * x for x in w))
	return '\n'.join(lines)


def combined(bdir, suffix):
	"""Print both flavours' split and write bdir/hitcountSUFFIX.csv; False
	when neither flavour has a hitcount.csv."""
	data = {}
	for fl in ('baseline', 'ours'):
		try:
			data[fl] = read_csv(os.path.join(bdir, fl + suffix, 'hitcount.csv'))
		except OSError:
			data[fl] = {}
	if not data['baseline'] and not data['ours']:
		return False
	text, csv = table(data['baseline'], data['ours'])
	print('guest instructions per hit (make hitcount): the trap is the base\'s, '
	      '"own" is kprobes\'\n(ratio = ours / baseline; handler and probed '
	      'function apart, in the CSV)')
	print(format_table(text))
	out = os.path.join(bdir, f'hitcount{suffix}.csv')
	write_csv(out, CSV_HEAD, csv)
	print(f'wrote {out}')
	return True


def main(argv):
	if len(argv) == 3 and argv[0] == 'split':
		split(argv[1], argv[2])
		with open(os.path.join(argv[1], 'hitcount.txt')) as f:
			sys.stdout.write(f.read())
	elif len(argv) == 3 and argv[0] == 'table':
		if not combined(argv[1], argv[2]):
			sys.exit('kphit: no hitcount.csv of either flavour (make hitcount)')
	else:
		sys.exit('usage: kphit.py split FLAVOUR_DIR REPO | table BUILD_DIR SUFFIX')


if __name__ == '__main__':
	main(sys.argv[1:])
