// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a kprobe goes: turning addr, or symbol_name + offset, into one
 * address, and deciding whether that address may get a probe at all.
 *
 * Resolution:	exactly one of addr and symbol_name; a symbol must exist
 *		(a name several functions share means the first that
 *		kallsyms finds); the architecture then adjusts the
 *		address (x86 steps over an ENDBR at a function entry).
 * Validation:	core kernel or module text, not blacklisted, not a jump
 *		label or static call site, not inside an ftrace call site
 *		(the call site itself is probed through ftrace), and on an
 *		instruction boundary.
 *
 * Every refusal is reported by exactly one kprobe_refuse() line.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/ratelimit.h>
#include <linux/static_call.h>
#include <linux/workqueue.h>

/*
 * The refusal lines are rate-limited: a tool that tries every offset of a
 * function (perf probe, bpftrace "func+off") would otherwise write a line
 * per offset.  Up to KPROBE_REFUSE_BURST lines per KPROBE_REFUSE_WINDOW
 * are logged; the others are counted, and one line gives the count when
 * the window the first of them fell in has passed.  The ratelimit state
 * keeps its own message quiet (RATELIMIT_MSG_ON_RELEASE): ours names what
 * was dropped.
 */
#define KPROBE_REFUSE_WINDOW	(5 * HZ)
#define KPROBE_REFUSE_BURST	10

static struct ratelimit_state kprobe_refuse_rs =
	RATELIMIT_STATE_INIT_FLAGS(kprobe_refuse_rs, KPROBE_REFUSE_WINDOW,
				   KPROBE_REFUSE_BURST,
				   RATELIMIT_MSG_ON_RELEASE);
static atomic_t kprobe_refuse_dropped = ATOMIC_INIT(0);

static void kprobe_refuse_summary(struct work_struct *work)
{
	int n = atomic_xchg(&kprobe_refuse_dropped, 0);

	if (n)
		pr_info("%d refusal(s) not logged (rate limit: %d lines in %d s)\n",
			n, KPROBE_REFUSE_BURST, KPROBE_REFUSE_WINDOW / HZ);
}

static DECLARE_DELAYED_WORK(kprobe_refuse_work, kprobe_refuse_summary);

void kprobe_refuse(const struct kprobe *p, const char *why)
{
	if (!__ratelimit(&kprobe_refuse_rs)) {
		/* The first one dropped arms the summary. */
		if (atomic_inc_return(&kprobe_refuse_dropped) == 1)
			schedule_delayed_work(&kprobe_refuse_work,
					      KPROBE_REFUSE_WINDOW);
		return;
	}
	if (p->symbol_name)
		pr_info("refusing %s+0x%x: %s\n", p->symbol_name, p->offset, why);
	else if (p->addr)
		pr_info("refusing %pS: %s\n", (void *)p->addr + p->offset, why);
	else
		pr_info("refusing a kprobe without address: %s\n", why);
}

/**
 * kprobe_lookup_name() - the address of a function, by name
 * @name: a symbol, or "module:symbol"
 * @offset: the offset the caller will add (for architectures that need it)
 *
 * Return: the address, or NULL if there is no such symbol.
 */
kprobe_opcode_t * __weak kprobe_lookup_name(const char *name,
					    unsigned int offset)
{
	return (kprobe_opcode_t *)kallsyms_lookup_name(name);
}

/**
 * arch_adjust_kprobe_addr() - where a probe on @addr + @offset really goes
 * @addr: start of a function
 * @offset: offset into it
 * @on_func_entry: set when the result is the function's entry
 *
 * Return: the probe address.  The default takes it as is.
 */
kprobe_opcode_t * __weak arch_adjust_kprobe_addr(unsigned long addr,
						 unsigned long offset,
						 bool *on_func_entry)
{
	*on_func_entry = !offset;
	return (kprobe_opcode_t *)(addr + offset);
}

/**
 * kprobe_sym_size_offset() - the function around an address
 * @addr: a text address
 * @size: the function's size
 * @offset: @addr's offset in it
 *
 * kallsyms_lookup_size_offset(), quick for module text too (module.c
 * keeps an index of the symbols of probed modules).
 * Context: kprobe_mutex held.
 * Return: false if no symbol covers @addr.
 */
bool kprobe_sym_size_offset(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	if (core_kernel_text(addr))
		return kallsyms_lookup_size_offset(addr, size, offset);
	return kprobe_module_sym_size_offset(addr, size, offset);
}

