// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite of riscv's back-end, on the helpers of the generic kprobes
 * suites (kernel/kprobes/tests/kprobes_kunit.h):
 *
 *   kprobes_riscv_simulate  register-only instructions computed in the
 *                           ebreak handler (simulate.c): each kind, 32-bit
 *                           and compressed, gives the result written out
 *                           here, takes one ebreak (post handler
 *                           included), sp written included; and what stays
 *                           in a slot (M extension, loads and stores)
 *                           still runs there
 *
 * Whether a site is simulated is asked of the architecture
 * (kpkt_site_boostable(), arch_kprobe_boostable()): the suite runs when
 * built in.
 */

#include <linux/module.h>
#include <asm/ptrace.h>

#include "kprobes_kunit.h"
#include "simulate_kunit.h"

/* The operand the register-pair targets load into a1 first. */
#define KPRS_K		0x155L

/* What a target returns for x: written out, not asked of the CPU. */
enum kprs_result {
	KPRS_X,			/* x */
	KPRS_INC,		/* x + 1 */
	KPRS_ADDI,		/* x + 0x123 */
	KPRS_ADDI_NEG,		/* x - 2048 */
	KPRS_ADDIW,		/* (s32)(x + 1) */
	KPRS_LUI,		/* (s32)0x80000000 */
	KPRS_NOT,		/* ~x */
	KPRS_ANDI,		/* x & 0x7f0 */
	KPRS_ORI,		/* x | -2048 */
	KPRS_SLTI,		/* x < 5 */
	KPRS_SLTIU,		/* (unsigned)x < 5 */
	KPRS_SLLI,		/* x << 35 */
	KPRS_SRLI,		/* (unsigned)x >> 7 */
	KPRS_SRAI,		/* x >> 63 */
	KPRS_SLLIW,		/* (s32)(x << 31) */
	KPRS_SRLIW,		/* (s32)((u32)x >> 4) */
	KPRS_SRAIW,		/* (s32)x >> 4 */
	KPRS_ADD_K,		/* x + K */
	KPRS_SUB_K,		/* x - K */
	KPRS_AND_K,		/* x & K */
	KPRS_OR_K,		/* x | K */
	KPRS_XOR_K,		/* x ^ K */
	KPRS_SLTZ,		/* x < 0 */
	KPRS_SNEZ,		/* x != 0 */
	KPRS_SLL,		/* x << (x & 63) */
	KPRS_SRL,		/* (unsigned)x >> (x & 63) */
	KPRS_SRA,		/* x >> (x & 63) */
	KPRS_ADDW,		/* (s32)(2 * x) */
	KPRS_NEGW,		/* (s32)-x */
	KPRS_SLLW,		/* (s32)((u32)x << (x & 31)) */
	KPRS_SRLW,		/* (s32)((u32)x >> (x & 31)) */
	KPRS_SRAW,		/* (s32)x >> (x & 31) */
	KPRS_SQUARE,		/* x * x */
	KPRS_SP32,		/* 32: how far sp moved */
	KPRS_SP64,		/* 64 */
	KPRS_C_ADDI,		/* x - 3 */
	KPRS_C_LI,		/* -17 */
	KPRS_C_LUI,		/* -0x1f000 */
	KPRS_C_SRLI,		/* (unsigned)x >> 3 */
	KPRS_C_SRAI,		/* x >> 60 */
	KPRS_C_ANDI,		/* x & -16 */
	KPRS_C_SLLI,		/* x << 13 */
	KPRS_SUBW_K,		/* (s32)(x - K) */
	KPRS_ADDW_K,		/* (s32)(x + K) */
	KPRS_K_ONLY,		/* K */
};

/**
 * struct kprs_target - one probed instruction
 * @insn: the instruction, for the messages
 * @fn: its target
 * @off: the probe's offset in @fn
 * @result: what @fn returns
 * @simulated: computed in the ebreak handler (else stepped in a slot)
 * @rvc: a compressed instruction (skipped without CONFIG_RISCV_ISA_C)
 */
struct kprs_target {
	const char *insn;
	kpkt_fn_t fn;
	u8 off;
	u8 result;
	bool simulated;
	bool rvc;
};

#define KPRS_SIM(i, f, o, r)	{ i, f, o, r, true, false }
#define KPRS_STEP(i, f, o, r)	{ i, f, o, r, false, false }
#define KPRS_C(i, f, o, r)	{ i, f, o, r, true, true }

