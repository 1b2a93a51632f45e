/*
 * /sys (Linux's sysfs): the directories down to the THP knobs, a small
 * fixed tree, and the files of mm's attribute tables in it
 * (mm/huge_memory_sysfs.c formats and parses them):
 *
 *   /sys/kernel/                 debug (fs/debugfs.c), mm
 *   /sys/kernel/mm/              transparent_hugepage
 *   .../transparent_hugepage/    hugepage_attr, khugepaged/, hugepages-<N>kB/
 *   .../khugepaged/              khugepaged_attr
 *   .../hugepages-<N>kB/         thpsize_attr, stats/   (16kB … 2048kB)
 *   .../hugepages-<N>kB/stats/   thpsize_stats_attr
 *   /sys/devices/system/cpu/     online, possible, present (cpu_attr)
 *   /sys/block/                  one directory per disk (block/genhd.c), only
 *   /sys/block/<disk>/           when there is one: size, dev (disk_attr)
 *
 * A file reads as generated text at offset 0 (foliOS's sysfs rides on
 * /proc's seq_file inodes where Linux has kernfs); its inode's arg says
 * which directory, attribute and size.  /sys itself is the initrd's.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/proc_fs.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/cpumask.h"
#include "linux/huge_mm.h"
#include "linux/blkdev.h"

#define THP_DIR "sys/kernel/mm/transparent_hugepage"
#define SIZE_DIR "hugepages-*"                  /* hugepages-<N>kB, any size */
#define DISK_DIR "block/*"                      /* sys/block/<disk>, any disk */

/* /sys/devices/system/cpu/'s CPU lists, "0-3" (Linux's drivers/base/cpu.c). */
static int cpu_mask_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	static const struct cpumask *const masks[] = {
		cpu_online_mask, cpu_possible_mask, cpu_present_mask,
	};

	return cpumap_print_list(buf, size, masks[attr->item]);
}

static const struct thp_attr cpu_attr[] = {
	{ .name = "online", .show = cpu_mask_show, .item = 0 },
	{ .name = "possible", .show = cpu_mask_show, .item = 1 },
	{ .name = "present", .show = cpu_mask_show, .item = 2 },
	{ 0 },
};

struct sysfs_dir {
	const char *path;                       /* SIZE_DIR for the size */
	const struct thp_attr *attrs;           /* its files, or NULL */
	const char *subdirs[2];                 /* its fixed subdirectories */
	bool size_dirs;                         /* lists hugepages-<N>kB too */
	bool disk_dirs;                         /* lists the disks (exists only with one) */
};

static const struct sysfs_dir sysfs_dirs[] = {
	{ "sys/kernel", NULL, { "debug", "mm" } },
	{ "sys/kernel/mm", NULL, { "transparent_hugepage" } },
	{ THP_DIR, hugepage_attr, { "khugepaged" }, true },
	{ THP_DIR "/khugepaged", khugepaged_attr },
	{ THP_DIR "/" SIZE_DIR, thpsize_attr, { "stats" } },
	{ THP_DIR "/" SIZE_DIR "/stats", thpsize_stats_attr },
	{ "sys/devices", NULL, { "system" } },
	{ "sys/devices/system", NULL, { "cpu" } },
	{ "sys/devices/system/cpu", cpu_attr },
	{ "sys/block", NULL, { NULL }, false, true },
	{ "sys/" DISK_DIR, disk_attr },
};

/* A file's inode arg: its directory, attribute and order (-1: none; in DISK_DIR the disk's index). */
#define SYSFS_ARG(dir, attr, order)     (((long)(dir) << 16) | ((attr) << 8) | ((order) + 1))
#define SYSFS_DIR(arg)                  (&sysfs_dirs[(arg) >> 16])
#define SYSFS_ATTR(arg)                 (&SYSFS_DIR(arg)->attrs[((arg) >> 8) & 0xff])
#define SYSFS_ORDER(arg)                ((int)((arg) & 0xff) - 1)

static int sysfs_show(struct seq_file *m, void *v)
{
	long arg = PROC_I(m->private)->arg;
	const struct thp_attr *attr = SYSFS_ATTR(arg);
	char buf[128];

	attr->show(attr, SYSFS_ORDER(arg), buf, sizeof(buf));
	seq_printf(m, "%s", buf);
	return 0;
}

