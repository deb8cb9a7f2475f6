// SPDX-License-Identifier: GPL-2.0
/*
 * kp-bpf - attach a BPF program to a kprobe and to a kretprobe created on
 * the kprobe PMU, hit them, and check that the program ran on every hit.
 *
 * This is the path BPF kprobe loaders take, done with the raw bpf(2) and
 * perf_event_open(2) system calls so that the test needs neither libbpf nor
 * a BPF compiler:
 *
 *   1. bpf(BPF_MAP_CREATE): an array map of one u64, the hit counter;
 *   2. bpf(BPF_PROG_LOAD): a BPF_PROG_TYPE_KPROBE program, assembled by hand
 *      below, that looks up element 0 of the map and adds 1 to it with an
 *      atomic add (BPF_STX | BPF_ATOMIC, imm BPF_ADD: the old BPF_XADD);
 *   3. perf_event_open() on the kprobe PMU, as kp-perf does: attr.type from
 *      /sys/bus/event_source/devices/kprobe/type, attr.kprobe_func (config1)
 *      pointing to the function name, and for the kretprobe the bit named
 *      by .../kprobe/format/retprobe set in attr.config;
 *   4. ioctl(PERF_EVENT_IOC_SET_BPF) ties the program to the probe's trace
 *      event; from then on the kprobe event handler (kprobe_perf_func,
 *      kretprobe_perf_func) runs it through trace_call_bpf() on every hit.
 *
 * The probe's trace event is registered, and so the kprobe armed, when the
 * perf event is created, and the program runs for every task that hits it,
 * not only this one (the per-task scheduling of a perf event only decides
 * what the event itself records).  Hence the check is count >= LOOPS: other
 * tasks' getpid() calls may add to it, none of ours may be missed.
 *
 * With --func-ip, the program is another one: it calls bpf_get_func_ip()
 * and stores the result, with a count of its runs, in the map.  On a kprobe
 * or kretprobe event (BPF_PROG_TYPE_KPROBE, not kprobe_multi) the helper
 * is bpf_get_func_ip_kprobe(): it returns the address of the probed
 * function when kprobe_running() is a probe at a function entry
 * (KPROBE_FLAG_ON_FUNC_ENTRY), 0 otherwise.  The stored value must be the
 * function's address in /proc/kallsyms (no KASLR in the test guest, and
 * root sees real addresses).  While the probe is registered, its lines of
 * /sys/kernel/debug/kprobes/list are printed as "# list: LINE", so that the
 * caller can tell how it is armed (int3, [OPTIMIZED], [FTRACE]).  The probed
 * function is hit by LOOPS getpid() calls, or by writing VALUE (default 1)
 * to FILE once, e.g. a module parameter that calls the function.
 *
 * Usage: kp-bpf [FUNCTION]
 *        kp-bpf --func-ip FUNCTION [--kretprobe]
 *               [--trigger-file FILE [--trigger-value VALUE]]
 * Prints one TAP line per check; exits 0 (all passed), 1 (a check failed),
 * 2 (usage) or 4 (kselftest's skip: no kprobe PMU or no bpf(2)).
 */
#include <errno.h>
#include <getopt.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PMU_DIR		"/sys/bus/event_source/devices/kprobe"
#define KPROBE_LIST	"/sys/kernel/debug/kprobes/list"
#define LOOPS		1000
#define KSFT_SKIP	4
#define LOG_SIZE	(256 * 1024)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int checks, failures;

static void report(int ok, const char *what)
{
	checks++;
	if (!ok)
		failures++;
	printf("%sok %d %s\n", ok ? "" : "not ", checks, what);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* Read one integer from PMU_DIR/FILE after an optional PREFIX ("config:"). */
static int pmu_read(const char *file, const char *prefix)
{
	char path[256], fmt[64];
	FILE *f;
	int val = -1;

	snprintf(path, sizeof(path), "%s/%s", PMU_DIR, file);
	snprintf(fmt, sizeof(fmt), "%s%%d", prefix);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, fmt, &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

/* An array map of one element of VALUE_SIZE bytes. */
static int map_create(unsigned int value_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = value_size;
	attr.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/* Element 0 of MAP_FD: set it to *VAL (SET) or read it into *VAL. */
static int map_elem(int map_fd, void *val, int set)
{
	union bpf_attr attr;
	uint32_t key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)val;
	attr.flags = set ? BPF_ANY : 0;
	return sys_bpf(set ? BPF_MAP_UPDATE_ELEM : BPF_MAP_LOOKUP_ELEM, &attr);
}

/* One instruction; the fields follow struct bpf_insn's order. */
#define INSN(c, d, s, o, i)						\
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),	\
			    .off = (o), .imm = (i) })

