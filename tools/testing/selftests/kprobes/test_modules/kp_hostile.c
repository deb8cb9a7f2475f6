// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kp_hostile - one hostile input to the kprobes API per load, for
 * hostile_input.sh.
 *
 *	insmod kp_hostile.ko input=NAME [sym=SYMBOL] [addrs=A,B,...] [rounds=N]
 *
 * Loading runs input NAME (the table at the end of this file) and records
 * the outcome in the read-only parameter "result"; the load itself
 * succeeds unless the module is broken.  "sym" names a kernel symbol that
 * the input needs, "addrs" are the addresses /proc/kallsyms gives for it
 * (or for whatever the input concerns): their text is compared too.  Every
 * input cleans up after itself: what it registered is unregistered before
 * it returns.
 *
 * An input runs once to warm up, then "rounds" more times, so that what
 * leaks per call adds up: the slab pages the rounds leave behind (after
 * the RCU callbacks ran) are reported.  The text at every address
 * involved is read before the first round and compared after the last:
 *
 *	ret=-22 text=original rounds=8 slab_kb=0 varied=0 [key=value...]
 *
 *	ret	what the hostile call returned (0 for the void calls)
 *	text	original (every readable byte as before), unreadable (nothing
 *		involved can be read, as the user or non-canonical addresses),
 *		none (no address involved) or CHANGED
 *	slab_kb	slab growth over the rounds after the warm-up, in KiB
 *	varied	1 if some round returned something else than the first
 *	live	the probed text while the probe was registered: original or
 *		CHANGED (armed), for the inputs that register something
 *	still	whether a probe that should have stayed registered did
 *	leftover  probes of a refused batch that stayed registered
 *	addr	kept or cleared: a never registered kprobe after
 *		unregister_kprobe()
 *	maxactive  what a registered kretprobe's maxactive became
 *	setup	failed: a registration the input needed first was refused
 *
 * An input that cannot run here reports "skip=REASON".  The parameter
 * "impl" says whose kprobes these are: "ours" has CONFIG_HAVE_KRETPROBE_
 * INSTANCE_POOL, "upstream" does not.  Inputs that crash upstream's
 * kprobes (NULL arguments, a double free) or make it WARN on purpose
 * (re-registration) are not run there unless force=1.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#define KH_TEXT		16	/* bytes compared at each address */
#define KH_REGIONS	12
#define KH_MAX_ADDRS	8
#define KH_PROBES	4
/* The module's own name, for the "module:symbol" forms. */
#define KH_MOD		KBUILD_MODNAME

/* ---- parameters ---- */

static char *input;
module_param(input, charp, 0444);
MODULE_PARM_DESC(input, "the hostile input to run at load");

static char *sym;
module_param(sym, charp, 0444);
MODULE_PARM_DESC(sym, "the kernel symbol the input needs");

static unsigned long addrs[KH_MAX_ADDRS];
static int nr_addrs;
module_param_array(addrs, ulong, &nr_addrs, 0444);
MODULE_PARM_DESC(addrs, "kernel addresses whose text must not change");

static int rounds = 8;
module_param(rounds, int, 0444);
MODULE_PARM_DESC(rounds, "rounds after the warm-up (slab growth)");

static bool force;
module_param(force, bool, 0444);
MODULE_PARM_DESC(force, "run inputs known to crash upstream's kprobes");

static char result[256] = "none";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "outcome of the input");

static char impl[16];
module_param_string(impl, impl, sizeof(impl), 0444);
MODULE_PARM_DESC(impl, "ours or upstream");

/* ---- targets ---- */

/* Functions to probe successfully: an int3 site each (no ftrace call). */
static notrace noinline long kh_target(long x)
{
	long y = x * 7;

	OPTIMIZER_HIDE_VAR(y);
	return y + 3;
}

static notrace noinline long kh_target2(long x)
{
	long y = x * 11;

	OPTIMIZER_HIDE_VAR(y);
	return y + 5;
}

static notrace noinline long kh_target3(long x)
{
	long y = x * 13;

	OPTIMIZER_HIDE_VAR(y);
	return y + 9;
}

/* Text that kprobes must refuse: the module's own blacklist entries. */
static notrace noinline long kh_nokprobe(long x)
{
	long y = x * 17;

	OPTIMIZER_HIDE_VAR(y);
	return y + 1;
}

NOKPROBE_SYMBOL(kh_nokprobe);

static noinline long __kprobes kh_kprobes_text(long x)
{
	long y = x * 19;

	OPTIMIZER_HIDE_VAR(y);
	return y + 2;
}

static noinstr long kh_noinstr(long x)
{
	return x * 23 + 4;
}

/* A jump label site: static_branch_unlikely()'s nop. */
static DEFINE_STATIC_KEY_FALSE(kh_key);

static notrace noinline __used long kh_keyed(long x)
{
	if (static_branch_unlikely(&kh_key))
		return x * 3;
	return x + 1;
}

/* A static call site (inline where the architecture patches calls). */
static notrace noinline long kh_sc_impl(long x)
{
	long y = x * 29;

	OPTIMIZER_HIDE_VAR(y);
	return y;
}

DEFINE_STATIC_CALL(kh_sc, kh_sc_impl);

static notrace noinline __used long kh_sc_caller(long x)
{
	return static_call(kh_sc)(x) + 1;
}

/* Data, not text. */
static long kh_data = 0x1234;
static const char kh_rodata[KH_TEXT] = "kp_hostile ro";

#ifdef CONFIG_X86
/*
 * kh_asm: a 5-byte "mov $imm32, %eax" and a return; after it, at
 * kh_asm_int3, an int3 that never runs.  Probing kh_asm + 1 is inside an
 * instruction, probing kh_asm_int3 puts a breakpoint on a breakpoint.
 */
