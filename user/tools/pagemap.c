/*
 * pagemap: walk a process's memory and print one line per run of pages
 * that sit in one folio: virtual range, PFN range, folio order,
 * pagemap's "mapped exclusively" bit, and what the folio holds (anon,
 * file, shmem: foliOS's /proc/folio; pagemap's PM_FILE bit says "file"
 * elsewhere).  Ranges come from /proc/PID/maps.
 *   pagemap [PID [START END]]     (PID defaults to self; hex addresses)
 */
#include "folio_view.h"

static int pm_fd;

static unsigned long long entry(unsigned long addr)
{
	unsigned long long e = 0;

	if (pread(pm_fd, &e, 8, addr / 4096 * 8) != 8)
		return 0;
	return e;
}

#define PRESENT(e)      ((e) >> 63)
#define PFN(e)          ((e) & ((1ULL << 55) - 1))
#define EXCL(e)         (((e) >> 56) & 1)
#define FILE_PAGE(e)    (((e) >> 61) & 1)

/* Print [start, end) as runs of one folio with one exclusive bit. */
static void walk(unsigned long start, unsigned long end)
{
	unsigned long addr = start;

	while (addr < end) {
		unsigned long long e = entry(addr);
		unsigned long run = addr + 4096;
		struct folio_view v = { .order = -1, .head_pfn = -1, .mapping = "" };

		if (!PRESENT(e)) {
			addr = run;
			continue;
		}
		folio_view_pfn(PFN(e), &v);
		while (run < end) {
			unsigned long long n = entry(run);

			if (!PRESENT(n) || PFN(n) != PFN(e) + (run - addr) / 4096 || EXCL(n) != EXCL(e) ||
			    (v.head_pfn >= 0 && (long)PFN(n) >= v.head_pfn + (1L << v.order)))
				break;
			run += 4096;
		}
		printf("%012lx-%012lx  pfn %#9llx-%#9llx  order %ld  %s  %lu pages  %s\n", addr, run,
		       PFN(e), PFN(e) + (run - addr) / 4096 - 1, v.order,
		       EXCL(e) ? "exclusive" : "shared   ", (run - addr) / 4096,
		       v.mapping[0] ? v.mapping : FILE_PAGE(e) ? "file" : "anon");
		addr = run;
	}
}

int main(int argc, char **argv)
{
	const char *pid = argc > 1 ? argv[1] : "self";
	char path[64], line[256];
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%s/pagemap", pid);
	pm_fd = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	maps = fopen(path, "r");
	if (pm_fd < 0 || !maps) {
		fprintf(stderr, "pagemap: no process %s\n", pid);
		return 1;
	}
	if (argc > 3) {
		walk(strtoul(argv[2], NULL, 16), strtoul(argv[3], NULL, 16));
		return 0;
	}
	while (fgets(line, sizeof(line), maps)) {
		unsigned long s, e;

		if (sscanf(line, "%lx-%lx", &s, &e) == 2)
			walk(s, e);
	}
	fclose(maps);
	return 0;
}
