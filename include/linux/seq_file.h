/*
 * seq_file, the way Linux's generated /proc and /sys files are made: a
 * show function prints the whole text with seq_printf() into a buffer; if
 * the buffer was too small, the reader retries with one twice the size.
 * A read at position 0 makes the text anew; later reads continue it.
 */
#ifndef _LINUX_SEQ_FILE_H
#define _LINUX_SEQ_FILE_H

#include "linux/fs.h"
#include "linux/mutex.h"

struct seq_file {
	struct mutex lock;      /* one reader at a time: threads sharing the file (Linux's) */
	char *buf;
	size_t size;            /* bytes in buf */
	size_t count;           /* bytes written, <= size; == size after an overflow */
	int (*show)(struct seq_file *m, void *v);
	void *private;          /* what single_open() was given */
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_pad(struct seq_file *m, size_t width, char c);
int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data);
int single_release(struct inode *inode, struct file *file);
long seq_read(struct file *file, char *ubuf, size_t count, loff_t *pos);
loff_t seq_lseek(struct file *file, loff_t offset, int whence);

static inline bool seq_has_overflowed(const struct seq_file *m)
{
	return m->count == m->size;
}

#endif
