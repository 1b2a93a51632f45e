/*
 * Guest test (TAP): every implemented system call, called with hostile
 * arguments — NULL, kernel-half, non-canonical, unmapped, read-only (for
 * calls that write), partially mapped and unaligned pointers, huge,
 * negative and wrapping lengths, invalid flags, closed and out-of-range
 * fds — must return the errno Linux returns, and the kernel must go on.
 *
 * The expected values are Linux's: the same binary runs on Linux as init
 * (../shared/peer/linux-peer.sh) and must pass there too, which is how
 * the table is kept honest.  Calls go through a raw `syscall` instruction
 * so that neither musl nor the vDSO stands between the case and the kernel.
 * Each case is one TAP line: "ok N read(fd, NULL, 16) = -EFAULT".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include "x86_user.h"

#define KERN            0xffffffff81000000L     /* kernel text on Linux; kernel half on both */
#define NONCANON        0x8000000000000000L
#define ANY_OK          (-1000000L)             /* expect any result >= 0 */
#define PG              4096L

static int n, failed;
static int nr_calls, calls_failed, call_failed;

/* Cases are grouped by system call; count the calls whose every case matched. */
static void syscall_begin(const char *name)
{
	calls_failed += call_failed;
	call_failed = 0;
	if (name) {
		nr_calls++;
		printf("# %s\n", name);
	}
}

static const char *name_of(long v)
{
	static char s[32];

	if (v >= 0 || v < -4095) {
		snprintf(s, sizeof(s), "%ld", v);
		return s;
	}
	switch (-v) {
#define E(x) case x: return "-" #x;
	E(EPERM) E(ENOENT) E(ESRCH) E(EINTR) E(EIO) E(E2BIG) E(ENOEXEC) E(EBADF)
	E(ECHILD) E(EAGAIN) E(ENOMEM) E(EACCES) E(EFAULT) E(EBUSY) E(EEXIST)
	E(ENODEV) E(ENOTDIR) E(EISDIR) E(EINVAL) E(EMFILE) E(ENOTTY) E(ESPIPE)
	E(EPIPE) E(ERANGE) E(ENAMETOOLONG) E(ENOSYS) E(EOPNOTSUPP) E(EOVERFLOW)
#undef E
	}
	snprintf(s, sizeof(s), "-%ld", -v);
	return s;
}

/* One case: call, compare with Linux's answer, print one TAP line. */
static long check(const char *desc, long expect, long nr, long a, long b, long c, long d,
		  long e, long f)
{
	long ret = raw_syscall(nr, a, b, c, d, e, f);
	int good = expect == ANY_OK ? ret >= 0 : ret == expect;
	char want[32];

	snprintf(want, sizeof(want), "%s", expect == ANY_OK ? ">= 0" : name_of(expect));
	printf("%sok %d %s = %s", good ? "" : "not ", ++n, desc, name_of(ret));
	if (!good)
		printf(" # expected %s, Linux's answer", want);
	printf("\n");
	fflush(stdout);
	failed += !good;
	call_failed |= !good;
	return ret;
}

#define C0(desc, ex, nr)                   check(desc, ex, nr, 0, 0, 0, 0, 0, 0)
#define C1(desc, ex, nr, a)                check(desc, ex, nr, (long)(a), 0, 0, 0, 0, 0)
#define C2(desc, ex, nr, a, b)             check(desc, ex, nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define C3(desc, ex, nr, a, b, c)          check(desc, ex, nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define C4(desc, ex, nr, a, b, c, d)       check(desc, ex, nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define C6(desc, ex, nr, a, b, c, d, e, f) check(desc, ex, nr, (long)(a), (long)(b), (long)(c), \
						 (long)(d), (long)(e), (long)(f))

/* A case whose result is not a system call's return value. */
static void ok_status(const char *desc, long got, long expect)
{
	int good = got == expect;

	printf("%sok %d %s (got %ld)\n", good ? "" : "not ", ++n, desc, got);
	failed += !good;
	call_failed |= !good;
}

/* The hostile memory: a read-only page, and a page followed by a hole. */
static char *self, **self_argv;
static char *ro, *hole, *unmapped, *partial, *longpath, *partpath;
static char buf[8192];
static int file_fd, dir_fd, pipe_r, pipe_w, closed_fd, tty_fd;

static void setup(void)
{
	ro = mmap(NULL, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hole = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole + PG, PG);
	unmapped = hole + PG;
	partial = hole + PG - 8;                /* 8 bytes mapped, then the hole */
	partpath = hole + PG - 5;
	longpath = malloc(PG + 16);
	memset(longpath, 'a', PG + 15);
	longpath[0] = '/';
	longpath[PG + 15] = 0;
	file_fd = open("/proc/meminfo", O_RDONLY);
	dir_fd = open("/proc", O_RDONLY | O_DIRECTORY);
	int p[2];

	pipe2(p, O_NONBLOCK);   /* a write lost to fault injection must not leave a read asleep */
	pipe_r = p[0];
	pipe_w = p[1];
	tty_fd = open("/dev/console", O_RDWR);  /* stdout may be a pipe (runtests) */
	closed_fd = open("/proc/meminfo", O_RDONLY);    /* the lowest free fd, now closed */
	close(closed_fd);
	if (!ro || !hole || file_fd < 0 || dir_fd < 0 || tty_fd < 0)
		printf("# setup failed\n");
}

