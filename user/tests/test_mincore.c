/*
 * Guest test (TAP): mincore(2) and msync(2) as Linux 6.1 has them.
 * mincore: a touched anonymous page is resident, an untouched one not,
 * one read maps the zero page (resident), MADV_DONTNEED takes it away, a
 * THP is resident as a whole, PROT_NONE keeps touched pages resident; a
 * file mapping shows the page cache whether or not the pages are mapped;
 * the vDSO reads as resident; EINVAL, ENOMEM (a hole: the bytes before it
 * are written), EFAULT.  msync: EINVAL for bad flags, both MS_SYNC and
 * MS_ASYNC, or an unaligned start; ENOMEM for a range with a hole (after
 * syncing the rest) or with nothing mapped; 0 otherwise, the data in the
 * file.  Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include "thp_util.h"

#define PG      4096UL

/* The residency bytes of n pages from p; -1 on error (errno set). */
static int resident(void *p, unsigned long n, unsigned char *vec)
{
	memset(vec, 0xaa, n);
	return mincore(p, n * PG, vec);
}

static bool vec_is(const unsigned char *vec, const char *want)
{
	for (size_t i = 0; want[i]; i++)
		if ((vec[i] & 1) != want[i] - '0')
			return false;
	return true;
}

static void test_anon(void)
{
	char *p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char vec[16];

	madvise(p, 16 * PG, MADV_NOHUGEPAGE);
	ok(!resident(p, 16, vec) && vec_is(vec, "0000000000000000"), "untouched anon: none resident");
	p[0] = p[3 * PG] = p[15 * PG] = 1;
	(void)*(volatile char *)(p + 5 * PG);
	ok(!resident(p, 16, vec) && vec_is(vec, "1001010000000001"),
	   "written pages and the zero page read at page 5 are resident");
	madvise(p + 3 * PG, PG, MADV_DONTNEED);
	ok(!resident(p, 16, vec) && vec_is(vec, "1000010000000001"), "MADV_DONTNEED: not resident");
	mprotect(p, 16 * PG, PROT_NONE);
	ok(!resident(p, 16, vec) && vec_is(vec, "1000010000000001"), "PROT_NONE keeps them resident");
	ok(!resident(p + 15 * PG, 1, vec) && vec[0] == 1, "a range of one page");
	munmap(p, 16 * PG);
}

/* Does MADV_HUGEPAGE memory get THPs (the top-level policy is not "never")? */
static bool thp_on(void)
{
	char buf[128];

	return !read_text("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)) &&
	       !strstr(buf, "[never]");
}

static void test_thp(void)
{
	char *p = map_aligned(2 << 20, 2 << 20);
	static unsigned char vec[512];
	int n = 0;

	madvise(p, 2 << 20, MADV_HUGEPAGE);
	p[12345] = 1;
	ok(!resident(p, 512, vec), "mincore of a 2 MiB region");
	for (int i = 0; i < 512; i++)
		n += vec[i];
	ok(n == (thp_on() ? 512 : 1), "one byte written: %d pages resident (THP %s)", n,
	   thp_on() ? "on" : "off");
	munmap(p, 2 << 20);
}

static void test_file(void)
{
	int fd = memfd_create("mincore", 0);
	char *p, page[PG];
	unsigned char vec[8];

	memset(page, 'f', PG);
	ok(fd >= 0 && !ftruncate(fd, 8 * PG) && pwrite(fd, page, PG, 0) == PG &&
	   pwrite(fd, page, PG, 2 * PG) == PG && pwrite(fd, page, 100, 5 * PG) == 100,
	   "a memfd of 8 pages, 3 of them written");
	p = mmap(NULL, 8 * PG, PROT_READ, MAP_SHARED, fd, 0);
	ok(!resident(p, 8, vec) && vec_is(vec, "10100100"),
	   "its mapping, untouched: the page cache's pages resident, the holes not");
	munmap(p, 8 * PG);
	p = mmap(NULL, 4 * PG, PROT_READ, MAP_PRIVATE, fd, 4 * PG);
	ok(!resident(p, 4, vec) && vec_is(vec, "0100"), "a private mapping from page 4: the same");
	munmap(p, 4 * PG);
	close(fd);
}

static void test_vdso(void)
{
	void *vdso = (void *)getauxval(AT_SYSINFO_EHDR);
	unsigned char vec[1];

	ok(vdso && !resident(vdso, 1, vec) && vec[0] == 1, "the vDSO reads as resident");
}

static void test_errors(void)
{
	char *p = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char vec[4];

	p[0] = 1;
	ok(mincore(p + 1, PG, vec) == -1 && errno == EINVAL, "unaligned start: EINVAL");
	ok(mincore(p, 0, vec) == 0, "no pages: 0");
	ok(mincore(p, PG, (unsigned char *)1) == -1 && errno == EFAULT, "a bad vector: EFAULT");
	ok(mincore((void *)0xffff800000000000UL, PG, vec) == -1 && errno == ENOMEM,
	   "a kernel address: ENOMEM");
	munmap(p + 2 * PG, PG);
	ok(resident(p, 4, vec) == -1 && errno == ENOMEM && vec[0] == 1 && vec[1] == 0 &&
	   vec[2] == 0xaa, "a hole: ENOMEM, the bytes before it written");
	ok(!resident(p, 2, vec), "the part before the hole: 0");
	munmap(p, 4 * PG);
}

static void test_msync(void)
{
	int fd = memfd_create("msync", 0);
	char *p, buf[4] = { 0 };

	ok(fd >= 0 && !ftruncate(fd, 4 * PG), "a memfd of 4 pages");
	p = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	memcpy(p + PG, "sync", 4);
	ok(!msync(p, 4 * PG, MS_SYNC) && pread(fd, buf, 4, PG) == 4 && !memcmp(buf, "sync", 4),
	   "MS_SYNC: 0, the file has the data");
	ok(!msync(p, 4 * PG, MS_ASYNC) && !msync(p, 4 * PG, MS_INVALIDATE) &&
	   !msync(p + PG, 1, MS_SYNC | MS_INVALIDATE) && !msync(p, 0, MS_SYNC),
	   "MS_ASYNC, MS_INVALIDATE, a partial page, an empty range: 0");
	ok(msync(p, PG, 8) == -1 && errno == EINVAL, "an unknown flag: EINVAL");
	ok(msync(p, PG, MS_SYNC | MS_ASYNC) == -1 && errno == EINVAL, "MS_SYNC with MS_ASYNC: EINVAL");
	ok(msync(p + 1, PG, MS_SYNC) == -1 && errno == EINVAL, "an unaligned start: EINVAL");
	munmap(p + PG, PG);
	ok(msync(p, 4 * PG, MS_SYNC) == -1 && errno == ENOMEM, "a hole (MS_SYNC): ENOMEM");
	ok(msync(p, 4 * PG, MS_ASYNC) == -1 && errno == ENOMEM, "a hole (MS_ASYNC): ENOMEM");
	ok(msync(p + PG, PG, MS_SYNC) == -1 && errno == ENOMEM, "nothing mapped: ENOMEM");
	ok(msync((void *)-PG, 2 * PG, MS_SYNC) == -1 && errno == ENOMEM, "a wrapping range: ENOMEM");
	munmap(p, 4 * PG);
	close(fd);
}

int main(void)
{
	mount_proc_sys();
	test_anon();
	test_thp();
	test_file();
	test_vdso();
	test_errors();
	test_msync();
	return tap_done();
}
