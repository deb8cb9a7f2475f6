#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# test_hitcount.py - make hitcount's analysis (kphit.py) without a kernel:
# the classifier on hand-made traces of each way control moves (a trap,
# a call into kprobes, a handler, a slot, a detour, an ftrace trampoline,
# a kretprobe trampoline), on real x86-64, i386 and arm64 hits of both
# flavours (testdata/hitcount-<arch>-<flavour>.trace: the symbols their
# PCs are in, then the steps, as make hitcount traced them), which
# kprobes objects each flavour has, the ELF reader, and the table.  Run
# by "make harness-check" (test_parse.py loads these cases).

import contextlib
import importlib.util
import io
import os
import struct
import tempfile
import unittest

import kphit

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'testdata')

# A made-up kernel: base code at 0x1000, kprobes' at 0x2000, the module
# at 0x9000; no text at 0x7000 (slots, detours, trampolines).
SYMS = [('asm_exc_int3', 0x1000, 0x40), ('exc_int3', 0x1040, 0x40),
	('iret_path', 0x1080, 0x40), ('helper', 0x10c0, 0x40),
	('ftrace_caller', 0x1100, 0x40),
	('kp_int3', 0x2000, 0x40), ('kp_ftrace', 0x2040, 0x40),
	('kp_tramp', 0x2080, 0x40)]
MOD = [('kpb_t_b', 0x9000, 0x10), ('kpb_pre', 0x9010, 0x10),
       ('kpb_time', 0x9020, 0x40)]
OWN = {'kp_int3', 'kp_ftrace', 'kp_tramp'}
VECTORS = {'asm_exc_int3'}


def code(target='kpb_t_b'):
	return kphit.Code(SYMS, OWN, [(0x1000, 0x3000)], MOD, (0x9000, 0x9060), target)


def classes(steps, copies=None):
	return [c for c, _ in kphit.classify(steps, code(), copies, VECTORS)]


