// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kp_model - a long random sequence of kprobes API calls, replayable from
 * its seed, with the kernel checked against a model after every step
 * (model.sh loads it).
 *
 * Loading the module runs the sequence in the loading task:
 *
 *	insmod kp_model.ko seed=S ops=N seconds=L threads=T [target=PATH]
 *
 * draws N operations (fewer if L seconds pass first) from a
 * pseudo-random generator seeded with S (0: a random seed, printed) over
 * a pool of kprobes and kretprobes, while T kernel threads keep calling
 * the probed functions:
 *
 *	register, unregister       one probe; a kretprobe's entry handler,
 *	                           its data size, a kprobe's post handler,
 *	                           by address or by symbol and offset drawn
 *	                           anew each time; unregistration of one not
 *	                           registered too (upstream: not of a
 *	                           kretprobe, which oopses it)
 *	batch, unbatch             register_kprobes() / register_kretprobes()
 *	                           of up to four, sometimes with one unknown
 *	                           symbol among them (then none may stay), and
 *	                           their unregistration
 *	enable, disable            of registered and unregistered probes
 *	again                      a registered probe registered again (ours
 *	                           only: upstream WARNs)
 *	change                     a registered probe's addr, symbol_name or
 *	                           offset changed in the caller's struct (ours
 *	                           only): what follows must act on the probe
 *	                           as it was registered
 *	call                       a target called once to three times by the
 *	                           loading task
 *	load, unload               (one step in mod_every, with target= the
 *	                           path of kp_model_target.ko) the target
 *	                           module loaded or unloaded by insmod or
 *	                           rmmod (of the directory tools=) run as user-mode
 *	                           helpers; a load may first have a kprobe or
 *	                           kretprobe registered on its init function
 *	                           while it is COMING, which its init calls
 *
 * The targets are six small functions of this module, three with an
 * ftrace site at their entry and three without (notrace), and, while it
 * is loaded, two of kp_model_target (one of each), found with
 * symbol_get(), and its init-text kpmt_boot(), registered by symbol only.
 * The threads call the target module's functions only in an RCU
 * read-side section that saw it loaded; an unload clears that and waits
 * for a grace period before rmmod runs.  Before the sequence (the target
 * loaded), the functions' first KPM_SCAN bytes are tried once, every
 * sizeof(kprobe_opcode_t) bytes (the architecture's breakpoint): the
 * offsets where a kprobe registers and is hit once per call become the
 * pool's places, and what register_kretprobe() answers at each is
 * remembered: the model expects the same answers every time.
 *
 * After every step the model checks: the return value; every probe's
 * handler counts for the loading task's calls (pre, post, entry, return);
 * the results of every call, of the threads' too; that no handler ran
 * after its probe's unregistration returned; a kretprobe's data from
 * entry to return; the lines of /sys/kernel/debug/kprobes/list at the
 * targets' text (address, kind, [DISABLED], [GONE]); the text: a function
 * with no probe registered is as it was before the sequence, an address
 * with an enabled probe is not (text that lags behind, as upstream's
 * delayed unoptimization does, gets a second to settle).
 *
 * The target module: registering a symbol whose text is not there (the
 * unloaded target's, kpmt_boot() once its init returned) is -ENOENT; a
 * probe on kpmt_boot() registered while the target is COMING is hit by
 * each of its init's calls and is [GONE] once the load returns; an unload
 * makes every probe on the target [GONE] (listed so, never [DISABLED],
 * whatever enable_kprobe() and disable_kprobe() did: the first refuses a
 * GONE probe with -EINVAL, the second accepts it); a GONE probe's
 * handlers never run again and unregistering it works; a reload's text is
 * as the first load's (unless relocations make loads differ), with no
 * probe on it, and new probes register there while the old ones stay
 * GONE.
 *
 * The first divergence ends the sequence: its step, what was expected
 * and seen, the steps before it, and how to replay it (the same seed,
 * ops = the step's number).  At the end every probe is unregistered and
 * the text and the list checked once more.  The outcome is the "result"
 * parameter:
 *
 *	seed=S ops=N done=N calls=C thread_calls=T regs=R refused=F loads=L
 *	gone=G mod_ms=M divergences=0 wrong=0 run_ms=MS reg=N:MS ...
 *	none=N:MS counts=MS read=MS cmp=MS text=MS wait=N:MS same=N
 *
 * run_ms is the steps' time; then, per kind of operation, how many ran
 * and their milliseconds (none: a step that found nothing to do), and
 * the checks' milliseconds: hit counts, the list's read() and its
 * parsing and comparison, the text, the waits for lagging text (how many
 * steps waited); same: the lists read that were byte for byte the last
 * one that matched, against the same model, so not parsed again.  The
 * times are sums of ktime_get_ns() differences: where the clock ticks by
 * jiffies (QEMU's x86-64 guest), each is 0 or a tick, right on average
 * over thousands of steps.
 *
 * fault=list|text|counts makes the model wrong on purpose once, from
 * step fault_step on, in that check; the step must diverge (model.sh).
 *
 * "impl" says whose kprobes these are (ours: CONFIG_HAVE_KRETPROBE_
 * INSTANCE_POOL), and decides the defaults of "again" and "change".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stop_machine.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/umh.h>

#include "kp_model_target.h"

#define KPM_CORE	6	/* functions of this module */
#define KPM_FUNCS	(KPM_CORE + 2)	/* and kp_model_target's two */
#define KPM_BOOT	KPM_FUNCS	/* kpmt_boot(), never called here */
#define KPM_PAST	16	/* earlier loads of the target remembered */
#define KPM_SCAN	48	/* bytes of each function tried as places */
#define KPM_PLACES	4	/* places kept per function */
#define KPM_KPROBES	12
#define KPM_KRETPROBES	6
#define KPM_SLOTS	(KPM_KPROBES + KPM_KRETPROBES)
#define KPM_BATCH	4
#define KPM_CMP		4	/* bytes that show a probe armed */
#define KPM_HISTORY	40
#define KPM_LIST_BUF	(16 * 1024)
#define KPM_LIST_MAX	64
#define KPM_SETTLE_MS	1000

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the sequence (0: random, printed)");

static uint ops = 10000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "operations in the sequence");

static uint seconds;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "stop after this many seconds, if before ops (0: no limit)");

static uint threads = 2;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "threads calling the targets meanwhile (at most 8)");

static int again = -1;
module_param(again, int, 0444);
MODULE_PARM_DESC(again, "register registered probes again (-1: ours only)");

static int change = -1;
module_param(change, int, 0444);
MODULE_PARM_DESC(change, "change registered probes' fields (-1: ours only)");

static char *target;
module_param(target, charp, 0444);
MODULE_PARM_DESC(target, "path of kp_model_target.ko (none: no module loads)");

static char *tools = "/sbin";
module_param(tools, charp, 0444);
MODULE_PARM_DESC(tools, "the directory of the insmod and rmmod the sequence runs");

static uint mod_every = 2000;
module_param(mod_every, uint, 0444);
MODULE_PARM_DESC(mod_every, "one step in this many loads or unloads the target (on average)");

static char *fault;
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "make the model wrong on purpose from step fault_step on: list, text or counts");

static uint fault_step;
module_param(fault_step, uint, 0444);
MODULE_PARM_DESC(fault_step, "the first step fault= may make the model wrong at");

static uint yardsticks;
module_param(yardsticks, uint, 0444);
MODULE_PARM_DESC(yardsticks, "after the sequence, time this many grace periods and stop_machine() calls");

static char impl[16];
module_param_string(impl, impl, sizeof(impl), 0444);
MODULE_PARM_DESC(impl, "ours or upstream");

static char result[512] = "none";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "outcome of the sequence");

/* ---- the targets ------------------------------------------------------ */

static noinline long kpm_t0(long x)
{
	long y = x * 7;

	OPTIMIZER_HIDE_VAR(y);
	return y + 3;
}

static noinline long kpm_t1(long x)
{
	long y = x * 11;

	OPTIMIZER_HIDE_VAR(y);
	return (y ^ 5) + 1;
}

static noinline long kpm_t2(long x)
{
	long y = x + 13;

	OPTIMIZER_HIDE_VAR(y);
	return y * 3;
}

static notrace noinline long kpm_t3(long x)
{
	long y = x * 5;

	OPTIMIZER_HIDE_VAR(y);
	return y - 9;
}

static notrace noinline long kpm_t4(long x)
{
	long y = x ^ 0x5a;

	OPTIMIZER_HIDE_VAR(y);
	return y + 17;
}

static notrace noinline long kpm_t5(long x)
{
	long y = x - 21;

	OPTIMIZER_HIDE_VAR(y);
	return y * 9;
}

