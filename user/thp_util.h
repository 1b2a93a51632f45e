/*
 * What the large-folio guest tests share: the THP knobs, and
 * the views into the kernel a test asserts on — pagemap (PFN, exclusive
 * bit), /proc/kpagecount, /proc/meminfo and foliOS's folio view
 * /proc/folio/<pfn>.  Header-only, so each test stays one program.
 */
#ifndef USER_THP_UTIL_H
#define USER_THP_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "folio_view.h"
#include "tap.h"

#define PAGE            4096UL
#define PMD_SIZE        (2UL << 20)
#define THP_DIR         "/sys/kernel/mm/transparent_hugepage/"

/* Set the top-level knob (kb == 0) or hugepages-<kb>kB/enabled. */
static inline int thp_set(unsigned long kb, const char *mode)
{
	char path[128];

	if (!kb)
		return write_text(THP_DIR "enabled", mode);
	snprintf(path, sizeof(path), THP_DIR "hugepages-%lukB/enabled", kb);
	return write_text(path, mode);
}

/* Every size "never" but kb "always" (kb == 0: all never); 4096 kB only where it exists. */
static inline void thp_only(unsigned long kb)
{
	for (unsigned long k = 16; k <= 4096; k *= 2)
		thp_set(k, k == kb ? "always" : "never");
}

static inline void split_deferred(void)
{
	write_text(THP_DIR "split_deferred", "1");
}

/* A kB value from /proc/meminfo, or -1. */
static inline long meminfo_kb(const char *key)
{
	char buf[2048], *p;
	size_t klen = strlen(key);

	if (read_text("/proc/meminfo", buf, sizeof(buf)))
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtol(p + klen + 1, NULL, 10);
	return -1;
}

/* A kB value from /proc/self/status (VmRSS, RssAnon), or -1. */
static inline long status_kb(const char *key)
{
	char buf[1024], *p;

	if (read_text("/proc/self/status", buf, sizeof(buf)) || !(p = strstr(buf, key)))
		return -1;
	return strtol(p + strlen(key) + 1, NULL, 10);
}

static inline unsigned long long pagemap_entry(const void *addr)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	unsigned long long e = 0;

	if (fd >= 0) {
		pread(fd, &e, 8, (unsigned long)addr / PAGE * 8);
		close(fd);
	}
	return e;
}

