/*
 * Guest test (TAP): the VMA system calls' corner cases, each with Linux's
 * answer — munmap's and mprotect's argument checks in Linux's order,
 * mprotect over a hole (the part before it changes, then ENOMEM),
 * PROT_GROWSDOWN, MAP_FIXED_NOREPLACE, mmap hints, brk's limits, every
 * madvise advice Linux takes on anonymous memory (hints return 0 and keep
 * the data), madvise over holes, MADV_DONTFORK and MADV_WIPEONFORK at
 * fork, and the resource limits that bound memory and fds (RLIMIT_DATA,
 * RLIMIT_AS, RLIMIT_NOFILE; inherited, set on another process with
 * prlimit).  Runs unchanged on Linux.
 */
#include "thp_util.h"
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MADV_COLD
#define MADV_COLD 20
#define MADV_PAGEOUT 21
#endif

#define RW (PROT_READ | PROT_WRITE)

/* -errno of a -1 return, else the value. */
static long res(long r)
{
	return r == -1 ? -errno : r;
}

/* The raw system call: musl's mprotect() rounds the range to pages itself. */
static long sys_mprotect(void *addr, size_t len, unsigned long prot)
{
	return res(syscall(SYS_mprotect, addr, len, prot));
}

static char *map(unsigned long pages)
{
	char *p = mmap(NULL, pages * PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void test_munmap_args(void)
{
	char *p = map(2);

	ok(res(munmap(p, (size_t)-1)) == -EINVAL, "munmap: a length that wraps when rounded is EINVAL");
	ok(res(munmap(p, 0)) == -EINVAL, "munmap: length 0 is EINVAL");
	ok(res(munmap(p + 1, PAGE)) == -EINVAL, "munmap: a misaligned start is EINVAL");
	ok(res(munmap((void *)0x7ffffffff000UL, 2 * PAGE)) == -EINVAL,
	   "munmap: a range reaching past user space is EINVAL");
	ok(res(munmap(p, 2 * PAGE)) == 0 && res(munmap(p, 2 * PAGE)) == 0,
	   "munmap: unmapping an unmapped range is 0");
}

static void test_mprotect_args(void)
{
	char *p = map(5);

	p[0] = p[4 * PAGE] = 5;
	ok(sys_mprotect(p, 0, 0x7777) == 0, "mprotect: length 0 is 0 before prot is looked at");
	ok(sys_mprotect(p + 1, PAGE, PROT_READ) == -EINVAL, "mprotect: misaligned start is EINVAL");
	ok(sys_mprotect(p, -PAGE, 0x7777) == -ENOMEM,
	   "mprotect: a wrapping length is ENOMEM (before prot)");
	ok(sys_mprotect(p, PAGE, 0x40) == -EINVAL, "mprotect: unknown prot bits are EINVAL");
	ok(sys_mprotect(p, PAGE, PROT_READ | PROT_GROWSDOWN | PROT_GROWSUP) == -EINVAL,
	   "mprotect: GROWSDOWN and GROWSUP together are EINVAL");
	ok(sys_mprotect(p, PAGE, PROT_READ | PROT_GROWSDOWN) == -EINVAL &&
	   sys_mprotect(p, PAGE, PROT_READ | PROT_GROWSUP) == -EINVAL,
	   "mprotect: GROWSDOWN / GROWSUP on a VMA that does not grow is EINVAL");
	{
		char local = 1;
		char *stack = (char *)((uintptr_t)&local & ~(PAGE - 1));

		ok(sys_mprotect(stack, PAGE, RW | PROT_GROWSDOWN) == 0 && local == 1,
		   "mprotect: PROT_GROWSDOWN on the stack is 0");
	}
	munmap(p + 2 * PAGE, PAGE);                     /* [p0 p1][hole][p3 p4] */
	ok(sys_mprotect(p, 5 * PAGE, PROT_READ) == -ENOMEM, "mprotect over a hole: ENOMEM");
	ok(touch_in_child(p, 1) == SIGSEGV && touch_in_child(p + PAGE, 1) == SIGSEGV,
	   "mprotect over a hole: the pages before the hole did change");
	ok(touch_in_child(p + 3 * PAGE, 1) == 0 && touch_in_child(p + 4 * PAGE, 1) == 0,
	   "mprotect over a hole: the pages after it did not");
	ok(sys_mprotect(p + 2 * PAGE, 3 * PAGE, PROT_READ) == -ENOMEM &&
	   touch_in_child(p + 3 * PAGE, 1) == 0, "mprotect starting in a hole: ENOMEM, nothing changed");
	ok(sys_mprotect(p, 2 * PAGE, RW) == 0 && p[0] == 5 && p[4 * PAGE] == 5,
	   "mprotect: back to read-write, data kept");
	munmap(p, 5 * PAGE);
}

/* A line of /proc/self/smaps' VmFlags for the VMA starting at p contains flag? */
static int vmflags_has(const char *p, const char *flag)
{
	static char buf[65536];
	char head[32], *s, *end;
	size_t len = 0;
	ssize_t n = 1;
	int fd = open("/proc/self/smaps", O_RDONLY);

	while (fd >= 0 && n > 0 && len < sizeof(buf) - 1)      /* seq_file: a page per read */
		len += (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0 ? n : 0;
	close(fd);
	buf[len] = 0;
	snprintf(head, sizeof(head), "%lx-", (unsigned long)p);
	for (s = buf; s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, head, strlen(head)))
			break;
	if (!s || !(s = strstr(s, "VmFlags:")) || !(end = strchr(s, '\n')))
		return 0;
	*end = 0;
	return strstr(s, flag) != NULL;
}

/* The raw system call: musl's mmap() checks the offset itself. */
static long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, unsigned long off)
{
	return res(syscall(SYS_mmap, addr, len, prot, flags, fd, off));
}

/* mmap's checks in Linux's order; the commit check (no request larger than RAM). */
static void test_mmap_args(void)
{
	char *p;

	ok(sys_mmap(NULL, 0, PROT_READ, MAP_PRIVATE, 99, 0) == -EBADF,
	   "mmap: a bad fd is EBADF before the length is looked at");
	ok(sys_mmap(NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0) == -EINVAL,
	   "mmap: anonymous memory neither private nor shared is EINVAL");
	ok(sys_mmap((void *)0x100000000000UL, -2UL << 20, PROT_READ, MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	   -ENOMEM, "mmap: a length past user space is ENOMEM before the mapping type");
	ok(sys_mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 100) == -EINVAL,
	   "mmap: an offset inside a page is EINVAL");
	ok(sys_mmap(NULL, 64UL << 40, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == -ENOMEM,
	   "mmap: 64 TiB of private writable memory is more than RAM: ENOMEM");
	p = mmap(NULL, 64UL << 40, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ok(p != MAP_FAILED && vmflags_has(p, " nr ") && !vmflags_has(p, " ac "),
	   "mmap: with MAP_NORESERVE it maps (VmFlags nr, not ac)");
	munmap(p, 64UL << 40);
	p = mmap(NULL, 64UL << 40, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(p != MAP_FAILED && !vmflags_has(p, " ac "), "mmap: read-only it maps, not charged");
	ok(sys_mprotect(p, 64UL << 40, RW) == -ENOMEM, "mprotect: making it writable is charged: ENOMEM");
	munmap(p, 64UL << 40);
	p = map(2);
	ok(vmflags_has(p, " ac "), "a private writable mapping is charged (VmFlags ac)");
	munmap(p, 2 * PAGE);
}

static void test_mmap_placement(void)
{
	char *p = map(4), *q;

	p[0] = 9;
	q = mmap(p + PAGE, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ok(q == MAP_FAILED && errno == EEXIST && p[0] == 9, "MAP_FIXED_NOREPLACE over a mapping: EEXIST");
	q = mmap(p - PAGE, 2 * PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ok(q == MAP_FAILED && errno == EEXIST,
	   "MAP_FIXED_NOREPLACE overlapping a mapping's start: EEXIST");
	munmap(p + 2 * PAGE, 2 * PAGE);
	q = mmap(p + 2 * PAGE, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ok(q == p + 2 * PAGE, "MAP_FIXED_NOREPLACE at a free address maps exactly there");
	q = mmap(p + 3 * PAGE + 1, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ok(q == MAP_FAILED && errno == EINVAL, "MAP_FIXED_NOREPLACE at a misaligned address: EINVAL");
	q = mmap(p + 3 * PAGE, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(q == p + 3 * PAGE, "a free hint address is honoured");
	munmap(q, PAGE);
	q = mmap(p + 3 * PAGE + 100, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(q == p + 3 * PAGE, "an unaligned free hint is rounded down to its page");
	munmap(q, PAGE);
	q = mmap(p, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(q != MAP_FAILED && q != p && p[0] == 9,
	   "a taken hint gives another address, the mapping stays");
	munmap(q, PAGE);
	q = mmap((void *)0x1000, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(q == (void *)0x10000, "a hint below mmap_min_addr is raised to it (64 KiB)");
	munmap(q, PAGE);
	munmap(p, 4 * PAGE);
}

static unsigned long sys_brk(unsigned long b)
{
	return syscall(SYS_brk, b);
}

static void test_brk(void)
{
	unsigned long cur = sys_brk(0), top = (cur + PAGE - 1) & ~(PAGE - 1), wall = top + 16 * PAGE;
	char *w = mmap((void *)wall, PAGE, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	ok(w == (char *)wall, "brk: a mapping 16 pages above the break");
	ok(sys_brk(0x7ffffffff000UL + PAGE) == cur && sys_brk(1UL << 62) == cur,
	   "brk: beyond user space is refused (the break stays)");
	ok(sys_brk(cur - (1UL << 40)) == cur, "brk: below the start of the heap is refused");
	ok(sys_brk(wall) == cur, "brk: up to a mapping is refused");
	ok(sys_brk(wall - PAGE + 1) == cur,
	   "brk: into the page below a mapping is refused (a page stays free)");
	ok(sys_brk(wall - PAGE) == wall - PAGE, "brk: up to one page below a mapping works");
	((char *)wall - 2 * PAGE)[0] = 3;
	ok(sys_brk(cur) == cur, "brk: shrinking back works");
	munmap(w, PAGE);
}

static void test_madvise_hints(void)
{
	static const struct { int advice; const char *name; } hints[] = {
		{ MADV_NORMAL, "NORMAL" }, { MADV_RANDOM, "RANDOM" }, { MADV_SEQUENTIAL, "SEQUENTIAL" },
		{ MADV_WILLNEED, "WILLNEED" }, { MADV_FREE, "FREE" }, { MADV_COLD, "COLD" },
		{ MADV_PAGEOUT, "PAGEOUT" }, { MADV_MERGEABLE, "MERGEABLE" },
		{ MADV_UNMERGEABLE, "UNMERGEABLE" }, { MADV_DONTDUMP, "DONTDUMP" },
		{ MADV_DODUMP, "DODUMP" }, { MADV_DOFORK, "DOFORK" }, { MADV_KEEPONFORK, "KEEPONFORK" },
	};

	for (unsigned i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		char *p = map(4);

		fill_pattern(p, 4, 100 * i);
		ok(res(madvise(p, 4 * PAGE, hints[i].advice)) == 0 && check_pattern(p, 4, 100 * i, ~0UL),
		   "madvise(MADV_%s) on touched anon memory: 0, data kept", hints[i].name);
		munmap(p, 4 * PAGE);
	}
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif

/* Are all n pages from p present (pagemap)? */
static int all_present(const char *p, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (!(pagemap_entry(p + i * PAGE) >> 63))
			return 0;
	return 1;
}

static void test_madvise_populate(void)
{
	char *p = map(16), *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	madvise(p, 16 * PAGE, MADV_NOHUGEPAGE);
	ok(!all_present(p, 8) && res(madvise(p, 8 * PAGE, MADV_POPULATE_WRITE)) == 0 &&
	   all_present(p, 8) && !all_present(p + 8 * PAGE, 8),
	   "MADV_POPULATE_WRITE faults in exactly its range");
	ok(res(madvise(p + 8 * PAGE, 8 * PAGE, MADV_POPULATE_READ)) == 0 && all_present(p + 8 * PAGE, 8),
	   "MADV_POPULATE_READ faults its range in too");
	ok(res(madvise(ro, PAGE, MADV_POPULATE_WRITE)) == -EINVAL &&
	   res(madvise(none, PAGE, MADV_POPULATE_READ)) == -EINVAL &&
	   res(madvise(ro, PAGE, MADV_POPULATE_READ)) == 0,
	   "MADV_POPULATE_*: an access the protection forbids is EINVAL");
	munmap(p + 4 * PAGE, PAGE);
	ok(res(madvise(p, 8 * PAGE, MADV_POPULATE_WRITE)) == -ENOMEM,
	   "MADV_POPULATE_WRITE over a hole: ENOMEM");
	munmap(p, 16 * PAGE);
	munmap(ro, PAGE);
	munmap(none, PAGE);
}

static void test_madvise_walk(void)
{
	char *p = map(6);

	fill_pattern(p, 6, 1);
	ok(res(madvise(p, PAGE, 99)) == -EINVAL && res(madvise(p, PAGE, MADV_REMOVE)) == -EINVAL,
	   "madvise: unknown advice and MADV_REMOVE on private anon are EINVAL");
	ok(res(madvise(p + 1, PAGE, MADV_DONTNEED)) == -EINVAL &&
	   res(madvise(p, (size_t)-1, MADV_DONTNEED)) == -EINVAL && check_pattern(p, 6, 1, ~0UL),
	   "madvise: misaligned start or wrapping length is EINVAL, nothing dropped");
	ok(res(madvise(p, 0, MADV_DONTNEED)) == 0, "madvise: length 0 is 0");
	munmap(p + 2 * PAGE, PAGE);                     /* [p0 p1][hole][p3 p4 p5] */
	ok(res(madvise(p, 6 * PAGE, MADV_DONTNEED)) == -ENOMEM, "madvise over a hole: ENOMEM");
	ok(p[0] == 0 && p[PAGE] == 0 && p[3 * PAGE] == 0 && p[5 * PAGE] == 0,
	   "madvise over a hole: the pages on both sides were still dropped");
	fill_pattern(p + 3 * PAGE, 3, 7);
	ok(res(madvise(p + 2 * PAGE, 4 * PAGE, MADV_DONTNEED)) == -ENOMEM && p[3 * PAGE] == 0,
	   "madvise starting in a hole: ENOMEM, the mapped part dropped");
	munmap(p, 6 * PAGE);
	ok(res(madvise(p, PAGE, MADV_NORMAL)) == -ENOMEM, "madvise of an unmapped range: ENOMEM");
}

static void test_fork_advice(void)
{
	char *d = map(2), *w = map(2);
	int fds[2], st;
	char v[2] = { 0, 0 };
	pid_t pid;

	d[0] = 'd';
	w[0] = 'w';
	ok(res(madvise(d, 2 * PAGE, MADV_DONTFORK)) == 0 &&
	   res(madvise(w, 2 * PAGE, MADV_WIPEONFORK)) == 0,
	   "MADV_DONTFORK and MADV_WIPEONFORK: 0");
	ok(vmflags_has(d, " dc ") && vmflags_has(w, " wf "), "smaps VmFlags shows dc and wf");
	xpipe(fds, 0);
	pid = fork();
	if (pid == 0) {
		v[0] = madvise(d, PAGE, MADV_NORMAL) == -1 && errno == ENOMEM;
		v[1] = w[0] == 0 && w[PAGE] == 0;
		w[0] = 'c';
		write(fds[1], v, 2);
		_exit(0);
	}
	read(fds[0], v, 2);
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && v[0] == 1,
	   "MADV_DONTFORK: the child has no such mapping");
	ok(v[1] == 1, "MADV_WIPEONFORK: the child's copy starts zeroed");
	ok(d[0] == 'd' && w[0] == 'w', "the parent's data is untouched");
	ok(res(madvise(w, 2 * PAGE, MADV_KEEPONFORK)) == 0 && res(madvise(d, 2 * PAGE, MADV_DOFORK)) == 0 &&
	   !vmflags_has(d, " dc ") && !vmflags_has(w, " wf "),
	   "MADV_DOFORK and MADV_KEEPONFORK undo them");
	close(fds[0]);
	close(fds[1]);
	munmap(d, 2 * PAGE);
	munmap(w, 2 * PAGE);
}

/*
 * Run check() in a child (limits set there stay there) and return the
 * verdict bytes it writes, n of them; 0 in each that went wrong.
 */
static void in_child(void (*check)(char *v), char *v, int n)
{
	int fds[2], st;
	pid_t pid;

	memset(v, 0, n);
	xpipe(fds, 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		check(v);
		write(fds[1], v, n);
		_exit(0);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], v, n) != n)
		memset(v, 0, n);
	close(fds[0]);
	waitpid(pid, &st, 0);
}

static void check_rlimit_data(char *v)
{
	struct rlimit r = { status_kb("VmData:") * 1024 + (1 << 20), RLIM_INFINITY };
	unsigned long cur = sys_brk(0);
	char *ro;

	v[0] = setrlimit(RLIMIT_DATA, &r) == 0;
	v[1] = mmap(NULL, 2 << 20, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
	       errno == ENOMEM;
	ro = mmap(NULL, 2 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	v[2] = ro != MAP_FAILED;
	v[3] = sys_mprotect(ro, 2 << 20, RW) == -ENOMEM && sys_mprotect(ro, PAGE, RW) == 0;
	v[4] = mmap(NULL, 256 << 10, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED;
	v[5] = sys_brk(cur + (2 << 20)) == cur && sys_brk(cur + 4 * PAGE) == cur + 4 * PAGE;
}

static void check_rlimit_as(char *v)
{
	struct rlimit r = { status_kb("VmSize:") * 1024 + (4 << 20), RLIM_INFINITY };

	v[0] = setrlimit(RLIMIT_AS, &r) == 0;
	v[1] = mmap(NULL, 8 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
	       errno == ENOMEM;
	v[2] = mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED;
}

static void check_rlimit_nofile(char *v)
{
	struct rlimit r;
	int fd, last = -1;

	getrlimit(RLIMIT_NOFILE, &r);
	r.rlim_cur = 5;
	v[0] = setrlimit(RLIMIT_NOFILE, &r) == 0;
	while ((fd = dup(0)) >= 0 && fd < 10)
		last = fd;
	v[1] = last >= 3 && last < 5 && errno == EMFILE;        /* the verdict pipe holds one */
	v[2] = dup2(0, 5) == -1 && errno == EBADF && fcntl(0, F_DUPFD, 5) == -1 && errno == EINVAL;
}

static long sys_prlimit(pid_t pid, int resource, const struct rlimit *new, struct rlimit *old)
{
	return syscall(SYS_prlimit64, pid, resource, new, old);
}

/* A grandchild inherits a limit; another process's limit is set with prlimit. */
static void check_rlimit_inherit(char *v)
{
	struct rlimit r = { 3 << 20, 5 << 20 }, got = { 0, 0 };
	int go[2], back[2];
	pid_t pid;

	v[0] = setrlimit(RLIMIT_CORE, &r) == 0;
	if (pipe(go) || pipe(back))
		return;
	pid = fork();
	if (pid == 0) {
		char c;

		getrlimit(RLIMIT_CORE, &got);
		c = got.rlim_cur == 3 << 20 && got.rlim_max == 5 << 20;
		write(back[1], &c, 1);
		read(go[0], &c, 1);             /* the parent changes our limit meanwhile */
		getrlimit(RLIMIT_CORE, &got);
		c = got.rlim_cur == 1 << 20 && got.rlim_max == 2 << 20;
		write(back[1], &c, 1);
		_exit(0);
	}
	r = (struct rlimit){ 1 << 20, 2 << 20 };
	v[2] = pid > 0 && read(back[0], &v[2], 1) == 1 && v[2];
	v[1] = pid > 0 && sys_prlimit(pid, RLIMIT_CORE, &r, &got) == 0 && got.rlim_cur == 3 << 20;
	write(go[1], "x", 1);
	v[1] = read(back[0], &v[4], 1) == 1 && v[4] && v[1];
	waitpid(pid, NULL, 0);
	r = (struct rlimit){ 6 << 20, 5 << 20 };
	v[3] = setrlimit(RLIMIT_CORE, &r) == -1 && errno == EINVAL &&
	       sys_prlimit(0, 99, NULL, &got) == -1 && errno == EINVAL;
}

/* What a program sizes itself by: sysinfo and sysconf, the PMD THP size in sysfs. */
static void test_sizes(void)
{
	struct sysinfo si;
	char buf[64];

	ok(sysinfo(&si) == 0 && si.mem_unit == 1 &&
	   si.totalram / 1024 == (unsigned long)meminfo_kb("MemTotal") &&
	   si.freeram <= si.totalram && si.procs >= 1, "sysinfo: RAM in bytes as MemTotal, processes");
	ok(sysconf(_SC_PHYS_PAGES) == (long)(si.totalram / PAGE), "sysconf(_SC_PHYS_PAGES) from it");
	ok(!read_text(THP_DIR "hpage_pmd_size", buf, sizeof(buf)) && !strcmp(buf, "2097152\n"),
	   "transparent_hugepage/hpage_pmd_size: 2097152");
}

static void test_rlimits(void)
{
	struct rlimit r;
	char v[8];

	ok(!getrlimit(RLIMIT_DATA, &r) && r.rlim_cur == RLIM_INFINITY && r.rlim_max == RLIM_INFINITY &&
	   !getrlimit(RLIMIT_AS, &r) && r.rlim_cur == RLIM_INFINITY &&
	   !getrlimit(RLIMIT_STACK, &r) && r.rlim_cur == 8 << 20 && r.rlim_max == RLIM_INFINITY,
	   "rlimits: Linux's defaults for DATA, AS and STACK");
	in_child(check_rlimit_data, v, 6);
	ok(v[0] && v[1], "RLIMIT_DATA: a private writable mapping past it is ENOMEM");
	ok(v[2] && v[3], "RLIMIT_DATA: read-only memory is not data, until mprotect makes it so (ENOMEM)");
	ok(v[4] && v[5], "RLIMIT_DATA: what fits still maps; brk past it is refused, below it works");
	in_child(check_rlimit_as, v, 3);
	ok(v[0] && v[1] && v[2], "RLIMIT_AS: any mapping past it is ENOMEM, a smaller one maps");
	in_child(check_rlimit_nofile, v, 3);
	ok(v[0] && v[1], "RLIMIT_NOFILE 5: the fifth new fd is EMFILE");
	ok(v[2], "RLIMIT_NOFILE 5: dup2 to fd 5 is EBADF, F_DUPFD from 5 EINVAL");
	in_child(check_rlimit_inherit, v, 4);
	ok(v[0] && v[2], "rlimits: a child inherits its parent's");
	ok(v[1], "rlimits: prlimit reads and sets another process's");
	ok(v[3], "rlimits: soft above hard and an unknown resource are EINVAL");
}

int main(void)
{
	mount_proc_sys();
	test_munmap_args();
	test_mprotect_args();
	test_mmap_args();
	test_mmap_placement();
	test_brk();
	test_madvise_hints();
	test_madvise_walk();
	test_madvise_populate();
	test_fork_advice();
	test_rlimits();
	test_sizes();
	return tap_done();
}
