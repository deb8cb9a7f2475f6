# SPDX-License-Identifier: GPL-2.0
#
# kparch.py - the architecture files, arch/<name>.sh, read from python
# (parse.py, the tests); lib.sh reads them in bash.  Their format and
# keys, with the defaults, are arch-defaults.sh's comments.
#
# The reader is strict where bash would not be, so that both read the
# same values: KEY=word, KEY='...' or KEY="..." (a double-quoted value
# takes no backslash, backquote, or "$" other than at the end of a line),
# comments and blank lines, nothing else; a key arch-defaults.sh does not
# assign is an error.

import glob
import os
import re
import shlex

TOOLS = os.path.dirname(os.path.abspath(__file__))
ARCH_DIR = os.path.join(TOOLS, 'arch')
DEFAULTS = os.path.join(TOOLS, 'arch-defaults.sh')

_ASSIGN = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)=')
_WORD = re.compile(r'[A-Za-z0-9_.,:/+=@%-]*')


class ArchFileError(ValueError):
	pass


def read_file(path, keys=None):
	"""{KEY: value} of one file; keys: the allowed ones (None: any)."""
	with open(path) as f:
		text = f.read()
	values = {}
	pos = 0
	line = 1
	while pos < len(text):
		end = text.find('\n', pos)
		end = len(text) if end < 0 else end
		stripped = text[pos:end].strip()
		if not stripped or stripped.startswith('#'):
			pos = end + 1
			line += 1
			continue
		m = _ASSIGN.match(text, pos)
		if not m:
			raise ArchFileError(f'{path}:{line}: not KEY=value: {stripped}')
		key = m.group(1)
		if keys is not None and key not in keys:
			raise ArchFileError(f'{path}:{line}: unknown key {key}')
		start = m.end()
		q = text[start:start + 1]
		if q in ("'", '"'):
			close = text.find(q, start + 1)
			if close < 0:
				raise ArchFileError(f'{path}:{line}: {key}: no closing {q}')
			raw = text[start:close + 1]
			body = raw[1:-1]
			if q == '"' and (re.search(r'[\\`]|\$(?!\n|$)', body)):
				raise ArchFileError(f'{path}:{line}: {key}: "\\", "`" or "$" '
						    'inside double quotes')
			after = close + 1
		else:
			w = _WORD.match(text, start)
			raw = w.group(0)
			after = w.end()
		rest = text[after:text.find('\n', after) if '\n' in text[after:] else len(text)]
		if rest.strip():
			raise ArchFileError(f'{path}:{line}: {key}: trailing {rest.strip()!r}')
		values[key] = shlex.split(raw)[0] if raw else ''
		line += text.count('\n', pos, after)
		pos = after
	return values


def defaults():
	return read_file(DEFAULTS)


def names():
	"""The architectures: one file each."""
	return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ARCH_DIR, '*.sh')))


def load(name):
	"""Every key of architecture name, defaults filled in."""
	conf = defaults()
	own = read_file(os.path.join(ARCH_DIR, name + '.sh'), set(conf))
	# A configuration of another architecture: its keys, then the own.
	if own.get('VARIANT_OF'):
		conf.update(read_file(os.path.join(ARCH_DIR, own['VARIANT_OF'] + '.sh'),
				      set(conf)))
	conf.update(own)
	return conf


def load_all():
	return {name: load(name) for name in names()}


def lines(value):
	"""A list value of one item a line, without the blank lines."""
	return [item.strip() for item in value.split('\n') if item.strip()]


def known_reports(text, where='CONSOLE_KNOWN'):
	"""parse.py's known reports from a CONSOLE_KNOWN value: a tuple each of
	(regex of the first line, config lines needed, config lines absent,
	why, tuple of body regexes), see arch-defaults.sh."""
	reports = []
	cur = None
	for item in lines(text):
		field, sep, value = item.partition(':')
		value = value.strip()
		if not sep or field not in ('report', 'config', 'body', 'why'):
			raise ArchFileError(f'{where}: not "report|config|body|why: ...": {item}')
		if field == 'report':
			cur = [re.compile(value), [], [], '', []]
			reports.append(cur)
			continue
		if cur is None:
			raise ArchFileError(f'{where}: {field}: before any "report:"')
		if field == 'config':
			for c in value.split():
				(cur[2] if c.startswith('!') else cur[1]).append(c.lstrip('!'))
		elif field == 'body':
			cur[4].append(re.compile(value))
		else:
			cur[3] = f'{cur[3]} {value}'.strip()
	for r in reports:
		if not r[3]:
			raise ArchFileError(f'{where}: {r[0].pattern}: no "why:"')
	return [(r[0], r[1], r[2], r[3], tuple(r[4])) for r in reports]
