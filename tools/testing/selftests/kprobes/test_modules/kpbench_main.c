// SPDX-License-Identifier: GPL-2.0
/*
 * kpbench - the kprobes benchmark module: the cost of a probe hit of each
 * kind, and of registering probes in bulk (bench_smoke.sh runs it at a
 * tiny size; a benchmark harness loads it with its full defaults).
 *
 * Loading it runs every measurement from module_init and prints one line
 * per result on the console:
 *
 *	kpbench,<metric>,<value>
 *
 * ns values are per probe hit, minus the cost of the same call unprobed;
 * us values are elapsed times; kB values are memory per 1,000 probes.
 * Only the public kprobes API is used, so the module builds and runs
 * against our kprobes and against upstream's alike.
 *
 * Guest time comes from ktime_get_ns().  Under QEMU with -icount shift=0
 * one virtual nanosecond is one guest instruction, so the numbers are
 * instruction counts and do not depend on the host's load.
 *
 * Parameters:
 *	iters=N		calls per timing loop (default 20000)
 *	reps=N		timing loops per measurement, the fastest counts (3)
 *	mass_max=N	largest mass registration and scaling size (10000;
 *			0 skips mass registration and scaling)
 */

#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kpbench.h"

static unsigned int iters = 20000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "calls per timing loop");
static unsigned int reps = 3;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "timing loops per measurement, the fastest counts");
static unsigned int mass_max = 10000;
module_param(mass_max, uint, 0444);
MODULE_PARM_DESC(mass_max, "largest mass registration (0: none)");

typedef long (*kpb_fn_t)(long a, long b);

/*
 * The ftrace target is C, so that the compiler gives it the fentry call
 * that ftrace patches; kpb_ftrace_plain is its unprobed twin.
 */
static noinline long kpb_ftrace_target(long a, long b)
{
	barrier();
	return a + b;
}

/* a - b, not a + b: identical bodies could be folded into one function. */
static noinline long kpb_ftrace_plain(long a, long b)
{
	barrier();
	return a - b;
}

static unsigned long kpb_hits;
static long kpb_sink;
/* Do not read the kprobes list (thousands of lines with the mass probes). */
static bool kpb_no_list;

static int kpb_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpb_hits++;
	return 0;
}

static void kpb_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	kpb_hits++;
}

static int kpb_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kpb_hits++;
	return 0;
}

static void kpb_out(const char *metric, const char *fmt, ...)
{
	char buf[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pr_info("kpbench,%s,%s\n", metric, buf);
}

/*
 * The fastest of reps loops of iters calls of fn, in ns.  The pointer is
 * hidden from the optimizer so that the call is neither inlined nor elided.
 */
static u64 kpb_time(kpb_fn_t fn)
{
	u64 best = U64_MAX;
	unsigned int r, i;

	for (r = 0; r < reps; r++) {
		u64 t0 = ktime_get_ns();

		for (i = 0; i < iters; i++) {
			OPTIMIZER_HIDE_VAR(fn);
			kpb_sink += fn(i, 1);
		}
		t0 = ktime_get_ns() - t0;
		if (t0 < best)
			best = t0;
		cond_resched();
	}
	return best;
}

/* Print (probed - plain) / iters as ns with one decimal. */
static void kpb_report_hit(const char *metric, u64 probed, u64 plain)
{
	s64 d = (s64)probed - (s64)plain;
	s64 tenths = div_s64(d * 10, iters);
	u32 tenth;
	u64 whole = div_u64_rem(abs(tenths), 10, &tenth);

	/* div_u64_rem(): 32-bit kernels (mips, ARM) have no 64-bit "/" */
	kpb_out(metric, "%s%llu.%u", tenths < 0 ? "-" : "", whole, tenth);
}

/*
 * Read up to count bytes of f at *pos into the kernel buffer buf.  procfs
 * files support kernel_read(); debugfs files only have a ->read() that
 * copies to user space, so those go through a page mapped in the address
 * space of the task loading the module (insmod).
 */
static ssize_t kpb_read_some(struct file *f, char *buf, size_t count,
			     loff_t *pos)
{
	unsigned long ubuf;
	ssize_t n;

	if (f->f_op->read_iter)
		return kernel_read(f, buf, count, pos);
	if (!f->f_op->read)
		return -EINVAL;
	count = min_t(size_t, count, PAGE_SIZE);
	ubuf = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(ubuf))
		return (ssize_t)ubuf;
	n = f->f_op->read(f, (char __user *)ubuf, count, pos);
	if (n > 0 && copy_from_user(buf, (const void __user *)ubuf, n))
		n = -EFAULT;
	vm_munmap(ubuf, PAGE_SIZE);
	return n;
}

