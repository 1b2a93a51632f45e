/*
 * Guest test (TAP): /proc/<pid>/maps' PROCMAP_QUERY ioctl (Linux 6.11):
 * each answer agrees with the maps line of the same VMA (range,
 * permissions, offset, device, inode, name); the query flags pick the
 * covering or next VMA by permission or file; bad arguments get Linux's
 * errors.  Linux 6.1 has no such ioctl (ENOTTY): skipped there, a
 * failure on foliOS (/proc/folio).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "tap.h"
#include "procmap_query_abi.h"

#define Q_READ 0x01
#define Q_WRITE 0x02
#define Q_EXEC 0x04
#define Q_SHARED 0x08
#define Q_NEXT 0x10
#define Q_FILE 0x20

static int maps_fd;
static char name[4096];
static long page;

/* PROCMAP_QUERY for addr with flags into *q, a name buffer given; 0 or errno. */
static int query(struct procmap_query *q, unsigned long addr, uint64_t flags)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	q->query_addr = addr;
	q->query_flags = flags;
	q->vma_name_size = sizeof(name);
	q->vma_name_addr = (uintptr_t)name;
	return ioctl(maps_fd, PROCMAP_QUERY, q) ? errno : 0;
}

/*
 * Does q describe the VMA of the /proc/self/maps line covering addr?  One
 * stream, opened at the start and rewound: a new one would malloc its buffer, and
 * musl's malloc may mmap it into the very hole a test looks at (where it
 * merges with the VMA after it, as on Linux).
 */
static FILE *maps_stream;

static int agrees_with_maps(const struct procmap_query *q, unsigned long addr)
{
	FILE *f = maps_stream;
	char line[4352], perms[5], mname[4096];
	unsigned long start, end, off, ino;
	unsigned int maj, min;
	int found = 0;

	if (f)
		rewind(f);
	while (f && !found && fgets(line, sizeof(line), f)) {
		mname[0] = '\0';
		if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu %4095[^\n]", &start, &end, perms, &off,
			   &maj, &min, &ino, mname) < 7 || addr < start || addr >= end)
			continue;
		found = q->vma_start == start && q->vma_end == end && q->vma_offset == off &&
			q->dev_major == maj && q->dev_minor == min && q->inode == ino &&
			!!(q->vma_flags & Q_READ) == (perms[0] == 'r') &&
			!!(q->vma_flags & Q_WRITE) == (perms[1] == 'w') &&
			!!(q->vma_flags & Q_EXEC) == (perms[2] == 'x') &&
			!!(q->vma_flags & Q_SHARED) == (perms[3] == 's') &&
			(mname[0] ? q->vma_name_size == strlen(mname) + 1 && !strcmp(name, mname) :
				    q->vma_name_size == 0);
		if (!found)
			printf("# maps: %s", line);
	}
	return found;
}

/* Covering and next-VMA lookups by permission around an rw/r/hole/rw run. */
static void test_flags(void)
{
	char *p = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long a = (unsigned long)p;
	struct procmap_query q;

	mprotect(p + page, page, PROT_READ);
	munmap(p + 2 * page, page);
	ok(!query(&q, a, 0) && q.vma_start == a && q.vma_end == a + page &&
	   q.vma_flags == (Q_READ | Q_WRITE) && q.vma_page_size == (uint64_t)page &&
	   q.inode == 0 && q.vma_name_size == 0 && agrees_with_maps(&q, a),
	   "anonymous rw VMA: its range and flags, no name");
	ok(query(&q, a + page, Q_WRITE) == ENOENT, "read-only VMA asked writable: ENOENT");
	ok(!query(&q, a + page, Q_WRITE | Q_NEXT) && q.vma_start == a + 3 * page,
	   "writable, covering or next: the VMA after the hole");
	ok(query(&q, a + 2 * page, 0) == ENOENT, "an address in a hole: ENOENT");
	ok(!query(&q, a + 2 * page, Q_NEXT) && q.vma_start == a + 3 * page &&
	   agrees_with_maps(&q, a + 3 * page), "a hole, covering or next: the next VMA");
	ok(query(&q, a, Q_FILE) == ENOENT, "anonymous VMA asked file-backed: ENOENT");
	ok(query(&q, ~0UL - page, Q_NEXT) == ENOENT, "nothing above the last VMA: ENOENT");
	munmap(p, 4 * page);
}

