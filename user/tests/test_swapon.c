/*
 * Guest test (TAP): swapon(2) and swapoff(2) of the disk run-qemu.sh
 * --swap attaches (/dev/vda, made by mkswap), as Linux 6.1 does them:
 * /proc/swaps in Linux's columns (size = the header's last page, the
 * default priority -2, SWAP_FLAG_PREFER's), SwapTotal/SwapFree in
 * /proc/meminfo and sysinfo's totalswap; while it is on, EBUSY for a
 * second swapon, ETXTBSY for a write to the disk and EBUSY for an O_EXCL
 * open; EINVAL for bad flags, a disk without the signature and a tmpfs
 * file, ENOENT for no file; swapoff of what is not on: EINVAL.  Leaves the
 * disk as it found it.  Skips without the disk.  Runs unchanged on Linux
 * (../shared/peer/linux-peer.sh --swap 64M, whose init swaps it on).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/swap.h>
#include <sys/sysinfo.h>
#include "tap.h"

#define DISK    "/dev/vda"
#define MAGIC   4086            /* "SWAPSPACE2" at the end of the first page */

/* The /proc/swaps line of DISK: its size, use and priority; false if none. */
static bool swaps_line(unsigned long *size, unsigned long *used, int *prio)
{
	char line[256], name[128], type[32];
	FILE *f = fopen("/proc/swaps", "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%127s %31s %lu %lu %d", name, type, size, used, prio) == 5 &&
			!strcmp(name, DISK) && !strcmp(type, "partition");
	fclose(f);
	return found;
}

static long meminfo_kb(const char *key)
{
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			sscanf(line + strlen(key), " %ld", &v);
	if (f)
		fclose(f);
	return v;
}

/* The last usable page mkswap wrote into the header (info.last_page). */
static unsigned long header_last_page(void)
{
	uint32_t last = 0;
	int fd = open(DISK, O_RDONLY);

	if (fd >= 0) {
		pread(fd, &last, 4, 1024 + 4);
		close(fd);
	}
	return last;
}

static void test_on(unsigned long last_page)
{
	unsigned long size, used;
	struct sysinfo si = { 0 };
	long total, free_kb;
	bool listed;
	int prio, fd;

	ok(!swapon(DISK, 0), "swapon");
	listed = swaps_line(&size, &used, &prio);
	ok(listed && size == last_page * 4 && used == 0 && prio == -2,
	   "/proc/swaps: %lu kB (last page %lu), %lu used, priority %d", size, last_page, used,
	   prio);
	total = meminfo_kb("SwapTotal:");
	free_kb = meminfo_kb("SwapFree:");
	ok(total == (long)size && free_kb <= total && free_kb >= 0,
	   "meminfo: SwapTotal %ld kB, SwapFree %ld kB", total, free_kb);
	sysinfo(&si);
	ok(si.totalswap * si.mem_unit == size * 1024,
	   "sysinfo: totalswap %lu", (unsigned long)si.totalswap * si.mem_unit);
	ok(swapon(DISK, 0) == -1 && errno == EBUSY, "a second swapon: EBUSY");
	fd = open(DISK, O_RDWR);
	ok(fd >= 0 && write(fd, "x", 1) == -1 && errno == ETXTBSY, "a write to the disk: ETXTBSY");
	close(fd);
	ok(open(DISK, O_RDONLY | O_EXCL) == -1 && errno == EBUSY, "an O_EXCL open: EBUSY");
	ok(!swapoff(DISK) && !swaps_line(&size, &used, &prio) && meminfo_kb("SwapTotal:") == 0,
	   "swapoff: gone from /proc/swaps, SwapTotal 0");
	ok(swapoff(DISK) == -1 && errno == EINVAL, "swapoff again: EINVAL");
}

static void test_prio(void)
{
	unsigned long size, used;
	int prio = 0;
	bool on = !swapon(DISK, SWAP_FLAG_PREFER | 7) && swaps_line(&size, &used, &prio);

	ok(on && prio == 7, "SWAP_FLAG_PREFER | 7: priority %d", prio);
	ok(!swapoff(DISK), "swapoff");
}

static void test_errors(void)
{
	int fd = open("/dev/shm/swapfile", O_CREAT | O_RDWR | O_TRUNC, 0600);
	char page[4096] = { 0 }, magic[10];

	ok(swapon(DISK, 0x80000) == -1 && errno == EINVAL, "an unknown flag: EINVAL");
	ok(swapon("/nonexistent", 0) == -1 && errno == ENOENT, "no such file: ENOENT");
	memcpy(page + MAGIC, "SWAPSPACE2", 10);
	*(uint32_t *)(page + 1024) = 1;
	*(uint32_t *)(page + 1028) = 15;
	ok(fd >= 0 && write(fd, page, sizeof(page)) == sizeof(page) && !ftruncate(fd, 16 * 4096) &&
	   swapon("/dev/shm/swapfile", 0) == -1 && errno == EINVAL,
	   "a tmpfs file with a swap header: EINVAL");
	close(fd);
	unlink("/dev/shm/swapfile");
	fd = open(DISK, O_RDWR);
	ok(fd >= 0 && pread(fd, magic, 10, MAGIC) == 10 && pwrite(fd, "XXXXXXXXXX", 10, MAGIC) == 10 &&
	   swapon(DISK, 0) == -1 && errno == EINVAL, "the signature overwritten: EINVAL");
	ok(pwrite(fd, magic, 10, MAGIC) == 10 && !swapon(DISK, 0) && !swapoff(DISK),
	   "the signature back: swapon works again");
	close(fd);
	ok(swapoff("/dev/null") == -1 && errno == EINVAL, "swapoff of what is no swap: EINVAL");
}

int main(void)
{
	unsigned long size, used, last_page;
	bool was_on;
	int prio;

	mount_proc_sys();
	if (access(DISK, F_OK)) {
		skip("no " DISK " (run-qemu.sh --swap)");
		return tap_done();
	}
	was_on = swaps_line(&size, &used, &prio);
	ok(!was_on || !swapoff(DISK), "the disk off to begin with (it was %s)", was_on ? "on" : "off");
	last_page = header_last_page();
	ok(last_page > 0, "mkswap's header: last page %lu", last_page);
	test_on(last_page);
	test_prio();
	test_errors();
	if (was_on)
		swapon(DISK, 0);
	return tap_done();
}
