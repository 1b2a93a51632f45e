/*
 * /sys/kernel/mm/transparent_hugepage/, Linux's THP knobs, as generated
 * files (read at offset 0 makes the text, as /proc does; foliOS's sysfs
 * rides on /proc's seq_file inodes where Linux has kernfs):
 *
 *   enabled                      always | madvise | never
 *   hugepages-<size>kB/enabled   always | inherit | madvise | never
 *                                (16kB … 2048kB: orders 2 … 9)
 *   hpage_pmd_size               the PMD THP size in bytes (read-only)
 *   split_deferred               foliOS's own: reads the number of folios
 *                                on the deferred split queue; writing 1
 *                                splits them all now (the leak check uses it)
 *
 * The policy itself lives in mm/thp_policy.c.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/proc_fs.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "mm/thp_policy.h"
#include "mm/deferred_split.h"
#include "mm/pgtable.h"

#define THP_DIR "sys/kernel/mm/transparent_hugepage/"

static int thp_show(struct seq_file *m, void *v)
{
	char buf[64];

	thp_enabled_show(PROC_I(m->private)->arg, buf, sizeof(buf));
	seq_printf(m, "%s", buf);
	return 0;
}

static int thp_store(struct file *file, char *buf, size_t len)
{
	return thp_enabled_store(PROC_I(file_inode(file))->arg, buf, len);
}

static int hpage_pmd_size_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", HPAGE_PMD_SIZE);
	return 0;
}

static int split_deferred_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", deferred_split_count());
	return 0;
}

static int split_deferred_store(struct file *file, char *buf, size_t len)
{
	if (strcmp(buf, "1") && strcmp(buf, "1\n"))
		return -EINVAL;
	deferred_split_scan(~0UL);
	return 0;
}

/* Every attribute has one page (kernfs) on a file system of MAX_NON_LFS bytes at most. */
static loff_t sysfs_llseek(struct file *file, loff_t offset, int whence)
{
	return generic_file_llseek_size(file, offset, whence, MAX_NON_LFS,
					file_inode(file)->i_size);
}

static const struct file_operations sysfs_file_fops = {
	.open = proc_single_open,
	.read = seq_read,
	.llseek = sysfs_llseek,
	.release = single_release,
};

static const struct file_operations sysfs_file_rw_fops = {
	.open = proc_single_open,
	.read = seq_read,
	.write = proc_simple_write,
	.llseek = sysfs_llseek,
	.release = single_release,
};

static const struct proc_dir_entry thp_attrs[] = {
	{ "enabled", thp_show, thp_store, &sysfs_file_rw_fops },
	{ "hpage_pmd_size", hpage_pmd_size_show, NULL, &sysfs_file_fops },
	{ "split_deferred", split_deferred_show, split_deferred_store, &sysfs_file_rw_fops },
};

/* "hugepages-<kB>kB/enabled" -> its order, or -1. */
static int thp_dir_order(const char *name)
{
	const char *end;
	unsigned long kb;

	if (strncmp(name, "hugepages-", 10))
		return -1;
	kb = simple_strtoul(name + 10, &end, 10);
	if (strcmp(end, "kB/enabled"))
		return -1;
	return thp_anon_order(kb * 1024);
}

/*
 * The inode of a /sys path (without the leading '/'): a reference, NULL
 * if there is no such file, or ERR_PTR(-ENOMEM).  "enabled" and the
 * per-size "enabled" files share an entry; arg is the order (-1: the top).
 */
struct inode *sysfs_lookup(const char *path)
{
	const char *name = path + strlen(THP_DIR);
	const struct proc_dir_entry *attr = NULL;
	struct inode *inode;
	int order = -1;

	if (strncmp(path, THP_DIR, strlen(THP_DIR)))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(thp_attrs); i++)
		if (!strcmp(name, thp_attrs[i].name))
			attr = &thp_attrs[i];
	if (!attr) {
		order = thp_dir_order(name);
		attr = order >= 0 ? &thp_attrs[0] : NULL;
	}
	if (!attr)
		return NULL;
	inode = proc_get_inode(attr, order);
	if (!IS_ERR(inode))
		inode->i_size = PAGE_SIZE;
	return inode;
}
