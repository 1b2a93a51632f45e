/*
 * Guest test (TAP): shmem to swap and back, as Linux 6.1 does it, driven
 * by MADV_PAGEOUT on shared mappings: a tmpfs file's pages leave memory
 * (Shmem: falls, SwapFree falls, no PTE maps them) and come back through
 * a fault, read(2), write(2) into part of a page, and lseek(SEEK_DATA)
 * still calls them data; mincore says resident only for what the swap
 * cache holds; a 2 MiB shmem THP is split and goes too; MAP_SHARED
 * anonymous memory stays shared with a child after swap; truncation and a
 * punched hole free the slots; a memfd in swap can be sealed; a program
 * whose file is in swap runs; swapoff brings a file's pages back; and a
 * tmpfs file larger than RAM is written and read back whole through a
 * shared mapping (reclaim under memory pressure takes its pages to swap:
 * nothing asks for it).  The last check needs more swap than RAM and
 * skips otherwise (make test boots --mem 64M --swap 128M for it).
 * Every check needs shmem pages to reach swap, so each fails on a kernel
 * that keeps them in memory; without a swap device the test skips.  Runs
 * unchanged on Linux (../shared/peer/linux-peer.sh --mounts --swap 64M).
 *
 * Linux details the checks allow for: after MADV_PAGEOUT a page may sit
 * in the swap cache under writeback (mincore may say resident, Shmem:
 * does not count it); the per-CPU swap slot cache takes and returns slots
 * 64 at a time, so SwapFree moves in 256 kB steps.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "swap_util.h"

#ifndef MIN
#define MIN(a, b)       ((a) < (b) ? (a) : (b))
#endif

#define DIR     "/tmp/shmem_swap"
#define NPAGES  256                     /* 1 MiB */

static long meminfo(const char *key)
{
	return proc_value("/proc/meminfo", key);
}

/* A new tmpfs file of n pages, mapped shared, filled with seed's pattern; its fd in *fd. */
static char *shared_file(const char *name, unsigned long n, int seed, int *fd)
{
	char *p;

	*fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (*fd < 0 || ftruncate(*fd, n * PAGE)) {
		printf("Bail out! %s: %s\n", name, strerror(errno));
		exit(1);
	}
	p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED) {
		printf("Bail out! mmap %s: %s\n", name, strerror(errno));
		exit(1);
	}
	madvise(p, n * PAGE, MADV_NOHUGEPAGE);
	fill(p, n, seed);
	return p;
}

/* How many of the n pages from p mincore() calls resident. */
static unsigned long n_resident(char *p, unsigned long n)
{
	unsigned char vec[NPAGES * 2];
	unsigned long k = 0;

	if (n > sizeof(vec) || mincore(p, n * PAGE, vec))
		return ~0UL;
	for (unsigned long i = 0; i < n; i++)
		k += vec[i] & 1;
	return k;
}

/* How many of the n pages at offset 0 of fd hold their pattern, read with pread(2). */
static unsigned long n_intact_read(int fd, unsigned long n, int seed)
{
	static char buf[PAGE];
	unsigned long k = 0;

	for (unsigned long i = 0; i < n; i++)
		if (pread(fd, buf, PAGE, i * PAGE) == PAGE) {
			unsigned long w = 0;

			while (w < PAGE / 8 && ((uint64_t *)buf)[w] == pattern(seed, i, w))
				w++;
			k += w == PAGE / 8;
		}
	return k;
}

/*
 * Did a meminfo count move by kb?  Linux's counters are per-CPU, folded
 * into what /proc/meminfo reads only past a threshold, so they may lag by
 * tens of pages: half of kb, at most 256 kB, is let go.
 */
static bool moved_by(long delta, long kb)
{
	return delta >= kb - MIN(kb / 2, 256);
}

/* Page out the n shared pages at p: Shmem: and SwapFree fall by (about) n pages, no PTE stays. */
static void pageout_shared(char *p, unsigned long n)
{
	long shmem = meminfo("Shmem:"), swapfree = swapfree_kb();
	unsigned long kb = n * PAGE / 1024;

	pageout(p, n * PAGE);
	if (!moved_by(shmem - meminfo("Shmem:"), kb))
		fail("Shmem: fell by %ld kB, not %lu", shmem - meminfo("Shmem:"), kb);
	if (swapfree - swapfree_kb() < (long)kb - SLOT_BATCH_KB)
		fail("SwapFree fell by %ld kB, not %lu", swapfree - swapfree_kb(), kb);
	if (n_present(p, n))
		fail("%lu pages still mapped", n_present(p, n));
}