class ClassifyTest(unittest.TestCase):
	def test_int3_hit(self):
		# x86: int3 at the target, the vector, exc_int3 calls kprobes
		# (which calls a base helper and the handler), iret to a slot,
		# the slot jumps back, the target returns.
		steps = [
			(0x9000, 0x800, 0x9030),	# int3
			(0x1000, 0x7d0, 0),		# asm_exc_int3, frame pushed
			(0x1004, 0x7c8, 0),
			(0x1040, 0x7c0, 0x1008),	# called: exc_int3
			(0x2000, 0x7b8, 0x1044),	# called: kprobes
			(0x10c0, 0x7b0, 0x2004),	# base helper, from kprobes
			(0x10c4, 0x7b8, 0x2004),
			(0x2004, 0x7b8, 0x1044),
			(0x9010, 0x7b0, 0x2008),	# the handler
			(0x9014, 0x7b8, 0x2008),
			(0x2008, 0x7b8, 0x1044),
			(0x1044, 0x7c0, 0x1008),	# back in exc_int3
			(0x1008, 0x7c8, 0),
			(0x1080, 0x7d0, 0),		# iret
			(0x7000, 0x800, 0),		# the slot
			(0x7003, 0x800, 0),
			(0x9004, 0x800, 0x9030),	# ret
		]
		self.assertEqual(classes(steps), [
			'target', 'trap', 'trap', 'trap', 'own', 'own', 'own', 'own',
			'handler', 'handler', 'own', 'trap', 'trap', 'trap', 'own', 'own',
			'target'])

	def test_second_trap_is_the_base(self):
		# Upstream's step: the slot's int3 traps again; its entry and
		# exit are the base's, kprobes' handler in it is kprobes'.
		steps = [
			(0x7000, 0x800, 0),		# slot, after the first trap
			(0x7004, 0x800, 0),		# its int3
			(0x1000, 0x7d0, 0),
			(0x2000, 0x7c8, 0x1004),
			(0x1004, 0x7d0, 0),
			(0x1080, 0x7d0, 0),
			(0x9004, 0x800, 0x9030),
		]
		self.assertEqual(classes(steps),
				 ['own', 'own', 'trap', 'own', 'trap', 'trap', 'target'])

	def test_detour(self):
		# An optimized probe: a jump to a detour, which calls kprobes
		# and the handler and jumps back.
		steps = [
			(0x9000, 0x800, 0x9030),
			(0x7000, 0x800, 0x9030),	# jumped: not a call
			(0x7004, 0x7f8, 0x9030),
			(0x2000, 0x7f0, 0x7008),	# called from the detour
			(0x9010, 0x7e8, 0x2004),
			(0x2004, 0x7f0, 0x7008),
			(0x7008, 0x7f8, 0x9030),
			(0x9005, 0x800, 0x9030),
		]
		self.assertEqual(classes(steps), ['target', 'own', 'own', 'own', 'handler',
						  'own', 'own', 'target'])

	def test_ftrace_trampoline(self):
		# The fentry call into a trampoline outside the text is the
		# base's; the ops callback it calls is kprobes'.
		steps = [
			(0x9000, 0x800, 0x9030),	# call
			(0x7100, 0x7f8, 0x9005),	# called from the target
			(0x7104, 0x7f0, 0x9005),
			(0x2040, 0x7e8, 0x7108),	# kprobes' ftrace handler
			(0x10c0, 0x7e0, 0x2044),	# a base helper it calls
			(0x2044, 0x7e8, 0x7108),
			(0x7108, 0x7f0, 0x9005),
			(0x9005, 0x800, 0x9030),
		]
		self.assertEqual(classes(steps), ['target', 'trap', 'trap', 'own', 'own',
						  'own', 'trap', 'target'])
		# The same trampoline reached by a jump is a kprobes detour...
		jumped = [(0x9000, 0x800, 0x9030), (0x7100, 0x800, 0x9030)]
		self.assertEqual(classes(jumped), ['target', 'own'])
		# ... unless its bytes are a copy of a base function.
		self.assertEqual(classes(jumped, {0x7100: ('base', 'ftrace_caller')}),
				 ['target', 'trap'])

	def test_call_stub_to_kernel_target(self):
		# powerpc's o: the module's target calls a kernel function
		# through a call stub outside the text; the stub is the
		# base's (as ftrace's trampoline), the kernel function the
		# probed code, kprobes' detour in it kprobes'.
		steps = [
			(0x9000, 0x800, 0x9030),	# kpb_t_b
			(0x7100, 0x7f8, 0x9005),	# its call stub
			(0x7104, 0x7f8, 0x9005),
			(0x10c0, 0x7f8, 0x9005),	# jumps on to "helper"
			(0x2000, 0x7f8, 0x9005),	# a detour's handler
			(0x10c4, 0x7f8, 0x9005),
			(0x9005, 0x800, 0x9030),	# back in kpb_t_b
		]
		got = [c for c, _ in kphit.classify(
			steps, code().with_target({'kpb_t_b', 'helper'}), None, VECTORS)]
		self.assertEqual(got, ['target', 'trap', 'trap', 'target', 'own',
				       'target', 'target'])
		# helper not probed: the stub region goes on.
		self.assertEqual(classes(steps)[3], 'trap')

	def test_kretprobe_trampoline(self):
		# The target returns into kprobes' trampoline (no call), which
		# calls a base helper and returns to the caller.
		steps = [
			(0x9004, 0x800, 0x9030),	# ret
			(0x2080, 0x808, 0x9030),
			(0x10c0, 0x800, 0x2084),
			(0x2084, 0x808, 0x9030),
			(0x9030, 0x808, 0),		# kpb_time: the caller
		]
		self.assertEqual(classes(steps), ['target', 'own', 'own', 'own', 'target'])

	def test_vector_without_symbol(self):
		# arm: the UDF enters the vector page (no symbol: its address
		# is the arch file's vector), on the exception mode's own
		# stack pointer, then the stub and the SVC-mode handler; the
		# trap ends back at the interrupted stack pointer.
		steps = [
			(0x9000, 0x800, 0x9030),	# the UDF
			(0x7ff4, 0x900, 0x9004),	# vector page, banked sp
			(0x1000, 0x900, 0x9004),	# the stub
			(0x1040, 0x7b0, 0x9004),	# SVC mode, a frame below
			(0x1044, 0x7b0, 0x9004),
			(0x2000, 0x7b0, 0x1048),	# called: kprobes
			(0x2004, 0x7b0, 0x1048),
			(0x9010, 0x7b0, 0x2008),	# the handler
			(0x9014, 0x7b0, 0x2008),
			(0x2008, 0x7b0, 0x1048),
			(0x1048, 0x7b0, 0x1048),	# back in the base's handler
			(0x1080, 0x7b0, 0x1048),	# the exception's return
			(0x9004, 0x800, 0x9030),
		]
		want = ['target', 'trap', 'trap', 'trap', 'trap', 'own', 'own',
			'handler', 'handler', 'own', 'trap', 'trap', 'target']
		got = kphit.classify(steps, code(), None, kphit.parse_vectors('0x7ff4'))
		self.assertEqual([c for c, _ in got], want)
		self.assertEqual(got[1][1], '[vector 0x7ff4]')
		# Opened at the stub instead, the trap takes the banked stack
		# pointer for the interrupted one and swallows the target's
		# return; the page itself would pass for a kprobes slot.
		self.assertNotEqual(classes(steps), want)

	def test_copied_stub_then_vector(self):
		# mips: the break enters a copy of the vector stub outside the
		# text (its bytes those of a base function), which jumps to the
		# vector symbol (handle_bp); the trap opens there, at the
		# interrupted stack pointer, and ends at the eret to the slot.
		steps = [
			(0x9000, 0x800, 0x9030),	# the break
			(0x7180, 0x800, 0x9030),	# the stub's copy, k0/k1 only
			(0x7184, 0x800, 0x9030),
			(0x1000, 0x800, 0x9030),	# handle_bp (the vector)
			(0x1004, 0x6c0, 0x9030),	# SAVE_ALL
			(0x1040, 0x6c0, 0x1008),	# called: do_bp
			(0x2000, 0x6b0, 0x1044),	# called: kprobes
			(0x2004, 0x6b0, 0x1044),
			(0x1044, 0x6c0, 0x1008),
			(0x1080, 0x6c0, 0x1008),	# ret_from_exception, eret
			(0x7000, 0x800, 0x1008),	# the slot
			(0x7004, 0x800, 0x1008),
			(0x9004, 0x800, 0x9030),
		]
		# find_copies() knows the first address only: its bytes
		# begin the function.
		copies = {0x7180: ('base', 'helper')}
		got = kphit.classify(steps, code(), copies, VECTORS)
		self.assertEqual([c for c, _ in got], [
			'target', 'trap', 'trap', 'trap', 'trap', 'trap', 'own', 'own',
			'trap', 'trap', 'own', 'own', 'target'])
		self.assertEqual(got[1][1], 'helper (copy)')
		# Without the copy's bytes the stub would pass for a slot.
		self.assertEqual(classes(steps)[1:3], ['own', 'own'])

	def test_real_mode_vector(self):
		# 32-bit Book3S powerpc: the program check runs its prolog
		# with the MMU off, at the vector's physical address, the
		# interrupted stack pointer still in r1; HITCOUNT_REAL_OFFSET
		# makes it the text's vector, so the trap holds.
		steps = [
			(0x9000, 0x800, 0x9030),	# the trap instruction
			(0x0000, 0x800, 0x9030),	# asm_exc_int3's physical twin
			(0x0004, 0x800, 0x9030),
			(0x1004, 0x6c0, 0x9030),	# MMU on, frame below
			(0x2000, 0x6b0, 0x1008),	# called: kprobes
			(0x1008, 0x6c0, 0x9030),
			(0x7000, 0x800, 0x9030),	# rfi to the slot
			(0x9004, 0x800, 0x9030),
		]
		real = kphit.Code(SYMS, OWN, [(0x1000, 0x3000)], MOD, (0x9000, 0x9060),
				  'kpb_t_b', real_offset=0x1000)
		got = kphit.classify(steps, real, None, VECTORS)
		self.assertEqual([c for c, _ in got], [
			'target', 'trap', 'trap', 'trap', 'own', 'trap', 'own', 'target'])
		self.assertEqual(got[2][1], 'asm_exc_int3')
		self.assertEqual(real.with_target('kpb_pre').at(0x4)[1], 'asm_exc_int3')
		# Without the offset the prolog is no text: the trap is never
		# opened, and the prolog passes for a slot.
		self.assertEqual(classes(steps)[1:3], ['own', 'own'])

	def test_copies_of_a_moved_kernel(self):
		# s390: the kernel runs HITCOUNT_KERNEL_OFFSET above its link
		# address; the symbols are moved, the file is read where linked.
		class File:
			def read(self, addr, n):
				return bytes([addr & 0xff]) * n if addr == 0x1100 else None
		moved = kphit.Code([(n, a + 0x5000, s) for n, a, s in SYMS], OWN,
				   [(0x6000, 0x8000)])
		mem = {0x7100: bytes([0x00]) * kphit.COPY_BYTES}
		self.assertEqual(kphit.find_copies(mem, File(), moved, 0x5000),
				 {0x7100: ('base', 'ftrace_caller')})
		self.assertEqual(kphit.find_copies(mem, File(), moved), {})

	def test_parse_vectors(self):
		self.assertEqual(kphit.parse_vectors(' vectors 0xffff0004\n'),
				 {'vectors', 0xffff0004})
		self.assertEqual(kphit.parse_vectors(''), set())

	def test_called(self):
		self.assertTrue(kphit.called((0x1000, 0x800), 0x1005, 0x7f8))
		self.assertTrue(kphit.called((0x1000, 0x800), 0x1004, 0x800))  # arm64 bl
		self.assertFalse(kphit.called((0x1000, 0x800), 0x1005, 0x808))  # a ret
		self.assertFalse(kphit.called((0x1000, 0x800), 0x2000, 0x7f8))
		self.assertFalse(kphit.called(None, 0x1005, 0x7f8))
		self.assertFalse(kphit.called((0x1000, 0x800), None, 0x7f8))


