/*
 * A process's links in /proc (Linux's fs/proc/fd.c, and base.c's
 * proc_exe_link, proc_cwd_link, proc_root_link): /proc/<pid>/exe, cwd,
 * root, and the directory fd/ with a link per open fd, whose text says
 * what the fd has open:
 *
 *   /tmp/x, /tmp/x (deleted)      a file, by its name (fs/d_path.c)
 *   /memfd:NAME (deleted)         a memfd
 *   /dev/console                  the console, PID 1's fds 0-2
 *   pipe:[INO]                    a pipe
 *   anon_inode:[pidfd]            a pidfd
 *
 * fdinfo/ has a file per open fd (Linux's proc_fdinfo_operations): its
 * position, flags (O_CLOEXEC included, in octal), mount and inode
 * numbers, and for a pidfd its process's pid.
 *
 * A link is read anew each time: the text is the process's state at the
 * readlink (or the walk through it), ENOENT once it is gone.  fd/N and
 * exe are "magic" too (jump_link): a walk that ends on one takes the open
 * file's own inode, so open() of /proc/self/fd/0 reopens a pipe, or a
 * file that was deleted, as on Linux.
 *
 * Locking: the task is found, and what it has taken (its fd table under
 * an RCU read section, which the table's free waits for — a reference
 * would make an exec copy the table; its fs_struct and mm by a reference
 * each), in one hold of tasklist_lock, which exit and exec hold to drop
 * or replace them; each is read once the lock is dropped (file_lock and
 * fs->lock are taken with interrupts on, tasklist_lock by interrupts:
 * never the one under the other), the program's file under the mm's
 * mmap_lock.  Lock order: see mm/rmap.c.
 */
#include "fs/proc/internal.h"
#include "linux/err.h"
#include "linux/namei.h"
#include "linux/pid.h"
#include "linux/sched.h"
#include "linux/string.h"
#include "linux/mm.h"
#include "linux/sched/mm.h"
#include "linux/mmap_lock.h"

/* The fd number at the end of a "fd/N" or "fdinfo/N" rest of a path, or -1. */
static int path_fd(const char *rest)
{
	size_t n = !strncmp(rest, "fd/", 3) ? 3 : !strncmp(rest, "fdinfo/", 7) ? 7 : 0;
	int fd = 0;

	if (!n || !rest[n])
		return -1;
	for (rest += n; *rest; rest++) {
		if (*rest < '0' || *rest > '9' || fd > NR_OPEN)
			return -1;
		fd = fd * 10 + (*rest - '0');
	}
	return fd;
}

/*
 * The fd table of the task path ("proc/<pid>/REST") names, for the
 * caller's RCU read section, and *rest; NULL if there is none.
 */
static struct files_struct *proc_task_files_rcu(const char *path, const char **rest)
{
	struct files_struct *files = NULL;
	struct task_struct *t;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = proc_pid_task(path, rest);
	if (t)
		files = t->files;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return files;
}

/*
 * The open file fd/N or fdinfo/N (in path's rest) of the task path names,
 * referenced, and whether that fd is close-on-exec; NULL if none.
 */
static struct file *proc_fd_file_cloexec(const char *path, bool *cloexec)
{
	struct files_struct *files;
	struct file *f = NULL;
	const char *rest;
	int fd;

	rcu_read_lock();
	files = proc_task_files_rcu(path, &rest);
	fd = files ? path_fd(rest) : -1;
	if (fd >= 0) {
		f = fget_files(files, fd);
		*cloexec = READ_ONCE(files->cloexec[fd / 64]) & BIT(fd % 64);
	}
	rcu_read_unlock();
	return f;
}

static struct file *proc_fd_file(const char *path)
{
	bool cloexec;

	return proc_fd_file_cloexec(path, &cloexec);
}

/*
 * fdinfo/N (Linux's seq_show): "pos:", "flags:" (octal, O_CLOEXEC if the
 * fd has it), "mnt_id:" (the file system's device number here), "ino:",
 * and a pidfd's "Pid:" and "NSpid:".
 */