asm(".pushsection .text, \"ax\"\n"
	".type kh_asm, @function\n"
	"kh_asm:\n"
	"	movl $0x11223344, %eax\n"
	ASM_RET
	"kh_asm_int3:\n"
	"	int3\n"
	".size kh_asm, . - kh_asm\n"
	".popsection\n");

#ifdef CONFIG_X86_64
#define KH_LEA(label)	"leaq " label "(%%rip), %0"
#else
#define KH_LEA(label)	"leal " label ", %0"
#endif

/* The labels' addresses, without declaring them as C objects. */
static void *kh_asm_addr(bool int3)
{
	void *p;

	if (int3)
		asm(KH_LEA("kh_asm_int3") : "=r" (p));
	else
		asm(KH_LEA("kh_asm") : "=r" (p));
	return p;
}
#endif

static int kh_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int kh_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

/* ---- the state of one input ---- */

struct kh_region {
	unsigned long addr;
	size_t len;
	bool ok;		/* readable before the first round */
	u8 before[KH_TEXT];
};

struct kh_ctx {
	/* where the simple inputs put their kprobe (kh_probe()) */
	void *addr;
	const char *sym;
	unsigned int off;
	u32 flags;
	/* buffers the input owns, freed after the rounds */
	void *buf;
	void *vbuf;
	char *name;
	u8 *stack;
	bool first;		/* the warm-up round */
	const char *skip;
	char notes[96];		/* key=value of the warm-up round */
	int nr_regions;
	struct kh_region region[KH_REGIONS];
};

static struct kprobe kh_kp[KH_PROBES];
static struct kretprobe kh_rp[2];

static void kh_note(struct kh_ctx *c, const char *fmt, ...)
{
	size_t len = strlen(c->notes);
	va_list args;

	if (!c->first)
		return;
	va_start(args, fmt);
	vsnprintf(c->notes + len, sizeof(c->notes) - len, fmt, args);
	va_end(args);
}

/* The text of a function: a Thumb-2 kernel's function pointers have bit 0 set. */
static unsigned long kh_text(const void *fn)
{
	return (unsigned long)fn & ~(unsigned long)IS_ENABLED(CONFIG_THUMB2_KERNEL);
}

static void kh_region(struct kh_ctx *c, const void *addr, size_t len)
{
	if (c->nr_regions == KH_REGIONS)
		return;
	c->region[c->nr_regions].addr = kh_text(addr);
	c->region[c->nr_regions].len = min_t(size_t, len, KH_TEXT);
	c->nr_regions++;
}

static bool kh_read(unsigned long addr, void *dst, size_t len)
{
	return !copy_from_kernel_nofault(dst, (const void *)addr, len);
}

/* original, unreadable, none or CHANGED: the regions now. */
static const char *kh_compare(struct kh_ctx *c)
{
	bool readable = false;
	u8 now[KH_TEXT];
	int i;

	if (!c->nr_regions)
		return "none";
	for (i = 0; i < c->nr_regions; i++) {
		struct kh_region *r = &c->region[i];
		bool ok = kh_read(r->addr, now, r->len);

		if (ok != r->ok || (ok && memcmp(now, r->before, r->len)))
			return "CHANGED";
		readable |= ok;
	}
	return readable ? "original" : "unreadable";
}

/*
 * The text after the rounds.  Upstream takes an optimized probe's jump out
 * from its optimizer's work, a little after unregistration returns: give
 * the text a second to come back before calling it changed.
 */
static const char *kh_text_after(struct kh_ctx *c)
{
	const char *state;
	int tries;

	for (tries = 0; ; tries++) {
		state = kh_compare(c);
		if (strcmp(state, "CHANGED") || tries == 50)
			return state;
		msleep(20);
	}
}

/*
 * In the warm-up round: what the text at @kp's address is while
 * registered.  The address may be inside a region rather than at its
 * start: an entry probe goes past a landing pad (x86's ENDBR, arm64's
 * "bti c").
 */
static void kh_live(struct kh_ctx *c, struct kprobe *kp)
{
	unsigned long addr = (unsigned long)kp->addr;
	u8 now[KH_TEXT];
	size_t off;
	int i;

	if (!c->first)
		return;
	for (i = 0; i < c->nr_regions; i++) {
		struct kh_region *r = &c->region[i];

		if (!r->ok || addr < r->addr || addr >= r->addr + r->len)
			continue;
		off = addr - r->addr;
		if (kh_read(addr, now, r->len - off) &&
		    !memcmp(now, r->before + off, r->len - off))
			kh_note(c, " live=original");
		else
			kh_note(c, " live=CHANGED");
		return;
	}
	kh_note(c, " live=unknown");
}

/* Slab pages in use, per-CPU deltas included, after pending frees ran. */
static long kh_slab_pages(void)
{
	static const enum node_stat_item items[] = {
		NR_SLAB_RECLAIMABLE_B, NR_SLAB_UNRECLAIMABLE_B,
	};
	long pages = 0;
	int nid, cpu, i;

	rcu_barrier();
	kvfree_rcu_barrier();
	for_each_online_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		for (i = 0; i < ARRAY_SIZE(items); i++) {
			pages += atomic_long_read(&pgdat->vm_stat[items[i]]);
			for_each_possible_cpu(cpu)
				pages += per_cpu_ptr(pgdat->per_cpu_nodestats,
						     cpu)->vm_node_stat_diff[items[i]];
		}
	}
	return pages;
}

/* A clean kprobe @i: a handler and where it goes, nothing else. */
static struct kprobe *kh_kprobe(int i, void *addr, const char *name,
				unsigned int off)
{
	struct kprobe *kp = &kh_kp[i];

	memset(kp, 0, sizeof(*kp));
	kp->addr = addr;
	kp->symbol_name = name;
	kp->offset = off;
	kp->pre_handler = kh_pre;
	return kp;
}