/* fds: bad and closed fds, wrong direction, hostile buffers and lengths. */
static void fd_cases(void)
{
	struct iovec { void *base; long len; } iov_null[1] = { { NULL, 16 } },
		iov_neg[1] = { { buf, -1L } },
		iov_ok[1] = { { buf, 16 } }, iov_kern[1] = { { (void *)KERN, 16 } };

	syscall_begin("read");
	C3("read(-1, buf, 16)", -EBADF, SYS_read, -1, buf, 16);
	C3("read(1000000, buf, 16)", -EBADF, SYS_read, 1000000, buf, 16);
	C3("read(closed fd, buf, 16)", -EBADF, SYS_read, closed_fd, buf, 16);
	C3("read(pipe write end, buf, 16)", -EBADF, SYS_read, pipe_w, buf, 16);
	C3("read(directory, buf, 16)", -EISDIR, SYS_read, dir_fd, buf, 16);
	C3("read(file, NULL, 16)", -EFAULT, SYS_read, file_fd, NULL, 16);
	C3("read(file, kernel address, 16)", -EFAULT, SYS_read, file_fd, KERN, 16);
	C3("read(file, non-canonical, 16)", -EFAULT, SYS_read, file_fd, NONCANON, 16);
	C3("read(file, unmapped, 16)", -EFAULT, SYS_read, file_fd, unmapped, 16);
	C3("read(file, read-only page, 16)", -EFAULT, SYS_read, file_fd, ro, 16);
	C3("read(file, buf, -1)", -EFAULT, SYS_read, file_fd, buf, -1L);
	C3("read(file, buf, 0)", 0, SYS_read, file_fd, buf, 0);
	C3("read(file, buf + 1 (unaligned), 16)", 16, SYS_read, file_fd, buf + 1, 16);
	write(pipe_w, "0123456789abcdef", 16);
	C3("read(pipe, partially mapped, 16)", -EFAULT, SYS_read, pipe_r, partial, 16);
	C3("read(pipe, buf, 16) after it gets all 16", 16, SYS_read, pipe_r, buf, 16);

	syscall_begin("write");
	C3("write(-1, buf, 16)", -EBADF, SYS_write, -1, buf, 16);
	C3("write(closed fd, buf, 16)", -EBADF, SYS_write, closed_fd, buf, 16);
	C3("write(pipe read end, buf, 16)", -EBADF, SYS_write, pipe_r, buf, 16);
	C3("write(read-only file, buf, 16)", -EBADF, SYS_write, file_fd, buf, 16);
	C3("write(1, NULL, 16)", -EFAULT, SYS_write, 1, NULL, 16);
	C3("write(1, kernel address, 16)", -EFAULT, SYS_write, 1, KERN, 16);
	C3("write(1, non-canonical, 16)", -EFAULT, SYS_write, 1, NONCANON, 16);
	C3("write(1, unmapped, 16)", -EFAULT, SYS_write, 1, unmapped, 16);
	C3("write(1, partially mapped, 100)", -EFAULT, SYS_write, 1, partial, 100);
	C3("write(pipe, partially mapped, 100)", -EFAULT, SYS_write, pipe_w, partial, 100);
	C3("write(pipe, kernel address, -1)", -EFAULT, SYS_write, pipe_w, KERN, -1L);
	C3("write(pipe, buf, 0)", 0, SYS_write, pipe_w, buf, 0);
	C3("write(pipe, read-only page, 16)", 16, SYS_write, pipe_w, ro, 16);
	C3("read(pipe, buf, 16) gets those 16 bytes", 16, SYS_read, pipe_r, buf, 16);

	syscall_begin("readv/writev");
	C3("readv(-1, iov, 1)", -EBADF, SYS_readv, -1, iov_ok, 1);
	C3("readv(file, NULL, 1)", -EFAULT, SYS_readv, file_fd, NULL, 1);
	C3("readv(file, kernel iov, 1)", -EFAULT, SYS_readv, file_fd, KERN, 1);
	C3("readv(file, iov, -1)", -EINVAL, SYS_readv, file_fd, iov_ok, -1);
	C3("readv(file, iov, 1025)", -EINVAL, SYS_readv, file_fd, iov_ok, 1025);
	C3("readv(file, iov, 0)", 0, SYS_readv, file_fd, iov_ok, 0);
	C3("readv(file, {NULL, 16}, 1)", -EFAULT, SYS_readv, file_fd, iov_null, 1);
	C3("readv(file, {kernel, 16}, 1)", -EFAULT, SYS_readv, file_fd, iov_kern, 1);
	C3("readv(file, {buf, -1}, 1)", -EINVAL, SYS_readv, file_fd, iov_neg, 1);
	C3("writev(-1, iov, 1)", -EBADF, SYS_writev, -1, iov_ok, 1);
	C3("writev(1, NULL, 1)", -EFAULT, SYS_writev, 1, NULL, 1);
	C3("writev(1, iov, -1)", -EINVAL, SYS_writev, 1, iov_ok, -1);
	C3("writev(1, {NULL, 16}, 1)", -EFAULT, SYS_writev, 1, iov_null, 1);
	C3("writev(1, {kernel, 16}, 1)", -EFAULT, SYS_writev, 1, iov_kern, 1);
	C3("writev(1, {buf, -1}, 1)", -EINVAL, SYS_writev, 1, iov_neg, 1);

	syscall_begin("pread64");
	C4("pread64(-1, buf, 16, 0)", -EBADF, SYS_pread64, -1, buf, 16, 0);
	C4("pread64(file, buf, 16, -1)", -EINVAL, SYS_pread64, file_fd, buf, 16, -1L);
	C4("pread64(pipe, buf, 16, 0)", -ESPIPE, SYS_pread64, pipe_r, buf, 16, 0);
	C4("pread64(file, NULL, 16, 0)", -EFAULT, SYS_pread64, file_fd, NULL, 16, 0);
	C4("pread64(file, read-only page, 16, 0)", -EFAULT, SYS_pread64, file_fd, ro, 16, 0);

	syscall_begin("lseek");
	C3("lseek(-1, 0, SEEK_SET)", -EBADF, SYS_lseek, -1, 0, SEEK_SET);
	C3("lseek(pipe, 0, SEEK_SET)", -ESPIPE, SYS_lseek, pipe_r, 0, SEEK_SET);
	C3("lseek(file, 0, whence 7)", -EINVAL, SYS_lseek, file_fd, 0, 7);
	C3("lseek(file, -1, SEEK_SET)", -EINVAL, SYS_lseek, file_fd, -1L, SEEK_SET);
	C3("lseek(file, 0, SEEK_SET)", 0, SYS_lseek, file_fd, 0, SEEK_SET);

	syscall_begin("fstat");
	C2("fstat(-1, buf)", -EBADF, SYS_fstat, -1, buf);
	C2("fstat(closed fd, buf)", -EBADF, SYS_fstat, closed_fd, buf);
	C2("fstat(file, NULL)", -EFAULT, SYS_fstat, file_fd, NULL);
	C2("fstat(file, kernel address)", -EFAULT, SYS_fstat, file_fd, KERN);
	C2("fstat(file, read-only page)", -EFAULT, SYS_fstat, file_fd, ro);
	C2("fstat(file, partially mapped)", -EFAULT, SYS_fstat, file_fd, partial);

	syscall_begin("ioctl");
	C3("ioctl(-1, TCGETS, buf)", -EBADF, SYS_ioctl, -1, 0x5401, buf);
	C3("ioctl(pipe, TCGETS, buf)", -ENOTTY, SYS_ioctl, pipe_r, 0x5401, buf);
	C3("ioctl(file, TCGETS, buf)", -ENOTTY, SYS_ioctl, file_fd, 0x5401, buf);
	C3("ioctl(console, TCGETS, NULL)", -EFAULT, SYS_ioctl, tty_fd, 0x5401, NULL);
	C3("ioctl(console, TCGETS, read-only page)", -EFAULT, SYS_ioctl, tty_fd, 0x5401, ro);
	C3("ioctl(console, TIOCGWINSZ, kernel address)", -EFAULT, SYS_ioctl, tty_fd, 0x5413, KERN);
	C3("ioctl(console, 0xdeadbeef, buf)", -ENOTTY, SYS_ioctl, tty_fd, 0xdeadbeef, buf);

	syscall_begin("close");
	C1("close(-1)", -EBADF, SYS_close, -1);
	C1("close(1000000)", -EBADF, SYS_close, 1000000);
	C1("close(closed fd)", -EBADF, SYS_close, closed_fd);
	C1("close(INT_MIN)", -EBADF, SYS_close, 0x80000000L);

	syscall_begin("dup/dup2/dup3");
	C1("dup(-1)", -EBADF, SYS_dup, -1);
	C1("dup(closed fd)", -EBADF, SYS_dup, closed_fd);
	C2("dup2(-1, 20)", -EBADF, SYS_dup2, -1, 20);
	C2("dup2(file, -1)", -EBADF, SYS_dup2, file_fd, -1);
	C2("dup2(file, 1000000)", -EBADF, SYS_dup2, file_fd, 1000000);
	C2("dup2(file, file)", file_fd, SYS_dup2, file_fd, file_fd);
	C2("dup2(closed fd, closed fd)", -EBADF, SYS_dup2, closed_fd, closed_fd);
	C3("dup3(file, file, 0)", -EINVAL, SYS_dup3, file_fd, file_fd, 0);
	C3("dup3(file, 20, bad flags)", -EINVAL, SYS_dup3, file_fd, 20, 0x1234);
	C3("dup3(-1, 20, 0)", -EBADF, SYS_dup3, -1, 20, 0);

	syscall_begin("fcntl");
	C3("fcntl(-1, F_GETFD)", -EBADF, SYS_fcntl, -1, F_GETFD, 0);
	C3("fcntl(file, cmd 9999)", -EINVAL, SYS_fcntl, file_fd, 9999, 0);
	C3("fcntl(file, F_DUPFD, -1)", -EINVAL, SYS_fcntl, file_fd, F_DUPFD, -1);
	C3("fcntl(file, F_DUPFD, 1000000)", -EINVAL, SYS_fcntl, file_fd, F_DUPFD, 1000000);
	C3("fcntl(file, F_GETFD)", 0, SYS_fcntl, file_fd, F_GETFD, 0);

	syscall_begin("pipe/pipe2");
	C1("pipe(NULL)", -EFAULT, SYS_pipe, NULL);
	C1("pipe(kernel address)", -EFAULT, SYS_pipe, KERN);
	C1("pipe(read-only page)", -EFAULT, SYS_pipe, ro);
	C1("pipe(partially mapped: 4 of 8 bytes)", -EFAULT, SYS_pipe, hole + PG - 4);
	C2("pipe2(buf, bad flags)", -EINVAL, SYS_pipe2, buf, 0x1234);
	C2("pipe2(NULL, 0)", -EFAULT, SYS_pipe2, NULL, 0);
	int nb[2] = { -1, -1 };

	C2("pipe2(fds, O_NONBLOCK | O_CLOEXEC)", 0, SYS_pipe2, nb, O_NONBLOCK | O_CLOEXEC);
	C3("read(empty O_NONBLOCK pipe, buf, 16)", -EAGAIN, SYS_read, nb[0], buf, 16);
	C3("fcntl(pipe, F_GETFL) shows O_NONBLOCK", O_NONBLOCK, SYS_fcntl, nb[0], F_GETFL, 0);
	close(nb[0]);
	close(nb[1]);
	C3("fcntl(pipe, F_SETFL, O_NONBLOCK)", 0, SYS_fcntl, pipe_r, F_SETFL, O_NONBLOCK);
	C3("read(empty pipe made O_NONBLOCK, buf, 16)", -EAGAIN, SYS_read, pipe_r, buf, 16);
	C3("fcntl(pipe, F_SETFL, 0)", 0, SYS_fcntl, pipe_r, F_SETFL, 0);

	syscall_begin("getdents64");
	C3("getdents64(-1, buf, 4096)", -EBADF, SYS_getdents64, -1, buf, 4096);
	C3("getdents64(file, buf, 4096)", -ENOTDIR, SYS_getdents64, file_fd, buf, 4096);
	C3("getdents64(dir, NULL, 4096)", -EFAULT, SYS_getdents64, dir_fd, NULL, 4096);
	C3("getdents64(dir, read-only page, 4096)", -EFAULT, SYS_getdents64, dir_fd, ro, 4096);
	C3("getdents64(dir, buf, 1)", -EINVAL, SYS_getdents64, dir_fd, buf, 1);
}

