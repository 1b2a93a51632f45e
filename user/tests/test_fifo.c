/*
 * Guest test (TAP): named pipes and device nodes as Linux has them.
 * mkfifo/mknod S_IFIFO, and a FIFO's open: a reader waits for a writer and
 * a writer for a reader (O_NONBLOCK: the reader goes on, the writer gets
 * ENXIO), O_RDWR never waits, a signal ends the wait (EINTR); data flows
 * from one open to the other, EOF when the writer goes; an unlinked FIFO
 * still works.  mknod of a character device opens the driver (1:3 is
 * /dev/null), an unknown device or a socket opens with ENXIO; a type 0
 * node is a regular file; S_IFDIR is EPERM, a bad type EINVAL.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define D       "/tmp/ff"
#define F       D "/fifo"

static int fails(long ret)
{
	return ret < 0 ? errno : 0;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* In a child: open F with flags, report 'o' on p[1], then write or read a word. */
static pid_t opener(int flags, int p[2])
{
	pid_t pid = xfork();

	if (pid == 0) {
		int fd = open(F, flags);
		char buf[8] = "";

		write(p[1], fd >= 0 ? "o" : "e", 1);
		if ((flags & O_ACCMODE) == O_WRONLY)
			_exit(write(fd, "hello", 5) == 5 ? 0 : 1);
		_exit(read(fd, buf, sizeof(buf)) == 5 && !memcmp(buf, "hello", 5) ? 0 : 1);
	}
	return pid;
}

/* Has the child reported within ms?  Its byte, or 0. */
static char reported(int fd, int ms)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	char c = 0;

	if (poll(&pfd, 1, ms) == 1)
		read(fd, &c, 1);
	return c;
}

static void test_fifo_open(void)
{
	struct stat st;
	int p[2], fd, st2;
	pid_t pid;
	char buf[8];

	ok(mkfifo(F, 0666) == 0 && stat(F, &st) == 0 && S_ISFIFO(st.st_mode) &&
	   (st.st_mode & 0777) == (0666 & ~022), "mkfifo: a FIFO, mode less the umask");
	fd = open(F, O_RDONLY | O_NONBLOCK);
	ok(fd >= 0 && read(fd, buf, sizeof(buf)) == 0,
	   "O_RDONLY|O_NONBLOCK opens without a writer; read: EOF");
	close(fd);
	ok(fails(open(F, O_WRONLY | O_NONBLOCK)) == ENXIO, "O_WRONLY|O_NONBLOCK without a reader: ENXIO");
	fd = open(F, O_RDWR);
	ok(fd >= 0 && write(fd, "abc", 3) == 3 && read(fd, buf, 3) == 3,
	   "O_RDWR never waits; what it writes it reads");
	close(fd);
	pipe(p);
	pid = opener(O_RDONLY, p);
	ok(reported(p[0], 200) == 0, "a reader's open waits for a writer");
	fd = open(F, O_WRONLY);
	ok(fd >= 0 && reported(p[0], 5000) == 'o', "a writer's open lets it go, and does not wait");
	write(fd, "hello", 5);
	close(fd);
	waitpid(pid, &st2, 0);
	ok(WIFEXITED(st2) && WEXITSTATUS(st2) == 0, "the reader reads what the writer wrote");
	pid = opener(O_WRONLY, p);
	ok(reported(p[0], 200) == 0, "a writer's open waits for a reader");
	fd = open(F, O_RDONLY);
	ok(fd >= 0 && reported(p[0], 5000) == 'o' && read(fd, buf, 5) == 5 &&
	   read(fd, buf, 5) == 0, "a reader's open lets it go; EOF after the writer is gone");
	close(fd);
	waitpid(pid, &st2, 0);
	close(p[0]);
	close(p[1]);
}

static void test_fifo_signal(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	int p[2], st;
	pid_t pid;
	char c = 0;

	pipe(p);
	pid = xfork();
	if (pid == 0) {
		sigaction(SIGUSR1, &sa, NULL);  /* no SA_RESTART */
		write(p[1], "r", 1);
		errno = 0;
		_exit(open(F, O_RDONLY) == -1 && errno == EINTR ? 0 : 1);
	}
	read(p[0], &c, 1);
	usleep(100000);
	kill(pid, SIGUSR1);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a signal ends an open waiting for a partner: EINTR");
	close(p[0]);
	close(p[1]);
}

static void test_unlinked(void)
{
	int r = open(F, O_RDONLY | O_NONBLOCK), w = open(F, O_WRONLY);
	char buf[4];

	unlink(F);
	ok(r >= 0 && w >= 0 && write(w, "xy", 2) == 2 && read(r, buf, 2) == 2,
	   "an unlinked FIFO still carries data between its open ends");
	close(r);
	close(w);
}

static void test_mknod(void)
{
	struct stat st;
	char c;
	int fd;

	ok(mknod(D "/null", S_IFCHR | 0666, makedev(1, 3)) == 0 && stat(D "/null", &st) == 0 &&
	   S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3),
	   "mknod S_IFCHR 1:3: a character device node with its number");
	fd = open(D "/null", O_RDWR);
	ok(fd >= 0 && write(fd, "x", 1) == 1 && read(fd, &c, 1) == 0,
	   "opening it opens the driver: /dev/null");
	close(fd);
	mknod(D "/nodev", S_IFCHR | 0600, makedev(240, 7));
	ok(fails(open(D "/nodev", O_RDONLY)) == ENXIO, "a device number no driver has: ENXIO");
	ok(mknod(D "/sock", S_IFSOCK | 0600, 0) == 0 && stat(D "/sock", &st) == 0 &&
	   S_ISSOCK(st.st_mode) && fails(open(D "/sock", O_RDONLY)) == ENXIO,
	   "mknod S_IFSOCK: a socket inode, which open refuses: ENXIO");
	ok(mknod(D "/reg", 0644, 0) == 0 && stat(D "/reg", &st) == 0 && S_ISREG(st.st_mode),
	   "mknod of type 0: a regular file");
	ok(fails(mknod(D "/dir", S_IFDIR | 0755, 0)) == EPERM, "mknod S_IFDIR: EPERM");
	ok(fails(mknod(D "/bad", 0170000 | 0644, 0)) == EINVAL, "mknod of a bad type: EINVAL");
	ok(fails(mknod(D "/reg", S_IFIFO | 0644, 0)) == EEXIST, "mknod over a name: EEXIST");
	unlink(D "/null");
	unlink(D "/nodev");
	unlink(D "/sock");
	unlink(D "/reg");
}

int main(void)
{
	mount_proc_sys();
	mkdir("/tmp", 0777);
	mkdir(D, 0755);
	umask(022);
	test_fifo_open();
	test_fifo_signal();
	test_unlinked();
	test_mknod();
	rmdir(D);
	return tap_done();
}