static const struct kprs_target kprs_targets[] = {
	KPRS_SIM("addi a0, a0, 0x123",	kprs_addi,	0, KPRS_ADDI),
	KPRS_SIM("addi a0, a0, -2048",	kprs_addi_neg,	0, KPRS_ADDI_NEG),
	KPRS_SIM("mv a1, a0",		kprs_mv,	0, KPRS_INC),
	KPRS_SIM("nop",			kprs_nop,	0, KPRS_INC),
	KPRS_SIM("addiw a0, a0, 1",	kprs_addiw,	0, KPRS_ADDIW),
	KPRS_SIM("lui a0, 0x80000",	kprs_lui,	0, KPRS_LUI),
	KPRS_SIM("xori a0, a0, -1",	kprs_xori,	0, KPRS_NOT),
	KPRS_SIM("andi a0, a0, 0x7f0",	kprs_andi,	0, KPRS_ANDI),
	KPRS_SIM("ori a0, a0, -2048",	kprs_ori,	0, KPRS_ORI),
	KPRS_SIM("slti a0, a0, 5",	kprs_slti,	0, KPRS_SLTI),
	KPRS_SIM("sltiu a0, a0, 5",	kprs_sltiu,	0, KPRS_SLTIU),
	KPRS_SIM("slli a0, a0, 35",	kprs_slli,	0, KPRS_SLLI),
	KPRS_SIM("srli a0, a0, 7",	kprs_srli,	0, KPRS_SRLI),
	KPRS_SIM("srai a0, a0, 63",	kprs_srai,	0, KPRS_SRAI),
	KPRS_SIM("slliw a0, a0, 31",	kprs_slliw,	0, KPRS_SLLIW),
	KPRS_SIM("srliw a0, a0, 4",	kprs_srliw,	0, KPRS_SRLIW),
	KPRS_SIM("sraiw a0, a0, 4",	kprs_sraiw,	0, KPRS_SRAIW),
	KPRS_SIM("add a0, a0, a1",	kprs_add,	4, KPRS_ADD_K),
	KPRS_SIM("sub a0, a0, a1",	kprs_sub,	4, KPRS_SUB_K),
	KPRS_SIM("and a0, a0, a1",	kprs_and,	4, KPRS_AND_K),
	KPRS_SIM("or a0, a0, a1",	kprs_or,	4, KPRS_OR_K),
	KPRS_SIM("xor a0, a0, a1",	kprs_xor,	4, KPRS_XOR_K),
	KPRS_SIM("slt a0, a0, zero",	kprs_slt,	0, KPRS_SLTZ),
	KPRS_SIM("sltu a0, zero, a0",	kprs_sltu,	0, KPRS_SNEZ),
	KPRS_SIM("sll a0, a0, a0",	kprs_sll,	0, KPRS_SLL),
	KPRS_SIM("srl a0, a0, a0",	kprs_srl,	0, KPRS_SRL),
	KPRS_SIM("sra a0, a0, a0",	kprs_sra,	0, KPRS_SRA),
	KPRS_SIM("addw a0, a0, a0",	kprs_addw,	0, KPRS_ADDW),
	KPRS_SIM("subw a0, zero, a0",	kprs_subw,	0, KPRS_NEGW),
	KPRS_SIM("sllw a0, a0, a0",	kprs_sllw,	0, KPRS_SLLW),
	KPRS_SIM("srlw a0, a0, a0",	kprs_srlw,	0, KPRS_SRLW),
	KPRS_SIM("sraw a0, a0, a0",	kprs_sraw,	0, KPRS_SRAW),
	KPRS_SIM("addi sp, sp, -32",	kprs_addi_sp,	4, KPRS_SP32),
	KPRS_STEP("mul a0, a0, a0",	kprs_mul,	0, KPRS_SQUARE),
	KPRS_STEP("sd a0, 8(sp)",	kprs_sd_ld,	8, KPRS_X),
	KPRS_STEP("ld a0, 8(sp)",	kprs_sd_ld,	16, KPRS_X),
	KPRS_C("c.nop",			kprs_c_nop,	0, KPRS_INC),
	KPRS_C("c.addi a0, -3",		kprs_c_addi,	0, KPRS_C_ADDI),
	KPRS_C("c.addiw a0, 1",		kprs_c_addiw,	0, KPRS_ADDIW),
	KPRS_C("c.li a0, -17",		kprs_c_li,	0, KPRS_C_LI),
	KPRS_C("c.lui a0, 0xfffe1",	kprs_c_lui,	0, KPRS_C_LUI),
	KPRS_C("c.srli a0, 3",		kprs_c_srli,	0, KPRS_C_SRLI),
	KPRS_C("c.srai a0, 60",		kprs_c_srai,	0, KPRS_C_SRAI),
	KPRS_C("c.andi a0, -16",	kprs_c_andi,	0, KPRS_C_ANDI),
	KPRS_C("c.slli a0, 13",		kprs_c_slli,	0, KPRS_C_SLLI),
	KPRS_C("c.sub a0, a1",		kprs_c_sub,	4, KPRS_SUB_K),
	KPRS_C("c.xor a0, a1",		kprs_c_xor,	4, KPRS_XOR_K),
	KPRS_C("c.or a0, a1",		kprs_c_or,	4, KPRS_OR_K),
	KPRS_C("c.and a0, a1",		kprs_c_and,	4, KPRS_AND_K),
	KPRS_C("c.subw a0, a1",		kprs_c_subw,	4, KPRS_SUBW_K),
	KPRS_C("c.addw a0, a1",		kprs_c_addw,	4, KPRS_ADDW_K),
	KPRS_C("c.mv a0, a1",		kprs_c_mv,	4, KPRS_K_ONLY),
	KPRS_C("c.add a0, a1",		kprs_c_add,	4, KPRS_ADD_K),
	KPRS_C("c.addi16sp sp, -64",	kprs_c_addi16sp, 4, KPRS_SP64),
};

