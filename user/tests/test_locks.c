/*
 * Guest test (TAP): file locks as Linux has them.  POSIX record locks
 * (F_GETLK reports the conflicting lock and its owner's pid; F_SETLK
 * EAGAIN; a process's own locks merge and split; read locks share; any
 * close by the process drops them; F_SETLKW waits for the unlock, and is
 * EDEADLK where waiting would deadlock, EINTR on a signal; EBADF and
 * EINVAL), OFD locks (owned by the open file: shared across fork, l_pid
 * -1, conflict with POSIX locks; F_GETLK reports an owner's lowest lock) and flock (shared and exclusive,
 * LOCK_NB's EWOULDBLOCK, waits, independent of POSIX locks).
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define D       "/tmp/lk"
#define F       D "/f"

static int lk(int fd, int cmd, short type, long start, long len)
{
	struct flock l = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };

	return fcntl(fd, cmd, &l);
}

/* F_GETLK (or cmd) for a type over [start, start+len): the answer in *l; -1 on error. */
static int getlk(int fd, int cmd, short type, long start, long len, struct flock *l)
{
	*l = (struct flock){ .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	return fcntl(fd, cmd, l);
}

/* Run fn(fd) in a child on its own open of F; its exit status (fn's return). */
static int in_child(int (*fn)(int fd, long arg), long arg)
{
	int st = -1;
	pid_t pid = xfork();

	if (pid == 0)
		_exit(fn(open(F, O_RDWR), arg));
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

/* Child checks, each an exit status: 0 means as expected. */
static int child_sees_write_lock(int fd, long parent)
{
	struct flock l;

	return !(getlk(fd, F_GETLK, F_WRLCK, 50, 10, &l) == 0 && l.l_type == F_WRLCK &&
		 l.l_start == 0 && l.l_len == 100 && l.l_pid == parent &&
		 lk(fd, F_SETLK, F_WRLCK, 50, 10) == -1 && (errno == EAGAIN || errno == EACCES));
}

static int child_sees_merged(int fd, long arg __attribute__((unused)))
{
	struct flock l;

	return !(getlk(fd, F_GETLK, F_WRLCK, 0, 100, &l) == 0 && l.l_type == F_RDLCK &&
		 l.l_start == 0 && l.l_len == 20);
}

static int child_sees_split(int fd, long arg __attribute__((unused)))
{
	struct flock a, b, c;

	return !(getlk(fd, F_GETLK, F_WRLCK, 0, 100, &a) == 0 && a.l_start == 0 && a.l_len == 40 &&
		 getlk(fd, F_GETLK, F_WRLCK, 40, 20, &b) == 0 && b.l_type == F_UNLCK &&
		 getlk(fd, F_GETLK, F_WRLCK, 60, 1, &c) == 0 && c.l_start == 60 && c.l_len == 40);
}

static int child_read_shares(int fd, long arg __attribute__((unused)))
{
	return !(lk(fd, F_SETLK, F_RDLCK, 0, 0) == 0 && lk(fd, F_SETLK, F_WRLCK, 0, 0) == -1);
}

static int child_can_write_lock(int fd, long arg __attribute__((unused)))
{
	return lk(fd, F_SETLK, F_WRLCK, 0, 0) == 0 ? 0 : 1;
}

/* The first conflicting lock is the owner's lowest (Linux keeps them by start). */
static int child_sees_lowest(int fd, long arg __attribute__((unused)))
{
	struct flock l;

	return !(getlk(fd, F_GETLK, F_WRLCK, 0, 200, &l) == 0 && l.l_type == F_WRLCK &&
		 l.l_start == 5 && l.l_len == 5);
}

static void test_posix(void)
{
	int fd = open(F, O_RDWR | O_CREAT, 0644), fd2;

	ok(lk(fd, F_SETLK, F_WRLCK, 0, 100) == 0 && in_child(child_sees_write_lock, getpid()) == 0,
	   "F_GETLK shows another process's write lock and its pid; F_SETLK: EAGAIN");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	ok(lk(fd, F_SETLK, F_RDLCK, 0, 10) == 0 && lk(fd, F_SETLK, F_RDLCK, 10, 10) == 0 &&
	   in_child(child_sees_merged, 0) == 0, "a process's adjacent read locks merge into one");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	ok(lk(fd, F_SETLK, F_WRLCK, 0, 100) == 0 && lk(fd, F_SETLK, F_UNLCK, 40, 20) == 0 &&
	   in_child(child_sees_split, 0) == 0, "unlocking the middle of a lock splits it in two");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	ok(lk(fd, F_SETLK, F_RDLCK, 0, 0) == 0 && in_child(child_read_shares, 0) == 0,
	   "read locks share; a write lock does not");
	fd2 = open(F, O_RDONLY);
	lk(fd, F_SETLK, F_WRLCK, 0, 0);
	close(fd2);
	ok(in_child(child_can_write_lock, 0) == 0,
	   "closing any fd of the file drops the process's locks");
	ok(lk(fd, F_SETLK, F_WRLCK, 0, 0) == 0 && lk(fd, F_SETLK, F_RDLCK, 5, 5) == 0,
	   "a process's own locks never conflict (a write lock becomes part read)");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	ok(lk(fd, F_SETLK, F_RDLCK, 5, 100) == 0 && lk(fd, F_SETLK, F_WRLCK, 10, -5) == 0 &&
	   in_child(child_sees_lowest, 0) == 0,
	   "F_GETLK over several locks of one owner reports the lowest (a later one set below)");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	fd2 = open(F, O_RDONLY);
	errno = 0;
	ok(lk(fd2, F_SETLK, F_WRLCK, 0, 1) == -1 && errno == EBADF,
	   "a write lock on an fd not open for writing: EBADF");
	close(fd2);
	errno = 0;
	ok(lk(fd, F_SETLK, 7, 0, 1) == -1 && errno == EINVAL, "a bad l_type: EINVAL");
	errno = 0;
	ok(lk(fd, F_GETLK, F_UNLCK, 0, 1) == -1 && errno == EINVAL, "F_GETLK of F_UNLCK: EINVAL");
	close(fd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* F_SETLKW waits for the holder's unlock; a signal ends the wait; EDEADLK. */
static void test_setlkw(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int fd = open(F, O_RDWR), p[2], st;
	pid_t pid;
	char c;

	pipe(p);
	lk(fd, F_SETLK, F_WRLCK, 0, 1);
	pid = xfork();
	if (pid == 0) {
		int cfd = open(F, O_RDWR);

		write(p[1], "w", 1);
		_exit(lk(cfd, F_SETLKW, F_WRLCK, 0, 1) == 0 ? 0 : 1);
	}
	read(p[0], &c, 1);
	usleep(100000);
	ok(waitpid(pid, &st, WNOHANG) == 0, "F_SETLKW waits while the lock is held");
	lk(fd, F_SETLK, F_UNLCK, 0, 1);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the unlock lets the waiter take it");
	lk(fd, F_SETLK, F_WRLCK, 0, 1);
	pid = xfork();
	if (pid == 0) {
		int cfd = open(F, O_RDWR);

		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		errno = 0;
		_exit(lk(cfd, F_SETLKW, F_WRLCK, 0, 1) == -1 && errno == EINTR ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a signal ends F_SETLKW's wait: EINTR");
	pid = xfork();
	if (pid == 0) {
		int cfd = open(F, O_RDWR);

		lk(cfd, F_SETLK, F_WRLCK, 1, 1);
		write(p[1], "w", 1);
		_exit(lk(cfd, F_SETLKW, F_WRLCK, 0, 1) == 0 ? 0 : 1);      /* waits for us */
	}
	read(p[0], &c, 1);
	usleep(200000);
	errno = 0;
	ok(lk(fd, F_SETLKW, F_WRLCK, 1, 1) == -1 && errno == EDEADLK,
	   "F_SETLKW that would close a cycle of waiters: EDEADLK");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	waitpid(pid, &st, 0);
	close(fd);
	close(p[0]);
	close(p[1]);
}

static int child_sees_ofd(int fd, long inherited)
{
	struct flock l;

	if (inherited)
		return !(getlk((int)inherited, F_OFD_GETLK, F_WRLCK, 0, 1, &l) == 0 &&
			 l.l_type == F_UNLCK);
	return !(getlk(fd, F_OFD_GETLK, F_WRLCK, 0, 1, &l) == 0 && l.l_type == F_WRLCK &&
		 l.l_pid == -1 && getlk(fd, F_GETLK, F_WRLCK, 0, 1, &l) == 0 &&
		 l.l_type == F_WRLCK && lk(fd, F_SETLK, F_RDLCK, 0, 1) == -1);
}

static void test_ofd(void)
{
	int fd = open(F, O_RDWR);
	struct flock l = { .l_type = F_WRLCK, .l_pid = 5 };

	ok(lk(fd, F_OFD_SETLK, F_WRLCK, 0, 1) == 0 && in_child(child_sees_ofd, 0) == 0,
	   "an OFD lock: another open sees it (l_pid -1), POSIX locks conflict with it");
	ok(in_child(child_sees_ofd, fd) == 0, "the same open file in a forked child owns it too");
	errno = 0;
	ok(fcntl(fd, F_OFD_SETLK, &l) == -1 && errno == EINVAL, "F_OFD_SETLK with l_pid set: EINVAL");
	close(fd);
	fd = open(F, O_RDWR);
	ok(lk(fd, F_OFD_SETLK, F_WRLCK, 0, 1) == 0, "an OFD lock goes with its file's last close");
	close(fd);
}

static int child_flock(int fd, long op)
{
	return flock(fd, op) == 0 ? 0 : errno == EWOULDBLOCK ? 2 : 1;
}

static void test_flock(void)
{
	int a = open(F, O_RDWR), b = open(F, O_RDWR), st;
	pid_t pid;

	ok(flock(a, LOCK_EX) == 0 && flock(b, LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK &&
	   flock(b, LOCK_SH | LOCK_NB) == -1 && errno == EWOULDBLOCK,
	   "flock LOCK_EX: another open's LOCK_EX or LOCK_SH with LOCK_NB: EWOULDBLOCK");
	ok(in_child(child_can_write_lock, 0) == 0, "flock and POSIX locks are independent");
	ok(flock(a, LOCK_UN) == 0 && flock(b, LOCK_SH | LOCK_NB) == 0 && flock(a, LOCK_SH) == 0,
	   "LOCK_UN; two shared locks");
	ok(in_child(child_flock, LOCK_EX | LOCK_NB) == 2, "a shared lock keeps LOCK_EX out");
	flock(b, LOCK_UN);
	pid = xfork();
	if (pid == 0) {
		int c = open(F, O_RDWR);

		close(a);                       /* the inherited fds share a's lock: not ours */
		close(b);
		_exit(flock(c, LOCK_EX) == 0 ? 0 : 1);
	}
	usleep(100000);
	ok(waitpid(pid, &st, WNOHANG) == 0, "a blocking LOCK_EX waits for the shared lock");
	close(a);                               /* the last close of the file drops its lock */
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the holder's last close lets it in");
	close(b);
	ok(flock(999, LOCK_EX) == -1 && errno == EBADF, "flock of a closed fd: EBADF");
}

int main(void)
{
	mount_proc_sys();
	mkdir("/tmp", 0777);
	mkdir(D, 0755);
	test_posix();
	test_setlkw();
	test_ofd();
	test_flock();
	unlink(F);
	rmdir(D);
	return tap_done();
}
