/*
 * Guest test (TAP): a seeded random-syscall fuzzer.  Four worker processes
 * (and the children they fork and wait for, and up to two threads each
 * starts, which share its memory and fd table) call mmap, munmap,
 * mprotect, madvise, brk, read, write, pipe, close, dup2, fstat, lseek,
 * fcntl, fork, exit, getpid and the THP knobs' files with random and
 * nasty arguments — kernel and non-canonical pointers, huge and negative
 * lengths, odd flags, closed fds, fds another thread is closing — mostly
 * inside an arena of their own so they live long enough to do damage.  A
 * worker may die of SIGSEGV (it may unmap itself); the kernel must not
 * panic, warn or leak (runtests and the kernel check that).  On several
 * CPUs the threads' calls race for real.  test_fuzz [seed [steps]].
 */
#include "thp_util.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define ARENA   (16UL << 20)
#define WORKERS 4
#define THREADS 2               /* at most, per worker process */

static __thread unsigned int seed;
static char *arena;
static int nr_threads;

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
	struct stat st;
	int fds[2];

	switch (rnd() % 16) {
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
	case 11: close((int)(rnd() % 12) + 3); break;     /* maybe another thread's pipe */
	case 12: dup2((int)(rnd() % 14), (int)(rnd() % 12) + 3); break;
	case 13: syscall(SYS_fstat, (int)(rnd() % 16), rnd() % 4 ? (unsigned long)&st : a); break;
	case 14: syscall(SYS_lseek, (int)(rnd() % 16), (long)rnd() % 8192, (int)(rnd() % 4)); break;
	default: syscall(SYS_fcntl, (int)(rnd() % 16), (int)(rnd() % 5), rnd() % 64); break;
	}
}

static void *fuzz_thread(void *arg);

/*
 * A worker: steps; sometimes it forks a child that fuzzes on (inheriting
 * this address space) while the parent waits for it, sometimes it starts
 * a thread that fuzzes the same process beside it, and sometimes it exits
 * early (the whole process: its threads die with it).  A process forks
 * only while it has no thread and threads never fork, so no fuzzing
 * process is ever orphaned: a thread's SIGSEGV cannot kill a process
 * that waits for a child.
 */
static __attribute__((noreturn)) void worker(int steps, int depth)
{
	for (int i = 0; i < steps; i++) {
		pthread_t t;

		step();
		if (rnd() % 128 == 0 && nr_threads < THREADS &&
		    !pthread_create(&t, NULL, fuzz_thread, (void *)(long)(seed ^ (unsigned int)i)))
			__atomic_add_fetch(&nr_threads, 1, __ATOMIC_RELAXED);
		if (rnd() % 64 == 0 && depth < 4 && !nr_threads) {
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

/* A thread of a worker: steps with its own seed, then ends. */
static void *fuzz_thread(void *arg)
{
	seed = (unsigned int)(long)arg;
	for (int i = 0; i < 1000; i++)
		step();
	return NULL;
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
			signal(SIGPIPE, SIG_IGN);       /* a pipe another thread closed: EPIPE */
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
