/*
 * Pipes: a ring of PIPE_DEF_BUFFERS page buffers between a read file and
 * a write file (Linux's fs/pipe.c).  A write copies into pages of the
 * pipe's own, appending to the last one when the whole short tail of the
 * write fits there; vmsplice (fs/splice.c) adds buffers that reference
 * user pages instead.  A read copies from the buffers in order and frees
 * (or unreferences) each one it empties.  Readers sleep while the ring is
 * empty (EOF once no writer is left), writers while it is full; a write
 * of at most PIPE_BUF bytes is atomic: it lands whole in one buffer, so
 * no other writer's bytes land inside it (O_NONBLOCK: -EAGAIN instead).
 * Writing with no reader raises SIGPIPE, or returns -EPIPE when SIGPIPE
 * is ignored.  One CPU, and no preemption in the kernel: no lock needed
 * yet.
 *
 * Both ends are files of one inode (S_IFIFO, its own inode number) whose
 * i_private is the ring; each file's private_data points at it too.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/pipe_fs_i.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/uaccess.h"
#include "linux/syscalls.h"
#include "mm/folio.h"
#include "uapi/linux/eventpoll.h"

#define PIPE_BUF  4096                  /* POSIX: the longest atomic write */

static const struct file_operations pipefifo_fops;

/* Drop the buffer's page reference (a pipe page is freed with it). */
void pipe_buf_release(struct pipe_buffer *buf)
{
	folio_put(page_folio(buf->page));
	buf->page = NULL;
}

void wakeup_pipe_readers(struct pipe_inode_info *pipe)
{
	wake_up(pipe);
}

/* The ring behind a pipe end, NULL for any other file (Linux's get_pipe_info). */
struct pipe_inode_info *get_pipe_info(struct file *file)
{
	return file->f_op == &pipefifo_fops ? file->private_data : NULL;
}

/*
 * Append buf to the ring (Linux's add_to_pipe): its length, -EPIPE (no
 * reader: SIGPIPE too) or -EAGAIN (full); on an error the buffer's page
 * reference is dropped.
 */
long add_to_pipe(struct pipe_inode_info *pipe, struct pipe_buffer *buf)
{
	long ret = -EAGAIN;

	if (!pipe->readers) {
		send_sig(SIGPIPE, current, 0);
		ret = -EPIPE;
	} else if (!pipe_full(pipe)) {
		pipe->bufs[pipe->head++ % PIPE_DEF_BUFFERS] = *buf;
		return buf->len;
	}
	pipe_buf_release(buf);
	return ret;
}

/* Copy up to count bytes from the buffers, in order, freeing each one emptied. */
static long pipe_copy_to_user(struct pipe_inode_info *p, char *ubuf, size_t count)
{
	size_t n = 0;

	while (n < count && p->tail != p->head) {
		struct pipe_buffer *buf = &p->bufs[p->tail % PIPE_DEF_BUFFERS];
		size_t chunk = MIN(count - n, buf->len);

		if (copy_to_user(ubuf + n, (char *)page_address(buf->page) + buf->offset, chunk))
			return n ? (long)n : -EFAULT;
		buf->offset += chunk;
		buf->len -= chunk;
		n += chunk;
		if (!buf->len) {
			pipe_buf_release(buf);
			p->tail++;
		}
	}
	return n;
}

static long pipe_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *p = f->private_data;
	long n;

	while (p->head == p->tail) {
		if (!p->writers || !count)
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on(p);
	}
	n = pipe_copy_to_user(p, ubuf, count);
	wake_up(p);
	return n;
}

/*
 * Append the count bytes at ubuf to the last buffer if it is one of the
 * pipe's own pages and they all fit (Linux's merge of a write's short
 * tail).  true if they were appended; *err gets -EFAULT if the copy failed.
 */
