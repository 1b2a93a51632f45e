/*
 * What the swap guest tests share (test_swap, test_swap_error): pagemap's
 * swap bits, the counters in /proc and /sys, patterned pages to check data
 * by, MADV_PAGEOUT and the first swap device.  Header-only, as
 * thp_util.h, whose helpers it builds on.
 */
#ifndef USER_SWAP_UTIL_H
#define USER_SWAP_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/swap.h>
#include "thp_util.h"

#ifndef MADV_COLD
#define MADV_COLD       20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT    21
#endif
#define NR_pidfd_open           434
#define NR_process_madvise      440

#define PM_PRESENT      (1ULL << 63)
#define PM_SWAP         (1ULL << 62)
#define SLOT_BATCH_KB   (64 * 4)        /* Linux's SWAP_SLOTS_CACHE_SIZE pages */

/* What the failed parts of one check were, for its TAP line. */
static char why[512];

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static inline void fail(const char *fmt, ...)
{
	size_t len = strlen(why);
	va_list ap;

	if (len + 3 >= sizeof(why))
		return;
	strcpy(why + len, len ? ", " : ": ");
	va_start(ap, fmt);
	vsnprintf(why + len + 2, sizeof(why) - len - 2, fmt, ap);
	va_end(ap);
}

/* One check's line: ok if nothing failed, else the parts that did. */
static inline void check_done(const char *name)
{
	ok(!why[0], "%s%s", name, why);
	why[0] = '\0';
}

/* A whole /proc or /sys file into buf; its length, -1 if unreadable. */
static inline long read_all(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return buf[0] = '\0', -1;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len;
}

/* The number after "key" at the start of a line of path (meminfo, status, vmstat); -1 if none. */
static inline long proc_value(const char *path, const char *key)
{
	static char buf[16384];
	size_t klen = strlen(key);

	if (read_all(path, buf, sizeof(buf)) < 0)
		return -1;
	for (char *p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t'))
			return strtol(p + klen, NULL, 10);
	return -1;
}

static inline long swapfree_kb(void)
{
	return proc_value("/proc/meminfo", "SwapFree:");
}

static inline long vmswap_kb(void)
{
	return proc_value("/proc/self/status", "VmSwap:");
}

static inline long vmstat(const char *key)
{
	return proc_value("/proc/vmstat", key);
}

/* A single number in a sysfs file (a stats counter); -1 if none. */
static inline long sysfs_value(const char *path)
{
	char buf[64];

	return read_all(path, buf, sizeof(buf)) > 0 ? strtol(buf, NULL, 10) : -1;
}

/* The value of "key" (e.g. "Swap:") in the smaps entry of the VMA holding addr; -1 if none. */
static inline long smaps_kb(const void *addr, const char *key)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long start, end, a = (unsigned long)addr;
	char line[256];
	bool in = false;
	long v = -1;

	while (f && v < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = start <= a && a < end;
		else if (in && !strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	}
	if (f)
		fclose(f);
	return v;
}

static inline unsigned long long pagemap_pid(pid_t pid, const void *addr)
{
	char path[64];
	unsigned long long e = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (pread(fd, &e, 8, (unsigned long)addr / PAGE * 8) != 8)
			e = 0;
		close(fd);
	}
	return e;
}

static inline bool is_swapped(unsigned long long e)
{
	return (e & PM_SWAP) && !(e & PM_PRESENT);
}

/* How many of the n pages from p have a swap entry in pid's pagemap (0: this process). */
static inline unsigned long n_swapped_pid(pid_t pid, const char *p, unsigned long n)
{
	unsigned long k = 0;

	for (unsigned long i = 0; i < n; i++)
		k += is_swapped(pid ? pagemap_pid(pid, p + i * PAGE) : pagemap_entry(p + i * PAGE));
	return k;
}

static inline unsigned long n_swapped(const char *p, unsigned long n)
{
	return n_swapped_pid(0, p, n);
}

static inline unsigned long n_present(const char *p, unsigned long n)
{
	unsigned long k = 0;

	for (unsigned long i = 0; i < n; i++)
		k += !!(pagemap_entry(p + i * PAGE) & PM_PRESENT);
	return k;
}

/* Every 8-byte word of n pages from p: a value of seed, page and word. */
static inline uint64_t pattern(int seed, unsigned long page, unsigned long word)
{
	return ((uint64_t)seed * 0x9e3779b97f4a7c15ULL) ^ (page << 20) ^ word;
}

static inline void fill(char *p, unsigned long n, int seed)
{
	for (unsigned long i = 0; i < n; i++)
		for (unsigned long w = 0; w < PAGE / 8; w++)
			((uint64_t *)(p + i * PAGE))[w] = pattern(seed, i, w);
}

/* How many of the n pages from p hold their pattern in full. */
static inline unsigned long n_intact(const char *p, unsigned long n, int seed)
{
	unsigned long k = 0, w;

	for (unsigned long i = 0; i < n; i++) {
		const volatile uint64_t *q = (const volatile uint64_t *)(p + i * PAGE);

		for (w = 0; w < PAGE / 8 && q[w] == pattern(seed, i, w); w++)
			;
		k += w == PAGE / 8;
	}
	return k;
}

/* n pages of private anonymous memory that stay 4 KiB pages. */
static inline char *anon_4k(unsigned long n)
{
	char *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		exit(1);
	}
	madvise(p, n * PAGE, MADV_NOHUGEPAGE);
	return p;
}

/* MADV_PAGEOUT, its return value folded into the check. */
static inline void pageout(char *p, unsigned long len)
{
	if (madvise(p, len, MADV_PAGEOUT))
		fail("MADV_PAGEOUT: %s", strerror(errno));
}

/* n pages of seed's pattern, paged out; a failed check if one did not go to swap. */
static inline char *swapped_pages(unsigned long n, int seed)
{
	char *p = anon_4k(n);

	fill(p, n, seed);
	pageout(p, n * PAGE);
	if (n_swapped(p, n) != n)
		fail("%lu of %lu pages went to swap", n_swapped(p, n), n);
	return p;
}

/* Wait (up to 2 s) for the swap writes in flight: meminfo's Writeback: 0 (no line: none). */
static inline void wait_writeback(void)
{
	for (int i = 0; i < 200 && proc_value("/proc/meminfo", "Writeback:") > 0; i++)
		usleep(10000);
}

/* The swap device /proc/swaps lists first: its name and priority; false if none. */
static inline bool first_swap(char *name, size_t size, int *prio)
{
	char line[256], dev[128], type[32];
	unsigned long sz, used;
	bool found = false;
	FILE *f = fopen("/proc/swaps", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %31s %lu %lu %d", dev, type, &sz, &used, prio) == 5) {
			snprintf(name, size, "%s", dev);
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

/*
 * A swap test's start: /proc and /sys (as Linux's init), and the first
 * swap device into name and *prio; false, with the plan "1..0 # SKIP"
 * printed, if there is none.
 */
static inline bool swap_test_start(char *name, size_t size, int *prio)
{
	mount_proc_sys();
	if (first_swap(name, size, prio))
		return true;
	printf("1..0 # SKIP no swap\n");
	return false;
}

#endif