static void test_file_roundtrip(void)
{
	int fd;
	char *p = shared_file(DIR "/a", NPAGES, 1, &fd);
	unsigned long n, res;
	long cached;

	pageout_shared(p, NPAGES);
	if (smaps_kb(p, "Swap:") != NPAGES * 4)
		fail("smaps Swap: %ld kB, not %d", smaps_kb(p, "Swap:"), NPAGES * 4);
	res = n_resident(p, NPAGES);
	cached = meminfo("SwapCached:");
	if (res != ~0UL && !moved_by(cached, res * 4))
		fail("mincore: %lu pages resident, the swap cache holds %ld kB", res, cached);
	if ((n = n_intact(p, NPAGES / 2, 1)) != NPAGES / 2)
		fail("%lu of %d pages intact through the mapping", n, NPAGES / 2);
	if ((n = n_intact_read(fd, NPAGES, 1)) != NPAGES)
		fail("%lu of %d pages intact through read(2)", n, NPAGES);
	if ((n = n_resident(p, NPAGES)) != NPAGES)
		fail("mincore: %lu of %d resident after swap-in", n, NPAGES);
	if (smaps_kb(p, "Swap:") != 0)
		fail("smaps Swap: %ld kB after swap-in", smaps_kb(p, "Swap:"));
	check_done("1 MiB tmpfs file: MADV_PAGEOUT takes it out of memory (Shmem:, SwapFree, smaps "
		   "Swap:, no PTE; mincore only for the swap cache); a fault and read(2) bring it "
		   "back intact");
	munmap(p, NPAGES * PAGE);
	close(fd);
	unlink(DIR "/a");
}

static void test_write_seek(void)
{
	int fd;
	char *p = shared_file(DIR "/b", 16, 2, &fd);
	uint64_t word = 0x5eed5eed5eed5eedULL;
	off_t data;

	pageout_shared(p, 16);
	if (pwrite(fd, &word, 8, 5 * PAGE + 64) != 8)
		fail("pwrite: %s", strerror(errno));
	data = lseek(fd, 3 * PAGE, SEEK_DATA);
	if (data != 3 * PAGE)
		fail("SEEK_DATA from page 3 of a swapped file: %ld", (long)data);
	((uint64_t *)(p + 5 * PAGE))[8] = pattern(2, 5, 8);     /* the pattern back: all intact */
	if (((uint64_t *)(p + 5 * PAGE))[9] != pattern(2, 5, 9) || n_intact(p, 16, 2) != 16)
		fail("%lu of 16 pages intact after a write into a swapped page", n_intact(p, 16, 2));
	check_done("write(2) into part of a swapped-out page keeps the rest; SEEK_DATA sees "
		   "swapped pages as data");
	munmap(p, 16 * PAGE);
	close(fd);
	unlink(DIR "/b");
}

/* Are the bytes [from, to) of page i of p zero (zero: true) or seed's pattern (false)? */
static bool bytes_are(const char *p, unsigned long i, unsigned long from, unsigned long to,
		      bool zero, int seed)
{
	for (unsigned long b = from; b < to; b++) {
		uint64_t w = pattern(seed, i, b / 8);

		if ((unsigned char)p[i * PAGE + b] != (zero ? 0 : ((unsigned char *)&w)[b % 8]))
			return false;
	}
	return true;
}

