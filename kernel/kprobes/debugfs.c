// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /sys/kernel/debug/kprobes/
 *
 *   list       one line per registered kprobe, in the format of the
 *              implementation this one replaces, byte for byte, because
 *              scripts parse it:
 *              "<address>  <k|r>  <symbol>+0x<offset>  <module or space> <tags>"
 *              tags: [GONE][DISABLED][OPTIMIZED][FTRACE], [DISABLED] only
 *              on a probe not [GONE]; the address is zeros for readers
 *              who may not see kernel addresses.  A [GONE] probe's text
 *              is not looked up (it may belong to something else by now);
 *              where there is no symbol, the token is the address again,
 *              "0x<address>" (zeros as above), and one space: no module
 *              column, as the old code wrote an address kallsyms did not
 *              know.
 *   missed     the same probes, the same first columns, then the counts
 *              of hits that ran no handler: "missed=N" (a busy CPU,
 *              struct kprobe::nmissed), and for a kretprobe "empty=N"
 *              (no free instance, struct kretprobe::nmissed) and
 *              "refused=N" (declined by the entry handler)
 *   enabled    "1" or "0": arm or disarm every probe at once (members keep
 *              their own enabled state)
 *   blacklist  see blacklist.c
 *
 * "list" and "missed" walk the sites with kprobe_mutex held between start
 * and stop.
 */
/* First: it defines pr_fmt. */
#include "internal.h"

#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

static struct kprobe_site *kprobe_list_at(loff_t pos)
{
	struct kprobe_site *site;

	for_each_kprobe_site(site)
		if (!pos--)
			return site;
	return NULL;
}

static void *kprobe_list_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&kprobe_mutex);
	return kprobe_list_at(*pos);
}

static void *kprobe_list_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct kprobe_site *site = v;

	++*pos;
	return kprobe_site_next(site);
}

static void kprobe_list_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&kprobe_mutex);
}

/*
 * The columns both files share: address, type, where, and the separator
 * before the tags.
 */
static void kprobe_list_where(struct seq_file *m, struct kprobe_site *site,
			      struct kprobe *p)
{
	unsigned long addr = (unsigned long)site->hit.addr;
	bool show = kallsyms_show_value(m->file->f_cred);
	unsigned long size, offset;
	char name[KSYM_NAME_LEN];
	const char *sym = NULL;
	char *mod = NULL;

	seq_printf(m, "%0*lx  %c  ", KPROBE_ADDR_WIDTH, show ? addr : 0,
		   kprobe_is_kretprobe(p) ? 'r' : 'k');
	if (site->hit.state != KPROBE_SITE_GONE)
		sym = kallsyms_lookup(addr, &size, &offset, &mod, name);
	if (sym)
		seq_printf(m, "%s+0x%lx  %s ", sym, offset, mod ?: " ");
	else
		seq_printf(m, "0x%0*lx ", KPROBE_ADDR_WIDTH, show ? addr : 0);
}

static void kprobe_list_member(struct seq_file *m, struct kprobe_site *site,
			       struct kprobe *p)
{
	bool gone = site->hit.state == KPROBE_SITE_GONE;

	kprobe_list_where(m, site, p);
	if (gone)
		seq_puts(m, "[GONE]");
	else if (p->flags & KPROBE_FLAG_DISABLED)
		seq_puts(m, "[DISABLED]");
	if (kprobe_optimized(&site->hit))
		seq_puts(m, "[OPTIMIZED]");
	if (kprobe_ftrace(&site->hit))
		seq_puts(m, "[FTRACE]");
	seq_putc(m, '\n');
}

static void kprobe_missed_member(struct seq_file *m, struct kprobe_site *site,
				 struct kprobe *p)
{
	kprobe_list_where(m, site, p);
	/* A snapshot of a count other CPUs bump without a lock. */
	seq_printf(m, "missed=%lu", data_race(p->nmissed));
	if (kprobe_is_kretprobe(p))
		kretprobe_show_missed(m, p);
	seq_putc(m, '\n');
}

static int kprobe_list_show(struct seq_file *m, void *v)
{
	struct kprobe_site *site = v;
	struct kprobe *p;

	list_for_each_entry(p, &site->members, list)
		kprobe_list_member(m, site, p);
	return 0;
}

static int kprobe_missed_show(struct seq_file *m, void *v)
{
	struct kprobe_site *site = v;
	struct kprobe *p;

	list_for_each_entry(p, &site->members, list)
		kprobe_missed_member(m, site, p);
	return 0;
}

static const struct seq_operations kprobe_list_sops = {
	.start	= kprobe_list_start,
	.next	= kprobe_list_next,
	.stop	= kprobe_list_stop,
	.show	= kprobe_list_show,
};
DEFINE_SEQ_ATTRIBUTE(kprobe_list);

static const struct seq_operations kprobe_missed_sops = {
	.start	= kprobe_list_start,
	.next	= kprobe_list_next,
	.stop	= kprobe_list_stop,
	.show	= kprobe_missed_show,
};
DEFINE_SEQ_ATTRIBUTE(kprobe_missed);

static ssize_t kprobes_enabled_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[] = { READ_ONCE(kprobes_all_armed) ? '1' : '0', '\n' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

/* Accepts "0" or "1", optionally followed by a newline; nothing else. */
static ssize_t kprobes_enabled_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char buf[2];
	int ret;

	if (!count || count > sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (count == 2 && buf[1] != '\n')
		return -EINVAL;
	if (buf[0] == '0')
		ret = kprobes_disarm_all();
	else if (buf[0] == '1')
		ret = kprobes_arm_all();
	else
		return -EINVAL;
	return ret ?: count;
}

static const struct file_operations kprobes_enabled_fops = {
	.read	= kprobes_enabled_read,
	.write	= kprobes_enabled_write,
	.llseek	= default_llseek,
};

int __init kprobe_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("kprobes", NULL);

	debugfs_create_file("list", 0400, dir, NULL, &kprobe_list_fops);
	debugfs_create_file("missed", 0400, dir, NULL, &kprobe_missed_fops);
	debugfs_create_file("enabled", 0600, dir, NULL, &kprobes_enabled_fops);
	kprobe_blacklist_debugfs_init(dir);
	return 0;
}
