/*
 * What the SMP guest tests (user/tests/test_smp_*.c) share: threads that may not
 * exist (a kernel without clone makes pthread_create fail: the thread
 * parts then skip), CPU pinning where sched_setaffinity exists, a SIGSEGV
 * that a thread survives (sigsetjmp per thread), a seeded PRNG, a clock
 * for time bounds.  Header-only, so each test stays one program.
 */
#ifndef USER_SMP_UTIL_H
#define USER_SMP_UTIL_H

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include "thp_util.h"

/* pthread_create, or its error (ENOSYS/EAGAIN where the kernel has no clone). */
static inline int try_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	return pthread_create(t, NULL, fn, arg);
}

/* Number of online CPUs (1 where the kernel cannot say). */
static inline int nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* Run the calling thread on CPU (cpu mod online CPUs); silently nothing without affinity. */
static inline void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % nr_cpus(), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* xorshift64*: one stream per seed, the same on every kernel. */
static inline uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/*
 * A SIGSEGV the faulting thread survives: it arms its own jump buffer
 * (SEGV_TRY) and the handler jumps back there; unarmed, the signal kills
 * as by default.  SA_NODEFER so the handler needs no mask restored.
 */
static __thread sigjmp_buf *segv_jmp;
static __thread volatile unsigned long segv_count;

static void segv_handler(int sig)
{
	if (segv_jmp) {
		segv_count++;
		siglongjmp(*segv_jmp, 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static inline void segv_catch(void)
{
	struct sigaction sa = { .sa_handler = segv_handler, .sa_flags = SA_NODEFER };

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* SEGV_TRY(buf) { access } else { it faulted } — buf a local sigjmp_buf. */
#define SEGV_TRY(buf) if ((segv_jmp = &(buf)), !sigsetjmp(buf, 0))
#define SEGV_END() (segv_jmp = NULL)

/*
 * A 2 MiB-aligned region of len bytes faulted in with 2 MiB THPs where the
 * kernel gives them (MADV_HUGEPAGE; the knobs on foliOS and Linux >= 6.8),
 * then each PMD split by an mprotect of one page and back (the VMAs merge
 * again): PTE-mapped 2M folios, as the benchmarks make them.  Page i's
 * first word is val(i).  NULL on failure.
 */
static inline char *map_2m_pte(size_t len, uint64_t (*val)(unsigned long))
{
	char *p = map_aligned(len, PMD_SIZE);

	if (!p)
		return NULL;
	thp_set(2048, "always");
	madvise(p, len, MADV_HUGEPAGE);
	for (unsigned long i = 0; i < len / PAGE; i++)
		*(uint64_t *)(p + i * PAGE) = val(i);
	for (size_t off = 0; off < len; off += PMD_SIZE) {
		mprotect(p + off, PAGE, PROT_READ);
		mprotect(p + off, PAGE, PROT_READ | PROT_WRITE);
	}
	thp_set(2048, "inherit");
	return p;
}

/*
 * Is p the start of a PTE-mapped 2M folio?  foliOS: the folio view; Linux:
 * kpageflags THP, 512 contiguous PFNs, no AnonHugePages (no PMD mapping).
 */
static inline int is_2m_pte(const char *p)
{
	unsigned long pfn = pfn_of(p);
	struct folio_view v;
	char buf[4096], *q;

	if (!pfn)
		return 0;
	if (folio_view_pfn(pfn, &v) == 0)
		return v.order == 9 && v.entire_mapcount == 0;
	if (read_text("/proc/self/smaps_rollup", buf, sizeof(buf)) ||
	    !(q = strstr(buf, "AnonHugePages:")) || strtol(q + 14, NULL, 10) != 0)
		return 0;
	return (kpageflags(pfn) >> KPF_THP & 1) && pfns_contiguous(p, 512);
}

/*
 * /proc/lock_stat around one benchmark, where the kernel has it (Linux has
 * it only with CONFIG_LOCK_STAT): lock_stat_clear() before the runs (Linux's
 * "write 0"), print_lock_stat(name) after them prints each line prefixed
 * "lock_stat NAME | ", so each benchmark's contentions are its own.
 */
static inline void lock_stat_clear(void)
{
	int fd = open("/proc/lock_stat", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "0", 1) != 1)
			perror("lock_stat clear");
		close(fd);
	}
}

static inline void print_lock_stat(const char *name)
{
	FILE *f = fopen("/proc/lock_stat", "r");
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		printf("lock_stat %s | %s", name, line);
	if (f)
		fclose(f);
}

#endif