/*
 * "/proc" in the last five bytes before the hole, with no NUL.  Earlier
 * cases leave partial copies there (Linux's copy_to_user writes what fits
 * before the fault), so it is written afresh before each use.
 */
static char *unterminated_proc(void)
{
	memcpy(partpath, "/proc", 5);
	return partpath;
}

/* Path names: bad pointers, unterminated and over-long strings, wrong types. */
static void path_cases(void)
{
	char *argv_kern[] = { (char *)KERN, NULL };

	syscall_begin("open/openat");
	C3("open(NULL, O_RDONLY)", -EFAULT, SYS_open, NULL, O_RDONLY, 0);
	C3("open(kernel address, O_RDONLY)", -EFAULT, SYS_open, KERN, O_RDONLY, 0);
	C3("open(non-canonical, O_RDONLY)", -EFAULT, SYS_open, NONCANON, O_RDONLY, 0);
	C3("open(unmapped, O_RDONLY)", -EFAULT, SYS_open, unmapped, O_RDONLY, 0);
	C3("open(\"/proc\" running into a hole, O_RDONLY)", -EFAULT, SYS_open, unterminated_proc(), O_RDONLY, 0);
	C3("open(5000-byte name, O_RDONLY)", -ENAMETOOLONG, SYS_open, longpath, O_RDONLY, 0);
	C3("open(\"\", O_RDONLY)", -ENOENT, SYS_open, "", O_RDONLY, 0);
	C3("open(\"/nonexistent\", O_RDONLY)", -ENOENT, SYS_open, "/nonexistent", O_RDONLY, 0);
	C3("open(\"/proc/meminfo/x\", O_RDONLY)", -ENOTDIR, SYS_open, "/proc/meminfo/x", O_RDONLY, 0);
	C3("open(\"/proc/meminfo\", O_DIRECTORY)", -ENOTDIR, SYS_open, "/proc/meminfo", O_DIRECTORY, 0);
	C3("open(\"/proc\", O_WRONLY)", -EISDIR, SYS_open, "/proc", O_WRONLY, 0);
	C4("openat(-1, \"meminfo\", O_RDONLY)", -EBADF, SYS_openat, -1, "meminfo", O_RDONLY, 0);
	C4("openat(file, \"x\", O_RDONLY)", -ENOTDIR, SYS_openat, file_fd, "x", O_RDONLY, 0);
	C4("openat(-1, NULL, O_RDONLY)", -EFAULT, SYS_openat, -100, NULL, O_RDONLY, 0);

	syscall_begin("stat/newfstatat");
	C2("stat(NULL, buf)", -EFAULT, SYS_stat, NULL, buf);
	C2("stat(\"/proc\", NULL)", -EFAULT, SYS_stat, "/proc", NULL);
	C2("stat(\"/proc\", read-only page)", -EFAULT, SYS_stat, "/proc", ro);
	C2("stat(\"/proc\", kernel address)", -EFAULT, SYS_stat, "/proc", KERN);
	C2("stat(5000-byte name, buf)", -ENAMETOOLONG, SYS_stat, longpath, buf);
	C2("stat(\"/nonexistent\", buf)", -ENOENT, SYS_stat, "/nonexistent", buf);
	C4("newfstatat(AT_FDCWD, \"/proc\", buf, bad flags)", -EINVAL, SYS_newfstatat, -100, "/proc",
	   buf, 0x12345);
	C4("newfstatat(-1, \"proc\", buf, 0)", -EBADF, SYS_newfstatat, -1, "proc", buf, 0);
	C4("newfstatat(-1, \"/proc\", buf, 0)", 0, SYS_newfstatat, -1, "/proc", buf, 0);
	C4("newfstatat(file, \"\", buf, 0)", -ENOENT, SYS_newfstatat, file_fd, "", buf, 0);
	C4("newfstatat(AT_FDCWD, unmapped, buf, 0)", -EFAULT, SYS_newfstatat, -100, unmapped, buf, 0);

	syscall_begin("access/faccessat");
	C2("access(NULL, R_OK)", -EFAULT, SYS_access, NULL, R_OK);
	C2("access(\"/proc\", mode 0x80)", -EINVAL, SYS_access, "/proc", 0x80);
	C2("access(\"/nonexistent\", F_OK)", -ENOENT, SYS_access, "/nonexistent", F_OK);
	C2("access(\"/proc\" running into a hole, F_OK)", -EFAULT, SYS_access, unterminated_proc(), F_OK);
	C3("faccessat(-1, \"proc\", F_OK)", -EBADF, SYS_faccessat, -1, "proc", F_OK);
	C3("faccessat(-1, \"/proc\", F_OK)", 0, SYS_faccessat, -1, "/proc", F_OK);
	C3("faccessat(AT_FDCWD, kernel address, F_OK)", -EFAULT, SYS_faccessat, -100, KERN, F_OK);

	syscall_begin("execve");
	C3("execve(NULL, NULL, NULL)", -EFAULT, SYS_execve, NULL, NULL, NULL);
	C3("execve(kernel address, NULL, NULL)", -EFAULT, SYS_execve, KERN, NULL, NULL);
	C3("execve(\"/nonexistent\", NULL, NULL)", -ENOENT, SYS_execve, "/nonexistent", NULL, NULL);
	C3("execve(\"/proc\", NULL, NULL)", -EACCES, SYS_execve, "/proc", NULL, NULL);
	C3("execve(\"/proc/meminfo\", NULL, NULL)", -EACCES, SYS_execve, "/proc/meminfo", NULL, NULL);
	C3("execve(5000-byte name, NULL, NULL)", -ENAMETOOLONG, SYS_execve, longpath, NULL, NULL);

	syscall_begin("mount");
	C3("mount(\"proc\", kernel address, \"proc\")", -EFAULT, SYS_mount, "proc", KERN, "proc");
	C3("mount(\"proc\", \"/proc\", kernel address)", -EFAULT, SYS_mount, "proc", "/proc", KERN);
	C3("mount(\"x\", \"/proc\", \"nosuchfs\")", -ENODEV, SYS_mount, "x", "/proc", "nosuchfs");
	C3("mount(\"proc\", \"/nonexistent\", \"proc\")", -ENOENT, SYS_mount, "proc", "/nonexistent",
	   "proc");
	C3("execve(self, kernel address as argv, NULL)", -EFAULT, SYS_execve, self, KERN, NULL);
	C3("execve(self, {kernel address, NULL}, NULL)", -EFAULT, SYS_execve, self, argv_kern, NULL);
	C3("execve(self, argv, kernel address as envp)", -EFAULT, SYS_execve, self, self_argv, KERN);
}

