// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 jump optimization: the architecture half of optimizer.c.
 *
 * An optimized probe has "jmp rel32" (5 bytes) at its address instead of
 * the int3.  The instructions the jump overlaps, the *region*, run from a
 * copy at the end of the probe's detour (opt_detour.S):
 *
 *	probe:	jmp detour		detour:	save pt_regs, handler, restore
 *		(rest of the region,		copy of the region
 *		 never executed)		jmp probe + region length
 *
 * Before a site gets a jump, arch_optprobe_prepare() makes sure that
 * nothing can execute an instruction inside the region other than its
 * first one, and that the region's instructions run unchanged elsewhere:
 *
 *   - the region is whole instructions inside one function (kallsyms);
 *   - none of them is a branch, a call or a return, or anything the int3
 *     path refuses; rip-relative operands are re-aimed in the copy;
 *   - decoding the function (and its ".cold" part, which the compiler
 *     may jump back from) finds no relative jump into the region, no
 *     indirect jump (a jump table could lead anywhere), and no
 *     exception-table entry inside the region or with a fixup into it;
 *   - no jump label could jump into it later, and no jump label, static
 *     call, ftrace site or SMP lock prefix is inside it (their bytes are
 *     rewritten at run time, the copy would not follow).
 *
 * Other probes inside the region, and tasks stopped inside it, are the
 * generic optimizer's business.  The jump goes in and out through the
 * text_poke_queue() batch, whose own int3 handler sends CPUs that hit the
 * patched address meanwhile to the detour.
 */
#include "x86-kprobes.h"

#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <asm/alternative.h>
#include <asm/nospec-branch.h>
#include <asm/text-patching.h>
#include <asm-generic/kprobes-opt.h>

/* Functions larger than this are not decoded to check a region. */
#define KPROBE_OPT_FUNC_MAX	SZ_1M

/* The ".cold" parts of one function name that are looked at. */
#define KPROBE_OPT_COLD_MAX	4

/**
 * struct kprobe_opt_region - the instructions a jump at a probe overlaps
 * @len: their total length, at least JMP32_INSN_SIZE
 * @nr: how many
 * @insn: each, decoded, with the bytes that go into the detour
 */
struct kprobe_opt_region {
	unsigned int len;
	unsigned int nr;
	struct kprobe_decoded insn[JMP32_INSN_SIZE];
};

/* ---------------------------------------------------------------------
 * The detour's C half (called from the copy of the template)
 * ---------------------------------------------------------------------
 */

/**
 * arch_optprobe_handler() - run an optimized probe's handlers
 * @oi: the probe's record (the detour carries it as an immediate)
 * @regs: built by the detour, as an int3 at the probe address shows them
 *
 * See kprobe_opt_hit().  Changes the handlers make to @regs are restored
 * by the detour, except to ip and sp: execution always goes on with the
 * region's copy.
 */
__visible notrace void arch_optprobe_handler(struct kprobe_opt_insn *oi,
					     struct pt_regs *regs)
{
	kprobe_opt_hit(oi, regs);
}

NOKPROBE_SYMBOL(arch_optprobe_handler);

/* ---------------------------------------------------------------------
 * Checking a region (pure functions of the text, except where noted)
 * ---------------------------------------------------------------------
 */

/*
 * Decode the region at the start of @text, which has @avail bytes up to
 * the end of the function.  On failure *why says what is wrong.
 */
static int kprobe_opt_decode_region(const u8 *text, unsigned long avail,
				    struct kprobe_opt_region *r,
				    const char **why)
{
	struct kprobe_decoded *d;
	int ret;

	r->len = 0;
	r->nr = 0;
	while (r->len < JMP32_INSN_SIZE) {
		if (r->len >= avail) {
			*why = "the jump would reach past the function";
			return -ERANGE;
		}
		d = &r->insn[r->nr];
		ret = kprobe_decode_insn(text + r->len, avail - r->len, d);
		if (ret) {
			*why = d->reason;
			return ret;
		}
		/* Branches, calls and returns would leave the copy early. */
		if (d->ainsn.kind != KPROBE_INSN_STEP ||
		    d->ainsn.finish == KPROBE_FINISH_JMP ||
		    d->ainsn.finish == KPROBE_FINISH_CALL) {
			*why = "a branch, call or return in the region";
			return -EINVAL;
		}
		r->len += d->ainsn.len;
		r->nr++;
	}
	return 0;
}

