/*
 * Guest test (TAP): the virtio disk as a block special file, as Linux 6.1
 * has it — /dev/vda (run-qemu.sh --swap 64M) holds util-linux mkswap's
 * header (SWAPSPACE2, version 1, last_page matching /sys/block/vda/size),
 * fstat says block device with st_size 0 and /sys's major:minor,
 * BLKGETSIZE64 and BLKGETSIZE give the size; byte-granular writes (aligned,
 * unaligned, across 64 KiB chunks) read back exactly, neighbours untouched;
 * four threads write and read disjoint areas at once (several requests in
 * flight); a one-byte write's read-modify-write does not undo a
 * whole-sector write of the same sector; fsync flushes; reads at or past the end return 0, across it
 * short; writes at or past the end ENOSPC, across it short; lseek past
 * the end EINVAL; the data is there after a second open.  Without
 * /dev/vda it skips.  Runs unchanged on Linux (linux-peer.sh --swap 64M,
 * whose init swaps the disk on: the test swaps it off first, since Linux
 * refuses writes to an active swap device with ETXTBSY).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include "tap.h"

#ifndef BLKGETSIZE64                            /* musl has them in <sys/mount.h> */
#define BLKGETSIZE      0x1260                  /* _IO(0x12, 96) */
#define BLKGETSIZE64    0x80081272              /* _IOR(0x12, 114, size_t) */
#endif
#define DISK            "/dev/vda"
#define MODEL_AT        (1 << 20)               /* the area the model tracks … */
#define MODEL_LEN       (256 << 10)             /* … 256 KiB of it */
#define THREAD_AT       (4 << 20)               /* each thread's 1 MiB from here */
#define NR_THREADS      4
#define RACE_AT         (8 << 20)               /* the sector two writers share */
#define RACE_WRITES     400

static int fd;
static off_t disk_size;
static unsigned char model[MODEL_LEN];

