/*
 * Guest test (TAP): execve's argument limits as Linux's — the strings of
 * argv and envp may fill a quarter of the stack rlimit (2 MiB of the
 * default 8 MiB) with their pointers, each string at most MAX_ARG_STRLEN
 * (32 pages, its NUL included); beyond either, E2BIG.  The program execs
 * itself and the new image checks what arrived.  And vfork: the child
 * borrows the parent's memory while the parent waits (killably);
 * posix_spawn and system() (where there is a /bin/sh).  And ETXTBSY: a
 * running program's file cannot be opened for writing or truncated, a
 * file open for writing cannot be executed.  Runs unchanged on Linux
 * (../shared/peer/linux-peer.sh --mounts).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <signal.h>
#include <spawn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

static void on_usr1(int sig)
{
	(void)sig;
}

#define MAX_ARG_STRLEN (32 * 4096)

static const char *self;


/* argv[i] (i >= 2) is "a<i>"; envp holds "V<i>=<i>" for i < nenv. */
static int check_counted(int argc, char **argv, int nenv)
{
	char want[32];

	for (int i = 2; i < argc; i++) {
		snprintf(want, sizeof(want), "a%d", i);
		if (strcmp(argv[i], want))
			return 1;
	}
	for (int i = 0; i < nenv; i++) {
		char name[16];
		const char *v;

		snprintf(name, sizeof(name), "V%d", i);
		snprintf(want, sizeof(want), "%d", i);
		v = getenv(name);
		if (!v || strcmp(v, want))
			return 1;
	}
	return 0;
}

/* argv[i] (i >= 3) is atoi(argv[2]) bytes of 'A' + i. */
static int check_long(int argc, char **argv)
{
	size_t len = strtoul(argv[2], NULL, 10);

	for (int i = 3; i < argc; i++) {
		if (strlen(argv[i]) != len)
			return 1;
		for (size_t k = 0; k < len; k++)
			if (argv[i][k] != 'A' + i)
				return 1;
	}
	return 0;
}

/* The new image: argv[1] says what to check; exit 0 if all arrived. */
static int child_main(int argc, char **argv)
{
	if (!strcmp(argv[1], "counted"))
		return check_counted(argc, argv, atoi(getenv("NENV") ? getenv("NENV") : "0"));
	if (!strcmp(argv[1], "long"))
		return check_long(argc, argv);
	if (!strcmp(argv[1], "wait")) {         /* running: say so on fd 11, wait for EOF on fd 10 */
		char c;

		if (write(11, "r", 1) != 1)
			return 3;
		while (read(10, &c, 1) > 0)
			;
		return 0;
	}
	return 2;
}

/*
 * Fork, exec ourselves with argv/envp; the child's wait status, decoded:
 * the new image's exit code, or 100 + errno if execve failed.
 */