static void test_truncate_punch(void)
{
	long base = swapfree_kb(), left;
	int fd;
	char *p = shared_file(DIR "/c", NPAGES, 3, &fd);
	off_t hole;

	pageout_shared(p, NPAGES);
	/* whole pages 17..47 go, page 16 from byte 100 on, page 48 up to byte 100 */
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 16 * PAGE + 100, 32 * PAGE))
		fail("PUNCH_HOLE: %s", strerror(errno));
	if ((hole = lseek(fd, 0, SEEK_HOLE)) != 17 * PAGE)
		fail("SEEK_HOLE: %ld, not page 17", (long)hole);
	if (!bytes_are(p, 16, 0, 100, false, 3) || !bytes_are(p, 16, 100, PAGE, true, 3))
		fail("page 16 (punched from byte 100) wrong");
	if (!bytes_are(p, 30, 0, PAGE, true, 3))
		fail("page 30 (punched) not zeros");
	if (!bytes_are(p, 48, 0, 100, true, 3) || !bytes_are(p, 48, 100, PAGE, false, 3))
		fail("page 48 (punched up to byte 100) wrong");
	if (n_intact(p, 16, 3) != 16)
		fail("%lu of the 16 pages before the hole intact", n_intact(p, 16, 3));
	munmap(p, NPAGES * PAGE);
	if (ftruncate(fd, 0))
		fail("ftruncate: %s", strerror(errno));
	wait_writeback();
	if ((left = base - swapfree_kb()) > 2 * SLOT_BATCH_KB)
		fail("%ld kB of swap still used after truncation to 0", left);
	check_done("a punched hole in a swapped-out file reads zeros (partial pages swapped in and "
		   "cut), SEEK_HOLE finds it; truncation gives the swap back");
	close(fd);
	unlink(DIR "/c");
}