/* Address-space calls: unaligned, wrapping, kernel and unmapped ranges, bad flags. */
static void mm_cases(void)
{
	const long anon = MAP_PRIVATE | MAP_ANONYMOUS, rw = PROT_READ | PROT_WRITE;
	char *top = (char *)0x7fffffffe000L;    /* the last user page: TASK_SIZE is 0x7ffffffff000 */

	syscall_begin("mmap");
	C6("mmap(NULL, 0, rw, anon)", -EINVAL, SYS_mmap, 0, 0, rw, anon, -1, 0);
	C6("mmap(NULL, -4096, rw, anon)", -ENOMEM, SYS_mmap, 0, -4096L, rw, anon, -1, 0);
	C6("mmap(NULL, 1 << 62, rw, anon)", -ENOMEM, SYS_mmap, 0, 1L << 62, rw, anon, -1, 0);
	C6("mmap(NULL, 4096, rw, MAP_ANONYMOUS only)", -EINVAL, SYS_mmap, 0, PG, rw, MAP_ANONYMOUS,
	   -1, 0);
	C6("mmap(buf + 1, 4096, rw, anon | MAP_FIXED)", -EINVAL, SYS_mmap, buf + 1, PG, rw,
	   anon | MAP_FIXED, -1, 0);
	C6("mmap(kernel address, 4096, rw, anon | MAP_FIXED)", -ENOMEM, SYS_mmap, KERN, PG, rw,
	   anon | MAP_FIXED, -1, 0);
	C6("mmap(last user page, 8192, rw, anon | MAP_FIXED)", -ENOMEM, SYS_mmap, top, 2 * PG, rw,
	   anon | MAP_FIXED, -1, 0);
	C6("mmap(NULL, 4096, rw, anon, fd -1, offset 1)", -EINVAL, SYS_mmap, 0, PG, rw, anon, -1, 1);
	C6("mmap(NULL, 4096, rw, MAP_PRIVATE, fd -1)", -EBADF, SYS_mmap, 0, PG, rw, MAP_PRIVATE, -1, 0);
	C6("mmap(NULL, 4096, rw, MAP_PRIVATE, pipe)", -ENODEV, SYS_mmap, 0, PG, rw, MAP_PRIVATE,
	   pipe_r, 0);
	C6("mmap(NULL, 4096, rw, anon | MAP_SHARED_VALIDATE | unknown flag)", -EINVAL, SYS_mmap,
	   0, PG, rw, MAP_ANONYMOUS | 0x03 | 0x1000000, -1, 0);

	syscall_begin("munmap");
	C2("munmap(buf + 1, 4096)", -EINVAL, SYS_munmap, buf + 1, PG);
	C2("munmap(hole, 0)", -EINVAL, SYS_munmap, hole, 0);
	C2("munmap(kernel address, 4096)", -EINVAL, SYS_munmap, KERN, PG);
	C2("munmap(non-canonical, 4096)", -EINVAL, SYS_munmap, NONCANON, PG);
	C2("munmap(hole, -4096) (wraps)", -EINVAL, SYS_munmap, hole, -4096L);
	C2("munmap(last user page, 8192) (past TASK_SIZE)", -EINVAL, SYS_munmap, top, 2 * PG);
	C2("munmap(unmapped, 4096)", 0, SYS_munmap, unmapped, PG);

	syscall_begin("mprotect");
	C3("mprotect(hole + 1, 4096, PROT_READ)", -EINVAL, SYS_mprotect, hole + 1, PG, PROT_READ);
	C3("mprotect(hole, 4096, prot 0x100)", -EINVAL, SYS_mprotect, hole, PG, 0x100);
	C3("mprotect(hole, 4096, GROWSDOWN | GROWSUP)", -EINVAL, SYS_mprotect, hole, PG,
	   PROT_READ | 0x01000000 | 0x02000000);
	C3("mprotect(unmapped, 4096, PROT_READ)", -ENOMEM, SYS_mprotect, unmapped, PG, PROT_READ);
	C3("mprotect(hole, 8192 (into the hole), rw)", -ENOMEM, SYS_mprotect, hole, 2 * PG, rw);
	C3("mprotect(kernel address, 4096, PROT_READ)", -ENOMEM, SYS_mprotect, KERN, PG, PROT_READ);
	C3("mprotect(hole, -4096, PROT_READ) (wraps)", -ENOMEM, SYS_mprotect, hole, -4096L, PROT_READ);
	C3("mprotect(hole, 0, PROT_NONE)", 0, SYS_mprotect, hole, 0, PROT_NONE);

	syscall_begin("madvise");
	C3("madvise(hole + 1, 4096, MADV_DONTNEED)", -EINVAL, SYS_madvise, hole + 1, PG, MADV_DONTNEED);
	C3("madvise(hole, 4096, advice 12345)", -EINVAL, SYS_madvise, hole, PG, 12345);
	C3("madvise(unmapped, 4096, MADV_DONTNEED)", -ENOMEM, SYS_madvise, unmapped, PG, MADV_DONTNEED);
	C3("madvise(unmapped, 4096, MADV_HUGEPAGE)", -ENOMEM, SYS_madvise, unmapped, PG, MADV_HUGEPAGE);
	C3("madvise(hole, -4096, MADV_DONTNEED) (wraps)", -EINVAL, SYS_madvise, hole, -4096L,
	   MADV_DONTNEED);
	C3("madvise(kernel address, 4096, MADV_DONTNEED)", -ENOMEM, SYS_madvise, KERN, PG,
	   MADV_DONTNEED);
	C3("madvise(hole, 0, MADV_DONTNEED)", 0, SYS_madvise, hole, 0, MADV_DONTNEED);

	syscall_begin("brk");
	long cur = raw_syscall(SYS_brk, 0, 0, 0, 0, 0, 0);

	C1("brk(kernel address) leaves the break", cur, SYS_brk, KERN);
	C1("brk(non-canonical) leaves the break", cur, SYS_brk, NONCANON);
	C1("brk(1) leaves the break", cur, SYS_brk, 1);
	C1("brk(last user page) leaves the break", cur, SYS_brk, top);
}

