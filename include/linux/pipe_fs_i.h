/*
 * A pipe's ring of page buffers (Linux's include/linux/pipe_fs_i.h), for
 * fs/pipe.c and vmsplice (fs/splice.c).
 */
#ifndef _LINUX_PIPE_FS_I_H
#define _LINUX_PIPE_FS_I_H

#include "linux/fs.h"
#include "linux/wait.h"

#define PIPE_DEF_BUFFERS        16

#define PIPE_BUF_FLAG_PACKET    0x08    /* a packet (O_DIRECT): one read takes it, whole or cut */
#define PIPE_BUF_FLAG_CAN_MERGE 0x10    /* a write may append to this buffer */

/*
 * len bytes at offset in page.  The buffer holds one reference to the
 * page: a page of the pipe's own (written data) or a user page that
 * vmsplice took (a plain reference: the page may change until it is read).
 */
struct pipe_buffer {
	struct page *page;
	unsigned int offset, len;
	unsigned int flags;
};

/* The ring: buffers [tail, head) hold data, in order. */
struct pipe_inode_info {
	unsigned int head, tail;
	int readers, writers;
	int files;                      /* open files of it (pipe_files_lock): the last frees it */
	unsigned int r_counter, w_counter;      /* opens of each end so far: a FIFO's partner came */
	int mutex;                      /* pipe_lock(): 0 free, 1 held, 2 held with sleepers */
	wait_queue_head_t rd_wait;      /* readers wait here for data or the last writer's close */
	wait_queue_head_t wr_wait;      /* writers wait here for room or the last reader's close */
	struct pipe_buffer bufs[PIPE_DEF_BUFFERS];
};

static inline bool pipe_full(const struct pipe_inode_info *pipe)
{
	return pipe->head - pipe->tail >= PIPE_DEF_BUFFERS;
}

/* A reader would not block (Linux's pipe_readable). */
static inline bool pipe_readable(const struct pipe_inode_info *pipe)
{
	return READ_ONCE(pipe->head) != READ_ONCE(pipe->tail) || !READ_ONCE(pipe->writers);
}

/* A writer would not block (Linux's pipe_writable). */
static inline bool pipe_writable(const struct pipe_inode_info *pipe)
{
	return READ_ONCE(pipe->head) - READ_ONCE(pipe->tail) < PIPE_DEF_BUFFERS ||
	       !READ_ONCE(pipe->readers);
}

extern const struct file_operations pipefifo_fops;
struct pipe_inode_info *get_pipe_info(struct file *file);
void pipe_lock(struct pipe_inode_info *pipe);
void pipe_unlock(struct pipe_inode_info *pipe);
long add_to_pipe(struct pipe_inode_info *pipe, struct pipe_buffer *buf);
void pipe_buf_release(struct pipe_buffer *buf);
void wakeup_pipe_readers(struct pipe_inode_info *pipe);

#endif
