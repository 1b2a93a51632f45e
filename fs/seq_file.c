/* Generated files (see include/linux/seq_file.h; Linux's fs/seq_file.c). */
#include "linux/errno.h"
#include "linux/seq_file.h"
#include "linux/printk.h"
#include "linux/uaccess.h"
#include "linux/mm.h"
#include "uapi/linux/fs.h"

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

#define SEQ_BUF_MAX     (256UL << 10)   /* the largest text a file may have */

/* Open a file whose whole text show() prints; m->private is data. 0 or -ENOMEM. */
int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data)
{
	struct seq_file *m = kzalloc(sizeof(*m));

	if (!m)
		return -ENOMEM;
	mutex_init(&m->lock, "seq_file->lock");
	m->show = show;
	m->private = data;
	file->private_data = m;
	return 0;
}

static void seq_free_buf(struct seq_file *m)
{
	if (m->size > PAGE_SIZE)
		free_pages((unsigned long)m->buf, __builtin_ctzl(m->size >> PAGE_SHIFT));
	else
		kfree(m->buf);
	m->buf = NULL;
	m->size = m->count = 0;
}

int single_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	seq_free_buf(m);
	kfree(m);
	return 0;
}

/*
 * Make the text: show into a page-sized buffer, and on overflow again
 * into one twice the size, up to SEQ_BUF_MAX (cut there).  0, -ENOMEM or
 * show's error (no text then).
 */
static int seq_fill(struct seq_file *m)
{
	for (size_t size = PAGE_SIZE; size <= SEQ_BUF_MAX; size *= 2) {
		int ret;

		seq_free_buf(m);
		m->buf = size > PAGE_SIZE ?
			(char *)__get_free_pages(0, __builtin_ctzl(size >> PAGE_SHIFT)) : kmalloc(size);
		if (!m->buf)
			return -ENOMEM;
		m->size = size;
		ret = m->show(m, NULL);
		if (ret < 0) {
			seq_free_buf(m);
			return ret;
		}
		if (!seq_has_overflowed(m))
			return 0;
	}
	return 0;
}

/*
 * read(2): the text from *pos on, made anew when reading from 0.  Under
 * m->lock: threads reading one open file at once would otherwise free
 * and refill the same buffer under each other.
 */
long seq_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	struct seq_file *m = file->private_data;
	unsigned long n;
	long ret = 0;

	mutex_lock(&m->lock);
	if (*pos == 0 || !m->buf)
		ret = seq_fill(m);
	if (!ret) {
		n = (size_t)*pos < m->count ? MIN(count, m->count - *pos) : 0;
		ret = copy_to_user(ubuf, m->buf + *pos, n) ? -EFAULT : (long)n;
		if (ret > 0)
			*pos += n;
	}
	mutex_unlock(&m->lock);
	return ret;
}

/*
 * lseek of a file without a size: SEEK_SET and SEEK_CUR only (so also
 * Linux's dcache_dir_lseek of directories and mem_lseek of binary /proc files).
 */
loff_t seq_lseek(struct file *file, loff_t offset, int whence)
{
	if (whence == SEEK_CUR && __builtin_add_overflow(file->f_pos, offset, &offset))
		return -EINVAL;
	if (whence != SEEK_SET && whence != SEEK_CUR)
		return -EINVAL;
	return vfs_setpos(file, offset, MAX_LFS_FILESIZE);
}