/*
 * Read a whole small file (debugfs, procfs) into a kvmalloc'ed string; the
 * kprobes list is how the kind of each probe is verified, the same way for
 * both kernels.
 */
static char *kpb_read(const char *path)
{
	size_t size = 16384, len = 0;
	struct file *f;
	loff_t pos = 0;
	char *buf;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return NULL;
	buf = kvmalloc(size, GFP_KERNEL);
	while (buf) {
		ssize_t n = kpb_read_some(f, buf + len, size - len - 1, &pos);

		if (n <= 0)
			break;
		len += n;
		if (len + 1 == size) {
			char *bigger = kvrealloc(buf, size * 2, GFP_KERNEL);

			if (!bigger) {
				kvfree(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			size *= 2;
		}
	}
	if (buf)
		buf[len] = '\0';
	filp_close(f, NULL);
	return buf;
}

/* Print the lines of the kprobes list that mention sym as "list" metrics. */
static bool kpb_list(const char *kind, const char *sym, const char *tag)
{
	char *buf = kpb_read("/sys/kernel/debug/kprobes/list");
	char *line, *cur = buf;
	char want[64];
	bool found = false;

	if (!buf)
		return false;
	snprintf(want, sizeof(want), "%s+", sym);
	while ((line = strsep(&cur, "\n"))) {
		if (!strstr(line, want))
			continue;
		kpb_out("list", "%s: %s", kind, strim(line));
		if (!tag || strstr(line, tag))
			found = true;
	}
	kvfree(buf);
	return found;
}

/*
 * Is the probe at @addr optimized, judged from the text itself: is there a
 * jump where the breakpoint would be?  The list's [OPTIMIZED] is no proof:
 * upstream shows it as soon as a probe is queued for optimization, before
 * its optimizer has written the jump.  Only x86, arm64, arm and (ours)
 * riscv optimize probes in module text, where the targets are (see
 * KPB_OPT_MODULE).
 */
static bool kpb_text_is_jump(const void *addr)
{
	__le32 insn;
	u8 op;

	if (IS_ENABLED(CONFIG_ARM64)) {
		if (copy_from_kernel_nofault(&insn, addr, sizeof(insn)))
			return false;
		/* B imm26 */
		return (le32_to_cpu(insn) & 0xfc000000) == 0x14000000;
	}
	if (IS_ENABLED(CONFIG_RISCV)) {
		if (copy_from_kernel_nofault(&insn, addr, sizeof(insn)))
			return false;
		/* jal zero, imm20 */
		return (le32_to_cpu(insn) & 0xfff) == 0x06f;
	}
	if (IS_ENABLED(CONFIG_ARM)) {
		if (copy_from_kernel_nofault(&insn, addr, sizeof(insn)))
			return false;
		/* B<cond> imm24, ARM instruction set (both kernels: "b") */
		return (le32_to_cpu(insn) & 0x0f000000) == 0x0a000000;
	}
	if (IS_ENABLED(CONFIG_PPC)) {
		u32 word;

		if (copy_from_kernel_nofault(&word, addr, sizeof(word)))
			return false;
		/* b: I-form, primary opcode 18, neither AA nor LK */
		return (word & 0xfc000003) == 0x48000000;
	}
	if (!IS_ENABLED(CONFIG_X86))
		return false;
	if (copy_from_kernel_nofault(&op, addr, sizeof(op)))
		return false;
	return op == 0xe9;	/* jmp rel32 */
}

/* Wait up to ~20 s for the jump to be in the text at @addr. */
static bool kpb_wait_jump(const void *addr)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (kpb_text_is_jump(addr))
			return true;
		msleep(20);
	}
	return false;
}

/* /proc/meminfo fields, in kB. */
struct kpb_mem {
	long slab, percpu, vmalloc;
};

static long kpb_field(const char *buf, const char *name)
{
	const char *p = strstr(buf, name);
	long v = 0;

	if (p && sscanf(p + strlen(name), " %ld", &v) == 1)
		return v;
	return 0;
}

