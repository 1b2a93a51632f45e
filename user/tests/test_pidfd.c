/*
 * Guest test (TAP): pidfd_open and waitid as Linux's, the calls upstream
 * kselftest_harness.h waits for a test with (pidfd_open, poll with a
 * timeout, kill of the test's process group, waitpid).  A pidfd polls
 * readable once its process has exited (zombie or reaped), is
 * close-on-exec, cannot be read or seeked; waitid's P_ALL, P_PID, P_PGID
 * and P_PIDFD, WEXITED, WNOHANG, WNOWAIT and a PIDFD_NONBLOCK pidfd, the
 * siginfo it fills (zeros when nothing was reported) and its errnos; a
 * hundred pidfds open at once (the harness keeps one per test).
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#define PIDFD_NONBLOCK O_NONBLOCK

static int pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

/* waitid through the system call: Linux's infop rules, no libc in between. */
static long sys_waitid(int which, int id, siginfo_t *si, int options)
{
	return syscall(SYS_waitid, which, id, si, options, NULL);
}

/* 1 if fd polls readable within ms milliseconds, 0 if not, -1 on error. */
static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, ms);

	return n < 0 ? -1 : n == 1 && p.revents == POLLIN;
}

/* A child that exits with code once a byte arrives on *go (the write end in *go). */
static pid_t child_waiting(int code, int *go)
{
	int fds[2];
	pid_t pid;
	char c;

	xpipe(fds, 0);
	pid = xfork();
	if (pid == 0) {
		close(fds[1]);
		read(fds[0], &c, 1);
		_exit(code);
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}

static void test_open_errors(void)
{
	int fd = pidfd_open(getpid(), 0);

	ok(fd >= 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC, "pidfd_open(self): an fd, close-on-exec");
	ok(readable(fd, 0) == 0, "a live process's pidfd does not poll readable");
	errno = 0;
	ok(read(fd, &fd, sizeof(fd)) == -1 && errno == EINVAL, "read of a pidfd: EINVAL");
	errno = 0;
	ok(lseek(fd, 0, SEEK_SET) == -1 && errno == ESPIPE, "lseek of a pidfd: ESPIPE");
	errno = 0;
	ok(sys_waitid(P_PIDFD, fd, NULL, WEXITED | WNOHANG) == -1 && errno == ECHILD,
	   "waitid(P_PIDFD) of a process not our child: ECHILD");
	ok(close(fd) == 0, "close of a pidfd");
	errno = 0;
	ok(pidfd_open(0, 0) == -1 && errno == EINVAL, "pidfd_open(0): EINVAL");
	errno = 0;
	ok(pidfd_open(-1, 0) == -1 && errno == EINVAL, "pidfd_open(-1): EINVAL");
	errno = 0;
	ok(pidfd_open(getpid(), 1) == -1 && errno == EINVAL, "pidfd_open with a bad flag: EINVAL");
}

/* pidfd poll at the exit; waitid WNOWAIT reports and leaves the zombie; reap; after. */
static void test_exit_poll(void)
{
	int go, fd;
	pid_t pid = child_waiting(7, &go);
	siginfo_t si;

	fd = pidfd_open(pid, 0);
	ok(fd >= 0 && readable(fd, 50) == 0, "pidfd of a running child: not readable in 50 ms");
	memset(&si, 0xff, sizeof(si));
	ok(sys_waitid(P_PIDFD, fd, &si, WEXITED | WNOHANG) == 0 && si.si_signo == 0 &&
	   si.si_pid == 0 && si.si_code == 0 && si.si_status == 0,
	   "waitid WNOHANG before the exit: 0, siginfo zeroed");
	write(go, "x", 1);
	ok(readable(fd, 5000) == 1, "pidfd polls POLLIN once the child has exited");
	memset(&si, 0, sizeof(si));
	ok(sys_waitid(P_PIDFD, fd, &si, WEXITED | WNOWAIT) == 0 && si.si_signo == SIGCHLD &&
	   si.si_code == CLD_EXITED && si.si_pid == pid && si.si_status == 7 && si.si_errno == 0,
	   "waitid(P_PIDFD, WNOWAIT): SIGCHLD CLD_EXITED pid status 7");
	ok(pidfd_open(pid, 0) >= 0, "pidfd_open of a zombie works");
	memset(&si, 0, sizeof(si));
	ok(sys_waitid(P_PID, pid, &si, WEXITED) == 0 && si.si_pid == pid && si.si_status == 7,
	   "the zombie stayed: waitid(P_PID) reaps it");
	ok(readable(fd, 0) == 1, "a reaped process's pidfd stays readable");
	errno = 0;
	ok(sys_waitid(P_PIDFD, fd, &si, WEXITED) == -1 && errno == ECHILD,
	   "waitid(P_PIDFD) after the reap: ECHILD");
	errno = 0;
	ok(pidfd_open(pid, 0) == -1 && errno == ESRCH, "pidfd_open of a reaped pid: ESRCH");
	close(go);
	close(fd);
}

/* A killed child: CLD_KILLED; a PIDFD_NONBLOCK pidfd: EAGAIN while it runs. */
static void test_killed_nonblock(void)
{
	int go, fd;
	pid_t pid = child_waiting(0, &go);
	siginfo_t si;

	fd = pidfd_open(pid, PIDFD_NONBLOCK);
	errno = 0;
	ok(fd >= 0 && sys_waitid(P_PIDFD, fd, &si, WEXITED) == -1 && errno == EAGAIN,
	   "waitid on a PIDFD_NONBLOCK pidfd of a running child: EAGAIN");
	kill(pid, SIGKILL);
	memset(&si, 0, sizeof(si));
	ok(sys_waitid(P_ALL, 0, &si, WEXITED) == 0 && si.si_signo == SIGCHLD &&
	   si.si_code == CLD_KILLED && si.si_pid == pid && si.si_status == SIGKILL,
	   "waitid(P_ALL) of a SIGKILLed child: CLD_KILLED, status SIGKILL");
	close(go);
	close(fd);
}

/* The child makes its own group (as the harness's setpgrp): P_PGID finds it. */
static void test_pgid(void)
{
	int fds[2];
	pid_t pid;
	siginfo_t si;
	char c;

	xpipe(fds, 0);
	pid = xfork();
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		_exit(3);
	}
	close(fds[1]);
	read(fds[0], &c, 1);            /* EOF: the child has set its group and exited */
	close(fds[0]);
	memset(&si, 0, sizeof(si));
	ok(sys_waitid(P_PGID, pid, &si, WEXITED) == 0 && si.si_pid == pid && si.si_status == 3,
	   "waitid(P_PGID, the child's own group)");
}