static struct kretprobe *kh_kretprobe(int i, void *addr, const char *name,
				      unsigned int off)
{
	struct kretprobe *rp = &kh_rp[i];

	memset(rp, 0, sizeof(*rp));
	rp->kp.addr = addr;
	rp->kp.symbol_name = name;
	rp->kp.offset = off;
	rp->handler = kh_ret;
	return rp;
}

/*
 * A kprobe that was never registered, as kmalloc() leaves one: every
 * core-owned field poisoned.
 */
static struct kprobe *kh_stranger(struct kh_ctx *c, void *addr)
{
	struct kprobe *kp;

	if (!c->buf)
		c->buf = kmalloc(sizeof(*kp), GFP_KERNEL);
	kp = c->buf;
	if (!kp)
		return NULL;
	memset(kp, POISON_INUSE, sizeof(*kp));
	kp->addr = addr;
	kp->symbol_name = NULL;
	kp->offset = 0;
	kp->pre_handler = kh_pre;
	kp->post_handler = NULL;
	kp->flags = 0;
	return kp;
}

/* Is @kp registered?  enable_kprobe() of an enabled one changes nothing. */
static const char *kh_registered(struct kprobe *kp)
{
	return enable_kprobe(kp) ? "gone" : "registered";
}

/* ---- the inputs: setups ---- */

static int kh_no(struct kh_ctx *c, const char *why)
{
	c->skip = why;
	return -EOPNOTSUPP;
}

/* The kernel symbol the script passed, and its text. */
static int kh_kernel_sym(struct kh_ctx *c)
{
	if (!sym || !*sym)
		return kh_no(c, "no sym= (the symbol is not in this kernel)");
	c->sym = sym;
	return 0;
}

static int kh_first_addr(struct kh_ctx *c)
{
	if (!nr_addrs)
		return kh_no(c, "no addrs= given");
	c->addr = (void *)addrs[0];
	return 0;
}

static int kh_at_target(struct kh_ctx *c)
{
	c->addr = kh_target;
	kh_region(c, kh_target, KH_TEXT);
	return 0;
}

static int kh_targets(struct kh_ctx *c)
{
	kh_region(c, kh_target, KH_TEXT);
	kh_region(c, kh_target2, KH_TEXT);
	kh_region(c, kh_target3, KH_TEXT);
	kh_region(c, kh_sc_impl, KH_TEXT);
	return 0;
}

static int kh_data_core(struct kh_ctx *c)
{
	c->addr = &system_state;
	kh_region(c, &system_state, sizeof(system_state));
	return 0;
}

static int kh_data_module(struct kh_ctx *c)
{
	c->addr = &kh_data;
	kh_region(c, &kh_data, sizeof(kh_data));
	return 0;
}

static int kh_rodata_core(struct kh_ctx *c)
{
	c->addr = (void *)hex_asc;
	kh_region(c, hex_asc, KH_TEXT);
	return 0;
}

static int kh_rodata_module(struct kh_ctx *c)
{
	c->addr = (void *)kh_rodata;
	kh_region(c, kh_rodata, sizeof(kh_rodata));
	return 0;
}

static int kh_stack(struct kh_ctx *c)
{
	c->addr = c->stack;
	kh_region(c, c->stack, KH_TEXT);
	return 0;
}

static int kh_heap(struct kh_ctx *c)
{
	c->buf = kmalloc(64, GFP_KERNEL);
	if (!c->buf)
		return -ENOMEM;
	memset(c->buf, 0x5a, 64);
	c->addr = c->buf;
	kh_region(c, c->buf, KH_TEXT);
	return 0;
}

static int kh_vmalloc(struct kh_ctx *c)
{
	c->vbuf = vmalloc(PAGE_SIZE);
	if (!c->vbuf)
		return -ENOMEM;
	memset(c->vbuf, 0xa5, PAGE_SIZE);
	c->addr = c->vbuf;
	kh_region(c, c->vbuf, KH_TEXT);
	return 0;
}

static int kh_user(struct kh_ctx *c)
{
	/*
	 * s390 and sparc64 have separate address spaces: 0x400000 is kernel
	 * memory (on sparc64 the kernel image).
	 */
	if (IS_ENABLED(CONFIG_S390) || IS_ENABLED(CONFIG_SPARC64))
		return kh_no(c, "separate address spaces: no user address is a kernel one");
	c->addr = (void *)0x400000UL;
	kh_region(c, c->addr, KH_TEXT);
	return 0;
}

static int kh_noncanonical(struct kh_ctx *c)
{
	if (!IS_ENABLED(CONFIG_X86_64))
		return kh_no(c, "x86-64 only");
	c->addr = (void *)(1UL << (BITS_PER_LONG - 1));
	kh_region(c, c->addr, KH_TEXT);
	return 0;
}

static int kh_vsyscall(struct kh_ctx *c)
{
	if (!IS_ENABLED(CONFIG_X86_VSYSCALL_EMULATION))
		return kh_no(c, "no vsyscall page");
	/* VSYSCALL_ADDR, the page's fixed address */
	c->addr = (void *)(-10UL << 20);
	kh_region(c, c->addr, KH_TEXT);
	return 0;
}

static int kh_no_address(struct kh_ctx *c)
{
	c->off = 0x1000;
	return 0;
}

static int kh_addr_and_sym(struct kh_ctx *c)
{
	c->sym = "kh_target";
	return kh_at_target(c);
}

static int kh_mid_insn_addr(struct kh_ctx *c)
{
#ifdef CONFIG_X86
	c->addr = kh_asm_addr(false) + 1;
	kh_region(c, kh_asm_addr(false), KH_TEXT);
	return 0;
#else
	return kh_no(c, "x86 only");
#endif
}