static void kpb_meminfo(struct kpb_mem *m)
{
	char *buf;

	/*
	 * Let frees deferred by RCU (of an earlier unregistration) land
	 * first.  The slab and percpu counters are kept per CPU and folded
	 * into the totals /proc/meminfo shows once per vm.stat_interval
	 * (1 s): wait for a fold, or small changes stay invisible.
	 */
	rcu_barrier();
	msleep(1500);
	buf = kpb_read("/proc/meminfo");
	memset(m, 0, sizeof(*m));
	if (!buf)
		return;
	m->slab = kpb_field(buf, "\nSlab:");
	m->percpu = kpb_field(buf, "\nPercpu:");
	m->vmalloc = kpb_field(buf, "\nVmallocUsed:");
	kvfree(buf);
}

/* ---- per-hit cost -------------------------------------------------------- */

/*
 * The tag of a case that may or may not become a jump (r, below): kpb_hit()
 * times it once the jump is in the text, or after 20 s without, and says
 * which: a number taken while the optimizer was at work would be neither.
 */
static const char KPB_MAY_OPT[] = "optimizable";

enum { KPB_PRE = 1, KPB_POST = 2 };

static void kpb_init_kprobe(struct kprobe *kp, kpb_fn_t fn, int handlers)
{
	memset(kp, 0, sizeof(*kp));
	kp->addr = (kprobe_opcode_t *)fn;
	if (handlers & KPB_PRE)
		kp->pre_handler = kpb_pre;
	if (handlers & KPB_POST)
		kp->post_handler = kpb_post;
}

static void kpb_init_kretprobe(struct kretprobe *rp, kpb_fn_t fn)
{
	memset(rp, 0, sizeof(*rp));
	rp->kp.addr = (kprobe_opcode_t *)fn;
	rp->handler = kpb_ret;
	rp->maxactive = 4;
}

/* The kernel function of powerpc's o and ro (kpb_hit_costs()). */
#define KPB_KERNEL_SYM	"memchr_inv"

/*
 * One per-hit measurement: fn probed by a kprobe (handlers != 0) and/or a
 * kretprobe, against plain, a never-probed function of the same shape.
 * sym KPB_KERNEL_SYM: the probes go on that kernel function, which fn
 * calls, and plain, which calls it the same way, is timed before they
 * are registered.  Whatever else calls sym meanwhile hits them too.
 */
static void kpb_hit(const char *metric, const char *sym, kpb_fn_t fn,
		    kpb_fn_t plain, int handlers, bool ret, const char *tag)
{
	static struct kprobe kp;
	static struct kretprobe rp;
	bool kernel_text = !strcmp(sym, KPB_KERNEL_SYM);
	unsigned long hits, want;
	u64 t_plain = 0, t_probed;
	int err;

	if (kernel_text)
		t_plain = kpb_time(plain);
	if (handlers) {
		kpb_init_kprobe(&kp, fn, handlers);
		/*
		 * ppc64 ELFv2: a C function's address is its global entry
		 * (the TOC setup); its ftrace call comes after it, and
		 * kprobes put an entry probe there when given the name.
		 */
		if (kernel_text || (IS_ENABLED(CONFIG_PPC64_ELF_ABI_V2) && tag &&
				    !strcmp(tag, "[FTRACE]"))) {
			kp.addr = NULL;
			kp.symbol_name = sym;
		}
		err = register_kprobe(&kp);
		if (err) {
			kpb_out("error", "%s: register_kprobe %d", metric, err);
			return;
		}
	}
	if (ret) {
		kpb_init_kretprobe(&rp, fn);
		if (kernel_text) {
			rp.kp.addr = NULL;
			rp.kp.symbol_name = sym;
		}
		err = register_kretprobe(&rp);
		if (err) {
			kpb_out("error", "%s: register_kretprobe %d", metric, err);
			if (handlers)
				unregister_kprobe(&kp);
			return;
		}
	}
	/* A case that may become a jump is timed once it has settled. */
	if (tag == KPB_MAY_OPT) {
		kpb_out("note", "%s: entry timed as %s", metric,
			kpb_wait_jump(handlers ? kp.addr : rp.kp.addr) ?
			"a jump" : "a breakpoint (no jump after 20 s)");
		tag = NULL;
	}
	/* An optimized case is timed only once its jump is in the text. */
	if (tag && !strcmp(tag, "[OPTIMIZED]") &&
	    !kpb_wait_jump(handlers ? kp.addr : rp.kp.addr)) {
		kpb_out("error", "%s: no jump at %s after 20 s, not timed",
			metric, sym);
		kpb_list(metric, sym, tag);
		goto out;
	}
	if (!kpb_no_list && !kpb_list(metric, sym, tag))
		kpb_out("warning", "%s: %s is not %s", metric, sym, tag ?: "listed");

	if (!kernel_text)
		t_plain = kpb_time(plain);
	hits = kpb_hits;
	t_probed = kpb_time(fn);
	hits = kpb_hits - hits;

	/*
	 * Every call must have hit every handler, or the number is void;
	 * other callers of kernel text may add hits.
	 */
	want = (unsigned long)iters * reps *
	       (!!(handlers & KPB_PRE) + !!(handlers & KPB_POST) + ret);
	if (kernel_text ? hits < want : hits != want)
		kpb_out("error", "%s: %lu handler calls, expected %lu", metric,
			hits, want);
	else
		kpb_report_hit(metric, t_probed, t_plain);
out:
	if (ret)
		unregister_kretprobe(&rp);
	if (handlers)
		unregister_kprobe(&kp);
}

