/*
 * Guest test (TAP): files and the console — open/read/lseek/fstat of an
 * initrd file, directory listing, the errors of a read-only file system,
 * bad file descriptors and buffers, dup2, close-on-exec, a shell running a
 * command, pipes (writes of up to PIPE_BUF bytes are atomic; O_DIRECT
 * packets; F_GETPIPE_SZ), a
 * nonblocking console read, /dev/null and /dev/zero, statx, and extended
 * attributes (none kept: get/set EOPNOTSUPP for user.*, an empty list,
 * as on Linux 6.1's tmpfs), and path names copied in from the edge of
 * a page (at every alignment: up to the last byte before an inaccessible
 * page, EFAULT past it, ENAMETOOLONG at PATH_MAX); O_PATH files (name
 * only: no I/O, EBADF; fstat, fchdir, dup, *at calls, a link itself with
 * O_NOFOLLOW; a link's mode cannot change).  Runs unchanged on Linux (as
 * init there, the paths differ: the program checks its own binary,
 * argv[0]).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include "tap.h"
#include "statx_abi.h"



#define WRITERS 4
#define RECORDS 60
#define PIPEBUF 4096

/* Record sizes: PIPE_BUF itself and odd sizes below it (each >= the 8-byte header). */
static const int record_size[] = { PIPEBUF, 8, 4095, 100, 2049, 3001, 17, 4000 };

/* Writer id's records: header 'R', id, seq (2 bytes), size (4), then size - 8 bytes of 'a' + id. */
static void write_records(int fd, int id)
{
	static char rec[PIPEBUF];

	for (int seq = 0; seq < RECORDS; seq++) {
		int size = record_size[(seq + id) % 8];

		rec[0] = 'R';
		rec[1] = (char)id;
		memcpy(rec + 2, &(short){ (short)seq }, 2);
		memcpy(rec + 4, &size, 4);
		memset(rec + 8, 'a' + id, size - 8);
		for (volatile int spin = 0; spin < 20000 * ((seq * 7 + id) % 5); spin++)
			;                       /* user time: the timer preempts writers anywhere */
		if (write(fd, rec, size) != size)
			_exit(1);
	}
	_exit(0);
}

/* Parse the stream: every record whole, each writer's in order, all of them there. */
static int records_contiguous(const char *buf, long len)
{
	int next[WRITERS] = { 0 };
	long pos = 0;

	while (pos + 8 <= len) {
		int id = buf[pos + 1], size;
		short seq;

		memcpy(&seq, buf + pos + 2, 2);
		memcpy(&size, buf + pos + 4, 4);
		if (buf[pos] != 'R' || id < 0 || id >= WRITERS || seq != next[id] ||
		    size != record_size[(seq + id) % 8] || pos + size > len)
			return 0;
		for (int i = 8; i < size; i++)
			if (buf[pos + i] != 'a' + id)
				return 0;
		next[id]++;
		pos += size;
	}
	for (int id = 0; id < WRITERS; id++)
		if (next[id] != RECORDS)
			return 0;
	return pos == len;
}

/* WRITERS processes write records of <= PIPE_BUF bytes into one pipe: none is split. */
static void test_pipe_atomic(void)
{
	static char buf[WRITERS * RECORDS * PIPEBUF];
	long total = 0, r;
	int pfd[2], good = 1, st;

	if (pipe(pfd))
		return;
	for (int id = 0; id < WRITERS; id++)
		if (fork() == 0) {
			close(pfd[0]);
			write_records(pfd[1], id);
		}
	close(pfd[1]);
	while ((r = read(pfd[0], buf + total, 1500)) > 0)     /* small reads: room for a part */
		total += r;
	close(pfd[0]);
	for (int id = 0; id < WRITERS; id++)
		good &= wait(&st) > 0 && WIFEXITED(st) && !WEXITSTATUS(st);
	ok(good && records_contiguous(buf, total),
	   "4 writers, records of <= PIPE_BUF bytes: each arrives whole");
}