static int kh_mid_insn_sym(struct kh_ctx *c)
{
#ifdef CONFIG_X86
	c->sym = "kh_asm";
	c->off = 1;
	kh_region(c, kh_asm_addr(false), KH_TEXT);
	return 0;
#else
	return kh_no(c, "x86 only");
#endif
}

static int kh_int3(struct kh_ctx *c)
{
#ifdef CONFIG_X86
	c->addr = kh_asm_addr(true);
	kh_region(c, kh_asm_addr(false), KH_TEXT);
	return 0;
#else
	return kh_no(c, "x86 only");
#endif
}

static int kh_ftrace_mid(struct kh_ctx *c)
{
	if (IS_ENABLED(CONFIG_THUMB2_KERNEL))
		return kh_no(c, "Thumb-2: offset 1 is a function pointer's bit 0");
	c->off = 1;
	return kh_kernel_sym(c);
}

static int kh_jump_label(struct kh_ctx *c)
{
#ifdef CONFIG_JUMP_LABEL
	struct jump_entry *e = THIS_MODULE->jump_entries;
	unsigned int i;

	for (i = 0; i < THIS_MODULE->num_jump_entries; i++) {
		if (jump_entry_key(&e[i]) != &kh_key.key)
			continue;
		c->addr = (void *)jump_entry_code(&e[i]);
		kh_region(c, c->addr, KH_TEXT);
		kh_region(c, kh_keyed, KH_TEXT);
		return 0;
	}
	return kh_no(c, "no entry of kh_key in the module's __jump_table");
#else
	return kh_no(c, "no CONFIG_JUMP_LABEL");
#endif
}

static int kh_static_call(struct kh_ctx *c)
{
#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
	struct static_call_site *s = THIS_MODULE->static_call_sites;
	unsigned long key;
	int i;

	for (i = 0; i < THIS_MODULE->num_static_call_sites; i++) {
		key = (long)s[i].key + (unsigned long)&s[i].key;
		if ((key & ~STATIC_CALL_SITE_FLAGS) !=
		    (unsigned long)&STATIC_CALL_KEY(kh_sc))
			continue;
		c->addr = (void *)((long)s[i].addr + (unsigned long)&s[i].addr);
		kh_region(c, c->addr, KH_TEXT);
		kh_region(c, kh_sc_caller, KH_TEXT);
		return 0;
	}
	return kh_no(c, "no site of kh_sc in the module's .static_call_sites");
#else
	return kh_no(c, "no inline static calls (HAVE_STATIC_CALL_INLINE)");
#endif
}

static int kh_nokprobe_module(struct kh_ctx *c)
{
	c->addr = kh_nokprobe;
	kh_region(c, kh_nokprobe, KH_TEXT);
	return 0;
}

static int kh_kprobes_text_module(struct kh_ctx *c)
{
	c->addr = kh_kprobes_text;
	kh_region(c, kh_kprobes_text, KH_TEXT);
	return 0;
}

static int kh_noinstr_module(struct kh_ctx *c)
{
	c->addr = kh_noinstr;
	kh_region(c, kh_noinstr, KH_TEXT);
	return 0;
}

/* Symbol forms: the name, and the text of kh_target. */
static int kh_named(struct kh_ctx *c, const char *name)
{
	c->sym = name;
	kh_region(c, kh_target, KH_TEXT);
	return 0;
}

static int kh_sym_mod_ok(struct kh_ctx *c)
{
	return kh_named(c, KH_MOD ":kh_target");
}

static int kh_sym_colon_sym(struct kh_ctx *c)
{
	return kh_named(c, ":kh_target");
}

static int kh_sym_mod_colon(struct kh_ctx *c)
{
	return kh_named(c, KH_MOD ":");
}

static int kh_sym_colon(struct kh_ctx *c)
{
	return kh_named(c, ":");
}

static int kh_sym_empty(struct kh_ctx *c)
{
	return kh_named(c, "");
}

static int kh_sym_nomod(struct kh_ctx *c)
{
	return kh_named(c, "kh_no_such_module:kh_target");
}

static int kh_sym_mod_nosym(struct kh_ctx *c)
{
	return kh_named(c, KH_MOD ":kh_no_such_symbol");
}

/* A name of 4 KiB - 1 characters. */
static int kh_sym_4k(struct kh_ctx *c)
{
	c->name = kmalloc(SZ_4K, GFP_KERNEL);
	if (!c->name)
		return -ENOMEM;
	memset(c->name, 'k', SZ_4K - 1);
	c->name[SZ_4K - 1] = '\0';
	return kh_named(c, c->name);
}

/* A module name far longer than any module's, then a valid symbol. */
static int kh_sym_long_mod(struct kh_ctx *c)
{
	c->name = kmalloc(256, GFP_KERNEL);
	if (!c->name)
		return -ENOMEM;
	memset(c->name, 'm', 200);
	strscpy(c->name + 200, ":kh_target", 56);
	return kh_named(c, c->name);
}

static int kh_sym_data(struct kh_ctx *c)
{
	c->sym = "system_state";
	kh_region(c, &system_state, sizeof(system_state));
	return 0;
}

/* "vfs_read+4": a kprobe event's syntax, not a symbol. */
static int kh_sym_event_syntax(struct kh_ctx *c)
{
	int ret = kh_kernel_sym(c);

	if (ret)
		return ret;
	c->name = kasprintf(GFP_KERNEL, "%s+4", sym);
	if (!c->name)
		return -ENOMEM;
	c->sym = c->name;
	return 0;
}

/* kh_target + an offset to the first byte past the module's text. */
static int kh_off_past_text(struct kh_ctx *c)
{
	struct module_memory *text = &THIS_MODULE->mem[MOD_TEXT];
	unsigned long end = (unsigned long)text->base + text->size;

	c->sym = "kh_target";
	c->off = end - kh_text(kh_target);
	kh_region(c, kh_target, KH_TEXT);
	kh_region(c, (void *)end, KH_TEXT);
	return 0;
}