static int fdinfo_show(struct seq_file *m, void *v)
{
	bool cloexec = false;
	struct file *f = proc_fd_file_cloexec(PROC_I(m->private)->path, &cloexec);

	if (!f)
		return -ENOENT;
	seq_printf(m, "pos:\t%lld\nflags:\t0%o\nmnt_id:\t%lu\nino:\t%lu\n", (long long)f->f_pos,
		   f->f_flags | (cloexec ? O_CLOEXEC : 0), inode_dev(file_inode(f)),
		   file_inode(f)->i_ino);
	if (pidfd_pid(f) >= 0)
		seq_printf(m, "Pid:\t%d\nNSpid:\t%d\n", pidfd_pid(f), pidfd_pid(f));
	fput(f);
	return 0;
}

static const struct proc_dir_entry proc_fdinfo_entry = { "fdinfo", fdinfo_show };

/* What an fd link says of file f, into buf (PATH_MAX). */
static const char *file_link_text(struct file *f, char *buf)
{
	struct inode *inode = file_inode(f);
	char *name = file_path(f, buf, PATH_MAX);

	if (IS_ERR(name) || *name)
		return name;
	if (S_ISFIFO(inode->i_mode))
		snprintf(buf, PATH_MAX, "pipe:[%lu]", inode->i_ino);
	else
		snprintf(buf, PATH_MAX, "anon_inode:[%s]", pidfd_pid(f) >= 0 ? "pidfd" : "file");
	return buf;
}

static const char *proc_fd_get_link(struct inode *inode, char *buf)
{
	struct file *f = proc_fd_file(PROC_I(inode)->path);
	const char *text;

	if (!f)
		return ERR_PTR(-ENOENT);
	text = file_link_text(f, buf);
	fput(f);
	return text;
}

/* The fs_struct of the task path names, with a reference (put_fs_struct); NULL if none. */
static struct fs_struct *proc_task_fs(const char *path)
{
	struct fs_struct *fs = NULL;
	struct task_struct *t;
	unsigned long flags;
	const char *rest;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = proc_pid_task(path, &rest);
	if (t && (fs = t->fs))
		__atomic_add_fetch(&fs->users, 1, __ATOMIC_RELAXED);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return fs;
}

/* /proc/<pid>/cwd: its working directory's path ("/" for the root). */
static const char *proc_cwd_get_link(struct inode *inode, char *buf)
{
	struct fs_struct *fs = proc_task_fs(PROC_I(inode)->path);
	struct inode *pwd;

	if (!fs)
		return ERR_PTR(-ENOENT);
	pwd = get_fs_pwd(fs);
	put_fs_struct(fs);
	buf[0] = '/';
	buf[1] = '\0';
	if (pwd) {
		dir_path(pwd, buf + 1, PATH_MAX - 1);
		iput(pwd);
	}
	return buf;
}

/* /proc/<pid>/root: its root directory ("/", or where it chroot'ed). */
static const char *proc_root_get_link(struct inode *inode, char *buf)
{
	struct fs_struct *fs = proc_task_fs(PROC_I(inode)->path);

	if (!fs)
		return ERR_PTR(-ENOENT);
	buf[0] = '/';
	get_fs_root_path(fs, buf + 1, PATH_MAX - 1);
	put_fs_struct(fs);
	return buf;
}

/* The file of the program the mm of the task path names runs, referenced; NULL for a zombie. */
static struct file *proc_exe_file(const char *path)
{
	struct mm_struct *mm = NULL;
	struct task_struct *t;
	struct file *exe = NULL;
	unsigned long flags;
	const char *rest;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = proc_pid_task(path, &rest);
	if (t && (mm = t->mm))
		mmgrab(mm);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (mm) {
		mmap_read_lock(mm);
		if (mm->exe_file)
			exe = get_file(mm->exe_file);
		mmap_read_unlock(mm);
		mmdrop(mm);
	}
	return exe;
}

/* /proc/<pid>/exe: the file of the program its mm runs (ENOENT for a zombie). */
static const char *proc_exe_get_link(struct inode *inode, char *buf)
{
	struct file *exe = proc_exe_file(PROC_I(inode)->path);
	const char *text;

	if (!exe)
		return ERR_PTR(-ENOENT);
	text = file_link_text(exe, buf);
	fput(exe);
	return text;
}

/* The inode of open file f, referenced, and its name (no " (deleted)") into name. */
static struct inode *file_jump(struct file *f, char *name)
{
	struct inode *inode = file_inode(f);

	strlcpy(name, f->f_pathname ? f->f_pathname : "", PATH_MAX);
	ihold(inode);
	fput(f);
	return inode;
}