struct kpm_func {
	long (*fn)(long x);		/* NULL while its text is not there */
	const char *name;
	long (*want)(long x);		/* the same computation, unprobed */
	bool mod;			/* in kp_model_target */
	unsigned int size;		/* bytes of it looked at, <= KPM_SCAN */
	/*
	 * Bytes from @own on may also change with a probe on function
	 * @neighbour: parisc's ftrace puts a function's patchable NOPs
	 * before its symbol, inside the previous one's kallsyms size.
	 * Learned in calibration; @neighbour is -1 when none does.
	 */
	unsigned int own;
	int neighbour;
	unsigned int nr_places;
	unsigned int places[KPM_PLACES];	/* offsets */
	int ret_answer[KPM_PLACES];	/* register_kretprobe() there */
	u8 text[KPM_SCAN + KPM_CMP];	/* before the sequence, or this load */
	u8 first[KPM_SCAN + KPM_CMP];	/* the target's: on its first load */
};

static long kpm_w0(long x) { return x * 7 + 3; }
static long kpm_w1(long x) { return ((x * 11) ^ 5) + 1; }
static long kpm_w2(long x) { return (x + 13) * 3; }
static long kpm_w3(long x) { return x * 5 - 9; }
static long kpm_w4(long x) { return (x ^ 0x5a) + 17; }
static long kpm_w5(long x) { return (x - 21) * 9; }
static long kpm_w6(long x) { return x * 19 - 6; }
static long kpm_w7(long x) { return (x + 29) ^ 0x33; }

static struct kpm_func kpm_funcs[KPM_FUNCS + 1] = {
	{ kpm_t0, "kpm_t0", kpm_w0 }, { kpm_t1, "kpm_t1", kpm_w1 },
	{ kpm_t2, "kpm_t2", kpm_w2 }, { kpm_t3, "kpm_t3", kpm_w3 },
	{ kpm_t4, "kpm_t4", kpm_w4 }, { kpm_t5, "kpm_t5", kpm_w5 },
	{ NULL, "kpmt_t0", kpm_w6, true }, { NULL, "kpmt_t1", kpm_w7, true },
	/* Registered by symbol while the target initialises, at +0 only. */
	[KPM_BOOT] = { NULL, KPMT_BOOT_SYM, NULL, true, .nr_places = 1 },
};

/*
 * The target's functions are there while kpm_target_up is set.  A thread
 * calls one only in an RCU read-side section that saw it set (acquire);
 * the unload clears it and waits for a grace period first.
 */
static bool kpm_target_up;
/* A target to load: target= names it. */
static bool kpm_targeted;
/* The target is loaded (LIVE, its init returned 0). */
static bool kpm_loaded;
/*
 * The target's init text outlives its init where the module loader lays
 * .init sections out with the rest (powerpc64's module_init_section() is
 * always false): kpmt_boot() is then text of the loaded target like its
 * others, never called again, and a probe on it stays until the unload.
 * Learnt at each COMING; kpm_boot_at is kpmt_boot()'s address once a
 * registration on it told it (0: not known).
 */
static bool kpm_init_kept;
static unsigned long kpm_boot_at;

/*
 * The text of a function: a Thumb-2 kernel's function pointers have bit 0
 * set, the address of its first instruction does not.
 */
static unsigned long kpm_text_of(const void *fn)
{
	return (unsigned long)fn & ~(unsigned long)IS_ENABLED(CONFIG_THUMB2_KERNEL);
}

static bool kpm_there(unsigned int f)
{
	return !!kpm_funcs[f].fn;
}

/* kpmt_boot() can be found by name, its target loaded. */
static bool kpm_boot_there(void)
{
	return kpm_init_kept && kpm_loaded;
}

/* Called through a pointer the compiler cannot see through. */
static long kpm_call(unsigned int f, long x)
{
	long (*fn)(long x) = kpm_funcs[f].fn;

	OPTIMIZER_HIDE_VAR(fn);
	return fn(x);
}

/* ---- the pool --------------------------------------------------------- */

/*
 * A slot is one struct kprobe or struct kretprobe of the caller's, and
 * the model's idea of it.  Only the loading task writes the model; the
 * handlers write the atomics.
 */
struct kpm_slot {
	bool is_ret;
	struct kprobe kp;
	struct kretprobe rp;
	unsigned int id;

	/* the model */
	bool reg;			/* registered */
	bool on;			/* enabled */
	bool gone;			/* registered, its text went away */
	unsigned long at;		/* its address when it was registered */
	unsigned int fn, place;
	bool post, entry, skip;
	size_t data;
	long want_pre, want_post, want_entry, want_ret;

	/* what the handlers saw (the loading task's hits only, but late) */
	atomic_long_t pre, post_hits, entry_hits, ret_hits;
	atomic_t live;			/* unregistration has not returned */
	atomic_t late;			/* a handler ran after it returned */
	atomic_t bad_data;		/* a kretprobe's data changed */
};

static struct kpm_slot kpm_slots[KPM_SLOTS];
static struct kprobe kpm_bad_kp;
static struct kretprobe kpm_bad_rp;
static struct task_struct *kpm_driver;
static bool kpm_ours;			/* impl is "ours" */
/* The task initialising the target: kpmt_boot()'s hits are its. */
static struct task_struct *kpm_loader;
static struct rnd_state kpm_rnd;

static unsigned int kpm_rand(unsigned int n)
{
	return n ? prandom_u32_state(&kpm_rnd) % n : 0;
}

static bool kpm_mine(void)
{
	return current == kpm_driver || current == READ_ONCE(kpm_loader);
}

static void kpm_alive(struct kpm_slot *s)
{
	if (!atomic_read(&s->live))
		atomic_inc(&s->late);
}

static int kpm_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpm_slot *s = container_of(p, struct kpm_slot, kp);

	kpm_alive(s);
	if (kpm_mine())
		atomic_long_inc(&s->pre);
	return 0;
}

static void kpm_post(struct kprobe *p, struct pt_regs *regs,
		     unsigned long flags)
{
	struct kpm_slot *s = container_of(p, struct kpm_slot, kp);

	kpm_alive(s);
	if (kpm_mine())
		atomic_long_inc(&s->post_hits);
}

static struct kpm_slot *kpm_of(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = get_kretprobe(ri);

	return rp ? container_of(rp, struct kpm_slot, rp) : NULL;
}

static int kpm_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpm_slot *s = kpm_of(ri);

	if (!s)
		return 1;
	kpm_alive(s);
	memset(ri->data, 0xa0 ^ s->id, s->rp.data_size);
	if (kpm_mine())
		atomic_long_inc(&s->entry_hits);
	return s->skip;
}

static int kpm_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpm_slot *s = kpm_of(ri);
	size_t i;

	if (!s)
		return 0;
	kpm_alive(s);
	if (s->rp.entry_handler)
		for (i = 0; i < s->rp.data_size; i++)
			if (ri->data[i] != (0xa0 ^ s->id)) {
				atomic_inc(&s->bad_data);
				break;
			}
	if (kpm_mine())
		atomic_long_inc(&s->ret_hits);
	return 0;
}

/* ---- the threads that call the targets -------------------------------- */

static struct task_struct *kpm_threads[8];
static atomic_long_t kpm_wrong;		/* a call computed a wrong value */
static atomic_long_t kpm_thread_calls;

static int kpm_thread(void *arg)
{
	unsigned long n = (unsigned long)arg;
	long x;
	unsigned int f;

	while (!kthread_should_stop()) {
		n = n * 1103515245 + 12345;
		f = (n >> 16) % KPM_FUNCS;
		x = (long)(n >> 8) & 0xffff;
		rcu_read_lock();
		/* Pairs with kpm_load()'s release: its functions are set. */
		if (!kpm_funcs[f].mod || smp_load_acquire(&kpm_target_up)) {
			if (kpm_call(f, x) != kpm_funcs[f].want(x))
				atomic_long_inc(&kpm_wrong);
			atomic_long_inc(&kpm_thread_calls);
		}
		rcu_read_unlock();
		if (!(n & 7))
			usleep_range(20, 60);
		else
			cond_resched();
	}
	return 0;
}

/* ---- registering, in the shapes a caller may use ----------------------- */

static unsigned long kpm_addr(unsigned int f, unsigned int place)
{
	return kpm_text_of(kpm_funcs[f].fn) + kpm_funcs[f].places[place];
}

static const char *kpm_kind(struct kpm_slot *s)
{
	return s->is_ret ? "kretprobe" : "kprobe";
}

static struct kprobe *kpm_kp(struct kpm_slot *s)
{
	return s->is_ret ? &s->rp.kp : &s->kp;
}