/* Load the BPF_PROG_TYPE_KPROBE program PROG of CNT instructions. */
static int prog_load(const struct bpf_insn *prog, unsigned int cnt,
		     char *log, size_t log_size)
{
	static const char license[] = "GPL";
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insns = (uint64_t)(uintptr_t)prog;
	attr.insn_cnt = cnt;
	/* GPL: bpf_get_func_ip() is a GPL-only helper for kprobe programs. */
	attr.license = (uint64_t)(uintptr_t)license;
	/* kern_version has not been checked for kprobe programs since 5.0. */
	if (log) {
		log[0] = '\0';
		attr.log_buf = (uint64_t)(uintptr_t)log;
		attr.log_size = log_size;
		attr.log_level = 1;
	}
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/*
 * Load the program; when the kernel refuses it, load it again with a log
 * buffer and print the verifier's log.  The first attempt has none because
 * a log that overflows its buffer fails the load by itself (ENOSPC).
 */
static int load_with_log(const struct bpf_insn *prog, unsigned int cnt)
{
	int fd = prog_load(prog, cnt, NULL, 0);
	int err = errno;
	char *log, *line;

	if (fd >= 0)
		return fd;
	printf("# BPF_PROG_LOAD: %s\n", strerror(err));
	log = malloc(LOG_SIZE);
	if (!log)
		return -1;
	fd = prog_load(prog, cnt, log, LOG_SIZE);
	if (fd >= 0) {
		/* Still a failure: the program must load as it is. */
		printf("# ... but it loads with a log, no log to show\n");
		close(fd);
	}
	printf("# verifier log:%s\n", log[0] ? "" : " (empty)");
	for (line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
		printf("#   %s\n", line);
	free(log);
	errno = err;
	return -1;
}

/* r0 = &element 0 of MAP_FD, or NULL; r1-r5 are clobbered. */
#define LOOKUP_ELEM_0(map_fd)						\
	INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),		\
	INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),	\
	INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),		\
	INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD,	\
	     0, (map_fd)),						\
	INSN(0, 0, 0, 0, 0),	/* upper 32 bits of the ld_imm64 */	\
	INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem)

/*
 * The counting program, for a map of one u64 whose fd is MAP_FD:
 *
 *	*(u32 *)(r10 - 4) = 0		key 0, on the BPF stack
 *	r2 = r10
 *	r2 += -4			r2 = &key
 *	r1 = map MAP_FD			two-slot ld_imm64; the verifier turns
 *					the fd into the map's address
 *	call bpf_map_lookup_elem	r0 = &value or NULL
 *	if r0 == 0 goto out		the verifier insists on the NULL check
 *	r1 = 1
 *	lock *(u64 *)(r0 + 0) += r1	atomic: hits on several CPUs at once
 * out:
 *	r0 = 0				tells trace_call_bpf() that the perf
 *	exit				event itself need not record the hit
 */
static int load_counter(int map_fd)
{
	struct bpf_insn prog[] = {
		LOOKUP_ELEM_0(map_fd),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0,
		     BPF_ADD),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return load_with_log(prog, ARRAY_SIZE(prog));
}

/* The value of the --func-ip program's map. */
struct func_ip_value {
	uint64_t ip;		/* bpf_get_func_ip() of the last run */
	uint64_t runs;		/* how many times the program ran */
};

/*
 * The --func-ip program, for a map of one struct func_ip_value whose fd is
 * MAP_FD:
 *
 *	call bpf_get_func_ip		r1 = the context (struct pt_regs *),
 *					as on entry; r0 = the function's address
 *	r7 = r0				callee-saved, kept across the lookup
 *	(look up element 0 as above)	r0 = &value or NULL
 *	if r0 == 0 goto out
 *	*(u64 *)(r0 + 0) = r7		value.ip: same from every task
 *	r1 = 1
 *	lock *(u64 *)(r0 + 8) += r1	value.runs
 * out:
 *	r0 = 0
 *	exit
 */
static int load_func_ip(int map_fd)
{
	struct bpf_insn prog[] = {
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ip),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_7, BPF_REG_0, 0, 0),
		LOOKUP_ELEM_0(map_fd),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 3, 0),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_7,
		     offsetof(struct func_ip_value, ip), 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1,
		     offsetof(struct func_ip_value, runs), BPF_ADD),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return load_with_log(prog, ARRAY_SIZE(prog));
}

/* Open a disabled kprobe (CONFIG = 0) or kretprobe event on FUNC, this task. */
static int open_probe(int type, uint64_t config, const char *func)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.kprobe_func = (uint64_t)(uintptr_t)func;
	attr.probe_offset = 0;
	attr.disabled = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/*
 * Reset the map element to *ZERO, open a kprobe (or kretprobe: CONFIG) on
 * FUNC and attach PROG_FD to it; one TAP line.  Return the perf event's
 * fd, for the caller to enable, or -1.
 */
