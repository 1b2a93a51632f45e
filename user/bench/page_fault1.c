/*
 * will-it-scale's page_fault1, foliOS's way (the same static binary runs
 * on Linux): N tasks each repeat mmap of a private anon region (128 MiB),
 * a write to every page (one page fault each), munmap — as processes and
 * as threads (pthreads; where the kernel has no clone the thread runs
 * print "unsupported").  Counted, as will-it-scale does, in pages faulted;
 * wall clock (clock_gettime(CLOCK_MONOTONIC)), not --icount.
 *
 *   page_fault1 [-m MiB] [-n TASKS] [-s SECONDS] [-r REPS] [-f 4K|THP] [-k process|thread|all]
 *
 * Defaults: 128 MiB, one task per online CPU, 3 s per run, 3 repetitions,
 * 4K (MADV_NOHUGEPAGE; THP: MADV_HUGEPAGE, PMD faults), both kinds.
 * One line per repetition:
 *   page_fault1 KIND FOLIO cpus=C tasks=N mib=M pages_per_s=P loops=L task_pages=a,b,...
 * (pages_per_s: pages faulted by all tasks / run time; loops: whole
 * mmap-touch-munmap rounds completed); after each kind's repetitions
 * /proc/lock_stat if the kernel has it, cleared before them, each line
 * prefixed "lock_stat page_fault1 KIND FOLIO | ".
 */
#include "../smp_util.h"
#include <getopt.h>

#define MAX_TASKS       64

static size_t len = 128UL << 20;
static int ntasks, reps = 3, thp;
static double seconds = 3;

/* Per-task counters in MAP_SHARED memory, so processes report too. */
struct counters {
	volatile int go, stop;
	volatile unsigned long pages[MAX_TASKS], loops[MAX_TASKS];
};
static struct counters *cnt;

/* will-it-scale's loop: map, touch every page, unmap, until told to stop. */
static void task_loop(int k)
{
	pin_cpu(k);
	while (!cnt->go)
		sched_yield();
	while (!cnt->stop) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return;
		madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		for (size_t off = 0; off < len && !cnt->stop; off += PAGE) {
			p[off] = 0;
			cnt->pages[k]++;
		}
		munmap(p, len);
		cnt->loops[k] += !cnt->stop;
	}
}

static void *thread_fn(void *arg)
{
	task_loop((int)(long)arg);
	return NULL;
}

/* Start N tasks of the kind; 0, or -1 if they cannot exist here (no threads). */
static int start(int threads, pid_t *pid, pthread_t *t)
{
	for (int k = 0; k < ntasks; k++) {
		if (threads && try_thread(&t[k], thread_fn, (void *)(long)k)) {
			cnt->stop = 1;
			while (k--)
				pthread_join(t[k], NULL);
			return -1;
		}
		if (!threads && (pid[k] = fork()) == 0) {
			task_loop(k);
			_exit(0);
		}
	}
	return 0;
}

static void one(int threads)
{
	const char *kind = threads ? "thread" : "process";
	unsigned long total = 0, loops = 0;
	pid_t pid[MAX_TASKS];
	pthread_t t[MAX_TASKS];
	uint64_t t0;

	memset((void *)cnt, 0, sizeof(*cnt));
	printf("page_fault1 %s %s cpus=%d tasks=%d mib=%zu ", kind, thp ? "THP" : "4K", nr_cpus(),
	       ntasks, len >> 20);
	if (start(threads, pid, t)) {
		printf("unsupported\n");
		return;
	}
	t0 = now_ns();
	cnt->go = 1;
	while (now_ns() - t0 < seconds * 1e9)
		usleep(20000);
	for (int k = 0; k < ntasks; k++)
		total += cnt->pages[k], loops += cnt->loops[k];
	t0 = now_ns() - t0;
	cnt->stop = 1;
	for (int k = 0; k < ntasks; k++)
		threads ? pthread_join(t[k], NULL) : wait_exit(pid[k]);
	printf("pages_per_s=%.0f loops=%lu task_pages=", total * 1e9 / t0, loops);
	for (int k = 0; k < ntasks; k++)
		printf("%s%lu", k ? "," : "", cnt->pages[k]);
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *kinds = "all";
	int opt;

	while ((opt = getopt(argc, argv, "m:n:s:r:f:k:")) != -1) {
		if (opt == 'm')
			len = strtoul(optarg, NULL, 0) << 20;
		else if (opt == 'n')
			ntasks = atoi(optarg);
		else if (opt == 's')
			seconds = atof(optarg);
		else if (opt == 'r')
			reps = atoi(optarg);
		else if (opt == 'f')
			thp = !strcmp(optarg, "THP");
		else if (opt == 'k')
			kinds = optarg;
		else
			return 2;
	}
	mount_proc_sys();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (ntasks <= 0 || ntasks > MAX_TASKS)
		ntasks = nr_cpus();
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED)
		return 1;
	for (int threads = 0; threads < 2; threads++) {
		const char *kind = threads ? "thread" : "process";
		char name[64];

		if (strcmp(kinds, "all") && strcmp(kinds, kind))
			continue;
		lock_stat_clear();
		for (int r = 0; r < reps; r++)
			one(threads);
		snprintf(name, sizeof(name), "page_fault1 %s %s", kind, thp ? "THP" : "4K");
		print_lock_stat(name);
	}
	return 0;
}
