/*
 * /proc/sys/vm (Linux's fs/proc/proc_sysctl.c over mm's sysctl tables):
 * the vm settings programs read to know the rules mmap plays by.  Most
 * show what foliOS does and are read-only here, because foliOS has one
 * fixed policy for each: mmap_min_addr (no hint or brk below it),
 * overcommit_memory 0 (the heuristic check of mm/mmap.c) and
 * min_free_kbytes (the min watermark, from RAM's size).  swappiness
 * (0..200, how readily reclaim swaps anon memory rather than drop page
 * cache) may be written.  One is a command: drop_caches
 * (fs/drop_caches.c), write-only as Linux's (0200).
 */
#include "fs/proc/internal.h"
#include "linux/err.h"
#include "linux/errno.h"
#include "linux/string.h"
#include "linux/mm.h"
#include "linux/swap.h"

static int mmap_min_addr_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", MMAP_MIN_ADDR);
	return 0;
}

static int overcommit_memory_show(struct seq_file *m, void *v)
{
	seq_printf(m, "0\n");
	return 0;
}

static int min_free_kbytes_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", min_free_kbytes);
	return 0;
}

static int swappiness_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", READ_ONCE(vm_swappiness));
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * Parse the one integer of a write to an int knob as Linux's
 * proc_dointvec_minmax: blanks before it, decimal or 0x hex (at most 10
 * characters: no wrap-around), a blank or the end after it, within
 * [min, max].  0 or -EINVAL.
 */
static int proc_dointvec_minmax(const char *buf, int *val, int min, int max)
{
	bool neg;
	const char *end;
	unsigned long v;

	while (is_blank(*buf))
		buf++;
	neg = *buf == '-';
	buf += neg;
	if (*buf < '0' || *buf > '9')
		return -EINVAL;
	v = simple_strtoul(buf, &end, 0);
	if ((*end && !is_blank(*end)) || end - buf > 10 || v > __INT_MAX__)
		return -EINVAL;
	*val = neg ? -(int)v : (int)v;
	return *val < min || *val > max ? -EINVAL : 0;
}

/* A write to drop_caches: 1 to 4 (Linux's range); an empty write does nothing. */
static int drop_caches_write(struct file *file, char *buf, size_t len)
{
	int val, err;

	if (!len)
		return 0;
	err = proc_dointvec_minmax(buf, &val, 1, 4);
	if (!err)
		drop_caches(val);
	return err;
}

/* A write to swappiness: 0 .. 200, Linux's range (mm/vmscan_lru.c reads it). */
static int swappiness_write(struct file *file, char *buf, size_t len)
{
	int val, err = proc_dointvec_minmax(buf, &val, 0, 200);

	if (!err)
		WRITE_ONCE(vm_swappiness, val);
	return err;
}

/* Root may not read a 0200 sysctl either (Linux's test_perm): only write opens. */
static int proc_sys_write_only_open(struct inode *inode, struct file *file)
{
	return file->f_mode & FMODE_READ ? -EACCES : 0;
}

static const struct file_operations proc_sys_write_only_fops = {
	.open = proc_sys_write_only_open,
	.write = proc_simple_write,
};

static const struct proc_dir_entry vm_table[] = {
	{ "drop_caches", .write = drop_caches_write, .proc_fops = &proc_sys_write_only_fops },
	{ "min_free_kbytes", min_free_kbytes_show },
	{ "mmap_min_addr", mmap_min_addr_show },
	{ "overcommit_memory", overcommit_memory_show },
	{ "swappiness", swappiness_show, .write = swappiness_write },
};

/* List a /proc/sys directory: /proc/sys has "vm", /proc/sys/vm the table. */
static int proc_sys_readdir(struct file *file, struct dir_context *ctx)
{
	bool top = !strcmp(file_inode(file)->i_private, "proc/sys");
	size_t n = top ? 1 : ARRAY_SIZE(vm_table);

	for (; (size_t)ctx->pos < n; ctx->pos++) {
		const char *name = top ? "vm" : vm_table[ctx->pos].name;

		if (!dir_emit(ctx, name, strlen(name), ctx->pos + 2, top ? DT_DIR : DT_REG))
			break;
	}
	return 0;
}

static const struct file_operations proc_sys_dir_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = proc_sys_readdir,
};

/* The inode of a path under /proc/sys (no leading '/'): a reference, NULL or ERR_PTR(-ENOMEM). */
struct inode *proc_sys_lookup(const char *path)
{
	if (!strcmp(path, "proc/sys") || !strcmp(path, "proc/sys/vm"))
		return proc_dir_inode(path, &proc_sys_dir_operations);
	if (strncmp(path, "proc/sys/vm/", 12))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(vm_table); i++) {
		struct inode *inode;

		if (strcmp(path + 12, vm_table[i].name))
			continue;
		inode = proc_get_inode(&vm_table[i], 0);
		if (!IS_ERR(inode) && !vm_table[i].single_show)
			inode->i_mode = S_IFREG | 0200;
		return inode;
	}
	return NULL;
}
