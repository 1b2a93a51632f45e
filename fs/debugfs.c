/*
 * /sys/kernel/debug, Linux's debugfs: the kernel's debugging knobs, there
 * from boot (Linux mounts it there; so do the selftests' scripts).  Each
 * file is a proc_dir_entry as in fs/sysfs.c: a text file by its
 * single_show and write, a binary or ioctl file by its own
 * file_operations.  The files are listed in debugfs_files[] below (up to
 * the NULL name); the
 * subsystem that owns one defines its operations (Linux's
 * debugfs_create_file() at init, a table here since nothing is modular).
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/namei.h"
#include "linux/proc_fs.h"
#include "linux/sched.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/debugfs.h"
#include "linux/huge_mm.h"
#include "linux/mmap_lock.h"
#include <asm/page.h>

#define DEBUGFS_DIR "sys/kernel/debug"
#define MAX_INPUT_BUF_SZ 255            /* the longest split_huge_pages line, as Linux's */

/* Parse "0x<start>,0x<end>[,<order>]", what follows a pid or path: 0 or -EINVAL. */
static int parse_split_range(const char *p, unsigned long *start, unsigned long *end,
			     unsigned long *order)
{
	if (strncmp(p, "0x", 2))
		return -EINVAL;
	*start = simple_strtoul(p + 2, &p, 16);
	if (strncmp(p, ",0x", 3))
		return -EINVAL;
	*end = simple_strtoul(p + 3, &p, 16);
	*order = 0;
	if (*p == ',')
		*order = simple_strtoul(p + 1, &p, 10);
	return *p ? -EINVAL : 0;
}

/*
 * "<path>,0x<first>,0x<end>[,<order>]": the large page-cache folios of
 * the file at path, at page offsets [first, end).  A path that does not
 * resolve is -EINVAL, as Linux's (it does not pass the open's error on).
 */
static long split_huge_pages_file(char *buf)
{
	unsigned long first, end, order;
	char *comma = strchr(buf, ',');
	struct inode *inode;

	if (!comma || parse_split_range(comma + 1, &first, &end, &order))
		return -EINVAL;
	*comma = '\0';
	if (path_lookupat(AT_FDCWD, buf, LOOKUP_FOLLOW, &inode))
		return -EINVAL;
	if (inode->i_mapping)
		split_huge_pages_in_file(inode->i_mapping, first, end, order);
	iput(inode);
	return 0;
}

/*
 * "<pid>,0x<start>,0x<end>[,<order>]": the THPs that process maps in
 * the range; "1" alone: every mapped anon THP.  -ESRCH for no such
 * process, -EINVAL for one without memory.
 */
static long split_huge_pages_pid(const char *buf)
{
	unsigned long start, end, order, flags;
	struct task_struct *t;
	struct mm_struct *mm;
	const char *p;
	int pid;

	pid = simple_strtoul(buf, &p, 10);
	if (pid == 1 && !*p) {
		split_huge_pages_all();
		return 0;
	}
	if (p == buf || *p != ',' || parse_split_range(p + 1, &start, &end, &order))
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);       /* Linux's find_get_task_by_vpid, get_task_mm */
	t = find_task_by_vpid(pid);
	mm = t && t->mm && mmget_not_zero(t->mm) ? t->mm : NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!mm)
		return t ? -EINVAL : -ESRCH;
	/* For write, not Linux's read: the range walk reads PMD leaves without their lock. */
	mmap_write_lock(mm);
	split_huge_pages_in_range(mm, start & PAGE_MASK, end & PAGE_MASK, order);
	mmap_write_unlock(mm);
	mmput(mm);
	return 0;
}

/*
 * A write to split_huge_pages (Linux's split_huge_pages_write): a line in
 * the path form (it starts with '/') or the pid form, orders as folios
 * can have (default 0).  The count written, or -EINVAL for bad text.
 */
static long split_huge_pages_write(struct file *file, const char *ubuf, size_t count,
				   loff_t *pos)
{
	char buf[MAX_INPUT_BUF_SZ + 1];
	long ret;

	if (count > MAX_INPUT_BUF_SZ)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (count && buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	ret = buf[0] == '/' ? split_huge_pages_file(buf) : split_huge_pages_pid(buf);
	return ret ? ret : (long)count;
}

static const struct file_operations split_huge_pages_fops = {
	.write = split_huge_pages_write,
};

static const struct proc_dir_entry debugfs_files[] = {
	{ "split_huge_pages", .proc_fops = &split_huge_pages_fops },
	{ "gup_test", .proc_fops = &gup_test_fops },
	{ NULL },
};

/* The name of file pos of the directory, or NULL past the end. */
static const char *debugfs_nth(loff_t pos)
{
	for (loff_t i = 0; debugfs_files[i].name; i++)
		if (i == pos)
			return debugfs_files[i].name;
	return NULL;
}

/* List /sys/kernel/debug from entry ctx->pos on (d_ino: the position + 2). */
static int debugfs_readdir(struct file *file, struct dir_context *ctx)
{
	for (const char *name; (name = debugfs_nth(ctx->pos)); ctx->pos++)
		if (!dir_emit(ctx, name, strlen(name), ctx->pos + 2, DT_REG))
			break;
	return 0;
}

static const struct file_operations debugfs_dir_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = debugfs_readdir,
};

/*
 * The inode of a path under /sys/kernel/debug (no leading '/'): a
 * reference, NULL if there is no such file, or ERR_PTR(-ENOMEM).
 */
struct inode *debugfs_lookup(const char *path)
{
	size_t len = strlen(DEBUGFS_DIR);

	if (!strcmp(path, DEBUGFS_DIR))
		return proc_dir_inode(path, &debugfs_dir_operations);
	if (strncmp(path, DEBUGFS_DIR "/", len + 1))
		return NULL;
	for (size_t i = 0; debugfs_files[i].name; i++)
		if (!strcmp(path + len + 1, debugfs_files[i].name))
			return proc_get_inode(&debugfs_files[i], 0);
	return NULL;
}