/* O_NONBLOCK: a write of <= PIPE_BUF bytes that does not fit whole is EAGAIN, not split. */
static void test_pipe_nonblock(void)
{
	static char big[1 << 20], got[PIPEBUF];
	int pfd[2];
	long cap;

	if (pipe2(pfd, O_NONBLOCK))
		return;
	cap = write(pfd[1], big, sizeof(big));  /* fills the pipe, whatever its size */
	ok(cap >= PIPEBUF && cap < (long)sizeof(big) && write(pfd[1], big, 1) == -1 && errno == EAGAIN,
	   "O_NONBLOCK: a big write fills the pipe and returns its size; then EAGAIN");
	ok(read(pfd[0], got, 100) == 100 && write(pfd[1], big, 200) == -1 && errno == EAGAIN &&
	   write(pfd[1], big, PIPEBUF) == -1 && errno == EAGAIN,
	   "O_NONBLOCK: 100 bytes free, writes of 200 and PIPE_BUF bytes: EAGAIN, nothing written");
	while (read(pfd[0], got, sizeof(got)) > 0)
		;                               /* empty it: the last read is EAGAIN */
	ok(write(pfd[1], big, PIPEBUF) == PIPEBUF, "O_NONBLOCK: PIPE_BUF bytes into an empty pipe");
	close(pfd[0]);
	close(pfd[1]);
}

/* pipe2's O_DIRECT: packets (the write end's flag); F_GETPIPE_SZ. */
static void test_pipe_packets(void)
{
	char got[16];
	int pfd[2];

	if (pipe2(pfd, O_DIRECT | O_NONBLOCK)) {
		ok(0, "pipe2(O_DIRECT)");
		return;
	}
	ok(!(fcntl(pfd[0], F_GETFL) & O_DIRECT) && (fcntl(pfd[1], F_GETFL) & O_DIRECT),
	   "pipe2(O_DIRECT): the write end has O_DIRECT, the read end not");
	ok(write(pfd[1], "ab", 2) == 2 && write(pfd[1], "cdefg", 5) == 5 &&
	   read(pfd[0], got, sizeof(got)) == 2 && read(pfd[0], got, 3) == 3 &&
	   !memcmp(got, "cde", 3) && read(pfd[0], got, 8) == -1 && errno == EAGAIN,
	   "O_DIRECT: a read takes one packet; a short read drops the packet's rest");
	ok(fcntl(pfd[0], F_GETPIPE_SZ) == 65536 && fcntl(pfd[1], F_GETPIPE_SZ) == 65536 &&
	   fcntl(0, F_GETPIPE_SZ) == -1 && errno == EBADF,
	   "F_GETPIPE_SZ: 64 KiB for either end, EBADF for another file");
	close(pfd[0]);
	close(pfd[1]);
}

/* The console in canonical mode, nothing typed: a nonblocking read has no line to give. */
static void test_console_nonblock(void)
{
	char c;
	int fd = open("/dev/console", O_RDONLY | O_NONBLOCK);

	errno = 0;
	ok(fd >= 0 && read(fd, &c, 1) == -1 && errno == EAGAIN,
	   "console opened O_NONBLOCK, no line typed: read is EAGAIN");
	close(fd);
}

/* A pipe is one inode: both ends show its S_IFIFO mode and number; another pipe has another. */
static void test_pipe_inode(void)
{
	struct stat r, w, other;
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		return;
	ok(!fstat(a[0], &r) && !fstat(a[1], &w) && !fstat(b[0], &other) && S_ISFIFO(r.st_mode) &&
	   S_ISFIFO(w.st_mode) && r.st_ino == w.st_ino && r.st_ino != other.st_ino,
	   "fstat of a pipe: both ends one FIFO inode, another pipe another inode number");
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
}

/*
 * lseek as each file type has it on Linux: holes and data of a regular
 * file, a directory and /proc text only from the start or the position,
 * a sysfs attribute one page long, a pipe not at all.
 */