/* Signal calls: bad numbers, sizes and pointers. */
static void signal_cases(void)
{
	struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; } act = { 0 };

	act.handler = (void *)1;                /* SIG_IGN */
	syscall_begin("rt_sigaction");
	C4("rt_sigaction(0, act, NULL, 8)", -EINVAL, SYS_rt_sigaction, 0, &act, NULL, 8);
	C4("rt_sigaction(65, act, NULL, 8)", -EINVAL, SYS_rt_sigaction, 65, &act, NULL, 8);
	C4("rt_sigaction(-1, act, NULL, 8)", -EINVAL, SYS_rt_sigaction, -1, &act, NULL, 8);
	C4("rt_sigaction(SIGKILL, SIG_IGN, NULL, 8)", -EINVAL, SYS_rt_sigaction, SIGKILL, &act, NULL, 8);
	C4("rt_sigaction(SIGSTOP, SIG_IGN, NULL, 8)", -EINVAL, SYS_rt_sigaction, SIGSTOP, &act, NULL, 8);
	C4("rt_sigaction(SIGUSR1, act, NULL, 4)", -EINVAL, SYS_rt_sigaction, SIGUSR1, &act, NULL, 4);
	C4("rt_sigaction(SIGUSR1, kernel address, NULL, 8)", -EFAULT, SYS_rt_sigaction, SIGUSR1, KERN,
	   NULL, 8);
	C4("rt_sigaction(SIGUSR1, partially mapped, NULL, 8)", -EFAULT, SYS_rt_sigaction, SIGUSR1,
	   partial, NULL, 8);
	C4("rt_sigaction(SIGUSR1, NULL, read-only page, 8)", -EFAULT, SYS_rt_sigaction, SIGUSR1, NULL,
	   ro, 8);
	C4("rt_sigaction(SIGKILL, NULL, buf, 8) (reading is allowed)", 0, SYS_rt_sigaction, SIGKILL,
	   NULL, buf, 8);

	syscall_begin("rt_sigprocmask");
	C4("rt_sigprocmask(how 7, set, NULL, 8)", -EINVAL, SYS_rt_sigprocmask, 7, buf + 4096, NULL, 8);
	C4("rt_sigprocmask(SIG_BLOCK, set, NULL, 4)", -EINVAL, SYS_rt_sigprocmask, SIG_BLOCK,
	   buf + 4096, NULL, 4);
	C4("rt_sigprocmask(SIG_BLOCK, kernel address, NULL, 8)", -EFAULT, SYS_rt_sigprocmask,
	   SIG_BLOCK, KERN, NULL, 8);
	C4("rt_sigprocmask(SIG_BLOCK, NULL, read-only page, 8)", -EFAULT, SYS_rt_sigprocmask,
	   SIG_BLOCK, NULL, ro, 8);
	C4("rt_sigprocmask(SIG_BLOCK, NULL, NULL, 8)", 0, SYS_rt_sigprocmask, SIG_BLOCK, NULL, NULL, 8);

	syscall_begin("kill");
	C2("kill(self, 65)", -EINVAL, SYS_kill, getpid(), 65);
	C2("kill(self, -1)", -EINVAL, SYS_kill, getpid(), -1);
	C2("kill(99999, 0)", -ESRCH, SYS_kill, 99999, 0);
	C2("kill(INT_MIN, 0)", -ESRCH, SYS_kill, 0x80000000L, 0);
	C2("kill(self, 0)", 0, SYS_kill, getpid(), 0);
}

