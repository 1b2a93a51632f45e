/*
 * foliostat: the folio behind a PFN or behind a process's virtual address,
 * from foliOS's /proc/folio/<pfn>: order, refcount, every mapcount, both MM
 * ID slots with the PIDs owning them, the "maybe mapped shared" bit, and
 * which of its pages are PageAnonExclusive; for a page-cache folio (a
 * file's or shmem's) its inode and the pages of the file it holds.
 *   foliostat PFN            (decimal or 0x…)
 *   foliostat PID ADDR       (PID "self" works too)
 */
#include "folio_view.h"

/* The PFN a process maps at addr, 0 if none. */
static unsigned long pfn_at(const char *pid, unsigned long addr)
{
	char path[64];
	unsigned long long e = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/pagemap", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, &e, 8, addr / 4096 * 8) != 8)
		e = 0;
	if (fd >= 0)
		close(fd);
	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

/* "0-15" style ranges of the folio's pages that are AnonExclusive. */
static void print_exclusive(const struct folio_view *v)
{
	long n = 1L << v->order, start = -1, count = 0;

	printf("anon exclusive:   ");
	for (long i = 0; i <= n; i++) {
		struct folio_view p;
		int excl = i < n && !folio_view_pfn(v->head_pfn + i, &p) && p.anon_exclusive == 1;

		if (excl && start < 0)
			start = i;
		if (!excl && start >= 0) {
			printf("%s%ld", count ? "," : "", start);
			if (i - 1 > start)
				printf("-%ld", i - 1);
			count += i - start;
			start = -1;
		}
	}
	printf("%s (%ld of %ld pages)\n", count ? "" : "none", count, n);
}

/* A page-cache folio (or none): its file and place in it; shared-ness is only counted. */
static void print_cached(const struct folio_view *v, unsigned long pfn)
{
	long first = v->index - (long)(pfn - v->head_pfn);

	if (!strcmp(v->mapping, "file") || !strcmp(v->mapping, "shmem"))
		printf("page cache:       %s inode %ld, file pages %ld-%ld (this one %ld)\n",
		       v->mapping, v->inode, first, first + (1L << v->order) - 1, v->index);
	else
		printf("mapping:          %s\n", v->mapping[0] ? v->mapping : "?");
	printf("maybe shared:     %s\n", v->shared ? "yes (more than one mm may map it)" :
	       "no (at most one mm maps it)");
}

int main(int argc, char **argv)
{
	struct folio_view v;
	unsigned long pfn;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: foliostat PFN | foliostat PID ADDR\n");
		return 2;
	}
	pfn = argc == 2 ? strtoul(argv[1], NULL, 0) : pfn_at(argv[1], strtoul(argv[2], NULL, 0));
	if (!pfn || folio_view_pfn(pfn, &v)) {
		fprintf(stderr, "foliostat: nothing mapped there, or no such PFN\n");
		return 1;
	}
	printf("pfn %#lx: page %ld of a folio at pfn %#lx, order %ld (%ld KiB)\n", pfn,
	       (long)(pfn - v.head_pfn), (unsigned long)v.head_pfn, v.order, 4L << v.order);
	printf("refcount %ld, large mapcount %ld, ", v.refcount, v.large_mapcount);
	if (v.mapcount_pages)
		printf("total mapped pages %ld (PMD mappings %ld)", v.total_mapped_pages,
		       (v.total_mapped_pages - v.large_mapcount) / 511);
	else
		printf("entire mapcount %ld", v.entire_mapcount);
	if (v.nr_pages_mapped >= 0)
		printf(", nr_pages_mapped %ld, this page's mapcount %ld", v.nr_pages_mapped,
		       v.page_mapcount);
	printf("\n");
	for (int i = 0; i < 2; i++)
		printf("slot %d:           %s mm %ld (pid %ld) with %ld mappings\n", i,
		       v.mm_id[i] ? "" : "free,", v.mm_id[i], v.mm_id_pid[i], v.mm_id_mapcount[i]);
	if (strcmp(v.mapping, "anon")) {
		print_cached(&v, pfn);
		return 0;
	}
	printf("maybe shared:     %s\n", v.shared ? "yes (a write must copy)" :
	       "no (one mm maps it: a write may reuse)");
	printf("partially mapped: %s\n", v.partially_mapped == 1 ? "yes (queued for deferred split)" : "no");
	print_exclusive(&v);
	return 0;
}
