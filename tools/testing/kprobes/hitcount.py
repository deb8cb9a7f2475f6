# SPDX-License-Identifier: GPL-2.0
#
# hitcount.py - gdb script of hitcount.sh: the instruction trace of every
# probe hit of the bench module, for kphit.py to classify.
#
# Attached to QEMU's gdbstub at the guest's first instruction, it stops
# at the kernel's apply_relocate_add() or apply_relocate() (SHT_RELA or
# SHT_REL modules: i386 and arm relocate with the latter; both take the
# section headers and the string table first) until the module being
# relocated is kpbench.ko (its string table holds the module's symbol names where
# the file has them) and reads where its .text was put (the section
# headers' sh_addr: the ELF layout, no debug information needed).  It
# then stops at each probed function of the bench's paths (kphit.PATHS)
# and single-steps every call until it returns to its caller (QEMU masks
# interrupts and timers while stepping), writing to $HITCOUNT_OUT
#
#	module kpbench.ko TEXT
#	hit PATH			(one per call)
#	s PC SP RA [BYTES]		(one per instruction)
#
# RA is $HITCOUNT_RA, the arch file's return address of a function at its
# first instruction; BYTES, the first bytes at a PC outside the kernel's
# and the module's text (once per PC; none where the stub cannot read
# it).  It detaches after
# $HITCOUNT_N hits (three calls of each path) and the guest runs on.

import os
import sys

import gdb

sys.path.insert(0, os.environ['HITCOUNT_TOOLS'])
import kphit  # noqa: E402

OUT = os.environ.get('HITCOUNT_OUT', 'hitcount-trace.txt')
N = int(os.environ.get('HITCOUNT_N', str(3 * len(kphit.PATHS))))
RA = os.environ['HITCOUNT_RA']
ARGS = os.environ['HITCOUNT_ARGS'].split()
# No hit takes more than about 1,000: a trace this long has missed the
# return (it is marked "overrun" and left out by kphit.py).
STEP = os.environ.get('HITCOUNT_STEP', '')
MAX_STEPS = int(os.environ.get('HITCOUNT_MAX_STEPS', '20000'))
# The module loader's relocation functions (kernel/module/main.c's
# apply_relocations()): SHT_RELA sections go to the first, SHT_REL ones to
# the second; either can be kpbench.ko's, the other is a weak stub.
RELOC_FUNCS = ('apply_relocate_add', 'apply_relocate')
inferior = gdb.selected_inferior()


def val(expr):
	v = int(gdb.parse_and_eval('(unsigned long)(%s)' % expr))
	return v & ((1 << 64) - 1)


def mem(addr, n):
	return bytes(inferior.read_memory(addr, n))


def module_text(ko):
	"""kpbench.ko's .text address if apply_relocate_add() or
	apply_relocate() is relocating it, else None."""
	e = kphit.Elf(ko)
	# A handler's name, where the file's symbol string table has it.
	want = kphit.HANDLERS[0].encode() + b'\0'
	strtab = e.sections[next(s for s in e.sections
				 if s['type'] == kphit.SHT_SYMTAB)['link']]
	off = e.data.index(want, strtab['offset']) - strtab['offset']
	sechdrs, strs = val(ARGS[0]), val(ARGS[1])
	if mem(strs + off, len(want)) != want:
		return None
	ti = e.section_index('.text')
	size, addr_off, word = (64, 16, 8) if e.is64 else (40, 12, 4)
	return int.from_bytes(mem(sechdrs + ti * size + addr_off, word),
			      'little' if e.order == '<' else 'big')


def step():
	"""One instruction: gdb's stepi, or the arch file's HITCOUNT_STEP
	where gdb would step in software (riscv: breakpoints after the
	instruction, which a trap runs past), then re-read the registers."""
	if not STEP:
		gdb.execute('stepi', to_string=True)
		return
	gdb.execute(STEP, to_string=True)
	gdb.execute('maintenance flush register-cache', to_string=True)


def trace_call(out, kernel_text, mod_text):
	"""Step from a function's first instruction until it returns."""
	sp0, ra0 = val('$sp'), val(RA)
	seen = set()
	for n in range(MAX_STEPS):
		if n % 1000 == 999:
			out.flush()
		pc, sp = val('$pc'), val('$sp')
		try:
			ra = '%x' % val(RA)
		except gdb.error:
			ra = '-'
		line = 's %x %x %s' % (pc, sp, ra)
		if pc not in seen and not any(lo <= pc < hi for lo, hi in
					      (kernel_text, mod_text)):
			seen.add(pc)
			try:
				line += ' ' + mem(pc, kphit.COPY_BYTES).hex()
			except gdb.MemoryError:
				# Not mapped for the stub's reads (mips: a slot
				# in KSEG2 outside the TLB): no bytes, no copy.
				pass
		out.write(line + '\n')
		step()
		if val('$pc') == ra0 and val('$sp') >= sp0:
			return
	out.write('overrun\n')


def main():
	ko = os.environ['HITCOUNT_KO']
	kernel_text = (val('&_stext'), val('&_etext'))
	relocs = []
	for fn in RELOC_FUNCS:
		try:
			gdb.parse_and_eval('&' + fn)
		except gdb.error:
			continue
		relocs.append(gdb.Breakpoint(fn, internal=True))
	text = None
	while text is None:
		gdb.execute('continue', to_string=True)
		text = module_text(ko)
	for b in relocs:
		b.delete()
	e = kphit.Elf(ko)
	ti = e.section_index('.text')
	mod_text = (text, text + e.sections[ti]['size'])
	syms = {s[0]: s[1] for s in e.symbols() if s[4] == ti}
	at = {}
	for path, sym in kphit.PATHS:
		at[text + syms[sym]] = path
		gdb.Breakpoint('*0x%x' % (text + syms[sym]), internal=True)
	with open(OUT, 'w') as out:
		out.write('module %s %x\n' % (kphit.MODULE, text))
		for _ in range(N):
			try:
				gdb.execute('continue', to_string=True)
			except gdb.error:
				break
			path = at.get(val('$pc'))
			if path is None:
				continue
			out.write('hit %s\n' % path)
			trace_call(out, kernel_text, mod_text)
			out.flush()
	gdb.execute('delete')
	gdb.execute('detach')


main()