/* Processes and time: wait4, nanosleep, identity calls given junk. */
static void process_cases(void)
{
	long bad_ts[2] = { 0, 1000000000 }, neg_ts[2] = { -1, 0 }, short_ts[2] = { 0, 1 };

	syscall_begin("wait4");
	C4("wait4(-1, buf, 0, NULL) with no children", -ECHILD, SYS_wait4, -1, buf, 0, NULL);
	C4("wait4(-1, buf, bad options, NULL)", -EINVAL, SYS_wait4, -1, buf, 0x12345678, NULL);
	C4("wait4(INT_MIN, buf, 0, NULL)", -ESRCH, SYS_wait4, 0x80000000L, buf, 0, NULL);
	long pid = fork();

	if (!pid)
		_exit(3);
	C4("wait4(child, read-only page, 0, NULL) reaps and faults", -EFAULT, SYS_wait4, pid, ro, 0,
	   NULL);
	C4("wait4(child, buf, 0, NULL) again: it was reaped", -ECHILD, SYS_wait4, pid, buf, 0, NULL);

	syscall_begin("nanosleep");
	C2("nanosleep(NULL, NULL)", -EFAULT, SYS_nanosleep, NULL, NULL);
	C2("nanosleep(kernel address, NULL)", -EFAULT, SYS_nanosleep, KERN, NULL);
	C2("nanosleep({0, 1e9}, NULL)", -EINVAL, SYS_nanosleep, bad_ts, NULL);
	C2("nanosleep({-1, 0}, NULL)", -EINVAL, SYS_nanosleep, neg_ts, NULL);
	C2("nanosleep({0, 1}, read-only page)", 0, SYS_nanosleep, short_ts, ro);

	syscall_begin("clock_gettime");
	C2("clock_gettime(999, buf)", -EINVAL, SYS_clock_gettime, 999, buf);
	C2("clock_gettime(-1, buf)", -EINVAL, SYS_clock_gettime, -1, buf);
	C2("clock_gettime(CLOCK_MONOTONIC, NULL)", -EFAULT, SYS_clock_gettime, 1, NULL);
	C2("clock_gettime(CLOCK_MONOTONIC, read-only page)", -EFAULT, SYS_clock_gettime, 1, ro);
	C2("clock_gettime(CLOCK_MONOTONIC, partially mapped)", -EFAULT, SYS_clock_gettime, 1,
	   hole + PG - 4);

	syscall_begin("identity calls ignore junk arguments");
	C6("getpid(junk)", getpid(), SYS_getpid, KERN, -1, NONCANON, 1, 2, 3);
	C6("getppid(junk)", getppid(), SYS_getppid, KERN, -1, NONCANON, 1, 2, 3);
	C6("getuid(junk)", getuid(), SYS_getuid, KERN, -1, NONCANON, 1, 2, 3);
	C6("gettid(junk)", getpid(), SYS_gettid, KERN, -1, NONCANON, 1, 2, 3);
	C6("sched_yield(junk)", 0, SYS_sched_yield, KERN, -1, NONCANON, 1, 2, 3);
}