static void test_lseek(const char *self, off_t size)
{
	int fd = open(self, O_RDONLY), dir = open("/", O_RDONLY | O_DIRECTORY);
	int meminfo = open("/proc/meminfo", O_RDONLY), fds[2];
	int knob = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY);

	ok(lseek(fd, 100, SEEK_DATA) == 100 && lseek(fd, 100, SEEK_HOLE) == size &&
	   lseek(fd, size, SEEK_DATA) == -1 && errno == ENXIO, "lseek SEEK_DATA/SEEK_HOLE: no holes");
	ok(lseek(fd, 0, 5) == -1 && errno == EINVAL && lseek(fd, -1, SEEK_SET) == -1 &&
	   errno == EINVAL, "lseek: unknown whence or a negative position is EINVAL");
	ok(lseek(dir, 4096, SEEK_SET) == 4096 && lseek(dir, 0, SEEK_END) == -1 && errno == EINVAL,
	   "lseek of a directory: SEEK_SET works, SEEK_END is EINVAL");
	ok(lseek(meminfo, 10, SEEK_SET) == 10 && lseek(meminfo, 0, SEEK_END) == -1 && errno == EINVAL,
	   "lseek of /proc/meminfo: SEEK_SET works, SEEK_END is EINVAL");
	ok(lseek(knob, 0, SEEK_END) == 4096 && lseek(knob, 1L << 31, SEEK_SET) == -1 && errno == EINVAL,
	   "lseek of a sysfs attribute: SEEK_END is its page, 2 GiB is past its largest file");
	if (pipe(fds) == 0) {
		ok(lseek(fds[0], 0, SEEK_SET) == -1 && errno == ESPIPE, "lseek of a pipe: ESPIPE");
		close(fds[0]);
		close(fds[1]);
	}
	close(fd);
	close(dir);
	close(meminfo);
	close(knob);
}

/* /dev/null and /dev/zero as Linux's drivers/char/mem.c: 1:3 and 1:5. */
static void test_mem_devices(void)
{
	static char buf[8192];
	int null = open("/dev/null", O_RDWR), zero = open("/dev/zero", O_RDWR);
	struct stat st;
	char *p;
	int zeros = 1;

	ok(null >= 0 && write(null, "abc", 3) == 3 && read(null, buf, 10) == 0,
	   "/dev/null swallows writes and reads EOF");
	ok(fstat(null, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3),
	   "/dev/null is character device 1:3");
	memset(buf, 0xff, sizeof(buf));
	ok(zero >= 0 && read(zero, buf, sizeof(buf)) == sizeof(buf), "/dev/zero reads as much as asked");
	for (size_t i = 0; i < sizeof(buf); i++)
		zeros &= !buf[i];
	ok(zeros, "... and it is all zeros");
	ok(fstat(zero, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 5) &&
	   lseek(zero, 100, SEEK_SET) == 0, "/dev/zero is 1:5 and stays at offset 0");
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, zero, 0);
	ok(p != MAP_FAILED && p[0] == 0 && p[8191] == 0, "a private mmap of /dev/zero reads zeros");
	if (p != MAP_FAILED) {
		p[4096] = 7;
		ok(p[4096] == 7 && munmap(p, 8192) == 0, "... and is writable anonymous memory");
	}
	close(null);
	close(zero);
}