def load_trace(path):
	"""(Code, {path: steps}, copies) of a testdata trace."""
	syms, msyms, ranges, copies = [], [], [], {}
	own = set()
	mrange = (0, 0)
	hits = {}
	cur = None
	with open(path) as f:
		for line in f:
			w = line.split()
			if not w or w[0].startswith('#'):
				continue
			if w[0] == 'text':
				ranges.append((int(w[1], 16), int(w[2], 16)))
			elif w[0] == 'module':
				mrange = (int(w[2], 16), int(w[3], 16))
			elif w[0] == 'sym':
				a, s, kind, name = int(w[1], 16), int(w[2], 16), w[3], w[4]
				if kind in ('own', 'base'):
					syms.append((name, a, s))
					if kind == 'own':
						own.add(name)
				else:
					msyms.append((name, a, s))
			elif w[0] == 'copy':
				copies[int(w[1], 16)] = (w[2], w[3])
			elif w[0] == 'hit':
				cur = hits[w[1]] = []
			elif w[0] == 's':
				cur.append((int(w[1], 16), int(w[2], 16),
					    None if w[3] == '-' else int(w[3], 16)))
	return kphit.Code(syms, own, ranges, msyms, mrange), hits, copies


class TraceTest(unittest.TestCase):
	def test_read_trace(self):
		with tempfile.NamedTemporaryFile('w', suffix='.txt') as f:
			f.write('module kpbench.ko ffffffffa0000000\n'
				'section 5 ffffffffa0002000\n'
				'hit k\ns ffffffffa0000010 ff00 ffffffffa0000100\n'
				's ffffffffa00c1000 fef8 - 4889f8\n'
				'hit b\ns ffffffffa0000020 ff00 ffffffffa0000100\noverrun\n')
			f.flush()
			text, hits, mem, secs = kphit.read_trace(f.name)
		self.assertEqual(text, 0xffffffffa0000000)
		self.assertEqual(secs, {5: 0xffffffffa0002000})
		# b missed its return: left out.
		self.assertEqual(hits, [('k', [(0xffffffffa0000010, 0xff00, 0xffffffffa0000100),
					       (0xffffffffa00c1000, 0xfef8, None)])])
		self.assertEqual(mem, {0xffffffffa00c1000: bytes.fromhex('4889f8')})

	def test_stack_up(self):
		# parisc: a call's frame is above its caller's; negated, it
		# is below, as classify() expects.
		with tempfile.NamedTemporaryFile('w', suffix='.txt') as f:
			f.write('module kpbench.ko 10000000\nhit k\n'
				's 10000010 5000 10000100\ns 101000 5040 10000018\n')
			f.flush()
			_, hits, _, _ = kphit.read_trace(f.name, stack_up=True)
		steps = hits[0][1]
		self.assertEqual([sp for _, sp, _ in steps], [-0x5000, -0x5040])
		self.assertLess(steps[1][1], steps[0][1])


