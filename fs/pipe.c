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
 * A write end opened O_DIRECT (pipe2) writes packets: each buffer it
 * fills is one, never merged into, and a read takes at most one packet
 * (the part past its count is dropped), as Linux's packet mode.
 * Writing with no reader raises SIGPIPE, or returns -EPIPE when SIGPIPE
 * is ignored.  Readers sleep on rd_wait, writers on wr_wait.
 *
 * Lock order: see linux/fs.h.  pipe_lock() guards the ring and the
 * reader/writer counts; it sleeps, and is held across the user copies
 * (Linux's pipe->mutex), never while sleeping for data or room.
 *
 * Both ends of a pipe are files of one inode (S_IFIFO, its own inode
 * number) whose i_pipe is the ring; each file's private_data points at it
 * too.  A FIFO (a named pipe: mknod S_IFIFO on tmpfs) gets a ring at its
 * first open, which every open of it shares and the last close frees
 * (Linux's fifo_open): a read-only open waits for a writer and a
 * write-only one for a reader (O_NONBLOCK: the reader goes on, the writer
 * gets ENXIO), O_RDWR never waits.
 *
 * pipe_files_lock guards each inode's i_pipe and the ring's count of open
 * files (Linux's inode->i_lock); nothing is taken under it.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/pipe_fs_i.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/uaccess.h"
#include "linux/syscalls.h"
#include "linux/page-flags.h"
#include "uapi/linux/eventpoll.h"

#define PIPE_BUF  4096                  /* POSIX: the longest atomic write */

static spinlock_t pipe_files_lock = SPINLOCK_INIT("pipe_files_lock");

/* Drop the buffer's page reference (a pipe page is freed with it). */
void pipe_buf_release(struct pipe_buffer *buf)
{
	folio_put(page_folio(buf->page));
	buf->page = NULL;
}

/*
 * The pipe's sleeping lock (Linux's pipe_lock on pipe->mutex; a futex-style
 * word): taken at once if free, else sleep until an unlock frees it.
 */
void pipe_lock(struct pipe_inode_info *pipe)
{
	if (__atomic_exchange_n(&pipe->mutex, 1, __ATOMIC_ACQUIRE))
		wait_var_event(&pipe->mutex, !__atomic_exchange_n(&pipe->mutex, 2, __ATOMIC_ACQUIRE));
}

void pipe_unlock(struct pipe_inode_info *pipe)
{
	if (__atomic_exchange_n(&pipe->mutex, 0, __ATOMIC_RELEASE) == 2)
		wake_up_var(&pipe->mutex);
}

void wakeup_pipe_readers(struct pipe_inode_info *pipe)
{
	wake_up_interruptible(&pipe->rd_wait);
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
		if (buf->flags & PIPE_BUF_FLAG_PACKET)
			buf->len = 0;           /* a packet is read once: the rest is dropped */
		if (!buf->len) {
			pipe_buf_release(buf);
			p->tail++;
		}
		if (buf->flags & PIPE_BUF_FLAG_PACKET)
			break;
	}
	return n;
}

/*
 * With the pipe locked, wait (unlocked) until it holds data: 1, or 0 at
 * EOF (or for count 0), -EAGAIN (O_NONBLOCK), -ERESTARTSYS (a signal).
 */
static long pipe_wait_readable(struct file *f, struct pipe_inode_info *p, size_t count)
{
	while (p->head == p->tail) {
		if (!p->writers || !count)
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		pipe_unlock(p);
		(void)wait_event_interruptible(p->rd_wait, pipe_readable(p));
		pipe_lock(p);
	}
	return 1;
}

static long pipe_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *p = f->private_data;
	bool was_full = false;
	long n;

	pipe_lock(p);
	n = pipe_wait_readable(f, p, count);
	if (n > 0) {
		was_full = pipe_full(p);
		n = pipe_copy_to_user(p, ubuf, count);
	}
	pipe_unlock(p);
	if (was_full)                   /* only then may a writer wait (Linux's was_full) */
		wake_up_interruptible(&p->wr_wait);
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

/* A new buffer of up to a page from ubuf at the head (a packet: flags): bytes taken or -errno. */
static long pipe_push_page(struct pipe_inode_info *p, const char *ubuf, size_t count,
			   unsigned int flags)
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
	*buf = (struct pipe_buffer){ &folio->page, 0, count, flags };
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
	unsigned int flags = f->f_flags & O_DIRECT ? PIPE_BUF_FLAG_PACKET : PIPE_BUF_FLAG_CAN_MERGE;
	bool was_empty;
	long n = 0, err = 0;

	pipe_lock(p);
	was_empty = p->head == p->tail;         /* only then may a reader wait */
	if (p->readers && !(flags & PIPE_BUF_FLAG_PACKET) &&
	    pipe_merge(p, ubuf, count % PAGE_SIZE, &err))
		n = count % PAGE_SIZE;
	while ((size_t)n < count && !err) {
		long ret;

		if (!p->readers) {
			send_sig(SIGPIPE, current, 0);
			err = -EPIPE;
		} else if (!pipe_full(p)) {
			ret = pipe_push_page(p, ubuf + n, count - n, flags);
			err = ret < 0 ? ret : 0;
			n += ret > 0 ? ret : 0;
		} else if (f->f_flags & O_NONBLOCK) {
			err = -EAGAIN;
		} else if (signal_pending(current)) {
			err = -ERESTARTSYS;
		} else {
			wake_up_interruptible(&p->rd_wait);
			pipe_unlock(p);
			(void)wait_event_interruptible(p->wr_wait, pipe_writable(p));
			pipe_lock(p);
			was_empty = p->head == p->tail;
		}
	}
	pipe_unlock(p);
	if (was_empty)
		wake_up_interruptible(&p->rd_wait);
	return n ? n : err;
}

/* A new, empty ring (Linux's alloc_pipe_info); NULL without memory. */
static struct pipe_inode_info *alloc_pipe_info(void)
{
	struct pipe_inode_info *p = kzalloc(sizeof(*p));

	if (p) {
		init_waitqueue_head(&p->rd_wait);
		init_waitqueue_head(&p->wr_wait);
	}
	return p;
}

/* One open file of inode's ring p is gone; the last frees it (Linux's put_pipe_info). */
static void put_pipe_info(struct inode *inode, struct pipe_inode_info *p)
{
	bool last;

	spin_lock(&pipe_files_lock);
	last = !--p->files;
	if (last)
		inode->i_pipe = NULL;
	spin_unlock(&pipe_files_lock);
	if (!last)
		return;
	for (; p->tail != p->head; p->tail++)
		pipe_buf_release(&p->bufs[p->tail % PIPE_DEF_BUFFERS]);
	kfree(p);
}

/* The end a file is leaves: readers or writers (both for O_RDWR) one fewer. */
static void pipe_end_leaves(struct pipe_inode_info *p, fmode_t mode)
{
	if (mode & FMODE_READ)
		p->readers--;
	if (mode & FMODE_WRITE)
		p->writers--;
}

/* The last reference to one end went away: the ring goes with the last open file. */
static int pipe_release(struct inode *inode, struct file *f)
{
	struct pipe_inode_info *p = f->private_data;

	pipe_lock(p);
	pipe_end_leaves(p, f->f_mode);
	wake_up_interruptible_all(&p->rd_wait);         /* under the lock: the other end's */
	wake_up_interruptible_all(&p->wr_wait);         /* release may free p after it */
	pipe_unlock(p);
	put_pipe_info(inode, p);
	return 0;
}

/*
 * Sleep until *cnt moves (a partner opened the other end) or a signal
 * comes (Linux's wait_for_partner): 0 or -ERESTARTSYS.  pipe_lock held,
 * dropped while asleep.
 */
static int wait_for_partner(struct pipe_inode_info *p, unsigned int *cnt)
{
	DEFINE_WAIT(wait);
	unsigned int cur = *cnt;

	while (cur == *cnt && !signal_pending(current)) {
		prepare_to_wait(&p->rd_wait, &wait, TASK_INTERRUPTIBLE);
		pipe_unlock(p);
		schedule();
		finish_wait(&p->rd_wait, &wait);
		pipe_lock(p);
	}
	return cur == *cnt ? -ERESTARTSYS : 0;
}

/* inode's ring, made at its first open, with one more open file of it; NULL without memory. */
static struct pipe_inode_info *fifo_get_pipe(struct inode *inode)
{
	struct pipe_inode_info *p, *fresh;

	spin_lock(&pipe_files_lock);
	p = inode->i_pipe;
	if (p)
		p->files++;
	spin_unlock(&pipe_files_lock);
	if (p)
		return p;
	fresh = alloc_pipe_info();
	if (!fresh)
		return NULL;
	spin_lock(&pipe_files_lock);
	p = inode->i_pipe;                      /* another open may have made one meanwhile */
	if (p) {
		p->files++;
	} else {
		p = inode->i_pipe = fresh;
		p->files = 1;
		fresh = NULL;
	}
	spin_unlock(&pipe_files_lock);
	kfree(fresh);
	return p;
}

/*
 * open of a FIFO (Linux's fifo_open): join its ring as a reader, a writer
 * or both, waiting for the other end as the file header says.  0,
 * -ENXIO (O_WRONLY|O_NONBLOCK without a reader), -ERESTARTSYS, -ENOMEM.
 * A pipe's inode (reopened through /proc/<pid>/fd/N) never waits and
 * never gives ENXIO, as Linux's is_pipe.
 */
static int fifo_open(struct inode *inode, struct file *f)
{
	bool is_pipe = !inode->i_sb;    /* a pipe(2)'s, reopened by /proc/<pid>/fd/N: never waits */
	bool nonblock = f->f_flags & O_NONBLOCK;
	struct pipe_inode_info *p = fifo_get_pipe(inode);
	int ret = 0;

	if (!p)
		return -ENOMEM;
	nonseekable_open(inode, f);
	f->private_data = p;
	pipe_lock(p);
	if ((f->f_mode & FMODE_WRITE) && !(f->f_mode & FMODE_READ) && nonblock && !p->readers &&
	    !is_pipe) {
		ret = -ENXIO;
		goto out;
	}
	if (f->f_mode & FMODE_READ) {
		p->r_counter++;
		p->readers++;
		f->f_pipe = p->w_counter;       /* writers come after this, for poll's HUP */
	}
	if (f->f_mode & FMODE_WRITE) {
		p->w_counter++;
		p->writers++;
	}
	wake_up_interruptible_all(&p->rd_wait);         /* a partner waiting for us */
	if (!is_pipe && (f->f_mode & (FMODE_READ | FMODE_WRITE)) == FMODE_READ && !p->writers &&
	    !nonblock)
		ret = wait_for_partner(p, &p->w_counter);
	else if (!is_pipe && (f->f_mode & (FMODE_READ | FMODE_WRITE)) == FMODE_WRITE && !p->readers)
		ret = wait_for_partner(p, &p->r_counter);
	if (ret) {
		pipe_end_leaves(p, f->f_mode);
		wake_up_interruptible_all(&p->wr_wait);
	}
out:
	pipe_unlock(p);
	if (ret)
		put_pipe_info(inode, p);
	return ret;
}

/* Readable: bytes, or no writer left (EOF); writable: room, or no reader (EPIPE). */
static __poll_t pipe_poll(struct file *f, struct poll_table_struct *wait)
{
	struct pipe_inode_info *p = f->private_data;
	__poll_t mask = 0;

	if (f->f_mode & FMODE_READ) {
		mask |= p->head != p->tail ? EPOLLIN | EPOLLRDNORM : 0;
		/* a FIFO reader that has seen no writer yet is not hung up (Linux's f_pipe) */
		mask |= !p->writers && f->f_pipe != p->w_counter ? EPOLLHUP : 0;
	}
	if (f->f_mode & FMODE_WRITE) {
		mask |= !pipe_full(p) ? EPOLLOUT | EPOLLWRNORM : 0;
		mask |= !p->readers ? EPOLLERR : 0;
	}
	return mask;
}

const struct file_operations pipefifo_fops = {
	.open = fifo_open,
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
	f->f_flags |= flags & O_DIRECT;         /* packet mode (alloc_file keeps no O_DIRECT) */
	f->private_data = p;
	if (flags & O_WRONLY)
		p->writers++;
	else
		p->readers++;
	p->files++;
	return f;
}

/*
 * Install both ends, read end first, and copy the fds to ufds[2]: the
 * ends' references go to the table.  On a failure neither stays installed
 * and both references are put here — except an end that another thread
 * closed in the window (its close put it; the end may be freed already).
 * Linux reserves the fds and installs only after the copy instead.
 * 0, -EMFILE or -EFAULT.
 */
static long pipe_install(struct file *r, struct file *w, int *ufds, bool cloexec)
{
	int fds[2] = { -1, -1 };

	fds[0] = fd_install(r, cloexec);
	fds[1] = fds[0] < 0 ? -1 : fd_install(w, cloexec);
	if (fds[1] >= 0 && !copy_to_user(ufds, fds, sizeof(fds)))
		return 0;
	if (fds[0] < 0 || file_close_fd_if(fds[0], r))
		fput(r);                /* the last end frees p */
	if (fds[1] < 0 || file_close_fd_if(fds[1], w))
		fput(w);
	return fds[1] < 0 ? -EMFILE : -EFAULT;
}

/*
 * pipe2: two new fds, read end first, both copied to ufds[2]; flags
 * O_CLOEXEC, O_NONBLOCK and O_DIRECT (packet mode: the write end's flag only, as Linux's).
 * On a fault writing ufds nothing stays open, as in Linux.
 */
long sys_pipe2(int *ufds, int flags)
{
	unsigned int nonblock = flags & O_NONBLOCK;
	struct pipe_inode_info *p = NULL;
	struct file *r = NULL, *w = NULL;
	struct inode *inode;
	long ret = -ENOMEM;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	inode = new_inode(NULL);
	if (!inode)
		return -ENOMEM;
	inode->i_mode = S_IFIFO | 0600;
	inode->i_ino = get_next_ino();
	inode->i_fop = &pipefifo_fops;
	p = alloc_pipe_info();
	if (p)
		p->r_counter = p->w_counter = 1;        /* each end was opened once */
	inode->i_pipe = p;
	r = p ? pipe_end(inode, p, O_RDONLY | nonblock) : NULL;
	w = r ? pipe_end(inode, p, O_WRONLY | nonblock | (flags & O_DIRECT)) : NULL;
	if (w)
		ret = pipe_install(r, w, ufds, flags & O_CLOEXEC);     /* puts both on failure */
	else if (r)
		fput(r);                /* the last end frees p */
	else
		kfree(p);
	iput(inode);            /* the ends hold it now */
	return ret;
}

long sys_pipe(int *ufds)
{
	return sys_pipe2(ufds, 0);
}