static long kprs_want(const struct kprs_target *t, long x)
{
	unsigned long u = x;

	switch (t->result) {
	case KPRS_X:		return x;
	case KPRS_INC:		return x + 1;
	case KPRS_ADDI:		return x + 0x123;
	case KPRS_ADDI_NEG:	return x - 2048;
	case KPRS_ADDIW:	return (s32)(u32)(u + 1);
	case KPRS_LUI:		return (s32)0x80000000U;
	case KPRS_NOT:		return ~x;
	case KPRS_ANDI:		return x & 0x7f0;
	case KPRS_ORI:		return x | -2048L;
	case KPRS_SLTI:		return x < 5;
	case KPRS_SLTIU:	return u < 5;
	case KPRS_SLLI:		return u << 35;
	case KPRS_SRLI:		return u >> 7;
	case KPRS_SRAI:		return x >> 63;
	case KPRS_SLLIW:	return (s32)((u32)u << 31);
	case KPRS_SRLIW:	return (s32)((u32)u >> 4);
	case KPRS_SRAIW:	return (s32)u >> 4;
	case KPRS_ADD_K:	return x + KPRS_K;
	case KPRS_SUB_K:	return x - KPRS_K;
	case KPRS_AND_K:	return x & KPRS_K;
	case KPRS_OR_K:		return x | KPRS_K;
	case KPRS_XOR_K:	return x ^ KPRS_K;
	case KPRS_SLTZ:		return x < 0;
	case KPRS_SNEZ:		return x != 0;
	case KPRS_SLL:		return u << (u & 63);
	case KPRS_SRL:		return u >> (u & 63);
	case KPRS_SRA:		return x >> (u & 63);
	case KPRS_ADDW:		return (s32)(u32)(2 * u);
	case KPRS_NEGW:		return (s32)(u32)-u;
	case KPRS_SLLW:		return (s32)((u32)u << (u & 31));
	case KPRS_SRLW:		return (s32)((u32)u >> (u & 31));
	case KPRS_SRAW:		return (s32)u >> (u & 31);
	case KPRS_SQUARE:	return u * u;
	case KPRS_SP32:		return 32;
	case KPRS_SP64:		return 64;
	case KPRS_C_ADDI:	return x - 3;
	case KPRS_C_LI:		return -17;
	case KPRS_C_LUI:	return -0x1f000L;
	case KPRS_C_SRLI:	return u >> 3;
	case KPRS_C_SRAI:	return x >> 60;
	case KPRS_C_ANDI:	return x & -16L;
	case KPRS_C_SLLI:	return u << 13;
	case KPRS_SUBW_K:	return (s32)(u32)(u - KPRS_K);
	case KPRS_ADDW_K:	return (s32)(u32)(u + KPRS_K);
	case KPRS_K_ONLY:	return KPRS_K;
	}
	return 0;
}

