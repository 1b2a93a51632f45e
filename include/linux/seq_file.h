/*
 * seq_file, the way Linux's generated /proc and /sys files are made: a
 * show function prints the whole text with seq_printf() into a buffer; if
 * the buffer was too small, the reader retries with one twice the size.
 */
#ifndef _LINUX_SEQ_FILE_H
#define _LINUX_SEQ_FILE_H

#include "linux/types.h"

struct seq_file {
	char *buf;
	size_t size;            /* bytes in buf */
	size_t count;           /* bytes written, <= size; == size after an overflow */
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_pad(struct seq_file *m, size_t width, char c);

static inline bool seq_has_overflowed(const struct seq_file *m)
{
	return m->count == m->size;
}

#endif