/* Fill the struct anew, as a caller reusing it must. */
static void kpm_fill(struct kpm_slot *s, unsigned int f, unsigned int place)
{
	struct kprobe *kp;

	memset(&s->kp, 0, sizeof(s->kp));
	memset(&s->rp, 0, sizeof(s->rp));
	s->fn = f;
	s->place = place;
	s->gone = false;
	kp = kpm_kp(s);
	/* Text that is not there has a name only. */
	if (kpm_rand(2) && kpm_there(f)) {
		kp->addr = (kprobe_opcode_t *)kpm_addr(f, place);
	} else {
		kp->symbol_name = kpm_funcs[f].name;
		kp->offset = kpm_funcs[f].places[place];
	}
	if (s->is_ret) {
		s->entry = kpm_rand(3) != 0;
		s->skip = s->entry && !kpm_rand(4);
		s->rp.handler = kpm_ret;
		s->rp.entry_handler = s->entry ? kpm_entry : NULL;
		s->rp.data_size = s->entry ? kpm_rand(5) * 8 : 0;
		s->rp.maxactive = 32;
	} else {
		s->post = !kpm_rand(3);
		s->kp.pre_handler = kpm_pre;
		s->kp.post_handler = s->post ? kpm_post : NULL;
	}
}

static int kpm_register(struct kpm_slot *s)
{
	return s->is_ret ? register_kretprobe(&s->rp) : register_kprobe(&s->kp);
}

static void kpm_unregister(struct kpm_slot *s)
{
	if (s->is_ret)
		unregister_kretprobe(&s->rp);
	else
		unregister_kprobe(&s->kp);
}

/* The model after a registration that returned 0. */
static void kpm_registered(struct kpm_slot *s)
{
	s->reg = true;
	s->on = true;
	s->at = (unsigned long)kpm_kp(s)->addr;
	if (s->fn == KPM_BOOT)
		kpm_boot_at = s->at;
}

static void kpm_unregistered(struct kpm_slot *s)
{
	atomic_set(&s->live, 0);
	s->reg = false;
	s->on = false;
	s->gone = false;
}

/* The model after @n calls of the function @s is on. */
static void kpm_hit(struct kpm_slot *s, long n)
{
	if (!s->reg || !s->on || s->gone)
		return;
	if (!s->is_ret) {
		s->want_pre += n;
		s->want_post += s->post ? n : 0;
	} else {
		s->want_entry += s->entry ? n : 0;
		s->want_ret += s->skip ? 0 : n;
	}
}

/* ---- calibration --------------------------------------------------------- */

/* The size of the function at @fn, from kallsyms ("name+off/size"). */
static unsigned int kpm_size(void *fn)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned long size;
	char *slash;

	sprint_symbol(buf, kpm_text_of(fn));
	slash = strchr(buf, '/');
	if (!slash || sscanf(slash + 1, "%lx", &size) != 1)
		return 0;
	return min_t(unsigned long, size, KPM_SCAN);
}

/* With a probe on @f registered: which other functions' text changed. */
static void kpm_find_neighbours(unsigned int f)
{
	unsigned int g, off;

	for (g = 0; g < KPM_FUNCS; g++) {
		struct kpm_func *gu = &kpm_funcs[g];
		const u8 *now = (const u8 *)kpm_text_of(gu->fn);

		if (g == f || !now)
			continue;
		for (off = 0; off < gu->own; off++)
			if (now[off] != gu->text[off])
				break;
		if (off < gu->own) {
			gu->own = off;
			gu->neighbour = f;
		}
	}
}

/*
 * The places of function @f: offsets where a kprobe registers and is hit
 * exactly once per call, and what register_kretprobe() answers there.
 */
static void kpm_calibrate(unsigned int f)
{
	struct kpm_func *fu = &kpm_funcs[f];
	struct kpm_slot *s = &kpm_slots[0];
	unsigned int off, n = 0;
	long before;
	int ret;

	if (!kpm_there(f))
		return;
	for (off = 0; off < fu->size && n < KPM_PLACES;
	     off += sizeof(kprobe_opcode_t)) {
		memset(&s->kp, 0, sizeof(s->kp));
		s->kp.addr = (kprobe_opcode_t *)(kpm_text_of(fu->fn) + off);
		s->kp.pre_handler = kpm_pre;
		atomic_set(&s->live, 1);
		if (register_kprobe(&s->kp))
			continue;
		kpm_find_neighbours(f);
		before = atomic_long_read(&s->pre);
		kpm_call(f, 1);
		kpm_call(f, 2);
		unregister_kprobe(&s->kp);
		if (atomic_long_read(&s->pre) - before == 2)
			fu->places[n++] = off;
	}
	fu->nr_places = n;
	for (n = 0; n < fu->nr_places; n++) {
		memset(&s->rp, 0, sizeof(s->rp));
		s->rp.kp.addr = (kprobe_opcode_t *)kpm_addr(f, n);
		s->rp.handler = kpm_ret;
		ret = register_kretprobe(&s->rp);
		if (!ret) {
			kpm_find_neighbours(f);
			unregister_kretprobe(&s->rp);
		}
		fu->ret_answer[n] = ret;
	}
	atomic_set(&s->live, 0);
	atomic_long_set(&s->pre, 0);
	atomic_long_set(&s->ret_hits, 0);
}

/* ---- the checks ------------------------------------------------------------ */

/*
 * Where a step's time goes, for the result line: each kind of operation
 * (how many, how long), then the checks after it: the hit counts, the
 * probe list's read() and its parsing and comparison, the text compared,
 * and the waits for text that lags (how many steps waited, how long).
 */
enum kpm_phase {
	KPM_T_REG, KPM_T_UNREG, KPM_T_BATCH, KPM_T_UNBATCH, KPM_T_ENABLE,
	KPM_T_DISABLE, KPM_T_AGAIN, KPM_T_CHANGE, KPM_T_CALL, KPM_T_MOD,
	KPM_T_NONE, KPM_T_OPS,		/* the kinds of operation above */
	KPM_T_COUNTS = KPM_T_OPS, KPM_T_READ, KPM_T_CMP, KPM_T_TEXT,
	KPM_T_WAIT, KPM_T_NR
};

static const char * const kpm_phase_name[KPM_T_NR] = {
	"reg", "unreg", "batch", "unbatch", "enable", "disable", "again",
	"change", "call", "mod", "none", "counts", "read", "cmp", "text", "wait",
};

static struct {
	u64 ns;
	unsigned long nr;
} kpm_time[KPM_T_NR];

/* Account the time since @*t0 to @phase; the phase's end is the next's start. */
static void kpm_account(enum kpm_phase phase, u64 *t0)
{
	u64 now = ktime_get_ns();

	kpm_time[phase].ns += now - *t0;
	kpm_time[phase].nr++;
	*t0 = now;
}

/* The account as "name=N:ms ..." (operations) and "name=ms" (checks). */
static int kpm_print_time(char *buf, size_t size)
{
	int i, len = 0;

	for (i = 0; i < KPM_T_NR; i++) {
		u64 ms = div_u64(kpm_time[i].ns, NSEC_PER_MSEC);

		if (i < KPM_T_OPS || i == KPM_T_WAIT)
			len += scnprintf(buf + len, size - len, " %s=%lu:%llu",
					 kpm_phase_name[i], kpm_time[i].nr, ms);
		else
			len += scnprintf(buf + len, size - len, " %s=%llu",
					 kpm_phase_name[i], ms);
	}
	return len;
}

/* Hits are shown seen/model. */
#define KPM_HITS	"pre %ld/%ld post %ld/%ld entry %ld/%ld ret %ld/%ld"
static char kpm_history[KPM_HISTORY][96];
static unsigned int kpm_step;
static unsigned int kpm_divergences;
static char *kpm_list_buf;

static __printf(1, 2) void kpm_diverged(const char *fmt, ...)
{
	va_list args;

	if (!kpm_divergences++) {
		va_start(args, fmt);
		pr_err("divergence at step %u: %pV\n", kpm_step,
		       &(struct va_format){ .fmt = fmt, .va = &args });
		va_end(args);
	}
}

