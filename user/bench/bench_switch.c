/*
 * Benchmark: the cost of a context switch and of a small process's life.
 *   pingpong: parent and child pass one byte back and forth over two pipes;
 *             one round trip is two switches (and two writes, two reads).
 *   fork:     fork + child _exit + waitpid of this small process.
 * Guest cycles by rdtsc; run under --icount (one cycle per instruction) on
 * foliOS and on the Linux peer.  Median of the runs.
 *
 *   bench_switch [round_trips [runs]]     (default 2000 round trips, 5 runs)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <x86intrin.h>

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/* Cycles per round trip over `trips` round trips; 0 if a pipe or fork failed. */
static unsigned long long pingpong(int trips)
{
	int to_child[2], to_parent[2];
	unsigned long long t0, t;
	char c = 0;
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent))
		return 0;
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < trips; i++)
			if (read(to_child[0], &c, 1) != 1 || write(to_parent[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	if (pid < 0)
		return 0;
	t0 = __rdtsc();
	for (int i = 0; i < trips; i++)
		if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1)
			break;
	t = __rdtsc() - t0;
	waitpid(pid, NULL, 0);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	return t / trips;
}

static unsigned long long fork_exit_wait(void)
{
	unsigned long long t0 = __rdtsc();
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return 0;
	waitpid(pid, NULL, 0);
	return __rdtsc() - t0;
}

int main(int argc, char **argv)
{
	int trips = argc > 1 ? atoi(argv[1]) : 2000, runs = argc > 2 ? atoi(argv[2]) : 5;
	unsigned long long *t = calloc(runs > 0 ? runs : 1, sizeof(*t));

	if (trips <= 0 || runs <= 0 || !t)
		return 2;
	for (int r = 0; r < runs; r++)
		t[r] = pingpong(trips);
	qsort(t, runs, sizeof(t[0]), cmp);
	printf("bench_switch pingpong: %llu cycles per round trip (2 switches; median of %d x %d)\n",
	       t[runs / 2], runs, trips);
	for (int r = 0; r < runs; r++)
		t[r] = fork_exit_wait();
	qsort(t, runs, sizeof(t[0]), cmp);
	printf("bench_switch fork+exit+wait: %llu cycles (median of %d)\n", t[runs / 2], runs);
	return 0;
}