/* The target of a relative jump, call, jcc, loop or jrcxz at @ip. */
static bool kprobe_opt_rel_target(struct insn *insn, unsigned long ip,
				  unsigned long *target)
{
	u8 op = insn->opcode.bytes[0];

	switch (op) {
	case 0x70 ... 0x7f:	/* jcc rel8 */
	case 0xe0 ... 0xe3:	/* loopne, loope, loop, jrcxz */
	case CALL_INSN_OPCODE:
	case JMP32_INSN_OPCODE:
	case JMP8_INSN_OPCODE:
		break;
	case 0x0f:		/* jcc rel32 */
		if (insn->opcode.nbytes != 2 ||
		    (insn->opcode.bytes[1] & 0xf0) != 0x80)
			return false;
		break;
	default:
		return false;
	}
	/* The decoder sign-extends the displacement. */
	*target = ip + insn->length + insn->immediate.value;
	return true;
}

/* jmp *r/m (near or far): its target cannot be known. */
static bool kprobe_opt_indirect_jump(struct insn *insn)
{
	u8 reg = X86_MODRM_REG(insn->modrm.bytes[0]);

	return insn->opcode.nbytes == 1 && insn->opcode.bytes[0] == 0xff &&
	       insn->modrm.nbytes && (reg == 4 || reg == 5);
}

/* Is @target a thunk that an indirect jump was compiled (or patched) to? */
static bool kprobe_opt_indirect_thunk(unsigned long target)
{
	/* One thunk per general-purpose register, in each array. */
	const unsigned long nregs = IS_ENABLED(CONFIG_X86_64) ? 16 : 8;
	unsigned long base;

	if (IS_ENABLED(CONFIG_MITIGATION_RETPOLINE)) {
		base = (unsigned long)__x86_indirect_thunk_array;
		if (target - base < nregs * RETPOLINE_THUNK_SIZE)
			return true;
	}
	/* The jump thunks exist only with call depth tracking (retpoline.S). */
	if (IS_ENABLED(CONFIG_MITIGATION_CALL_DEPTH_TRACKING)) {
		base = (unsigned long)__x86_indirect_jump_thunk_array;
		if (target - base < nregs * RETPOLINE_THUNK_SIZE)
			return true;
	}
	if (IS_ENABLED(CONFIG_MITIGATION_ITS)) {
		base = (unsigned long)__x86_indirect_its_thunk_array;
		if (target - base < nregs * ITS_THUNK_SIZE)
			return true;
	}
	return false;
}

/*
 * Why control may get into the region [@addr + 1, @addr + @len) from the
 * code in @text, a copy of @size bytes at @base; NULL if it cannot.  Also
 * looks at the exception tables, so not quite pure.
 */
static const char *kprobe_opt_scan(const u8 *text, unsigned long base,
				   unsigned long size, unsigned long addr,
				   unsigned int len)
{
	const struct exception_table_entry *e;
	unsigned long pos, ip, target, fixup;
	struct insn insn;

	for (pos = 0; pos < size; pos += insn.length) {
		if (insn_decode(&insn, text + pos,
				min_t(unsigned long, size - pos, MAX_INSN_SIZE),
				INSN_MODE_KERN) < 0)
			return "the function does not decode";
		ip = base + pos;
		if (kprobe_opt_indirect_jump(&insn))
			return "an indirect jump in the function";
		if (kprobe_opt_rel_target(&insn, ip, &target)) {
			if (target > addr && target < addr + len)
				return "a jump into the region";
			if (insn.opcode.bytes[0] != CALL_INSN_OPCODE &&
			    kprobe_opt_indirect_thunk(target))
				return "an indirect jump in the function";
		}
		e = search_exception_tables(ip);
		if (!e)
			continue;
		/* A fault in the copy would not find the entry. */
		if (ip >= addr && ip < addr + len)
			return "an exception-table entry in the region";
		fixup = (unsigned long)&e->fixup + e->fixup;
		if (fixup > addr && fixup < addr + len)
			return "an exception fixup into the region";
	}
	return NULL;
}

struct kprobe_opt_cold {
	unsigned int nr;
	unsigned long addr[KPROBE_OPT_COLD_MAX];
};

static int kprobe_opt_cold_add(struct kprobe_opt_cold *c, unsigned long addr)
{
	if (c->nr == KPROBE_OPT_COLD_MAX)
		return 1;
	c->addr[c->nr++] = addr;
	return 0;
}