#define KPM_NOTE(fmt, ...) \
	snprintf(kpm_history[kpm_step % KPM_HISTORY], \
		 sizeof(kpm_history[0]), fmt, ##__VA_ARGS__)

/*
 * A fault made on purpose (fault=, fault_step=): the model is made wrong
 * once, in the check named, at the first step from fault_step on where
 * that check can be made wrong, and that step must diverge.  model.sh
 * runs each so, to show that no check passes whatever the kernel does.
 */
enum kpm_fault_kind { KPM_FAULT_NONE, KPM_FAULT_LIST, KPM_FAULT_TEXT, KPM_FAULT_COUNTS };
static const char * const kpm_fault_name[] = { "", "list", "text", "counts" };
static enum kpm_fault_kind kpm_fault;
static bool kpm_in_run;			/* the steps, not the calibration or the end */

/* Is this the check, and the step, to make wrong?  Once, and said so. */
static bool kpm_fault_now(enum kpm_fault_kind kind)
{
	if (kpm_fault != kind || !kpm_in_run || kpm_step < fault_step)
		return false;
	pr_info("fault: the model's %s made wrong at step %u\n",
		kpm_fault_name[kind], kpm_step);
	kpm_fault = KPM_FAULT_NONE;
	return true;
}

static void kpm_check_counts(void)
{
	u64 t0 = ktime_get_ns();
	struct kpm_slot *s;
	int i;

	/* A hit the model counts that no handler saw. */
	if (kpm_fault_now(KPM_FAULT_COUNTS))
		kpm_slots[0].want_pre++;

	for (i = 0; i < KPM_SLOTS; i++) {
		s = &kpm_slots[i];
		if (atomic_long_read(&s->pre) != s->want_pre ||
		    atomic_long_read(&s->post_hits) != s->want_post ||
		    atomic_long_read(&s->entry_hits) != s->want_entry ||
		    atomic_long_read(&s->ret_hits) != s->want_ret)
			kpm_diverged("slot %d %s+%u%s%s: " KPM_HITS,
				     i, kpm_funcs[s->fn].name,
				     kpm_funcs[s->fn].places[s->place],
				     s->reg ? "" : " unregistered",
				     s->reg && !s->on ? " disabled" : "",
				     atomic_long_read(&s->pre), s->want_pre,
				     atomic_long_read(&s->post_hits), s->want_post,
				     atomic_long_read(&s->entry_hits), s->want_entry,
				     atomic_long_read(&s->ret_hits), s->want_ret);
		if (atomic_read(&s->late))
			kpm_diverged("slot %d: %d handler calls after its unregistration or unload",
				     i, atomic_read(&s->late));
		if (atomic_read(&s->bad_data))
			kpm_diverged("slot %d: kretprobe data changed between entry and return",
				     i);
	}
	if (atomic_long_read(&kpm_wrong))
		kpm_diverged("%ld calls of the targets computed a wrong value",
			     atomic_long_read(&kpm_wrong));
	kpm_account(KPM_T_COUNTS, &t0);
}

/* One line of the probe list, as far as the model knows it. */
struct kpm_line {
	unsigned long addr;
	char kind;
	bool disabled;
	bool gone;
};

static int kpm_line_cmp(const void *a, const void *b)
{
	const struct kpm_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->gone != y->gone)
		return (int)x->gone - (int)y->gone;
	return (int)x->disabled - (int)y->disabled;
}

/* The text of the target's earlier loads, its functions' span in each. */
static struct {
	unsigned long start, end;
} kpm_past[KPM_PAST];
static unsigned int kpm_loads;

/*
 * Is a list line at @addr the model's business: in a target, in a target
 * of an earlier load, or where a probe that went GONE was?
 */
static bool kpm_in_targets(unsigned long addr)
{
	unsigned int f, i;

	for (f = 0; f < KPM_FUNCS; f++)
		if (kpm_there(f) && addr >= kpm_text_of(kpm_funcs[f].fn) &&
		    addr < kpm_text_of(kpm_funcs[f].fn) + kpm_funcs[f].size)
			return true;
	for (i = 0; i < min_t(uint, kpm_loads, KPM_PAST); i++)
		if (addr >= kpm_past[i].start && addr < kpm_past[i].end)
			return true;
	for (i = 0; i < KPM_SLOTS; i++)
		if (kpm_slots[i].gone && addr == kpm_slots[i].at)
			return true;
	return kpm_boot_there() && addr == kpm_boot_at;
}

/*
 * The lines of /sys/kernel/debug/kprobes/list at the targets; -1 on error.
 *
 * The list is read as a user reads it, through the file's read(): debugfs
 * files have no read_iter, so kernel_read() cannot read them.  The buffer
 * is a mapping in the loading task's address space (kpm_ubuf), copied
 * from there.  The file is opened once (kpm_list) and read from its start
 * each time: a file closed in module init is only released when the
 * loading task returns to user space, with its seq_file buffer.
 */
static unsigned long kpm_ubuf;
static struct file *kpm_list;

/* The whole list into kpm_list_buf; its length, or -1. */
static ssize_t kpm_read_list(void)
{
	char __user *ubuf = (char __user *)kpm_ubuf;
	struct file *file = kpm_list;
	loff_t pos = 0;
	ssize_t got, len = 0;

	got = file->f_op->read ? 0 : -EINVAL;
	while (!got && len < KPM_LIST_BUF - 1) {
		got = file->f_op->read(file, ubuf + len, KPM_LIST_BUF - 1 - len, &pos);
		if (got > 0) {
			len += got;
			got = 0;
		} else if (!got) {
			break;
		}
	}
	if (got < 0 || copy_from_user(kpm_list_buf, ubuf, len))
		return -1;
	kpm_list_buf[len] = '\0';
	return len;
}

/* The lines of kpm_list_buf at the targets, in @lines (it is cut up); -1 on error. */
static int kpm_parse_list(struct kpm_line *lines)
{
	char *line, *next;
	int n = 0;

	for (line = kpm_list_buf; line && *line; line = next) {
		unsigned long addr;
		char kind;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%lx %c", &addr, &kind) != 2 ||
		    !kpm_in_targets(addr))
			continue;
		if (n == KPM_LIST_MAX)
			return -1;
		lines[n].addr = addr;
		lines[n].kind = kind;
		lines[n].disabled = !!strstr(line, "[DISABLED]");
		lines[n].gone = !!strstr(line, "[GONE]");
		n++;
	}
	return n;
}

/*
 * What the last list that matched the model was: its bytes, the model's
 * lines and what decides which lines are the model's business (the
 * target's loads, kpmt_boot()).  The same bytes read against the same
 * model give the same verdict: they are not parsed again.
 */
static struct {
	char *buf;
	ssize_t len;
	int n_want;
	struct kpm_line want[KPM_SLOTS + 1];
	unsigned int loads;
	bool loaded, init_kept;
	unsigned long boot_at;
} kpm_last;

static unsigned long kpm_list_same;	/* lists found as the last */

static bool kpm_list_as_last(ssize_t len, const struct kpm_line *want, int n_want)
{
	return kpm_last.buf && len == kpm_last.len && n_want == kpm_last.n_want &&
	       kpm_last.loads == kpm_loads && kpm_last.loaded == kpm_loaded &&
	       kpm_last.init_kept == kpm_init_kept && kpm_last.boot_at == kpm_boot_at &&
	       !memcmp(want, kpm_last.want, n_want * sizeof(want[0])) &&
	       !memcmp(kpm_list_buf, kpm_last.buf, len);
}

/* Before the parse cuts kpm_list_buf up; kpm_list_keep() once it matched. */
static void kpm_list_copy(ssize_t len)
{
	kpm_last.len = -1;
	if (kpm_last.buf)
		memcpy(kpm_last.buf, kpm_list_buf, len);
}

static void kpm_list_keep(ssize_t len, const struct kpm_line *want, int n_want)
{
	kpm_last.len = len;
	kpm_last.n_want = n_want;
	memcpy(kpm_last.want, want, n_want * sizeof(want[0]));
	kpm_last.loads = kpm_loads;
	kpm_last.loaded = kpm_loaded;
	kpm_last.init_kept = kpm_init_kept;
	kpm_last.boot_at = kpm_boot_at;
}

/* fault=list: the kind of the first line at the targets in kpm_list_buf swapped. */
static bool kpm_fault_list_line(void)
{
	char *line = kpm_list_buf, *kind, c;
	unsigned long addr;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		kind = strchr(line, ' ');
		if (!kind || sscanf(line, "%lx %c", &addr, &c) != 2 || !kpm_in_targets(addr))
			continue;
		kind = skip_spaces(kind);
		if (*kind != 'k' && *kind != 'r')
			continue;
		*kind = *kind == 'k' ? 'r' : 'k';
		return true;
	}
	return false;
}

static void kpm_check_list(void)
{
	static struct kpm_line seen[KPM_LIST_MAX], want[KPM_SLOTS + 1];
	u64 t0 = ktime_get_ns();
	int i, n_seen, n_want = 0;
	bool fault;
	ssize_t len;

	for (i = 0; i < KPM_SLOTS; i++) {
		struct kpm_slot *s = &kpm_slots[i];

		if (!s->reg)
			continue;
		want[n_want].addr = s->at;
		want[n_want].kind = s->is_ret ? 'r' : 'k';
		/* A GONE probe is shown GONE, not DISABLED. */
		want[n_want].disabled = !s->on && !s->gone;
		want[n_want].gone = s->gone;
		n_want++;
	}
	fault = kpm_fault_now(KPM_FAULT_LIST);
	len = kpm_read_list();
	kpm_account(KPM_T_READ, &t0);
	if (len < 0) {
		kpm_diverged("cannot read the probe list");
		return;
	}
	/*
	 * A line gone wrong: the kernel's (one of its lines at the targets
	 * shown as the other kind), which the model has seen before as it
	 * was, or else the model's (one line too many).
	 */
	if (fault && !kpm_fault_list_line()) {
		want[n_want].addr = kpm_text_of(kpm_funcs[0].fn);
		want[n_want].kind = 'k';
		want[n_want].disabled = false;
		want[n_want].gone = false;
		n_want++;
	}
	sort(want, n_want, sizeof(want[0]), kpm_line_cmp, NULL);
	if (kpm_list_as_last(len, want, n_want)) {
		kpm_list_same++;
		kpm_account(KPM_T_CMP, &t0);
		return;
	}
	kpm_list_copy(len);
	n_seen = kpm_parse_list(seen);
	if (n_seen < 0) {
		kpm_diverged("cannot read the probe list");
		return;
	}
	sort(seen, n_seen, sizeof(seen[0]), kpm_line_cmp, NULL);
	if (n_seen == n_want && !memcmp(seen, want, n_want * sizeof(want[0]))) {
		kpm_list_keep(len, want, n_want);
		kpm_account(KPM_T_CMP, &t0);
		return;
	}
	kpm_diverged("the probe list has %d lines at the targets, the model %d", n_seen, n_want);
	for (i = 0; i < max(n_seen, n_want); i++)
		pr_err("  list %d: seen %lx %c%s%s, model %lx %c%s%s\n", i,
		       i < n_seen ? seen[i].addr : 0, i < n_seen ? seen[i].kind : '-',
		       i < n_seen && seen[i].gone ? " [GONE]" : "",
		       i < n_seen && seen[i].disabled ? " [DISABLED]" : "",
		       i < n_want ? want[i].addr : 0, i < n_want ? want[i].kind : '-',
		       i < n_want && want[i].gone ? " [GONE]" : "",
		       i < n_want && want[i].disabled ? " [DISABLED]" : "");
}