class RealHitTest(unittest.TestCase):
	"""make hitcount's x86-64, i386 and arm64 traces (production config,
	6.12.118), with the vectors of their arch files."""

	VECTORS = {'x86_64': {'asm_exc_int3', 'asm_exc_debug'},
		   'i386': {'asm_exc_int3', 'asm_exc_debug'},
		   'arm64': {'vectors', '__bp_harden_el1_vectors'}}

	def split(self, flavour, arch='x86_64'):
		c, hits, copies = load_trace(os.path.join(DATA, f'hitcount-{arch}-{flavour}.trace'))
		targets = dict(kphit.PATHS)
		out = {}
		for path, steps in hits.items():
			counts, funcs = kphit.summarize(kphit.classify(
				steps, c.with_target(targets[path]), copies, self.VECTORS[arch]))
			out[path] = (dict(counts), funcs)
		return out

	def test_arm64(self):
		# Two BRKs a hit (the probe's, the step's end), 183 each;
		# upstream's kretprobe trampoline is a third.
		got = self.split('baseline', 'arm64')
		self.assertEqual(got['k'][0], {'trap': 366, 'own': 125, 'handler': 15, 'target': 5})
		self.assertEqual(got['r'][0], {'trap': 552, 'own': 352, 'handler': 8, 'target': 2})
		self.assertEqual(got['r'][1]['own']['kretprobe_brk_handler'], 23)
		got = self.split('ours', 'arm64')
		self.assertEqual(got['k'][0], {'trap': 366, 'own': 164, 'handler': 15, 'target': 5})
		self.assertEqual(got['r'][0], {'trap': 366, 'own': 326, 'handler': 8, 'target': 2})
		self.assertEqual(got['k'][1]['trap']['vectors'], 4)

	def test_i386(self):
		# i386's int3 trap, 197 instructions: asm_exc_int3 jumps to
		# handle_exception, which calls exc_int3 and returns with iret.
		got = self.split('baseline', 'i386')
		self.assertEqual(got['k'][0], {'trap': 394, 'own': 258, 'handler': 13, 'target': 7})
		self.assertEqual(got['k'][1]['trap']['handle_exception'], 94)
		self.assertEqual(got['f'][0], {'trap': 44, 'own': 97, 'handler': 7, 'target': 6})
		self.assertEqual(got['r'][0], {'trap': 197, 'own': 391, 'handler': 7, 'target': 2})
		got = self.split('ours', 'i386')
		self.assertEqual(got['k'][0], {'trap': 197, 'own': 162, 'handler': 13, 'target': 7})
		self.assertEqual(got['k'][1]['own']['kprobe_post_trampoline'], 37)
		self.assertEqual(got['b'][0], {'trap': 197, 'own': 80, 'handler': 7, 'target': 2})
		self.assertEqual(got['r'][0], {'trap': 197, 'own': 282, 'handler': 7, 'target': 2})

	def test_baseline(self):
		got = self.split('baseline')
		# k: two int3 traps (the probe's, the step's), 151 each.
		self.assertEqual(got['k'][0], {'trap': 302, 'own': 214, 'handler': 7, 'target': 5})
		self.assertEqual(got['k'][1]['trap']['asm_exc_int3'], 32)
		self.assertEqual(got['k'][1]['own']['[no text]'], 2)   # the slot
		# f: the base's ftrace trampoline, a copy of ftrace_regs_caller.
		self.assertEqual(got['f'][0], {'trap': 59, 'own': 91, 'handler': 4, 'target': 3})
		self.assertIn('ftrace_regs_caller (copy)', got['f'][1]['trap'])
		# r: rethook is upstream's kretprobes' (KRETPROBE_ON_RETHOOK).
		self.assertEqual(got['r'][0], {'trap': 151, 'own': 329, 'handler': 4, 'target': 2})
		self.assertEqual(got['r'][1]['own']['arch_rethook_trampoline'], 41)

	def test_ours(self):
		got = self.split('ours')
		self.assertEqual(got['k'][0], {'trap': 151, 'own': 147, 'handler': 7, 'target': 5})
		self.assertEqual(got['o'][0], {'own': 68, 'handler': 4, 'target': 4})
		self.assertEqual(got['o'][1]['own']['[no text]'], 50)  # the detour
		self.assertEqual(got['r'][0], {'trap': 151, 'own': 229, 'handler': 4, 'target': 2})