static bool pipe_merge(struct pipe_inode_info *p, const char *ubuf, size_t count, long *err)
{
	struct pipe_buffer *buf = &p->bufs[(p->head - 1) % PIPE_DEF_BUFFERS];

	if (!count || p->head == p->tail || !(buf->flags & PIPE_BUF_FLAG_CAN_MERGE) ||
	    buf->offset + buf->len + count > PAGE_SIZE)
		return false;
	if (copy_from_user((char *)page_address(buf->page) + buf->offset + buf->len, ubuf, count)) {
		*err = -EFAULT;
		return false;
	}
	buf->len += count;
	return true;
}

/* A new buffer of up to a page from ubuf at the head: bytes taken or -errno. */
static long pipe_push_page(struct pipe_inode_info *p, const char *ubuf, size_t count)
{
	struct folio *folio = folio_alloc(0, 0);
	struct pipe_buffer *buf = &p->bufs[p->head % PIPE_DEF_BUFFERS];

	if (!folio)
		return -ENOMEM;
	count = MIN(count, PAGE_SIZE);
	if (copy_from_user(page_address(&folio->page), ubuf, count)) {
		folio_put(folio);
		return -EFAULT;
	}
	*buf = (struct pipe_buffer){ &folio->page, 0, count, PIPE_BUF_FLAG_CAN_MERGE };
	p->head++;
	return count;
}

/*
 * Write count bytes, sleeping while the ring is full (Linux's pipe_write):
 * a write's short tail (count % PAGE_SIZE, all of a write up to PIPE_BUF)
 * first goes whole into the last buffer if it fits, the rest a page per
 * buffer.  Returns the bytes written, or -errno if none were.
 */
static long pipe_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *p = f->private_data;
	long n = 0, err = 0;

	if (p->readers && pipe_merge(p, ubuf, count % PAGE_SIZE, &err))
		n = count % PAGE_SIZE;
	while ((size_t)n < count && !err) {
		long ret;

		if (!p->readers) {
			send_sig(SIGPIPE, current, 0);
			err = -EPIPE;
		} else if (!pipe_full(p)) {
			ret = pipe_push_page(p, ubuf + n, count - n);
			err = ret < 0 ? ret : 0;
			n += ret > 0 ? ret : 0;
		} else if (f->f_flags & O_NONBLOCK) {
			err = -EAGAIN;
		} else if (signal_pending(current)) {
			err = -ERESTARTSYS;
		} else {
			wake_up(p);
			sleep_on(p);
		}
	}
	wake_up(p);
	return n ? n : err;
}

/* The last reference to one end went away: the ring goes with the last end. */
static int pipe_release(struct inode *inode, struct file *f)
{
	struct pipe_inode_info *p = f->private_data;

	if (f->f_mode & FMODE_READ)
		p->readers--;
	else
		p->writers--;
	wake_up(p);
	if (p->readers || p->writers)
		return 0;
	for (; p->tail != p->head; p->tail++)
		pipe_buf_release(&p->bufs[p->tail % PIPE_DEF_BUFFERS]);
	kfree(p);
	return 0;
}

/* Readable: bytes, or no writer left (EOF); writable: room, or no reader (EPIPE). */
static __poll_t pipe_poll(struct file *f, struct poll_table_struct *wait)
{
	struct pipe_inode_info *p = f->private_data;
	__poll_t mask = 0;

	if (f->f_mode & FMODE_READ) {
		mask |= p->head != p->tail ? EPOLLIN | EPOLLRDNORM : 0;
		mask |= !p->writers ? EPOLLHUP : 0;
	}
	if (f->f_mode & FMODE_WRITE) {
		mask |= !pipe_full(p) ? EPOLLOUT | EPOLLWRNORM : 0;
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
static struct file *pipe_end(struct inode *inode, struct pipe_inode_info *p, unsigned int flags)
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
		current->files->fd[fds[0]] = NULL;
	if (fds[1] >= 0)
		current->files->fd[fds[1]] = NULL;
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
	struct pipe_inode_info *p = NULL;
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
