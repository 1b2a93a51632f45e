/*
 * Guest test (TAP): a seeded random-syscall fuzzer.  Four worker processes
 * (and the children they fork and wait for) call mmap, munmap, mprotect, madvise, brk,
 * read, write, pipe, fork, exit, getpid and the THP knobs' files with
 * random and nasty arguments — kernel and non-canonical pointers, huge and
 * negative lengths, odd flags, closed fds — mostly inside an arena of
 * their own so they live long enough to do damage.  A worker may die of
 * SIGSEGV (it may unmap itself); the kernel must not panic, warn or leak
 * (runtests and the kernel check that).  test_fuzz [seed [steps]].
 */
#include "thp_util.h"
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>

#define ARENA   (16UL << 20)
#define WORKERS 4

static unsigned int seed;
static char *arena;

static unsigned long rnd(void)
{
	return (unsigned long)rand_r(&seed) << 31 ^ rand_r(&seed);
}

/* An address: mostly in the arena, sometimes anywhere nasty. */
static unsigned long any_addr(void)
{
	static const unsigned long nasty[] = {
		0, 1, 4095, 0xffffffff80000000UL, 0xffff888000000000UL, 0x8000000000000000UL,
		~0UL, 0x00007ffffffff000UL,
	};

	if (rnd() % 8 == 0)
		return nasty[rnd() % (sizeof(nasty) / sizeof(nasty[0]))];
	return (unsigned long)arena + (rnd() % (ARENA / PAGE)) * PAGE + (rnd() % 16 == 0 ? rnd() % PAGE : 0);
}

static unsigned long any_len(void)
{
	static const unsigned long nasty[] = { 0, 1, ~0UL, 1UL << 47, (unsigned long)-4096, PMD_SIZE };

	if (rnd() % 8 == 0)
		return nasty[rnd() % (sizeof(nasty) / sizeof(nasty[0]))];
	return (rnd() % 600 + 1) * PAGE;
}

/* One random system call. */
static void step(void)
{
	unsigned long a = any_addr(), l = any_len();
	char buf[64];
	int fds[2];

	switch (rnd() % 12) {
	case 0: syscall(SYS_mmap, a, l, rnd() % 8, MAP_PRIVATE | MAP_ANONYMOUS | (rnd() % 2 ? MAP_FIXED : 0), -1, 0); break;
	case 1: syscall(SYS_munmap, a, l); break;
	case 2: syscall(SYS_mprotect, a, l, rnd() % 8); break;
	case 3: syscall(SYS_madvise, a, l, (int[]){ 4, 14, 15, 0, 99 }[rnd() % 5]); break;
	case 4: syscall(SYS_write, (int)(rnd() % 40) - 2, a, l); break;
	case 5: syscall(SYS_read, (int)(rnd() % 40) - 2, a, l % 8192); break;
	case 6: syscall(SYS_brk, rnd() % 2 ? a : 0); break;
	case 7:
		if (!pipe(fds)) {               /* read only what was written: never block */
			if (syscall(SYS_write, fds[1], a, l % 4096) > 0)
				syscall(SYS_read, fds[0], buf, sizeof(buf));
			close(fds[0]), close(fds[1]);
		}
		break;
	case 8: if (rnd() % 16 == 0) memset((char *)a, (int)rnd(), l % (16 * PAGE)); break;
	case 9: thp_set(16UL << (rnd() % 8), (const char *[]){ "always", "never", "inherit", "madvise" }[rnd() % 4]); break;
	case 10: split_deferred(); break;
	default: syscall(SYS_getpid); break;
	}
}

/*
 * A worker: steps; sometimes it forks a child that fuzzes on (inheriting
 * this address space) while the parent waits for it — so no fuzzing
 * process is ever orphaned — and sometimes it exits early.
 */
static __attribute__((noreturn)) void worker(int steps, int depth)
{
	for (int i = 0; i < steps; i++) {
		step();
		if (rnd() % 64 == 0 && depth < 4) {
			pid_t pid = fork();

			if (!pid) {
				seed ^= (unsigned int)rnd() + i;
				worker(steps - i, depth + 1);
			}
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
		if (rnd() % 400 == 0)
			break;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned int base = argc > 1 ? strtoul(argv[1], NULL, 0) : 20251203;
	int steps = argc > 2 ? atoi(argv[2]) : 3000, exited = 0, killed = 0;
	pid_t pids[WORKERS];

	printf("# test_fuzz: seed %u, %d steps per worker, %d workers\n", base, steps, WORKERS);
	fflush(stdout);
	for (int w = 0; w < WORKERS; w++) {
		if (!(pids[w] = fork())) {
			int null = open("/proc/meminfo", O_RDONLY);

			dup2(null, 0);                  /* no read may block on the console, */
			dup2(null, 1);                  /* random writes to fd 1 stay quiet */
			dup2(null, 2);
			seed = base + w;
			arena = mmap(NULL, ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			worker(steps, 0);
		}
	}
	for (int w = 0; w < WORKERS; w++) {
		int st = wait_exit(pids[w]);

		exited += st == 0;
		killed += st == 128 + SIGSEGV || st == 128 + SIGKILL;
	}
	ok(exited + killed == WORKERS, "all %d workers ended: %d exited, %d killed by a signal",
	   WORKERS, exited, killed);
	thp_only(0);
	thp_set(0, "always");
	thp_set(2048, "inherit");
	return tap_done();
}
