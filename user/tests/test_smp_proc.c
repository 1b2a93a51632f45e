/*
 * /proc of a process whose threads change its memory on other CPUs: a
 * child's 3 threads mmap, touch, mprotect (splitting THPs) and munmap in a
 * loop, and fork children that write and exit, while the parent reads the
 * child's maps, smaps, smaps_rollup, status, pagemap, PROCMAP_QUERY
 * (where the kernel has it) and kpageflags / kpagecount of its pages, and
 * writes its clear_refs — and a 4th thread of the child reads the same of
 * itself.  Each read must succeed
 * (or fail only as Linux fails it once the process is gone: ESRCH, ENOENT)
 * and be self-consistent: maps' VMAs in order, smaps' Rss at most Size
 * and the sum of its four parts, status' VmRSS the sum of its parts and at
 * most VmHWM, a region the child keeps still shows the same PFNs and
 * stays anon and mapped, and no PFN reads as a torn page.  The kernel
 * must not crash.  On one CPU the same runs interleaved.
 */
#include "smp_util.h"
#include "procmap_query_abi.h"
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#define NR_MUTATORS     3
#define FIXED_PAGES     16
#define CHURN_LEN       (4UL << 20)
#define TIME_NS         3000000000ULL
#define TEXT_MAX        (256 << 10)
#define KPF_ANON        12
#define KPF_MMAP        11
#define KPF_BUDDY       10
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16

#define PROCMAP_QUERY_COVERING_OR_NEXT_VMA 0x10

/* What a reader saw wrong, by check. */
struct verdict {
	unsigned long reads, bad_read, bad_maps, bad_smaps, bad_status, bad_pfn, torn;
	char first[128];        /* what went wrong first, for the log */
};

/* Count a bad answer (cond) under counter; the first one is named in v->first with errno. */
static void bad_if(struct verdict *v, unsigned long *counter, int cond, const char *what)
{
	if (!cond)
		return;
	(*counter)++;
	if (!v->first[0])
		snprintf(v->first, sizeof(v->first), "%s (errno %d)", what, errno);
}

static char *fixed;                     /* the child's FIXED_PAGES, never changed after set-up */
static volatile int stop;
static char text[TEXT_MAX];             /* the parent's, or the child's reader thread's */

/* A whole /proc file in one read (one walk of the mm); -1 with errno on failure. */
static long read_whole(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	long n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* Is errno what Linux gives for a process that is exiting or gone? */
static int gone_errno(void)
{
	return errno == ESRCH || errno == ENOENT;
}

/* maps: every line a range start < end, the ends rising (Linux's m_start resumes past the last). */
static int maps_ok(const char *buf)
{
	unsigned long start, end, last = 0;

	for (const char *p = buf; *p; p = strchr(p, '\n') + 1) {
		if (sscanf(p, "%lx-%lx", &start, &end) != 2 || start >= end || end <= last)
			return 0;
		last = end;
		if (!strchr(p, '\n'))
			break;
	}
	return 1;
}

static long field_kb(const char *p, const char *key)
{
	const char *q = strstr(p, key);

	return q ? strtol(q + strlen(key), NULL, 10) : -1;
}

/* smaps: per VMA Rss <= Size, Rss = Shared_* + Private_*, Pss <= Rss, Anonymous <= Rss. */
static int smaps_ok(const char *buf)
{
	for (const char *p = strstr(buf, "Size:"); p; p = strstr(p + 1, "\nSize:")) {
		long size = field_kb(p, "Size:"), rss = field_kb(p, "Rss:"), pss = field_kb(p, "Pss:");
		long parts = field_kb(p, "Shared_Clean:") + field_kb(p, "Shared_Dirty:") +
			     field_kb(p, "Private_Clean:") + field_kb(p, "Private_Dirty:");

		if (size < 0 || rss < 0 || rss > size || parts != rss || pss > rss ||
		    field_kb(p, "Anonymous:") > rss)
			return 0;
	}
	return 1;
}

/* smaps_rollup: Rss = Shared_* + Private_*, Pss and Anonymous at most Rss. */
static int rollup_ok(const char *buf)
{
	long rss = field_kb(buf, "Rss:");

	if (!*buf)
		return 1;       /* exited between */
	return rss >= 0 && field_kb(buf, "Pss:") <= rss && field_kb(buf, "Anonymous:") <= rss &&
	       rss == field_kb(buf, "Shared_Clean:") + field_kb(buf, "Shared_Dirty:") +
		      field_kb(buf, "Private_Clean:") + field_kb(buf, "Private_Dirty:");
}

/* status: VmRSS = RssAnon + RssFile + RssShmem <= VmHWM (Linux's task_mem reads each once). */
static int status_ok(const char *buf)
{
	long rss = field_kb(buf, "VmRSS:");

	if (rss < 0)
		return 1;       /* exited between: no Vm lines */
	return rss == field_kb(buf, "RssAnon:") + field_kb(buf, "RssFile:") +
		      field_kb(buf, "RssShmem:") && rss <= field_kb(buf, "VmHWM:");
}

/* One text file of dir ("/proc/<pid>" or "/proc/self") read and judged; false if it was gone. */
static int check_text(const char *dir, const char *name, int (*judge)(const char *),
		      unsigned long *bad, struct verdict *v)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	v->reads++;
	if (read_whole(path, text, sizeof(text)) < 0) {
		bad_if(v, &v->bad_read, !gone_errno(), path);
		return 0;
	}
	bad_if(v, bad, !judge(text), path);
	return 1;
}