def write_elf(path, syms, text=b'\x90' * 32, machine=62):
	"""A minimal little-endian ELF64 of machine (EM_*; x86-64 unless
	told): .text at 0x1000 and a symbol table of syms [(name, value,
	size, type[, st_other])]."""
	shstr = b'\0.text\0.symtab\0.strtab\0.shstrtab\0'
	strtab = b'\0' + b''.join(s[0].encode() + b'\0' for s in syms)
	symtab = b'\0' * 24
	off = 1
	for n, v, s, t, *other in syms:
		symtab += struct.pack('<IBBHQQ', off, t, other[0] if other else 0, 1, v, s)
		off += len(n) + 1
	body = text + symtab + strtab + shstr
	base = 64
	offs = [base, base + len(text), base + len(text) + len(symtab),
		base + len(text) + len(symtab) + len(strtab)]
	shoff = base + len(body)
	hdr = b'\x7fELF\x02\x01\x01' + b'\0' * 9 + struct.pack(
		'<HHIQQQIHHHHHH', 1, machine, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 5, 4)
	sh = b'\0' * 64
	sh += struct.pack('<IIQQQQIIQQ', 1, 1, 6, 0x1000, offs[0], len(text), 0, 0, 16, 0)
	sh += struct.pack('<IIQQQQIIQQ', 7, 2, 0, 0, offs[1], len(symtab), 3, 1, 8, 24)
	sh += struct.pack('<IIQQQQIIQQ', 15, 3, 0, 0, offs[2], len(strtab), 0, 0, 1, 0)
	sh += struct.pack('<IIQQQQIIQQ', 23, 3, 0, 0, offs[3], len(shstr), 0, 0, 1, 0)
	with open(path, 'wb') as f:
		f.write(hdr + body + sh)


