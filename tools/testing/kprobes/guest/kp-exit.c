// SPDX-License-Identifier: GPL-2.0
/*
 * kp-exit - end the QEMU guest with an exit status.
 *
 * x86: QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4,
 * iosize=4) stops QEMU as soon as a value is written to its port; QEMU then
 * exits with status (value << 1) | 1, so status 0 arrives on the host as 1,
 * status 1 as 3, and so on.  A QEMU exit status of 0 therefore always means
 * that the guest did not get here (it powered off, rebooted or panicked).
 * busybox cannot write an I/O port, hence this helper, built statically on
 * the host by mkinitramfs.sh.
 *
 * riscv64: the virt machine's sifive_test device (at 0x100000) stops QEMU
 * when its register is written: with 0x3333 | code << 16 QEMU exits with
 * status code.  The code written is (status << 1) | 1, so that the host
 * sees what isa-debug-exit gives on x86.  0x5555 would exit with 0, which
 * is what the kernel's syscon power-off (and, through syscon reboot with
 * -no-reboot, a panic) gives: the host could not tell those from success.
 * The register is reached by mapping /dev/mem (CONFIG_DEVMEM).
 *
 * EXIT=panic (the architecture's file; mkinitramfs.sh defines
 * KP_EXIT_PANIC): a machine without an exit device, ppc64le's pseries and
 * arm64's virt.  Status 0 powers the machine off (reboot(2): RTAS
 * power-off, PSCI SYSTEM_OFF; QEMU exits with 0); any other status is
 * printed as "kp-exit: panic on purpose: guest status N" and the kernel is
 * made to panic (sysrq c through /proc/sysrq-trigger, CONFIG_MAGIC_SYSRQ),
 * which QEMU, run with -action panic=exit-failure, turns into exit status
 * 1 (the kernel tells it through RTAS ibm,os-term on pseries, through the
 * pvpanic PCI device on virt).  boot.sh reads the status from that line;
 * a panic without it, or a power-off without the /init marker, stays a
 * failure.  mips' Malta reboots for status 0 instead: QEMU's PIIX4 power
 * management has no I/O base there (YAMON would set one, QEMU's boot stub
 * does not, and Linux's fixup comes after the PCI quirk that reads it),
 * so the PIIX4 power-off writes nowhere; the FPGA's reset register
 * (syscon-reboot), with QEMU's -no-reboot, ends QEMU with 0 as a
 * power-off does.  parisc's power-off waits for the power button; its
 * reboot (the firmware's PDC reset) ends QEMU with 0 the same way.
 *
 * Usage: kp-exit STATUS   (0..127)
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#if defined(KP_EXIT_PANIC)
#include <fcntl.h>
#include <sys/reboot.h>
#include <unistd.h>

#if defined(__mips__) || defined(__hppa__)
#define KP_EXIT_OFF	RB_AUTOBOOT
#else
#define KP_EXIT_OFF	RB_POWER_OFF
#endif

static int kp_exit(long status)
{
	int fd;

	sync();
	if (!status) {
		reboot(KP_EXIT_OFF);
		perror("kp-exit: reboot");
		return -1;
	}
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd < 0) {
		perror("kp-exit: /proc/sysrq-trigger");
		return -1;
	}
	printf("kp-exit: panic on purpose: guest status %ld\n", status);
	fflush(stdout);
	if (write(fd, "c", 1) != 1) {
		perror("kp-exit: sysrq c");
		return -1;
	}
	return 0;
}
#elif defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>

#define KP_EXIT_PORT	0xf4

static int kp_exit(long status)
{
	if (ioperm(KP_EXIT_PORT, 4, 1)) {
		perror("kp-exit: ioperm");
		return -1;
	}
	outb((unsigned char)status, KP_EXIT_PORT);
	return 0;
}
#elif defined(__riscv)
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#define KP_SIFIVE_TEST		0x100000UL
#define KP_SIFIVE_TEST_FAIL	0x3333

static int kp_exit(long status)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile uint32_t *reg;
	int fd;

	fd = open("/dev/mem", O_RDWR | O_SYNC);
	if (fd < 0) {
		perror("kp-exit: /dev/mem");
		return -1;
	}
	reg = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   KP_SIFIVE_TEST);
	if (reg == MAP_FAILED) {
		perror("kp-exit: mmap sifive_test");
		return -1;
	}
	*reg = (uint32_t)(((status << 1) | 1) << 16 | KP_SIFIVE_TEST_FAIL);
	return 0;
}
#else
#error "kp-exit: no exit device known for this architecture (EXIT=panic: -DKP_EXIT_PANIC)"
#endif

int main(int argc, char **argv)
{
	long status = argc > 1 ? strtol(argv[1], NULL, 0) : 0;

	if (status < 0 || status > 127)
		status = 127;

	if (kp_exit(status))
		return 1;

	/* Still running: QEMU has no such device. */
	fprintf(stderr, "kp-exit: the exit device did not stop the machine\n");
	return 1;
}
