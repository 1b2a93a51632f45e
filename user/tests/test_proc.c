/*
 * Guest test (TAP): /proc in Linux's formats, parsed with sscanf exactly as
 * a program on Linux parses it — meminfo, maps, smaps, smaps_rollup,
 * status, numa_maps, buddyinfo, kpageflags — before and after a fork that
 * shares 4 MiB; then /proc paths and lifetimes: "//", "." and ".." in
 * paths, no PID wrap, a zombie's status, pagemap after its mm has gone.  Runs unchanged on Linux (../shared/peer/linux-peer.sh);
 * the foliOS-only checks (exact THP counts) are skipped there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include "thp_util.h"

#define MIB (1UL << 20)

static int on_folios;


/* A "Key: N kB" value of /proc/meminfo, as free(1) reads it; -1 if absent. */
static long meminfo(const char *key)
{
	char line[256], name[64];
	unsigned long v;
	long found = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %lu kB", name, &v) == 2 && !strcmp(name, key))
			found = v;
	if (f)
		fclose(f);
	return found;
}

struct smap { long size, rss, pss, shared_dirty, private_dirty, anonymous, anon_huge, referenced; };

/* The smaps block of the VMA starting at start: sscanf of the header, then "Key: N kB" lines. */
static int smaps_of(const char *file, unsigned long start, struct smap *s)
{
	char line[256], key[64], perms[8];
	unsigned long lo, hi, off, ino, v;
	unsigned int maj, min;
	int in = 0;
	FILE *f = fopen(file, "r");

	memset(s, 0xff, sizeof(*s));
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &lo, &hi, perms, &off, &maj, &min, &ino) == 7) {
			in = lo == start || start == 0;
			continue;
		}
		if (!in || sscanf(line, "%63[^:]: %lu kB", key, &v) != 2)
			continue;
		long *p = !strcmp(key, "Size") ? &s->size : !strcmp(key, "Rss") ? &s->rss :
			  !strcmp(key, "Pss") ? &s->pss : !strcmp(key, "Shared_Dirty") ? &s->shared_dirty :
			  !strcmp(key, "Private_Dirty") ? &s->private_dirty :
			  !strcmp(key, "Anonymous") ? &s->anonymous :
			  !strcmp(key, "AnonHugePages") ? &s->anon_huge :
			  !strcmp(key, "Referenced") ? &s->referenced : NULL;
		if (p)
			*p = v;
	}
	if (f)
		fclose(f);
	return s->rss >= 0 ? 0 : -1;
}

/* Is there a maps line "start-end rw-p ..." for this range? */
static int maps_has(unsigned long start, unsigned long end)
{
	char line[256], perms[8];
	unsigned long lo, hi;
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && lo == start && hi == end &&
		    !strcmp(perms, "rw-p"))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

/* A "Key: N kB" value of a status file; -1 if absent. */
static long status_kb_of(const char *path, const char *key)
{
	char line[256], name[64];
	unsigned long v;
	long found = -1;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %lu kB", name, &v) == 2 && !strcmp(name, key))
			found = v;
	if (f)
		fclose(f);
	return found;
}