static int sysfs_store(struct file *file, char *buf, size_t len)
{
	long arg = PROC_I(file_inode(file))->arg;
	const struct thp_attr *attr = SYSFS_ATTR(arg);

	return attr->store(attr, SYSFS_ORDER(arg), buf, len);
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

static const struct proc_dir_entry sysfs_ro = { "", sysfs_show, NULL, &sysfs_file_fops };
static const struct proc_dir_entry sysfs_rw = { "", sysfs_show, sysfs_store, &sysfs_file_rw_fops };

/*
 * Does a directory of this size (order, -1: not a size directory) have
 * the file?  As in Linux, hugepages-4096kB has no shmem_enabled: shmem
 * has no such size.
 */
static bool sysfs_attr_exists(const struct thp_attr *attr, int order)
{
	return order < 0 || !attr->orders || (attr->orders & BIT(order));
}

/* Entry pos of a directory of this size: its name and DT_ type; false past the end. */
static bool sysfs_entry(const struct sysfs_dir *dir, int order, loff_t pos, char *name,
			size_t size, unsigned int *type)
{
	const char *found = NULL;

	*type = DT_REG;
	for (const struct thp_attr *a = dir->attrs; !found && a && a->name; a++) {
		if (!sysfs_attr_exists(a, order))
			continue;
		found = pos ? NULL : a->name;
		pos--;
	}
	if (!found)
		*type = DT_DIR;
	for (int i = 0; !found && i < 2 && dir->subdirs[i]; i++, pos--)
		found = pos ? NULL : dir->subdirs[i];
	if (found) {
		strlcpy(name, found, size);
		return true;
	}
	for (int order = 0; dir->size_dirs && order <= THP_MAX_ANON_ORDER; order++) {
		if (!(THP_ORDERS_ALL_ANON & BIT(order)) || pos--)
			continue;
		snprintf(name, size, "hugepages-%lukB", (PAGE_SIZE << order) / 1024);
		return true;
	}
	if (dir->disk_dirs && disk_nth(pos)) {
		strlcpy(name, disk_nth(pos)->disk_name, size);
		return true;
	}
	return false;
}

/* List a directory from entry ctx->pos on (d_ino: the position + 2). */
static int sysfs_readdir(struct file *file, struct dir_context *ctx)
{
	long arg = PROC_I(file_inode(file))->arg;
	const struct sysfs_dir *dir = SYSFS_DIR(arg);
	unsigned int type;
	char name[32];

	for (; sysfs_entry(dir, SYSFS_ORDER(arg), ctx->pos, name, sizeof(name), &type); ctx->pos++)
		if (!dir_emit(ctx, name, strlen(name), ctx->pos + 2, type))
			break;
	return 0;
}

static const struct file_operations sysfs_dir_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = sysfs_readdir,
};

/*
 * Copy path to tmpl with its "block/<disk>" component, if any, turned
 * into DISK_DIR; *order gets the disk's index.  False if there is no
 * such disk, or no disk at all for sys/block itself.
 */
static bool sysfs_disk_template(const char *path, char *tmpl, size_t size, int *order)
{
	const char *name = path + strlen("sys/block/");
	size_t len = strcspn(name, "/");

	if (!strcmp(path, "sys/block")) {
		strlcpy(tmpl, path, size);
		return disk_nth(0) != NULL;
	}
	*order = disk_index(name, len);
	if (*order < 0)
		return false;
	snprintf(tmpl, size, "sys/" DISK_DIR "%s", name + len);
	return true;
}

/*
 * Copy path to tmpl with its "hugepages-<N>kB" component, if any, turned
 * into SIZE_DIR, or its disk into DISK_DIR; *order gets N's order or the
 * disk's index (-1 if none).  False if N is no size foliOS has or there
 * is no such disk.
 */
static bool sysfs_template(const char *path, char *tmpl, size_t size, int *order)
{
	const char *dir = THP_DIR "/hugepages-", *end;
	unsigned long kb;

	*order = -1;
	if (!strncmp(path, "sys/block", 9) && (!path[9] || path[9] == '/'))
		return sysfs_disk_template(path, tmpl, size, order);
	if (strncmp(path, dir, strlen(dir))) {
		strlcpy(tmpl, path, size);
		return true;
	}
	kb = simple_strtoul(path + strlen(dir), &end, 10);
	*order = thp_anon_order(kb * 1024);
	if (*order < 0 || strncmp(end, "kB", 2) || (end[2] && end[2] != '/'))
		return false;
	snprintf(tmpl, size, THP_DIR "/" SIZE_DIR "%s", end + 2);
	return true;
}

/* The inode of file name in directory d (for the given order), or NULL. */
static struct inode *sysfs_file(int d, const char *name, int order)
{
	const struct thp_attr *attrs = sysfs_dirs[d].attrs;
	struct inode *inode;

	for (int i = 0; attrs && attrs[i].name; i++) {
		if (strcmp(name, attrs[i].name) || !sysfs_attr_exists(&attrs[i], order))
			continue;
		inode = proc_get_inode(attrs[i].store ? &sysfs_rw : &sysfs_ro,
				       SYSFS_ARG(d, i, order));
		if (!IS_ERR(inode))
			inode->i_size = PAGE_SIZE;
		return inode;
	}
	return NULL;
}

/*
 * The inode of a /sys path (without the leading '/'): a reference, NULL
 * if there is no such file, or ERR_PTR(-ENOMEM).
 */
struct inode *sysfs_lookup(const char *path)
{
	char tmpl[96];
	int order;

	if (!sysfs_template(path, tmpl, sizeof(tmpl), &order))
		return NULL;
	for (size_t d = 0; d < ARRAY_SIZE(sysfs_dirs); d++) {
		size_t len = strlen(sysfs_dirs[d].path);
		struct inode *inode;

		if (strncmp(tmpl, sysfs_dirs[d].path, len))
			continue;
		if (!tmpl[len]) {
			inode = proc_dir_inode(path, &sysfs_dir_operations);
			if (!IS_ERR(inode))
				PROC_I(inode)->arg = SYSFS_ARG(d, 0, order);
			return inode;
		}
		if (tmpl[len] == '/' && (inode = sysfs_file(d, tmpl + len + 1, order)))
			return inode;
	}
	return NULL;
}
