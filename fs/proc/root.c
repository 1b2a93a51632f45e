/*
 * The /proc directory (Linux's fs/proc/root.c and generic.c): its files,
 * the links "self" and "thread-self" (Linux's fs/proc/self.c and
 * thread_self.c), "folio", "sys", then one directory per live process;
 * and the lookup of every path under it.
 *
 * Locking: the task list is walked and a task used under tasklist_lock
 * (fs/proc/base.c); a process's memory views hold its mm as
 * fs/proc/task_walk.c says; the page views read a folio under a reference
 * (fs/proc/page.c).
 */
#include "fs/proc/internal.h"
#include "linux/err.h"
#include "linux/namei.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"

static const struct proc_dir_entry *const proc_root_entries[] = {
	&proc_cmdline, &proc_cpuinfo, &proc_meminfo, &proc_vmstat, &proc_zoneinfo, &proc_swaps, &proc_buddyinfo, &proc_kpagecount, &proc_kpageflags,
	&proc_mapcount_trace, &proc_mapcount_report, &proc_pgtable_floor, &proc_interrupts, &proc_lockdep,
	&proc_lockdep_stats, &proc_lock_stat, &proc_version, &proc_uptime, &proc_loadavg, &proc_stat,
	&proc_mounts, &proc_partitions,
};

/* Entry pos of /proc: its name and DT_ type; false past the end. */
static bool proc_root_entry(unsigned long pos, char *name, size_t size, unsigned int *type)
{
	static const char *const dirs[] = { "self", "thread-self", "folio", "sys" };
	unsigned long flags;
	int pid;

	*type = DT_REG;
	if (pos < ARRAY_SIZE(proc_root_entries)) {
		strlcpy(name, proc_root_entries[pos]->name, size);
		return true;
	}
	pos -= ARRAY_SIZE(proc_root_entries);
	*type = pos < 2 ? DT_LNK : DT_DIR;
	if (pos < ARRAY_SIZE(dirs)) {
		strlcpy(name, dirs[pos], size);
		return true;
	}
	spin_lock_irqsave(&tasklist_lock, flags);       /* the walk of the task list */
	pid = task_nth_pid(pos - ARRAY_SIZE(dirs));
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (pid <= 0)
		return false;
	snprintf(name, size, "%d", pid);
	return true;
}

/* List /proc from entry ctx->pos on (d_ino: the position + 2). */
static int proc_root_readdir(struct file *file, struct dir_context *ctx)
{
	char name[32];
	unsigned int type;

	for (; proc_root_entry(ctx->pos, name, sizeof(name), &type); ctx->pos++)
		if (!dir_emit(ctx, name, strlen(name), ctx->pos + 2, type))
			break;
	return 0;
}

/* The directories below /proc list nothing yet (Linux lists a process's files). */
static int proc_empty_readdir(struct file *file, struct dir_context *ctx)
{
	return 0;
}

/* Directories seek as Linux's dcache_dir_lseek: SEEK_SET and SEEK_CUR only. */
static const struct file_operations proc_root_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = proc_root_readdir,
};

const struct file_operations proc_dir_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = proc_empty_readdir,
};

/* /proc/self: the caller's process directory, "<tgid>". */
static const char *proc_self_get_link(struct inode *inode, char *buf)
{
	snprintf(buf, PATH_MAX, "%d", current->tgid);
	return buf;
}

/* /proc/thread-self: the caller's thread directory, "<tgid>/task/<tid>". */
static const char *proc_thread_self_get_link(struct inode *inode, char *buf)
{
	snprintf(buf, PATH_MAX, "%d/task/%d", current->tgid, current->pid);
	return buf;
}

static const struct inode_operations proc_self_inode_operations = {
	.get_link = proc_self_get_link,
};

static const struct inode_operations proc_thread_self_inode_operations = {
	.get_link = proc_thread_self_get_link,
};

/*
 * The inode of a path under /proc (without the leading '/'): a reference,
 * NULL if there is no such file, or ERR_PTR(-ENOMEM).
 */
struct inode *proc_lookup(const char *path)
{
	struct inode *inode;

	if (!strcmp(path, "proc"))
		return proc_dir_inode(path, &proc_root_operations);
	if (strncmp(path, "proc/", 5))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(proc_root_entries); i++)
		if (!strcmp(path + 5, proc_root_entries[i]->name))
			return proc_get_inode(proc_root_entries[i], 0);
	if (!strcmp(path, "proc/folio"))
		return proc_dir_inode(path, &proc_dir_operations);
	if (!strcmp(path, "proc/self"))
		return proc_link_inode(path, &proc_self_inode_operations);
	if (!strcmp(path, "proc/thread-self"))
		return proc_link_inode(path, &proc_thread_self_inode_operations);
	inode = proc_sys_lookup(path);
	if (!inode)
		inode = proc_pid_link_lookup(path);
	if (!inode)
		inode = proc_pid_lookup(path);
	return inode ? inode : proc_folio_lookup(path);
}