class ElfAndObjectsTest(unittest.TestCase):
	def setUp(self):
		self.dir = tempfile.TemporaryDirectory()
		self.addCleanup(self.dir.cleanup)

	def test_elf(self):
		path = os.path.join(self.dir.name, 'a.o')
		write_elf(path, [('f', 0x1000, 16, 2), ('.Llocal', 0x1004, 0, 0),
				 ('g', 0x1010, 16, 2), ('obj', 0x1000, 4, 1)])
		e = kphit.Elf(path)
		self.assertEqual(e.code_symbols(), [('f', 0x1000, 16), ('g', 0x1010, 16)])
		self.assertEqual(e.text_ranges(), [(0x1000, 0x1020)])
		self.assertEqual(e.read(0x1010, 4), b'\x90' * 4)
		self.assertIsNone(e.read(0x1020, 4))
		self.assertEqual(e.section_index('.text'), 1)
		# A loader's copy of .text's header: found where only
		# sh_addr moved.
		with open(path, 'rb') as f:
			d = f.read()
		hdr = bytearray(d[e.shoff + 64:e.shoff + 128])
		hdr[16:24] = struct.pack('<Q', 0xa0001000)
		hdr[56:64] = struct.pack('<Q', 0x40)	# sh_entsize: the layout's
		self.assertEqual(e.loaded_at(1, bytes(hdr)), 0xa0001000)
		hdr[32] ^= 1	# sh_size: another module's .text
		self.assertIsNone(e.loaded_at(1, bytes(hdr)))
		self.assertIsNone(e.loaded_at(1, bytes(hdr[:40])))

	def test_elf_thumb_functions(self):
		# ARM: a function's bit 0 is the Thumb bit, not its address;
		# a label keeps its value.  Elsewhere bit 0 is an address bit.
		syms = [('t', 0x1001, 8, 2), ('lbl', 0x1009, 0, 0), ('a', 0x1010, 4, 2)]
		path = os.path.join(self.dir.name, 'arm.o')
		write_elf(path, syms, machine=kphit.EM_ARM)
		self.assertEqual(kphit.Elf(path).code_symbols(),
				 [('t', 0x1000, 8), ('lbl', 0x1009, 0), ('a', 0x1010, 4)])
		write_elf(path, syms)
		self.assertEqual(kphit.Elf(path).code_symbols()[0], ('t', 0x1001, 8))

	def test_kernel_text_path(self):
		# powerpc's o: the module's caller and the kernel function
		# are the probed code; k's kernel calls are not.
		c = kphit.Code([('memchr_inv', 0x2000, 8)], set(), [(0x2000, 0x3000)],
			       [('kpb_t_ko', 0x1000, 8), ('kpb_t_k', 0x1010, 8)],
			       (0x1000, 0x1020))
		for path, want in (('o', ['target', 'module', 'target']),
				   ('k', ['module', 'target', 'base'])):
			got = [s[3] for s in c.with_target(kphit.path_targets(path)).syms]
			self.assertEqual(got, want, path)

	def test_elf_local_entry(self):
		# ppc64 ELFv2: st_other's bits 5 - 7 give the local entry
		# point's offset; other machines have none.
		syms = [('g', 0x1000, 16, 2, 3 << 5), ('fg', 0x1010, 8, 2),
			('h', 0x1018, 8, 2, 1 << 5), ('apply', 0x1020, 8, 2, 2 << 5)]
		path = os.path.join(self.dir.name, 'ppc64.o')
		write_elf(path, syms, machine=kphit.EM_PPC64)
		e = kphit.Elf(path)
		self.assertEqual(e.local_entry('g'), 8)
		self.assertEqual(e.local_entry('apply'), 4)
		self.assertEqual(e.local_entry('f'), 0)	# a prefix of fg
		self.assertEqual(e.local_entry('fg'), 0)
		self.assertEqual(e.local_entry('h'), 0)	# r2 not kept, no offset
		self.assertEqual(e.local_entry('none'), 0)
		write_elf(path, syms)
		self.assertEqual(kphit.Elf(path).local_entry('g'), 0)

	def touch(self, *paths):
		for p in paths:
			p = os.path.join(self.dir.name, p)
			os.makedirs(os.path.dirname(p), exist_ok=True)
			open(p, 'w').close()

	def test_objects_ours(self):
		self.touch('kernel/kprobes/core.o', 'kernel/kprobes/tests/hit.o',
			   'arch/x86/kernel/kprobes/core.o', 'arch/x86/kernel/kprobes/boost_kunit.o',
			   'arch/x86/kernel/kprobes/tramp.o', 'kernel/trace/rethook.o')
		repo = ['kernel/kprobes/core.c', 'kernel/kprobes/internal.h',
			'kernel/kprobes/tests/hit.c', 'arch/x86/kernel/kprobes/core.c',
			'arch/x86/kernel/kprobes/boost_kunit.c', 'arch/x86/kernel/kprobes/tramp.S',
			'arch/arm64/kernel/probes/core.c']
		self.assertEqual(kphit.kprobes_objects(self.dir.name, False, [], repo),
				 ['arch/x86/kernel/kprobes/core.o', 'arch/x86/kernel/kprobes/tramp.o',
				  'kernel/kprobes/core.o'])

	def test_objects_upstream(self):
		self.touch('kernel/kprobes.o', 'arch/x86/kernel/kprobes/core.o',
			   'arch/x86/kernel/kprobes/opt.o', 'arch/x86/kernel/kprobes/built-in.o',
			   'kernel/trace/rethook.o', 'arch/x86/kernel/rethook.o')
		removed = ['kernel/kprobes.c', 'include/linux/kprobes.h', 'samples/kprobes',
			   'arch/x86/kernel/kprobes']
		want = ['arch/x86/kernel/kprobes/core.o', 'arch/x86/kernel/kprobes/opt.o',
			'kernel/kprobes.o']
		self.assertEqual(kphit.kprobes_objects(self.dir.name, True, removed, []), want)
		with open(os.path.join(self.dir.name, '.config'), 'w') as f:
			f.write('CONFIG_KRETPROBE_ON_RETHOOK=y\n')
		self.assertEqual(kphit.kprobes_objects(self.dir.name, True, removed, []),
				 ['arch/x86/kernel/kprobes/core.o', 'arch/x86/kernel/kprobes/opt.o',
				  'arch/x86/kernel/rethook.o', 'kernel/kprobes.o',
				  'kernel/trace/rethook.o'])


