/*
 * bench_syscall: the cost of the calls a shell makes most, in cycles per
 * call (rdtsc; guest instructions under run-qemu.sh --icount), median of
 * 9 rounds: stat of an initrd file, of a tmpfs file, of a path through a
 * symbolic link, a missing name (a PATH search's miss), open+close,
 * fork+exit+wait, clock_gettime, and fork+execve+exit+wait of this very
 * program (which exits at once when its argument is "exit"), static and,
 * if /bin/bench_syscall_dyn is there, dynamically linked (musl's
 * /lib/ld-musl-x86_64.so.1).  The same static binary runs on Linux
 * (../shared/peer/linux-peer.sh --icount; --add the dynamic one and its
 * loader).  One "name cycles" line each.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#define ROUNDS  9

static int cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Median over ROUNDS of the cycles per call of fn(arg), n calls a round. */
static unsigned long measure(void (*fn)(const char *), const char *arg, int n)
{
	unsigned long r[ROUNDS];

	for (int i = 0; i < ROUNDS; i++) {
		unsigned long t = __rdtsc();

		for (int j = 0; j < n; j++)
			fn(arg);
		r[i] = (__rdtsc() - t) / n;
	}
	qsort(r, ROUNDS, sizeof(r[0]), cmp);
	return r[ROUNDS / 2];
}

static void do_stat(const char *path)
{
	struct stat st;

	stat(path, &st);
}

static void do_open_close(const char *path)
{
	close(open(path, O_RDONLY));
}

static void do_fork(const char *unused)
{
	pid_t pid = fork();

	(void)unused;
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
}

static void do_exec(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl(path, path, "exit", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

static void do_clock(const char *unused)
{
	struct timespec ts;

	(void)unused;
	clock_gettime(CLOCK_MONOTONIC, &ts);
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? argv[0] : "/bin/bench_syscall";

	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	mkdir("/tmp", 0777);
	close(open("/tmp/bench_syscall_file", O_WRONLY | O_CREAT, 0644));
	symlink("/tmp", "/tmp/bench_syscall_link");
	printf("stat_initrd %lu\n", measure(do_stat, self, 200));
	printf("stat_tmpfs %lu\n", measure(do_stat, "/tmp/bench_syscall_file", 200));
	printf("stat_via_link %lu\n", measure(do_stat, "/tmp/bench_syscall_link/bench_syscall_file", 200));
	printf("stat_missing %lu\n", measure(do_stat, "/usr/local/bin/nothing", 200));
	printf("open_close %lu\n", measure(do_open_close, "/tmp/bench_syscall_file", 200));
	printf("fork_exit_wait %lu\n", measure(do_fork, NULL, 20));
	printf("clock_gettime %lu\n", measure(do_clock, NULL, 200));
	printf("fork_execve_static %lu\n", measure(do_exec, self, 10));
	if (!access("/bin/bench_syscall_dyn", X_OK))
		printf("fork_execve_dynamic %lu\n", measure(do_exec, "/bin/bench_syscall_dyn", 10));
	unlink("/tmp/bench_syscall_link");
	unlink("/tmp/bench_syscall_file");
	return 0;
}
