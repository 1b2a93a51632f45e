/*
 * What /proc shows about page-cache (tmpfs, memfd, shared anon) memory, in
 * Linux's formats, so the test passes unchanged on Linux (the peer with
 * --mounts): meminfo's Shmem, Cached and Mapped moving with a tmpfs file
 * and its mapping; maps' offset, device, inode and name (" (deleted)",
 * "/memfd:NAME", "/dev/zero"); smaps' split of a shared file mapping into
 * shared/private, clean/dirty; pagemap's PM_FILE and exclusive bits,
 * kpageflags and kpagecount of the cache's pages; a 2 MiB shmem THP mapped
 * by a PMD (ShmemPmdMapped, not FilePmdMapped) and mapped twice by one
 * process, where the mapcount modes differ: with per-page mapcounts
 * (Linux 6.1 too) each page is mapped twice, so shared; without, one mm
 * maps the folio, so private and exclusive.  On foliOS also /proc/folio's
 * mapping, inode and index lines and the mapcount trace's "shmem" kind.
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "thp_util.h"

#define FILE_PATH       "/tmp/test_filemap_proc"
#define SIZE            (256 * PAGE)            /* 1 MiB */
#define KB(n)           ((long)((n) >> 10))
#define SLACK_KB        64                      /* what else may come and go meanwhile */

#define PM_FILE         (1ULL << 61)
#define KPF_UPTODATE    3
#define KPF_DIRTY       4
#define KPF_MMAP        11
#define KPF_ANON        12
#define KPF_SWAPBACKED  14
#define KPF_COMPOUND_HEAD 15

static int near(long got, long want)
{
	return got >= want - SLACK_KB && got <= want + SLACK_KB;
}

/* All of a /proc file: Linux's seq_file gives about a page per read(). */
static int read_all(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t r = 1;

	while (fd >= 0 && n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	buf[n] = '\0';
	if (fd >= 0)
		close(fd);
	return fd >= 0 && r >= 0 && n ? 0 : -1;
}

/* The smaps or maps text of the VMA starting at start (up to its VmFlags), in buf. */
static char *vma_block(const char *file, const void *start, char *buf, size_t size)
{
	char head[32], *p, *end;

	if (read_all(file, buf, size))
		return NULL;
	snprintf(head, sizeof(head), "%lx-", (unsigned long)start);
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, head, strlen(head)))
			break;
	if (!p)
		return NULL;
	end = strstr(p, "\nVmFlags:");
	if (end)
		end[1] = '\0';
	return p;
}