class TableTest(unittest.TestCase):
	def row(self, trap, own, handler=4, target=2):
		return {'total': trap + own + handler + target, 'trap': trap, 'own': own,
			'handler': handler, 'target': target}

	def test_table(self):
		base = {'k': self.row(302, 214), 'b': self.row(151, 86), 'o': self.row(0, 92)}
		ours = {'k': self.row(151, 147), 'b': self.row(151, 63)}
		text, csv = kphit.table(base, ours)
		self.assertEqual(text, [['k', '302', '214', '151', '147', '0.69'],
					['b', '151', '86', '151', '63', '0.73'],
					['o', '0', '92', '-', '-', '-']])
		self.assertEqual(csv[0], ['k', 522, 302, 214, 4, 2, 304, 151, 147, 4, 2, '0.69'])
		self.assertEqual(csv[2][6:], ['', '', '', '', '', ''])
		lines = kphit.format_table(text).splitlines()
		self.assertEqual(lines[0].split(' | '),
				 ['path', 'baseline trap', 'baseline own', 'ours trap', 'ours own',
				  'own ratio'])
		self.assertTrue(lines[2].startswith('k    |'))
		self.assertTrue(lines[2].endswith('|      0.69'))

	def test_csv_round_trip(self):
		with tempfile.TemporaryDirectory() as d:
			for fl, rows in (('baseline-prod', {'b': self.row(151, 86)}),
					 ('ours-prod', {'b': self.row(151, 63)})):
				os.mkdir(os.path.join(d, fl))
				kphit.write_csv(os.path.join(d, fl, 'hitcount.csv'),
						['path', 'total'] + list(kphit.CLASSES),
						[[p, r['total']] + [r[c] for c in kphit.CLASSES]
						 for p, r in rows.items()])
			self.assertEqual(kphit.read_csv(os.path.join(d, 'ours-prod', 'hitcount.csv')),
					 {'b': self.row(151, 63)})
			out = io.StringIO()
			with contextlib.redirect_stdout(out):
				self.assertTrue(kphit.combined(d, '-prod'))
				self.assertIn('b    |           151 |           86 |       151 |       63 |      0.73',
				      out.getvalue())
			with open(os.path.join(d, 'hitcount-prod.csv')) as f:
				self.assertEqual(f.read().splitlines(), [
					','.join(kphit.CSV_HEAD),
					'b,243,151,86,4,2,220,151,63,4,2,0.73'])
			self.assertFalse(kphit.combined(d, '-arm64-prod'))


