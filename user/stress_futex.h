/*
 * test_smp_stress's case 4 (see user/tests/test_smp_stress.c): futexes on a
 * page that is dropped and unmapped meanwhile, on never-touched and
 * PROT_NONE pages, and shared between processes.  Header-only, included
 * once.
 */
#ifndef USER_STRESS_FUTEX_H
#define USER_STRESS_FUTEX_H

#include "stress_util.h"

#define FX_WAITERS      3       /* threads 0..2 wait; 3 wakes and requeues; 4 drops the page */

static uint32_t *fx_page;

static void fx_worker(int id)
{
	const struct timespec ts = { 0, 200000 };
	uint64_t s = id + 5;
	long r;

	segv_catch();
	for (long i = 0; now_ns() < deadline; i++, sh->w[id].ops++) {
		uint32_t *a = fx_page, *b = fx_page + 16, *w = rnd(&s) & 1 ? a : b;
		int priv = rnd(&s) & 1 ? FUTEX_PRIVATE_FLAG : 0;

		if (id < FX_WAITERS) {          /* woken (0), EAGAIN, ETIMEDOUT, EFAULT (unmapped) */
			r = futex(w, FUTEX_WAIT | priv, 0, &ts, NULL, 0);
			if (r == 0 || errno == EAGAIN || errno == ETIMEDOUT || errno == EFAULT)
				sh->w[id].res[r == 0 ? 0 : errno == EAGAIN ? 1 : errno == ETIMEDOUT ? 2 : 3]++;
			else
				bad(id, "FUTEX_WAIT: %ld (%s)", r, strerror(errno));
		} else if (id == FX_WAITERS && rnd(&s) % 3 == 0) {    /* a's waiters to b, none woken */
			r = futex(a, FUTEX_CMP_REQUEUE | priv, 0, (void *)(long)INT_MAX, b, 0);
			if (r < 0 && errno != EAGAIN && errno != EFAULT)
				bad(id, "FUTEX_CMP_REQUEUE: %s", strerror(errno));
		} else if (id == FX_WAITERS) {
			if (i % 8 == 0 && try_store(a, 1) == 0)         /* an EAGAIN for a's waiters */
				sched_yield();
			r = futex(w, FUTEX_WAKE | priv, INT_MAX, NULL, NULL, 0);
			if (r >= 0)
				sh->w[id].aux += r;
			else if (priv || errno != EFAULT)
				bad(id, "FUTEX_WAKE%s: %s", priv ? "_PRIVATE" : "", strerror(errno));
			if (i % 8 == 0)
				try_store(a, 0);
		} else if (i % 8 == 7) {        /* drop the page: unmap it, map a new one there */
			if (munmap(fx_page, PAGE) || mmap(fx_page, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE |
							  MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != fx_page) {
				bad(id, "munmap and mmap again at %p: %s", (void *)fx_page, strerror(errno));
				return;
			}
		} else if (madvise(fx_page, PAGE, MADV_DONTNEED)) {
			bad(id, "MADV_DONTNEED: %s", strerror(errno));
		}
	}
}

/* Futex calls on never-touched and PROT_NONE pages, each with Linux's answer. */
static void fx_untouched(int id)
{
	const struct timespec ts = { 0, 100000 };
	static const struct { long off; int op; uint32_t val, val3; int err; } calls[] = {
		{ 0, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, 0, EAGAIN },
		{ PAGE, FUTEX_CMP_REQUEUE, 1, 0, 0 },
		{ PAGE + 64, FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG, 1, 1, EAGAIN },
		{ 128, FUTEX_WAIT, 1, 0, EAGAIN },
		{ PAGE + 128, FUTEX_WAIT, 0, 0, ETIMEDOUT },
		{ 256, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, 0, ETIMEDOUT },
		{ 2 * PAGE, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, 0, EFAULT },
		{ 2 * PAGE, FUTEX_WAIT, 0, 0, EFAULT },
	};

	while (now_ns() < deadline) {
		char *q = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (q == MAP_FAILED || mprotect(q + 2 * PAGE, PAGE, PROT_NONE)) {
			bad(id, "mmap: %s", strerror(errno));
			return;
		}
		for (int i = 0; i < 8; i++, sh->w[id].ops++) {
			int requeue = (calls[i].op & 127) == FUTEX_CMP_REQUEUE;
			long r = futex(q + calls[i].off, calls[i].op, calls[i].val,
				       requeue ? (void *)1L : &ts, q, calls[i].val3);

			if (r < 0 ? errno != calls[i].err : calls[i].err || r != 0)
				bad(id, "call %d on a never-touched page: %ld (%s), not %s", i, r,
				    r < 0 ? strerror(errno) : "", strerror(calls[i].err));
		}
		munmap(q, 3 * PAGE);
	}
}

/*
 * One turn on the shared word: wait (1 s at a time) while it is from; it
 * must then be from + 1; make it from + 2 — or, the parent past the
 * deadline, UINT32_MAX (stop) — and wake.  0 to go on.
 */
static int fx_turn(uint32_t *w, uint32_t from, int parent, long *woken, long *wakes)
{
	const struct timespec ts = { 1, 0 };
	uint32_t to;

	while (__atomic_load_n(w, __ATOMIC_SEQ_CST) == from && now_ns() < deadline + GRACE_NS)
		*woken += futex(w, FUTEX_WAIT, from, &ts, NULL, 0) == 0;
	if (*w != from + 1)
		return -1;
	to = parent && now_ns() > deadline ? UINT32_MAX : from + 2;
	__atomic_store_n(w, to, __ATOMIC_SEQ_CST);
	*wakes += futex(w, FUTEX_WAKE, 1, NULL, NULL, 0);
	return to == UINT32_MAX || madvise(w, PAGE, MADV_DONTNEED);    /* the word stays in the memfd */
}

/* Parent and child take turns on a shared futex in a memfd, each through a mapping of its own. */
static long fx_ping_pong(long *rounds, long *wakes, long *woken)
{
	int fd = memfd_create("stress_futex", 0);
	uint32_t *w, r = 0;
	pid_t pid;

	if (fd < 0 || ftruncate(fd, PAGE) ||
	    (w = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
		return -1;
	memset(sh, 0, sizeof(*sh));     /* the child's counts: sh->w[0].aux woken, .ops its wakes woke */
	*w = 1;
	if ((pid = fork()) == 0) {
		w = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		while (w != MAP_FAILED && !fx_turn(w, 2 * r, 0, &sh->w[0].aux, &sh->w[0].ops))
			r++;
		_exit(w == MAP_FAILED || *w != UINT32_MAX);
	}
	while (pid > 0 && !fx_turn(w, 2 * r + 1, 1, woken, wakes))
		r++;
	*rounds = r;
	munmap(w, PAGE);
	close(fd);
	return pid > 0 ? wait_exit(pid) : -1;
}

static void case_futex(void)
{
	long wakes = 0, woken = 0, rounds = 0, status, res[4] = { 0 }, died, ops;
	uint64_t t0 = start_case();
	struct team tm;

	fx_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	deadline = t0 + CASE_NS / 2;
	team_start(&tm, 0, FX_WAITERS + 2, fx_worker);
	died = team_join(&tm);
	for (int i = 0; i < FX_WAITERS * 4; i++)
		res[i % 4] += sh->w[i / 4].res[i % 4];
	ops = SUM(ops);
	ok(!SUM(bad) && !died && res[0] == sh->w[FX_WAITERS].aux, "futexes on a dropped page: %ld waits "
	   "(%ld woken, %ld EAGAIN, %ld ETIMEDOUT, %ld EFAULT), wakes woke %ld; %ld wrong (first: %s)",
	   res[0] + res[1] + res[2] + res[3], res[0], res[1], res[2], res[3], sh->w[FX_WAITERS].aux,
	   SUM(bad), first_why());
	munmap(fx_page, PAGE);
	deadline = now_ns() + CASE_NS / 4;
	team_start(&tm, 1, 3, fx_untouched);
	died = team_join(&tm);
	ops += SUM(ops);
	ok(!SUM(bad) && !died, "futexes on never-touched and PROT_NONE pages, 1 process and 3 threads: "
	   "%ld calls, %ld wrong (first: %s)", SUM(ops), SUM(bad), first_why());
	deadline = now_ns() + CASE_NS / 4;
	status = fx_ping_pong(&rounds, &wakes, &woken);
	report("futex", ops + 2 * rounds, t0);
	ok(!status && rounds && wakes + sh->w[0].ops > 0 && wakes == sh->w[0].aux && woken == sh->w[0].ops,
	   "shared futex in a memfd: %ld rounds; the parent's wakes woke %ld, the child was woken %ld "
	   "times; the child's woke %ld, the parent was woken %ld (child: %ld)", rounds, wakes,
	   sh->w[0].aux, sh->w[0].ops, woken, status);
}

#endif
