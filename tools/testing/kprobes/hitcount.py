# SPDX-License-Identifier: GPL-2.0
#
# hitcount.py - gdb script of hitcount.sh: the instruction trace of every
# probe hit of the bench module, for kphit.py to classify.
#
# Attached to QEMU's gdbstub at the guest's first instruction, it stops
# at the kernel's apply_relocate_add() or apply_relocate() (SHT_RELA or
# SHT_REL modules: i386 and arm relocate with the latter; both take the
# section headers first; at the function's local entry point too where
# the ABI has one, $HITCOUNT_VMLINUX's symbol table says) until the module being relocated is kpbench.ko
# (the loader's copy of its .text section header is the file's but for
# sh_addr and sh_entsize) and reads where its .text was put (that
# header's sh_addr: the ELF layout, no debug information needed).  It
# then stops at each probed function of the bench's paths (kphit.PATHS;
# on powerpc o's and ro's callers of a kernel function instead,
# kphit.KERNEL_TEXT_PATHS)
# and single-steps every call until it returns to its caller (QEMU masks
# interrupts and timers while stepping), writing to $HITCOUNT_OUT
#
#	module kpbench.ko TEXT
#	section INDEX ADDRESS		(its other code sections, if any)
#	hit PATH			(one per call)
#	s PC SP RA [BYTES]		(one per instruction)
#
# No probed function may open the module's text (kpbench's Makefile puts
# kpb_t_plain there): stopped at a function's first instruction, gdb
# reads the word before it, and where that word is on an unmapped page,
# QEMU 7.2's sparc64 stub leaves the failed translation's data-miss trap
# pending for the guest, which oopses.
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
# The stack grows up (parisc): a frame deeper than the caller's has a
# higher stack pointer.
STACK_UP = os.environ.get('HITCOUNT_STACK_UP') == '1'
MAX_STEPS = int(os.environ.get('HITCOUNT_MAX_STEPS', '20000'))
# Back in the caller: at the return address, or the instruction after it
# where one step ran both (QEMU 7.2's s390x stub, over upstream's
# kretprobe trampoline's branch back).
RETURN_SLACK = 8
# Steps into a relocation function before its module is given up.
MAX_READ_STEPS = 200
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
	"""(.text's address, the loader's section headers) if
	apply_relocate_add() or apply_relocate() is relocating kpbench.ko,
	else None: the loader's copy of its .text section header is the
	file's but for sh_addr, where the module went, and sh_entsize
	(kphit.Elf.loaded_at())."""
	e = kphit.Elf(ko)
	ti = e.section_index('.text')
	sechdrs = val(ARGS[0])
	at = sechdrs + ti * e.shentsize
	# Where the stub reads through the TLB alone (sparc64, mips), the
	# loader's vmalloc copy may be unmapped for it: step on until it
	# can be read (on sparc64 the failed read's pending trap, above,
	# has the guest map it).
	for _ in range(MAX_READ_STEPS):
		try:
			text = e.loaded_at(ti, mem(at, e.shentsize))
			return None if text is None else (text, sechdrs)
		except gdb.MemoryError:
			step()
	return None


def code_sections(e, sechdrs):
	"""{index: address} of the module's code sections but .text, where
	a compiler puts each function in a section of its own (parisc's
	-ffunction-sections), from the loader's section headers."""
	out = {}
	for i, sec in enumerate(e.sections):
		if not sec['flags'] & kphit.SHF_EXECINSTR or not sec['size'] or \
		   sec['name'] == '.text':
			continue
		try:
			a = e.loaded_at(i, mem(sechdrs + i * e.shentsize, e.shentsize))
		except gdb.MemoryError:
			continue
		if a:
			out[i] = a
	return out


def step():
	"""One instruction: gdb's stepi, or the arch file's HITCOUNT_STEP
	where gdb would step in software (riscv: breakpoints after the
	instruction, which a trap runs past), then re-read the registers."""
	if not STEP:
		gdb.execute('stepi', to_string=True)
		return
	gdb.execute(STEP, to_string=True)
	gdb.execute('maintenance flush register-cache', to_string=True)


def trace_call(out, texts):
	"""Step from a function's first instruction until it returns;
	texts: the (start, end) of the kernel's text and the module's."""
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
		if pc not in seen and not any(lo <= pc < hi for lo, hi in texts):
			seen.add(pc)
			try:
				line += ' ' + mem(pc, kphit.COPY_BYTES).hex()
			except gdb.MemoryError:
				# Not mapped for the stub's reads (mips: a slot
				# in KSEG2 outside the TLB): no bytes, no copy.
				pass
		out.write(line + '\n')
		step()
		sp = val('$sp')
		if 0 <= val('$pc') - ra0 < RETURN_SLACK and \
		   (sp <= sp0 if STACK_UP else sp >= sp0):
			return
	out.write('overrun\n')


def main():
	ko = os.environ['HITCOUNT_KO']
	vmlinux = kphit.Elf(os.environ['HITCOUNT_VMLINUX'])
	relocs = []
	for fn in RELOC_FUNCS:
		try:
			gdb.parse_and_eval('&' + fn)
		except gdb.error:
			continue
		# At the first instruction, where the arguments are still
		# in their registers (not after a prologue gdb skips: on
		# sparc a "save" moves them to the %i registers), and at the
		# local entry point where there is one (ppc64le: the
		# kernel's own calls skip the global entry's TOC setup).
		relocs.append(gdb.Breakpoint('*' + fn, internal=True))
		local = vmlinux.local_entry(fn)
		if local:
			relocs.append(gdb.Breakpoint('*(%s + %d)' % ('(char *)&' + fn, local),
						     internal=True))
	found = None
	while found is None:
		gdb.execute('continue', to_string=True)
		found = module_text(ko)
	for b in relocs:
		b.delete()
	text, sechdrs = found
	e = kphit.Elf(ko)
	ti = e.section_index('.text')
	secs = code_sections(e, sechdrs)
	secs[ti] = text
	texts = [(val('&_stext'), val('&_etext'))] + \
		[(a, a + e.sections[i]['size']) for i, a in secs.items()]
	syms = {s[0]: secs[s[4]] + s[1] for s in e.symbols() if s[4] in secs}
	at = {}
	for path, sym in kphit.PATHS:
		for s in (sym, kphit.KERNEL_TEXT_PATHS.get(path)):
			if s not in syms:
				continue
			# Both entries of a ppc64le function (a call from
			# the module itself takes the local one).
			for a in {syms[s], syms[s] + e.local_entry(s)}:
				at[a] = path
				gdb.Breakpoint('*0x%x' % a, internal=True)
	with open(OUT, 'w') as out:
		out.write('module %s %x\n' % (kphit.MODULE, text))
		for i, a in sorted(secs.items()):
			if i != ti:
				out.write('section %d %x\n' % (i, a))
		for _ in range(N):
			try:
				gdb.execute('continue', to_string=True)
			except gdb.error:
				break
			path = at.get(val('$pc'))
			if path is None:
				continue
			out.write('hit %s\n' % path)
			trace_call(out, texts)
			out.flush()
	gdb.execute('delete')
	gdb.execute('detach')


main()
