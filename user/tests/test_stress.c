/*
 * Guest test (TAP): many processes fork, fault, copy-on-write, split and
 * unmap large folios at the same time: switched by the timer on one CPU,
 * side by side on several (make test runs it on 1 and on 4).
 *
 * The kernel's locks (page-table locks, the folio's mapcount bit lock, the
 * rmap locks, the split's hold-off of every mm that maps the folio) keep
 * an rmap update or a page-table copy from being seen half-way by another
 * task.  What this test shows is the user-visible side of that: WORKERS
 * processes, each with its own mTHP/THP region, run ROUNDS rounds of fork + concurrent
 * writes in parent and child + partial munmap (PMD split) + mprotect, and
 * every byte each of them reads is the byte it expects.  Before that, each
 * worker logs SPINS steps of pure user-mode work into one pipe (writes
 * that never block): without timer preemption each worker's steps would
 * come in one run; their interleaving shows the timer switching them.
 */
#include "thp_util.h"
#include <signal.h>

#define WORKERS 6
#define ROUNDS  12
#define REGION  (4 * PMD_SIZE)
#define NPAGES  (REGION / PAGE)
#define SPINS   20

static int log_pipe[2];

/* Busy user-mode work with no system call: only the timer can switch us. */
static void spin(unsigned long n)
{
	for (volatile unsigned long i = 0; i < n; i++)
		;
}

/* The child's view: every 7th page rewritten (seed + i + 1), the rest intact. */
static int child_view_ok(const char *p, int seed)
{
	for (unsigned long i = 0; i < NPAGES; i++)
		if (*(const int *)(p + i * PAGE) != seed + (int)i + (i % 7 == 0))
			return 0;
	return 1;
}

/* One round of a worker; returns 0 or the step that saw wrong data. */
static int round_of(int id, int r)
{
	int seed = id * 100000 + r * 1000, status;
	char *p = map_aligned(REGION, PMD_SIZE);
	pid_t child;

	if (!p)
		return 1;
	madvise(p, REGION / 2, MADV_HUGEPAGE);  /* 2 MiB THPs in half, mTHP in the rest */
	fill_pattern(p, NPAGES, seed);
	child = fork();
	if (child == 0) {       /* the child rewrites every 7th page, then checks all */
		for (unsigned long i = 0; i < NPAGES; i += 7)
			*(int *)(p + i * PAGE) = seed + (int)i + 1;
		spin(20000);
		_exit(child_view_ok(p, seed) ? 0 : 9);
	}
	for (unsigned long i = 3; i < NPAGES; i += 5)   /* the parent writes too */
		*(int *)(p + i * PAGE) = seed + (int)i;
	status = child > 0 ? wait_exit(child) : -1;
	if (status)
		return status == -1 ? 2 : 3;
	if (!check_pattern(p, NPAGES, seed, NPAGES))    /* none of the child's writes */
		return 5;
	munmap(p + PMD_SIZE + 16 * PAGE, 8 * PAGE);     /* splits the second PMD */
	mprotect(p + 3 * PMD_SIZE, 64 * PAGE, PROT_READ);
	if (!check_pattern(p, 256, seed, NPAGES) ||
	    *(int *)(p + 3 * PMD_SIZE) != seed + 3 * 512)
		return 4;
	mprotect(p + 3 * PMD_SIZE, 64 * PAGE, PROT_READ | PROT_WRITE);
	munmap(p, REGION);
	return 0;
}

/* Log records: the worker's letter, then 's' (a spin step) or '0' + bad. */
static void worker(int id)
{
	char rec[2] = { (char)('A' + id), 's' };

	close(log_pipe[0]);
	for (int s = 0; s < SPINS; s++) {
		spin(2000000);
		if (write(log_pipe[1], rec, 2) != 2)
			_exit(9);
	}
	for (int r = 0; r < ROUNDS; r++) {
		int bad = round_of(id, r);

		rec[1] = (char)('0' + bad);
		if (write(log_pipe[1], rec, 2) != 2 || bad)
			_exit(10 + bad);
	}
	_exit(0);
}

int main(void)
{
	char rec[2], last = 0;
	int switches = 0, records = 0, spins = 0, bad = 0, failed_workers = 0;
	pid_t pids[WORKERS];

	thp_set(64, "always");
	thp_set(2048, "madvise");
	if (pipe(log_pipe)) {
		ok(0, "a pipe for the log");
		return tap_done();
	}
	for (int i = 0; i < WORKERS; i++)
		if (!(pids[i] = fork()))
			worker(i);
	close(log_pipe[1]);
	while (read(log_pipe[0], rec, 2) == 2) {
		if (rec[1] == 's') {
			switches += last && rec[0] != last;
			last = rec[0];
			spins++;
			continue;
		}
		records++;
		bad += rec[1] != '0';
	}
	for (int i = 0; i < WORKERS; i++)
		failed_workers += pids[i] < 0 || wait_exit(pids[i]) != 0;
	ok(records == WORKERS * ROUNDS && !bad && !failed_workers,
	   "%d workers x %d rounds of fork, COW, PMD split, mprotect: every byte as expected "
	   "(%d records, %d bad, %d workers failed)", WORKERS, ROUNDS, records, bad, failed_workers);
	ok(spins == WORKERS * SPINS && switches >= 2 * WORKERS,
	   "the timer switched between them in user mode: %d switches in %d spin steps "
	   "(%d without preemption)", switches, spins, WORKERS - 1);
	thp_set(64, "never");
	thp_set(2048, "inherit");
	return tap_done();
}
