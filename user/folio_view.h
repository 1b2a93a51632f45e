/*
 * foliOS's folio view /proc/folio/<pfn>, parsed into a struct, and plain
 * whole-file reads and writes; shared by the tools (foliostat, pagemap),
 * the large-folio tests and runtests.  Header-only.
 */
#ifndef USER_FOLIO_VIEW_H
#define USER_FOLIO_VIEW_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

/*
 * Whole-file read and write with open/read/write into the caller's buffer,
 * no stdio (and so no malloc: runtests depends on that).  0 or -1.
 */
static inline int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? 0 : -1;
}

static inline int write_text(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int ok_ = fd >= 0 && write(fd, s, strlen(s)) == (ssize_t)strlen(s);

	if (fd >= 0)
		close(fd);
	return ok_ ? 0 : -1;
}

/* foliOS's /proc/folio/<pfn>, parsed; -1 fields if absent. */
struct folio_view {
	long pfn, head_pfn, order, refcount, large_mapcount, entire_mapcount;
	long total_mapped_pages;                /* pages mapped, over all mappings */
	long nr_pages_mapped, page_mapcount;    /* -1 without CONFIG_PAGE_MAPCOUNT */
	int mapcount_pages;                     /* the RFC's scheme: no entire_mapcount */
	long mm_id[2], mm_id_pid[2], mm_id_mapcount[2];
	long shared, anon_exclusive, partially_mapped;
	char mapping[8];                        /* "anon", "file", "shmem", "none"; "" if absent */
	long inode, index;                      /* a page-cache folio's file, this page's offset */
};

static inline long fv_field(const char *buf, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s: ", key);
	if (!strncmp(buf, pat + 1, strlen(pat + 1)))
		return strtol(buf + strlen(pat + 1), NULL, 10);
	p = strstr(buf, pat);
	return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

static inline int folio_view_pfn(unsigned long pfn, struct folio_view *v)
{
	char path[64], buf[1024];
	const char *p;

	snprintf(path, sizeof(path), "/proc/folio/%lu", pfn);
	if (read_text(path, buf, sizeof(buf)))
		return -1;
	v->pfn = fv_field(buf, "pfn");
	v->head_pfn = fv_field(buf, "head_pfn");
	v->order = fv_field(buf, "order");
	v->refcount = fv_field(buf, "refcount");
	v->large_mapcount = fv_field(buf, "large_mapcount");
	v->entire_mapcount = fv_field(buf, "entire_mapcount");
	v->total_mapped_pages = fv_field(buf, "total_mapped_pages");
	/*
	 * The RFC's scheme keeps no entire mapcount: a PMD-sized folio's PMD
	 * mappings follow from its counts (each adds 511 more pages than
	 * mappings).
	 */
	v->mapcount_pages = v->entire_mapcount < 0;
	if (v->mapcount_pages)
		v->entire_mapcount = v->order == 9 ?
				     (v->total_mapped_pages - v->large_mapcount) / 511 : 0;
	v->nr_pages_mapped = fv_field(buf, "nr_pages_mapped");
	v->page_mapcount = fv_field(buf, "page_mapcount");
	v->mm_id[0] = fv_field(buf, "mm_id0");
	v->mm_id[1] = fv_field(buf, "mm_id1");
	v->mm_id_mapcount[0] = fv_field(buf, "mm_id0_mapcount");
	v->mm_id_mapcount[1] = fv_field(buf, "mm_id1_mapcount");
	for (int i = 0; i < 2; i++) {
		char key[16];

		snprintf(key, sizeof(key), "\nmm_id%d: ", i);
		p = strstr(buf, key);
		p = p ? strstr(p, "[pid ") : NULL;
		v->mm_id_pid[i] = p ? strtol(p + 5, NULL, 10) : -1;
	}
	v->shared = fv_field(buf, "maybe_mapped_shared");
	v->anon_exclusive = fv_field(buf, "anon_exclusive");
	v->partially_mapped = fv_field(buf, "partially_mapped");
	v->inode = fv_field(buf, "inode");
	v->index = fv_field(buf, "index");
	p = strstr(buf, "\nmapping: ");
	v->mapping[0] = '\0';
	if (p)
		sscanf(p + 10, "%7s", v->mapping);
	return 0;
}

#endif
