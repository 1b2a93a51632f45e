/*
 * 1000 seeded random steps of processes and threads over up to 8 anon
 * regions ("slots", 1-32 pages or a 2 MiB THP): mmap, munmap (whole or
 * the tail), mprotect RO/RW, MADV_DONTNEED, writes (to a read-only slot
 * they must fault), fork (the child runs its own 40 steps, then exits),
 * wait, pthread_create (the thread takes a slot and runs 100 steps of
 * writes, DONTNEED and RO/RW flips on it while the others go on), join,
 * exit.  Every process and thread keeps a model of the first word of each
 * page it owns and checks its memory against it; a forked child forgets
 * the slots a thread was writing (their contents at fork time are a race)
 * and unmaps them.  Without threads the thread steps are counted and
 * skipped.  FOLIOS_SEED picks the seed (printed).
 */
#include "smp_util.h"

#define NR_SLOTS        8
#define MAX_PAGES       512
#define NR_WORKERS      3
#define MAX_CHILDREN    3
#define STEPS           1000
#define CHILD_STEPS     40
#define THREAD_STEPS    100
#define TIME_NS         15000000000ULL

struct slot {
	char *addr;
	unsigned long npages;
	int ro;
	int owner;                      /* -1: the main thread, else a worker */
	uint64_t model[MAX_PAGES];
};

struct worker {
	pthread_t t;
	int slot;                       /* -1: not running */
	uint64_t seed;
	int bad;
};

static struct slot slots[NR_SLOTS];
static struct worker workers[NR_WORKERS];
static pid_t children[MAX_CHILDREN];
static int nr_children, depth, bad, forks, child_failures, threads, no_threads;

static uint64_t *word(struct slot *sl, unsigned long i)
{
	return (uint64_t *)(sl->addr + i * PAGE);
}

static int check_slot(struct slot *sl)
{
	for (unsigned long i = 0; i < sl->npages; i++)
		if (*word(sl, i) != sl->model[i])
			return 1;
	return 0;
}

/* A write to page i: must go through (RW) or fault and change nothing (RO). */
static int write_page(struct slot *sl, unsigned long i, uint64_t v)
{
	sigjmp_buf jb;
	int faulted = 0;

	SEGV_TRY(jb) {
		*word(sl, i) = v;
	} else {
		faulted = 1;
	}
	SEGV_END();
	if (!sl->ro && !faulted)
		sl->model[i] = v;
	return faulted != sl->ro;
}

static void dontneed(struct slot *sl, uint64_t *s)
{
	unsigned long first = rnd(s) % sl->npages, n = 1 + rnd(s) % (sl->npages - first);

	madvise(sl->addr + first * PAGE, n * PAGE, MADV_DONTNEED);
	memset(&sl->model[first], 0, n * sizeof(uint64_t));
}

static void set_ro(struct slot *sl, int ro)
{
	if (!mprotect(sl->addr, sl->npages * PAGE, ro ? PROT_READ : PROT_READ | PROT_WRITE))
		sl->ro = ro;
}

/* What one step does to a slot the caller owns (both the main thread and workers). */
static int slot_step(struct slot *sl, uint64_t *s)
{
	uint64_t r = rnd(s) % 8;

	if (r == 0)
		dontneed(sl, s);
	else if (r == 1)
		set_ro(sl, !sl->ro);
	else if (r == 2)
		return check_slot(sl);
	else
		for (uint64_t n = 1 + rnd(s) % 8; n; n--)
			if (write_page(sl, rnd(s) % sl->npages, rnd(s)))
				return 1;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct slot *sl = &slots[w->slot];

	pin_cpu((int)(w - workers) + 1);
	for (int n = 0; n < THREAD_STEPS && !w->bad; n++)
		w->bad = slot_step(sl, &w->seed);
	w->bad |= check_slot(sl);
	return NULL;
}

/* A free or main-owned slot at random (-1 if none), mapped or not as asked. */
static int pick(uint64_t *s, int mapped)
{
	int start = rnd(s) % NR_SLOTS;

	for (int k = 0; k < NR_SLOTS; k++) {
		struct slot *sl = &slots[(start + k) % NR_SLOTS];

		if (sl->owner < 0 && !!sl->addr == mapped)
			return (start + k) % NR_SLOTS;
	}
	return -1;
}

static void op_map(uint64_t *s)
{
	int i = pick(s, 0);
	struct slot *sl;

	if (i < 0)
		return;
	sl = &slots[i];
	sl->npages = rnd(s) % 16 == 0 ? MAX_PAGES : 1 + rnd(s) % 32;
	sl->addr = map_aligned(sl->npages * PAGE, sl->npages == MAX_PAGES ? PMD_SIZE : PAGE);
	if (sl->addr && sl->npages == MAX_PAGES)
		madvise(sl->addr, PMD_SIZE, MADV_HUGEPAGE);
	sl->ro = 0;
	memset(sl->model, 0, sizeof(sl->model));
}

