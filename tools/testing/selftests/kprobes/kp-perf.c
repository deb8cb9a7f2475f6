// SPDX-License-Identifier: GPL-2.0
/*
 * kp-perf - open a kprobe and a kretprobe through perf_event_open() on the
 * kprobe PMU, hit them, and check that they counted.
 *
 * The kprobe PMU (kernel/events/core.c, perf_kprobe) is what "perf record
 * -e kprobes:..." and BPF loaders use to create a probe without going
 * through tracefs: attr.type is the PMU's dynamic type from
 * /sys/bus/event_source/devices/kprobe/type, attr.kprobe_func (config1)
 * points to the function name in user memory, attr.probe_offset (config2)
 * is the offset into it, and bit 0 of attr.config ("retprobe", see
 * .../kprobe/format/retprobe) asks for a kretprobe.
 *
 * The events count per task (pid 0, any CPU): every hit while this process
 * runs adds one.  The probed function, __x64_sys_getpid by default, is hit
 * by calling getpid() directly through syscall() LOOPS times.
 *
 * Usage: kp-perf [FUNCTION]
 * Prints one TAP line per check; exits 0 (all passed), 1 (a check failed)
 * or 4 (kselftest's skip: no kprobe PMU).
 *
 * Usage: kp-perf --detach N
 * What perf and bpftrace do with many probes, timed for make bench: open
 * kprobe events on the first N functions of available_filter_functions
 * that accept one (in kernel text; refusals are skipped and counted),
 * then close them one at a time.  Prints "kpbench,perfN_open_us,T" and
 * "kpbench,perfN_close_us,T" lines, which bench.py reads from the console
 * as it reads kpbench.ko's.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PMU_TYPE_FILE	"/sys/bus/event_source/devices/kprobe/type"
#define FILTER_FUNCS	"/sys/kernel/tracing/available_filter_functions"
#define LOOPS		1000
#define KSFT_SKIP	4

static int checks, failures;

static void report(int ok, const char *what)
{
	checks++;
	if (!ok)
		failures++;
	printf("%sok %d %s\n", ok ? "" : "not ", checks, what);
}

static int pmu_type(void)
{
	FILE *f = fopen(PMU_TYPE_FILE, "r");
	int type = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}

/* Open a disabled counting event on FUNC (a kretprobe if RET) for this task. */
static int open_probe(int type, const char *func, int ret)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = ret ? 1 : 0;
	attr.kprobe_func = (uint64_t)(uintptr_t)func;
	attr.probe_offset = 0;
	attr.disabled = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Count the hits of one probe on FUNC while calling getpid() LOOPS times. */
static void count_hits(int type, const char *func, int ret)
{
	const char *kind = ret ? "kretprobe" : "kprobe";
	char what[256];
	uint64_t count = 0;
	int fd, i;

	fd = open_probe(type, func, ret);
	snprintf(what, sizeof(what), "perf_event_open %s on %s", kind, func);
	if (fd < 0)
		printf("# %s: %s\n", what, strerror(errno));
	report(fd >= 0, what);
	if (fd < 0)
		return;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < LOOPS; i++)
		syscall(SYS_getpid);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		printf("# read: %s\n", strerror(errno));
	close(fd);

	printf("# %s on %s: %llu hits for %d getpid() calls\n", kind, func,
	       (unsigned long long)count, LOOPS);
	snprintf(what, sizeof(what), "%s on %s counts every call", kind, func);
	/* Only getpid() calls of this task count: exactly LOOPS for getpid. */
	report(count >= LOOPS, what);
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* Open kprobe events on @n functions, then close them one by one. */
static int detach_bench(int type, int n)
{
	long long t_open = 0, t0;
	int *fds = calloc(n, sizeof(*fds));
	int opened = 0, refused = 0, i;
	char line[512], name[256];
	FILE *f = fopen(FILTER_FUNCS, "r");

	if (!f || !fds) {
		printf("# --detach: cannot read %s\n", FILTER_FUNCS);
		return 1;
	}
	while (opened < n && fgets(line, sizeof(line), f)) {
		/* "name" or "name [module]": kernel text only. */
		if (sscanf(line, "%255s", name) != 1 || strchr(line, '['))
			continue;
		t0 = now_us();
		fds[opened] = open_probe(type, name, 0);
		if (fds[opened] < 0) {
			refused++;
			continue;
		}
		t_open += now_us() - t0;
		opened++;
	}
	fclose(f);
	t0 = now_us();
	for (i = 0; i < opened; i++)
		close(fds[i]);
	printf("kpbench,perf%d_open_us,%lld\n", n, t_open);
	printf("kpbench,perf%d_close_us,%lld\n", n, now_us() - t0);
	printf("# --detach: %d opened, %d refused\n", opened, refused);
	free(fds);
	return opened == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *func = argc > 1 ? argv[1] : "__x64_sys_getpid";
	int type = pmu_type();

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (type < 0) {
		printf("# SKIP: no %s (CONFIG_KPROBE_EVENTS, CONFIG_PERF_EVENTS)\n",
		       PMU_TYPE_FILE);
		return KSFT_SKIP;
	}
	if (argc > 2 && !strcmp(argv[1], "--detach"))
		return detach_bench(type, atoi(argv[2]));
	printf("# kprobe PMU type %d\n", type);
	count_hits(type, func, 0);
	count_hits(type, func, 1);

	/* A function that does not exist must be refused. */
	{
		int fd = open_probe(type, "kp_perf_no_such_function", 0);

		report(fd < 0, "perf_event_open refuses an unknown function");
		if (fd >= 0)
			close(fd);
	}
	printf("# %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