/*
 * What the list must say of a probe that the kernel can optimize (or put
 * on ftrace); NULL where the architecture cannot (upstream riscv: no
 * OPTPROBES; riscv: no KPROBES_ON_FTRACE).  The same kernel config
 * decides for both kernels.
 * powerpc has OPTPROBES, but an optimized probe is a relative branch
 * ("b", +/- 32 MB) to a detour in a buffer inside kernel text: module
 * text, where these targets are, is out of its reach.  arm64's "B"
 * reaches +/- 128 MiB, and module text in the window arm64 keeps around
 * the kernel image reaches its detours (a module loaded further away
 * stays a BRK probe, and this benchmark then reports the missing jump).
 * 32-bit ARM's "b" reaches +/- 32 MiB: from the 16 MiB module area below
 * the kernel to the detours in the image (ours) or in the module area
 * (upstream's).  riscv's "jal" (ours) reaches +/- 1 MiB: to a page of
 * the module area allocated beside the module.
 */
#define KPB_OPT_MODULE	(IS_ENABLED(CONFIG_OPTPROBES) && !IS_ENABLED(CONFIG_PPC))
#define KPB_OPT		(KPB_OPT_MODULE ? "[OPTIMIZED]" : NULL)
#define KPB_FTRACE	(IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) ? "[FTRACE]" : NULL)
/*
 * r's entry is a short function's first instruction: too little for x86's
 * 5-byte jump, but one instruction that arm, arm64 and riscv may replace by
 * a branch.
 */
#define KPB_R_TAG	(KPB_OPT_MODULE && !IS_ENABLED(CONFIG_X86) ? \
			 KPB_MAY_OPT : NULL)

/*
 * powerpc's o and ro, then, on kernel text: memchr_inv() (lib/string.c,
 * built without ftrace calls, so a probe at its entry is not one on
 * ftrace; its first instruction compares registers, which both kernels
 * optimize), with nothing to scan.  Each path calls it from a function
 * of its own, where make hitcount starts its trace (kphit.py's
 * KERNEL_TEXT_PATHS); the time without the probe is taken first, through
 * a third.
 */
#define KPB_OPT_KERNEL	(IS_ENABLED(CONFIG_OPTPROBES) && IS_ENABLED(CONFIG_PPC))

static noinline long kpb_kernel_plain(long a, long b)
{
	return (long)memchr_inv(&kpb_sink, 0, 0) + a;
}

static noinline long kpb_t_ko(long a, long b)
{
	return (long)memchr_inv(&kpb_sink, 0, 0) + a;
}

static noinline long kpb_t_kro(long a, long b)
{
	return (long)memchr_inv(&kpb_sink, 0, 0) + a;
}

