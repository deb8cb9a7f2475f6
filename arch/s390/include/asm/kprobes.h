/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * s390 side of the kprobes architecture contract (<linux/kprobes_arch.h>).
 *
 * A probe is the two-byte 0x0002 over the first halfword of the probed
 * instruction: no instruction has that opcode, so the CPU takes an
 * operation exception, which the program-check code hands to the die
 * notifier as DIE_BPT.  A halfword store is atomic and every instruction
 * starts on a halfword, so arming and disarming are single stores.
 *
 * The probed instruction runs out of line: its copy sits in an
 * instruction slot followed by breakpoints, and the CPU is sent there with
 * I/O and external interrupts masked; the breakpoint after the copy ends
 * the step, and the pc and a return register that point into the slot
 * are moved back to the probed text.  Branches are simulated instead:
 * a taken one would never come back to that breakpoint.  (Upstream
 * steps with PER instruction-fetch events; under QEMU 7.2's TCG those
 * report a taken branch as not taken.)  Which instructions must not run
 * out of line comes from arch/s390/lib/probes.c, shared with uprobes.
 * Relative-long operand addresses (larl, lgrl, ...) are rewritten in the
 * copy, which is why the slot page lies near every text: it comes from
 * the top of the module area, which ends where the kernel image starts.
 * The code is in arch/s390/kernel/probes/.
 */
#ifndef _ASM_S390_KPROBES_H
#define _ASM_S390_KPROBES_H

#include <asm-generic/kprobes.h>
#include <linux/types.h>

/*
 * arch/s390/lib/probes.c, shared with uprobes: is an instruction one that
 * must not run out of line (-EINVAL), and is it relative-long?
 */
int probe_is_insn_relative_long(u16 *insn);
int probe_is_prohibited_opcode(u16 *insn);

/*
 * How an instruction executed out of line is fixed up afterwards, as
 * probe_get_fixup_type() of the same file tells:
 */
int probe_get_fixup_type(u16 *insn);
/* nothing: the instruction loads a whole new PSW */
#define FIXUP_NOT_REQUIRED	0x01
/* R1 holds a link address past the copy: moved back to the text */
#define FIXUP_RETURN_REGISTER	0x02
/* a branch to a register: only a pc right after the copy is moved */
#define FIXUP_BRANCH_NOT_TAKEN	0x04
/* the pc is made relative to the original instruction again */
#define FIXUP_PSW_NORMAL	0x08

/* The probe; also what fills unused slot space. */
#define BREAKPOINT_INSTRUCTION	0x0002

#ifdef CONFIG_KPROBES

#include <linux/percpu.h>
#include <linux/ptrace.h>

typedef u16 kprobe_opcode_t;

/* The longest instruction: three halfwords. */
#define MAX_INSN_SIZE		3

/*
 * A slot, one KPROBE_SLOT_UNIT of 16 bytes, written whole: the copy of the
 * instruction (2, 4 or 6 bytes), then breakpoints, the first of which
 * ends the step.
 */
#define KPROBE_SLOT_BYTES	16

/**
 * struct arch_specific_insn - s390 per-probe data
 * @slot: the copy of the instruction (a branch's too, read by its
 *	simulation), NULL for a site on an ftrace call
 * @len: the instruction's length in bytes
 * @fixup: FIXUP_* of the instruction, for the end of its step, and
 *	KPROBE_FIXUP_BRANCH (arch/s390/kernel/probes/) for a branch,
 *	KPROBE_FIXUP_MOVE for a register load
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	u8 len;
	u8 fixup;
};

/*
 * The per-CPU state machine is <asm-generic/kprobes-cpu.h>'s, drawn
 * there.  On s390 a hit is the operation exception of 0x0002: the pre
 * handler runs (1), then a branch is simulated (2), (4), or the CPU goes
 * to the slot (3), and the breakpoint after the copy ends the step (5),
 * (6).  The probed context's I/O and external interrupt mask bits are
 * kprobe_ctlblk::saved_irq while the copy runs with both masked.  A push
 * needs a hit from a handler, from a busy section or from the fault path
 * of a copy.
 */
#include <asm-generic/kprobes-cpu.h>

/* Called by do_exception() through kprobe_page_fault(). */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);

/* The return trampoline of kretprobes (kretprobe_trampoline.S). */
void arch_kretprobe_trampoline(void);

#endif /* CONFIG_KPROBES */

#endif /* _ASM_S390_KPROBES_H */
