/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pt_regs save and restore strings for inline-assembly trampolines.
 *
 * This header is not used by kprobes itself (our trampolines are .S files
 * built on regs-macros.S).  It exists for arch/x86/kernel/rethook.c, the
 * return trampoline of rethook (fprobe, BPF kprobe_multi), which includes
 * it by this path as "kprobes/common.h".
 *
 * The contract rethook.c relies on:
 *
 *  - SAVE_REGS_STRING runs with the stack pointer at what becomes
 *    pt_regs::flags (the caller has pushed ss, sp and flags).  It stores
 *    every general-purpose register (and on 32-bit the data segment
 *    registers) into a struct pt_regs below that and leaves the stack
 *    pointer at the start of the struct.  pt_regs::orig_ax, ip and cs are
 *    left for the caller to fill in.  With frame pointers, the frame
 *    pointer register then holds the encoded pt_regs pointer.
 *  - RESTORE_REGS_STRING reloads the general-purpose registers from that
 *    struct (whatever a handler changed in it) and leaves the stack pointer
 *    at pt_regs::flags again.  Segment registers are not reloaded.
 *
 * The stores use fixed offsets, checked against struct pt_regs below.
 */
#ifndef _X86_KERNEL_KPROBES_COMMON_H
#define _X86_KERNEL_KPROBES_COMMON_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/stringify.h>
#include <asm/frame.h>
#include <asm/ptrace.h>

/* One store or load of a register at byte @off of the pt_regs frame. */
#define KP_REGS_ST(insn, reg, off)	"	" insn " %" #reg ", " #off "(%" KP_SP ")\n"
#define KP_REGS_LD(insn, reg, off)	"	" insn " " #off "(%" KP_SP "), %" #reg "\n"

#ifdef CONFIG_X86_64

#define KP_SP			"rsp"
/* Bytes from the start of struct pt_regs to its flags member. */
#define KP_REGS_TO_FLAGS	144

static_assert(offsetof(struct pt_regs, r15) == 0);
static_assert(offsetof(struct pt_regs, bx) == 40);
static_assert(offsetof(struct pt_regs, di) == 112);
static_assert(offsetof(struct pt_regs, flags) == KP_REGS_TO_FLAGS);

/* Every general-purpose register and its offset in struct pt_regs. */
#define KP_FOR_EACH_GPR(op, insn)				\
	op(insn, r15, 0) op(insn, r14, 8) op(insn, r13, 16)	\
	op(insn, r12, 24) op(insn, rbp, 32) op(insn, rbx, 40)	\
	op(insn, r11, 48) op(insn, r10, 56) op(insn, r9, 64)	\
	op(insn, r8, 72) op(insn, rax, 80) op(insn, rcx, 88)	\
	op(insn, rdx, 96) op(insn, rsi, 104) op(insn, rdi, 112)

#define SAVE_REGS_STRING					\
	"	subq $" __stringify(KP_REGS_TO_FLAGS) ", %rsp\n"	\
	KP_FOR_EACH_GPR(KP_REGS_ST, "movq")			\
	ENCODE_FRAME_POINTER

#define RESTORE_REGS_STRING					\
	KP_FOR_EACH_GPR(KP_REGS_LD, "movq")			\
	"	leaq " __stringify(KP_REGS_TO_FLAGS) "(%rsp), %rsp\n"

#else /* !CONFIG_X86_64 */

#define KP_SP			"esp"
#define KP_REGS_TO_FLAGS	56

static_assert(offsetof(struct pt_regs, bx) == 0);
static_assert(offsetof(struct pt_regs, ds) == 28);
static_assert(offsetof(struct pt_regs, fs) == 36);
static_assert(offsetof(struct pt_regs, flags) == KP_REGS_TO_FLAGS);

#define KP_FOR_EACH_GPR(op, insn)				\
	op(insn, ebx, 0) op(insn, ecx, 4) op(insn, edx, 8)	\
	op(insn, esi, 12) op(insn, edi, 16) op(insn, ebp, 20)	\
	op(insn, eax, 24)

/* %eax is free once saved: it carries the segment selectors. */
#define SAVE_REGS_STRING					\
	"	subl $" __stringify(KP_REGS_TO_FLAGS) ", %esp\n"	\
	KP_FOR_EACH_GPR(KP_REGS_ST, "movl")			\
	"	movl %ds, %eax\n"				\
	KP_REGS_ST("movl", eax, 28)				\
	"	movl %es, %eax\n"				\
	KP_REGS_ST("movl", eax, 32)				\
	"	movl %fs, %eax\n"				\
	KP_REGS_ST("movl", eax, 36)				\
	KP_REGS_LD("movl", eax, 24)				\
	ENCODE_FRAME_POINTER

#define RESTORE_REGS_STRING					\
	KP_FOR_EACH_GPR(KP_REGS_LD, "movl")			\
	"	leal " __stringify(KP_REGS_TO_FLAGS) "(%esp), %esp\n"

#endif /* CONFIG_X86_64 */

#endif /* _X86_KERNEL_KPROBES_COMMON_H */
