/*
 * vmsplice(2) (Linux's fs/splice.c): user pages into a pipe without a
 * copy.  Into a pipe's write end, each page of the iovec becomes a pipe
 * buffer holding a plain reference to the user page (get_user_pages, as
 * Linux's iov_iter_get_pages2): the reader copies from the page when it
 * reads, so it sees the page's content at read time; the reference keeps
 * a later COW of the writer's mapping from reusing the page, so a write
 * after the vmsplice goes to a new copy.  From a pipe's read end, it reads
 * into the iovec (readv).
 *
 * Lock order: see linux/fs.h.  The pipe's mutex (pipe_lock) is held while
 * buffers are added, across get_user_pages (which takes the mmap_lock
 * and may fault: pipe->mutex is a sleeping lock above it), as Linux's.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/pipe_fs_i.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/syscalls.h"
#include "linux/slab.h"
#include "linux/mm.h"
#include "uapi/linux/uio.h"

#define SPLICE_F_MOVE           0x01
#define SPLICE_F_NONBLOCK       0x02    /* do not wait for room in the pipe */
#define SPLICE_F_MORE           0x04
#define SPLICE_F_GIFT           0x08
#define SPLICE_F_ALL            (SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE | SPLICE_F_GIFT)

/*
 * Wait for a free buffer (Linux's wait_for_space), the pipe locked (not
 * while asleep): 0, -EPIPE (no reader: SIGPIPE too), -EAGAIN (full and
 * SPLICE_F_NONBLOCK) or -ERESTARTSYS.
 */
static long wait_for_space(struct pipe_inode_info *pipe, unsigned int flags)
{
	for (;;) {
		if (!pipe->readers) {
			send_sig(SIGPIPE, current, 0);
			return -EPIPE;
		}
		if (!pipe_full(pipe))
			return 0;
		if (flags & SPLICE_F_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		pipe_unlock(pipe);
		(void)wait_event_interruptible(pipe->wr_wait, pipe_writable(pipe));
		pipe_lock(pipe);
	}
}

/*
 * Add the pages of [base, base + len) to the pipe, a buffer per page
 * piece, until the pipe is full (Linux's iter_to_pipe).  Bytes added, or
 * -errno if none (-EFAULT: not mapped or not readable).
 */
static long seg_to_pipe(struct pipe_inode_info *pipe, unsigned long base, unsigned long len)
{
	long total = 0;

	while ((unsigned long)total < len && !pipe_full(pipe)) {
		unsigned long addr = base + total;
		struct pipe_buffer buf = { .offset = addr & ~PAGE_MASK };
		long ret = get_user_pages(addr, 1, 0, &buf.page);

		if (ret < 0)
			return total ? total : ret;
		buf.len = MIN(PAGE_SIZE - buf.offset, len - total);
		ret = add_to_pipe(pipe, &buf);
		if (ret < 0)
			return total ? total : ret;
		total += ret;
	}
	return total;
}

/* The iovec's pages into the pipe of file (Linux's vmsplice_to_pipe): bytes or -errno. */
static long vmsplice_to_pipe(struct file *file, const struct iovec *iov, unsigned long nr_segs,
			     unsigned int flags)
{
	struct pipe_inode_info *pipe = get_pipe_info(file);
	long total = 0, ret;

	if (!pipe)
		return -EBADF;
	pipe_lock(pipe);
	ret = wait_for_space(pipe, flags);
	for (unsigned long i = 0; !ret && i < nr_segs && !pipe_full(pipe); i++) {
		if (!iov[i].iov_len)
			continue;
		ret = seg_to_pipe(pipe, (unsigned long)iov[i].iov_base, iov[i].iov_len);
		if (ret > 0)
			total += ret;
		ret = ret < 0 ? ret : (unsigned long)ret < iov[i].iov_len;
	}
	pipe_unlock(pipe);
	if (total)
		wakeup_pipe_readers(pipe);
	return total ? total : ret < 0 ? ret : 0;
}

/*
 * vmsplice: EINVAL for unknown flags or a bad iovec, EBADF for a file
 * that is not open or is no pipe end (a read end: read into the iovec).
 */
long sys_vmsplice(int fd, const void *uiov, unsigned long nr_segs, unsigned int flags)
{
	struct iovec *iov;
	struct fd f;
	long ret;

	if (flags & ~SPLICE_F_ALL)
		return -EINVAL;
	f = fdget(fd);
	if (!f.file)
		return -EBADF;
	if (!(f.file->f_mode & FMODE_WRITE)) {
		ret = f.file->f_mode & FMODE_READ && get_pipe_info(f.file) ?
		      sys_readv(fd, uiov, nr_segs) : -EBADF;
		goto out;
	}
	iov = import_iovec(uiov, nr_segs, &ret);
	if (iov) {
		ret = vmsplice_to_pipe(f.file, iov, nr_segs, flags);
		kfree(iov);
	}
out:
	fdput(f);
	return ret;
}
