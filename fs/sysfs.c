/*
 * /sys/kernel/mm/transparent_hugepage/, Linux's THP knobs, as generated
 * files (read at offset 0 makes the text, as /proc does):
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
#include "linux/fs.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "mm/thp_policy.h"
#include "mm/deferred_split.h"
#include "mm/pgtable.h"

#define THP_DIR "sys/kernel/mm/transparent_hugepage/"

static void thp_show(struct file *f, struct seq_file *m)
{
	char buf[64];

	thp_enabled_show(f->proc_arg, buf, sizeof(buf));
	seq_printf(m, "%s", buf);
}

static int thp_store(struct file *f, const char *buf, size_t len)
{
	return thp_enabled_store(f->proc_arg, buf, len);
}

static void hpage_pmd_size_show(struct file *f, struct seq_file *m)
{
	seq_printf(m, "%lu\n", HPAGE_PMD_SIZE);
}

static void split_deferred_show(struct file *f, struct seq_file *m)
{
	seq_printf(m, "%lu\n", deferred_split_count());
}

static int split_deferred_store(struct file *f, const char *buf, size_t len)
{
	if (strcmp(buf, "1") && strcmp(buf, "1\n"))
		return -EINVAL;
	deferred_split_scan(~0UL);
	return 0;
}

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

/* Fill f for a /sys path (without the leading '/'); false if there is none. */
bool sysfs_lookup(const char *path, struct file *f)
{
	const char *name = path + strlen(THP_DIR);
	int order;

	if (strncmp(path, THP_DIR, strlen(THP_DIR)))
		return false;
	order = strcmp(name, "enabled") ? thp_dir_order(name) : -1;    /* -1: the top level */
	if (!strcmp(name, "hpage_pmd_size")) {
		f->proc_show = hpage_pmd_size_show;
	} else if (!strcmp(name, "split_deferred")) {
		f->proc_show = split_deferred_show;
		f->proc_write = split_deferred_store;
	} else if (order >= 0 || !strcmp(name, "enabled")) {
		f->proc_arg = order;
		f->proc_show = thp_show;
		f->proc_write = thp_store;
	} else {
		return false;
	}
	f->type = FILE_PROC;
	f->f.size = PAGE_SIZE;          /* every sysfs attribute has one page (kernfs) */
	return true;
}