/* The first line of a /sys file, without its newline, or "" */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f && fgets(buf, size, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* Is DISK in /proc/swaps (Linux's peer swapped it on)? */
static int disk_in_swaps(void)
{
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/swaps", "r");

	while (f && fgets(line, sizeof(line), f))
		found |= !strncmp(line, DISK " ", strlen(DISK) + 1);
	if (f)
		fclose(f);
	return found;
}

static void fill(unsigned char *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(seed * 131 + i * 7 + (i >> 9));
}

static void test_header(void)
{
	static unsigned char page[4096];
	char sys[64], dev[32];
	struct stat st;
	uint64_t bytes = 0;
	unsigned long sectors = 0;

	read_line("/sys/block/vda/size", sys, sizeof(sys));
	read_line("/sys/block/vda/dev", dev, sizeof(dev));
	unsigned long long sys_sectors = strtoull(sys, NULL, 10);
	ok(sys_sectors > 0, "/sys/block/vda/size: %s sectors", sys);
	ok(pread(fd, page, sizeof(page), 0) == sizeof(page), "the first page reads");
	ok(!memcmp(page + 4086, "SWAPSPACE2", 10), "mkswap's SWAPSPACE2 at 4086");
	uint32_t version, last_page;
	memcpy(&version, page + 1024, 4);
	memcpy(&last_page, page + 1028, 4);
	ok(version == 1, "swap header version %u", version);
	ok(last_page == sys_sectors / 8 - 1, "last_page %u = size / 8 - 1", last_page);
	int err = fstat(fd, &st);
	ok(!err && S_ISBLK(st.st_mode) && st.st_size == 0,
	   "fstat: a block device, st_size 0 (mode %o)", (unsigned int)st.st_mode);
	snprintf(sys, sizeof(sys), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	ok(!strcmp(sys, dev), "st_rdev %s = /sys/block/vda/dev %s", sys, dev);
	err = ioctl(fd, BLKGETSIZE64, &bytes);
	ok(!err && bytes == sys_sectors * 512, "BLKGETSIZE64: %llu bytes", (unsigned long long)bytes);
	err = ioctl(fd, BLKGETSIZE, &sectors);
	ok(!err && sectors == sys_sectors, "BLKGETSIZE: %lu sectors", sectors);
	disk_size = bytes;
	ok(lseek(fd, 0, SEEK_END) == disk_size, "lseek(SEEK_END) is the size");
	errno = 0;
	ok(lseek(fd, 1, SEEK_END) == -1 && errno == EINVAL, "lseek past the end: EINVAL");
	lseek(fd, 0, SEEK_SET);
}

/* Write len bytes of seed's pattern at MODEL_AT + off, in the model too. */
static int model_write(size_t off, size_t len, unsigned int seed)
{
	fill(model + off, len, seed);
	return pwrite(fd, model + off, len, MODEL_AT + off) == (ssize_t)len;
}

/* Does [off, off + len) of the disk read back as the model? */
static int model_check(size_t off, size_t len)
{
	static unsigned char buf[MODEL_LEN];

	return pread(fd, buf, len, MODEL_AT + off) == (ssize_t)len && !memcmp(buf, model + off, len);
}

static void test_patterns(void)
{
	ok(model_write(0, MODEL_LEN, 1) && model_check(0, MODEL_LEN),
	   "256 KiB written at 1 MiB read back (sector-aligned, several 64 KiB chunks)");
	ok(model_write(4096 + 3, 1000, 2) && model_check(0, MODEL_LEN),
	   "1000 bytes at an odd offset: those bytes changed, the sectors' other bytes not");
	ok(model_write(510, 4, 3) && model_check(0, 8192), "4 bytes across a sector boundary");
	ok(model_write(70000 + 1, 130001, 4) && model_check(0, MODEL_LEN),
	   "130001 bytes from an odd offset, across chunks");
	ok(model_check(12345, 1) && model_check(511, 2) && model_check(100000 + 7, 77777),
	   "unaligned reads (1, 2 and 77777 bytes) match");
	ok(fsync(fd) == 0 && fdatasync(fd) == 0, "fsync and fdatasync: 0");
}

static void *thread_rw(void *arg)
{
	long t = (long)arg, bad = 0;
	static unsigned char wbuf[NR_THREADS][40000], rbuf[NR_THREADS][40000];

	for (int i = 0; i < 24; i++) {
		off_t at = THREAD_AT + (t << 20) + i * 40000 + (i % 3) * 3;
		size_t len = i % 2 ? 40000 - (i % 3) * 3 : 4096 * 8;

		fill(wbuf[t], len, t * 100 + i);
		if (pwrite(fd, wbuf[t], len, at) != (ssize_t)len ||
		    pread(fd, rbuf[t], len, at) != (ssize_t)len || memcmp(wbuf[t], rbuf[t], len))
			bad++;
	}
	return (void *)bad;
}

static void test_threads(void)
{
	pthread_t th[NR_THREADS];
	long bad = 0;

	for (long t = 0; t < NR_THREADS; t++)
		pthread_create(&th[t], NULL, thread_rw, (void *)t);
	for (int t = 0; t < NR_THREADS; t++) {
		void *r;

		pthread_join(th[t], &r);
		bad += (long)r;
	}
	ok(!bad, "%d threads write and read back disjoint areas at once: %ld bad", NR_THREADS, bad);
	int still = 1;
	for (long t = 0; t < NR_THREADS; t++) {
		static unsigned char want[40000], got[40000];
		off_t at = THREAD_AT + (t << 20) + 23 * 40000 + 2 * 3;
		size_t len = 40000 - 2 * 3;

		fill(want, len, t * 100 + 23);
		still &= pread(fd, got, len, at) == (ssize_t)len && !memcmp(want, got, len);
	}
	ok(still, "each thread's last write is still there after all joined");
}

static volatile int race_stop;

/* Write byte 0 of the RACE_AT sector, over and over (a read-modify-write). */
static void *byte_writer(void *arg __attribute__((unused)))
{
	char c = 'x';
	long bad = 0;

	while (!race_stop)
		bad += pwrite(fd, &c, 1, RACE_AT) != 1;
	return (void *)bad;
}

/*
 * A one-byte write and whole-sector writes of one sector at once: each
 * whole-sector write's bytes 1-511 (which the one-byte writer never
 * writes) must read back after it returns, not be undone by the other's
 * read-modify-write (Linux serializes the two on the page cache's folio).
 */
static void test_rmw_race(void)
{
	unsigned char buf[512], got[512];
	pthread_t th;
	long lost = 0, bad;

	race_stop = 0;
	pthread_create(&th, NULL, byte_writer, NULL);
	for (int g = 0; g < RACE_WRITES; g++) {
		memset(buf, g & 0xff, sizeof(buf));
		if (pwrite(fd, buf, 512, RACE_AT) != 512 || pread(fd, got, 512, RACE_AT) != 512 ||
		    memcmp(buf + 1, got + 1, 511))
			lost++;
	}
	race_stop = 1;
	pthread_join(th, (void **)&bad);
	ok(!lost && !bad, "a 1-byte and %d whole-sector writes of one sector at once: %ld lost",
	   RACE_WRITES, lost);
}

static void test_end(void)
{
	static char buf[8192];

	memset(buf, 'e', sizeof(buf));
	ok(pread(fd, buf, 100, disk_size) == 0, "read at the end: 0");
	ok(pread(fd, buf, 100, disk_size + 4096) == 0, "read past the end: 0");
	ok(pread(fd, buf, sizeof(buf), disk_size - 100) == 100, "read across the end: short (100)");
	errno = 0;
	ok(pwrite(fd, buf, 100, disk_size) == -1 && errno == ENOSPC, "write at the end: ENOSPC");
	errno = 0;
	ok(pwrite(fd, buf, 100, disk_size + 4096) == -1 && errno == ENOSPC, "write past the end: ENOSPC");
	ok(pwrite(fd, buf, 0, disk_size) == 0, "write of 0 bytes at the end: 0");
	ok(pwrite(fd, buf, sizeof(buf), disk_size - 100) == 100, "write across the end: short (100)");
	ok(lseek(fd, 0, SEEK_END) == disk_size && write(fd, buf, 10) == -1 && errno == ENOSPC &&
	   read(fd, buf, 10) == 0, "write(2) and read(2) at the end after lseek: ENOSPC, 0");
	errno = 0;
	ok(pread(fd, buf, 10, -1) == -1 && errno == EINVAL, "read at a negative offset: EINVAL");
	errno = 0;
	ok(ioctl(fd, 0x1234, 0) == -1 && errno == ENOTTY, "an unknown ioctl: ENOTTY");
}

static void test_reopen(void)
{
	int rd;

	close(fd);
	fd = rd = open(DISK, O_RDONLY);
	ok(rd >= 0, "opened again, read-only");
	ok(model_check(0, MODEL_LEN), "the 256 KiB area reads back as written");
	errno = 0;
	ok(write(rd, model, 10) == -1 && errno == EBADF, "write on a read-only fd: EBADF");
	close(rd);
}

int main(void)
{
	bool was_swap;

	mount_proc_sys();
	if (access(DISK, F_OK)) {
		skip("no " DISK ": boot with run-qemu.sh --swap 64M");
		return tap_done();
	}
	was_swap = disk_in_swaps();
	ok(!was_swap || !swapoff(DISK), "the disk is not in use as swap (swapoff if it was)");
	fd = open(DISK, O_RDWR);
	ok(fd >= 0, "open " DISK " read-write: %s", fd >= 0 ? "ok" : strerror(errno));
	if (fd < 0)
		return tap_done();
	test_header();
	test_patterns();
	test_threads();
	test_rmw_race();
	test_end();
	test_reopen();
	close(fd);
	ok(!was_swap || !swapon(DISK, 0), "the disk swapped on again as it was (its header intact)");
	return tap_done();
}