static char *map_4m(void)
{
	char *p = mmap(NULL, 6 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a = (char *)(((unsigned long)p + 2 * MIB - 1) & ~(2 * MIB - 1));

	if (a > p)
		munmap(p, a - p);
	munmap(a + 4 * MIB, p + 6 * MIB - (a + 4 * MIB));
	madvise(a, 4 * MIB, MADV_HUGEPAGE);
	for (unsigned long i = 0; i < 4 * MIB; i += 4096)
		a[i] = 1;
	return a;
}

static void test_meminfo_and_status(void)
{
	ok(meminfo("MemTotal") > 0 && meminfo("MemFree") > 0 && meminfo("AnonPages") >= 0 &&
	   meminfo("AnonHugePages") >= 0 && meminfo("PageTables") > 0,
	   "meminfo: MemTotal, MemFree, AnonPages, AnonHugePages, PageTables parse");
	ok(status_kb("VmRSS") > 0 && status_kb("RssAnon") >= 0 && status_kb("VmSize") > 0,
	   "status: VmSize, VmRSS, RssAnon parse");
}

static void test_smaps_alone(char *a)
{
	struct smap s, r;

	ok(maps_has((unsigned long)a, (unsigned long)a + 4 * MIB), "maps: the 4 MiB region, rw-p");
	ok(!smaps_of("/proc/self/smaps", (unsigned long)a, &s) && s.size == 4096 && s.rss == 4096 &&
	   s.pss == 4096 && s.private_dirty == 4096 && s.shared_dirty == 0 && s.anonymous == 4096,
	   "smaps alone: Size = Rss = Pss = Private_Dirty = Anonymous = 4096 kB");
	ok(!on_folios || s.anon_huge == 4096, "smaps: AnonHugePages 4096 kB (two PMD THPs)");
	ok(!smaps_of("/proc/self/smaps_rollup", 0, &r) && r.rss >= s.rss && r.pss >= s.pss &&
	   r.anonymous >= 4096, "smaps_rollup parses and covers the region");
}

static void test_smaps_shared(char *a)
{
	int go[2];
	char c = 0;
	struct smap s;
	pid_t pid;

	if (pipe(go) || (pid = fork()) < 0) {   /* out of memory (fault injection) */
		ok(0, "smaps after fork: a pipe and a child");
		return;
	}
	if (!pid) {
		close(go[1]);                   /* a dead parent reads as EOF */
		read(go[0], &c, 1);
		_exit(0);
	}
	ok(!smaps_of("/proc/self/smaps", (unsigned long)a, &s) && s.rss == 4096 && s.pss == 2048 &&
	   s.shared_dirty == 4096 && s.private_dirty == 0,
	   "smaps after fork: Pss halves to 2048 kB, all Shared_Dirty");
	write(go[1], &c, 1);
	waitpid(pid, NULL, 0);
	ok(!smaps_of("/proc/self/smaps", (unsigned long)a, &s) && s.pss == 4096 &&
	   s.private_dirty == 4096, "child gone: Pss 4096 kB and Private_Dirty again");
}

/* Linux's KPF_ bits the test looks at. */
#define KPF_BUDDY               10
#define KPF_MMAP                11
#define KPF_ANON                12
#define KPF_COMPOUND_HEAD       15
#define KPF_COMPOUND_TAIL       16

/* kpageflags of a THP's head and tail (when the kernel gave a THP). */
static void test_kpageflags(char *a)
{
	struct smap s;
	unsigned long long head, tail, want = (1ULL << KPF_ANON) | (1ULL << KPF_MMAP) | (1ULL << KPF_THP);

	smaps_of("/proc/self/smaps", (unsigned long)a, &s);
	if (s.anon_huge != 4096) {
		ok(1, "kpageflags: # SKIP no THP here");
		return;
	}
	head = kpageflags(pfn_of(a));
	tail = kpageflags(pfn_of(a + 4096));
	ok((head & want) == want && (head & (1ULL << KPF_COMPOUND_HEAD)) &&
	   (tail & want) == want && (tail & (1ULL << KPF_COMPOUND_TAIL)) &&
	   !(head & (1ULL << KPF_BUDDY)), "kpageflags: ANON MMAP THP, COMPOUND_HEAD / _TAIL");
}

static void test_other_files(void)
{
	char line[512];
	unsigned long free_blocks[11];
	int node;
	FILE *f = fopen("/proc/buddyinfo", "r");

	ok(f && fgets(line, sizeof(line), f) &&
	   sscanf(line, "Node %d, zone %*s %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu", &node,
		  &free_blocks[0], &free_blocks[1], &free_blocks[2], &free_blocks[3], &free_blocks[4],
		  &free_blocks[5], &free_blocks[6], &free_blocks[7], &free_blocks[8], &free_blocks[9],
		  &free_blocks[10]) == 12, "buddyinfo: Node 0, a zone, 11 orders");
	if (f)
		fclose(f);
	f = fopen("/proc/self/numa_maps", "r");
	ok(f && fgets(line, sizeof(line), f) && strstr(line, " default") != NULL,
	   "numa_maps: '<addr> default ...' lines");
	if (f)
		fclose(f);
	f = fopen("/proc/sys/vm/mmap_min_addr", "r");
	ok(f && fgets(line, sizeof(line), f) && !strcmp(line, "65536\n"),
	   "/proc/sys/vm/mmap_min_addr: 65536, Debian's");
	if (f)
		fclose(f);
	f = fopen("/proc/sys/vm/overcommit_memory", "r");
	ok(f && fgets(line, sizeof(line), f) && !strcmp(line, "0\n"),
	   "/proc/sys/vm/overcommit_memory: 0, the heuristic");
	if (f)
		fclose(f);
}

/*
 * uname says Linux (the ABI; foliOS's release names it), and /proc/version
 * is Linux's line with the same release.
 */
static void test_uname_version(void)
{
	char line[512], want[128];
	struct utsname u;
	int major, minor;
	FILE *f;

	ok(uname(&u) == 0 && !strcmp(u.sysname, "Linux") && !strcmp(u.machine, "x86_64") &&
	   sscanf(u.release, "%d.%d", &major, &minor) == 2,
	   "uname: Linux %s %s", u.release, u.machine);
	if (on_folios)
		ok(strstr(u.release, "foliOS") != NULL, "uname: the release names foliOS");
	snprintf(want, sizeof(want), "Linux version %s ", u.release);
	f = fopen("/proc/version", "r");
	ok(f && fgets(line, sizeof(line), f) && !strncmp(line, want, strlen(want)) &&
	   strstr(line, u.version), "/proc/version: 'Linux version <release> ...<version>'");
	if (f)
		fclose(f);
}

/* open(path) succeeds (and is closed): 0, else errno. */
static int open_errno(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Path lookup normalises "//", "." and ".." as Linux's walk does, with its errors. */
static void test_paths(void)
{
	ok(!open_errno("/proc//self/status") && !open_errno("//proc///meminfo"), "'//' in a path");
	ok(!open_errno("/proc/self/./status") && !open_errno("/proc/./meminfo"), "'.' in a path");
	ok(!open_errno("/proc/self/../self/status") && !open_errno("/../proc/meminfo") &&
	   !open_errno("/proc/1/../self/status"), "'..' in a path (and /.. is /)");
	ok(open_errno("/proc/meminfo/../meminfo") == ENOTDIR &&
	   open_errno("/proc/self/status/.") == ENOTDIR, "'.' or '..' after a file: ENOTDIR");
	ok(open_errno("/proc/nonexistent/../meminfo") == ENOENT, "'..' after a missing name: ENOENT");
	ok(open_errno("/proc/4294967297/status") == ENOENT && open_errno("/proc/01/status") == ENOENT,
	   "/proc/4294967297 and /proc/01 are no PID (no wrap to 1): ENOENT");
}

/* The "State:" line of /proc/<pid>/status; "" if it cannot be read. */
static const char *status_state(pid_t pid, char *line, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	*line = '\0';
	while (f && fgets(line, size, f) && strncmp(line, "State:", 6))
		;
	if (f)
		fclose(f);
	return strncmp(line, "State:", 6) ? "" : line;
}

/* A zombie's status opens and says so; a sleeping and a running process too. */
static void test_zombie_status(void)
{
	char line[128], path[64];
	int p[2], st;
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		char c;

		close(p[1]);
		read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	usleep(50000);
	ok(!strcmp(status_state(pid, line, sizeof(line)), "State:\tS (sleeping)\n"),
	   "status of a child blocked in read: State:\tS (sleeping)");
	ok(!strcmp(status_state(getpid(), line, sizeof(line)), "State:\tR (running)\n"),
	   "status of ourselves: State:\tR (running)");
	close(p[1]);
	usleep(50000);
	ok(!strcmp(status_state(pid, line, sizeof(line)), "State:\tZ (zombie)\n"),
	   "a zombie's status opens: State:\tZ (zombie)");
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	ok(status_kb_of(path, "VmSize") == -1, "a zombie's status has no Vm lines");
	waitpid(pid, &st, 0);
	ok(open_errno(path) == ENOENT, "once reaped its /proc directory is gone");
}

/* Read 8 bytes of the pagemap fd at the entry of addr: the count read. */
static long pagemap_read(int fd, unsigned long addr, unsigned long long *e)
{
	return pread(fd, e, 8, addr / 4096 * 8);
}

/* A pagemap fd whose process exited or exec'd reads EOF (0), not zeros. */
static void test_pagemap_gone(const char *self)
{
	unsigned long long e;
	char path[64], c;
	int p[2], fd;
	pid_t pid;

	for (int exec = 0; exec < 2; exec++) {
		pipe(p);
		pid = fork();
		if (pid == 0) {
			close(p[1]);
			read(p[0], &c, 1);
			if (exec)
				execl(self, self, "exit", (char *)NULL);
			_exit(0);
		}
		close(p[0]);
		snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
		fd = open(path, O_RDONLY);
		ok(fd >= 0 && pagemap_read(fd, (unsigned long)&e, &e) == 8,
		   "another process's pagemap reads while it lives");
		close(p[1]);
		usleep(100000);                 /* it exits, or execs and exits */
		ok(pagemap_read(fd, (unsigned long)&e, &e) == 0,
		   exec ? "pagemap after the process exec'd: EOF" : "pagemap after the process exited: EOF");
		waitpid(pid, NULL, 0);
		close(fd);
	}
}

/* prctl's task name shows in status; an option this kernel lacks (KSM's) is EINVAL. */
static void test_prctl_name(void)
{
	char name[16] = "", buf[512];

	ok(!prctl(PR_SET_NAME, "a-name-longer-than-15", 0, 0, 0) &&
	   !prctl(PR_GET_NAME, name, 0, 0, 0) && !strcmp(name, "a-name-longer-t") &&
	   !read_text("/proc/self/status", buf, sizeof(buf)) && strstr(buf, "Name:\ta-name-longer-t\n"),
	   "PR_SET_NAME truncates to 15 bytes, status shows it: %s", name);
	ok(prctl(0x7fff, 0, 0, 0, 0) == -1 && errno == EINVAL, "prctl of an unknown option: EINVAL");
}

int main(int argc, char **argv)
{
	char *a;

	if (argc > 1)                           /* test_pagemap_gone's exec */
		return 0;

	if (access("/proc/meminfo", R_OK)) {    /* Linux's init: mount them ourselves */
		mount("proc", "/proc", "proc", 0, NULL);
		mount("sysfs", "/sys", "sysfs", 0, NULL);
	}
	on_folios = access("/proc/folio", F_OK) == 0;
	printf("# test_proc on %s\n", on_folios ? "foliOS" : "another kernel");
	test_meminfo_and_status();
	a = map_4m();
	test_smaps_alone(a);
	test_kpageflags(a);
	test_smaps_shared(a);
	test_other_files();
	test_uname_version();
	munmap(a, 4 * MIB);
	test_paths();
	test_zombie_status();
	test_pagemap_gone(argv[0]);
	test_prctl_name();
	return tap_done();
}
