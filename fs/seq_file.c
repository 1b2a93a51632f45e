/* seq_printf into a fixed buffer that remembers an overflow (see seq_file.h). */
#include "linux/seq_file.h"
#include "linux/printk.h"

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (seq_has_overflowed(m))
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
	va_end(ap);
	m->count = m->count + n < m->size ? m->count + n : m->size;
}

/*
 * Pad the current line with spaces to "width" characters, then put c (if
 * not '\0'): Linux's seq_setwidth + seq_pad, as /proc/<pid>/maps uses.
 */
void seq_pad(struct seq_file *m, size_t width, char c)
{
	size_t start = m->count;

	while (start && m->buf[start - 1] != '\n')
		start--;
	while (!seq_has_overflowed(m) && m->count - start < width)
		seq_printf(m, " ");
	if (c)
		seq_printf(m, "%c", c);
}
