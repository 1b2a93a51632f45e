/*
 * /proc/sys/vm (Linux's fs/proc/proc_sysctl.c over mm's sysctl tables):
 * the vm settings programs read to know the rules mmap plays by.  They
 * show what foliOS does and are read-only here, because foliOS has one
 * fixed policy for each: mmap_min_addr (no hint or brk below it) and
 * overcommit_memory 0 (the heuristic check of mm/mmap.c).
 */
#include "fs/proc/internal.h"
#include "linux/string.h"
#include "mm/mm_api.h"

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

static const struct proc_dir_entry vm_table[] = {
	{ "mmap_min_addr", mmap_min_addr_show },
	{ "overcommit_memory", overcommit_memory_show },
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
	for (size_t i = 0; i < ARRAY_SIZE(vm_table); i++)
		if (!strcmp(path + 12, vm_table[i].name))
			return proc_get_inode(&vm_table[i], 0);
	return NULL;
}