/*
 * The text as the model has it: NULL if it is, else what is wrong.  A
 * function no probe is registered on is as it was (a GONE probe is on
 * text that went away: a reloaded target's text has none); an address
 * with an enabled probe is not.
 */
static const char *kpm_text_wrong(unsigned int *where)
{
	bool any[KPM_FUNCS + 1] = { };
	int i, f;

	for (i = 0; i < KPM_SLOTS; i++)
		if (kpm_slots[i].reg && !kpm_slots[i].gone)
			any[kpm_slots[i].fn] = true;
	/* A byte the model gets wrong, of a function with no probe. */
	for (f = 0; f < KPM_FUNCS && kpm_fault == KPM_FAULT_TEXT; f++)
		if (kpm_there(f) && !any[f] && kpm_funcs[f].size &&
		    kpm_fault_now(KPM_FAULT_TEXT))
			kpm_funcs[f].text[0] ^= 0x10;
	for (f = 0; f < KPM_FUNCS; f++) {
		const struct kpm_func *fu = &kpm_funcs[f];
		unsigned int len = fu->size;

		*where = f;
		if (!kpm_there(f))
			continue;
		if (fu->neighbour >= 0 && any[fu->neighbour])
			len = fu->own;
		if (!any[f] && memcmp((void *)kpm_text_of(fu->fn), fu->text, len))
			return "changed, with no probe registered";
	}
	for (i = 0; i < KPM_SLOTS; i++) {
		struct kpm_slot *s = &kpm_slots[i];
		unsigned long off = s->at - kpm_text_of(kpm_funcs[s->fn].fn);

		*where = s->fn;
		if (s->reg && s->on && !s->gone && off < KPM_SCAN &&
		    !memcmp((void *)s->at, kpm_funcs[s->fn].text + off, KPM_CMP))
			return "as it was, under an enabled probe";
	}
	return NULL;
}

static void kpm_check_text(void)
{
	unsigned int waited = 0, f = 0;
	u64 t0 = ktime_get_ns();
	const char *wrong;

	wrong = kpm_text_wrong(&f);
	kpm_account(KPM_T_TEXT, &t0);
	if (!wrong)
		return;
	while (wrong && waited < KPM_SETTLE_MS) {
		msleep(20);
		waited += 20;
		wrong = kpm_text_wrong(&f);
	}
	kpm_account(KPM_T_WAIT, &t0);
	if (wrong)
		kpm_diverged("text of %s: %s", kpm_funcs[f].name, wrong);
}

static void kpm_check(void)
{
	kpm_check_counts();
	kpm_check_list();
	kpm_check_text();
}

/* ---- the operations ----------------------------------------------------- */

/*
 * gone: probes that went GONE, on init text or in an unload
 */
struct kpm_stats {
	unsigned long calls, regs, refused, gone;
};

static struct kpm_stats kpm_stats;

/* A slot of the kind asked, registered or not; NULL if there is none. */
static struct kpm_slot *kpm_pick(bool is_ret, int reg)
{
	unsigned int base = is_ret ? KPM_KPROBES : 0;
	unsigned int nr = is_ret ? KPM_KRETPROBES : KPM_KPROBES;
	unsigned int i, start = kpm_rand(nr);

	for (i = 0; i < nr; i++) {
		struct kpm_slot *s = &kpm_slots[base + (start + i) % nr];

		if (reg < 0 || s->reg == reg)
			return s;
	}
	return NULL;
}

/*
 * A function with places, and one of its places: one whose text is there,
 * or (@gone_too) any, kpmt_boot() sometimes among them.
 */
static bool kpm_pick_place(unsigned int *f, unsigned int *place, bool gone_too)
{
	unsigned int i, start = kpm_rand(KPM_FUNCS);

	if (gone_too && kpm_targeted && !kpm_rand(16)) {
		*f = KPM_BOOT;
		*place = 0;
		return true;
	}
	for (i = 0; i < KPM_FUNCS; i++) {
		*f = (start + i) % KPM_FUNCS;
		if (kpm_funcs[*f].nr_places && (gone_too || kpm_there(*f))) {
			*place = kpm_rand(kpm_funcs[*f].nr_places);
			return true;
		}
	}
	return false;
}

/*
 * What registering @s, filled for its place, must return: a symbol whose
 * text is not there (an unloaded target's, kpmt_boot() once the target's
 * init returned and freed its text) is unknown.
 */
static int kpm_expect(struct kpm_slot *s)
{
	if (!kpm_there(s->fn) && !(s->fn == KPM_BOOT && kpm_boot_there()))
		return -ENOENT;
	return s->is_ret ? kpm_funcs[s->fn].ret_answer[s->place] : 0;
}

static bool kpm_op_register(bool is_ret)
{
	struct kpm_slot *s = kpm_pick(is_ret, false);
	unsigned int f, place;
	int ret, want;

	if (!s || !kpm_pick_place(&f, &place, true))
		return false;
	kpm_fill(s, f, place);
	want = kpm_expect(s);
	KPM_NOTE("register %s %u at %s+%u", kpm_kind(s), s->id,
		 kpm_funcs[f].name, kpm_funcs[f].places[place]);
	atomic_set(&s->live, 1);
	ret = kpm_register(s);
	if (ret != want)
		kpm_diverged("register %s %u at %s+%u returned %d, the model %d",
			     kpm_kind(s), s->id, kpm_funcs[f].name, kpm_funcs[f].places[place],
			     ret, want);
	if (!ret) {
		kpm_registered(s);
		kpm_stats.regs++;
	} else {
		kpm_unregistered(s);
		kpm_stats.refused++;
	}
	return true;
}

/*
 * Of a registered probe or not; upstream's unregister_kretprobe() of a
 * kretprobe that is not registered oopses (rethook_free(NULL)): there
 * registered kretprobes only.
 */
static bool kpm_op_unregister(bool is_ret)
{
	struct kpm_slot *s = kpm_pick(is_ret, is_ret && !kpm_ours ? 1 : -1);

	if (!s)
		return false;
	KPM_NOTE("unregister %s %u (%s)", kpm_kind(s), s->id,
		 s->gone ? "GONE" : s->reg ? "registered" : "not registered");
	kpm_unregister(s);
	if (s->reg)
		kpm_unregistered(s);
	return true;
}

static bool kpm_op_batch(bool is_ret)
{
	struct kprobe *kps[KPM_BATCH + 1];
	struct kretprobe *rps[KPM_BATCH + 1];
	struct kpm_slot *batch[KPM_BATCH];
	unsigned int i, n = 0, want_n = 1 + kpm_rand(KPM_BATCH);
	unsigned int f, place, total;
	int bad = -1, ret, want = 0;

	while (n < want_n) {
		struct kpm_slot *s = kpm_pick(is_ret, false);

		for (i = 0; s && i < n; i++)
			if (batch[i] == s)
				s = NULL;
		if (!s || !kpm_pick_place(&f, &place, false))
			break;
		kpm_fill(s, f, place);
		if (kpm_expect(s))
			break;
		batch[n++] = s;
	}
	if (!n)
		return false;
	total = n;
	if (!kpm_rand(4)) {
		bad = kpm_rand(n + 1);
		total = n + 1;
		want = -ENOENT;
	}
	for (i = 0; i < total; i++) {
		struct kpm_slot *s = NULL;
		unsigned int j = i;

		if ((int)i == bad) {
			memset(&kpm_bad_kp, 0, sizeof(kpm_bad_kp));
			memset(&kpm_bad_rp, 0, sizeof(kpm_bad_rp));
			kpm_bad_kp.symbol_name = "kpm_no_such_function";
			kpm_bad_kp.pre_handler = kpm_pre;
			kpm_bad_rp.kp.symbol_name = "kpm_no_such_function";
			kpm_bad_rp.handler = kpm_ret;
			kps[i] = &kpm_bad_kp;
			rps[i] = &kpm_bad_rp;
			continue;
		}
		if (bad >= 0 && (int)i > bad)
			j = i - 1;
		s = batch[j];
		atomic_set(&s->live, 1);
		kps[i] = &s->kp;
		rps[i] = &s->rp;
	}
	KPM_NOTE("batch of %u %s%s", n, is_ret ? "kretprobes" : "kprobes",
		 bad >= 0 ? " and an unknown symbol" : "");
	ret = is_ret ? register_kretprobes(rps, total) : register_kprobes(kps, total);
	if (ret != want)
		kpm_diverged("register_%s() of %u (%s) returned %d, the model %d",
			     is_ret ? "kretprobes" : "kprobes", total,
			     bad >= 0 ? "one unknown" : "all known", ret, want);
	for (i = 0; i < n; i++) {
		if (ret) {
			kpm_unregistered(batch[i]);
		} else {
			kpm_registered(batch[i]);
			kpm_stats.regs++;
		}
	}
	if (ret)
		kpm_stats.refused++;
	return true;
}

