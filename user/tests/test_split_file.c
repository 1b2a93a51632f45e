/*
 * Guest test (TAP): what split_huge_page_test's file and tmpfs cases
 * need besides tmpfs itself.  /sys/kernel/debug/split_huge_pages in its
 * path form ("<path>,0x<first>,0x<end>[,<order>]", page offsets) splits
 * the 2 MiB folio of a file on a huge=always tmpfs: ShmemHugePages drops
 * by 2 MiB, and where the file can be mapped MAP_SHARED, kpageflags shows
 * the new folios (compound heads every 2^order pages; none at order 0);
 * the pid form splits the file's folio through a MAP_SHARED mapping.
 * Also: /proc/sys/vm/drop_caches (1..4, EINVAL otherwise, write-only,
 * tmpfs data stays), sync/syncfs/fsync/fdatasync (EBADF, EINVAL for a
 * pipe), and umount of the tmpfs with a file open (EBUSY), MNT_EXPIRE
 * (EAGAIN, then gone) and MNT_DETACH (the open file lives on).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include "thp_util.h"

#define SPLIT_DEBUGFS   "/sys/kernel/debug/split_huge_pages"
#define DROP_CACHES     "/proc/sys/vm/drop_caches"
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define NR_PAGES        (PMD_SIZE / PAGE)

static char dir[] = "/tmp/split_file_XXXXXX";
static char path[64];
static char buf[PMD_SIZE];

/* Did the call fail with errno e? */
static int fails(long ret, int e)
{
	return ret == -1 && errno == e;
}

/* Write text to a file; write's result (-1 with errno on failure). */
static long write_to(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY);
	long n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n;
}

/* Split the folios of file at page offsets [first, end) to order; write's result. */
static long split_path(const char *file, unsigned long first, unsigned long end, int order)
{
	char line[128];

	snprintf(line, sizeof(line), "%s,0x%lx,0x%lx,%d", file, first, end, order);
	return write_to(SPLIT_DEBUGFS, line);
}

/* Does the kernel split to the order asked?  Linux before 6.10 splits to order 0 only. */
static int split_orders_supported(void)
{
	struct utsname u;
	int major, minor;

	if (uname(&u) || strcmp(u.sysname, "Linux"))
		return 1;
	return sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	       (major > 6 || (major == 6 && minor >= 10));
}

/* Are the 512 pages at addr (touched) folios of 2^order pages, by kpageflags? */
static int mapped_as_order(const char *addr, int order)
{
	unsigned long nr = 1UL << order;

	for (unsigned long i = 0; i < NR_PAGES; i++) {
		unsigned long long f = kpageflags(pfn_of(addr + i * PAGE));
		int head = (f >> KPF_COMPOUND_HEAD) & 1, tail = (f >> KPF_COMPOUND_TAIL) & 1;

		if (order ? head != (i % nr == 0) || tail != (i % nr != 0) : head || tail)
			return 0;
	}
	return 1;
}

/* Touch every page of the mapping; true if it reads the file's bytes. */
static int mapping_intact(const char *addr)
{
	for (unsigned long i = 0; i < PMD_SIZE; i++)
		if (addr[i] != (char)(i % 251))
			return 0;
	return 1;
}

static int file_intact(void)
{
	int fd = open(path, O_RDONLY), bad = 0;

	if (fd < 0 || pread(fd, buf, PMD_SIZE, 0) != (ssize_t)PMD_SIZE)
		bad = 1;
	for (unsigned long i = 0; !bad && i < PMD_SIZE; i++)
		bad = buf[i] != (char)(i % 251);
	close(fd);
	return !bad;
}

/* The orders through a MAP_SHARED mapping, split while mapped: to 2, then to 0. */
static void test_split_mapped(void)
{
	int fd = open(path, O_RDONLY);
	char *addr = mmap(NULL, PMD_SIZE, PROT_READ, MAP_SHARED, fd, 0);

	close(fd);
	if (addr == MAP_FAILED) {
		for (int i = 0; i < 3; i++)
			skip("MAP_SHARED of a tmpfs file: not supported");
		ok(split_path(path, 0, NR_PAGES, 0) > 0 && file_intact(), "split to order 0, data intact");
		return;
	}
	ok(mapping_intact(addr) && mapped_as_order(addr, 9), "mapped: one order-9 folio");
	ok(split_path(path, 0, NR_PAGES, 2) > 0, "path form, order 2: the count written");
	if (split_orders_supported())
		ok(mapping_intact(addr) && mapped_as_order(addr, 2), "order-2 folios, data intact");
	else
		skip("Linux before 6.10 splits page-cache folios to order 0 only");
	ok(split_path(path, 0, NR_PAGES, 0) > 0 && mapping_intact(addr) && mapped_as_order(addr, 0),
	   "then to order 0: no compound pages, data intact");
	munmap(addr, PMD_SIZE);
}

/* Is ShmemHugePages kb (a check named what)?  Skipped where meminfo does not show it. */
static void shmem_thp_is(long kb, const char *what)
{
	long now = meminfo_kb("ShmemHugePages");

	if (now < 0)
		skip("no ShmemHugePages in /proc/meminfo");
	else
		ok(now == kb, "%s: ShmemHugePages %ld kB", what, now);
}

