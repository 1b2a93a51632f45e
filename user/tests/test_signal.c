/*
 * Guest test (TAP): process groups, kill() and wait4() with Linux's
 * semantics — wait4(0) and wait4(-pgid), setpgid/getpgid/getpgrp (EACCES
 * once the child has exec'd), kill of
 * a group, an ignored signal is discarded (SIGKILL/SIGSTOP cannot be
 * ignored), SIGCHLD ignored or SA_NOCLDWAIT reaps children automatically,
 * kill of a zombie, every default-terminate signal terminates with the
 * wait status Linux gives (no core bit: RLIMIT_CORE is 0), the
 * default-ignore ones are discarded, wait4 with a bad rusage pointer.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include "tap.h"



static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* The wait status of pid (waits for it); -1 on error. */
static int wait_status(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid ? st : -1;
}

/*
 * A child that sets sig's disposition to handler, tells the parent it is
 * ready through a pipe, then blocks reading another pipe until the parent
 * closes it and exits 5.  Returns its pid; *go is the parent's end.
 */
static pid_t blocked_child(int sig, void (*handler)(int), int *go)
{
	int ready[2], hold[2];
	char c;
	pid_t pid;

	if (pipe(ready) || pipe(hold)) {
		printf("Bail out! pipe: %s\n", strerror(errno));
		exit(1);
	}
	pid = xfork();
	if (pid == 0) {
		if (sig)
			signal(sig, handler);
		close(ready[0]);
		close(hold[1]);
		close(ready[1]);                /* "ready": the parent reads EOF */
		read(hold[0], &c, 1);
		_exit(5);
	}
	close(ready[1]);
	close(hold[0]);
	read(ready[0], &c, 1);
	close(ready[0]);
	*go = hold[1];
	return pid;
}

static void test_process_groups(void)
{
	pid_t me = getpid(), pid;
	int st;

	ok(setpgid(0, 0) == 0 && getpgrp() == me && getpgid(0) == me && getpgid(me) == me,
	   "setpgid(0, 0): a group of our own; getpgrp, getpgid agree");
	ok(getpgid(999999) == -1 && errno == ESRCH, "getpgid of no process: ESRCH");
	ok(setpgid(0, -1) == -1 && errno == EINVAL, "setpgid with a negative pgid: EINVAL");
	pid = xfork();
	if (pid == 0)
		_exit(getpgrp() == me ? 7 : 1);
	ok(pid > 0 && waitpid(0, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	   "wait4(0): a child in our group (pgid inherited at fork)");
	pid = xfork();
	if (pid == 0) {
		setpgid(0, 0);
		sleep_ms(50);
		_exit(getpgrp() == getpid() ? 8 : 1);
	}
	setpgid(pid, pid);                      /* both sides, as a shell does */
	ok(getpgid(pid) == pid, "setpgid(child, child) from the parent; getpgid(child)");
	ok(waitpid(0, &st, WNOHANG) == -1 && errno == ECHILD,
	   "wait4(0) with the only child in another group: ECHILD");
	ok(waitpid(-pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 8,
	   "wait4(-pgid) reaps the child of that group");
	ok(kill(0, 0) == 0, "kill(0, 0): our group exists");
	ok(kill(-999999, 0) == -1 && errno == ESRCH, "kill(-pgid) of no group: ESRCH");
}

/* A child that has exec'd cannot be moved to another group by its parent: EACCES. */
static void test_setpgid_after_exec(const char *self)
{
	int p[2], st;
	pid_t pid;

	pipe(p);
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		dup2(p[0], 0);
		execl(self, self, "wait-stdin", (char *)NULL);
		_exit(1);
	}
	close(p[0]);
	sleep_ms(100);                          /* it has exec'd and waits for EOF on stdin */
	ok(setpgid(pid, pid) == -1 && errno == EACCES, "setpgid of a child that has exec'd: EACCES");
	close(p[1]);
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 4, "the exec'd child ran");
}

static void test_kill_group(void)
{
	pid_t a, b;
	int go_a, sa, sb;

	a = blocked_child(0, NULL, &go_a);
	setpgid(a, a);
	b = xfork();
	if (b == 0) {
		setpgid(0, a);
		pause();
		_exit(1);
	}
	setpgid(b, a);
	ok(getpgid(b) == a, "setpgid(child, other group) joins an existing group");
	ok(kill(-a, SIGTERM) == 0, "kill(-pgid, SIGTERM) == 0");
	sa = wait_status(a);
	sb = wait_status(b);
	ok(WIFSIGNALED(sa) && WTERMSIG(sa) == SIGTERM && WIFSIGNALED(sb) && WTERMSIG(sb) == SIGTERM,
	   "kill(-pgid) reaches every process of the group");
	close(go_a);
}