/* kh_target + 0xffffffff: past the top of the address space. */
static int kh_off_huge(struct kh_ctx *c)
{
	if (!IS_ENABLED(CONFIG_64BIT))
		return kh_no(c, "on 32-bit the offset wraps to the byte before");
	c->sym = "kh_target";
	c->off = UINT_MAX;
	kh_region(c, kh_target, KH_TEXT);
	return 0;
}

static int kh_flags_unknown(struct kh_ctx *c)
{
	c->flags = ~(u32)KPROBE_FLAG_DISABLED;
	return kh_at_target(c);
}

static int kh_flags_disabled(struct kh_ctx *c)
{
	c->flags = KPROBE_FLAG_DISABLED;
	return kh_at_target(c);
}

/*
 * kh_target + 1: not a function entry (for kretprobes).  In a Thumb-2
 * kernel an odd offset is taken for a function pointer's bit 0: the
 * second instruction instead.
 */
static int kh_not_entry(struct kh_ctx *c)
{
	c->sym = "kh_target";
	c->off = 1;
	if (IS_ENABLED(CONFIG_THUMB2_KERNEL))
		c->off = *(u16 *)kh_text(kh_target) >= 0xe800 ? 4 : 2;
	kh_region(c, kh_target, KH_TEXT);
	return 0;
}

/* ---- the inputs: runs ---- */

/* Register c's kprobe; if that works, unregister it again. */
static int kh_probe(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, c->addr, c->sym, c->off);
	int ret;

	kp->flags = c->flags;
	ret = register_kprobe(kp);
	if (!ret) {
		kh_live(c, kp);
		unregister_kprobe(kp);
	}
	return ret;
}

/*
 * Registered, then registered again while still registered: unchanged
 * (@moved false), or moved to another address first (@moved true: a
 * reused struct).  The second registration must be refused and the
 * probe stay where it was; the unregistration after it must take it out
 * there (text=original at both targets afterwards).
 */
static int kh_reg_again(struct kh_ctx *c, bool moved)
{
	struct kprobe *kp = kh_kprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	if (moved)
		kp->addr = (void *)kh_target2;
	ret = register_kprobe(kp);
	kh_note(c, " still=%s", kh_registered(kp));
	unregister_kprobe(kp);
	return ret;
}

static int kh_double_reg(struct kh_ctx *c)
{
	return kh_reg_again(c, false);
}

static int kh_moved_double_reg(struct kh_ctx *c)
{
	return kh_reg_again(c, true);
}

/* Register, unregister, register the same kprobe again unchanged. */
static int kh_rereg_same(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	unregister_kprobe(kp);
	ret = register_kprobe(kp);
	if (!ret) {
		kh_live(c, kp);
		unregister_kprobe(kp);
	}
	return ret;
}

/* Register, unregister, move to another address, register again. */
static int kh_moved_rereg(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	unregister_kprobe(kp);
	kp->addr = (void *)kh_target2;
	ret = register_kprobe(kp);
	if (!ret) {
		kh_live(c, kp);
		unregister_kprobe(kp);
	}
	return ret;
}

/*
 * By symbol, unregister, register again unchanged: registration filled in
 * addr, so addr and symbol_name are both set now.
 */
static int kh_rereg_sym(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, NULL, "kh_target", 0);
	int ret;

	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	unregister_kprobe(kp);
	ret = register_kprobe(kp);
	if (!ret)
		unregister_kprobe(kp);
	return ret;
}

static int kh_unreg_never(struct kh_ctx *c)
{
	struct kprobe *kp = kh_stranger(c, kh_target);

	if (!kp)
		return -ENOMEM;
	unregister_kprobe(kp);
	kh_note(c, " addr=%s", kp->addr ? "kept" : "cleared");
	return 0;
}

/* Unregister a stranger at the address of a registered kprobe. */
static int kh_unreg_stranger(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, kh_target, NULL, 0);
	struct kprobe *stranger = kh_stranger(c, kh_target);
	int ret;

	if (!stranger)
		return -ENOMEM;
	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	unregister_kprobe(stranger);
	kh_note(c, " still=%s", kh_registered(kp));
	unregister_kprobe(kp);
	return 0;
}

static int kh_double_unreg(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	unregister_kprobe(kp);
	unregister_kprobe(kp);
	return 0;
}

static int kh_enable_unreg(struct kh_ctx *c)
{
	return enable_kprobe(kh_kprobe(0, kh_target, NULL, 0));
}

static int kh_disable_unreg(struct kh_ctx *c)
{
	return disable_kprobe(kh_kprobe(0, kh_target, NULL, 0));
}

/* enable_kprobe() of an unregistered kprobe must not arm its old site. */
static int kh_enable_after_unreg(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, kh_target, NULL, 0);
	int ret;

	kp->flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	unregister_kprobe(kp);
	return enable_kprobe(kp);
}

/* register_kretprobe(), unregister_kprobe(&rp->kp), unregister_kretprobe(). */
static int kh_rp_via_kprobe(struct kh_ctx *c)
{
	struct kretprobe *rp = kh_kretprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kretprobe(rp);
	if (ret)
		return ret;
	unregister_kprobe(&rp->kp);
	unregister_kretprobe(rp);
	return 0;
}

static int kh_rp_double_unreg(struct kh_ctx *c)
{
	struct kretprobe *rp = kh_kretprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kretprobe(rp);
	if (ret)
		return ret;
	unregister_kretprobe(rp);
	unregister_kretprobe(rp);
	return 0;
}