/* Names: the program's file, [stack], shared anonymous memory, like maps. */
static void test_names(void)
{
	char *s = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned long text = (unsigned long)&test_names, stack = (unsigned long)&s;
	struct procmap_query q;

	ok(!query(&q, text, Q_FILE | Q_EXEC) && q.inode && q.vma_name_size > 1 &&
	   agrees_with_maps(&q, text), "program text: file, inode, name %s", name);
	ok(!query(&q, stack, 0) && !strcmp(name, "[stack]") && agrees_with_maps(&q, stack),
	   "stack: [stack]");
	*s = 1;
	ok(!query(&q, (unsigned long)s, Q_SHARED) && agrees_with_maps(&q, (unsigned long)s),
	   "shared anonymous: shared, named as maps names it (%s)", q.vma_name_size ? name : "");
	q.vma_name_size = 4;
	ok(ioctl(maps_fd, PROCMAP_QUERY, &q) && errno == ENAMETOOLONG,
	   "a name longer than its buffer: ENAMETOOLONG");
	q.query_addr = text;
	q.query_flags = 0;
	ok(ioctl(maps_fd, PROCMAP_QUERY, &q) && errno == ENAMETOOLONG,
	   "a file name longer than its buffer: ENAMETOOLONG");
	munmap(s, page);
}

/* Linux's argument checks: size, flags, buffer address without size. */
static void test_errors(void)
{
	unsigned long a = (unsigned long)&page;
	struct { struct procmap_query q; uint64_t extra; } big;
	char id[64];
	struct procmap_query q;

	query(&q, a, 0);
	q.size = 8;
	ok(ioctl(maps_fd, PROCMAP_QUERY, &q) && errno == EINVAL, "size 8: EINVAL");
	q.size = 4097;
	ok(ioctl(maps_fd, PROCMAP_QUERY, &q) && errno == E2BIG, "size over a page: E2BIG");
	query(&q, a, 0x40);
	ok(ioctl(maps_fd, PROCMAP_QUERY, &q) && errno == EINVAL, "unknown flag: EINVAL");
	query(&q, a, 0);
	q.vma_name_size = 0;
	ok(ioctl(maps_fd, PROCMAP_QUERY, &q) && errno == EINVAL, "name address, no size: EINVAL");
	query(&big.q, a, 0);
	big.q.size = sizeof(big);
	big.extra = 1;
	ok(ioctl(maps_fd, PROCMAP_QUERY, &big) && errno == E2BIG, "nonzero bytes past the struct: E2BIG");
	big.extra = 0;
	ok(!ioctl(maps_fd, PROCMAP_QUERY, &big) && big.q.vma_start <= a && a < big.q.vma_end,
	   "a larger struct, zero past ours: answered");
	query(&q, a, 0);
	q.size = 24;
	ok(!ioctl(maps_fd, PROCMAP_QUERY, &q), "the smallest struct, 24 bytes: answered");
	query(&q, (unsigned long)&q, 0);
	q.build_id_size = sizeof(id);
	q.build_id_addr = (uintptr_t)id;
	ok(!ioctl(maps_fd, PROCMAP_QUERY, &q) && q.build_id_size == 0, "anonymous VMA: no build ID");
	q.query_addr = 0;
	q.build_id_addr = 0;
	q.vma_name_addr = 1;
	q.vma_name_size = 16;
	ok(ioctl(maps_fd, PROCMAP_QUERY, &q) && errno == ENOENT, "no VMA at 0: ENOENT");
}

int main(void)
{
	struct procmap_query q;

	mount_proc_sys();
	page = sysconf(_SC_PAGESIZE);
	maps_fd = open("/proc/self/maps", O_RDONLY);
	maps_stream = fopen("/proc/self/maps", "r");
	ok(maps_fd >= 0 && maps_stream, "open /proc/self/maps");
	if (query(&q, (unsigned long)&q, 0) == ENOTTY && access("/proc/folio", F_OK)) {
		skip("no PROCMAP_QUERY (Linux before 6.11)");
		return tap_done();
	}
	test_flags();
	test_names();
	test_errors();
	return tap_done();
}