/*
 * Does pagemap (fd) still show fixed page i as entry e?  Not once the
 * child has exited (its mm torn down between the two reads): the page
 * was freed with it, which is no fault of the flags read meanwhile.
 */
static bool still_mapped(int fd, int i, unsigned long long e)
{
	unsigned long long again;

	return pread(fd, &again, 8, ((unsigned long)fixed / PAGE + i) * 8) == 8 && again == e;
}

/*
 * pagemap of the fixed pages: each present with the PFN of pfns[] (filled
 * on the first call), and kpageflags / kpagecount of those PFNs: anon,
 * mapped, at least one mapping.  0 if the file is gone.
 */
static int check_fixed(const char *dir, unsigned long *pfns, struct verdict *v)
{
	unsigned long long e[FIXED_PAGES], f;
	char path[64];
	int fd, kf = open("/proc/kpageflags", O_RDONLY), kc = open("/proc/kpagecount", O_RDONLY);
	long n;

	snprintf(path, sizeof(path), "%s/pagemap", dir);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? pread(fd, e, sizeof(e), (unsigned long)fixed / PAGE * 8) : -1;
	v->reads++;
	if (n != sizeof(e))
		bad_if(v, &v->bad_read, n > 0 || (n < 0 && !gone_errno()), "pagemap of the fixed pages");
	for (int i = 0; n == sizeof(e) && i < FIXED_PAGES; i++) {
		unsigned long pfn = e[i] & ((1ULL << 55) - 1), count = 0;

		if (!pfns[i])
			pfns[i] = pfn;
		bad_if(v, &v->bad_pfn, !(e[i] >> 63) || pfn != pfns[i], "a fixed page's PFN");
		if (pread(kf, &f, 8, pfn * 8) != 8 || pread(kc, &count, 8, pfn * 8) != 8)
			bad_if(v, &v->bad_read, 1, "kpageflags, kpagecount");
		else if (!(f >> KPF_ANON & 1) || !(f >> KPF_MMAP & 1) || !count)
			bad_if(v, &v->bad_pfn, still_mapped(fd, i, e[i]),
			       "a fixed page's kpageflags or kpagecount");
	}
	close(fd);
	close(kf);
	close(kc);
	return n == sizeof(e);
}

/*
 * kpageflags of the present pages of [start, end) (pagemap): those pages
 * are being freed and reused meanwhile, but a page never reads as free
 * and mapped at once, nor as a compound head and tail at once.
 */
static void check_range(int pm, int kf, unsigned long start, unsigned long end, struct verdict *v)
{
	static unsigned long long e[CHURN_LEN / PAGE];
	unsigned long long f;
	size_t len = end - start < CHURN_LEN ? end - start : CHURN_LEN;
	long n = pread(pm, e, len / PAGE * 8, start / PAGE * 8);

	v->reads++;
	if (n < 0)
		bad_if(v, &v->bad_read, !gone_errno(), "pagemap of a VMA");
	for (long i = 0; i < n / 8; i++) {
		unsigned long pfn = e[i] & ((1ULL << 55) - 1);

		if (!(e[i] >> 63) || pread(kf, &f, 8, pfn * 8) != 8)
			continue;
		bad_if(v, &v->torn, ((f >> KPF_BUDDY & 1) && (f >> KPF_MMAP & 1)) ||
			   ((f >> KPF_COMPOUND_HEAD & 1) && (f >> KPF_COMPOUND_TAIL & 1)),
		       "kpageflags of a page in use");
	}
}