/* As kh_reg_again(), for a kretprobe; @moved: renamed by symbol. */
static int kh_rp_reg_again(struct kh_ctx *c, bool moved)
{
	struct kretprobe *rp = kh_kretprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kretprobe(rp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	if (moved) {
		rp->kp.addr = NULL;
		rp->kp.symbol_name = "kh_target2";
	}
	ret = register_kretprobe(rp);
	kh_note(c, " still=%s", kh_registered(&rp->kp));
	unregister_kretprobe(rp);
	return ret;
}

static int kh_rp_double_reg(struct kh_ctx *c)
{
	return kh_rp_reg_again(c, false);
}

static int kh_rp_moved_double_reg(struct kh_ctx *c)
{
	return kh_rp_reg_again(c, true);
}

/* A kretprobe at c's place with @maxactive instances of @data bytes. */
static int kh_rp_try(struct kh_ctx *c, int maxactive, size_t data)
{
	struct kretprobe *rp = kh_kretprobe(0, c->addr, c->sym, c->off);
	int ret;

	rp->maxactive = maxactive;
	rp->data_size = data;
	ret = register_kretprobe(rp);
	if (!ret) {
		kh_note(c, " maxactive=%d", rp->maxactive);
		unregister_kretprobe(rp);
	}
	return ret;
}

static int kh_rp_plain(struct kh_ctx *c)
{
	return kh_rp_try(c, 0, 0);
}

static int kh_rp_maxactive_neg(struct kh_ctx *c)
{
	return kh_rp_try(c, -1, 0);
}

static int kh_rp_maxactive_huge(struct kh_ctx *c)
{
	return kh_rp_try(c, INT_MAX, 0);
}

static int kh_rp_data_huge(struct kh_ctx *c)
{
	return kh_rp_try(c, 0, SIZE_MAX);
}

/*
 * After a refused batch: which of @kps stayed registered?  Registering one
 * again succeeds only if it did not.  Leaves none registered.
 */
static int kh_leftover(struct kprobe **kps, int num)
{
	int i, left = 0;

	for (i = 0; i < num; i++) {
		if (!kps[i] || (i && kps[i] == kps[i - 1]))
			continue;
		if (register_kprobe(kps[i]))
			left++;
		unregister_kprobe(kps[i]);
	}
	return left;
}

/*
 * kh_target, kh_target2, @third, kh_target3 in a batch of @num; @bad: the
 * third is refused (not asked again afterwards).
 */
static int kh_batch(struct kh_ctx *c, struct kprobe *third, bool bad, int num)
{
	struct kprobe *kps[KH_PROBES];
	int ret;

	kps[0] = kh_kprobe(0, kh_target, NULL, 0);
	kps[1] = kh_kprobe(1, kh_target2, NULL, 0);
	kps[2] = third;
	kps[3] = kh_kprobe(3, kh_target3, NULL, 0);
	ret = register_kprobes(kps, num);
	if (!ret) {
		unregister_kprobes(kps, num);
		return 0;
	}
	if (bad)
		kps[2] = NULL;
	kh_note(c, " leftover=%d", kh_leftover(kps, KH_PROBES));
	return ret;
}

static int kh_batch_null(struct kh_ctx *c)
{
	return kh_batch(c, NULL, true, KH_PROBES);
}

static int kh_batch_bad_mid(struct kh_ctx *c)
{
	return kh_batch(c, kh_kprobe(2, &kh_data, NULL, 0), true, KH_PROBES);
}

static int kh_batch_num0(struct kh_ctx *c)
{
	return kh_batch(c, kh_kprobe(2, kh_sc_impl, NULL, 0), false, 0);
}

static int kh_batch_num_neg(struct kh_ctx *c)
{
	return kh_batch(c, kh_kprobe(2, kh_sc_impl, NULL, 0), false, -1);
}

/* The same kprobe twice in one batch. */
static int kh_batch_dup(struct kh_ctx *c)
{
	struct kprobe *kps[2];
	int ret;

	kps[0] = kh_kprobe(0, kh_target, NULL, 0);
	kps[1] = kps[0];
	ret = register_kprobes(kps, 2);
	if (!ret) {
		unregister_kprobe(kps[0]);
		return 0;
	}
	kh_note(c, " leftover=%d", kh_leftover(kps, 2));
	return ret;
}

/* unregister_kprobes() with num -1 must leave the probe alone. */
static int kh_unreg_batch_neg(struct kh_ctx *c)
{
	struct kprobe *kp = kh_kprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kprobe(kp);
	if (ret) {
		kh_note(c, " setup=failed");
		return ret;
	}
	unregister_kprobes(&kp, -1);
	kh_note(c, " still=%s", kh_registered(kp));
	unregister_kprobe(kp);
	return 0;
}

static int kh_rp_batch_num0(struct kh_ctx *c)
{
	struct kretprobe *rp = kh_kretprobe(0, kh_target, NULL, 0);
	int ret;

	ret = register_kretprobes(&rp, 0);
	if (!ret)
		unregister_kretprobe(rp);
	return ret;
}

static int kh_rp_batch_null(struct kh_ctx *c)
{
	struct kretprobe *rps[2];
	int ret;

	rps[0] = kh_kretprobe(0, kh_target, NULL, 0);
	rps[1] = NULL;
	ret = register_kretprobes(rps, 2);
	if (!ret) {
		unregister_kretprobe(rps[0]);
		return 0;
	}
	/* rps[0] must have been unregistered again: it registers anew. */
	if (register_kretprobe(rps[0])) {
		kh_note(c, " leftover=1");
	} else {
		kh_note(c, " leftover=0");
		unregister_kretprobe(rps[0]);
	}
	return ret;
}

/* NULL to every entry point (each one's own input). */
static int kh_null_register_kprobe(struct kh_ctx *c)
{
	return register_kprobe(NULL);
}

static int kh_null_register_kretprobe(struct kh_ctx *c)
{
	return register_kretprobe(NULL);
}

static int kh_null_unregister_kprobe(struct kh_ctx *c)
{
	unregister_kprobe(NULL);
	return 0;
}

static int kh_null_unregister_kretprobe(struct kh_ctx *c)
{
	unregister_kretprobe(NULL);
	return 0;
}

static int kh_null_enable(struct kh_ctx *c)
{
	return enable_kprobe(NULL);
}

static int kh_null_disable(struct kh_ctx *c)
{
	return disable_kprobe(NULL);
}

static int kh_null_register_kprobes(struct kh_ctx *c)
{
	return register_kprobes(NULL, 1);
}

static int kh_null_unregister_kprobes(struct kh_ctx *c)
{
	unregister_kprobes(NULL, 1);
	return 0;
}

static int kh_null_register_kretprobes(struct kh_ctx *c)
{
	return register_kretprobes(NULL, 1);
}

static int kh_nothing(struct kh_ctx *c)
{
	return 0;
}

/* ---- the table ---- */

/* Crashes upstream's kprobes or WARNs there: run only with force=1. */
#define KH_UPSTREAM_UNSAFE	BIT(0)

struct kh_input {
	const char *name;
	int (*setup)(struct kh_ctx *c);
	int (*run)(struct kh_ctx *c);
	unsigned int flags;
};

#define KH_IN(name, setup, run)		{ name, setup, run, 0 }
#define KH_UNSAFE(name, setup, run)	{ name, setup, run, KH_UPSTREAM_UNSAFE }

static const struct kh_input kh_inputs[] = {
	KH_IN("none", NULL, kh_nothing),
	/* addresses that are not text */
	KH_IN("data_core", kh_data_core, kh_probe),
	KH_IN("data_module", kh_data_module, kh_probe),
	KH_IN("rodata_core", kh_rodata_core, kh_probe),
	KH_IN("rodata_module", kh_rodata_module, kh_probe),
	KH_IN("stack", kh_stack, kh_probe),
	KH_IN("heap", kh_heap, kh_probe),
	KH_IN("vmalloc", kh_vmalloc, kh_probe),
	KH_IN("user", kh_user, kh_probe),
	KH_IN("noncanonical", kh_noncanonical, kh_probe),
	KH_IN("vsyscall", kh_vsyscall, kh_probe),
	KH_IN("no_address", kh_no_address, kh_probe),
	KH_IN("kprobe_slot", kh_first_addr, kh_probe),
	/* text that must not be probed */
	KH_IN("entry_text", kh_kernel_sym, kh_probe),
	KH_IN("noinstr", kh_kernel_sym, kh_probe),
	KH_IN("init_freed", kh_kernel_sym, kh_probe),
	KH_IN("int3", kh_int3, kh_probe),
	KH_IN("mid_insn_addr", kh_mid_insn_addr, kh_probe),
	KH_IN("mid_insn_sym", kh_mid_insn_sym, kh_probe),
	KH_IN("ftrace_mid", kh_ftrace_mid, kh_probe),
	KH_IN("jump_label", kh_jump_label, kh_probe),
	KH_IN("static_call", kh_static_call, kh_probe),
	KH_IN("nokprobe_module", kh_nokprobe_module, kh_probe),
	KH_IN("kprobes_text_module", kh_kprobes_text_module, kh_probe),
	KH_IN("noinstr_module", kh_noinstr_module, kh_probe),
	/* kprobes' own code, by name */
	KH_IN("int3_handler", kh_kernel_sym, kh_probe),
	KH_IN("fault_handler", kh_kernel_sym, kh_probe),
	KH_IN("ftrace_handler", kh_kernel_sym, kh_probe),
	KH_IN("exceptions_notify", kh_kernel_sym, kh_probe),
	KH_IN("busy_begin", kh_kernel_sym, kh_probe),
	KH_IN("kretprobe_trampoline", kh_kernel_sym, kh_probe),
	KH_IN("trampoline_handler", kh_kernel_sym, kh_probe),
	KH_IN("arch_arm_kprobe", kh_kernel_sym, kh_probe),
	/* symbol forms */
	KH_IN("sym_mod_ok", kh_sym_mod_ok, kh_probe),
	KH_IN("sym_colon_sym", kh_sym_colon_sym, kh_probe),
	KH_IN("sym_mod_colon", kh_sym_mod_colon, kh_probe),
	KH_IN("sym_colon", kh_sym_colon, kh_probe),
	KH_IN("sym_empty", kh_sym_empty, kh_probe),
	KH_IN("sym_4k", kh_sym_4k, kh_probe),
	KH_IN("sym_nomod", kh_sym_nomod, kh_probe),
	KH_IN("sym_mod_nosym", kh_sym_mod_nosym, kh_probe),
	KH_IN("sym_long_mod", kh_sym_long_mod, kh_probe),
	KH_IN("sym_dup", kh_kernel_sym, kh_probe),
	KH_IN("sym_data", kh_sym_data, kh_probe),
	KH_IN("sym_event_syntax", kh_sym_event_syntax, kh_probe),
	KH_IN("addr_and_sym", kh_addr_and_sym, kh_probe),
	/* offsets and flags */
	KH_IN("off_past_text", kh_off_past_text, kh_probe),
	KH_IN("off_huge", kh_off_huge, kh_probe),
	KH_IN("flags_unknown", kh_flags_unknown, kh_probe),
	KH_IN("flags_disabled", kh_flags_disabled, kh_probe),
	/* registration and unregistration out of order */
	KH_UNSAFE("double_reg", kh_targets, kh_double_reg),
	KH_IN("rereg_same", kh_targets, kh_rereg_same),
	KH_IN("moved_rereg", kh_targets, kh_moved_rereg),
	KH_UNSAFE("moved_double_reg", kh_targets, kh_moved_double_reg),
	KH_UNSAFE("rp_moved_double_reg", kh_targets, kh_rp_moved_double_reg),
	KH_IN("rereg_sym", kh_targets, kh_rereg_sym),
	KH_IN("unreg_never", kh_targets, kh_unreg_never),
	KH_IN("unreg_stranger", kh_targets, kh_unreg_stranger),
	KH_IN("double_unreg", kh_targets, kh_double_unreg),
	KH_IN("enable_unreg", kh_targets, kh_enable_unreg),
	KH_IN("disable_unreg", kh_targets, kh_disable_unreg),
	KH_IN("enable_after_unreg", kh_targets, kh_enable_after_unreg),
	KH_IN("rp_via_kprobe", kh_targets, kh_rp_via_kprobe),
	KH_UNSAFE("rp_double_unreg", kh_targets, kh_rp_double_unreg),
	KH_UNSAFE("rp_double_reg", kh_targets, kh_rp_double_reg),
	/* batches */
	KH_UNSAFE("batch_null", kh_targets, kh_batch_null),
	KH_IN("batch_bad_mid", kh_targets, kh_batch_bad_mid),
	KH_IN("batch_num0", kh_targets, kh_batch_num0),
	KH_IN("batch_num_neg", kh_targets, kh_batch_num_neg),
	KH_UNSAFE("batch_dup", kh_targets, kh_batch_dup),
	KH_IN("unreg_batch_neg", kh_targets, kh_unreg_batch_neg),
	KH_IN("rp_batch_num0", kh_targets, kh_rp_batch_num0),
	KH_UNSAFE("rp_batch_null", kh_targets, kh_rp_batch_null),
	/* kretprobe parameters */
	KH_IN("rp_maxactive_neg", kh_at_target, kh_rp_maxactive_neg),
	KH_IN("rp_maxactive_zero", kh_at_target, kh_rp_plain),
	KH_IN("rp_maxactive_huge", kh_at_target, kh_rp_maxactive_huge),
	KH_IN("rp_data_huge", kh_at_target, kh_rp_data_huge),
	KH_IN("rp_not_entry", kh_not_entry, kh_rp_plain),
	KH_IN("rp_no_return", kh_kernel_sym, kh_rp_plain),
	/* NULL */
	KH_UNSAFE("null_register_kprobe", NULL, kh_null_register_kprobe),
	KH_UNSAFE("null_register_kretprobe", NULL, kh_null_register_kretprobe),
	KH_UNSAFE("null_unregister_kprobe", NULL, kh_null_unregister_kprobe),
	KH_UNSAFE("null_unregister_kretprobe", NULL,
		  kh_null_unregister_kretprobe),
	KH_UNSAFE("null_enable", NULL, kh_null_enable),
	KH_UNSAFE("null_disable", NULL, kh_null_disable),
	KH_UNSAFE("null_register_kprobes", NULL, kh_null_register_kprobes),
	KH_UNSAFE("null_unregister_kprobes", NULL, kh_null_unregister_kprobes),
	KH_UNSAFE("null_register_kretprobes", NULL,
		  kh_null_register_kretprobes),
};

/* ---- running one ---- */

static void kh_run(const struct kh_input *in)
{
	u8 stack[KH_TEXT];
	long slab0, slab1;
	bool varied = false;
	struct kh_ctx *c;
	const char *text;
	int i, ret, r;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		snprintf(result, sizeof(result), "error=nomem");
		return;
	}
	memset(stack, 0x3c, sizeof(stack));
	c->stack = stack;
	for (i = 0; i < nr_addrs; i++)
		kh_region(c, (void *)addrs[i], KH_TEXT);

	ret = in->setup ? in->setup(c) : 0;
	if (ret) {
		if (c->skip)
			snprintf(result, sizeof(result), "ret=0 skip=%s", c->skip);
		else
			snprintf(result, sizeof(result), "error=setup%d", ret);
		goto out;
	}
	for (i = 0; i < c->nr_regions; i++) {
		struct kh_region *reg = &c->region[i];

		reg->ok = kh_read(reg->addr, reg->before, reg->len);
	}

	c->first = true;
	ret = in->run(c);
	c->first = false;
	slab0 = kh_slab_pages();
	for (i = 0; i < rounds; i++) {
		r = in->run(c);
		varied |= r != ret;
	}
	slab1 = kh_slab_pages();
	text = kh_text_after(c);

	snprintf(result, sizeof(result),
		 "ret=%d text=%s rounds=%d slab_kb=%ld varied=%d%s",
		 ret, text, rounds, (slab1 - slab0) * (long)(PAGE_SIZE / SZ_1K),
		 varied, c->notes);
out:
	kfree(c->buf);
	vfree(c->vbuf);
	kfree(c->name);
	kfree(c);
}

static int __init kh_init(void)
{
	bool ours = IS_ENABLED(CONFIG_HAVE_KRETPROBE_INSTANCE_POOL);
	const struct kh_input *in = NULL;
	int i;

	strscpy(impl, ours ? "ours" : "upstream", sizeof(impl));
	for (i = 0; input && i < ARRAY_SIZE(kh_inputs); i++)
		if (!strcmp(input, kh_inputs[i].name))
			in = &kh_inputs[i];
	if (!in)
		snprintf(result, sizeof(result), "error=unknown-input");
	else if (!ours && !force && (in->flags & KH_UPSTREAM_UNSAFE))
		snprintf(result, sizeof(result),
			 "ret=0 skip=crashes upstream's kprobes (force=1 runs it)");
	else
		kh_run(in);
	pr_info("%s: %s\n", input ?: "(no input)", result);
	return 0;
}
module_init(kh_init);

/* Every input cleaned up after itself at load: nothing to do. */
static void __exit kh_exit(void)
{
}
module_exit(kh_exit);

MODULE_DESCRIPTION("kprobes kselftest: hostile inputs to the kprobes API");
MODULE_LICENSE("GPL");