/* statx agrees with fstat; AT_EMPTY_PATH; its EINVALs. */
static void test_statx(void)
{
	struct statx_rec stx;
	struct stat st;
	int fd;

	mkdir("/tmp", 01777);                   /* Linux's init without mounts: may be missing */
	fd = open("/tmp/statx-file", O_RDWR | O_CREAT | O_TRUNC, 0644);

	ok(fd >= 0 && write(fd, "hello", 5) == 5 && fstat(fd, &st) == 0 &&
	   statx(AT_FDCWD, "/tmp/statx-file", 0, STATX_BASIC_STATS, &stx) == 0 &&
	   (stx.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS && stx.stx_size == 5 &&
	   stx.stx_ino == st.st_ino && stx.stx_mode == st.st_mode && stx.stx_nlink == 1 &&
	   stx.stx_blocks == (unsigned long long)st.st_blocks &&
	   makedev(stx.stx_dev_major, stx.stx_dev_minor) == st.st_dev,
	   "statx: the basic fields, as fstat has them");
	ok(statx(fd, "", AT_EMPTY_PATH, STATX_SIZE, &stx) == 0 && stx.stx_ino == st.st_ino,
	   "statx(fd, \"\", AT_EMPTY_PATH)");
	errno = 0;
	ok(statx(AT_FDCWD, "/tmp/statx-file", 0x8000000, STATX_SIZE, &stx) == -1 && errno == EINVAL,
	   "statx with an unknown flag: EINVAL");
	errno = 0;
	ok(statx(AT_FDCWD, "/tmp/statx-file", 0, 0x80000000U, &stx) == -1 && errno == EINVAL,
	   "statx with STATX__RESERVED: EINVAL");
	errno = 0;
	ok(statx(AT_FDCWD, "/tmp/none", 0, STATX_SIZE, &stx) == -1 && errno == ENOENT,
	   "statx of a missing file: ENOENT");
	if (fd >= 0)
		close(fd);
}

static void test_xattr(void)
{
	char value[16];

	errno = 0;
	ok(getxattr("/tmp/statx-file", "user.x", value, sizeof(value)) == -1 && errno == EOPNOTSUPP,
	   "getxattr user.x: EOPNOTSUPP");
	errno = 0;
	ok(setxattr("/tmp/statx-file", "user.x", "v", 1, 0) == -1 && errno == EOPNOTSUPP,
	   "setxattr user.x: EOPNOTSUPP");
	ok(listxattr("/tmp/statx-file", value, sizeof(value)) == 0, "listxattr: an empty list");
	errno = 0;
	ok(getxattr("/tmp/none", "user.x", value, sizeof(value)) == -1 && errno == ENOENT,
	   "getxattr of a missing file: ENOENT");
	errno = 0;
	ok(getxattr("/tmp/statx-file", "", value, sizeof(value)) == -1 && errno == ERANGE,
	   "getxattr with an empty name: ERANGE");
	unlink("/tmp/statx-file");
}

/*
 * A path name is copied in from user memory up to its NUL: one that ends
 * on the last byte before a PROT_NONE page is read whole, at every
 * alignment (the kernel may read a word at a time, never past the page
 * the name ends in); one that runs into that page is EFAULT; PATH_MAX
 * bytes without a NUL are ENAMETOOLONG, PATH_MAX - 1 slashes are "/".
 */
static void test_name_copy(void)
{
	static const char name[] = "/proc/self/status";
	char *map = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *edge = map + 2 * 4096;
	struct stat st;
	int good = 0, faults = 0;

	if (map == MAP_FAILED || mprotect(edge, 4096, PROT_NONE)) {
		ok(0, "map a page before a PROT_NONE page");
		return;
	}
	for (int shift = 0; shift < 16; shift++) {
		char *at = edge - sizeof(name) - shift;

		memset(edge - 64, 'x', 64);
		memcpy(at, name, sizeof(name));
		good += stat(at, &st) == 0 && S_ISREG(st.st_mode);
		memset(at + sizeof(name) - 1, '/', shift + 1);  /* no NUL before the edge */
		faults += syscall(SYS_newfstatat, AT_FDCWD, at, &st, 0) == -1 && errno == EFAULT;
	}
	ok(good == 16, "a name ending at a page's last byte is read at every alignment (%d of 16)", good);
	ok(faults == 16, "a name running into a PROT_NONE page: EFAULT (%d of 16)", faults);
	memset(map, '/', 2 * 4096);
	edge[-1] = '\0';
	ok(syscall(SYS_newfstatat, AT_FDCWD, edge - 4096 - 1, &st, 0) == -1 && errno == ENAMETOOLONG,
	   "PATH_MAX bytes without a NUL: ENAMETOOLONG");
	ok(stat(edge - 4096, &st) == 0 && S_ISDIR(st.st_mode), "PATH_MAX - 1 slashes name /");
	munmap(map, 3 * 4096);
}

/* errno of a call that must fail, 0 if it succeeded. */
static int fails_with(long ret)
{
	return ret < 0 ? errno : 0;
}

/*
 * O_PATH as Linux's: the file names an inode whatever its mode (a link
 * itself with O_NOFOLLOW, a FIFO without waiting) and does no I/O —
 * read, write, ioctl, fchmod, fsync, flock, mmap, getdents, F_SETFL are
 * EBADF — while dup, F_GETFD/F_GETFL, fstat, fchdir and *at calls take
 * it.  Other open flags are dropped.  chmod of a link is EOPNOTSUPP.
 */
static void test_o_path(void)
{
	char buf[16], proc[32];
	struct stat st;
	int fl, ff, fd, fifo, in;

	mkdir("/tmp", 01777);                   /* Linux's initramfs as the peer's root has none */
	mkdir("/tmp/op", 0755);
	close(open("/tmp/op/f", O_CREAT | O_WRONLY, 0));
	symlink("f", "/tmp/op/l");
	mkfifo("/tmp/op/p", 0600);
	fl = open("/tmp/op/l", O_PATH | O_NOFOLLOW | O_CREAT | O_TRUNC | O_RDWR);
	ff = open("/tmp/op/f", O_PATH);
	fd = open("/tmp/op", O_PATH | O_DIRECTORY);
	fifo = open("/tmp/op/p", O_PATH);
	ok(fl >= 0 && ff >= 0 && fd >= 0 && fifo >= 0 && fcntl(fl, F_GETFL) == (O_PATH | O_NOFOLLOW) &&
	   fcntl(ff, F_GETFL) == O_PATH,
	   "O_PATH opens a link itself, a mode-0 file, a directory, a FIFO; F_GETFL: O_PATH only");
	ok(fails_with(read(ff, buf, 1)) == EBADF && fails_with(write(ff, "x", 1)) == EBADF &&
	   fails_with(syscall(SYS_fchmod, ff, 0644)) == EBADF && fails_with(fsync(ff)) == EBADF &&
	   fails_with(syscall(SYS_flock, ff, 1)) == EBADF && fails_with(ftruncate(ff, 0)) == EBADF &&
	   fails_with(syscall(SYS_getdents64, fd, buf, sizeof(buf))) == EBADF &&
	   fails_with(syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE, ff, 0)) == EBADF &&
	   fails_with(fcntl(ff, F_SETFL, O_NONBLOCK)) == EBADF && fails_with(futimens(ff, NULL)) == EBADF,
	   "no I/O on it: read, write, fchmod, fsync, flock, ftruncate, getdents, mmap, F_SETFL, futimens EBADF");
	ok(fstat(fl, &st) == 0 && S_ISLNK(st.st_mode) && readlinkat(fl, "", buf, sizeof(buf)) == 1 &&
	   fstat(ff, &st) == 0 && S_ISREG(st.st_mode) && dup3(ff, 40, O_CLOEXEC) == 40 &&
	   fcntl(40, F_GETFD) == FD_CLOEXEC && !close(40),
	   "fstat, readlinkat(fd, \"\"), dup3 and F_GETFD take it");
	ok((in = openat(fd, "f", O_RDONLY)) >= 0 && !close(in) && fails_with(fchdir(ff)) == ENOTDIR && fchdir(fd) == 0 &&
	   chdir("/") == 0 && fails_with(open("/tmp/op/f", O_PATH | O_DIRECTORY)) == ENOTDIR,
	   "an O_PATH directory: openat and fchdir; O_DIRECTORY on a file ENOTDIR");
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fl);
	ok(fails_with(chmod(proc, 0600)) == EOPNOTSUPP && lstat("/tmp/op/l", &st) == 0 &&
	   (st.st_mode & 07777) == 0777, "chmod of a link (through /proc/self/fd): EOPNOTSUPP, still 0777");
	close(fl);
	close(ff);
	close(fd);
	close(fifo);
	unlink("/tmp/op/l");
	unlink("/tmp/op/f");
	unlink("/tmp/op/p");
	rmdir("/tmp/op");
}