static struct inode *proc_fd_jump_link(struct inode *inode, char *name)
{
	struct file *f = proc_fd_file(PROC_I(inode)->path);

	return f ? file_jump(f, name) : ERR_PTR(-ENOENT);
}

static struct inode *proc_exe_jump_link(struct inode *inode, char *name)
{
	struct file *exe = proc_exe_file(PROC_I(inode)->path);

	return exe ? file_jump(exe, name) : ERR_PTR(-ENOENT);
}

static const struct inode_operations proc_fd_link_operations = {
	.get_link = proc_fd_get_link, .jump_link = proc_fd_jump_link,
};
static const struct inode_operations proc_cwd_link_operations = { .get_link = proc_cwd_get_link };
static const struct inode_operations proc_root_link_operations = { .get_link = proc_root_get_link };
static const struct inode_operations proc_exe_link_operations = {
	.get_link = proc_exe_get_link, .jump_link = proc_exe_jump_link,
};

/* fd/ and fdinfo/ list the open fds, from fd ctx->pos on, as type (d_ino: the fd + 2). */
static int proc_fds_readdir(struct file *file, struct dir_context *ctx, unsigned int type)
{
	const char *path = file_inode(file)->i_private, *rest;
	struct files_struct *files;
	char name[16], buf[80];
	int fd;

	snprintf(buf, sizeof(buf), "%s/", path);
	for (;; ctx->pos = fd + 1) {
		rcu_read_lock();
		files = proc_task_files_rcu(buf, &rest);
		fd = files ? files_next_fd(files, ctx->pos) : -1;
		rcu_read_unlock();
		if (fd < 0)
			break;
		snprintf(name, sizeof(name), "%d", fd);
		if (!dir_emit(ctx, name, strlen(name), fd + 2, type))        /* may fault: no RCU */
			break;
	}
	return 0;
}

static int proc_fd_readdir(struct file *file, struct dir_context *ctx)
{
	return proc_fds_readdir(file, ctx, DT_LNK);
}

static int proc_fdinfo_readdir(struct file *file, struct dir_context *ctx)
{
	return proc_fds_readdir(file, ctx, DT_REG);
}

static const struct file_operations proc_fd_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = proc_fd_readdir,
};

static const struct file_operations proc_fdinfo_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = proc_fdinfo_readdir,
};

/* fdinfo/N's inode, for the fd open at path: a reference, or ERR_PTR(-ENOMEM). */
static struct inode *proc_fdinfo_inode(const char *path)
{
	struct inode *inode = proc_get_inode(&proc_fdinfo_entry, 0);

	if (!IS_ERR(inode))
		strlcpy(PROC_I(inode)->path, path, sizeof(PROC_I(inode)->path));
	return inode;
}

/*
 * The inode of path if it is one of a process's links, its fd/ or
 * fdinfo/ directory or a file there: a reference, NULL if path is none
 * of them (or names an fd not open), or ERR_PTR(-ENOMEM).
 */
struct inode *proc_pid_link_lookup(const char *path)
{
	static const struct { const char *name; const struct inode_operations *ops; } links[] = {
		{ "exe", &proc_exe_link_operations }, { "cwd", &proc_cwd_link_operations },
		{ "root", &proc_root_link_operations },
	};
	struct task_struct *t;
	unsigned long flags;
	const char *rest;
	struct file *f;
	char buf[80];
	bool dir, info_dir;

	snprintf(buf, sizeof(buf), "%s/", path);
	spin_lock_irqsave(&tasklist_lock, flags);
	t = proc_pid_task(buf, &rest);
	dir = t && !strcmp(rest, "fd/");
	info_dir = t && !strcmp(rest, "fdinfo/");
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (dir)
		return proc_dir_inode(path, &proc_fd_operations);
	if (info_dir)
		return proc_dir_inode(path, &proc_fdinfo_operations);
	if (!t)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		size_t n = strlen(links[i].name);

		if (!strncmp(rest, links[i].name, n) && !strcmp(rest + n, "/"))
			return proc_link_inode(path, links[i].ops);
	}
	if (path_fd(path + (rest - buf)) < 0 || !(f = proc_fd_file(path)))
		return NULL;
	fput(f);                                /* open now: the link or fdinfo file exists */
	if (!strncmp(rest, "fdinfo/", 7))
		return proc_fdinfo_inode(path);
	return proc_link_inode(path, &proc_fd_link_operations);
}
