/*
 * Open files and the per-task file table (Linux's fs/file.c and
 * fs/file_table.c); see include/linux/fs.h.
 */
#include "linux/sched/signal.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/tty.h"
#include "linux/sched.h"
#include "linux/string.h"
#include "linux/mm.h"
#include "linux/syscalls.h"
#include "uapi/linux/fcntl.h"

/* fds 0-2 of PID 1; never freed (its count only grows past zero). */
struct file console_file = {
	.f_count = ATOMIC_INIT(1), .f_mode = FMODE_READ | FMODE_WRITE, .f_flags = O_RDWR,
	.f_inode = &console_inode, .f_op = &console_fops, .f_pathname = (char *)"/dev/console",
};

/*
 * A new open file of inode, taking over the caller's inode reference:
 * its f_op is the inode's, f_mode follows flags' access mode (O_RDONLY
 * reads, O_WRONLY writes, O_RDWR and 3 both) and the file can seek until
 * its open says it is a stream.  NULL if out of memory.
 */
struct file *alloc_file(struct inode *inode, unsigned int flags)
{
	struct file *f = kzalloc(sizeof(*f));
	unsigned int acc = flags & O_ACCMODE;

	if (!f)
		return NULL;
	atomic_set(&f->f_count, 1);
	mutex_init(&f->f_pos_lock, "file->f_pos_lock");
	f->f_flags = flags & (O_ACCMODE | O_APPEND | O_NONBLOCK | O_LARGEFILE);
	f->f_mode = FMODE_LSEEK | FMODE_PREAD | (acc != O_WRONLY ? FMODE_READ : 0) |
		    (acc != O_RDONLY ? FMODE_WRITE : 0);
	if (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode))
		f->f_mode |= FMODE_ATOMIC_POS;
	f->f_inode = inode;
	f->f_mapping = inode->i_mapping;
	f->f_op = inode->i_fop;
	if (inode->i_sb)
		atomic_inc(&inode->i_sb->s_nr_files);
	return f;
}

/* Drop a reference to f; the last one releases it (f_op->release), then its inode. */
void fput(struct file *f)
{
	if (!atomic_dec_and_test(&f->f_count))
		return;
	locks_remove_file(f);
	if (f == &console_file)
		return;                         /* PID 1's fds 0-2: never freed */
	if (f->f_op->release)
		f->f_op->release(f->f_inode, f);
	if (f->f_mode & FMODE_WRITER)
		put_write_access(f->f_inode);
	if (f->f_inode->i_sb)
		atomic_dec(&f->f_inode->i_sb->s_nr_files);      /* before iput: it may free the sb */
	iput(f->f_inode);
	kfree(f->f_pathname);
	kfree(f);
}

/*
 * The file of fd in files with a reference, or NULL: current's table
 * (fget), or another task's that /proc/<pid>/fd holds by an RCU read
 * section.
 */
struct file *fget_files(struct files_struct *files, unsigned int fd)
{
	struct file *f;

	if (!files || fd >= NR_OPEN)
		return NULL;
	spin_lock(&files->file_lock);
	f = files->fd[fd];
	if (f)
		get_file(f);
	spin_unlock(&files->file_lock);
	return f;
}

/*
 * The file of fd in current's table with a reference for the caller
 * (Linux's fget_raw), or NULL if fd is not open.  Taken under file_lock:
 * a close by another thread either emptied the slot first or drops the
 * table's reference after this one is taken.  An O_PATH file too: for
 * the calls that only name an inode (dup, fstat, fchdir, *at).
 */
struct file *fget_raw(int fd)
{
	return fd < 0 ? NULL : fget_files(current->files, fd);
}

/* fget_raw() for a call that does I/O: an O_PATH file is not open for it (NULL: EBADF). */
struct file *fget(int fd)
{
	struct file *f = fget_raw(fd);

	if (f && (f->f_mode & FMODE_PATH)) {
		fput(f);
		return NULL;
	}
	return f;
}

/* The lowest fd >= from open in files (held as fget_files says), or -1. */
int files_next_fd(struct files_struct *files, unsigned int from)
{
	int fd = -1;

	spin_lock(&files->file_lock);
	for (unsigned int i = from; i < NR_OPEN && fd < 0; i++)
		if (files->fd[i])
			fd = i;
	spin_unlock(&files->file_lock);
	return fd;
}

/*
 * fd's file for one system call, ended by fdput() (Linux's fdget and
 * __fget_light): while current is the only user of its table no other
 * task can close fd meanwhile (only current could share the table, by
 * clone), so no reference is needed; otherwise fget's.
 */