static void kpb_hit_costs(void)
{
	kpb_hit("hit_k_ns", "kpb_t_k", kpb_t_k, kpb_t_plain,
		KPB_PRE | KPB_POST, false, NULL);
	kpb_hit("hit_b_ns", "kpb_t_b", kpb_t_b, kpb_t_short_plain,
		KPB_PRE, false, NULL);
	/* Without jump optimization "o" and "ro" would be "b" and "r". */
	if (KPB_OPT)
		kpb_hit("hit_o_ns", "kpb_t_o", kpb_t_o, kpb_t_plain,
			KPB_PRE, false, KPB_OPT);
	else if (KPB_OPT_KERNEL)
		kpb_hit("hit_o_ns", KPB_KERNEL_SYM, kpb_t_ko,
			kpb_kernel_plain, KPB_PRE, false, "[OPTIMIZED]");
	kpb_hit("hit_f_ns", "kpb_ftrace_target", kpb_ftrace_target,
		kpb_ftrace_plain, KPB_PRE, false, KPB_FTRACE);
	kpb_hit("hit_r_ns", "kpb_t_r", kpb_t_r, kpb_t_short_plain,
		0, true, KPB_R_TAG);
	if (KPB_OPT)
		kpb_hit("hit_ro_ns", "kpb_t_ro", kpb_t_ro, kpb_t_plain,
			0, true, KPB_OPT);
	else if (KPB_OPT_KERNEL)
		kpb_hit("hit_ro_ns", KPB_KERNEL_SYM, kpb_t_kro,
			kpb_kernel_plain, 0, true, "[OPTIMIZED]");
	/* Steady state in both kernels: upstream optimizes the pair too. */
	kpb_hit("hit_kr_ns", "kpb_t_kr", kpb_t_kr, kpb_t_plain,
		KPB_PRE, true, KPB_OPT);
}

/* ---- mass registration --------------------------------------------------- */

static struct kprobe *kpb_mass;
static struct kprobe **kpb_mass_ptrs;

/* Prepare n probes, one on each of kpb_m0 ... kpb_m<n-1>. */
static void kpb_mass_prepare(unsigned int n)
{
	unsigned long base = (unsigned long)kpb_m0;
	unsigned long stride = (unsigned long)kpb_m1 - base;
	unsigned int i;

	for (i = 0; i < n; i++) {
		/*
		 * A post_handler keeps these probes out of the optimizer in
		 * both kernels, so the timings are of registration alone.
		 */
		kpb_init_kprobe(&kpb_mass[i],
				(kpb_fn_t)(base + i * stride),
				KPB_PRE | KPB_POST);
		kpb_mass_ptrs[i] = &kpb_mass[i];
	}
}

static void kpb_mem_report(const char *what, unsigned int n,
			   const struct kpb_mem *a, const struct kpb_mem *b)
{
	char metric[48];

	snprintf(metric, sizeof(metric), "%s_slab_kB_per1k", what);
	kpb_out(metric, "%ld", (b->slab - a->slab) * 1000 / (long)n);
	snprintf(metric, sizeof(metric), "%s_percpu_kB_per1k", what);
	kpb_out(metric, "%ld", (b->percpu - a->percpu) * 1000 / (long)n);
	snprintf(metric, sizeof(metric), "%s_vmalloc_kB_per1k", what);
	kpb_out(metric, "%ld", (b->vmalloc - a->vmalloc) * 1000 / (long)n);
}

/* register_kprobes() then unregister_kprobes() of n probes. */
static void kpb_mass_batch(unsigned int n)
{
	struct kpb_mem before, after;
	char metric[48], what[24];
	u64 t0, t_reg, t_unreg;
	int err;

	kpb_mass_prepare(n);
	kpb_meminfo(&before);
	t0 = ktime_get_ns();
	err = register_kprobes(kpb_mass_ptrs, n);
	t_reg = ktime_get_ns() - t0;
	if (err) {
		kpb_out("error", "register_kprobes(%u): %d", n, err);
		return;
	}
	kpb_meminfo(&after);
	t0 = ktime_get_ns();
	unregister_kprobes(kpb_mass_ptrs, n);
	t_unreg = ktime_get_ns() - t0;

	snprintf(metric, sizeof(metric), "mass%u_reg_us", n);
	kpb_out(metric, "%llu", div_u64(t_reg, 1000));
	snprintf(metric, sizeof(metric), "mass%u_unreg_us", n);
	kpb_out(metric, "%llu", div_u64(t_unreg, 1000));
	snprintf(what, sizeof(what), "mass%u", n);
	kpb_mem_report(what, n, &before, &after);
}