static void test_ignored(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };
	int go, st;
	pid_t pid = blocked_child(SIGTERM, SIG_IGN, &go);

	ok(kill(pid, SIGTERM) == 0, "kill(SIGTERM) of a child that ignores it: 0");
	sleep_ms(20);
	close(go);
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 5, "an ignored SIGTERM is discarded: exit(5)");
	ok(sigaction(SIGKILL, &sa, NULL) == -1 && errno == EINVAL, "SIGKILL cannot be ignored: EINVAL");
	ok(sigaction(SIGSTOP, &sa, NULL) == -1 && errno == EINVAL, "SIGSTOP cannot be ignored: EINVAL");
	pid = blocked_child(SIGUSR1, SIG_IGN, &go);
	kill(pid, SIGUSR1);
	ok(kill(pid, SIGKILL) == 0, "SIGKILL to a child ignoring SIGUSR1");
	st = wait_status(pid);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "SIGKILL still kills it");
	close(go);
}

/* Fork children that exit at once while SIGCHLD is set up by sa; then wait(). */
static void test_autoreap(const struct sigaction *sa, const char *name)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct timespec t0, t1;
	char msg[128];
	pid_t pid[3];
	int st;

	sigaction(SIGCHLD, sa, NULL);
	for (int i = 0; i < 3; i++) {
		pid[i] = xfork();
		if (pid[i] == 0) {
			sleep_ms(20 * i);
			_exit(0);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	st = wait(NULL) == -1 && errno == ECHILD;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	snprintf(msg, sizeof(msg), "%s: wait waits for the children, then ECHILD", name);
	ok(st && (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 30, msg);
	snprintf(msg, sizeof(msg), "%s: no zombie left (kill(pid, 0) is ESRCH)", name);
	ok(kill(pid[0], 0) == -1 && errno == ESRCH && kill(pid[2], 0) == -1 && errno == ESRCH, msg);
	sigaction(SIGCHLD, &dfl, NULL);
}

static void test_zombie(void)
{
	int p[2], st;
	char c;
	pid_t pid;

	pipe(p);
	pid = xfork();
	if (pid == 0) {
		close(p[0]);
		_exit(3);
	}
	close(p[1]);
	read(p[0], &c, 1);                      /* EOF: the child is exiting */
	close(p[0]);
	sleep_ms(50);
	ok(kill(pid, 0) == 0, "kill(zombie, 0) == 0");
	ok(kill(pid, SIGKILL) == 0, "kill(zombie, SIGKILL) == 0");
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 3, "the zombie keeps its exit status");
}

/* Every signal whose default action is to terminate, and the wait status it leaves. */
static void test_default_terminate(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS,
		SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU,
		SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS, 34, 50, 64 };
	char bad[256] = "";

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int go, st;
		pid_t pid = blocked_child(0, NULL, &go);

		kill(pid, sigs[i]);
		st = wait_status(pid);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != sigs[i] || WCOREDUMP(st))
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " %d:%#x", sigs[i], st);
		close(go);
	}
	if (*bad)
		printf("# signal:status%s\n", bad);
	ok(!*bad, "each default-terminate signal kills, status = the signal, no core bit");
}

static void test_default_ignore(void)
{
	static const int sigs[] = { SIGCHLD, SIGURG, SIGWINCH, SIGCONT };
	int go, st;
	pid_t pid = blocked_child(0, NULL, &go);

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		kill(pid, sigs[i]);
	sleep_ms(20);
	close(go);
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 5, "SIGCHLD, SIGURG, SIGWINCH, SIGCONT are discarded");
}

static void test_wait4_rusage(void)
{
	struct rusage ru;
	int st;
	pid_t pid = xfork();

	if (pid == 0)
		_exit(9);
	errno = 0;
	ok(wait4(pid, &st, 0, (struct rusage *)8) == -1 && errno == EFAULT,
	   "wait4 with a bad rusage pointer: EFAULT");
	ok(wait4(pid, &st, 0, NULL) == -1 && errno == ECHILD, "... and the child was reaped");
	pid = xfork();
	if (pid == 0)
		_exit(10);
	ok(wait4(pid, &st, 0, &ru) == pid && WEXITSTATUS(st) == 10, "wait4 with a good rusage");
	ok(kill(pid, 0) == -1 && errno == ESRCH, "a reaped child is gone: kill gives ESRCH");
	ok(kill(getpid(), 65) == -1 && errno == EINVAL, "kill with signal 65: EINVAL");
}

int main(int argc, char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct sigaction nocldwait = { .sa_handler = SIG_DFL, .sa_flags = SA_NOCLDWAIT };
	char c;

	if (argc > 1)                           /* test_setpgid_after_exec's child */
		return read(0, &c, 1) == 0 ? 4 : 5;
	printf("TAP version 13\n");
	test_process_groups();
	test_setpgid_after_exec(argv[0]);
	test_kill_group();
	test_ignored();
	test_autoreap(&ign, "SIGCHLD SIG_IGN");
	test_autoreap(&nocldwait, "SA_NOCLDWAIT");
	test_zombie();
	test_default_terminate();
	test_default_ignore();
	test_wait4_rusage();
	return tap_done();
}
