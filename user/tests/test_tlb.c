/*
 * Guest test (TAP): what TLB flushing guarantees, as one CPU sees it.
 * Each check first warms the TLB (the process touches the pages), then
 * changes the mapping and touches them again: a missing or too narrow
 * flush would let the access through the stale translation.
 *   - munmap (one page: invlpg; 64 pages: past the single-page ceiling),
 *     then a read faults; memory mapped there again reads as zeros
 *   - MADV_DONTNEED, then the pages read as zeros
 *   - mprotect(PROT_READ), then a write faults (4 KiB pages and a 2 MiB
 *     range that may be one PMD leaf)
 *   - fork write-protects the parent's pages: the parent's next write
 *     copies, and the child still reads the old data
 *   - /proc/interrupts has Linux's layout with a "TLB" line
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts --smp 4).
 */
#include "thp_util.h"
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#define NPAGES 64

static sigjmp_buf segv_jmp;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(segv_jmp, 1);
}

/* Does an access to p (a write if write) fault with SIGSEGV? */
static int access_faults(volatile char *p, int write)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	volatile int faulted = 0;

	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(segv_jmp, 1))
		faulted = 1;
	else if (write)
		*p = 7;
	else
		(void)*p;
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

/* Touch n pages from p for writing, then read them again: their translations are cached. */
static void warm(char *p, unsigned long n, int seed)
{
	volatile char sum = 0;

	for (unsigned long i = 0; i < n; i++)
		p[i * PAGE] = (char)(seed + i);
	for (unsigned long i = 0; i < n; i++)
		sum += p[i * PAGE];
	(void)sum;
}

static int all_zero(const char *p, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (p[i * PAGE])
			return 0;
	return 1;
}

static char *map_anon(unsigned long len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void test_munmap(unsigned long n, const char *what)
{
	char *p = map_anon(n * PAGE);

	warm(p, n, 1);
	ok(munmap(p, n * PAGE) == 0 && access_faults(p, 0) && access_faults(p + (n - 1) * PAGE, 0),
	   "munmap of %s: a read of a page just used faults", what);
	ok(mmap(p, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == p &&
	   all_zero(p, n), "munmap of %s: memory mapped there again reads zeros", what);
	munmap(p, n * PAGE);
}

static void test_dontneed(void)
{
	char *p = map_anon(NPAGES * PAGE);

	warm(p, NPAGES, 1);
	ok(madvise(p, PAGE, MADV_DONTNEED) == 0 && all_zero(p, 1),
	   "MADV_DONTNEED of one page: it reads zero");
	warm(p, NPAGES, 1);
	ok(madvise(p, NPAGES * PAGE, MADV_DONTNEED) == 0 && all_zero(p, NPAGES),
	   "MADV_DONTNEED of %d pages: they read zero", NPAGES);
	munmap(p, NPAGES * PAGE);
}

static void test_mprotect(void)
{
	char *p = map_anon(NPAGES * PAGE), *huge = map_aligned(PMD_SIZE, PMD_SIZE);

	warm(p, NPAGES, 1);
	ok(mprotect(p, PAGE, PROT_READ) == 0 && access_faults(p, 1) && !access_faults(p, 0),
	   "mprotect(PROT_READ) of one page: a write faults, a read does not");
	ok(mprotect(p, NPAGES * PAGE, PROT_READ) == 0 && access_faults(p + (NPAGES - 1) * PAGE, 1),
	   "mprotect(PROT_READ) of %d pages: a write to the last faults", NPAGES);
	ok(p[(NPAGES - 1) * PAGE] == (char)NPAGES, "the write that faulted left the data alone");
	madvise(huge, PMD_SIZE, MADV_HUGEPAGE);
	warm(huge, PMD_SIZE / PAGE, 3);
	ok(mprotect(huge, PMD_SIZE, PROT_READ) == 0 && access_faults(huge + PMD_SIZE / 2, 1),
	   "mprotect(PROT_READ) of 2 MiB (a PMD leaf where THP is on): a write faults");
	ok(mprotect(huge + PAGE, PAGE, PROT_NONE) == 0 && access_faults(huge + PAGE, 0) &&
	   !access_faults(huge, 0), "PROT_NONE on one page of it (a PMD split): a read faults there only");
	munmap(p, NPAGES * PAGE);
	munmap(huge, PMD_SIZE);
}

/* After fork the parent writes a page it had writable: the child must keep the old data. */
static void test_fork_cow(void)
{
	char *p = map_anon(NPAGES * PAGE), c;
	int to_child[2], status;
	unsigned long pfn;
	pid_t pid;

	warm(p, NPAGES, 10);
	pfn = pfn_of(p);
	xpipe(to_child, 0);
	pid = fork();
	if (pid == 0) {
		int same = read(to_child[0], &c, 1) == 1 && p[0] == 10 && p[(NPAGES - 1) * PAGE] ==
			   (char)(10 + NPAGES - 1);

		_exit(same ? 0 : 1);
	}
	p[0] = 'P';
	p[(NPAGES - 1) * PAGE] = 'Q';
	ok(pfn_of(p) != pfn || !pfn, "fork: the parent's write after fork copied the page");
	write(to_child[1], "x", 1);
	ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "fork: the child still reads the data from before the parent's writes");
	close(to_child[0]);
	close(to_child[1]);
	munmap(p, NPAGES * PAGE);
}

/* "TLB:" then one count per CPU of the header, then "TLB shootdowns". */
static int tlb_line_ok(const char *line, int ncpus)
{
	const char *s = line;
	int counts = 0;

	while (*s == ' ')
		s++;
	if (strncmp(s, "TLB:", 4))
		return 0;
	for (s += 4; ; counts++) {
		char *end;

		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			break;
		strtoul(s, &end, 10);
		s = end;
	}
	return counts == ncpus && !strcmp(s, "TLB shootdowns\n");
}

static void test_proc_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[1024];
	int ncpus = 0, tlb = 0;

	ok(f != NULL, "/proc/interrupts exists");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f))
		for (char *s = line; (s = strstr(s, "CPU")); s += 3)
			ncpus++;
	ok(ncpus >= 1 && !strncmp(line + strspn(line, " "), "CPU0 ", 5),
	   "its header names the CPUs: CPU0 ... (%d)", ncpus);
	while (fgets(line, sizeof(line), f))
		tlb += tlb_line_ok(line, ncpus);
	fclose(f);
	ok(tlb == 1, "it has one \"TLB: n ... TLB shootdowns\" line with a count per CPU");
}

int main(void)
{
	mount_proc_sys();
	test_munmap(1, "one page");
	test_munmap(NPAGES, "64 pages");
	test_dontneed();
	test_mprotect();
	test_fork_cow();
	test_proc_interrupts();
	return tap_done();
}
