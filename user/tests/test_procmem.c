/*
 * Guest test (TAP): /proc/<pid>/mem.  Reading and writing this process's
 * memory and a child's at any address (lseek with unsigned offsets, pread,
 * pwrite); EIO for an unmapped address; a write into a child's page shared
 * with this process breaks COW (only the child sees it); a forced write
 * into a PROT_READ private page (Linux's FOLL_FORCE) lands in this
 * process's own copy, never in the page a child shares; PROT_NONE memory
 * reads.
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <errno.h>
#include <signal.h>

static char *map_page(char c, int prot)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(tap_done());
	memset(p, c, PAGE);
	mprotect(p, PAGE, prot);
	return p;
}

static int open_mem(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	return open(path, O_RDWR);
}

static void test_self(void)
{
	int fd = open("/proc/self/mem", O_RDWR);
	char *p = map_page('a', PROT_READ | PROT_WRITE), *hole = map_page(0, PROT_NONE), buf[8] = "";
	off_t high = (off_t)0xffffffffff600000UL;

	ok(fd >= 0, "/proc/self/mem opens read-write");
	ok(pread(fd, buf, 4, (off_t)p + 10) == 4 && !memcmp(buf, "aaaa", 4), "pread reads own memory");
	ok(pwrite(fd, "WXYZ", 4, (off_t)p + PAGE - 4) == 4 && !memcmp(p + PAGE - 4, "WXYZ", 4),
	   "pwrite writes own memory");
	ok(lseek(fd, (off_t)p, SEEK_SET) == (off_t)p && read(fd, buf, 2) == 2 &&
	   lseek(fd, 0, SEEK_CUR) == (off_t)p + 2, "lseek to an address, read moves the position");
	ok(lseek(fd, high, SEEK_SET) == high && lseek(fd, 0, SEEK_END) == -1 && errno == EINVAL,
	   "lseek: an offset above 2^63 is a position; SEEK_END: EINVAL");
	munmap(hole, PAGE);
	hole = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole + PAGE, PAGE);
	ok(pread(fd, buf, 4, (off_t)hole + PAGE) == -1 && errno == EIO, "an unmapped address: EIO");
	ok(pread(fd, buf, 8, (off_t)hole + PAGE - 4) == 4, "a read running into a hole is short");
	munmap(hole, PAGE);
	hole = map_page('n', PROT_NONE);
	ok(pread(fd, buf, 2, (off_t)hole) == 2 && buf[0] == 'n', "PROT_NONE memory reads (FOLL_FORCE)");
	close(fd);
	munmap(hole, PAGE);
	munmap(p, PAGE);
}

/*
 * Fork a child that waits for a byte on sync[0], then exits 0 if its page
 * p begins with first, then second, and is still at pfn (0: any), else 1.
 */
static pid_t fork_checker(int sync[2], const char *p, char first, char second, unsigned long pfn)
{
	pid_t pid;
	char c;

	xpipe(sync, 0);
	pid = fork();
	if (!pid) {
		read(sync[0], &c, 1);
		_exit(p[0] == first && p[1] == second && (!pfn || pfn_of(p) == pfn) ? 0 : 1);
	}
	return pid;
}

/* A child's memory: read it, write it; the write breaks COW, this process's copy stays. */
static void test_child(void)
{
	char *p = map_page('a', PROT_READ | PROT_WRITE), buf[4] = "";
	int sync[2], fd;
	pid_t pid = fork_checker(sync, p, 'Z', 'a', 0);

	fd = open_mem(pid);
	ok(fd >= 0 && pread(fd, buf, 2, (off_t)p) == 2 && buf[0] == 'a', "/proc/<child>/mem reads the child");
	ok(pwrite(fd, "Z", 1, (off_t)p) == 1 && p[0] == 'a', "a write into the child's page leaves ours");
	ok(pread(fd, buf, 2, (off_t)p) == 2 && buf[0] == 'Z' && buf[1] == 'a',
	   "/proc/<child>/mem reads back the write");
	write(sync[1], "g", 1);
	ok(wait_exit(pid) == 0, "the child sees the write");
	ok(pread(fd, buf, 1, (off_t)p) == 0, "the child gone: mem reads EOF");
	close(fd), close(sync[0]), close(sync[1]);
	munmap(p, PAGE);
}

/*
 * A forced write into a PROT_READ private page shared with a child: this
 * process gets its own copy with the write, still read-only; the child's
 * copy is unchanged.
 */
static void test_force_cow(void)
{
	char *p = map_page('r', PROT_READ);
	unsigned long pfn = pfn_of(p);
	int sync[2], fd = open("/proc/self/mem", O_RDWR);
	pid_t pid = fork_checker(sync, p, 'r', 'r', pfn);

	ok(pwrite(fd, "F", 1, (off_t)p) == 1 && p[0] == 'F' && p[1] == 'r',
	   "a write through /proc/self/mem into PROT_READ memory (FOLL_FORCE)");
	ok(pfn_of(p) != pfn && pm_exclusive(p), "FOLL_FORCE breaks COW: our own exclusive copy");
	ok(touch_in_child(p, 1) == SIGSEGV, "the page stays read-only");
	write(sync[1], "g", 1);
	ok(wait_exit(pid) == 0, "FOLL_FORCE: the child's copy is unchanged");
	close(fd), close(sync[0]), close(sync[1]);
	munmap(p, PAGE);
}

int main(void)
{
	mount_proc_sys();
	test_self();
	test_child();
	test_force_cow();
	return tap_done();
}