static int kprobe_opt_cold_vmlinux(void *data, unsigned long addr)
{
	return kprobe_opt_cold_add(data, addr);
}

struct kprobe_opt_cold_mod {
	const char *name;
	struct kprobe_opt_cold *cold;
};

static int kprobe_opt_cold_module(void *data, const char *name,
				  unsigned long addr)
{
	struct kprobe_opt_cold_mod *m = data;

	return strcmp(name, m->name) ? 0 : kprobe_opt_cold_add(m->cold, addr);
}

/*
 * Every "<function>.cold" symbol: the out-of-line parts the compiler split
 * off the function jump back into it.  Static functions of the same name
 * elsewhere only make us look at more code than needed.
 */
static noinline_for_stack const char *
kprobe_opt_scan_cold(unsigned long func, unsigned long addr, unsigned int len)
{
	struct kprobe_opt_cold cold = {};
	struct kprobe_opt_cold_mod m;
	unsigned long size, offset;
	char name[KSYM_NAME_LEN];
	const char *why = NULL;
	char *modname;
	unsigned int i;
	u8 *text;

	if (!kallsyms_lookup(func, &size, &offset, &modname, name) ||
	    strlcat(name, ".cold", sizeof(name)) >= sizeof(name))
		return NULL;
	if (modname) {
		m.name = name;
		m.cold = &cold;
		module_kallsyms_on_each_symbol(modname, kprobe_opt_cold_module,
					       &m);
	} else {
		kallsyms_on_each_match_symbol(kprobe_opt_cold_vmlinux, name,
					      &cold);
	}
	if (cold.nr == KPROBE_OPT_COLD_MAX)
		return "too many cold parts to check";

	for (i = 0; i < cold.nr && !why; i++) {
		if (!kprobe_sym_size_offset(cold.addr[i], &size, &offset) ||
		    offset || !size || size > KPROBE_OPT_FUNC_MAX)
			return "a cold part of the function cannot be checked";
		text = kvmalloc(size, GFP_KERNEL);
		if (!text)
			return "out of memory";
		if (kprobe_copy_original_text(text, cold.addr[i], size))
			why = "cannot read a cold part of the function";
		else
			why = kprobe_opt_scan(text, cold.addr[i], size, addr,
					      len);
		kvfree(text);
	}
	return why;
}

/* Text in the region that someone else rewrites at run time. */
static const char *kprobe_opt_reserved(unsigned long addr, unsigned int len)
{
	void *start = (void *)addr, *last = (void *)(addr + len - 1);
	bool reserved, into;

	jump_label_lock();
	reserved = kprobe_jump_label_reserved(start, last) ||
		   static_call_text_reserved(start, last);
	into = kprobe_jump_label_into(addr, len);
	jump_label_unlock();
	if (reserved)
		return "a jump label or static call in the region";
	if (into)
		return "a jump label may jump into the region";
	if (ftrace_text_reserved(start, last))
		return "an ftrace site in the region";
	mutex_lock(&text_mutex);
	reserved = alternatives_text_reserved(start, last);
	mutex_unlock(&text_mutex);
	if (reserved)
		return "an SMP lock prefix in the region";
	return NULL;
}

/* ---------------------------------------------------------------------
 * Building the detour
 * ---------------------------------------------------------------------
 */

/*
 * The rel32 of a jump or call whose end is at @end, to @target.  The
 * difference is taken modulo the address space, so on i386 every target
 * reaches.
 */
static bool kprobe_opt_rel32(unsigned long end, unsigned long target,
			     s32 *rel)
{
	long d = (long)(target - end);

	*rel = d;
	return d == *rel;
}

/*
 * Fill @img, the detour for @oi's site at @addr that will live at @buf,
 * with the template, the copy of @r and the jump back.  The template's
 * per-probe values are set here.  Return: the detour's length, or 0 (and
 * *why) if something does not reach from @buf.
 */