static int attach_prog(int type, uint64_t config, const char *kind,
		       const char *func, int prog_fd, int map_fd, void *zero)
{
	char what[256];
	int fd, ok;

	snprintf(what, sizeof(what), "BPF program attached to a %s on %s",
		 kind, func);
	if (map_elem(map_fd, zero, 1)) {
		printf("# BPF_MAP_UPDATE_ELEM: %s\n", strerror(errno));
		report(0, what);
		return -1;
	}
	fd = open_probe(type, config, func);
	if (fd < 0) {
		printf("# perf_event_open %s on %s: %s\n", kind, func,
		       strerror(errno));
		report(0, what);
		return -1;
	}
	ok = ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) == 0;
	if (!ok)
		printf("# PERF_EVENT_IOC_SET_BPF: %s\n", strerror(errno));
	report(ok, what);
	if (!ok) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Attach PROG_FD to a kprobe (or kretprobe) on FUNC, call getpid() LOOPS
 * times, close the probe and check the count the program kept in MAP_FD.
 */
static void count_hits(int type, uint64_t config, const char *kind,
		       const char *func, int prog_fd, int map_fd)
{
	char what[256];
	uint64_t count = 0;
	int fd, i;

	fd = attach_prog(type, config, kind, func, prog_fd, map_fd, &count);
	if (fd < 0)
		return;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < LOOPS; i++)
		syscall(SYS_getpid);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	/* Closing the last event on the probe unregisters it: count is final. */
	close(fd);

	snprintf(what, sizeof(what), "BPF program counts every %s hit on %s",
		 kind, func);
	if (map_elem(map_fd, &count, 0)) {
		printf("# BPF_MAP_LOOKUP_ELEM: %s\n", strerror(errno));
		report(0, what);
		return;
	}
	printf("# %s on %s: BPF counted %llu hits for %d getpid() calls\n",
	       kind, func, (unsigned long long)count, LOOPS);
	report(count >= LOOPS, what);
}

/* The address /proc/kallsyms gives for text symbol FUNC, 0 if none or several. */
static uint64_t kallsyms_addr(const char *func)
{
	char line[512], name[256], type;
	unsigned long long addr, found = 0;
	int n = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f) {
		printf("# /proc/kallsyms: %s\n", strerror(errno));
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if ((type == 't' || type == 'T') && !strcmp(name, func)) {
			found = addr;
			n++;
		}
	}
	fclose(f);
	if (n > 1) {
		printf("# %d text symbols named %s in /proc/kallsyms\n", n, func);
		return 0;
	}
	if (!found)
		printf("# no text symbol %s in /proc/kallsyms (or addresses hidden)\n",
		       func);
	return found;
}

/*
 * Print the lines of the kprobe list for the entry probes of the function
 * at ADDR: at ADDR or up to two instructions past it, since an entry
 * probe is not at the function's address everywhere (x86 with IBT: past
 * the ENDBR; arm64: on its ftrace call, the BL at +4, or +8 after a
 * "bti c", or past it).  By address, not by name: the list may name an
 * alias (__do_sys_getpid for __x64_sys_getpid).
 */
static void print_list(uint64_t addr)
{
	char line[512], *end;
	uint64_t at;
	int n = 0;
	FILE *f = fopen(KPROBE_LIST, "r");

	if (!f) {
		printf("# %s: %s\n", KPROBE_LIST, strerror(errno));
		return;
	}
	/* The address is printed with the kernel's pointer width: 8 or 16. */
	while (fgets(line, sizeof(line), f)) {
		at = strtoull(line, &end, 16);
		if (end == line || *end != ' ' || at < addr || at > addr + 8)
			continue;
		printf("# list: %s", line);
		n++;
	}
	fclose(f);
	if (!n)
		printf("# no probe at %#llx in %s\n", (unsigned long long)addr,
		       KPROBE_LIST);
}

