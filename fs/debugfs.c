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
#include "linux/proc_fs.h"
#include "linux/string.h"
#include "linux/debugfs.h"

#define DEBUGFS_DIR "sys/kernel/debug"

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
