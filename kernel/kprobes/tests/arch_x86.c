// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobes API suites must know of x86 (kprobes_kunit.h): the
 * kernel's instruction decoder gives the boundaries, ENDBR and the fentry
 * call open a function, INT3 pads between functions.
 */

#include <linux/ftrace.h>
#include <linux/mm.h>
#include <asm/ibt.h>
#include <asm/insn.h>
#include <asm/text-patching.h>
#include <asm/vsyscall.h>

#include "kprobes_kunit.h"

unsigned long kpkt_arch_entry_end(unsigned long start)
{
	unsigned long fentry = ftrace_location(start);

	if (fentry)
		return fentry + MCOUNT_INSN_SIZE;
	if (is_endbr(*(u32 *)start))
		return start + ENDBR_INSN_SIZE;
	return start;
}

int kpkt_arch_insn(unsigned long addr, bool *ret, bool *pad)
{
	struct insn insn;
	int err = insn_decode_kernel(&insn, (void *)addr);

	if (err < 0)
		return err;
	*ret = insn.opcode.bytes[0] == RET_INSN_OPCODE;
	*pad = insn.opcode.bytes[0] == INT3_INSN_OPCODE;
	return insn.length;
}

const char *const kpkt_arch_refused[] = {
	"kprobe_int3_handler",
	NULL
};

/* The first argument: %rdi, or %eax on i386 (regparm(3)). */
void kpkt_arch_set_arg0(struct pt_regs *regs, unsigned long v)
{
	if (IS_ENABLED(CONFIG_X86_64))
		regs->di = v;
	else
		regs->ax = v;
}

unsigned long kpkt_arch_user_text(void)
{
	if (IS_ENABLED(CONFIG_X86_64) && in_gate_area_no_mm(VSYSCALL_ADDR))
		return VSYSCALL_ADDR;
	return 0;
}