/* A 2 MiB file on the huge=always tmpfs at DIR/huge, mapped by a PMD at *map's aligned 2 MiB; NULL if not. */
static char *shmem_thp(const char *name, char **map, int *fd)
{
	char *p;

	*fd = open(name, O_RDWR | O_CREAT, 0600);
	*map = mmap(NULL, 2 * PMD_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p = (char *)(((unsigned long)*map + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	if (*fd < 0 || ftruncate(*fd, PMD_SIZE) || mmap(p, PMD_SIZE, PROT_READ | PROT_WRITE,
							 MAP_SHARED | MAP_FIXED, *fd, 0) != p) {
		ok(0, "a 2 MiB file mapped at 2 MiB: %s", strerror(errno));
		return NULL;
	}
	fill(p, PMD_SIZE / PAGE, 4);
	if (meminfo("ShmemHugePages:") < 2048)
		fail("ShmemHugePages: %ld kB before pageout", meminfo("ShmemHugePages:"));
	return p;
}

static void test_thp(void)
{
	long huge, shmem;
	char *map, *p;
	int fd;

	if (mkdir(DIR "/huge", 0700) || mount("tmpfs", DIR "/huge", "tmpfs", 0, "huge=always")) {
		ok(0, "mount tmpfs huge=always: %s", strerror(errno));
		return;
	}
	if (!(p = shmem_thp(DIR "/huge/f", &map, &fd)))
		return;
	huge = meminfo("ShmemHugePages:");
	shmem = meminfo("Shmem:");
	pageout(p, PMD_SIZE);
	if (meminfo("ShmemHugePages:") > huge - 2048)
		fail("ShmemHugePages: %ld kB after pageout", meminfo("ShmemHugePages:"));
	if (!moved_by(shmem - meminfo("Shmem:"), 2048))
		fail("Shmem: fell by %ld kB", shmem - meminfo("Shmem:"));
	if (n_intact(p, PMD_SIZE / PAGE, 4) != PMD_SIZE / PAGE)
		fail("%lu of 512 pages intact", n_intact(p, PMD_SIZE / PAGE, 4));
	check_done("a 2 MiB shmem THP mapped by a PMD: split, swapped out, back intact");
	munmap(map, 2 * PMD_SIZE);
	close(fd);
	if (!(p = shmem_thp(DIR "/huge/g", &map, &fd)))
		return;
	huge = meminfo("ShmemHugePages:");
	shmem = meminfo("Shmem:");
	/* the middle MiB: Linux splits the THP (its PMD goes), pages nothing out yet */
	pageout(p + PMD_SIZE / 4, PMD_SIZE / 2);
	if (meminfo("ShmemHugePages:") > huge - 2048)
		fail("ShmemHugePages: %ld kB after a pageout of part of it", meminfo("ShmemHugePages:"));
	if (n_intact(p, PMD_SIZE / PAGE, 4) != PMD_SIZE / PAGE)     /* faulted back as PTEs */
		fail("%lu of 512 pages intact after the split", n_intact(p, PMD_SIZE / PAGE, 4));
	pageout(p + PMD_SIZE / 4, PMD_SIZE / 2);
	if (!moved_by(shmem - meminfo("Shmem:"), 1024))
		fail("Shmem: fell by %ld kB, not 1024", shmem - meminfo("Shmem:"));
	if (n_intact(p, PMD_SIZE / PAGE, 4) != PMD_SIZE / PAGE)
		fail("%lu of 512 pages intact", n_intact(p, PMD_SIZE / PAGE, 4));
	check_done("a 2 MiB shmem THP mapped by a PMD, MADV_PAGEOUT of its middle MiB: the THP "
		   "split; again: that MiB swapped out; all of it back intact");
	munmap(map, 2 * PMD_SIZE);
	close(fd);
	unlink(DIR "/huge/f");
	unlink(DIR "/huge/g");
	umount(DIR "/huge");
	rmdir(DIR "/huge");
}

static void test_shared_anon(void)
{
	char *p = mmap(NULL, 64 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status = 0;
	pid_t pid;

	fill(p, 64, 5);
	pageout_shared(p, 64);
	pid = xfork();
	if (pid == 0) {
		bool good = n_intact(p, 64, 5) == 64;

		((uint64_t *)(p + 10 * PAGE))[1] = 0xc0ffee;
		_exit(good ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("the child did not find the data intact (status %#x)", status);
	if (((uint64_t *)(p + 10 * PAGE))[1] != 0xc0ffee)
		fail("the child's write is not seen");
	check_done("MAP_SHARED|MAP_ANONYMOUS memory swapped out: a child swaps it in, its write "
		   "is the parent's");
	munmap(p, 64 * PAGE);
}

static void test_memfd_seal(void)
{
	int fd = memfd_create("shmem_swap", MFD_ALLOW_SEALING);
	char *p = fd < 0 || ftruncate(fd, 64 * PAGE) ? MAP_FAILED :
		mmap(NULL, 64 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		ok(0, "memfd: %s", strerror(errno));
		return;
	}
	fill(p, 64, 7);
	pageout_shared(p, 64);
	munmap(p, 64 * PAGE);
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE))
		fail("F_SEAL_WRITE: %s", strerror(errno));
	if (n_intact_read(fd, 64, 7) != 64)
		fail("%lu of 64 pages intact", n_intact_read(fd, 64, 7));
	if (write(fd, "x", 1) != -1 || errno != EPERM)
		fail("a write after F_SEAL_WRITE: not EPERM");
	check_done("a memfd with its pages in swap takes F_SEAL_WRITE (no pin among them), reads back");
	close(fd);
}

/*
 * This very program copied to a tmpfs, its pages swapped out through a
 * shared mapping, then executed (exec reads the file: the pages come back
 * from swap): the copy exits 42.
 */
static void test_exec(void)
{
	static char buf[1 << 16];
	int in = open("/proc/self/exe", O_RDONLY), out, status = 0;
	ssize_t n, size = 0;
	char *p;
	pid_t pid;

	if (mkdir(DIR "/x", 0700) || mount("tmpfs", DIR "/x", "tmpfs", 0, NULL) || in < 0) {
		ok(0, "exec from swap: a tmpfs for it: %s", strerror(errno));
		return;
	}
	out = open(DIR "/x/exe", O_RDWR | O_CREAT | O_TRUNC, 0700);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		size += write(out, buf, n);
	close(in);
	/*
	 * 1 MiB of zeros after the ELF (exec ignores them): Linux's pageout
	 * skips the pages last faulted (still in a per-CPU LRU batch), so
	 * they are the padding's, and the program's own pages go to swap.
	 */
	memset(buf, 0, sizeof(buf));
	size = (size + PAGE - 1) & ~(PAGE - 1);
	for (int i = 0; out >= 0 && i < 16 && pwrite(out, buf, sizeof(buf), size) > 0; i++)
		size += sizeof(buf);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, out, 0);
	if (p == MAP_FAILED)
		fail("mmap of the copy: %s", strerror(errno));
	for (ssize_t off = 0; p != MAP_FAILED && off < size; off += PAGE)
		(void)*(volatile char *)(p + off);      /* mapped, so MADV_PAGEOUT finds them */
	if (p != MAP_FAILED)
		pageout_shared(p, size / PAGE);
	munmap(p, size);
	close(out);
	pid = xfork();
	if (pid == 0) {
		execl(DIR "/x/exe", "exe", "exit42", (char *)NULL);
		_exit(1);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 42)
		fail("the copy's status %#x, not exit 42", status);
	check_done("a program on tmpfs with its pages in swap runs (exec reads it back from swap)");
	unlink(DIR "/x/exe");
	umount(DIR "/x");
	rmdir(DIR "/x");
}

static void test_swapoff(void)
{
	char dev[128];
	int prio, fd;
	char *p = shared_file(DIR "/d", NPAGES, 6, &fd);
	long shmem;
	unsigned long n;

	pageout_shared(p, NPAGES);
	munmap(p, NPAGES * PAGE);
	shmem = meminfo("Shmem:");
	if (!first_swap(dev, sizeof(dev), &prio) || swapoff(dev))
		fail("swapoff: %s", strerror(errno));
	if (!moved_by(meminfo("Shmem:") - shmem, NPAGES * 4))
		fail("Shmem: rose by %ld kB, not %d", meminfo("Shmem:") - shmem, NPAGES * 4);
	if ((n = n_intact_read(fd, NPAGES, 6)) != NPAGES)
		fail("%lu of %d pages intact", n, NPAGES);
	if (swapon(dev, prio >= 0 ? SWAP_FLAG_PREFER | (prio & SWAP_FLAG_PRIO_MASK) : 0))
		fail("swapon %s again: %s", dev, strerror(errno));
	check_done("swapoff brings a swapped-out tmpfs file back into memory, intact");
	close(fd);
	unlink(DIR "/d");
}

/*
 * A file of MemTotal + 8 MiB on a tmpfs mounted for it, written and then
 * read back through a shared mapping 2 MiB at a time, each chunk paged
 * out after it is touched.
 */
static void test_larger_than_ram(void)
{
	unsigned long total = meminfo("MemTotal:") * 1024UL, chunk = PMD_SIZE / PAGE;
	unsigned long size = (total + 8 * PMD_SIZE) & ~(PMD_SIZE - 1), bad = 0;
	char opt[64], *p;
	int fd;

	if ((unsigned long)swapfree_kb() * 1024 < size + 16 * PMD_SIZE) {
		char msg[128];

		snprintf(msg, sizeof(msg), "a tmpfs file larger than RAM: %ld kB of swap for %lu kB",
			 swapfree_kb(), total / 1024);
		skip(msg);
		return;
	}
	snprintf(opt, sizeof(opt), "size=%luk", size / 1024 + 1024);
	if (mkdir(DIR "/big", 0700) || mount("tmpfs", DIR "/big", "tmpfs", 0, opt)) {
		ok(0, "mount tmpfs %s: %s", opt, strerror(errno));
		return;
	}
	fd = open(DIR "/big/f", O_RDWR | O_CREAT, 0600);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd < 0 || ftruncate(fd, size) || p == MAP_FAILED) {
		ok(0, "a %lu kB file mapped: %s", size / 1024, strerror(errno));
		return;
	}
	for (unsigned long off = 0; off < size; off += PMD_SIZE)
		fill(p + off, chunk, (int)(off / PMD_SIZE));
	for (unsigned long off = 0; off < size; off += PMD_SIZE)
		bad += chunk - n_intact(p + off, chunk, (int)(off / PMD_SIZE));
	if (bad)
		fail("%lu pages wrong", bad);
	check_done("a tmpfs file larger than RAM (MemTotal + 16 MiB) written and read back whole");
	munmap(p, size);
	close(fd);
	unlink(DIR "/big/f");
	umount(DIR "/big");
	rmdir(DIR "/big");
}

int main(int argc, char **argv)
{
	char dev[128];
	int prio;

	if (argc > 1 && !strcmp(argv[1], "exit42"))
		return 42;                      /* test_exec's copy */

	if (!swap_test_start(dev, sizeof(dev), &prio))
		return 0;
	mkdir(DIR, 0700);
	test_file_roundtrip();
	test_write_seek();
	test_truncate_punch();
	test_thp();
	test_shared_anon();
	test_memfd_seal();
	test_exec();
	test_swapoff();
	test_larger_than_ram();
	rmdir(DIR);
	return tap_done();
}