/* check_range() over every VMA of the maps text (its first CHURN_LEN each); 0 if gone. */
static int check_churn(const char *dir, const char *maps, struct verdict *v)
{
	char path[64];
	unsigned long start, end;
	int pm, kf = open("/proc/kpageflags", O_RDONLY);

	snprintf(path, sizeof(path), "%s/pagemap", dir);
	pm = open(path, O_RDONLY);
	if (pm < 0) {
		bad_if(v, &v->bad_read, !gone_errno(), path);
		close(kf);
		return 0;
	}
	for (const char *p = maps; *p && sscanf(p, "%lx-%lx", &start, &end) == 2;
	     p = strchr(p, '\n') + 1) {
		if (start < (1UL << 47))
			check_range(pm, kf, start, end, v);
		if (!strchr(p, '\n'))
			break;
	}
	close(pm);
	close(kf);
	return 1;
}

/*
 * PROCMAP_QUERY on dir's maps, VMA after VMA from address 0 (with room
 * for names): each answer a range above the last, the fixed pages inside
 * one.  ENOTTY (a kernel without it) ends the walk; ENOENT past the last
 * VMA, ESRCH once the process is gone.
 */
static void check_query(const char *dir, struct verdict *v)
{
	struct procmap_query q;
	char path[64], name[256];
	unsigned long addr = 0, found_fixed = 0;
	int fd, n = 0;

	snprintf(path, sizeof(path), "%s/maps", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	for (; n < 1000; n++, addr = q.vma_end) {
		q = (struct procmap_query){ .size = sizeof(q), .query_addr = addr,
					    .query_flags = PROCMAP_QUERY_COVERING_OR_NEXT_VMA,
					    .vma_name_size = sizeof(name),
					    .vma_name_addr = (uintptr_t)name };
		v->reads++;
		if (ioctl(fd, PROCMAP_QUERY, &q)) {
			bad_if(v, &v->bad_read, errno != ENOTTY && errno != ENOENT && !gone_errno(),
			       "PROCMAP_QUERY");
			break;
		}
		bad_if(v, &v->bad_maps, q.vma_start >= q.vma_end || q.vma_end <= addr,
		       "PROCMAP_QUERY's order");
		found_fixed |= q.vma_start <= (uintptr_t)fixed && (uintptr_t)fixed < q.vma_end;
	}
	bad_if(v, &v->bad_maps, n && errno == ENOENT && !found_fixed, "PROCMAP_QUERY's fixed VMA");
	close(fd);
}

/* One round of every view of dir; 0 once the process is gone. */
static int read_round(const char *dir, unsigned long *pfns, struct verdict *v)
{
	static char maps[TEXT_MAX];
	int alive = check_text(dir, "maps", maps_ok, &v->bad_maps, v);

	memcpy(maps, text, sizeof(maps));
	alive &= check_churn(dir, maps, v);
	alive &= check_text(dir, "smaps", smaps_ok, &v->bad_smaps, v);
	alive &= check_text(dir, "smaps_rollup", rollup_ok, &v->bad_smaps, v);
	alive &= check_text(dir, "status", status_ok, &v->bad_status, v);
	alive &= check_fixed(dir, pfns, v);
	check_query(dir, v);
	return alive;
}

/* A mutator thread of the child: map, fill, mprotect part, unmap; fork now and then. */
static void *mutator(void *arg)
{
	uint64_t s = (uintptr_t)arg * 7919 + 1;
	int id = (int)(uintptr_t)arg;

	pin_cpu(id + 1);
	while (!stop) {
		size_t len = rnd(&s) % 4 ? (1 + rnd(&s) % 64) * PAGE : CHURN_LEN;
		char *p = len == CHURN_LEN ? map_aligned(len, PMD_SIZE) :
			  mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pid_t pid;

		if (!p || p == MAP_FAILED)
			continue;
		madvise(p, len, MADV_HUGEPAGE);
		for (size_t off = 0; off < len; off += PAGE)
			p[off] = 1;
		if (len > PAGE)         /* a middle page: a PMD split where a THP maps it */
			mprotect(p + len / PAGE / 2 * PAGE, PAGE, PROT_READ);
		if (rnd(&s) % 16 == 0 && (pid = fork()) >= 0) {
			if (pid == 0) {
				p[0] = 2;
				_exit(0);
			}
			waitpid(pid, NULL, 0);
		}
		munmap(p, len);
	}
	return NULL;
}

/* The child's own reader: /proc/self while its siblings change the mm. */
static void *self_reader(void *arg)
{
	struct verdict *v = arg;
	unsigned long pfns[FIXED_PAGES] = { 0 };

	pin_cpu(0);
	while (!stop)
		read_round("/proc/self", pfns, v);
	return NULL;
}

/* The child: the fixed pages, then the threads for TIME_NS; exit status = self-reader failures. */
static int child(int ready_fd)
{
	static struct verdict v;
	pthread_t t[NR_MUTATORS + 1];
	int n = 0;
	unsigned long bad;

	fixed = mmap(NULL, FIXED_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (fixed == MAP_FAILED)
		return 98;
	madvise(fixed, FIXED_PAGES * PAGE, MADV_NOHUGEPAGE);
	for (int i = 0; i < FIXED_PAGES; i++)
		fixed[i * PAGE] = (char)i;
	write(ready_fd, &fixed, sizeof(fixed));
	close(ready_fd);
	for (; n < NR_MUTATORS; n++)
		if (try_thread(&t[n], mutator, (void *)(uintptr_t)n))
			break;
	if (n == NR_MUTATORS && !try_thread(&t[n], self_reader, &v))
		n++;
	for (uint64_t end = now_ns() + TIME_NS; now_ns() < end;)
		usleep(10000);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	bad = v.bad_read + v.bad_maps + v.bad_smaps + v.bad_status + v.bad_pfn + v.torn;
	printf("# child's reads of itself: %lu, failed %lu, bad maps %lu, smaps %lu, status %lu, "
	       "fixed PFNs %lu, torn %lu%s%s\n", v.reads, v.bad_read, v.bad_maps, v.bad_smaps,
	       v.bad_status, v.bad_pfn, v.torn, v.first[0] ? "; first: " : "", v.first);
	if (n <= NR_MUTATORS)
		return 100;     /* no threads here */
	return bad ? (bad > 99 ? 99 : (int)bad) : 0;
}

/* The parent's reads of the child until it exits; the rounds read. */
static unsigned long parent_reads(pid_t pid, struct verdict *v)
{
	unsigned long pfns[FIXED_PAGES] = { 0 }, rounds = 0;
	char dir[32];
	int clear = open((snprintf(dir, sizeof(dir), "/proc/%d/clear_refs", pid), dir), O_WRONLY);

	snprintf(dir, sizeof(dir), "/proc/%d", pid);
	pin_cpu(0);
	while (read_round(dir, pfns, v)) {
		if (clear >= 0 && write(clear, rounds % 2 ? "1" : "4", 1) != 1)
			bad_if(v, &v->bad_read, !gone_errno(), "clear_refs");
		rounds++;
	}
	if (clear >= 0)
		close(clear);
	return rounds;
}

int main(void)
{
	struct verdict v = { 0 };
	int fds[2], status = -1;
	unsigned long rounds;
	pid_t pid;

	mount_proc_sys();
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# test_smp_proc: %d CPUs\n", nr_cpus());
	xpipe(fds, 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		_exit(child(fds[1]));
	}
	close(fds[1]);
	ok(pid > 0 && read(fds[0], &fixed, sizeof(fixed)) == sizeof(fixed), "child up");
	rounds = parent_reads(pid, &v);
	waitpid(pid, &status, 0);
	printf("# parent: %lu rounds, %lu reads%s%s\n", rounds, v.reads,
	       v.first[0] ? "; first bad: " : "", v.first);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 100)
		skip("no threads");
	else
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "the child's own reads of /proc/self are consistent (status %#x)", status);
	ok(rounds > 0 && !v.bad_read, "reads of /proc/<pid> succeed while the child lives (%lu failed)",
	   v.bad_read);
	ok(!v.bad_maps, "maps, PROCMAP_QUERY: ranges in order, the fixed pages in one (%lu bad)",
	   v.bad_maps);
	ok(!v.bad_smaps, "smaps, smaps_rollup: Rss <= Size, parts add up (%lu bad)", v.bad_smaps);
	ok(!v.bad_status, "status: VmRSS = RssAnon + RssFile + RssShmem <= VmHWM (%lu bad)",
	   v.bad_status);
	ok(!v.bad_pfn, "the fixed pages keep their PFNs, anon and mapped (%lu bad)", v.bad_pfn);
	ok(!v.torn, "no page reads both free and mapped, or head and tail (%lu torn)", v.torn);
	return tap_done();
}