static const long kprs_args[] = {
	0, 1, -1, 0x0123456789abcdefL, -0x7fffffff00000010L, 0x7fffffff,
};

/* Each target gives its result with a probe, and is simulated or not. */
static void register_only_instructions_simulated(struct kunit *test)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < ARRAY_SIZE(kprs_targets); i++) {
		const struct kprs_target *t = &kprs_targets[i];
		void *addr = (void *)t->fn + t->off;
		struct kpkt_probe *pp;

		if (t->rvc && !IS_ENABLED(CONFIG_RISCV_ISA_C))
			continue;
		pp = kpkt_probe_new(test, addr, NULL, 0);
		KUNIT_ASSERT_EQ_MSG(test, kpkt_register(test, &pp->kp), 0,
				    "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_site_boostable(addr),
				    t->simulated, "%s: simulated", t->insn);
		for (j = 0; j < ARRAY_SIZE(kprs_args); j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    kpkt_call(t->fn, kprs_args[j]),
					    kprs_want(t, kprs_args[j]),
					    "%s (a0 = %#lx)", t->insn,
					    kprs_args[j]);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_pre_hits(pp),
				    (int)ARRAY_SIZE(kprs_args), "%s", t->insn);
		KUNIT_EXPECT_EQ_MSG(test, kpkt_post_hits(pp),
				    (int)ARRAY_SIZE(kprs_args), "%s", t->insn);
		kpkt_unregister(test, &pp->kp);
		n++;
	}
	kunit_info(test, "%u instructions probed", n);
}

/*
 * What the post handler saw of a0 and the pc, checked against the result
 * and the next instruction.
 */
static unsigned long kprs_post_a0, kprs_post_pc;

static void kprs_post(struct kprobe *p, struct pt_regs *regs,
		      unsigned long flags)
{
	kpkt_post(p, regs, flags);
	kprs_post_a0 = regs->a0;
	kprs_post_pc = instruction_pointer(regs);
}

/*
 * The post handler of a simulated instruction runs in the same ebreak
 * as the pre handler, and sees the computed register and the next pc:
 * 4 bytes on for a 32-bit instruction, 2 for a compressed one.
 */
static void kprs_check_post(struct kunit *test, kpkt_fn_t fn, long x,
			    long want, unsigned int len)
{
	struct kpkt_probe *pp = kpkt_probe_new(test, (void *)fn, NULL, 0);

	pp->kp.post_handler = kprs_post;
	KUNIT_ASSERT_EQ(test, kpkt_register(test, &pp->kp), 0);
	KUNIT_ASSERT_TRUE(test, kpkt_site_boostable((void *)fn));
	KUNIT_EXPECT_EQ(test, kpkt_call(fn, x), want);
	KUNIT_EXPECT_EQ(test, kpkt_post_hits(pp), 1);
	KUNIT_EXPECT_EQ(test, kprs_post_a0, (unsigned long)want);
	KUNIT_EXPECT_EQ(test, kprs_post_pc, (unsigned long)fn + len);
	kpkt_unregister(test, &pp->kp);
}

static void post_handler_sees_the_result(struct kunit *test)
{
	kprs_check_post(test, kprs_addi, 0x1000, 0x1123, 4);
	if (IS_ENABLED(CONFIG_RISCV_ISA_C))
		kprs_check_post(test, kprs_c_addi, 0x1000, 0x1000 - 3, 2);
}

static int kprs_case_init(struct kunit *test)
{
	if (!KPKT_BUILTIN)
		kunit_skip(test, "arch_kprobe_boostable(): " KPKT_NO_HELPERS);
	return kpkt_case_init(test);
}

static struct kunit_case kprs_cases[] = {
	KUNIT_CASE(register_only_instructions_simulated),
	KUNIT_CASE(post_handler_sees_the_result),
	{}
};

static struct kunit_suite kprs_suite = {
	.name = "kprobes_riscv_simulate",
	.init = kprs_case_init,
	.test_cases = kprs_cases,
};

kunit_test_suite(kprs_suite);

MODULE_DESCRIPTION("KUnit suite of riscv's kprobes back-end");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
