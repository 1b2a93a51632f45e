/*
 * What user/tests/test_smp_stress.c's cases share: a team of workers — forked
 * processes first, then threads — that count their operations and the
 * first thing each saw wrong in one MAP_SHARED page (so that processes
 * report as threads do); a barrier in that page that processes and threads
 * wait on alike; loads and stores that survive SIGBUS/SIGSEGV; the futex
 * call and the "# case: N ops in T ms" line.  Header-only.
 */
#ifndef USER_STRESS_UTIL_H
#define USER_STRESS_UTIL_H

#include "smp_util.h"
#include <limits.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define FUTEX_WAIT              0
#define FUTEX_WAKE              1
#define FUTEX_CMP_REQUEUE       4
#define FUTEX_PRIVATE_FLAG      128

#define MAX_WORKERS     12
#define GRACE_NS        (5000000000ULL) /* past the deadline: a barrier gives up on a dead peer */

/* One worker's tally, in memory every process of the test shares. */
struct wstat {
	long ops, bad, sigbus, aux;
	long res[4];                    /* a case's tally of outcomes */
	char why[112];                  /* the first thing this worker saw wrong */
};

struct barrier {
	int count, gen, stop;
};

struct shared {
	struct wstat w[MAX_WORKERS];
	struct barrier bar;
	uint64_t gen;                   /* case 2's truncation generation */
	int sealed;                     /* case 6: F_SEAL_WRITE was granted */
};

static struct shared *sh;
static uint64_t deadline;               /* now_ns() at which a case's workers stop */

#define CASE_NS         (800000000ULL)  /* how long a case races */

/* A case begins: its start, and its deadline set. */
static uint64_t start_case(void)
{
	uint64_t t0 = now_ns();

	deadline = t0 + CASE_NS;
	return t0;
}

/* A new tmpfs file, already unlinked: nothing left behind whatever happens. */
static int open_tmp(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0)
		unlink(path);
	return fd;
}

/* Count a wrong result of worker id; the first one's reason is kept. */
static void bad(int id, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(int id, const char *fmt, ...)
{
	va_list ap;

	if (sh->w[id].bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(sh->w[id].why, sizeof(sh->w[id].why), fmt, ap);
	va_end(ap);
}

/* The sum of one field over the workers, and the first reason given. */
#define SUM(field) ({ long s_ = 0; for (int i_ = 0; i_ < MAX_WORKERS; i_++) s_ += sh->w[i_].field; s_; })

static const char *first_why(void)
{
	for (int i = 0; i < MAX_WORKERS; i++)
		if (sh->w[i].bad)
			return sh->w[i].why;
	return "none";
}

/* A load or store that a SIGBUS/SIGSEGV interrupts: 0, or -1 (counted) if it faulted. */
static int try_load(const void *p, uint64_t *v)
{
	sigjmp_buf jb;

	SEGV_TRY(jb) {
		*v = *(const volatile uint64_t *)p;
		SEGV_END();
		return 0;
	}
	SEGV_END();
	return -1;
}

static int try_store(void *p, uint64_t v)
{
	sigjmp_buf jb;

	SEGV_TRY(jb) {
		*(volatile uint64_t *)p = v;
		SEGV_END();
		return 0;
	}
	SEGV_END();
	return -1;
}

/*
 * Workers 0..nprocs-1 are processes (forked while the caller is still
 * single-threaded), nprocs..nprocs+nthreads-1 threads.  team_join() reaps
 * both and counts the processes that died or exited non-zero.
 */
struct team {
	int nprocs, nthreads;
	pid_t pid[MAX_WORKERS];
	pthread_t t[MAX_WORKERS];
	int started[MAX_WORKERS];
};

static void (*team_fn)(int id);

static void *team_thread(void *arg)
{
	team_fn((int)(long)arg);
	return NULL;
}

static void team_start(struct team *tm, int nprocs, int nthreads, void (*fn)(int))
{
	memset(sh, 0, sizeof(*sh));
	team_fn = fn;
	tm->nprocs = nprocs;
	tm->nthreads = nthreads;
	fflush(NULL);
	for (int i = 0; i < nprocs; i++)
		if ((tm->pid[i] = fork()) == 0) {
			fn(i);
			_exit(0);
		}
	for (int i = 0; i < nthreads; i++)
		if (!(tm->started[i] = !try_thread(&tm->t[i], team_thread, (void *)(long)(nprocs + i))))
			bad(nprocs + i, "pthread_create failed");
}

static int team_join(struct team *tm)
{
	int died = 0;

	for (int i = 0; i < tm->nthreads; i++)
		if (tm->started[i])
			pthread_join(tm->t[i], NULL);
	for (int i = 0; i < tm->nprocs; i++) {
		int status = -1;

		if (tm->pid[i] < 0 || waitpid(tm->pid[i], &status, 0) != tm->pid[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			died++;
			printf("# worker process %d: wait status %#x\n", i, status);
		}
	}
	return died;
}

/*
 * All n workers meet; the last to come decides, by the clock, whether
 * another round follows (so they all agree).  Returns 1 to go on.  A peer
 * that died leaves the others waiting: past the deadline's grace they stop.
 */
static long futex(void *uaddr, int op, uint32_t val, const struct timespec *ts, void *uaddr2,
		  uint32_t val3);

static int barrier_wait(struct barrier *b, int n)
{
	const struct timespec ts = { 0, 10000000 };
	int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == n) {
		b->count = 0;
		if (now_ns() > deadline)
			b->stop = 1;
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		futex(&b->gen, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	} else {        /* spin a little (peers leave together), then sleep */
		for (int spins = 0; __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen; spins++) {
			if (now_ns() > deadline + GRACE_NS) {
				__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
				break;
			}
			if (spins < 64)
				sched_yield();
			else
				futex(&b->gen, FUTEX_WAIT, gen, &ts, NULL, 0);
		}
	}
	return !__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE);
}

/* Busy-wait (not sleep: the workers keep going) for up to ns, never past the deadline. */
static void spin_for(uint64_t ns)
{
	for (uint64_t until = MIN(now_ns() + ns, deadline); now_ns() < until;)
		;
}

/* The futex call itself (musl has no wrapper); -1 and errno as usual. */
static long futex(void *uaddr, int op, uint32_t val, const struct timespec *ts, void *uaddr2,
		  uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

/* The line we report next to Linux's: "# case: N ops in T ms (R ops/s)". */
static void report(const char *name, long ops, uint64_t t0)
{
	uint64_t ms = (now_ns() - t0) / 1000000;

	printf("# %s: %ld ops in %llu ms (%llu ops/s)\n", name, ops, (unsigned long long)ms,
	       (unsigned long long)(ms ? ops * 1000ULL / ms : 0));
}

#endif