static int run(char **argv, char **envp)
{
	int st;
	pid_t pid = xfork();

	if (pid == 0) {
		execve(self, argv, envp);
		_exit(100 + errno);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* nargs arguments "a<i>" and nenv variables "V<i>=<i>" (plus NENV). */
static int run_counted(int nargs, int nenv)
{
	char **argv = calloc(nargs + 1, sizeof(char *)), **envp = calloc(nenv + 2, sizeof(char *));
	int ret;

	argv[0] = (char *)self;
	argv[1] = "counted";
	for (int i = 2; i < nargs; i++) {
		argv[i] = malloc(16);
		snprintf(argv[i], 16, "a%d", i);
	}
	for (int i = 0; i < nenv; i++) {
		envp[i] = malloc(32);
		snprintf(envp[i], 32, "V%d=%d", i, i);
	}
	envp[nenv] = malloc(32);
	snprintf(envp[nenv], 32, "NENV=%d", nenv);
	ret = run(argv, envp);
	for (int i = 2; i < nargs; i++)
		free(argv[i]);
	for (int i = 0; i <= nenv; i++)
		free(envp[i]);
	free(argv);
	free(envp);
	return ret;
}

/* count arguments of len bytes each (argv[i] all 'A' + i). */
static int run_long(int count, size_t len)
{
	char **argv = calloc(count + 4, sizeof(char *)), lenstr[32];
	char *envp[] = { NULL };
	int ret;

	snprintf(lenstr, sizeof(lenstr), "%zu", len);
	argv[0] = (char *)self;
	argv[1] = "long";
	argv[2] = lenstr;
	for (int i = 3; i < count + 3; i++) {
		argv[i] = malloc(len + 1);
		memset(argv[i], 'A' + i, len);
		argv[i][len] = '\0';
	}
	ret = run(argv, envp);
	for (int i = 3; i < count + 3; i++)
		free(argv[i]);
	free(argv);
	return ret;
}

/* clone3's arguments (linux/sched.h's struct clone_args, version 2). */
struct clone3_args {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	unsigned long long set_tid, set_tid_size, cgroup;
};

/* clone3 as a fork with exit_signal and extra bytes past the struct; its errno or the child's status. */
static long clone3_fork(struct clone3_args *a, size_t size)
{
	long pid = syscall(SYS_clone3, a, size);
	int status;

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(7);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * clone3 (glibc's first choice for threads and posix_spawn): a fork-like
 * call works, its checks are Linux's (a size under version 0: EINVAL,
 * over a page or with nonzero bytes past the struct: E2BIG, CSIGNAL bits
 * in flags: EINVAL), and CLONE_CLEAR_SIGHAND resets the child's handlers.
 */
static void check_clone3(void)
{
	static unsigned char big[4096 + 8];
	struct clone3_args a = { .exit_signal = SIGCHLD };
	long r1, r2;

	ok(clone3_fork(&a, sizeof(a)) == 7, "clone3 as fork: the child runs and is reaped");
	errno = 0;
	ok(syscall(SYS_clone3, &a, 63) == -1 && errno == EINVAL, "clone3 with 63 bytes: EINVAL");
	memcpy(big, &a, sizeof(a));
	r1 = clone3_fork((struct clone3_args *)big, sizeof(big));
	big[200] = 1;
	r2 = clone3_fork((struct clone3_args *)big, 4096);
	ok(r1 == -E2BIG && r2 == -E2BIG, "clone3: over a page, or nonzero bytes past its struct: E2BIG");
	big[200] = 0;
	ok(clone3_fork((struct clone3_args *)big, 4096) == 7, "zero bytes past its struct are fine");
	a.flags = SIGCHLD;
	ok(clone3_fork(&a, sizeof(a)) == -EINVAL, "CSIGNAL bits in clone3's flags: EINVAL");
	a.flags = 0x100000000ULL;       /* CLONE_CLEAR_SIGHAND */
	signal(SIGUSR1, on_usr1);
	{
		long pid = syscall(SYS_clone3, &a, sizeof(a));
		int status = -1;

		if (!pid) {
			struct sigaction sa;

			sigaction(SIGUSR1, NULL, &sa);
			_exit(sa.sa_handler == SIG_DFL ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		ok(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status),
		   "CLONE_CLEAR_SIGHAND: the child's handlers are SIG_DFL");
	}
	signal(SIGUSR1, SIG_DFL);
}

static volatile int shared_word;

/*
 * vfork as Linux's: the child borrows the parent's memory (its store is
 * the parent's) while the parent sleeps until it exits or execs;
 * posix_spawn (clone with CLONE_VM|CLONE_VFORK) and system() work; a
 * parent waiting for a child that never lets go still dies of SIGKILL.
 */
static void check_vfork(void)
{
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	int status, fds[2];
	pid_t pid, parent, child;

	shared_word = 0;
	pid = vfork();
	if (!pid) {
		shared_word = 42;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ok(shared_word == 42 && WIFEXITED(status), "a vfork child's store is its parent's memory");
	if (access("/bin/sh", X_OK)) {
		skip("no /bin/sh for posix_spawn and system()");
	} else {
		ok(!posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, NULL) &&
		   waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 3,
		   "posix_spawn (CLONE_VM|CLONE_VFORK) runs a program");
		ok(WEXITSTATUS(system("exit 5")) == 5, "system() runs the shell");
	}
	xpipe(fds, 0);
	parent = xfork();
	if (!parent) {
		if (!vfork()) {
			pid_t me = getpid();

			write(fds[1], &me, sizeof(me));
			pause();                /* never execs nor exits: the parent waits on */
			_exit(0);
		}
		_exit(9);
	}
	child = 0;
	read(fds[0], &child, sizeof(child));
	kill(parent, SIGKILL);
	waitpid(parent, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "a parent waiting for its vfork child dies of SIGKILL");
	if (child > 0)
		kill(child, SIGKILL);
	close(fds[0]);
	close(fds[1]);
}

/* Copy file from to a new file to with mode: 0 or -1. */
static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[4096];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ssize_t n = 0;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			n = -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return in < 0 || out < 0 || n < 0 ? -1 : 0;
}

/*
 * Fork a copy of this program running path in "wait" mode; *go's write
 * end holds it; *running says it started (else it exited: 100 + errno).
 */
static pid_t start_waiting(const char *path, int *go, bool *running)
{
	int hold[2], ready[2];
	char c = 0;
	pid_t pid;

	if (pipe(hold) || pipe(ready))
		return -1;
	pid = xfork();
	if (pid == 0) {
		dup2(hold[0], 10);
		dup2(ready[1], 11);
		close(hold[1]);
		execl(path, path, "wait", (char *)NULL);
		_exit(100 + errno);
	}
	close(hold[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		c = 0;
	close(ready[0]);
	*go = hold[1];
	*running = c == 'r';
	return pid;
}

/*
 * ETXTBSY (Linux 6.1's i_writecount): while a program runs from a file,
 * that file cannot be opened for writing, truncated or O_TRUNC'ed (it is
 * left as it was); reading it is fine; once the program exits, writing
 * is; and a file open for writing cannot be executed.
 */
static void check_etxtbsy(void)
{
	const char *copy = "/tmp/test_exec_etxtbsy";
	struct stat before, after;
	int go, fd, st = 0;
	bool running;
	pid_t pid;

	mkdir("/tmp", 01777);                   /* Linux's initramfs as the peer's root has none */
	if (copy_file(self, copy, 0755) || stat(copy, &before)) {
		ok(0, "copy this program to %s", copy);
		return;
	}
	pid = start_waiting(copy, &go, &running);
	ok(pid > 0 && running, "a copy of this program runs from %s", copy);
	ok(open(copy, O_WRONLY) == -1 && errno == ETXTBSY && open(copy, O_RDWR) == -1 &&
	   errno == ETXTBSY, "its file cannot be opened for writing: ETXTBSY");
	ok(truncate(copy, 0) == -1 && errno == ETXTBSY &&
	   open(copy, O_RDONLY | O_TRUNC) == -1 && errno == ETXTBSY &&
	   !stat(copy, &after) && after.st_size == before.st_size,
	   "truncate and O_TRUNC: ETXTBSY, the file untouched");
	fd = open(copy, O_RDONLY);
	ok(fd >= 0, "it can be read");
	close(fd);
	close(go);
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "the program ends");
	fd = open(copy, O_WRONLY);
	ok(fd >= 0, "then its file opens for writing");
	pid = start_waiting(copy, &go, &running);
	close(go);
	ok(pid > 0 && !running, "a file open for writing cannot be executed");
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 100 + ETXTBSY,
	   "execve: ETXTBSY");
	close(fd);
	unlink(copy);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child_main(argc, argv);
	self = argv[0];
	printf("TAP version 13\n");
	ok(run_counted(300, 0) == 0, "300 arguments arrive");
	ok(run_counted(2, 300) == 0, "300 environment strings arrive");
	ok(run_counted(3000, 3000) == 0, "3000 arguments and 3000 environment strings arrive");
	ok(run_long(4, 40 << 10) == 0, "four 40 KiB arguments arrive");
	ok(run_long(1, MAX_ARG_STRLEN - 1) == 0, "an argument of MAX_ARG_STRLEN - 1 bytes (+ NUL) arrives");
	ok(run_long(1, MAX_ARG_STRLEN) == 100 + E2BIG, "one of MAX_ARG_STRLEN bytes (+ NUL): E2BIG");
	ok(run_long(1, 200 << 10) == 100 + E2BIG, "a single 200 KiB argument: E2BIG");
	ok(run_long(15, 120 << 10) == 0, "15 arguments of 120 KiB (1.8 MiB) arrive");
	ok(run_long(18, 120 << 10) == 100 + E2BIG,
	   "18 arguments of 120 KiB (2.1 MiB, over a quarter of the 8 MiB stack limit): E2BIG");
	check_vfork();
	check_clone3();
	check_etxtbsy();
	return tap_done();
}