static bool kpm_op_unbatch(bool is_ret)
{
	struct kprobe *kps[KPM_BATCH];
	struct kretprobe *rps[KPM_BATCH];
	struct kpm_slot *batch[KPM_BATCH];
	unsigned int i, n = 0, want_n = 1 + kpm_rand(KPM_BATCH);

	while (n < want_n) {
		struct kpm_slot *s = kpm_pick(is_ret, true);

		for (i = 0; s && i < n; i++)
			if (batch[i] == s)
				s = NULL;
		if (!s)
			break;
		batch[n] = s;
		kps[n] = &s->kp;
		rps[n] = &s->rp;
		n++;
	}
	if (!n)
		return false;
	KPM_NOTE("unregister a batch of %u %s", n, is_ret ? "kretprobes" : "kprobes");
	if (is_ret)
		unregister_kretprobes(rps, n);
	else
		unregister_kprobes(kps, n);
	for (i = 0; i < n; i++)
		kpm_unregistered(batch[i]);
	return true;
}

static bool kpm_op_enable(bool is_ret, bool on)
{
	struct kpm_slot *s = kpm_pick(is_ret, -1);
	struct kprobe *kp;
	int ret, want;

	if (!s)
		return false;
	kp = kpm_kp(s);
	/* A GONE probe cannot be enabled; disabling it is accepted. */
	want = s->reg && !(on && s->gone) ? 0 : -EINVAL;
	KPM_NOTE("%s %s %u (%s)", on ? "enable" : "disable", kpm_kind(s), s->id,
		 s->gone ? "GONE" : s->reg ? "registered" : "not registered");
	ret = on ? enable_kprobe(kp) : disable_kprobe(kp);
	if (ret != want)
		kpm_diverged("%s slot %u returned %d, the model %d",
			     on ? "enable" : "disable", s->id, ret, want);
	if (!want)
		s->on = on;
	return true;
}

static bool kpm_op_again(bool is_ret)
{
	struct kpm_slot *s = kpm_pick(is_ret, true);
	int ret;

	if (!s)
		return false;
	KPM_NOTE("register registered %s %u again", kpm_kind(s), s->id);
	ret = kpm_register(s);
	if (ret != -EINVAL)
		kpm_diverged("registering registered slot %u again returned %d, the model %d",
			     s->id, ret, -EINVAL);
	return true;
}

/* A registered probe's struct changed as a careless caller would. */
static bool kpm_op_change(bool is_ret)
{
	struct kpm_slot *s = kpm_pick(is_ret, true);
	struct kprobe *kp;
	unsigned int f, place;

	if (!s || !kpm_pick_place(&f, &place, false))
		return false;
	kp = kpm_kp(s);
	KPM_NOTE("change registered %s %u's fields to %s+%u", kpm_kind(s),
		 s->id, kpm_funcs[f].name, kpm_funcs[f].places[place]);
	switch (kpm_rand(3)) {
	case 0:
		kp->addr = (kprobe_opcode_t *)kpm_addr(f, place);
		break;
	case 1:
		kp->addr = NULL;
		kp->symbol_name = kpm_funcs[f].name;
		kp->offset = kpm_funcs[f].places[place];
		break;
	default:
		kp->offset += 1;
		break;
	}
	return true;
}

static bool kpm_op_call(void)
{
	unsigned int f = kpm_rand(KPM_FUNCS), n = 1 + kpm_rand(3), i, k;
	long x;

	KPM_NOTE("call %s %u times%s", kpm_funcs[f].name, n,
		 kpm_there(f) ? "" : ": not there");
	if (!kpm_there(f))
		return false;
	for (k = 0; k < n; k++) {
		x = kpm_rand(1000);
		if (kpm_call(f, x) != kpm_funcs[f].want(x))
			atomic_long_inc(&kpm_wrong);
		kpm_stats.calls++;
		for (i = 0; i < KPM_SLOTS; i++)
			if (kpm_slots[i].fn == f)
				kpm_hit(&kpm_slots[i], 1);
	}
	return true;
}

/* ---- the target module ------------------------------------------------ */

/*
 * The target is loaded and unloaded by insmod and rmmod run as user-mode
 * helpers, which this task waits for: the sequence's module init runs on
 * meanwhile, and the target's own init runs in the helper.
 */
static struct kpm_slot *kpm_boot_slot;	/* to register on kpmt_boot() */
static int kpm_boot_ret;		/* what that returned */
/*
 * Every load's text is the first's, as when no relocation touches it:
 * then a load must find it so (no write of a GONE probe's on it), else
 * (known from the second load on) each load's own is the reference.
 */
static bool kpm_same_text = true;

/* Run @tool of the tools directory with @argv[1...]. */
static int kpm_helper(const char *tool, char *argv[])
{
	static char *envp[3] = { "HOME=/", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL };
	char path[96];

	snprintf(path, sizeof(path), "%s/%s", tools, tool);
	argv[0] = path;
	return call_usermodehelper(path, argv, envp, UMH_WAIT_PROC);
}

/*
 * While the target initialises (COMING, in the helper's task), the probe
 * the load asked for is registered: on its init text, which may be
 * probed until the module is LIVE, or on its other text.
 */
static int kpm_module_event(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	struct module *mod = data;

	if (strcmp(mod->name, KPMT_NAME))
		return NOTIFY_DONE;
	if (state == MODULE_STATE_COMING)
		kpm_init_kept = !mod->mem[MOD_INIT_TEXT].size;
	if (state == MODULE_STATE_COMING && kpm_boot_slot) {
		WRITE_ONCE(kpm_loader, current);
		kpm_boot_ret = kpm_register(kpm_boot_slot);
		/*
		 * Once a load: when finit_module() fails, busybox's insmod
		 * tries init_module() with the same file, a second COMING.
		 */
		kpm_boot_slot = NULL;
	} else if (state != MODULE_STATE_COMING) {
		WRITE_ONCE(kpm_loader, NULL);
	}
	return NOTIFY_DONE;
}

static struct notifier_block kpm_module_nb = {
	.notifier_call = kpm_module_event,
};

/* The target's functions from its symbols, once it is LIVE. */
static void kpm_find_target(void)
{
	long (*fn[2])(long x) = { symbol_get(kpmt_t0), symbol_get(kpmt_t1) };
	unsigned int i;

	if (fn[0])
		symbol_put(kpmt_t0);
	if (fn[1])
		symbol_put(kpmt_t1);
	for (i = 0; i < 2; i++)
		kpm_funcs[KPM_CORE + i].fn = fn[i];
}

/*
 * Load the target, @boot registered while it is COMING, its init failing
 * or not (@fail); its functions join the pool.  Return: 0, or the
 * helper's status.
 */
static int kpm_load(struct kpm_slot *boot, unsigned int boot_calls, bool fail)
{
	char calls[32];
	char *argv[5] = { NULL, target, calls, fail ? "fail=1" : "fail=0", NULL };
	bool same = true;
	unsigned int f;
	int ret;

	snprintf(calls, sizeof(calls), "boot_calls=%u", boot_calls);
	kpm_boot_slot = boot;
	kpm_boot_ret = -ENOEXEC;
	ret = kpm_helper("insmod", argv);
	kpm_boot_slot = NULL;
	WRITE_ONCE(kpm_loader, NULL);
	if (ret)
		return ret;
	kpm_loaded = true;
	kpm_find_target();
	for (f = KPM_CORE; f < KPM_FUNCS; f++) {
		struct kpm_func *fu = &kpm_funcs[f];

		if (!fu->fn)
			return -ENOENT;
		/* Probed while COMING, so as every load but for the probe. */
		if (boot && !kpm_boot_ret && boot->fn == f) {
			memcpy(fu->text, fu->first, sizeof(fu->text));
			continue;
		}
		memcpy(fu->text, (void *)kpm_text_of(fu->fn), sizeof(fu->text));
		if (!kpm_loads)
			memcpy(fu->first, fu->text, sizeof(fu->first));
		else if (memcmp(fu->first, fu->text, fu->size))
			same = false;
	}
	if (!same && kpm_loads == 1) {
		pr_info("the target's text differs between loads: not compared\n");
		kpm_same_text = false;
	} else if (!same && kpm_same_text) {
		kpm_diverged("the target's text at load %u is not its first load's",
			     kpm_loads + 1);
	}
	/* The functions before the flag: the threads read it with acquire. */
	smp_store_release(&kpm_target_up, true);
	return 0;
}

