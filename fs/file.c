/* The per-task file table and file objects (see include/linux/fs.h). */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/sched.h"
#include "mm/mm.h"
#include "mm/mm_api.h"
#include "linux/syscalls.h"
#include "uapi/linux/fcntl.h"

/* fds 0-2 of PID 1; never freed (its count only grows past zero). */
struct file console_file = { .refs = 1, .type = FILE_CONSOLE, .f_flags = O_RDWR };

static void fput(struct file *f)
{
	if (--f->refs || f == &console_file)
		return;
	if (f->type == FILE_PIPE_READ || f->type == FILE_PIPE_WRITE)
		pipe_release(f);
	proc_release(f);
	kfree(f);
}

struct file *fget(int fd)
{
	if (fd < 0 || fd >= NR_OPEN)
		return NULL;
	return current->files.fd[fd];
}

/* fd's file if it was opened for reading (write: for writing); NULL is EBADF. */
struct file *fget_rw(int fd, bool write)
{
	struct file *f = fget(fd);
	unsigned int mode = f ? f->f_flags & O_ACCMODE : 0;

	if (!f || mode == (write ? O_RDONLY : O_WRONLY))
		return NULL;
	return f;
}

/* How many fds this process may use: RLIMIT_NOFILE, at most the table. */
static int nofile_limit(void)
{
	return MIN(NR_OPEN, rlimit(RLIMIT_NOFILE));
}

/* Put f in the lowest free slot below RLIMIT_NOFILE; the fd, or -EMFILE. */
int fd_install(struct file *f, bool cloexec)
{
	struct files_struct *files = &current->files;

	for (int fd = 0; fd < nofile_limit(); fd++) {
		if (files->fd[fd])
			continue;
		files->fd[fd] = f;
		files->cloexec = cloexec ? files->cloexec | BIT(fd) : files->cloexec & ~BIT(fd);
		return fd;
	}
	return -EMFILE;
}

void files_init_console(struct files_struct *files)
{
	for (int fd = 0; fd < 3; fd++) {
		files->fd[fd] = &console_file;
		console_file.refs++;
	}
}

void files_dup(struct files_struct *dst, const struct files_struct *src)
{
	*dst = *src;
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (dst->fd[fd])
			dst->fd[fd]->refs++;
}

void files_close_all(struct files_struct *files)
{
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (files->fd[fd]) {
			fput(files->fd[fd]);
			files->fd[fd] = NULL;
		}
	files->cloexec = 0;
}

void files_close_on_exec(struct files_struct *files)
{
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (files->fd[fd] && (files->cloexec & BIT(fd))) {
			fput(files->fd[fd]);
			files->fd[fd] = NULL;
		}
	files->cloexec = 0;
}

/* close(fd): 0 or -EBADF. */
long sys_close(int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	current->files.fd[fd] = NULL;
	fput(f);
	return 0;
}

/* dup3(old, new, flags) and friends: new refers to old's file. */
long sys_dup3(int oldfd, int newfd, int flags)
{
	struct file *f = fget(oldfd);

	if ((flags & ~O_CLOEXEC) || oldfd == newfd)
		return -EINVAL;
	if (!f || newfd < 0 || newfd >= nofile_limit())
		return -EBADF;
	if (current->files.fd[newfd])
		sys_close(newfd);
	f->refs++;
	current->files.fd[newfd] = f;
	current->files.cloexec = flags & O_CLOEXEC ? current->files.cloexec | BIT(newfd)
						   : current->files.cloexec & ~BIT(newfd);
	return newfd;
}

long sys_dup2(int oldfd, int newfd)
{
	if (oldfd == newfd)
		return fget(oldfd) ? newfd : -EBADF;
	return sys_dup3(oldfd, newfd, 0);       /* replaces newfd, as dup2 does */
}

long sys_dup(int oldfd)
{
	struct file *f = fget(oldfd);
	int fd;

	if (!f)
		return -EBADF;
	f->refs++;
	fd = fd_install(f, false);
	if (fd < 0)
		f->refs--;
	return fd;
}


/*
 * fcntl: descriptor flags (close-on-exec), status flags (O_NONBLOCK is the
 * one that can change), duplication at or above arg (EINVAL past the fd
 * limit, EMFILE when none is free below it, as Linux's f_dupfd).
 */
long sys_fcntl(int fd, int cmd, unsigned long arg)
{
	struct file *f = fget(fd);
	struct files_struct *files = &current->files;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_GETFD:
		return files->cloexec & BIT(fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		files->cloexec = arg & FD_CLOEXEC ? files->cloexec | BIT(fd) : files->cloexec & ~BIT(fd);
		return 0;
	case F_GETFL:
		return f->f_flags;
	case F_SETFL:
		f->f_flags = (f->f_flags & ~O_NONBLOCK) | (arg & O_NONBLOCK);
		return 0;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg >= (unsigned long)nofile_limit())
			return -EINVAL;
		for (unsigned long nfd = arg; nfd < (unsigned long)nofile_limit(); nfd++)
			if (!files->fd[nfd])
				return sys_dup3(fd, nfd, cmd == F_DUPFD_CLOEXEC ? O_CLOEXEC : 0);
		return -EMFILE;
	}
	return -EINVAL;
}
