// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probes on module text.
 *
 * Registration holds a reference on the module only while it runs, so a
 * probed module can still be unloaded.  When it goes (MODULE_STATE_GOING),
 * or when its init text is freed (MODULE_STATE_LIVE), the sites on that
 * text become GONE: out of the table, never written again, kept on the
 * all-sites list until their members are unregistered.  The module's own
 * NOKPROBE_SYMBOL()s, .kprobes.text and noinstr text join the blacklist
 * while it is loaded.
 *
 * Built only with CONFIG_MODULES (see the stubs in internal.h).
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/module.h>
#include <linux/notifier.h>

int kprobe_module_text_get(unsigned long addr, struct module **modp,
			   const char **why)
{
	struct module *mod;
	int ret = 0;

	/* preempt_disable() keeps the module list stable for the lookup. */
	preempt_disable();
	mod = __module_text_address(addr);
	if (!mod) {
		*why = "not in kernel or module text";
		ret = -EINVAL;
	} else if (!try_module_get(mod)) {
		*why = "its module is going away";
		ret = -ENOENT;
	} else if (within_module_init(addr, mod) && !module_is_coming(mod)) {
		/* Init text of a live module is about to be freed. */
		module_put(mod);
		*why = "in module init text that is being freed";
		ret = -ENOENT;
	}
	preempt_enable();
	*modp = ret ? NULL : mod;
	return ret;
}

static int kprobe_module_blacklist(struct module *mod)
{
	unsigned long start;
	unsigned int i;

	kprobe_blacklist_begin();
	for (i = 0; i < mod->num_kprobe_blacklist; i++)
		kprobe_add_ksym_blacklist(mod->kprobe_blacklist[i]);
	start = (unsigned long)mod->kprobes_text_start;
	kprobe_blacklist_add(start, start + mod->kprobes_text_size,
			     KPROBE_BL_KPROBES_TEXT);
	start = (unsigned long)mod->noinstr_text_start;
	kprobe_blacklist_add(start, start + mod->noinstr_text_size,
			     KPROBE_BL_NOINSTR);
	return kprobe_blacklist_end();
}

/* Retire the live sites on @mod's init text (@init_only) or on all of it. */
static void kprobe_module_kill(struct module *mod, bool init_only)
{
	struct kprobe_site *site;
	unsigned long addr;

	mutex_lock(&kprobe_mutex);
	for_each_kprobe_site(site) {
		if (!kprobe_site_live(site))
			continue;
		addr = (unsigned long)site->kp.addr;
		if (init_only ? within_module_init(addr, mod) :
				within_module(addr, mod))
			kprobe_site_kill(site);
	}
	mutex_unlock(&kprobe_mutex);
}

static int kprobe_module_notify(struct notifier_block *nb,
				unsigned long state, void *data)
{
	struct module *mod = data;
	int ret = 0;

	switch (state) {
	case MODULE_STATE_COMING:
		/* Loading a module whose NOKPROBE code is unprotected is worse. */
		ret = kprobe_module_blacklist(mod);
		if (ret)
			pr_warn("cannot blacklist the kprobe-unsafe code of %s (%d)\n",
				mod->name, ret);
		break;
	case MODULE_STATE_LIVE:
		kprobe_module_kill(mod, true);
		break;
	case MODULE_STATE_GOING:
		kprobe_module_kill(mod, false);
		kprobe_blacklist_remove_module(mod);
		break;
	}
	return notifier_from_errno(ret);
}

static struct notifier_block kprobe_module_nb = {
	.notifier_call = kprobe_module_notify,
};

int __init kprobe_module_init(void)
{
	return register_module_notifier(&kprobe_module_nb);
}