/* Unload the target.  Return: 0, or the helper's status. */
static int kpm_unload(void)
{
	char *argv[3] = { NULL, KPMT_NAME, NULL };
	struct kpm_slot *s;
	unsigned int f, i, past = kpm_loads++ % KPM_PAST;

	/* No thread in the target's text from here on. */
	WRITE_ONCE(kpm_target_up, false);
	synchronize_rcu();
	kpm_past[past].start = ULONG_MAX;
	kpm_past[past].end = 0;
	for (f = KPM_CORE; f < KPM_FUNCS; f++) {
		unsigned long start = kpm_text_of(kpm_funcs[f].fn);

		kpm_past[past].start = min(kpm_past[past].start, start);
		kpm_past[past].end = max(kpm_past[past].end, start + kpm_funcs[f].size);
		kpm_funcs[f].fn = NULL;
	}
	kpm_loaded = false;
	kpm_boot_at = 0;
	/* Its probes are GONE: registered, never hit again. */
	for (i = 0; i < KPM_SLOTS; i++) {
		s = &kpm_slots[i];
		if (s->reg && !s->gone && kpm_funcs[s->fn].mod) {
			kpm_stats.gone++;
			s->gone = true;
			atomic_set(&s->live, 0);
		}
	}
	return kpm_helper("rmmod", argv);
}

/*
 * A load, perhaps with a probe registered while the target is COMING: on
 * kpmt_boot(), which the target's init calls, or on one of its other
 * functions; perhaps with an init that fails after its calls.
 */
static void kpm_op_load(void)
{
	unsigned int f = KPM_BOOT, place = 0, n = 1 + kpm_rand(3);
	bool fail = !kpm_rand(8);
	struct kpm_slot *s = NULL;
	int ret, want;

	if (kpm_rand(2)) {
		s = kpm_pick(kpm_rand(3) == 0, false);
		/* kpm_load() needs the first load's text for a probed one. */
		if (kpm_rand(2) && kpm_same_text && kpm_loads >= 2) {
			f = KPM_CORE + kpm_rand(KPM_FUNCS - KPM_CORE);
			place = kpm_rand(kpm_funcs[f].nr_places);
		}
		if (s && kpm_funcs[f].nr_places)
			kpm_fill(s, f, place);
		else
			s = NULL;
	}
	if (s)
		KPM_NOTE("load the target%s, %s %u on %s+%u in its init, which calls %s %u times",
			 fail ? " (its init fails)" : "", kpm_kind(s), s->id,
			 kpm_funcs[f].name, kpm_funcs[f].places[place], KPMT_BOOT_SYM, n);
	else
		KPM_NOTE("load the target%s", fail ? " (its init fails)" : "");
	if (s)
		atomic_set(&s->live, 1);
	ret = kpm_load(s, n, fail);
	if (!ret == fail)
		kpm_diverged("loading the target%s returned %d",
			     fail ? " (its init fails)" : "", ret);
	if (!s)
		return;
	/* Registered by symbol: the answer of the place, as when loaded. */
	want = s->is_ret ? kpm_funcs[f].ret_answer[place] : 0;
	if (kpm_boot_ret != want)
		kpm_diverged("register %s %u on %s+%u in its init returned %d, the model %d",
			     kpm_kind(s), s->id, kpm_funcs[f].name,
			     kpm_funcs[f].places[place], kpm_boot_ret, want);
	if (kpm_boot_ret) {
		kpm_unregistered(s);
		return;
	}
	kpm_registered(s);
	kpm_stats.regs++;
	if (f == KPM_BOOT)
		kpm_hit(s, n);
	/*
	 * Init text goes when init returns, unless the loader keeps it; all
	 * of it if init failed.
	 */
	if ((f == KPM_BOOT && !kpm_init_kept) || !kpm_loaded) {
		kpm_stats.gone++;
		s->gone = true;
		atomic_set(&s->live, 0);
	}
}

static void kpm_op_unload(void)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < KPM_SLOTS; i++)
		n += kpm_slots[i].reg && !kpm_slots[i].gone &&
		     kpm_funcs[kpm_slots[i].fn].mod;
	KPM_NOTE("unload the target, %u probes on it", n);
	ret = kpm_unload();
	if (ret)
		kpm_diverged("unloading the target returned %d", ret);
}

/* Draw and do one operation; return its kind. */
static enum kpm_phase kpm_do_op(void)
{
	bool is_ret = kpm_rand(3) == 0;
	unsigned int r = kpm_rand(100);

	/* Rare: a load or an unload costs as much as hundreds of steps. */
	if (kpm_targeted && mod_every && !kpm_rand(mod_every)) {
		if (kpm_loaded)
			kpm_op_unload();
		else
			kpm_op_load();
		return KPM_T_MOD;
	}
	if (r < 18)
		return kpm_op_register(is_ret) ? KPM_T_REG : KPM_T_NONE;
	if (r < 30)
		return kpm_op_unregister(is_ret) ? KPM_T_UNREG : KPM_T_NONE;
	if (r < 38)
		return kpm_op_batch(is_ret) ? KPM_T_BATCH : KPM_T_NONE;
	if (r < 44)
		return kpm_op_unbatch(is_ret) ? KPM_T_UNBATCH : KPM_T_NONE;
	if (r < 52)
		return kpm_op_enable(is_ret, true) ? KPM_T_ENABLE : KPM_T_NONE;
	if (r < 60)
		return kpm_op_enable(is_ret, false) ? KPM_T_DISABLE : KPM_T_NONE;
	if (r < 64 && again)
		return kpm_op_again(is_ret) ? KPM_T_AGAIN : KPM_T_NONE;
	if (r < 68 && change)
		return kpm_op_change(is_ret) ? KPM_T_CHANGE : KPM_T_NONE;
	return kpm_op_call() ? KPM_T_CALL : KPM_T_NONE;
}

static void kpm_op(void)
{
	u64 t0 = ktime_get_ns();
	enum kpm_phase kind = kpm_do_op();

	kpm_account(kind, &t0);
}

/* ---- the run ------------------------------------------------------------- */

/*
 * After a divergence the model may think a registered probe is not: on
 * ours every slot goes then (unregistering an unregistered one does
 * nothing; upstream's dereferences a never-registered kretprobe's
 * rethook), so that none stays registered in this module's memory.
 */
static void kpm_unregister_all(void)
{
	bool all = kpm_divergences && kpm_ours;
	int i;

	for (i = 0; i < KPM_SLOTS; i++)
		if (kpm_slots[i].reg || all) {
			kpm_unregister(&kpm_slots[i]);
			kpm_unregistered(&kpm_slots[i]);
		}
}

static void kpm_print_history(void)
{
	unsigned int i, first = kpm_step >= KPM_HISTORY ? kpm_step - KPM_HISTORY + 1 : 0;

	for (i = first; i <= kpm_step; i++)
		pr_err("  step %u: %s\n", i, kpm_history[i % KPM_HISTORY]);
	pr_err("replay: insmod kp_model.ko seed=%lu ops=%u threads=%u again=%d change=%d target=%s tools=%s mod_every=%u\n",
	       seed, kpm_step + 1, threads, again, change, kpm_targeted ? target : "",
	       tools, mod_every);
}

/* The sequence's steps, from the first to the last (not the calibration). */
static u64 kpm_run_ns;