class BenchReportTest(unittest.TestCase):
	"""bench.py's report of make hitcount's table."""

	def test_bench_prints_the_split(self):
		spec = importlib.util.spec_from_file_location('bench', os.path.join(HERE, 'bench.py'))
		bench = importlib.util.module_from_spec(spec)
		spec.loader.exec_module(bench)
		with tempfile.TemporaryDirectory() as d:
			out = io.StringIO()
			with contextlib.redirect_stdout(out):
				bench.hitcount(d, '-prod')
			self.assertIn('make hitcount PROD=1', out.getvalue())
			for fl in ('baseline', 'ours'):
				os.makedirs(os.path.join(d, fl + '-prod', 'obj'))
				kphit.write_csv(os.path.join(d, fl + '-prod', 'hitcount.csv'),
						['path', 'total'] + list(kphit.CLASSES),
						[['b', 220, 151, 63, 4, 2]])
			vmlinux = os.path.join(d, 'ours-prod', 'obj', 'vmlinux')
			open(vmlinux, 'w').close()
			os.utime(vmlinux, (2e9, 2e9))
			out = io.StringIO()
			with contextlib.redirect_stdout(out):
				bench.hitcount(d, '-prod')
			self.assertIn('ours: hitcount.csv is older than its vmlinux (stale)',
				      out.getvalue())
			self.assertNotIn('baseline: hitcount.csv', out.getvalue())
			self.assertIn('      1.00', out.getvalue())
			self.assertTrue(os.path.exists(os.path.join(d, 'hitcount-prod.csv')))


if __name__ == '__main__':
	unittest.main()