static void test_split_path(void)
{
	long shmem_thp = meminfo_kb("ShmemHugePages");
	int fd = open(path, O_CREAT | O_RDWR, 0644);

	for (unsigned long i = 0; i < PMD_SIZE; i++)
		buf[i] = i % 251;
	ok(write(fd, buf, PMD_SIZE) == (ssize_t)PMD_SIZE, "write 2 MiB");
	close(fd);
	shmem_thp_is(shmem_thp + 2048, "a 2 MiB shmem folio");
	ok(split_path(path, 0x400, 0x800, 0) > 0, "a range past the folio: the count written");
	shmem_thp_is(shmem_thp + 2048, "it split nothing");
	test_split_mapped();
	shmem_thp_is(shmem_thp, "split");
	ok(fails(split_path("/tmp/no such file", 0, 1, 0), EINVAL), "a path that does not exist: EINVAL");
	ok(fails(write_to(SPLIT_DEBUGFS, "/tmp,1,2"), EINVAL), "offsets without 0x: EINVAL");
	ok(split_path(dir, 0, 1, 0) > 0, "a directory: nothing to split");
}

/*
 * The pid form on a MAP_SHARED mapping of the file at a 2 MiB boundary:
 * the page-cache folio is split too (Linux's split_huge_pages_pid takes
 * file THPs as well as anon ones).
 */
static void test_split_pid(void)
{
	long shmem_thp = meminfo_kb("ShmemHugePages");
	int fd = open(path, O_RDWR | O_TRUNC);
	char *addr = map_aligned(PMD_SIZE, PMD_SIZE), line[128];

	ok(write(fd, buf, PMD_SIZE) == (ssize_t)PMD_SIZE, "the file rewritten: a new 2 MiB folio");
	if (!addr || mmap(addr, PMD_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) != addr) {
		skip("MAP_SHARED of a tmpfs file: not supported");
		skip("MAP_SHARED of a tmpfs file: not supported");
		close(fd);
		return;
	}
	close(fd);
	snprintf(line, sizeof(line), "%d,0x%lx,0x%lx,0", getpid(), (unsigned long)addr,
		 (unsigned long)addr + PMD_SIZE);
	ok(mapping_intact(addr) && mapped_as_order(addr, 9) &&
	   write_to(SPLIT_DEBUGFS, line) == (long)strlen(line) && mapping_intact(addr) &&
	   mapped_as_order(addr, 0), "pid form over the mapping: the file's folio split to order 0");
	shmem_thp_is(shmem_thp, "split through the mapping");
	munmap(addr, PMD_SIZE);
}

static void test_drop_caches(void)
{
	static const char *const good[] = { "3", "1", "2", "4\n", " 1" };
	static const char *const bad[] = { "0", "5", "-1", "x", "1x", "99999999999999999999" };
	struct stat st;
	int n = 0;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		n += write_to(DROP_CACHES, good[i]) == (long)strlen(good[i]);
	ok(n == 5, "drop_caches takes 1, 2, 3 and 4");
	n = 0;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		n += fails(write_to(DROP_CACHES, bad[i]), EINVAL);
	ok(n == 6, "0, 5, -1, words and overflow: EINVAL");
	ok(!stat(DROP_CACHES, &st) && (st.st_mode & 0777) == 0200 && fails(open(DROP_CACHES, O_RDONLY), EACCES),
	   "write-only (0200): even root cannot read it (EACCES)");
	ok(file_intact(), "tmpfs data survives drop_caches");
}

static void test_sync(void)
{
	int fd = open(path, O_RDWR), dfd = open(dir, O_RDONLY | O_DIRECTORY), p[2];

	xpipe(p, 0);
	ok(syscall(SYS_sync) == 0, "sync: 0");
	ok(!syncfs(fd) && !syncfs(p[0]) && fails(syncfs(99), EBADF), "syncfs: 0 for any open fd, EBADF");
	ok(!fsync(fd) && !fdatasync(fd) && !fsync(dfd), "fsync, fdatasync of a tmpfs file and directory: 0");
	ok(fails(fsync(p[1]), EINVAL) && fails(fdatasync(p[0]), EINVAL), "fsync of a pipe: EINVAL");
	ok(fails(fsync(99), EBADF) && fails(fdatasync(-1), EBADF), "fsync of no fd: EBADF");
	close(p[0]);
	close(p[1]);
	close(dfd);
	close(fd);
}

static void test_umount(void)
{
	int fd = open(path, O_RDONLY);
	char c;

	ok(fails(umount(dir), EBUSY) && fails(umount2(dir, MNT_EXPIRE), EBUSY), "a file open: EBUSY");
	ok(fails(umount(path), EINVAL), "not a mount point: EINVAL");
	close(fd);
	unlink(path);
	ok(fails(umount2(dir, MNT_EXPIRE | MNT_DETACH), EINVAL), "MNT_EXPIRE with MNT_DETACH: EINVAL");
	ok(fails(umount2(dir, MNT_EXPIRE), EAGAIN) && !umount2(dir, MNT_EXPIRE),
	   "MNT_EXPIRE: EAGAIN first, then unmounted");
	ok(!mount("tmpfs", dir, "tmpfs", 0, "size=1m"), "mount again");
	fd = open(path, O_CREAT | O_RDWR, 0644);
	ok(write(fd, "x", 1) == 1 && !umount2(dir, MNT_DETACH) && pread(fd, &c, 1, 0) == 1 && c == 'x',
	   "MNT_DETACH with a file open: unmounted, the file lives on");
	close(fd);
	ok(!rmdir(dir), "rmdir");
}

int main(void)
{
	mount_proc_sys();
	if (!mkdtemp(dir) || mount("tmpfs", dir, "tmpfs", 0, "huge=always,size=4m")) {
		ok(0, "mount a huge=always tmpfs on %s: %s", dir, strerror(errno));
		return tap_done();
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	test_split_path();
	test_split_pid();
	test_drop_caches();
	test_sync();
	test_umount();
	return tap_done();
}