static void op_unmap(uint64_t *s)
{
	int i = pick(s, 1);
	struct slot *sl;
	unsigned long keep;

	if (i < 0)
		return;
	sl = &slots[i];
	keep = rnd(s) % 2 ? sl->npages / 2 : 0;
	munmap(sl->addr + keep * PAGE, (sl->npages - keep) * PAGE);
	sl->npages = keep;
	if (!keep)
		sl->addr = NULL;
}

static void op_thread(uint64_t *s)
{
	int i = pick(s, 1);

	for (int k = 0; i >= 0 && k < NR_WORKERS; k++) {
		struct worker *w = &workers[k];

		if (w->slot >= 0)
			continue;
		w->slot = i, w->seed = rnd(s) | 1, w->bad = 0;
		slots[i].owner = k;
		if (try_thread(&w->t, worker_main, w)) {
			no_threads++;
			slots[i].owner = -1, w->slot = -1;
		} else {
			threads++;
		}
		return;
	}
}

static void op_join(int k)
{
	struct worker *w = &workers[k];

	if (w->slot < 0)
		return;
	pthread_join(w->t, NULL);
	bad |= w->bad;
	slots[w->slot].owner = -1;
	w->slot = -1;
}

static void op_wait(void)
{
	if (!nr_children)
		return;
	child_failures += wait_exit(children[--nr_children]) != 0;
}

static int run_steps(uint64_t *s, int steps, uint64_t end);

/* Join the threads, check every slot, wait for the children: nonzero on a failure. */
static int finish(void)
{
	for (int k = 0; k < NR_WORKERS; k++)
		op_join(k);
	for (int i = 0; i < NR_SLOTS; i++)
		bad |= slots[i].addr && check_slot(&slots[i]);
	while (nr_children)
		op_wait();
	return bad || child_failures;
}

/* In the child: the slots threads were writing are unknown; no threads, no children. */
static void become_child(uint64_t *s)
{
	for (int i = 0; i < NR_SLOTS; i++) {
		struct slot *sl = &slots[i];

		if (sl->owner >= 0) {
			munmap(sl->addr, sl->npages * PAGE);
			sl->addr = NULL, sl->npages = 0, sl->owner = -1;
		}
	}
	for (int k = 0; k < NR_WORKERS; k++)
		workers[k].slot = -1;
	nr_children = 0, child_failures = 0, depth++;
	*s = rnd(s) ^ 0xc0ffee;
	run_steps(s, CHILD_STEPS, now_ns() + TIME_NS);
	_exit(finish());
}

static void op_fork(uint64_t *s)
{
	pid_t pid;

	if (nr_children == MAX_CHILDREN || depth > 1)
		return;
	if ((pid = fork()) == 0)
		become_child(s);
	if (pid > 0)
		children[nr_children++] = pid, forks++;
}

static void one_step(uint64_t *s)
{
	uint64_t r = rnd(s) % 20;
	int i;

	if (r < 2)
		op_map(s);
	else if (r == 2)
		op_unmap(s);
	else if (r == 3)
		op_fork(s);
	else if (r == 4)
		op_wait();
	else if (r == 5)
		op_thread(s);
	else if (r == 6)
		op_join(rnd(s) % NR_WORKERS);
	else if ((i = pick(s, 1)) >= 0)
		bad |= slot_step(&slots[i], s);
}

/* Up to steps steps (fewer past end or after a failure); how many ran. */
static int run_steps(uint64_t *s, int steps, uint64_t end)
{
	int n;

	for (n = 0; n < steps && !bad && now_ns() < end; n++)
		one_step(s);
	return n;
}

int main(void)
{
	const char *env = getenv("FOLIOS_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : 1, s = seed * 0x9e3779b97f4a7c15ULL | 1, t0;
	int steps;

	mount_proc_sys();
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# test_smp_random: seed %llu, %d steps, %d CPUs\n", (unsigned long long)seed, STEPS,
	       nr_cpus());
	segv_catch();
	for (int i = 0; i < NR_SLOTS; i++)
		slots[i].owner = -1;
	for (int k = 0; k < NR_WORKERS; k++)
		workers[k].slot = -1;
	t0 = now_ns();
	steps = run_steps(&s, STEPS, t0 + TIME_NS);

	finish();
	printf("# %d steps in %llu ms\n", steps, (unsigned long long)(now_ns() - t0) / 1000000);
	ok(!bad, "seed %llu, %d steps: every process's memory matched its model after every step",
	   (unsigned long long)seed, steps);
	ok(forks > 0 && !child_failures, "%d forked children ran their steps and matched their models (%d failed)",
	   forks, child_failures);
	if (threads)
		ok(1, "%d threads ran their steps and matched their models", threads);
	else
		skip("no threads");
	for (int i = 0; i < NR_SLOTS; i++)
		if (slots[i].addr)
			munmap(slots[i].addr, slots[i].npages * PAGE);
	return tap_done();
}