/* The rest: uname, arch_prctl, reboot, prlimit64, getrandom, unknown numbers. */
static void misc_cases(void)
{
	syscall_begin("uname");
	C1("uname(NULL)", -EFAULT, SYS_uname, NULL);
	C1("uname(read-only page)", -EFAULT, SYS_uname, ro);
	C1("uname(partially mapped)", -EFAULT, SYS_uname, partial);

	syscall_begin("arch_prctl");
	C2("arch_prctl(0x9999, 0)", -EINVAL, SYS_arch_prctl, 0x9999, 0);
	C2("arch_prctl(ARCH_SET_FS, kernel address)", -EPERM, SYS_arch_prctl, 0x1002, KERN);
	C2("arch_prctl(ARCH_SET_GS, non-canonical)", -EPERM, SYS_arch_prctl, 0x1001, NONCANON);
	C2("arch_prctl(ARCH_GET_FS, NULL)", -EFAULT, SYS_arch_prctl, 0x1003, NULL);
	C2("arch_prctl(ARCH_GET_FS, read-only page)", -EFAULT, SYS_arch_prctl, 0x1003, ro);
	unsigned long gs = 1;

	C2("arch_prctl(ARCH_SET_GS, buf)", 0, SYS_arch_prctl, 0x1001, buf);
	C2("arch_prctl(ARCH_GET_GS, &gs)", 0, SYS_arch_prctl, 0x1004, &gs);
	ok_status("ARCH_GET_GS gives back what ARCH_SET_GS set", gs == (unsigned long)buf, 1);
	C2("arch_prctl(ARCH_SET_GS, 0)", 0, SYS_arch_prctl, 0x1001, 0);

	syscall_begin("reboot");
	C4("reboot(bad magic, ..., POWER_OFF)", -EINVAL, SYS_reboot, 0x1234, 0x28121969, 0x4321fedc,
	   NULL);
	C4("reboot(magic, bad magic2, POWER_OFF)", -EINVAL, SYS_reboot, 0xfee1dead, 0x1234,
	   0x4321fedc, NULL);
	C4("reboot(magic, magic2, bad command)", -EINVAL, SYS_reboot, 0xfee1dead, 0x28121969,
	   0x12345678, NULL);

	syscall_begin("prlimit64");
	C4("prlimit64(0, resource 999, NULL, buf)", -EINVAL, SYS_prlimit64, 0, 999, NULL, buf);
	C4("prlimit64(99999, RLIMIT_NOFILE, NULL, buf)", -ESRCH, SYS_prlimit64, 99999, 7, NULL, buf);
	C4("prlimit64(0, RLIMIT_NOFILE, NULL, kernel address)", -EFAULT, SYS_prlimit64, 0, 7, NULL,
	   KERN);
	C4("prlimit64(0, RLIMIT_NOFILE, kernel address, NULL)", -EFAULT, SYS_prlimit64, 0, 7, KERN,
	   NULL);

	syscall_begin("getrandom");
	C3("getrandom(buf, 16, bad flags)", -EINVAL, SYS_getrandom, buf, 16, 0x100);
	C3("getrandom(NULL, 16, 0)", -EFAULT, SYS_getrandom, NULL, 16, 0);
	C3("getrandom(read-only page, 16, 0)", -EFAULT, SYS_getrandom, ro, 16, 0);
	C3("getrandom(buf, 0, 0)", 0, SYS_getrandom, buf, 0, 0);

	syscall_begin("unknown system call numbers");
	C0("syscall 9999", -ENOSYS, 9999);
	C0("syscall -1", -ENOSYS, -1);
	C0("syscall 1 << 32 | 39: the high half is ignored, as Linux does: getpid", getpid(),
	   (1L << 32) | 39);
}