/* kselftest_harness's __wait_for_test: a test that runs past its timeout is killed. */
static void test_harness_timeout(void)
{
	pid_t pid = xfork();
	int fd, status = 0;

	if (pid == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	fd = pidfd_open(pid, 0);
	ok(readable(fd, 100) == 0, "harness: poll on the test's pidfd times out");
	ok(kill(-pid, SIGKILL) == 0 && waitpid(pid, &status, 0) == pid &&
	   WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "harness: kill(-pid, SIGKILL) of its group, waitpid: killed");
	close(fd);
}

/* The harness never closes its pidfds: a 100-test program holds 100 of them at the end. */
static void test_many_pidfds(void)
{
	int fds[100], n = 0;

	while (n < 100 && (fds[n] = pidfd_open(getpid(), 0)) >= 0)
		n++;
	ok(n == 100, "100 pidfds open at once (%d)", n);
	while (n)
		close(fds[--n]);
}

static void test_waitid_errors(void)
{
	siginfo_t si;

	errno = 0;
	ok(sys_waitid(P_ALL, 0, &si, 0) == -1 && errno == EINVAL, "waitid without WEXITED..: EINVAL");
	errno = 0;
	ok(sys_waitid(P_ALL, 0, &si, WEXITED | 0x100) == -1 && errno == EINVAL,
	   "waitid with an unknown option: EINVAL");
	errno = 0;
	ok(sys_waitid(P_PID, 0, &si, WEXITED) == -1 && errno == EINVAL, "waitid(P_PID, 0): EINVAL");
	errno = 0;
	ok(sys_waitid(P_PGID, -1, &si, WEXITED) == -1 && errno == EINVAL,
	   "waitid(P_PGID, -1): EINVAL");
	errno = 0;
	ok(sys_waitid(42, 1, &si, WEXITED) == -1 && errno == EINVAL, "waitid(idtype 42): EINVAL");
	errno = 0;
	ok(sys_waitid(P_PIDFD, 0, &si, WEXITED) == -1 && errno == EBADF,
	   "waitid(P_PIDFD) of a non-pidfd: EBADF");
	errno = 0;
	ok(sys_waitid(P_PIDFD, 29, &si, WEXITED) == -1 && errno == EBADF,
	   "waitid(P_PIDFD) of a closed fd: EBADF");
	memset(&si, 0xff, sizeof(si));
	errno = 0;
	ok(sys_waitid(P_ALL, 0, &si, WEXITED) == -1 && errno == ECHILD && si.si_signo == 0 &&
	   si.si_pid == 0, "waitid with no child: ECHILD, siginfo zeroed");
	errno = 0;
	ok(sys_waitid(P_ALL, 0, (siginfo_t *)8, WEXITED | WNOHANG) == -1 && errno == EFAULT,
	   "waitid with a bad infop: EFAULT");
}

int main(void)
{
	mount_proc_sys();
	test_open_errors();
	test_exit_poll();
	test_killed_nonblock();
	test_pgid();
	test_harness_timeout();
	test_many_pidfds();
	test_waitid_errors();
	return tap_done();
}