/* Resolve without side effects; on error *why says why. */
static int kprobe_locate(kprobe_opcode_t *addr, const char *sym,
			 unsigned long offset, struct kprobe_target *t,
			 const char **why)
{
	unsigned long base, size, off;

	if (addr && sym) {
		*why = "both addr and symbol_name are set";
		return -EINVAL;
	}
	if (sym) {
		/*
		 * "module:" names no symbol, but kallsyms would look the empty
		 * name up in the module, and while the module initialises its
		 * symbols still include unnamed ones (sections): a probe on
		 * whatever text one of them starts.
		 */
		if (!*sym || sym[strlen(sym) - 1] == ':') {
			*why = "no such symbol";
			return -ENOENT;
		}
		/* Of functions sharing the name, the first kallsyms finds. */
		addr = kprobe_lookup_name(sym, offset);
		if (!addr) {
			*why = "no such symbol";
			return -ENOENT;
		}
	} else if (!addr) {
		*why = "neither addr nor symbol_name is set";
		return -EINVAL;
	}
	/*
	 * The architecture wants function + offset: find the function that
	 * covers the address, as upstream does.  An offset past the end of
	 * @sym lands in the next function (ftracetest's probepoint.tc
	 * registers "func+<distance to the next symbol>"), and text that no
	 * symbol covers has no known instruction boundaries: -ENOENT.
	 */
	base = (unsigned long)addr + offset;
	if (!kprobe_sym_size_offset(base, &size, &off)) {
		*why = "no symbol covers the address";
		return -ENOENT;
	}
	base -= off;
	offset = off;
	t->addr = arch_adjust_kprobe_addr(base, offset, &t->on_func_entry);
	if (!t->addr) {
		*why = "the architecture cannot probe this address";
		return -EINVAL;
	}
	return 0;
}

int kprobe_resolve_addr(struct kprobe *p, struct kprobe_target *t)
{
	const char *why;
	int ret;

	ret = kprobe_locate(p->addr, p->symbol_name, p->offset, t, &why);
	if (ret)
		kprobe_refuse(p, why);
	return ret;
}

/* kprobe_on_func_entry(); on error *why says why. */
static int kprobe_func_entry(kprobe_opcode_t *addr, const char *sym,
			     unsigned long offset, const char **why)
{
	struct kprobe_target t = {};
	int ret;

	/* kprobe_locate() may use the module symbol index (module.c). */
	mutex_lock(&kprobe_mutex);
	ret = kprobe_locate(addr, sym, offset, &t, why);
	mutex_unlock(&kprobe_mutex);
	if (ret)
		return ret;
	if (!t.on_func_entry) {
		*why = "not at the entry of a function";
		return -EINVAL;
	}
	return 0;
}

/**
 * kprobe_on_func_entry() - is this probe location a function's entry?
 * @addr: the address, or NULL to use @sym
 * @sym: the symbol, or NULL to use @addr
 * @offset: offset from @addr or @sym
 *
 * Return: 0 if the resolved address is a function entry, -EINVAL if it is
 * not (or the arguments are inconsistent), -ENOENT for an unknown symbol.
 * Context: process context, kprobe_mutex not held; sleeps.
 */
int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym,
			 unsigned long offset)
{
	const char *why;

	return kprobe_func_entry(addr, sym, offset, &why);
}

int kprobe_check_func_entry(struct kprobe *p)
{
	const char *why;
	int ret;

	ret = kprobe_func_entry(p->addr, p->symbol_name, p->offset, &why);
	if (ret)
		kprobe_refuse(p, why);
	return ret;
}

bool kprobe_jump_label_reserved(void *start, void *end)
{
	struct module *mod;

	preempt_disable();
	mod = __module_text_address((unsigned long)start);
	preempt_enable();
	/* Pinned by the caller: @mod stays valid. */
	if (mod)
		return kprobe_module_jump_reserved(mod, (unsigned long)start,
						   (unsigned long)end);
	return kprobe_core_jump_reserved((unsigned long)start,
					 (unsigned long)end);
}

int kprobe_check_addr(struct kprobe *p, struct kprobe_target *t)
{
	unsigned long addr = (unsigned long)t->addr;
	const char *why;
	bool reserved;
	int ret = 0;

	t->mod = NULL;
	t->ftrace = false;
	/* is_kernel_text() counts the vsyscall page: it is user text. */
	if (in_gate_area_no_mm(addr)) {
		why = "not kernel text (the vsyscall page)";
		ret = -EINVAL;
		goto refuse;
	}
	if (!core_kernel_text(addr)) {
		ret = kprobe_module_text_get(addr, &t->mod, &why);
		if (ret)
			goto refuse;
	}

	why = kprobe_blacklist_reason(addr);
	if (why) {
		ret = -EINVAL;
		goto put;
	}

	jump_label_lock();
	reserved = kprobe_jump_label_reserved(t->addr, t->addr) ||
		   static_call_text_reserved(t->addr, t->addr);
	jump_label_unlock();
	if (reserved) {
		why = "patched by a jump label or static call";
		ret = -EINVAL;
		goto put;
	}

	/* Not ftrace_location(): off a call site, it looks the symbol up. */
	if (kprobe_ftrace_site(addr)) {
		if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE)) {
			why = "an ftrace call site (no KPROBES_ON_FTRACE)";
			ret = -EINVAL;
			goto put;
		}
		t->ftrace = true;
	} else if (ftrace_text_reserved(t->addr, t->addr)) {
		why = "inside an ftrace call site";
		ret = -EILSEQ;
		goto put;
	}

	/* A function entry or an ftrace call site is a boundary already. */
	if (!t->on_func_entry && !t->ftrace) {
		why = NULL;
		ret = arch_kprobe_check_insn_boundary(addr, &why);
		if (ret) {
			why = why ?: "not on an instruction boundary";
			goto put;
		}
	}
	return 0;

put:
	module_put(t->mod);
	t->mod = NULL;
refuse:
	kprobe_refuse(p, why);
	return ret;
}