/* The PFN mapping addr, 0 if not present. */
static inline unsigned long pfn_of(const void *addr)
{
	unsigned long long e = pagemap_entry(addr);

	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

static inline int pm_exclusive(const void *addr)
{
	return (pagemap_entry(addr) >> 56) & 1;
}

#define KPF_THP 22

static inline unsigned long long kpageflags(unsigned long pfn)
{
	unsigned long long f = 0;
	int fd = open("/proc/kpageflags", O_RDONLY);

	if (fd >= 0) {
		pread(fd, &f, 8, pfn * 8);
		close(fd);
	}
	return f;
}

static inline long kpagecount(unsigned long pfn)
{
	int fd = open("/proc/kpagecount", O_RDONLY);
	unsigned long long c = 0;

	if (fd >= 0) {
		pread(fd, &c, 8, pfn * 8);
		close(fd);
	}
	return (long)c;
}

static inline int folio_at(const void *addr, struct folio_view *v)
{
	unsigned long pfn = pfn_of(addr);

	memset(v, 0xff, sizeof(*v));
	return pfn ? folio_view_pfn(pfn, v) : -1;
}

/* The slot (0/1) holding this process's mm, or -1. */
static inline int my_slot(const struct folio_view *v)
{
	for (int i = 0; i < 2; i++)
		if (v->mm_id[i] > 0 && v->mm_id_pid[i] == getpid())
			return i;
	return -1;
}

enum mapcount_mode { NO_PAGE_MAPCOUNT, PAGE_MAPCOUNT, MAPCOUNT_PAGES };

/*
 * Which scheme this kernel keeps, from what its folio view shows:
 * page_mapcount (per-page mapcounts), or no entire_mapcount (the RFC's).
 */
static inline enum mapcount_mode mapcount_mode(void)
{
	static int mode = -1;
	struct folio_view v;
	char *p;

	if (mode >= 0)
		return mode;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p[0] = 1;
	mode = NO_PAGE_MAPCOUNT;
	if (folio_at(p, &v) == 0)
		mode = v.page_mapcount >= 0 ? PAGE_MAPCOUNT :
		       v.mapcount_pages ? MAPCOUNT_PAGES : NO_PAGE_MAPCOUNT;
	munmap(p, PAGE);
	return mode;
}

/* Does this kernel keep per-page mapcounts (the folio view shows page_mapcount)? */
static inline int page_mapcount_mode(void)
{
	return mapcount_mode() == PAGE_MAPCOUNT;
}

static inline const char *mapcount_mode_name(void)
{
	static const char *const names[] = { "no-page-mapcount", "page-mapcount", "mapcount-pages" };

	return names[mapcount_mode()];
}

/* len bytes of anon memory starting on an align boundary. */
static inline char *map_aligned(size_t len, size_t align)
{
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	unsigned long a, lead;

	if (p == MAP_FAILED)
		return NULL;
	a = ((unsigned long)p + align - 1) & ~(align - 1);
	lead = a - (unsigned long)p;
	if (lead)
		munmap(p, lead);
	munmap((char *)a + len, align - lead);
	return (char *)a;
}

#define MAPCOUNT_TRACE "/proc/mapcount_trace"

/*
 * A fresh 64 KiB (order-4) anon folio, and the mapcount trace cleared and
 * following just that folio from now on (foliOS's /proc/mapcount_trace).
 */
static inline char *traced_folio(void)
{
	char *p = map_aligned(64 * 1024, 64 * 1024);
	char cmd[64];

	write_text(MAPCOUNT_TRACE, "clear");
	write_text(MAPCOUNT_TRACE, "order 4");
	thp_only(64);
	p[0] = 1;
	thp_only(0);
	snprintf(cmd, sizeof(cmd), "pfn %lu", pfn_of(p));
	write_text(MAPCOUNT_TRACE, cmd);
	return p;
}

/*
 * len bytes of private writable memory, even more than RAM: reserved
 * PROT_NONE (not charged), then made writable half of RAM at a time —
 * like Linux, foliOS refuses one request larger than RAM.  NULL on failure.
 */
static inline char *map_beyond_ram(size_t len)
{
	size_t piece = (size_t)meminfo_kb("MemTotal") / 8 * PAGE;
	char *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (size_t off = 0; off < len; off += piece)
		if (mprotect(p + off, len - off < piece ? len - off : piece, PROT_READ | PROT_WRITE))
			return NULL;
	return p;
}

/* Page i of n from p holds seed + i in its first int. */
static inline void fill_pattern(char *p, unsigned long n, int seed)
{
	for (unsigned long i = 0; i < n; i++)
		*(int *)(p + i * PAGE) = seed + (int)i;
}

/* Does every page but "skip" (n: none) still hold its pattern? */
static inline int check_pattern(const char *p, unsigned long n, int seed, unsigned long skip)
{
	for (unsigned long i = 0; i < n; i++)
		if (i != skip && *(const int *)(p + i * PAGE) != seed + (int)i)
			return 0;
	return 1;
}

/* Are the n pages from p backed by n consecutive PFNs? */
static inline int pfns_contiguous(const char *p, unsigned long n)
{
	unsigned long first = pfn_of(p);

	for (unsigned long i = 1; i < n; i++)
		if (pfn_of(p + i * PAGE) != first + i)
			return 0;
	return first != 0;
}

/* How a child touching addr ends: 0 survived, else the killing signal. */
static inline int touch_in_child(volatile char *addr, int write)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		if (write)
			*addr = 1;
		else
			(void)*addr;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

/* pid's exit status as a shell shows it; -1 for a failed fork's pid (not "any child"). */
static inline int wait_exit(pid_t pid)
{
	int status = -1;

	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Run argv with its stdout and stderr into out (NUL-terminated, at most
 * size - 1 bytes); its exit status as wait_exit() gives it.
 */
static inline int run_output(char *out, size_t size, char *const argv[])
{
	int fds[2];
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	xpipe(fds, 0);
	if (!(pid = fork())) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while (len + 1 < size && (n = read(fds[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(fds[0]);
	return wait_exit(pid);
}

#endif
