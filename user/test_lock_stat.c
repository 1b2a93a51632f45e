/*
 * The lock statistics and the validator's files: /proc/lock_stat's row of
 * the folio mapcount bit lock counts an acquisition for each large folio
 * whose mapcount fork and munmap change, /proc/lockdep_stats reports no
 * lock-order problem so far, /proc/lockdep knows the buddy's zone lock, and
 * writing "0" to /proc/lock_stat clears the counts (Linux's lock_stat_write).
 * Linux has these files only with CONFIG_LOCK_STAT / CONFIG_LOCKDEP, which
 * Debian's kernel leaves out: there, and on a foliOS built LOCKDEP=0
 * ("debug_locks: 0") for the lockdep files, the checks are skipped.
 */
#include "tap.h"
#include "thp_util.h"
#include <string.h>
#include <sys/wait.h>

#define REGION (1UL << 20)      /* 16 folios of 64 KiB */

/* The acquisitions column of the mapcount bit lock's row, or -1. */
static long mapcount_lock_acquisitions(void)
{
	static char buf[16384];
	unsigned long contentions, acq;
	unsigned long long wait;
	char *row;

	if (read_text("/proc/lock_stat", buf, sizeof(buf)) ||
	    !(row = strstr(buf, "folio mapcount bit lock:")))
		return -1;
	if (sscanf(row + strlen("folio mapcount bit lock:"), "%lu %llu %lu",
		   &contentions, &wait, &acq) != 3)
		return -1;
	return (long)acq;
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
	check_lockdep_files();
	return tap_done();
}
