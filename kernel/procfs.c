/*
 * /proc, starting small: /proc/meminfo, /proc/self|<pid>/pagemap and
 * status, /proc/kpagecount in Linux's formats, and foliOS's folio view
 * /proc/folio/<pfn>.  A text file
 * is generated when it is read from offset 0; reads at later offsets
 * continue the same text (Linux's seq_file behaviour).  Binary files are
 * arrays of 64-bit records indexed by the file position / 8.
 */
#include "kernel/file.h"
#include "kernel/printk.h"
#include "kernel/string.h"
#include "kernel/uaccess.h"
#include "mm/mm.h"
#include "mm/pgtable.h"
#include "mm/vmstat.h"
#include "mm/rmap.h"
#include "mm/mm_id.h"
#include "kernel/task.h"

#define PROC_BUF 2048

static int meminfo_show(struct file *f, char *buf, size_t size)
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

/* The counts are logical values; "[pid N]" names the task of an MM ID. */
static int folio_show(struct file *f, char *buf, size_t size)
{
	struct page *page = pfn_to_page(f->proc_arg);
	struct folio *folio = page_folio(page);
	bool large = folio_test_large(folio);
	char flags[128];
	int n;

	page_flag_names(folio->flags | (page->flags & BIT(PG_anon_exclusive)), flags, sizeof(flags));
	n = snprintf(buf, size, "pfn: %ld\nhead_pfn: %lu\norder: %u\nrefcount: %d\n"
		     "large_mapcount: %d\nentire_mapcount: %d\n", f->proc_arg, folio_pfn(folio),
		     folio_order(folio), folio_ref_count(folio), folio_mapcount(folio),
		     large ? folio_entire_mapcount(folio) : 0);
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		n += snprintf(buf + n, size - n, "nr_pages_mapped: %d\npage_mapcount: %d\n",
			      large ? folio_nr_pages_mapped(folio) : folio_mapcount(folio),
			      large ? folio_precise_page_mapcount(folio, page) : folio_mapcount(folio));
	for (int i = 0; i < 2; i++) {
		unsigned int id = large ? folio_mm_id(folio, i) : MM_ID_DUMMY;

		n += snprintf(buf + n, size - n, "mm_id%d: %u [pid %d]\nmm_id%d_mapcount: %d\n",
			      i, id, id ? mm_id_to_pid(id) : 0, i,
			      large ? folio->_mm_id_mapcount[i] + 1 : 0);
	}
	n += snprintf(buf + n, size - n, "maybe_mapped_shared: %d\nanon_exclusive: %d\n"
		      "partially_mapped: %d\nflags: %s\n", folio_maybe_mapped_shared(folio),
		      PageAnonExclusive(page), folio_order(folio) > 1 &&
		      folio_test_partially_mapped(folio), flags);
	return n;
}

/* /proc/<pid>/status: the lines of Linux's that foliOS can fill. */
static int status_show(struct file *f, char *buf, size_t size)
{
	unsigned long kb = PAGE_SIZE / 1024;

	return snprintf(buf, size, "Name:\t%s\nPid:\t%ld\nVmRSS:\t%8lu kB\nRssAnon:\t%8lu kB\n",
			f->proc_comm, f->proc_arg, f->mm->rss_anon * kb, f->mm->rss_anon * kb);
}

static const struct proc_entry {
	const char *name;
	int (*show)(struct file *f, char *buf, size_t size);
} proc_entries[] = {
	{ "proc/meminfo", meminfo_show },
};

#define PM_PFRAME_MASK          ((1UL << 55) - 1)
#define PM_MMAP_EXCLUSIVE       (1UL << 56)
#define PM_PRESENT              (1UL << 63)

/* Is this mapping of page the only one (pagemap's PM_MMAP_EXCLUSIVE)? */
static bool page_mapped_exclusively(struct folio *folio, struct page *page)
{
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		return folio_precise_page_mapcount(folio, page) == 1;
	return !folio_maybe_mapped_shared(folio);
}

/* One pagemap entry per virtual page of the bound mm, from the position. */
static long pagemap_read(struct file *f, char *ubuf, unsigned long count)
{
	unsigned long done = 0;

	if ((f->pos | count) & 7)
		return -EINVAL;
	while (done < count) {
		unsigned long va = (f->pos / 8) << PAGE_SHIFT;
		u64 e = 0;
		struct pgwalk w;

		if (va >= TASK_SIZE_MAX)
			break;
		if (!list_empty(&f->mm->mmap) && pgtable_lookup((pgd_t *)f->mm->pgd, va, &w)) {
			unsigned long pfn = w.phys >> PAGE_SHIFT;
			struct page *page = pfn_to_page(pfn);

			e = (pfn & PM_PFRAME_MASK) | PM_PRESENT;
			if (page_mapped_exclusively(page_folio(page), page))
				e |= PM_MMAP_EXCLUSIVE;
		}
		if (copy_to_user(ubuf + done, &e, 8))
			return done ? (long)done : -EFAULT;
		done += 8;
		f->pos += 8;
	}
	return done;
}