/* A "Key:   N kB" value of the smaps block of the VMA at start; -1 if none. */
static long smaps_kb(const void *start, const char *key)
{
	static char buf[65536];
	char pat[40], *p = vma_block("/proc/self/smaps", start, buf, sizeof(buf));

	snprintf(pat, sizeof(pat), "\n%s:", key);
	p = p ? strstr(p, pat) : NULL;
	return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

/* The maps line of the VMA at start: permissions, offset, device, inode, name. */
struct map_line {
	char perms[8], name[256];
	unsigned long offset, ino;
	unsigned int major, minor;
};

static int maps_line(const void *start, struct map_line *l)
{
	static char buf[16384];
	char *p = vma_block("/proc/self/maps", start, buf, sizeof(buf)), *nl;
	int n = 0;

	if (!p)
		return -1;
	nl = strchr(p, '\n');
	if (nl)
		*nl = '\0';
	l->name[0] = '\0';
	if (sscanf(p, "%*[0-9a-f]-%*[0-9a-f] %7s %lx %x:%x %lu %n", l->perms, &l->offset, &l->major, &l->minor,
		   &l->ino, &n) < 5)
		return -1;
	if (n)
		snprintf(l->name, sizeof(l->name), "%s", p + n);
	return 0;
}

/* Are we on foliOS with per-page mapcounts, or on Linux (which has them)? */
static int per_page_mapcounts(const void *addr)
{
	struct folio_view v;

	return folio_at(addr, &v) || v.page_mapcount >= 0;
}

/* Writing a tmpfs file fills the page cache: Shmem and Cached grow by its size. */
static int test_write_file(char *data)
{
	long shmem = meminfo_kb("Shmem"), cached = meminfo_kb("Cached");
	int fd = open(FILE_PATH, O_RDWR | O_CREAT | O_TRUNC, 0600);

	fill_pattern(data, SIZE / PAGE, 7);
	ok(fd >= 0 && write(fd, data, SIZE) == (ssize_t)SIZE, "a 1 MiB tmpfs file written");
	ok(near(meminfo_kb("Shmem") - shmem, KB(SIZE)) && near(meminfo_kb("Cached") - cached, KB(SIZE)),
	   "meminfo: Shmem and Cached grow by 1024 kB (Shmem %ld -> %ld, Cached %ld -> %ld)", shmem,
	   meminfo_kb("Shmem"), cached, meminfo_kb("Cached"));
	return fd;
}

/* maps of a shared file mapping: "rw-s", offset, the file's device and inode, its path. */
static void test_maps(int fd, char *p, char *q)
{
	struct map_line l = { 0 }, m = { 0 };
	struct stat st;

	fstat(fd, &st);
	maps_line(p, &l);
	maps_line(q, &m);
	ok(!strcmp(l.perms, "rw-s") && l.offset == 0 &&
	   l.major == major(st.st_dev) && l.minor == minor(st.st_dev) && l.ino == st.st_ino &&
	   !strcmp(l.name, FILE_PATH),
	   "maps: %s %08lx %02x:%02x %lu %s (stat: %02x:%02x %lu)", l.perms, l.offset, l.major,
	   l.minor, l.ino, l.name, major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
	ok(!strcmp(m.perms, "r--p") && m.offset == 16 * PAGE &&
	   m.ino == st.st_ino, "maps: a private read-only mapping at offset 64 KiB: %s %08lx",
	   m.perms, m.offset);
}

/* One mapper: every page private, none anonymous; Mapped and RssShmem count them. */
static void test_smaps_one(char *p, long mapped)
{
	long clean, dirty;
	struct folio_view v;

	ok(check_pattern(p, SIZE / PAGE, 7, SIZE / PAGE), "the mapping reads what write() wrote");
	clean = smaps_kb(p, "Private_Clean");
	dirty = smaps_kb(p, "Private_Dirty");
	ok(near(meminfo_kb("Mapped") - mapped, KB(SIZE)), "meminfo: Mapped grows by 1024 kB");
	ok(smaps_kb(p, "Rss") == KB(SIZE) && smaps_kb(p, "Anonymous") == 0 &&
	   smaps_kb(p, "Pss") == KB(SIZE) && smaps_kb(p, "Shared_Clean") == 0 &&
	   smaps_kb(p, "Shared_Dirty") == 0 && clean + dirty == KB(SIZE),
	   "smaps: Rss 1024 kB, Anonymous 0, Pss 1024, all private (clean %ld, dirty %ld)", clean,
	   dirty);
	ok(dirty == KB(SIZE), "smaps: write() left the page-cache folios dirty: Private_Dirty 1024 kB");
	ok(smaps_kb(p, "THPeligible") == 0, "smaps: THPeligible 0 (tmpfs mounted without huge=)");
	/* Linux 6.1 batches a task's RSS counts per thread: its own status may lag */
	if (folio_at(p, &v))
		ok(status_kb("RssShmem") >= 0, "status: RssShmem (Linux's lags: %ld kB)",
		   status_kb("RssShmem"));
	else
		ok(status_kb("RssShmem") == KB(SIZE), "status: RssShmem %ld kB (RssFile %ld kB: the program)",
		   status_kb("RssShmem"), status_kb("RssFile"));
}

/* pagemap and kpage* of one mapped tmpfs page. */
static void test_pagemap_one(char *p)
{
	unsigned long long e = pagemap_entry(p), last = pagemap_entry(p + SIZE - PAGE);
	unsigned long pfn = pfn_of(p);
	unsigned long long want = (1ULL << KPF_MMAP) | (1ULL << KPF_SWAPBACKED) | (1ULL << KPF_UPTODATE);

	ok((e >> 63) && (e & PM_FILE) && (last >> 63) && (last & PM_FILE) && pfn,
	   "pagemap: present, PM_FILE, a PFN (%#lx)", pfn);
	ok(pm_exclusive(p), "pagemap: PM_MMAP_EXCLUSIVE with one mapping");
	ok((kpageflags(pfn) & want) == want && !(kpageflags(pfn) & (1ULL << KPF_ANON)),
	   "kpageflags: MMAP SWAPBACKED UPTODATE, not ANON (%#llx)", kpageflags(pfn));
	ok(kpagecount(pfn) == 1, "kpagecount: 1");
}

/* A child maps the same pages (fork shares a MAP_SHARED mapping): both see shared. */
static void test_shared_with_child(char *p)
{
	unsigned long pfn = pfn_of(p), child_pfn = 0;
	int up[2], go[2];
	pid_t child;
	char c = 0;

	xpipe(up, 0);
	xpipe(go, 0);
	if (!(child = fork())) {
		unsigned long mine;

		for (unsigned long i = 0; i < SIZE; i += PAGE)
			c += ((volatile char *)p)[i];
		mine = pfn_of(p);
		write(up[1], &mine, sizeof(mine));
		read(go[0], &c, 1);
		_exit(0);
	}
	read(up[0], &child_pfn, sizeof(child_pfn));
	ok(child_pfn == pfn, "fork: the child maps the same page-cache page (pfn %#lx)", child_pfn);
	ok(smaps_kb(p, "Shared_Dirty") + smaps_kb(p, "Shared_Clean") == KB(SIZE) &&
	   smaps_kb(p, "Private_Dirty") + smaps_kb(p, "Private_Clean") == 0 &&
	   smaps_kb(p, "Pss") == KB(SIZE) / 2, "smaps with the child: all shared, Pss 512 kB");
	ok(!pm_exclusive(p) && kpagecount(pfn) == 2, "pagemap: not exclusive; kpagecount 2");
	write(go[1], &c, 1);
	wait_exit(child);
	ok(pm_exclusive(p) && kpagecount(pfn) == 1, "the child exited: exclusive again");
}

/* unlink with the mapping alive: " (deleted)"; the memory returns at the last unmap. */
static void test_unlink(int fd, char *p, char *q, long shmem)
{
	struct map_line l = { 0 };

	unlink(FILE_PATH);
	maps_line(p, &l);
	ok(!strcmp(l.name, FILE_PATH " (deleted)"), "maps after unlink: %s",
	   l.name);
	munmap(p, SIZE);
	munmap(q, PAGE);
	close(fd);
	ok(near(meminfo_kb("Shmem"), shmem) || meminfo_kb("Shmem") < shmem,
	   "meminfo: Shmem back to %ld kB after unmap and close (%ld)", shmem, meminfo_kb("Shmem"));
}

/* memfd and shared anon memory: their names; a read fault maps clean, a write dirties. */
static void test_memfd_and_shared_anon(void)
{
	int fd = memfd_create("fmp", 0);
	char *m = MAP_FAILED, *z = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct map_line l = { 0 }, a = { 0 };
	long clean, dirty;
	volatile char sink = 0;

	if (fd >= 0 && !ftruncate(fd, 16 * PAGE))
		m = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED)
		maps_line(m, &l);
	if (z != MAP_FAILED)
		maps_line(z, &a);
	ok(m != MAP_FAILED && !strcmp(l.name, "/memfd:fmp (deleted)") &&
	   !strcmp(l.perms, "rw-s"), "maps: memfd %s %s", l.perms, l.name);
	ok(z != MAP_FAILED && !strcmp(a.name, "/dev/zero (deleted)") &&
	   !strcmp(a.perms, "rw-s"), "maps: shared anon %s %s", a.perms, a.name);
	if (m == MAP_FAILED || z == MAP_FAILED)
		return;
	for (unsigned long i = 0; i < 16 * PAGE; i += PAGE)
		sink += ((volatile char *)m)[i] + ((volatile char *)z)[i];
	clean = smaps_kb(m, "Private_Clean");
	ok(clean == 64 && smaps_kb(m, "Private_Dirty") == 0 && smaps_kb(z, "Private_Clean") == 64,
	   "smaps: read faults map clean pages (memfd %ld kB, shared anon %ld kB)", clean,
	   smaps_kb(z, "Private_Clean"));
	ok(!(kpageflags(pfn_of(m)) & (1ULL << KPF_DIRTY)), "kpageflags: not DIRTY after a read");
	/* a write dirties the PTE; the folio's PG_dirty may wait for the unmap (Linux's shmem) */
	memset(m, 1, 16 * PAGE);
	dirty = smaps_kb(m, "Private_Dirty");
	ok(dirty == 64 && smaps_kb(m, "Private_Clean") == 0, "smaps: written, Private_Dirty %ld kB",
	   dirty);
	munmap(m, 16 * PAGE);
	munmap(z, 16 * PAGE);
	close(fd);
}

/* foliOS's views of a shmem THP: /proc/folio's mapping lines, the trace's kind. */
static void test_folio_view(int fd, char *t, char *u)
{
	struct folio_view v;
	struct stat st;
	char cmd[48], trace[8192];

	if (folio_at(t + 5 * PAGE, &v)) {
		skip("no /proc/folio (Linux)");
		return;
	}
	fstat(fd, &st);
	ok(!strcmp(v.mapping, "shmem") && v.inode == (long)st.st_ino && v.index == 5,
	   "/proc/folio: mapping %s, inode %ld, index %ld", v.mapping, v.inode, v.index);
	snprintf(cmd, sizeof(cmd), "pfn %lu", pfn_of(t));
	write_text("/proc/mapcount_trace", "clear");
	write_text("/proc/mapcount_trace", cmd);
	munmap(u, PMD_SIZE);
	write_text("/proc/mapcount_trace", "off");
	read_text("/proc/mapcount_trace", trace, sizeof(trace));
	ok(strstr(trace, " remove_pmd ") && strstr(trace, " shmem\n"),
	   "mapcount trace: the PMD unmap of a shmem folio, kind shmem");
}

/* A memfd of one 2 MiB THP mapped by a PMD at a 2 MiB boundary; MAP_FAILED if none. */
static char *map_shmem_thp(int fd)
{
	char *hole = map_aligned(PMD_SIZE, PMD_SIZE);

	if (!hole)
		return MAP_FAILED;
	return mmap(hole, PMD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
}

/*
 * The same THP mapped twice by this process: with per-page mapcounts each
 * page is mapped twice (shared, not exclusive); without, only one mm maps
 * the folio (private, exclusive).  Pss is half in both.
 */
static void test_thp_twice(char *t, char *u)
{
	int precise = per_page_mapcounts(t);
	long shared = smaps_kb(t, "Shared_Dirty") + smaps_kb(t, "Shared_Clean");
	long private = smaps_kb(t, "Private_Dirty") + smaps_kb(t, "Private_Clean");

	ok(pfn_of(u) == pfn_of(t), "a second mapping maps the same THP");
	ok(smaps_kb(t, "Pss") == 1024 && (precise ? shared == 2048 && private == 0 :
					  shared == 0 && private == 2048),
	   "smaps, %s: shared %ld kB, private %ld kB, Pss %ld", precise ? "per-page mapcounts" :
	   "no per-page mapcounts", shared, private, smaps_kb(t, "Pss"));
	ok(pm_exclusive(t) == !precise && kpagecount(pfn_of(t)) == 2,
	   "pagemap exclusive %d, kpagecount %ld", pm_exclusive(t), kpagecount(pfn_of(t)));
}

/* Write back a knob's choice saved as read ("always [never] ..."). */
static void restore_choice(const char *path, const char *saved)
{
	const char *open = strchr(saved, '[');
	char word[16];

	if (open && sscanf(open + 1, "%15[^]]", word) == 1)
		write_text(path, word);
}

static void test_shmem_thp(void)
{
	long pmd = meminfo_kb("ShmemPmdMapped"), fpmd = meminfo_kb("FilePmdMapped");
	long huge = meminfo_kb("ShmemHugePages");
	char saved[128] = "", *t, *u;
	int fd = memfd_create("fmp_thp", 0);
	unsigned long pfn;

	read_text(THP_DIR "shmem_enabled", saved, sizeof(saved));
	write_text(THP_DIR "shmem_enabled", "always");
	if (fd < 0 || ftruncate(fd, PMD_SIZE) || (t = map_shmem_thp(fd)) == MAP_FAILED) {
		ok(0, "a 2 MiB memfd mapped at a 2 MiB boundary");
		return;
	}
	memset(t, 3, PMD_SIZE);
	pfn = pfn_of(t);
	ok(pfn && !(pfn % 512) && pfns_contiguous(t, 512) &&
	   (kpageflags(pfn) & (1ULL << KPF_THP)) && (kpageflags(pfn) & (1ULL << KPF_COMPOUND_HEAD)),
	   "shmem THP: 512 contiguous PFNs from a 2 MiB boundary, kpageflags THP COMPOUND_HEAD");
	ok(smaps_kb(t, "ShmemPmdMapped") == 2048 && smaps_kb(t, "FilePmdMapped") == 0 &&
	   smaps_kb(t, "AnonHugePages") == 0 && smaps_kb(t, "THPeligible") == 1,
	   "smaps: ShmemPmdMapped 2048 kB, FilePmdMapped 0, THPeligible 1");
	ok(near(meminfo_kb("ShmemPmdMapped") - pmd, 2048) && meminfo_kb("FilePmdMapped") == fpmd &&
	   near(meminfo_kb("ShmemHugePages") - huge, 2048),
	   "meminfo: ShmemPmdMapped and ShmemHugePages +2048 kB, FilePmdMapped unchanged");
	u = map_shmem_thp(fd);
	if (u != MAP_FAILED) {
		(void)*(volatile char *)u;
		test_thp_twice(t, u);
		test_folio_view(fd, t, u);
		munmap(u, PMD_SIZE);
	}
	munmap(t, PMD_SIZE);
	close(fd);
	ok(meminfo_kb("ShmemPmdMapped") <= pmd && meminfo_kb("ShmemHugePages") <= huge,
	   "meminfo: ShmemPmdMapped and ShmemHugePages back after unmap and close");
	restore_choice(THP_DIR "shmem_enabled", saved);
}

int main(void)
{
	static char data[SIZE];
	long shmem, mapped;
	char *p, *q;
	int fd;

	mount_proc_sys();
	shmem = meminfo_kb("Shmem");
	fd = test_write_file(data);
	mapped = meminfo_kb("Mapped");
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	q = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 16 * PAGE);
	if (fd < 0 || p == MAP_FAILED || q == MAP_FAILED) {
		ok(0, "MAP_SHARED and MAP_PRIVATE mappings of the file");
		unlink(FILE_PATH);
		return tap_done();
	}
	test_maps(fd, p, q);
	test_smaps_one(p, mapped);
	test_pagemap_one(p);
	test_shared_with_child(p);
	test_unlink(fd, p, q, shmem);
	test_memfd_and_shared_anon();
	test_shmem_thp();
	return tap_done();
}
