/*
 * The fork-vs-thread COW race: 4 threads write to a PTE-mapped 2 MiB folio
 * while another thread forks again and again.  Writer w owns 128 pages and
 * writes the counter c to its page c mod 128, c = 128, 129, ...; so any
 * state that is a prefix of its writes has every page k holding the
 * largest c <= m with c = k (mod 128), m the largest value present.  Each
 * child checks that its copy is such a prefix for every writer (no write
 * made after the fork leaked into it, none before it lost); at the end the
 * parent checks it holds each writer's last 128 writes exactly (no write
 * lost in the parent).  Without threads, the same checks run with the
 * parent writing between forks.
 */
#include "smp_util.h"

#define NR_WRITERS      4
#define PER_WRITER      128UL
#define NR_PAGES        (NR_WRITERS * PER_WRITER)
#define MAX_FORKS       200
#define TIME_NS         3000000000ULL

static char *region;
static volatile int stop;
static uint64_t last_c[NR_WRITERS];
static uint64_t base_c = PER_WRITER - 1;       /* every writer has written 0..base_c */

static uint64_t *slot(int w, unsigned long k)
{
	return (uint64_t *)(region + (k * NR_WRITERS + w) * PAGE);
}

static uint64_t initial(unsigned long i)
{
	return i / NR_WRITERS;          /* writer i % 4 has written 0..127 */
}

/* Is writer w's view a prefix of its writes ending at (at least) min_c? */
static int is_prefix(int w, uint64_t min_c)
{
	uint64_t m = 0;

	for (unsigned long k = 0; k < PER_WRITER; k++)
		if (*slot(w, k) > m)
			m = *slot(w, k);
	if (m < min_c)
		return 0;
	for (unsigned long k = 0; k < PER_WRITER; k++)
		if (*slot(w, k) != m - (m - k) % PER_WRITER)
			return 0;
	return 1;
}

static int all_prefixes(void)
{
	int bad = 0;

	for (int w = 0; w < NR_WRITERS; w++)
		bad |= !is_prefix(w, base_c);
	return bad;
}

static void write_once(int w, uint64_t c)
{
	*slot(w, c % PER_WRITER) = c;
}

static void *writer(void *arg)
{
	int w = (int)(long)arg;
	uint64_t c = base_c + 1;

	pin_cpu(w);
	while (!stop)
		write_once(w, c++);
	last_c[w] = c - 1;
	return NULL;
}

/* Fork until the time or count bound; each child checks its copy.  Failing children. */
static int forks, failed;

static void *forker(void *arg)
{
	uint64_t end = now_ns() + TIME_NS;

	(void)arg;
	pin_cpu(NR_WRITERS);
	while (forks < MAX_FORKS && now_ns() < end) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(all_prefixes());
		if (pid < 0)
			break;
		forks++;
		failed += wait_exit(pid) != 0;
	}
	stop = 1;
	return NULL;
}

static void threaded(void)
{
	pthread_t t[NR_WRITERS + 1];
	int n = 0, err = 0;

	while (n < NR_WRITERS && !(err = try_thread(&t[n], writer, (void *)(long)n)))
		n++;
	if (!err && (err = try_thread(&t[n], forker, NULL)) == 0)
		n++;
	if (err) {
		stop = 1;
		for (int i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		skip("no threads");
		skip("no threads");
		return;
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	ok(forks > 0 && !failed, "%d forks while 4 threads wrote: every child saw a prefix of each writer's writes (%d did not)",
	   forks, failed);
	for (int w = 0; w < NR_WRITERS; w++)
		failed += !is_prefix(w, last_c[w]) || *slot(w, last_c[w] % PER_WRITER) != last_c[w];
	ok(!failed, "no write lost in the parent: each writer's last 128 writes are there");
}

/* One process: write, fork, write on; the child still sees the fork-time state. */
static void sequential(void)
{
	int go[2], bad = 0;
	char c = 0;

	for (int r = 0; r < 20; r++) {
		uint64_t at_fork = PER_WRITER + r * 300;
		pid_t pid;

		xpipe(go, 0);
		for (int w = 0; w < NR_WRITERS; w++)
			for (uint64_t v = base_c + 1; v <= at_fork; v++)
				write_once(w, v);
		if ((pid = fork()) == 0) {
			read(go[0], &c, 1);
			for (int w = 0; w < NR_WRITERS; w++)
				bad |= !is_prefix(w, at_fork) || *slot(w, at_fork % PER_WRITER) != at_fork;
			_exit(bad);
		}
		for (int w = 0; w < NR_WRITERS; w++)
			for (uint64_t v = at_fork + 1; v <= at_fork + 150; v++)
				write_once(w, v);
		base_c = at_fork + 150;
		write(go[1], &c, 1);
		bad |= wait_exit(pid) != 0;
		close(go[0]);
		close(go[1]);
	}
	ok(!bad, "20 forks: each child kept the fork-time values while the parent wrote on");
}

int main(void)
{
	mount_proc_sys();
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# test_smp_forkrace: %d CPUs\n", nr_cpus());
	region = map_2m_pte(NR_PAGES * PAGE, initial);
	if (!region) {
		ok(0, "map 2 MiB");
		return tap_done();
	}
	if (is_2m_pte(region))
		ok(1, "the region is one PTE-mapped 2 MiB folio");
	else
		skip("not a PTE-mapped 2M folio here");
	sequential();
	threaded();
	munmap(region, NR_PAGES * PAGE);
	return tap_done();
}
