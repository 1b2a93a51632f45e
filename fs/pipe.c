/*
 * Pipes: a 4 KiB ring between a read file and a write file.  Readers sleep
 * while it is empty (EOF once no writer is left), writers while it is full;
 * a write of at most PIPE_BUF bytes is atomic: it waits until it fits
 * whole, so no other writer's bytes land inside it (O_NONBLOCK: -EAGAIN
 * instead).  Writing with no reader raises SIGPIPE, or returns -EPIPE
 * when SIGPIPE is ignored.  One CPU, and no preemption in the kernel: no
 * lock needed yet.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/uaccess.h"
#include "linux/syscalls.h"
#include "mm/mm.h"

#define PIPE_SIZE 4096
#define PIPE_BUF  4096                  /* POSIX: the longest atomic write */

struct pipe {
	char buf[PIPE_SIZE];
	unsigned long head, tail;       /* bytes written, bytes read */
	int readers, writers;
};

long pipe_read(struct file *f, char *ubuf, unsigned long count)
{
	struct pipe *p = f->pipe;
	unsigned long n = 0;

	while (p->head == p->tail) {
		if (!p->writers || !count)
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (current->pending_kill)
			return -EINTR;
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
long pipe_write(struct file *f, const char *ubuf, unsigned long count)
{
	struct pipe *p = f->pipe;
	unsigned long n = 0;

	while (n < count) {
		unsigned long off, chunk, need = count <= PIPE_BUF ? count - n : 1;

		if (!p->readers) {
			do_send_sig_info(SIGPIPE, current);
			return n ? (long)n : -EPIPE;
		}
		if (PIPE_SIZE - (p->head - p->tail) < need) {
			if (f->f_flags & O_NONBLOCK)
				return n ? (long)n : -EAGAIN;
			if (current->pending_kill)
				return n ? (long)n : -EINTR;
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

/* The last reference to one end went away. */
void pipe_release(struct file *f)
{
	struct pipe *p = f->pipe;

	if (f->type == FILE_PIPE_READ)
		p->readers--;
	else
		p->writers--;
	wake_up(p);
	if (!p->readers && !p->writers)
		kfree(p);
}

/*
 * pipe2: two new fds, read end first, both copied to ufds[2]; flags
 * O_CLOEXEC and O_NONBLOCK (O_DIRECT packet mode is not implemented: EINVAL).
 * On a fault writing ufds nothing stays open, as in Linux.
 */
long sys_pipe2(int *ufds, int flags)
{
	unsigned int nonblock = flags & O_NONBLOCK;
	int fds[2] = { -1, -1 };
	struct pipe *p;
	struct file *r, *w;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	p = kzalloc(sizeof(*p));
	r = kzalloc(sizeof(*r));
	w = kzalloc(sizeof(*w));
	if (!p || !r || !w)
		goto nomem;
	*r = (struct file){ .refs = 1, .type = FILE_PIPE_READ, .f_flags = O_RDONLY | nonblock,
			    .pipe = p };
	*w = (struct file){ .refs = 1, .type = FILE_PIPE_WRITE, .f_flags = O_WRONLY | nonblock,
			    .pipe = p };
	p->readers = p->writers = 1;
	fds[0] = fd_install(r, flags & O_CLOEXEC);
	fds[1] = fds[0] < 0 ? -1 : fd_install(w, flags & O_CLOEXEC);
	if (fds[1] < 0 || copy_to_user(ufds, fds, sizeof(fds))) {
		long err = fds[1] < 0 ? -EMFILE : -EFAULT;

		if (fds[0] >= 0)
			current->files.fd[fds[0]] = NULL;
		if (fds[1] >= 0)
			current->files.fd[fds[1]] = NULL;
		kfree(r);
		kfree(w);
		kfree(p);
		return err;
	}
	return 0;
nomem:
	kfree(p);
	kfree(r);
	kfree(w);
	return -ENOMEM;
}

long sys_pipe(int *ufds)
{
	return sys_pipe2(ufds, 0);
}