static unsigned int kprobe_opt_build(u8 *img, unsigned long buf,
				     struct kprobe_opt_insn *oi, unsigned long addr,
				     struct kprobe_opt_region *r,
				     const char **why)
{
	const struct kprobe_detour_layout *l = &kprobe_detour_layout;
	unsigned long opt = (unsigned long)oi;
	s32 ip = addr + INT3_INSN_SIZE, rel;
	unsigned int pos, i;

	/* Kernel and module text always fit; anything else stays an int3. */
	if ((unsigned long)(long)ip != addr + INT3_INSN_SIZE) {
		*why = "the address is not a sign-extended 32-bit value";
		return 0;
	}
	memcpy(img, kprobe_detour_template, l->size);
	memcpy(img + l->frame_ip_end - sizeof(ip), &ip, sizeof(ip));
	memcpy(img + l->ip_end - sizeof(ip), &ip, sizeof(ip));
	memcpy(img + l->opt_end - sizeof(opt), &opt, sizeof(opt));
	if (!kprobe_opt_rel32(buf + l->call_end,
			      (unsigned long)arch_optprobe_handler, &rel)) {
		*why = "the handler is out of reach of the detour";
		return 0;
	}
	memcpy(img + l->call_end - sizeof(rel), &rel, sizeof(rel));

	pos = l->size;
	for (i = 0; i < r->nr; i++) {
		if (kprobe_relocate_insn(&r->insn[i], addr + pos - l->size,
					 buf + pos)) {
			*why = r->insn[i].reason;
			return 0;
		}
		memcpy(img + pos, r->insn[i].bytes, r->insn[i].ainsn.len);
		pos += r->insn[i].ainsn.len;
	}

	if (!kprobe_opt_rel32(buf + pos + JMP32_INSN_SIZE, addr + r->len,
			      &rel)) {
		*why = "the probe is out of reach of the detour";
		return 0;
	}
	img[pos] = JMP32_INSN_OPCODE;
	memcpy(img + pos + 1, &rel, sizeof(rel));
	pos += JMP32_INSN_SIZE;
	/* Nothing runs past the jump back, not even speculatively. */
	img[pos++] = INT3_INSN_OPCODE;
	return pos;
}

/**
 * struct kprobe_opt_work - what preparing a detour needs, off the stack
 * @r: the region
 * @img: the detour being built
 */
struct kprobe_opt_work {
	struct kprobe_opt_region r;
	u8 img[KPROBE_OPTSLOT_BYTES];
};

/* Every check of the region at @addr; @text holds the whole function. */
static const char *kprobe_opt_check(const u8 *text, unsigned long start,
				    unsigned long size, unsigned long addr,
				    struct kprobe_opt_region *r)
{
	const char *why = NULL;

	if (kprobe_opt_decode_region(text + (addr - start),
				     start + size - addr, r, &why))
		return why ?: "cannot decode the region";
	return kprobe_opt_scan(text, start, size, addr, r->len) ?:
	       kprobe_opt_scan_cold(start, addr, r->len) ?:
	       kprobe_opt_reserved(addr, r->len);
}

/**
 * arch_optprobe_prepare() - check a site's region and build its detour
 * @oi: the record of a candidate site (an int3 probe, not on ftrace)
 * @whyp: the reason for a refusal
 *
 * Context: locked; takes text_mutex to write the detour.
 * Return: 0, or a negative errno with *@whyp set.
 */
