/*
 * Guest test (TAP): random fork / write / unmap / remap / MADV_DONTNEED /
 * mprotect / split_deferred / exit steps across up to six processes sharing large folios of
 * mixed sizes (16K, 64K, 256K mTHPs and PMD THPs).  Each worker process
 * keeps the expected content of every page of its region (its model, which
 * fork copies with the memory) and checks the whole region after each of
 * its steps; every 100 steps all workers check.  Reproducible by seed:
 * test_thp_random [seed [steps]].
 */
#include "thp_util.h"
#include <signal.h>
#include <fcntl.h>
#include <time.h>

#define NPAGES          2048                    /* an 8 MiB region */
#define NSLOTS          6
#define UNMAPPED        (-1)

enum op { OP_WRITE, OP_WRITE_RANGE, OP_FORK, OP_EXIT, OP_UNMAP, OP_REMAP, OP_DONTNEED,
	  OP_MPROTECT, OP_CHECK, OP_SPLIT, NR_OPS };
static const char *const op_name[] = { "write", "write-range", "fork", "exit", "unmap",
				       "remap", "dontneed", "mprotect", "check",
				       "split-deferred" };

struct cmd { int op, page, nr, val, slot; };
struct reply { int bad_page; int pid; };

static char *region;
static int model[NPAGES];
static int cmd_pipe[NSLOTS][2], reply_pipe[2];

/* The first page whose content differs from the model, plus one; 0 if none. */
static int verify(void)
{
	for (int i = 0; i < NPAGES; i++)
		if (model[i] != UNMAPPED && *(int *)(region + (size_t)i * PAGE) != model[i])
			return i + 1;
	return 0;
}

static int range_mapped(int page, int nr)
{
	for (int i = page; i < page + nr; i++)
		if (model[i] == UNMAPPED)
			return 0;
	return 1;
}

static void do_range(const struct cmd *c)
{
	char *p = region + (size_t)c->page * PAGE;
	size_t len = (size_t)c->nr * PAGE;

	if (c->op == OP_UNMAP) {
		munmap(p, len);
	} else if (c->op == OP_REMAP) {
		mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	} else if (c->op == OP_DONTNEED && range_mapped(c->page, c->nr)) {
		madvise(p, len, MADV_DONTNEED);
	} else if (c->op == OP_MPROTECT && range_mapped(c->page, c->nr)) {
		mprotect(p, len, PROT_READ);
		mprotect(p, len, PROT_READ | PROT_WRITE);
		return;
	} else {
		return;
	}
	for (int i = c->page; i < c->page + c->nr; i++)
		model[i] = c->op == OP_UNMAP ? UNMAPPED : 0;
}

static void do_write(const struct cmd *c)
{
	for (int i = c->page; i < c->page + c->nr; i++) {
		if (model[i] == UNMAPPED)
			continue;
		*(int *)(region + (size_t)i * PAGE) = c->val + i;
		model[i] = c->val + i;
	}
}

/*
 * Leave: a worker with no children exits at once (exit_mmap drops its
 * mappings); one with children unmaps the region, then waits for them
 * before it exits, so no worker is ever orphaned (the leak check after the
 * test must not race with init reaping orphans).
 */
static __attribute__((noreturn)) void worker_exit(void)
{
	pid_t r;

	while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
		;
	if (r == 0) {
		munmap(region, NPAGES * PAGE);
		while (wait(NULL) > 0)
			;
	}
	_exit(0);
}

/* A worker: run commands from its slot's pipe until told to exit. */
static __attribute__((noreturn)) void worker(int slot)
{
	for (;;) {
		struct cmd c;
		struct reply r = { 0, 0 };

		if (read(cmd_pipe[slot][0], &c, sizeof(c)) != sizeof(c))
			_exit(2);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (c.op == OP_WRITE || c.op == OP_WRITE_RANGE) {
			do_write(&c);
		} else if (c.op == OP_FORK) {
			r.pid = fork();
			if (r.pid == 0)
				worker(c.slot);
		} else if (c.op == OP_SPLIT) {
			split_deferred();
		} else if (c.op != OP_EXIT && c.op != OP_CHECK) {
			do_range(&c);
		}
		r.bad_page = verify();
		write(reply_pipe[1], &r, sizeof(r));
		if (c.op == OP_EXIT)
			worker_exit();
	}
}

static int pick_op(unsigned int *seed, int alive)
{
	static const int weight[NR_OPS] = { 30, 15, 12, 8, 8, 7, 6, 6, 8, 4 };
	int total = 0, r;

	for (int i = 0; i < NR_OPS; i++)
		total += weight[i];
	for (;;) {
		int op = 0;

		r = rand_r(seed) % total;
		while (r >= weight[op])
			r -= weight[op++];
		if ((op == OP_FORK && alive >= NSLOTS) || (op == OP_EXIT && alive <= 1))
			continue;
		return op;
	}
}