/* A child's exit status as a shell shows it. */
static long status_of_child(long pid)
{
	int status;

	if (pid <= 0 || waitpid(pid, &status, 0) != pid)       /* a failed fork: not "any child" */
		return -1;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* Calls that end the process or arm something for its end: run in children. */
static void exit_cases(void)
{
	long pid;

	syscall_begin("set_tid_address/exit_group");
	pid = fork();
	if (!pid)       /* Linux ignores a failed clear_child_tid write at exit */
		_exit(raw_syscall(SYS_set_tid_address, KERN, 0, 0, 0, 0, 0) == getpid() ? 7 : 1);
	ok_status("set_tid_address(kernel address), then exit: status 7", status_of_child(pid), 7);
	pid = fork();
	if (!pid)
		raw_syscall(SYS_exit_group, 0x12345, 0, 0, 0, 0, 0);
	ok_status("exit_group(0x12345): status 0x45", status_of_child(pid), 0x45);
	pid = fork();
	if (!pid)
		raw_syscall(SYS_exit, -1, 0, 0, 0, 0, 0);
	ok_status("exit(-1): status 255", status_of_child(pid), 255);
}

int main(int argc, char **argv)
{
	if (argc < 1 || !argv[0])       /* an execve case wrongly succeeded */
		return 99;
	self = argv[0];
	self_argv = argv;
	if (access("/proc/meminfo", R_OK)) {    /* Linux's init: mount them ourselves */
		mount("proc", "/proc", "proc", 0, NULL);
		mount("sysfs", "/sys", "sysfs", 0, NULL);
	}
	setup();
	signal(SIGPIPE, SIG_IGN);
	fd_cases();
	path_cases();
	mm_cases();
	signal_cases();
	process_cases();
	misc_cases();
	exit_cases();
	syscall_begin(NULL);
	printf("# hostile calls: %d cases, %d give Linux's result; %d of %d system calls match "
	       "on every case\n", n, n - failed, nr_calls - calls_failed, nr_calls);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
