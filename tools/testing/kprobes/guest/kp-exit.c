// SPDX-License-Identifier: GPL-2.0
/*
 * kp-exit - end the QEMU guest with an exit status.
 *
 * QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4,iosize=4)
 * stops QEMU as soon as a value is written to its port; QEMU then exits with
 * status (value << 1) | 1, so status 0 arrives on the host as 1, status 1 as
 * 3, and so on.  A QEMU exit status of 0 therefore always means that the
 * guest did not get here (it powered off, rebooted or panicked).
 *
 * busybox cannot write an I/O port, hence this helper, built statically on
 * the host by mkinitramfs.sh.
 *
 * Usage: kp-exit STATUS   (0..127)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define KP_EXIT_PORT	0xf4

int main(int argc, char **argv)
{
	long status = argc > 1 ? strtol(argv[1], NULL, 0) : 0;

	if (status < 0 || status > 127)
		status = 127;

	if (ioperm(KP_EXIT_PORT, 4, 1)) {
		perror("kp-exit: ioperm");
		return 1;
	}
	outb((unsigned char)status, KP_EXIT_PORT);

	/* Still running: QEMU has no isa-debug-exit device. */
	fprintf(stderr, "kp-exit: isa-debug-exit did not stop the machine\n");
	return 1;
}
