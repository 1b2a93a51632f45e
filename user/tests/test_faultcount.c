/*
 * Guest test (TAP): page faults are counted as Linux counts them
 * (mm_account_fault) — each first touch of an anonymous 4 KiB page is one
 * minor fault of the task that touched it; getrusage() reports them for
 * the process (RUSAGE_SELF), the calling thread (RUSAGE_THREAD) and the
 * reaped children (RUSAGE_CHILDREN, with a thread's faults kept after it
 * exited), wait4() for the child it reaps, /proc/<pid>/stat in fields 10
 * to 13 (minflt cminflt majflt cmajflt); a fault that maps nothing
 * (SIGSEGV) is not counted, and memory needs no I/O: no major fault.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "tap.h"

#define NPAGES  64
#define SLACK   12      /* faults of the test's own stack, libc and TAP output */

/* NPAGES untouched anon pages that THP will not map in one fault. */
static char *small_pages(void)
{
	char *p = mmap(NULL, NPAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, NPAGES * 4096, MADV_NOHUGEPAGE);
	return p;
}

static void touch(char *p)
{
	for (int i = 0; i < NPAGES; i++)
		p[i * 4096] = 1;
}

static long minflt(int who)
{
	struct rusage ru;

	return getrusage(who, &ru) ? -1 : ru.ru_minflt;
}

static long majflt(int who)
{
	struct rusage ru;

	return getrusage(who, &ru) ? -1 : ru.ru_majflt;
}

/* Field n (1-based) of /proc/self/stat, after the ")" that ends comm. */
static long stat_field(int n)
{
	char buf[1024], *s;
	FILE *f = fopen("/proc/self/stat", "r");
	long v = -1;
	size_t len;

	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	s = strrchr(buf, ')');
	for (int field = 2; s && field < n; field++)
		s = strchr(s + 1, ' ');
	if (s)
		sscanf(s + 1, "%ld", &v);
	return v;
}

static bool about(long delta, long expect)
{
	return delta >= expect && delta <= expect + SLACK;
}

static void test_self(void)
{
	char *p = small_pages();
	long before = minflt(RUSAGE_SELF), maj = majflt(RUSAGE_SELF), after, stat;

	touch(p);
	after = minflt(RUSAGE_SELF);
	ok(p && about(after - before, NPAGES), "touching %d new pages: %ld minor faults", NPAGES,
	   after - before);
	touch(p);
	ok(about(minflt(RUSAGE_SELF) - after, 0), "touching them again: %ld more",
	   minflt(RUSAGE_SELF) - after);
	ok(majflt(RUSAGE_SELF) == maj, "no major fault (ru_majflt %ld -> %ld)", maj,
	   majflt(RUSAGE_SELF));
	stat = stat_field(10);
	ok(stat >= after && stat <= after + SLACK, "/proc/self/stat minflt %ld, getrusage %ld",
	   stat, after);
	ok(stat_field(12) == majflt(RUSAGE_SELF), "/proc/self/stat majflt %ld", stat_field(12));
	munmap(p, NPAGES * 4096);
}

static void *thread_touch(void *arg)
{
	long before = minflt(RUSAGE_THREAD);

	touch(arg);
	return (void *)(minflt(RUSAGE_THREAD) - before);
}

static void test_thread(void)
{
	char *p = small_pages();
	long self = minflt(RUSAGE_SELF), mine = minflt(RUSAGE_THREAD);
	void *theirs = NULL;
	pthread_t t;

	ok(p && pthread_create(&t, NULL, thread_touch, p) == 0 && pthread_join(t, &theirs) == 0,
	   "a thread touched the pages");
	ok(about((long)theirs, NPAGES), "RUSAGE_THREAD in the thread: %ld faults", (long)theirs);
	ok(about(minflt(RUSAGE_THREAD) - mine, 0), "RUSAGE_THREAD here: %ld",
	   minflt(RUSAGE_THREAD) - mine);
	ok(about(minflt(RUSAGE_SELF) - self, NPAGES),
	   "RUSAGE_SELF keeps the exited thread's: %ld", minflt(RUSAGE_SELF) - self);
	munmap(p, NPAGES * 4096);
}

static void test_children(void)
{
	long children = minflt(RUSAGE_CHILDREN), cstat = stat_field(11);
	struct rusage ru;
	int status;
	pid_t pid;

	pid = xfork();
	if (!pid) {
		char *p = small_pages();

		if (!p)
			_exit(1);
		touch(p);
		_exit(0);
	}
	ok(wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status) && !WEXITSTATUS(status),
	   "the child touched its pages");
	ok(about(ru.ru_minflt, NPAGES), "wait4's rusage: %ld minor faults", ru.ru_minflt);
	ok(minflt(RUSAGE_CHILDREN) - children == ru.ru_minflt,
	   "RUSAGE_CHILDREN grew by the child's: %ld", minflt(RUSAGE_CHILDREN) - children);
	ok(stat_field(11) - cstat == ru.ru_minflt, "/proc/self/stat cminflt grew by %ld",
	   stat_field(11) - cstat);
	ok(stat_field(13) == majflt(RUSAGE_CHILDREN), "/proc/self/stat cmajflt %ld",
	   stat_field(13));
}

static sigjmp_buf segv_jmp;

static void on_segv(int sig __attribute__((unused)))
{
	siglongjmp(segv_jmp, 1);
}

static void test_failed_fault(void)
{
	char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile int faulted = 0;
	long before;

	signal(SIGSEGV, on_segv);
	before = minflt(RUSAGE_SELF);
	if (!sigsetjmp(segv_jmp, 1))
		*(volatile char *)p = 1;
	else
		faulted = 1;
	ok(faulted && minflt(RUSAGE_SELF) - before <= 2,
	   "a fault that ends in SIGSEGV is not counted: %ld", minflt(RUSAGE_SELF) - before);
	signal(SIGSEGV, SIG_DFL);
	munmap(p, 4096);
}

int main(void)
{
	mount_proc_sys();
	test_self();
	test_thread();
	test_children();
	test_failed_fault();
	return tap_done();
}
