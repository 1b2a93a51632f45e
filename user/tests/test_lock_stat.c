/*
 * The lock statistics and the validator's files: /proc/lock_stat's row of
 * the folio mapcount bit lock counts an acquisition for each large folio
 * whose mapcount fork and munmap change, /proc/lockdep_stats reports no
 * lock-order problem so far, /proc/lockdep knows the buddy's zone lock, and
 * writing "0" to /proc/lock_stat clears the counts (Linux's lock_stat_write),
 * and reads and faults of cached tmpfs pages take no page-cache tree lock
 * (mapping->i_pages: lookups walk the tree under RCU, as Linux's do).
 * Linux has these files only with CONFIG_LOCK_STAT / CONFIG_LOCKDEP, which
 * Debian's kernel leaves out: there, and on a foliOS built LOCKDEP=0
 * ("debug_locks: 0") for the lockdep files, the checks are skipped.
 */
#include "tap.h"
#include "thp_util.h"
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define REGION (1UL << 20)      /* 16 folios of 64 KiB */

/* The acquisitions column of /proc/lock_stat's row for the lock class name, or -1. */
static long lock_acquisitions(const char *name)
{
	static char buf[65536];
	unsigned long contentions, acq;
	unsigned long long wait;
	char key[64], *row;

	snprintf(key, sizeof(key), " %s:", name);        /* the name is right-aligned */
	if (read_text("/proc/lock_stat", buf, sizeof(buf)) || !(row = strstr(buf, key)))
		return -1;
	if (sscanf(row + strlen(key), "%lu %llu %lu", &contentions, &wait, &acq) != 3)
		return -1;
	return (long)acq;
}

static long mapcount_lock_acquisitions(void)
{
	return lock_acquisitions("folio mapcount bit lock");
}

static void check_bit_lock_counted(void)
{
	long before = mapcount_lock_acquisitions(), after;
	char *p;
	pid_t pid;

	if (before < 0) {
		skip("no /proc/lock_stat with the mapcount bit lock");
		return;
	}
	thp_only(64);
	p = map_aligned(REGION, 64 << 10);
	if (!p) {
		ok(0, "mmap 1 MiB");
		return;
	}
	memset(p, 1, REGION);
	pid = fork();
	if (pid == 0)
		_exit(0);
	ok(wait_exit(pid) == 0, "fork and exit of a child sharing 16 64K folios");
	munmap(p, REGION);
	thp_only(0);
	after = mapcount_lock_acquisitions();
	ok(after - before >= 3 * 16, "mapcount bit lock: %ld acquisitions for fork, exit, munmap "
	   "of 16 folios (at least 48)", after - before);
}

/* After "0" is written, the bit lock's row starts again from (nearly) zero. */
static void check_lock_stat_clear(void)
{
	long before = mapcount_lock_acquisitions(), after;

	if (before < 0) {
		skip("no /proc/lock_stat with the mapcount bit lock");
		return;
	}
	ok(write_text("/proc/lock_stat", "0") == 0, "write \"0\" to /proc/lock_stat");
	after = mapcount_lock_acquisitions();
	ok(before >= 48 && after >= 0 && after < 16,
	   "mapcount bit lock acquisitions %ld before the clear, %ld after", before, after);
}

#define CACHED_PAGES 64

/*
 * Reads and read faults of cached tmpfs pages: each looks its page up in
 * the page cache, and not one takes the tree's lock (a dozen spare for
 * what other tasks may do meanwhile).  With lookups under xa_lock, as
 * before RCU, each would count one.
 */
static void check_lookups_lockless(void)
{
	char path[] = "/tmp/lock_stat-XXXXXX", c;
	long before, after, sum = 0;
	int fd = mkstemp(path);
	char *map;

	if (fd < 0 || ftruncate(fd, CACHED_PAGES * 4096L)) {
		ok(0, "a tmpfs file of 64 pages");
		return;
	}
	unlink(path);
	for (int i = 0; i < CACHED_PAGES; i++)
		pwrite(fd, "x", 1, i * 4096L);
	map = mmap(NULL, CACHED_PAGES * 4096L, PROT_READ, MAP_SHARED, fd, 0);
	before = lock_acquisitions("mapping->i_pages");
	if (before < 0 || map == MAP_FAILED) {
		skip("no /proc/lock_stat row of mapping->i_pages");
		close(fd);
		return;
	}
	for (int round = 0; round < 4; round++)
		for (int i = 0; i < CACHED_PAGES; i++)
			sum += pread(fd, &c, 1, i * 4096L) == 1 && c == 'x';
	for (int i = 0; i < CACHED_PAGES; i++)
		sum += map[i * 4096L] == 'x';
	after = lock_acquisitions("mapping->i_pages");
	ok(sum == 5 * CACHED_PAGES && after - before < 12,
	   "%ld reads and faults of cached pages: %ld acquisitions of the tree lock (under 12)",
	   sum, after - before);
	munmap(map, CACHED_PAGES * 4096L);
	close(fd);
}

static void check_lockdep_files(void)
{
	static char buf[65536];

	char *on;

	if (read_text("/proc/lockdep_stats", buf, sizeof(buf))) {
		skip("no /proc/lockdep_stats (no lock validator)");
		return;
	}
	on = strstr(buf, "debug_locks:");
	if (on && atoi(on + strlen("debug_locks:")) == 0) {
		skip("the lock validator is off (a LOCKDEP=0 kernel)");
		return;
	}
	ok(on && strstr(buf, "lock-classes:"), "/proc/lockdep_stats: lock classes and debug_locks");
	ok(!read_text("/proc/lockdep", buf, sizeof(buf)) && strstr(buf, ": zone\n"),
	   "/proc/lockdep lists the zone lock's class");
}

int main(void)
{
	mount_proc_sys();
	check_bit_lock_counted();
	check_lock_stat_clear();
	check_lookups_lockless();
	check_lockdep_files();
	return tap_done();
}