int main(int argc, char **argv)
{
	char buf[64], *self = argv[0];
	struct stat st;
	int fd, found = 0, fd2;
	DIR *d;
	struct dirent *e;
	char dir[128], *slash;

	(void)argc;
	mount_proc_sys();
	printf("TAP version 13\n");
	fd = open(self, O_RDONLY);
	ok(fd >= 0, "open our own binary");
	ok(read(fd, buf, 4) == 4 && !memcmp(buf, "\177ELF", 4), "read its ELF magic");
	ok(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 4096, "fstat: a regular file with a size");
	ok(lseek(fd, 1, SEEK_SET) == 1 && read(fd, buf, 3) == 3 && !memcmp(buf, "ELF", 3), "lseek then read");
	ok(lseek(fd, 0, SEEK_END) == st.st_size && read(fd, buf, 8) == 0, "read at the end: 0");
	ok(read(fd, (void *)8, 8) == 0 || errno == EFAULT, "read into a bad buffer does not crash");
	lseek(fd, 0, SEEK_SET);
	ok(syscall(SYS_read, fd, (void *)8, 8) == -1 && errno == EFAULT, "read into a bad buffer: EFAULT");
	test_lseek(self, st.st_size);
	test_mem_devices();
	test_name_copy();
	test_o_path();
	ok(close(fd) == 0 && close(fd) == -1 && errno == EBADF, "close, then EBADF");
	ok(read(99, buf, 1) == -1 && errno == EBADF, "read of a bad fd: EBADF");
	fd = open(self, O_RDONLY);
	{
		char a[2], b[2];
		struct iovec iov[2] = { { a, 2 }, { b, 2 } };
		struct rlimit rl;

		ok(pread(fd, buf, 3, 1) == 3 && !memcmp(buf, "ELF", 3) && lseek(fd, 0, SEEK_CUR) == 0,
		   "pread at an offset leaves the position alone");
		ok(readv(fd, iov, 2) == 4 && !memcmp(a, "\177E", 2) && !memcmp(b, "LF", 2), "readv");
		ok(getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur >= (8 << 20), "getrlimit(RLIMIT_STACK)");
	}
	close(fd);
	ok(open("/does/not/exist", O_RDONLY) == -1 && errno == ENOENT, "open of a missing file: ENOENT");
	ok(open(self, O_WRONLY) == -1 && (errno == EROFS || errno == ETXTBSY || errno == EACCES),
	   "open for writing on a read-only file system fails");
	ok(stat(self, &st) == 0 && S_ISREG(st.st_mode), "stat by path");
	ok(access(self, R_OK) == 0 && access("/nope", R_OK) == -1 && errno == ENOENT, "access");
	strcpy(dir, self);
	slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	else
		strcpy(dir, "/");
	d = opendir(dir);
	ok(d != NULL, "opendir of our directory");
	while (d && (e = readdir(d)))
		found |= !strcmp(e->d_name, strrchr(self, '/') ? strrchr(self, '/') + 1 : self);
	if (d)
		closedir(d);
	ok(found, "readdir lists our own binary");
	ok(open(self, O_RDONLY | O_DIRECTORY) == -1 && errno == ENOTDIR, "O_DIRECTORY on a file: ENOTDIR");
	fd2 = dup(1);
	ok(fd2 > 2 && write(fd2, "", 0) == 0, "dup of stdout");
	ok(dup2(fd2, 9) == 9 && write(9, "# via fd 9\n", 11) == 11, "dup2 to fd 9 writes to the console");
	ok(fcntl(9, F_SETFD, FD_CLOEXEC) == 0 && fcntl(9, F_GETFD) == FD_CLOEXEC, "close-on-exec flag");
	close(9);
	close(fd2);
	ok(fstat(1, &st) == 0 && isatty(1) == !!S_ISCHR(st.st_mode),
	   "isatty(1) agrees with stdout's file type (console or pipe)");
	if (!access("/bin/sh", X_OK)) {
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			execl("/bin/sh", "sh", "-c", "hello 5", (char *)NULL);
			_exit(99);
		}
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 5, "sh -c runs a command from PATH, passes its status");
	}
	{
		int pfd[2], status;
		static char big[20000], got[20000];
		long total = 0, r;
		pid_t pid;

		for (unsigned int i = 0; i < sizeof(big); i++)
			big[i] = (char)(i * 7);
		ok(pipe(pfd) == 0, "pipe");
		pid = fork();
		if (pid == 0) {
			close(pfd[0]);
			_exit(write(pfd[1], big, sizeof(big)) == sizeof(big) ? 0 : 1);
		}
		close(pfd[1]);
		while ((r = read(pfd[0], got + total, sizeof(got) - total)) > 0)
			total += r;
		close(pfd[0]);                  /* a failed read must not leave the writer blocked */
		waitpid(pid, &status, 0);
		ok(total == sizeof(big) && !memcmp(big, got, sizeof(big)) && WIFEXITED(status) &&
		   !WEXITSTATUS(status), "20000 bytes through a 4 KiB pipe between processes, then EOF");
		if (pipe(pfd))
			pfd[0] = pfd[1] = -1;   /* fault injection: the checks below fail */
		close(pfd[0]);
		pid = fork();
		if (pid == 0)
			_exit(write(pfd[1], "x", 1) == -1 ? 2 : 3);
		waitpid(pid, &status, 0);
		ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "write with no reader: SIGPIPE");
		signal(SIGPIPE, SIG_IGN);
		ok(write(pfd[1], "x", 1) == -1 && errno == EPIPE, "with SIGPIPE ignored: EPIPE");
		signal(SIGPIPE, SIG_DFL);
		close(pfd[1]);
		ok(fstat(0, &st) == 0 && S_ISCHR(st.st_mode), "stdin is a character device");
	}
	test_pipe_atomic();
	test_pipe_nonblock();
	test_pipe_packets();
	test_console_nonblock();
	test_pipe_inode();
	test_statx();
	test_xattr();
	return tap_done();
}
