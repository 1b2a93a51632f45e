/*
 * /proc, starting small: /proc/meminfo in Linux's format.  A proc file's
 * text is generated when it is read from offset 0; reads at later offsets
 * continue the same text (Linux's seq_file behaviour).
 */
#include "kernel/file.h"
#include "kernel/printk.h"
#include "kernel/string.h"
#include "kernel/uaccess.h"
#include "mm/mm.h"
#include "mm/pgtable.h"
#include "mm/vmstat.h"

#define PROC_BUF 2048

static int meminfo_show(char *buf, size_t size)
{
	unsigned long kb = PAGE_SIZE / 1024;

	return snprintf(buf, size,
			"MemTotal:       %8lu kB\n"
			"MemFree:        %8lu kB\n"
			"MemAvailable:   %8lu kB\n"
			"AnonPages:      %8lu kB\n"
			"Slab:           %8lu kB\n"
			"PageTables:     %8lu kB\n"
			"AnonHugePages:  %8lu kB\n",
			zone.managed_pages * kb, zone.free_pages * kb, zone.free_pages * kb,
			global_node_page_state(NR_ANON_MAPPED) * kb, ALIGN_UP(kmalloc_bytes, 1024) / 1024,
			nr_pagetable_pages * kb, global_node_page_state(NR_ANON_THPS) * kb);
}

static const struct proc_entry {
	const char *name;
	int (*show)(char *buf, size_t size);
} proc_entries[] = {
	{ "proc/meminfo", meminfo_show },
};

/* Fill f for a /proc path (without the leading '/'); false if there is none. */
bool proc_lookup(const char *path, struct file *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(proc_entries); i++) {
		if (strcmp(path, proc_entries[i].name))
			continue;
		f->type = FILE_PROC;
		f->proc_show = proc_entries[i].show;
		return true;
	}
	return false;
}

long proc_read(struct file *f, char *ubuf, unsigned long count)
{
	long n;

	if (!f->proc_buf) {
		f->proc_buf = kmalloc(PROC_BUF);
		if (!f->proc_buf)
			return -ENOMEM;
	}
	if (f->pos == 0)
		f->proc_len = MIN(f->proc_show(f->proc_buf, PROC_BUF), PROC_BUF - 1);
	n = f->pos < f->proc_len ? MIN(count, f->proc_len - f->pos) : 0;
	if (copy_to_user(ubuf, f->proc_buf + f->pos, n))
		return -EFAULT;
	f->pos += n;
	return n;
}