/* Write VALUE to FILE, or call getpid() LOOPS times without a FILE. */
static int trigger(const char *file, const char *value)
{
	FILE *f;
	int i;

	if (!file) {
		for (i = 0; i < LOOPS; i++)
			syscall(SYS_getpid);
		return 0;
	}
	f = fopen(file, "w");
	if (!f || fprintf(f, "%s\n", value) < 0 || fclose(f)) {
		printf("# write %s to %s: %s\n", value, file, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Attach the --func-ip program to a kprobe or kretprobe (CONFIG) on FUNC,
 * trigger it, and check that bpf_get_func_ip() gave FUNC's address ADDR.
 */
static void check_func_ip(int type, uint64_t config, const char *kind,
			  const char *func, uint64_t addr, int prog_fd,
			  int map_fd, const char *file, const char *value)
{
	struct func_ip_value val = { 0, 0 };
	char what[256];
	int fd, ok;

	fd = attach_prog(type, config, kind, func, prog_fd, map_fd, &val);
	if (fd < 0)
		return;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ok = trigger(file, value) == 0;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	print_list(addr);
	close(fd);

	snprintf(what, sizeof(what),
		 "bpf_get_func_ip() on a %s on %s is its address %#llx", kind,
		 func, (unsigned long long)addr);
	if (map_elem(map_fd, &val, 0)) {
		printf("# BPF_MAP_LOOKUP_ELEM: %s\n", strerror(errno));
		report(0, what);
		return;
	}
	printf("# %s on %s: %llu runs, bpf_get_func_ip() returned %#llx\n",
	       kind, func, (unsigned long long)val.runs,
	       (unsigned long long)val.ip);
	if (!val.runs)
		printf("# the program never ran\n");
	report(ok && val.runs > 0 && val.ip == addr, what);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [FUNCTION]\n"
		"       %s --func-ip FUNCTION [--kretprobe]\n"
		"          [--trigger-file FILE [--trigger-value VALUE]]\n",
		prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "func-ip", required_argument, NULL, 'f' },
		{ "kretprobe", no_argument, NULL, 'r' },
		{ "trigger-file", required_argument, NULL, 't' },
		{ "trigger-value", required_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *func = "__x64_sys_getpid", *ip_func = NULL;
	const char *file = NULL, *value = "1";
	int type, retbit, map_fd, prog_fd, ret = 0, c;
	uint64_t addr = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			ip_func = optarg;
			break;
		case 'r':
			ret = 1;
			break;
		case 't':
			file = optarg;
			break;
		case 'v':
			value = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind < argc - 1 || (ip_func && optind < argc) ||
	    (!ip_func && (ret || file)))
		usage(argv[0]);
	if (optind < argc)
		func = argv[optind];

	setvbuf(stdout, NULL, _IOLBF, 0);
	type = pmu_read("type", "");
	retbit = pmu_read("format/retprobe", "config:");
	if (type < 0) {
		printf("# SKIP: no %s/type (CONFIG_KPROBE_EVENTS, CONFIG_PERF_EVENTS)\n",
		       PMU_DIR);
		return KSFT_SKIP;
	}
	printf("# kprobe PMU type %d, retprobe bit %d\n", type, retbit);

	if (ip_func) {
		addr = kallsyms_addr(ip_func);
		report(addr != 0, "the probed function is in /proc/kallsyms");
		if (!addr)
			goto out;
		printf("# %s at %#llx\n", ip_func, (unsigned long long)addr);
	}

	map_fd = map_create(ip_func ? sizeof(struct func_ip_value) :
			    sizeof(uint64_t));
	if (map_fd < 0 && errno == ENOSYS) {
		printf("# SKIP: no bpf(2) (CONFIG_BPF_SYSCALL)\n");
		return KSFT_SKIP;
	}
	if (map_fd < 0)
		printf("# BPF_MAP_CREATE: %s\n", strerror(errno));
	report(map_fd >= 0, ip_func ? "BPF_MAP_CREATE array of one {u64, u64}" :
				      "BPF_MAP_CREATE array of one u64");
	if (map_fd < 0)
		goto out;

	if (ip_func) {
		prog_fd = load_func_ip(map_fd);
		report(prog_fd >= 0,
		       "BPF_PROG_LOAD kprobe program (bpf_get_func_ip, store, atomic add)");
		if (prog_fd < 0)
			goto out_map;
		if (ret && (retbit < 0 || retbit > 63)) {
			printf("# no %s/format/retprobe\n", PMU_DIR);
			report(0, "BPF program on a kretprobe");
		} else {
			check_func_ip(type, ret ? 1ULL << retbit : 0,
				      ret ? "kretprobe" : "kprobe", ip_func,
				      addr, prog_fd, map_fd, file, value);
		}
		close(prog_fd);
		goto out_map;
	}

	prog_fd = load_counter(map_fd);
	report(prog_fd >= 0, "BPF_PROG_LOAD kprobe program (lookup, atomic add)");
	if (prog_fd < 0)
		goto out_map;

	count_hits(type, 0, "kprobe", func, prog_fd, map_fd);
	if (retbit < 0 || retbit > 63) {
		printf("# no %s/format/retprobe\n", PMU_DIR);
		report(0, "BPF program on a kretprobe");
	} else {
		count_hits(type, 1ULL << retbit, "kretprobe", func, prog_fd,
			   map_fd);
	}
	close(prog_fd);
out_map:
	close(map_fd);
out:
	printf("# %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