#define REPLY_TIMEOUT_S 20

/*
 * Send one command to a slot and wait for its reply.  Every worker holds
 * the reply pipe's write end, so a worker that died (killed under memory
 * pressure or fault injection) never makes the read see EOF: the reply
 * end is non-blocking and a silent worker is given REPLY_TIMEOUT_S.  A
 * missing reply reads as bad_page -1.
 */
static struct reply run(int slot, struct cmd *c)
{
	struct reply r = { -1, 0 };
	const struct timespec tick = { 0, 1000000 };
	struct timespec start, t;

	write(cmd_pipe[slot][1], c, sizeof(*c));
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (read(reply_pipe[0], &r, sizeof(r)) != sizeof(r)) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - start.tv_sec > REPLY_TIMEOUT_S)
			return (struct reply){ -1, 0 };
		nanosleep(&tick, NULL);
	}
	return r;
}

static void make_cmd(unsigned int *seed, int op, struct cmd *c)
{
	static const int sizes[] = { 1, 4, 16, 64, 512 };

	c->op = op;
	c->nr = op == OP_WRITE ? 1 : sizes[rand_r(seed) % 5];
	c->page = rand_r(seed) % (NPAGES - c->nr + 1);
	if (rand_r(seed) % 2)                   /* often aligned: whole folios */
		c->page &= ~(c->nr - 1);
	c->val = rand_r(seed) % 100000 + 1;
}

/* The controller: 'steps' random steps; returns the failing step or 0. */
static int controller(unsigned int seed, int steps, pid_t *pids, char *why, size_t size)
{
	int alive = 1, step;

	for (step = 1; step <= steps; step++) {
		int slot, op = pick_op(&seed, alive), target = 0;
		struct cmd c;
		struct reply r;

		do
			slot = rand_r(&seed) % NSLOTS;
		while (!pids[slot]);
		make_cmd(&seed, op, &c);
		if (op == OP_FORK)
			while (pids[target])
				target++;
		c.slot = target;
		r = run(slot, &c);
		if (r.bad_page < 0) {
			snprintf(why, size, "step %d: %s: slot %d did not reply in %d s", step,
				 op_name[op], slot, REPLY_TIMEOUT_S);
			return step;
		}
		if (r.bad_page) {
			snprintf(why, size, "step %d: %s by slot %d (pages %d+%d): page %d wrong", step,
				 op_name[op], slot, c.page, c.nr, r.bad_page - 1);
			return step;
		}
		if (op == OP_FORK && r.pid > 0)        /* fork may fail: out of memory */
			pids[target] = r.pid, alive++;
		if (op == OP_EXIT)
			pids[slot] = 0, alive--;
		for (int s = 0; step % 100 == 0 && s < NSLOTS; s++) {
			struct cmd chk = { .op = OP_CHECK };

			if (pids[s] && run(s, &chk).bad_page) {
				snprintf(why, size, "step %d: periodic check of slot %d failed", step, s);
				return step;
			}
		}
	}
	for (int s = 0; s < NSLOTS; s++) {
		struct cmd ex = { .op = OP_EXIT };

		if (pids[s])
			run(s, &ex);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 20250303;
	int steps = argc > 2 ? atoi(argv[2]) : 1000, failed_step;
	char why[160] = "";
	pid_t pids[NSLOTS] = { 0 }, first;
	int rc = 0;

	printf("# test_thp_random: seed %u, %d steps, up to %d processes\n", seed, steps, NSLOTS);
	thp_only(0);
	thp_set(16, "always");
	thp_set(64, "always");
	thp_set(256, "always");
	thp_set(2048, "always");
	region = map_aligned(NPAGES * PAGE, PMD_SIZE);
	for (int s = 0; s < NSLOTS; s++)
		rc |= pipe(cmd_pipe[s]);
	if (rc || pipe(reply_pipe)) {           /* out of memory: no test to run */
		ok(0, "pipes for the workers");
		return tap_done();
	}
	if (!(first = pids[0] = fork()))
		worker(0);
	/* The controller is not a worker: it only hands out commands. */
	munmap(region, NPAGES * PAGE);
	fcntl(reply_pipe[0], F_SETFL, O_NONBLOCK);
	failed_step = controller(seed, steps, pids, why, sizeof(why));
	ok(!failed_step, "%d random steps, every worker's memory matched its model%s%s", steps,
	   *why ? ": " : "", why);
	for (int s = 0; failed_step && s < NSLOTS; s++)
		if (pids[s] > 0)
			kill(pids[s], SIGKILL);
	if (!failed_step)
		rc = wait_exit(first);
	ok(rc == 0, "the first worker exits cleanly (status %d)", rc);
	thp_only(0);
	return tap_done();
}
