/*
 * Pipes: a 4 KiB ring between a read file and a write file.  Readers sleep
 * while it is empty (EOF once no writer is left), writers while it is full;
 * a write of at most PIPE_BUF bytes is atomic: it waits until it fits
 * whole, so no other writer's bytes land inside it (O_NONBLOCK: -EAGAIN
 * instead).  Writing with no reader raises SIGPIPE, or returns -EPIPE
 * when SIGPIPE is ignored.  One CPU, and no preemption in the kernel: no
 * lock needed yet.
 *
 * Both ends are files of one inode (S_IFIFO, its own inode number) whose
 * i_private is the ring; each file's private_data points at it too.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/uaccess.h"
#include "linux/syscalls.h"
#include "mm/mm.h"
#include "uapi/linux/eventpoll.h"

#define PIPE_SIZE 4096
#define PIPE_BUF  4096                  /* POSIX: the longest atomic write */

struct pipe {
	char buf[PIPE_SIZE];
	unsigned long head, tail;       /* bytes written, bytes read */
	int readers, writers;
};

static long pipe_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	struct pipe *p = f->private_data;
	unsigned long n = 0;

	while (p->head == p->tail) {
		if (!p->writers || !count)
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on(p);
	}
	while (n < count && p->tail != p->head) {
		unsigned long off = p->tail % PIPE_SIZE;
		unsigned long chunk = MIN(MIN(count - n, p->head - p->tail), PIPE_SIZE - off);

		if (copy_to_user(ubuf + n, p->buf + off, chunk))
			return n ? (long)n : -EFAULT;
		p->tail += chunk;
		n += chunk;
	}
	wake_up(p);
	return n;
}

/*
 * Write count bytes, sleeping while the ring has no room: for a write of
 * up to PIPE_BUF bytes, until all of it fits (Linux's pipe_write); a
 * longer one copies what fits and may be split.  Returns the bytes
 * written, or -errno if none were.
 */
static long pipe_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	struct pipe *p = f->private_data;
	unsigned long n = 0;

	while (n < count) {
		unsigned long off, chunk, need = count <= PIPE_BUF ? count - n : 1;

		if (!p->readers) {
			send_sig(SIGPIPE, current, 0);
			return n ? (long)n : -EPIPE;
		}
		if (PIPE_SIZE - (p->head - p->tail) < need) {
			if (f->f_flags & O_NONBLOCK)
				return n ? (long)n : -EAGAIN;
			if (signal_pending(current))
				return n ? (long)n : -ERESTARTSYS;
			wake_up(p);
			sleep_on(p);
			continue;
		}
		off = p->head % PIPE_SIZE;
		chunk = MIN(MIN(count - n, PIPE_SIZE - (p->head - p->tail)), PIPE_SIZE - off);
		if (copy_from_user(p->buf + off, ubuf + n, chunk))
			return n ? (long)n : -EFAULT;
		p->head += chunk;
		n += chunk;
	}
	wake_up(p);
	return n;
}

/* The last reference to one end went away: the ring goes with the last end. */
static int pipe_release(struct inode *inode, struct file *f)
{
	struct pipe *p = f->private_data;

	if (f->f_mode & FMODE_READ)
		p->readers--;
	else
		p->writers--;
	wake_up(p);
	if (!p->readers && !p->writers)
		kfree(p);
	return 0;
}

/* Readable: bytes, or no writer left (EOF); writable: room, or no reader (EPIPE). */
static __poll_t pipe_poll(struct file *f, struct poll_table_struct *wait)
{
	struct pipe *p = f->private_data;
	__poll_t mask = 0;

	if (f->f_mode & FMODE_READ) {
		mask |= p->head != p->tail ? EPOLLIN | EPOLLRDNORM : 0;
		mask |= !p->writers ? EPOLLHUP : 0;
	}
	if (f->f_mode & FMODE_WRITE) {
		mask |= p->head - p->tail < PIPE_SIZE ? EPOLLOUT | EPOLLWRNORM : 0;
		mask |= !p->readers ? EPOLLERR : 0;
	}
	return mask;
}

static const struct file_operations pipefifo_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.poll = pipe_poll,
	.release = pipe_release,
};

/* One end of pipe p: a stream file of inode (taking a reference to it); NULL if out of memory. */
static struct file *pipe_end(struct inode *inode, struct pipe *p, unsigned int flags)
{
	struct file *f = alloc_file(inode, flags);

	if (!f)
		return NULL;
	ihold(inode);
	nonseekable_open(inode, f);
	f->private_data = p;
	if (flags & O_WRONLY)
		p->writers++;
	else
		p->readers++;
	return f;
}

/*
 * Install both ends, read end first, and copy the fds to ufds[2]; on a
 * failure neither stays installed.  0, -EMFILE or -EFAULT.
 */
static long pipe_install(struct file *r, struct file *w, int *ufds, bool cloexec)
{
	int fds[2] = { -1, -1 };

	fds[0] = fd_install(r, cloexec);
	fds[1] = fds[0] < 0 ? -1 : fd_install(w, cloexec);
	if (fds[1] >= 0 && !copy_to_user(ufds, fds, sizeof(fds)))
		return 0;
	if (fds[0] >= 0)
		current->files.fd[fds[0]] = NULL;
	if (fds[1] >= 0)
		current->files.fd[fds[1]] = NULL;
	return fds[1] < 0 ? -EMFILE : -EFAULT;
}

/*
 * pipe2: two new fds, read end first, both copied to ufds[2]; flags
 * O_CLOEXEC and O_NONBLOCK (O_DIRECT packet mode is not implemented: EINVAL).
 * On a fault writing ufds nothing stays open, as in Linux.
 */
long sys_pipe2(int *ufds, int flags)
{
	unsigned int nonblock = flags & O_NONBLOCK;
	struct pipe *p = NULL;
	struct file *r = NULL, *w = NULL;
	struct inode *inode;
	long ret = -ENOMEM;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	inode = new_inode(NULL);
	if (!inode)
		return -ENOMEM;
	inode->i_mode = S_IFIFO | 0600;
	inode->i_ino = get_next_ino();
	inode->i_fop = &pipefifo_fops;
	p = kzalloc(sizeof(*p));
	inode->i_private = p;
	r = p ? pipe_end(inode, p, O_RDONLY | nonblock) : NULL;
	w = r ? pipe_end(inode, p, O_WRONLY | nonblock) : NULL;
	if (w)
		ret = pipe_install(r, w, ufds, flags & O_CLOEXEC);
	if (ret && r)
		fput(r);                /* the last end frees p */
	if (ret && w)
		fput(w);
	if (ret && !r)
		kfree(p);
	iput(inode);            /* the ends hold it now */
	return ret;
}

long sys_pipe(int *ufds)
{
	return sys_pipe2(ufds, 0);
}