int arch_optprobe_prepare(struct kprobe_opt_insn *oi, const char **whyp)
{
	const struct kprobe_detour_layout *l = &kprobe_detour_layout;
	unsigned long addr = oi->addr;
	unsigned long size, offset, start;
	struct kprobe_opt_work *w = NULL;
	kprobe_opcode_t *buf = NULL;
	const char *why = NULL;
	unsigned int n = 0;
	u8 *text = NULL;
	int ret;

	kprobe_assert_locked();
	if (WARN_ONCE(l->size + KPROBE_OPT_REGION_MAX + JMP32_INSN_SIZE +
		      INT3_INSN_SIZE > KPROBE_OPTSLOT_BYTES,
		      "kprobes: detour template of %u bytes too big\n", l->size)) {
		*whyp = "the detour template is too big";
		return -E2BIG;
	}
	if (!kprobe_sym_size_offset(addr, &size, &offset) || !size) {
		*whyp = "size of the function unknown";
		return -EINVAL;
	}
	if (size > KPROBE_OPT_FUNC_MAX) {
		*whyp = "function too big to check";
		return -E2BIG;
	}
	start = addr - offset;

	text = kvmalloc(size, GFP_KERNEL);
	w = kmalloc(sizeof(*w), GFP_KERNEL);
	ret = -ENOMEM;
	if (!text || !w) {
		why = "out of memory";
		goto out;
	}
	ret = kprobe_copy_original_text(text, start, size);
	if (ret) {
		why = "cannot read the function";
		goto out;
	}
	why = kprobe_opt_check(text, start, size, addr, &w->r);
	ret = -EINVAL;
	if (why)
		goto out;

	buf = kprobe_optslot_alloc();
	ret = -ENOMEM;
	if (!buf) {
		why = "no free detour buffer";
		goto out;
	}
	memset(w->img, INT3_INSN_OPCODE, sizeof(w->img));
	n = kprobe_opt_build(w->img, (unsigned long)buf, oi, addr, &w->r, &why);
	ret = -ERANGE;
	if (!n)
		goto out;
	/* The buffer is read-only executable memory; takes text_mutex. */
	ret = -EFAULT;
	if (!text_poke_copy(buf, w->img, n)) {
		why = "cannot write the detour";
		goto out;
	}

	oi->buf = buf;
	oi->copy = (unsigned long)buf + l->size;
	oi->len = w->r.len;
	oi->single = w->r.nr == 1;
	oi->patch_len = JMP32_INSN_SIZE;
	memcpy(oi->orig, text + offset, JMP32_INSN_SIZE);
	buf = NULL;
	ret = 0;
out:
	if (buf)
		kprobe_optslot_free(buf);
	kfree(w);
	kvfree(text);
	*whyp = why;
	return ret;
}

/* ---------------------------------------------------------------------
 * Jumps in and out of the text
 * ---------------------------------------------------------------------
 */

/* @insn (MAX_INSN_SIZE bytes, int3-padded) = the jump of @oi's site. */
static void kprobe_opt_jump(u8 *insn, struct kprobe_opt_insn *oi)
{
	s32 rel;

	memset(insn, INT3_INSN_OPCODE, MAX_INSN_SIZE);
	/* Checked when the detour was built. */
	kprobe_opt_rel32(oi->addr + JMP32_INSN_SIZE, (unsigned long)oi->buf,
			 &rel);
	insn[0] = JMP32_INSN_OPCODE;
	memcpy(&insn[1], &rel, sizeof(rel));
}

/**
 * arch_optprobe_patch() - queue the jump that replaces a site's int3
 * @oi: a prepared record; no task is inside its region
 *
 * The writes of one batch form one text_poke_queue() batch: until it is
 * over, the batch's int3 handler sends CPUs that hit a patched address to
 * the detour.  The core calls in ascending address order, which the
 * batch needs to stay one batch.
 * Context: locked, text_mutex and cpus_read_lock() held.
 */
void arch_optprobe_patch(struct kprobe_opt_insn *oi)
{
	u8 jump[MAX_INSN_SIZE];

	lockdep_assert_held(&text_mutex);
	kprobe_opt_jump(jump, oi);
	/* text_poke_queue() decodes a whole instruction from @jump. */
	text_poke_queue((void *)oi->addr, jump, JMP32_INSN_SIZE, NULL);
}

/**
 * arch_optprobe_unpatch() - queue the int3 and the original bytes back
 * @oi: an optimized site's record
 *
 * The batch's int3 handler, told to emulate the jump, keeps sending CPUs
 * to the detour while the bytes change; the batch leaves the int3 it puts
 * first in place as the final first byte.
 * Context: locked, text_mutex and cpus_read_lock() held.
 */
void arch_optprobe_unpatch(struct kprobe_opt_insn *oi)
{
	u8 jump[MAX_INSN_SIZE], old[MAX_INSN_SIZE];

	lockdep_assert_held(&text_mutex);
	kprobe_opt_jump(jump, oi);
	memset(old, INT3_INSN_OPCODE, sizeof(old));
	memcpy(&old[1], &oi->orig[1], oi->patch_len - 1);
	text_poke_queue((void *)oi->addr, old, oi->patch_len, jump);
}

/**
 * arch_optprobe_flush() - finish the queued jump writes
 *
 * Context: as for arch_optprobe_patch().
 */
void arch_optprobe_flush(void)
{
	lockdep_assert_held(&text_mutex);
	text_poke_finish();
}

/**
 * arch_optprobe_release() - free a detour
 * @oi: a dead site's record; no task is inside its detour any more
 */
void arch_optprobe_release(struct kprobe_opt_insn *oi)
{
	kprobe_optslot_free(oi->buf);
	oi->buf = NULL;
}