/* Per PFN, how often the page is mapped (average for a large folio without PAGE_MAPCOUNT). */
static long kpagecount_read(struct file *f, char *ubuf, unsigned long count)
{
	unsigned long done = 0;

	if ((f->pos | count) & 7)
		return -EINVAL;
	while (done < count && f->pos / 8 < max_pfn) {
		struct page *page = pfn_to_page(f->pos / 8);
		struct folio *folio = page_folio(page);
		u64 mapcount = 0;

		if (!PageBuddy(page) && !PageReserved(page) && !PageTable(page) && !PageSlab(page)) {
			if (!folio_test_large(folio))
				mapcount = folio_mapcount(folio);
			else if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
				mapcount = folio_precise_page_mapcount(folio, page);
			else
				mapcount = folio_average_page_mapcount(folio);
		}
		if (copy_to_user(ubuf + done, &mapcount, 8))
			return done ? (long)done : -EFAULT;
		done += 8;
		f->pos += 8;
	}
	return done;
}

/* /proc/self/{pagemap,status} or /proc/<pid>/...: bind to that mm now. */
static bool proc_pid_lookup(const char *path, struct file *f)
{
	const char *rest;
	struct task_struct *t;

	if (strncmp(path, "proc/", 5))
		return false;
	path += 5;
	if (!strncmp(path, "self/", 5)) {
		t = current;
		rest = path + 5;
	} else {
		t = find_task(simple_strtoul(path, &rest, 10));
		if (!t || *rest++ != '/')
			return false;
	}
	if (!t->mm)
		return false;
	if (!strcmp(rest, "pagemap")) {
		f->type = FILE_PROC_BIN;
		f->proc_read_bin = pagemap_read;
	} else if (!strcmp(rest, "status")) {
		f->type = FILE_PROC;
		f->proc_show = status_show;
		f->proc_arg = t->pid;
		strlcpy(f->proc_comm, t->comm, sizeof(f->proc_comm));
	} else {
		return false;
	}
	f->mm = t->mm;
	mmgrab(f->mm);
	return true;
}

/* /proc/folio/<pfn>: any PFN of RAM that the buddy manages. */
static bool proc_folio_lookup(const char *path, struct file *f)
{
	const char *end;
	unsigned long pfn;

	if (strncmp(path, "proc/folio/", 11))
		return false;
	pfn = simple_strtoul(path + 11, &end, 10);
	if (end == path + 11 || *end || pfn >= max_pfn || PageReserved(pfn_to_page(pfn)))
		return false;
	f->type = FILE_PROC;
	f->proc_show = folio_show;
	f->proc_arg = pfn;
	return true;
}

void proc_release(struct file *f)
{
	kfree(f->proc_buf);
	if (f->mm)
		mmdrop(f->mm);
}

/* Fill f for a /proc path (without the leading '/'); false if there is none. */
bool proc_lookup(const char *path, struct file *f)
{
	if (!strcmp(path, "proc/kpagecount")) {
		f->type = FILE_PROC_BIN;
		f->proc_read_bin = kpagecount_read;
		return true;
	}
	if (proc_pid_lookup(path, f) || proc_folio_lookup(path, f) || sysfs_lookup(path, f))
		return true;
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
		f->proc_len = MIN(f->proc_show(f, f->proc_buf, PROC_BUF), PROC_BUF - 1);
	n = f->pos < f->proc_len ? MIN(count, f->proc_len - f->pos) : 0;
	if (copy_to_user(ubuf, f->proc_buf + f->pos, n))
		return -EFAULT;
	f->pos += n;
	return n;
}

/* A write to a writable generated file (a sysfs knob): one short line. */
long proc_write(struct file *f, const char *ubuf, unsigned long count)
{
	char kbuf[64];
	int ret;

	if (!f->proc_write)
		return -EBADF;
	if (count >= sizeof(kbuf))
		return -EINVAL;
	if (copy_from_user(kbuf, ubuf, count))
		return -EFAULT;
	kbuf[count] = '\0';
	ret = f->proc_write(f, kbuf, count);
	return ret ? ret : (long)count;
}
