/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Annotations shared by every architecture that supports kprobes.
 *
 * NOKPROBE_SYMBOL(sym) records the address of @sym in the
 * "_kprobe_blacklist" section; the kprobes core turns the section into
 * its blacklist at boot (see kernel/kprobes/blacklist.c).  The section
 * name is a contract with the linker script (KPROBE_BLACKLIST()).
 */
#ifndef _ASM_GENERIC_KPROBES_H
#define _ASM_GENERIC_KPROBES_H

#if defined(__KERNEL__) && !defined(__ASSEMBLY__)

#if defined(CONFIG_KPROBES)
/* One pointer-sized record per refused symbol. */
#define __NOKPROBE_SYMBOL(sym)						\
	static unsigned long __nokprobe_rec_##sym __used		\
	__section("_kprobe_blacklist") = (unsigned long)(sym);
#define NOKPROBE_SYMBOL(sym)		__NOKPROBE_SYMBOL(sym)
/* Code placed in .kprobes.text is never probed as a whole. */
#define __kprobes			notrace __section(".kprobes.text")
/* Helpers on the handler path must be folded into their (blacklisted) caller. */
#define nokprobe_inline			__always_inline
#else /* !CONFIG_KPROBES */
#define NOKPROBE_SYMBOL(sym)
#define __kprobes
#define nokprobe_inline			inline
#endif /* CONFIG_KPROBES */

#endif /* __KERNEL__ && !__ASSEMBLY__ */

#endif /* _ASM_GENERIC_KPROBES_H */
