// SPDX-License-Identifier: GPL-2.0
/*
 * kp-uprobe-target - something for a uprobe event to probe
 * (tools/testing/selftests/kprobes/uprobe_event.sh).
 *
 *   kp-uprobe-target --offset   print the file offset of kp_uprobe_fn() in
 *                               this executable, in hex, as uprobe_events
 *                               wants it ("p:GRP/NAME PATH:0xOFFSET")
 *   kp-uprobe-target N          call kp_uprobe_fn() N times and print the
 *                               sum of its results
 *
 * The offset comes from /proc/self/maps (the mapping that holds the
 * function: its start address and file offset), so it is right for a
 * static or a position-independent executable alike, and the guest needs
 * no readelf.  The sum lets the test check that the probed function still
 * computes what it computes unprobed: its first instruction is executed
 * out of line (or simulated) by the kernel on every hit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* noinline and used: a real call per iteration, a real symbol. */
__attribute__((noinline, used)) unsigned long kp_uprobe_fn(unsigned long x)
{
	unsigned long r = x * 2654435761UL;

	__asm__ volatile("" : "+r" (r));	/* keep the computation */
	return (r >> 7) ^ x;
}

static int print_offset(void)
{
	uintptr_t fn = (uintptr_t)kp_uprobe_fn;
	unsigned long start, end, off;
	char perms[8], line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f) {
		perror("kp-uprobe-target: /proc/self/maps");
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perms, &off) != 4)
			continue;
		if (fn >= start && fn < end && perms[2] == 'x') {
			printf("0x%lx\n", (unsigned long)(fn - start + off));
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	fprintf(stderr, "kp-uprobe-target: no executable mapping holds %#lx\n",
		(unsigned long)fn);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long i, n, sum = 0;

	if (argc == 2 && !strcmp(argv[1], "--offset"))
		return print_offset();
	n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
	for (i = 0; i < n; i++)
		sum += kp_uprobe_fn(i);
	printf("%lu\n", sum);
	return 0;
}
