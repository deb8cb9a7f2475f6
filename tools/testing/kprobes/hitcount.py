# SPDX-License-Identifier: GPL-2.0
#
# hitcount.py - gdb script of hitcount.sh: count the instructions of probe
# hits, one line per hit.
#
# Attached to QEMU's gdbstub, it stops at each function named in
# $HITCOUNT_FUNCS (default: the x86 optimized-probe handler and the
# kretprobe trampoline's C callback), single-steps until that call
# returns (x86-64 and riscv64: where the return address is) (QEMU masks interrupts and timers while stepping), and appends
# to $HITCOUNT_OUT "FUNCTION COUNT {function: instructions, ...}": where
# the instructions of that call went, by symbol.  It detaches after
# $HITCOUNT_N hits, and the guest runs on.

import collections
import os

import gdb

OUT = os.environ.get("HITCOUNT_OUT", "hitcount.txt")
N = int(os.environ.get("HITCOUNT_N", "18"))
FUNCS = os.environ.get("HITCOUNT_FUNCS",
                       "arch_optprobe_handler "
                       "kretprobe_trampoline_handler").split()
MASK = (1 << 64) - 1
symbols = {}


def reg(name):
    return int(gdb.parse_and_eval(name)) & MASK


def symbol(pc):
    if pc not in symbols:
        s = gdb.execute("info symbol 0x%x" % pc, to_string=True).strip()
        # "name + off in section .text" or "No symbol matches ..."
        symbols[pc] = ("0x%x" % pc if s.startswith("No symbol")
                       else s.split(" in section")[0].split(" + ")[0])
    return symbols[pc]


def return_address():
    """Where the call stopped at its first instruction returns to."""
    arch = gdb.selected_frame().architecture().name()
    if arch.startswith("riscv"):
        return reg("$ra")
    # x86: the call pushed it.
    return int(gdb.parse_and_eval("*(unsigned long *)$sp")) & MASK


def count_call():
    """Step from a function's first instruction until it returns."""
    sp0 = reg("$sp")
    ret = return_address()
    funcs = collections.Counter()
    n = 0
    while n < 100000:
        funcs[symbol(reg("$pc"))] += 1
        gdb.execute("stepi", to_string=True)
        n += 1
        # x86's ret pops the address; riscv's sp is back where it was.
        if reg("$pc") == ret and reg("$sp") >= sp0:
            break
    return n, dict(funcs)


addr_of = {}
for f in FUNCS:
    gdb.Breakpoint(f)
    addr_of[int(gdb.parse_and_eval("(unsigned long)&%s" % f)) & MASK] = f

with open(OUT, "w") as out:
    for _ in range(N):
        try:
            gdb.execute("continue", to_string=True)
        except gdb.error:
            break
        where = addr_of.get(reg("$pc"), "0x%x" % reg("$pc"))
        n, funcs = count_call()
        out.write("%s %d %s\n" % (where, n, funcs))
        out.flush()

gdb.execute("delete")
gdb.execute("detach")
