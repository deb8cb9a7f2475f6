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
 * Usage: kp-bpf [FUNCTION]
 * Prints one TAP line per check; exits 0 (all passed), 1 (a check failed)
 * or 4 (kselftest's skip: no kprobe PMU or no bpf(2)).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PMU_DIR		"/sys/bus/event_source/devices/kprobe"
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

static int map_create(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint64_t);
	attr.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/* Element 0 of MAP_FD: set it to *VAL (SET) or read it into *VAL. */
static int map_elem(int map_fd, uint64_t *val, int set)
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

/*
 * The program, for a map whose fd is MAP_FD:
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
static int prog_load(int map_fd, char *log, size_t log_size)
{
	struct bpf_insn prog[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD,
		     0, map_fd),
		INSN(0, 0, 0, 0, 0),	/* upper 32 bits of the ld_imm64 */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0,
		     BPF_ADD),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	static const char license[] = "GPL";
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insns = (uint64_t)(uintptr_t)prog;
	attr.insn_cnt = ARRAY_SIZE(prog);
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
static int load_with_log(int map_fd)
{
	int fd = prog_load(map_fd, NULL, 0);
	int err = errno;
	char *log, *line;

	if (fd >= 0)
		return fd;
	printf("# BPF_PROG_LOAD: %s\n", strerror(err));
	log = malloc(LOG_SIZE);
	if (!log)
		return -1;
	fd = prog_load(map_fd, log, LOG_SIZE);
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
 * Attach PROG_FD to a kprobe (or kretprobe) on FUNC, call getpid() LOOPS
 * times, close the probe and check the count the program kept in MAP_FD.
 */
static void count_hits(int type, uint64_t config, const char *kind,
		       const char *func, int prog_fd, int map_fd)
{
	char what[256];
	uint64_t count = 0;
	int fd, ok, i;

	snprintf(what, sizeof(what), "BPF program attached to a %s on %s",
		 kind, func);
	if (map_elem(map_fd, &count, 1)) {
		printf("# BPF_MAP_UPDATE_ELEM: %s\n", strerror(errno));
		report(0, what);
		return;
	}
	fd = open_probe(type, config, func);
	if (fd < 0) {
		printf("# perf_event_open %s on %s: %s\n", kind, func,
		       strerror(errno));
		report(0, what);
		return;
	}
	ok = ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) == 0;
	if (!ok)
		printf("# PERF_EVENT_IOC_SET_BPF: %s\n", strerror(errno));
	report(ok, what);
	if (!ok) {
		close(fd);
		return;
	}

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

int main(int argc, char **argv)
{
	const char *func = argc > 1 ? argv[1] : "__x64_sys_getpid";
	int type = pmu_read("type", "");
	int retbit = pmu_read("format/retprobe", "config:");
	int map_fd, prog_fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (type < 0) {
		printf("# SKIP: no %s/type (CONFIG_KPROBE_EVENTS, CONFIG_PERF_EVENTS)\n",
		       PMU_DIR);
		return KSFT_SKIP;
	}
	printf("# kprobe PMU type %d, retprobe bit %d\n", type, retbit);

	map_fd = map_create();
	if (map_fd < 0 && errno == ENOSYS) {
		printf("# SKIP: no bpf(2) (CONFIG_BPF_SYSCALL)\n");
		return KSFT_SKIP;
	}
	if (map_fd < 0)
		printf("# BPF_MAP_CREATE: %s\n", strerror(errno));
	report(map_fd >= 0, "BPF_MAP_CREATE array of one u64");
	if (map_fd < 0)
		goto out;

	prog_fd = load_with_log(map_fd);
	report(prog_fd >= 0, "BPF_PROG_LOAD kprobe program (lookup, atomic add)");
	if (prog_fd < 0)
		goto out;

	count_hits(type, 0, "kprobe", func, prog_fd, map_fd);
	if (retbit < 0 || retbit > 63) {
		printf("# no %s/format/retprobe\n", PMU_DIR);
		report(0, "BPF program on a kretprobe");
	} else {
		count_hits(type, 1ULL << retbit, "kretprobe", func, prog_fd,
			   map_fd);
	}
	close(prog_fd);
	close(map_fd);
out:
	printf("# %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