struct fd fdget_raw(int fd)
{
	struct files_struct *files = current->files;
	struct file *f;

	if (fd < 0 || fd >= NR_OPEN)
		return (struct fd){ NULL, 0 };
	if (__atomic_load_n(&files->count, __ATOMIC_ACQUIRE) == 1)
		return (struct fd){ READ_ONCE(files->fd[fd]), 0 };
	f = fget_raw(fd);
	return (struct fd){ f, f ? FDPUT_FPUT : 0 };
}

/* fdget_raw() for a call that does I/O: an O_PATH file gives none (EBADF), as Linux's fdget. */
struct fd fdget(int fd)
{
	struct fd f = fdget_raw(fd);

	if (f.file && (f.file->f_mode & FMODE_PATH)) {
		fdput(f);
		return (struct fd){ NULL, 0 };
	}
	return f;
}

/*
 * fdget for a call that moves the file position (read, write, lseek,
 * getdents: Linux's fdget_pos).  A regular file or directory that someone
 * else holds too (another thread's table slot, a dup in another process,
 * a call in flight) is taken under f_pos_lock, so two reads never read
 * from the same position; fdput_pos() ends it.
 */
struct fd fdget_pos(int fd)
{
	struct fd f = fdget(fd);

	if (f.file && (f.file->f_mode & FMODE_ATOMIC_POS) && atomic_read(&f.file->f_count) > 1) {
		f.flags |= FDPUT_POS_UNLOCK;
		mutex_lock(&f.file->f_pos_lock);
	}
	return f;
}

void fdput_pos(struct fd f)
{
	if (f.flags & FDPUT_POS_UNLOCK)
		mutex_unlock(&f.file->f_pos_lock);
	fdput(f);
}

/* How many fds this process may use: RLIMIT_NOFILE, at most the table. */
static int nofile_limit(void)
{
	return MIN(NR_OPEN, rlimit(RLIMIT_NOFILE));
}

/* Set or clear fd's close-on-exec bit; under file_lock. */
static void __set_close_on_exec(struct files_struct *files, unsigned int fd, bool flag)
{
	if (flag)
		files->cloexec[fd / 64] |= BIT(fd % 64);
	else
		files->cloexec[fd / 64] &= ~BIT(fd % 64);
}

void set_close_on_exec(unsigned int fd, bool flag)
{
	struct files_struct *files = current->files;

	spin_lock(&files->file_lock);
	__set_close_on_exec(files, fd, flag);
	spin_unlock(&files->file_lock);
}

bool get_close_on_exec(unsigned int fd)
{
	return current->files->cloexec[fd / 64] & BIT(fd % 64);
}

/*
 * Put f (one reference, which the table takes) in the lowest free slot
 * at or above from: the fd; -EINVAL if from is past the fd limit, -EMFILE
 * when no slot below it is free (Linux's f_dupfd).
 */
int f_dupfd(unsigned int from, struct file *f, bool cloexec)
{
	struct files_struct *files = current->files;

	int ret = -EMFILE;

	if (from >= (unsigned int)nofile_limit())
		return -EINVAL;
	spin_lock(&files->file_lock);
	for (unsigned int fd = from; fd < (unsigned int)nofile_limit(); fd++) {
		if (files->fd[fd])
			continue;
		WRITE_ONCE(files->fd[fd], f);
		__set_close_on_exec(files, fd, cloexec);
		ret = fd;
		break;
	}
	spin_unlock(&files->file_lock);
	return ret;
}

/* Empty fd's slot in current's table (Linux's file_close_fd): its file, for the caller to put; NULL if none. */
struct file *file_close_fd(unsigned int fd)
{
	struct files_struct *files = current->files;
	struct file *f;

	if (fd >= NR_OPEN)
		return NULL;
	spin_lock(&files->file_lock);
	f = files->fd[fd];
	WRITE_ONCE(files->fd[fd], NULL);
	spin_unlock(&files->file_lock);
	return f;
}

/*
 * Empty fd's slot only if it still holds f: true if so, and the table's
 * reference is the caller's again.  False if another thread closed fd
 * meanwhile (that close put the reference; f may be gone) or put another
 * file there.
 */
bool file_close_fd_if(unsigned int fd, struct file *f)
{
	struct files_struct *files = current->files;
	bool ours;

	spin_lock(&files->file_lock);
	ours = fd < NR_OPEN && files->fd[fd] == f;
	if (ours)
		WRITE_ONCE(files->fd[fd], NULL);
	spin_unlock(&files->file_lock);
	return ours;
}