/*
 * n single register_kprobe() calls, then n single unregister_kprobe()
 * calls: what perf and bpftrace do when they attach and detach probes.
 */
static void kpb_mass_single(unsigned int n)
{
	struct kpb_mem before, after;
	char metric[48], what[24];
	unsigned int i, j;
	u64 t0, t_reg, t_unreg;
	int err = 0;

	kpb_mass_prepare(n);
	kpb_meminfo(&before);
	t0 = ktime_get_ns();
	for (i = 0; i < n && !err; i++)
		err = register_kprobe(kpb_mass_ptrs[i]);
	t_reg = ktime_get_ns() - t0;
	if (err) {
		kpb_out("error", "register_kprobe #%u: %d", i - 1, err);
		i--;
	}
	kpb_meminfo(&after);
	t0 = ktime_get_ns();
	for (j = 0; j < i; j++)
		unregister_kprobe(kpb_mass_ptrs[j]);
	t_unreg = ktime_get_ns() - t0;
	if (err)
		return;

	snprintf(metric, sizeof(metric), "single%u_reg_us", n);
	kpb_out(metric, "%llu", div_u64(t_reg, 1000));
	snprintf(metric, sizeof(metric), "single%u_unreg_us", n);
	kpb_out(metric, "%llu", div_u64(t_unreg, 1000));
	snprintf(what, sizeof(what), "single%u", n);
	kpb_mem_report(what, n, &before, &after);
}

/*
 * The int3 hit cost (post_handler) on kpb_t_scale with n probes registered
 * in all: the measured one and n - 1 others on the mass targets.
 */
static void kpb_scale(unsigned int n)
{
	char metric[32];
	int err;

	if (n > 1) {
		kpb_mass_prepare(n - 1);
		err = register_kprobes(kpb_mass_ptrs, n - 1);
		if (err) {
			kpb_out("error", "scale %u: register_kprobes %d", n, err);
			return;
		}
	}
	snprintf(metric, sizeof(metric), "scale%u_k_ns", n);
	kpb_no_list = n > 1;
	kpb_hit(metric, "kpb_t_scale", kpb_t_scale, kpb_t_plain,
		KPB_PRE | KPB_POST, false, NULL);
	kpb_no_list = false;
	if (n > 1)
		unregister_kprobes(kpb_mass_ptrs, n - 1);
}

static void kpb_mass_all(void)
{
	static const unsigned int batch[] = { 1000, 4096, 10000 };
	static const unsigned int scale[] = { 1, 100, 1000, 10000 };
	unsigned int n = min_t(unsigned int, mass_max, KPB_MASS_FUNCS);
	unsigned int i;

	kpb_mass = vcalloc(n, sizeof(*kpb_mass));
	kpb_mass_ptrs = vcalloc(n, sizeof(*kpb_mass_ptrs));
	if (!kpb_mass || !kpb_mass_ptrs) {
		kpb_out("error", "no memory for %u probes", n);
		goto out;
	}
	/* A small mass_max (the smoke test) runs the code paths at that size. */
	if (n < batch[0]) {
		kpb_mass_batch(n);
		kpb_mass_single(n);
		kpb_scale(n);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(batch); i++)
		if (batch[i] <= n)
			kpb_mass_batch(batch[i]);
	kpb_mass_single(1000);
	for (i = 0; i < ARRAY_SIZE(scale); i++)
		if (scale[i] <= n)
			kpb_scale(scale[i]);
out:
	vfree(kpb_mass_ptrs);
	vfree(kpb_mass);
}

static int __init kpb_init(void)
{
	u64 t0 = ktime_get_ns();

	if (!iters || !reps)
		return -EINVAL;
	kpb_out("start", "iters=%u reps=%u mass_max=%u", iters, reps,
		mass_max);
	kpb_hit_costs();
	if (mass_max)
		kpb_mass_all();
	kpb_out("total_ms", "%llu", div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
	kpb_out("done", "%ld", kpb_sink & 1);
	return 0;
}

static void __exit kpb_exit(void)
{
}

module_init(kpb_init);
module_exit(kpb_exit);
MODULE_DESCRIPTION("kprobes benchmark: hit cost, mass registration, scaling");
MODULE_LICENSE("GPL");