static void kpm_run(void)
{
	unsigned int i, nr_threads = min_t(uint, threads, ARRAY_SIZE(kpm_threads));
	unsigned int places = 0;
	unsigned long end;
	u64 t0;
	int ret;

	/* The target is loaded first: its functions are calibrated too. */
	if (kpm_targeted) {
		ret = kpm_load(NULL, 0, false);
		if (ret) {
			kpm_divergences++;
			pr_err("cannot load %s (%d)\n", target, ret);
			return;
		}
	}
	for (i = 0; i < KPM_FUNCS; i++) {
		if (!kpm_there(i))
			continue;
		kpm_funcs[i].size = kpm_size(kpm_funcs[i].fn);
		kpm_funcs[i].own = kpm_funcs[i].size;
		kpm_funcs[i].neighbour = -1;
		memcpy(kpm_funcs[i].text, (void *)kpm_text_of(kpm_funcs[i].fn),
		       sizeof(kpm_funcs[i].text));
	}
	/*
	 * Every function's text is taken before any is calibrated: on
	 * parisc a function's kallsyms size ends with the next one's
	 * patchable ftrace NOPs, and a snapshot of kpm_t1 taken after
	 * kpm_t0 was probed, but before kpm_t2 was, diverged later.
	 */
	for (i = 0; i < KPM_FUNCS; i++) {
		kpm_calibrate(i);
		places += kpm_funcs[i].nr_places;
	}
	for (i = 0; i < KPM_FUNCS; i++)
		if (kpm_funcs[i].neighbour >= 0)
			pr_info("%s: bytes from +%u on change with probes on %s\n",
				kpm_funcs[i].name, kpm_funcs[i].own,
				kpm_funcs[kpm_funcs[i].neighbour].name);
	pr_info("seed=%lu ops=%u threads=%u impl=%s again=%d change=%d target=%s mod_every=%u: %u places in %d functions\n",
		seed, ops, nr_threads, impl, again, change, kpm_targeted ? target : "none",
		mod_every, places, KPM_FUNCS);
	if (!places) {
		kpm_divergences++;
		pr_err("no place where a kprobe registers and is hit\n");
		return;
	}
	for (i = 0; i < nr_threads; i++) {
		kpm_threads[i] = kthread_run(kpm_thread, (void *)(unsigned long)(i + 1),
					     "kp_model/%u", i);
		if (IS_ERR(kpm_threads[i]))
			kpm_threads[i] = NULL;
	}
	end = jiffies + seconds * HZ;
	t0 = ktime_get_ns();
	kpm_in_run = true;
	for (kpm_step = 0; kpm_step < ops && !kpm_divergences; kpm_step++) {
		if (seconds && time_after(jiffies, end))
			break;
		/* What a step that finds nothing to do leaves in the history. */
		KPM_NOTE("nothing to do");
		kpm_op();
		kpm_check();
		cond_resched();
	}
	kpm_run_ns = ktime_get_ns() - t0;
	kpm_in_run = false;
	if (kpm_divergences) {
		kpm_step--;
		kpm_print_history();
	}
	for (i = 0; i < nr_threads; i++)
		if (kpm_threads[i])
			kthread_stop(kpm_threads[i]);
	kpm_unregister_all();
	if (kpm_divergences)
		return;
	KPM_NOTE("the end: every probe unregistered");
	kpm_check_counts();
	kpm_check_list();
	kpm_check_text();
	if (kpm_divergences)
		kpm_print_history();
}

static int kpm_nothing(void *data)
{
	return 0;
}

/* The mean of a register_kprobe() and unregister_kprobe() at each place of @f. */
static void kpm_yardstick_places(unsigned int f)
{
	struct kpm_slot *s = &kpm_slots[0];
	char buf[128];
	unsigned int p, i, n = max(yardsticks / 4, 1U);
	int len = 0;
	u64 t0;

	for (p = 0; p < kpm_funcs[f].nr_places; p++) {
		t0 = ktime_get_ns();
		for (i = 0; i < n; i++) {
			memset(&s->kp, 0, sizeof(s->kp));
			s->kp.addr = (kprobe_opcode_t *)kpm_addr(f, p);
			s->kp.pre_handler = kpm_pre;
			atomic_set(&s->live, 1);
			if (!register_kprobe(&s->kp))
				unregister_kprobe(&s->kp);
		}
		len += scnprintf(buf + len, sizeof(buf) - len, " +%u %llu us",
				 kpm_funcs[f].places[p],
				 div_u64(ktime_get_ns() - t0, n * NSEC_PER_USEC));
	}
	atomic_set(&s->live, 0);
	pr_info("yardsticks, a kprobe registered and unregistered on %s, each of %u:%s\n",
		kpm_funcs[f].name, n, buf);
}

/*
 * What the kernel's own waits cost on this machine, to read the
 * operations' times against: a grace period, an expedited one, every
 * CPU stopped once (arm64's and arm's text writes).
 */
static void kpm_yardsticks(void)
{
	u64 t0, ns[3];
	unsigned int i;

	if (!yardsticks)
		return;
	t0 = ktime_get_ns();
	for (i = 0; i < yardsticks; i++)
		synchronize_rcu();
	ns[0] = ktime_get_ns() - t0;
	t0 += ns[0];
	for (i = 0; i < yardsticks; i++)
		synchronize_rcu_expedited();
	ns[1] = ktime_get_ns() - t0;
	t0 += ns[1];
	for (i = 0; i < yardsticks; i++)
		stop_machine(kpm_nothing, NULL, NULL);
	ns[2] = ktime_get_ns() - t0;
	pr_info("yardsticks, each of %u: synchronize_rcu() %llu us, synchronize_rcu_expedited() %llu us, stop_machine() %llu us\n",
		yardsticks, div_u64(ns[0], yardsticks * NSEC_PER_USEC),
		div_u64(ns[1], yardsticks * NSEC_PER_USEC),
		div_u64(ns[2], yardsticks * NSEC_PER_USEC));
	/* A kprobe registered and unregistered at each place of two targets. */
	kpm_yardstick_places(0);
	kpm_yardstick_places(KPM_CORE / 2);
}

static int __init kp_model_init(void)
{
	int i, len;

	strscpy(impl, IS_ENABLED(CONFIG_HAVE_KRETPROBE_INSTANCE_POOL) ?
		"ours" : "upstream", sizeof(impl));
	kpm_ours = !strcmp(impl, "ours");
	if (again < 0)
		again = kpm_ours;
	if (change < 0)
		change = kpm_ours;
	for (i = KPM_FAULT_LIST; fault && i < ARRAY_SIZE(kpm_fault_name); i++)
		if (!strcmp(fault, kpm_fault_name[i]))
			kpm_fault = i;
	if (fault && *fault && !kpm_fault)
		return -EINVAL;
	if (!seed)
		seed = get_random_u32() | 1;
	prandom_seed_state(&kpm_rnd, seed);
	kpm_list_buf = kvmalloc(KPM_LIST_BUF, GFP_KERNEL);
	if (!kpm_list_buf)
		return -ENOMEM;
	/* Without it every list is parsed. */
	kpm_last.buf = kvmalloc(KPM_LIST_BUF, GFP_KERNEL);
	kpm_ubuf = vm_mmap(NULL, 0, KPM_LIST_BUF, PROT_READ | PROT_WRITE,
			   MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(kpm_ubuf)) {
		kvfree(kpm_list_buf);
		kvfree(kpm_last.buf);
		return -ENOMEM;
	}
	kpm_list = filp_open("/sys/kernel/debug/kprobes/list", O_RDONLY, 0);
	if (IS_ERR(kpm_list)) {
		pr_err("cannot open the probe list: %ld\n", PTR_ERR(kpm_list));
		vm_munmap(kpm_ubuf, KPM_LIST_BUF);
		kvfree(kpm_list_buf);
		kvfree(kpm_last.buf);
		return PTR_ERR(kpm_list);
	}
	for (i = 0; i < KPM_SLOTS; i++) {
		kpm_slots[i].id = i;
		kpm_slots[i].is_ret = i >= KPM_KPROBES;
	}
	kpm_driver = current;
	kpm_targeted = target && *target;
	if (kpm_targeted)
		register_module_notifier(&kpm_module_nb);
	kpm_run();
	if (kpm_loaded && kpm_unload()) {
		pr_err("cannot unload %s\n", KPMT_NAME);
		kpm_divergences++;
	}
	if (kpm_targeted)
		unregister_module_notifier(&kpm_module_nb);
	if (!kpm_divergences)
		kpm_yardsticks();
	filp_close(kpm_list, NULL);
	vm_munmap(kpm_ubuf, KPM_LIST_BUF);
	kvfree(kpm_list_buf);
	kvfree(kpm_last.buf);
	len = scnprintf(result, sizeof(result),
			"seed=%lu ops=%u done=%u calls=%lu thread_calls=%ld regs=%lu refused=%lu loads=%u gone=%lu mod_ms=%llu divergences=%u wrong=%ld run_ms=%llu",
			seed, ops, kpm_step, kpm_stats.calls,
			atomic_long_read(&kpm_thread_calls), kpm_stats.regs,
			kpm_stats.refused, kpm_loads, kpm_stats.gone,
			div_u64(kpm_time[KPM_T_MOD].ns, NSEC_PER_MSEC),
			kpm_divergences, atomic_long_read(&kpm_wrong),
			div_u64(kpm_run_ns, NSEC_PER_MSEC));
	len += kpm_print_time(result + len, sizeof(result) - len);
	scnprintf(result + len, sizeof(result) - len, " same=%lu", kpm_list_same);
	pr_info("%s\n", result);
	return 0;
}

static void __exit kp_model_exit(void)
{
}

module_init(kp_model_init);
module_exit(kp_model_exit);
MODULE_DESCRIPTION("Random kprobes API sequences checked against a model");
MODULE_LICENSE("GPL");