/* Put f in the lowest free slot below RLIMIT_NOFILE; the fd, or -EMFILE. */
int fd_install(struct file *f, bool cloexec)
{
	int fd = f_dupfd(0, f, cloexec);

	return fd == -EINVAL ? -EMFILE : fd;
}

/* A table with the console on fds 0, 1 and 2 (init's); NULL without memory. */
struct files_struct *files_init_console(void)
{
	struct files_struct *files = kzalloc(sizeof(*files));

	if (!files)
		return NULL;
	files->count = 1;
	spin_lock_init(&files->file_lock, "files->file_lock");
	for (int fd = 0; fd < 3; fd++)
		files->fd[fd] = get_file(&console_file);
	return files;
}

/*
 * A copy of src holding a reference to each open file (fork; Linux's
 * dup_fd), taken under src's file_lock (its other threads may open and
 * close meanwhile); NULL without memory.
 */
struct files_struct *dup_fd(struct files_struct *src)
{
	struct files_struct *dst = kmalloc(sizeof(*dst));

	if (!dst)
		return NULL;
	spin_lock(&src->file_lock);
	memcpy(dst->fd, src->fd, sizeof(dst->fd));
	memcpy(dst->cloexec, src->cloexec, sizeof(dst->cloexec));
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (dst->fd[fd])
			get_file(dst->fd[fd]);
	spin_unlock(&src->file_lock);
	dst->count = 1;
	spin_lock_init(&dst->file_lock, "files->file_lock");
	return dst;
}

/*
 * The close of an fd of f in the table files (Linux's filp_close): the
 * process's POSIX locks on the file go, then the fd's reference.
 */
void filp_close(struct file *f, struct files_struct *files)
{
	locks_remove_posix(f, files);
	fput(f);
}

static void free_files_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct files_struct, rcu));
}

/*
 * Drop one task's use of files; the last closes every fd, each slot
 * emptied first under file_lock (a /proc reader takes no file that is
 * going), and frees the table after an RCU grace period.
 */
void put_files_struct(struct files_struct *files)
{
	if (__atomic_sub_fetch(&files->count, 1, __ATOMIC_ACQ_REL))
		return;
	for (int fd = 0; fd < NR_OPEN; fd++) {
		struct file *f;

		spin_lock(&files->file_lock);
		f = files->fd[fd];
		WRITE_ONCE(files->fd[fd], NULL);
		spin_unlock(&files->file_lock);
		if (f)
			filp_close(f, files);
	}
	call_rcu(&files->rcu, free_files_rcu);
}

/* Close the fds marked close-on-exec (exec, after de_thread: the table may still be shared). */
void files_close_on_exec(struct files_struct *files)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		struct file *f = NULL;

		spin_lock(&files->file_lock);
		if (files->cloexec[fd / 64] & BIT(fd % 64)) {
			f = files->fd[fd];
			WRITE_ONCE(files->fd[fd], NULL);
			__set_close_on_exec(files, fd, false);
		}
		spin_unlock(&files->file_lock);
		if (f)
			filp_close(f, files);   /* a release may sleep: outside the lock */
	}
}

/*
 * dup3(old, new, flags) and friends: new refers to old's file, the file
 * new had closed, in one step under file_lock (Linux's do_dup2).
 */
long sys_dup3(int oldfd, int newfd, int flags)
{
	struct files_struct *files = current->files;
	struct file *f, *tofree;

	if ((flags & ~O_CLOEXEC) || oldfd == newfd)
		return -EINVAL;
	if (oldfd < 0 || oldfd >= NR_OPEN || newfd < 0 || newfd >= nofile_limit())
		return -EBADF;
	spin_lock(&files->file_lock);
	f = files->fd[oldfd];
	tofree = f ? files->fd[newfd] : NULL;
	if (f) {
		WRITE_ONCE(files->fd[newfd], get_file(f));
		__set_close_on_exec(files, newfd, flags & O_CLOEXEC);
	}
	spin_unlock(&files->file_lock);
	if (tofree)
		filp_close(tofree, files);
	return f ? newfd : -EBADF;
}

long sys_dup2(int oldfd, int newfd)
{
	struct fd f;

	if (oldfd != newfd)
		return sys_dup3(oldfd, newfd, 0);       /* replaces newfd, as dup2 does */
	f = fdget_raw(oldfd);
	fdput(f);
	return f.file ? newfd : -EBADF;
}

long sys_dup(int oldfd)
{
	struct file *f = fget_raw(oldfd);
	int fd;

	if (!f)
		return -EBADF;
	fd = fd_install(f, false);              /* fget's reference becomes the table's */
	if (fd < 0)
		fput(f);
	return fd;
}
