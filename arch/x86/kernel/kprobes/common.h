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

#define SAVE_REGS_STRING					\
	"	subq $" __stringify(KP_REGS_TO_FLAGS) ", %rsp\n"	\
	KP_REGS_ST("movq", rdi, 112)				\
	KP_REGS_ST("movq", rsi, 104)				\
	KP_REGS_ST("movq", rdx, 96)				\
	KP_REGS_ST("movq", rcx, 88)				\
	KP_REGS_ST("movq", rax, 80)				\
	KP_REGS_ST("movq", r8, 72)				\
	KP_REGS_ST("movq", r9, 64)				\
	KP_REGS_ST("movq", r10, 56)				\
	KP_REGS_ST("movq", r11, 48)				\
	KP_REGS_ST("movq", rbx, 40)				\
	KP_REGS_ST("movq", rbp, 32)				\
	KP_REGS_ST("movq", r12, 24)				\
	KP_REGS_ST("movq", r13, 16)				\
	KP_REGS_ST("movq", r14, 8)				\
	KP_REGS_ST("movq", r15, 0)				\
	ENCODE_FRAME_POINTER

#define RESTORE_REGS_STRING					\
	KP_REGS_LD("movq", r15, 0)				\
	KP_REGS_LD("movq", r14, 8)				\
	KP_REGS_LD("movq", r13, 16)				\
	KP_REGS_LD("movq", r12, 24)				\
	KP_REGS_LD("movq", rbp, 32)				\
	KP_REGS_LD("movq", rbx, 40)				\
	KP_REGS_LD("movq", r11, 48)				\
	KP_REGS_LD("movq", r10, 56)				\
	KP_REGS_LD("movq", r9, 64)				\
	KP_REGS_LD("movq", r8, 72)				\
	KP_REGS_LD("movq", rax, 80)				\
	KP_REGS_LD("movq", rcx, 88)				\
	KP_REGS_LD("movq", rdx, 96)				\
	KP_REGS_LD("movq", rsi, 104)				\
	KP_REGS_LD("movq", rdi, 112)				\
	"	leaq " __stringify(KP_REGS_TO_FLAGS) "(%rsp), %rsp\n"

#else /* !CONFIG_X86_64 */

#define KP_SP			"esp"
#define KP_REGS_TO_FLAGS	56

static_assert(offsetof(struct pt_regs, bx) == 0);
static_assert(offsetof(struct pt_regs, ds) == 28);
static_assert(offsetof(struct pt_regs, fs) == 36);
static_assert(offsetof(struct pt_regs, flags) == KP_REGS_TO_FLAGS);

/* %eax is free once saved: it carries the segment selectors. */
#define SAVE_REGS_STRING					\
	"	subl $" __stringify(KP_REGS_TO_FLAGS) ", %esp\n"	\
	KP_REGS_ST("movl", ebx, 0)				\
	KP_REGS_ST("movl", ecx, 4)				\
	KP_REGS_ST("movl", edx, 8)				\
	KP_REGS_ST("movl", esi, 12)				\
	KP_REGS_ST("movl", edi, 16)				\
	KP_REGS_ST("movl", ebp, 20)				\
	KP_REGS_ST("movl", eax, 24)				\
	"	movl %ds, %eax\n"				\
	KP_REGS_ST("movl", eax, 28)				\
	"	movl %es, %eax\n"				\
	KP_REGS_ST("movl", eax, 32)				\
	"	movl %fs, %eax\n"				\
	KP_REGS_ST("movl", eax, 36)				\
	KP_REGS_LD("movl", eax, 24)				\
	ENCODE_FRAME_POINTER

#define RESTORE_REGS_STRING					\
	KP_REGS_LD("movl", ebx, 0)				\
	KP_REGS_LD("movl", ecx, 4)				\
	KP_REGS_LD("movl", edx, 8)				\
	KP_REGS_LD("movl", esi, 12)				\
	KP_REGS_LD("movl", edi, 16)				\
	KP_REGS_LD("movl", ebp, 20)				\
	KP_REGS_LD("movl", eax, 24)				\
	"	leal " __stringify(KP_REGS_TO_FLAGS) "(%esp), %esp\n"

#endif /* CONFIG_X86_64 */

#endif /* _X86_KERNEL_KPROBES_COMMON_H */
