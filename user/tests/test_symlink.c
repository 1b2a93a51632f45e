/*
 * Guest test (TAP): symbolic links as Linux has them.  symlink/readlink
 * (their errors: EEXIST, ENOENT, EINVAL, truncation without a NUL),
 * lstat against stat, links followed in the middle of a path and at its
 * end, ".." after a link is the target's parent, dangling links (O_CREAT
 * makes the target, O_EXCL does not follow), MAXSYMLINKS (40) and loops
 * (ELOOP), O_NOFOLLOW, AT_SYMLINK_NOFOLLOW, a trailing '/', linkat with
 * and without AT_SYMLINK_FOLLOW, unlink and rename of a link, d_type
 * DT_LNK, chdir through a link (getcwd is the physical path), links in
 * the initrd, /proc/self and /proc/thread-self, "" with AT_EMPTY_PATH
 * (readlinkat, linkat), access X_OK as root, and a process's links:
 * /proc/<pid>/exe, cwd, root and fd/N (files, "(deleted)", pipes); links
 * that lead into a tmpfs mounted below them, and out of it;
 * /proc/<pid>/fdinfo/N (pos, flags with O_CLOEXEC and O_LARGEFILE, ino).
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define D       "/tmp/sl"

/* errno of a call that must fail, 0 if it succeeded. */
static int fails(long ret)
{
	return ret < 0 ? errno : 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int good = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);

	if (fd >= 0)
		close(fd);
	return good ? 0 : -1;
}

/* The first n bytes of path, NUL-terminated, or "" if it cannot be read. */
static const char *read_file(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	ssize_t got = fd < 0 ? -1 : read(fd, buf, n - 1);

	if (fd >= 0)
		close(fd);
	buf[got > 0 ? got : 0] = '\0';
	return buf;
}

static ino_t ino_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

static void test_basics(void)
{
	char buf[64];
	struct stat st, lst;

	memset(buf, 'x', sizeof(buf));
	ok(symlink("target", D "/l") == 0 && readlink(D "/l", buf, sizeof(buf)) == 6 &&
	   !memcmp(buf, "target", 6) && buf[6] == 'x',
	   "symlink, then readlink gives the text, its length, no NUL");
	ok(readlink(D "/l", buf, 3) == 3 && !memcmp(buf, "tar", 3),
	   "readlink into 3 bytes: the first 3, length 3");
	ok(fails(syscall(SYS_readlink, D "/l", buf, 0)) == EINVAL,
	   "readlink with bufsiz 0: EINVAL (the system call: musl passes a 1-byte buffer)");
	ok(lstat(D "/l", &lst) == 0 && S_ISLNK(lst.st_mode) && (lst.st_mode & 07777) == 0777 &&
	   lst.st_size == 6 && lst.st_nlink == 1,
	   "lstat: S_IFLNK 0777, st_size the text's length (mode %o size %ld)", lst.st_mode,
	   (long)lst.st_size);
	ok(write_file(D "/f", "hello") == 0 && fails(readlink(D "/f", buf, sizeof(buf))) == EINVAL,
	   "readlink of a regular file: EINVAL");
	ok(fails(symlink("x", D "/l")) == EEXIST && fails(symlink("x", D "/f")) == EEXIST,
	   "symlink onto an existing name: EEXIST");
	ok(fails(symlink("", D "/empty")) == ENOENT, "symlink with an empty target: ENOENT");
	ok(fails(symlink("x", D "/nodir/l")) == ENOENT, "symlink in a missing directory: ENOENT");
	ok(symlink("f", D "/lf") == 0 && !strcmp(read_file(D "/lf", buf, sizeof(buf)), "hello") &&
	   stat(D "/lf", &st) == 0 && S_ISREG(st.st_mode) && st.st_ino == ino_of(D "/f"),
	   "open and stat through a relative link reach the target");
}

static void test_walk(void)
{
	char buf[64];
	struct stat st;

	mkdir(D "/d", 0755);
	mkdir(D "/d/sub", 0755);
	write_file(D "/d/g", "in d");
	ok(symlink(D "/d", D "/ld") == 0 && !strcmp(read_file(D "/ld/g", buf, sizeof(buf)), "in d"),
	   "a link to a directory in the middle of a path is followed");
	ok(symlink("d/sub", D "/ls") == 0 && ino_of(D "/ls/..") == ino_of(D "/d") &&
	   ino_of(D "/ls/../g") == ino_of(D "/d/g"),
	   "\"..\" after a link is the target's parent, not the link's");
	ok(lstat(D "/ld/", &st) == 0 && S_ISDIR(st.st_mode),
	   "lstat of a link with a trailing '/' follows it");
	ok(fails(lstat(D "/lf/", &st)) == ENOTDIR, "a link to a file with a trailing '/': ENOTDIR");
	ok(fstatat(AT_FDCWD, D "/ld", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
	   fstatat(AT_FDCWD, D "/ld", &st, 0) == 0 && S_ISDIR(st.st_mode),
	   "fstatat: AT_SYMLINK_NOFOLLOW sees the link, 0 the directory");
	ok(symlink("../g", D "/d/sub/up") == 0 &&
	   !strcmp(read_file(D "/ld/sub/up", buf, sizeof(buf)), "in d"),
	   "a relative link with \"..\" resolves from the link's directory");
}

static void test_dangling(void)
{
	char buf[64];
	struct stat st;
	int fd;

	ok(symlink("made", D "/dang") == 0 && fails(stat(D "/dang", &st)) == ENOENT &&
	   lstat(D "/dang", &st) == 0,
	   "a dangling link: stat ENOENT, lstat finds the link");
	ok(fails(syscall(SYS_faccessat2, AT_FDCWD, D "/dang", F_OK, 0)) == ENOENT &&
	   !syscall(SYS_faccessat2, AT_FDCWD, D "/dang", F_OK, AT_SYMLINK_NOFOLLOW) &&
	   fails(syscall(SYS_faccessat2, AT_FDCWD, D "/dang", F_OK, 0x8000)) == EINVAL,
	   "faccessat2: ENOENT through it, the link itself with AT_SYMLINK_NOFOLLOW, EINVAL for a bad flag");
	ok(fails(open(D "/dang", O_WRONLY | O_CREAT | O_EXCL, 0644)) == EEXIST,
	   "O_CREAT|O_EXCL on a dangling link: EEXIST, nothing made");
	fd = open(D "/dang", O_WRONLY | O_CREAT, 0644);
	ok(fd >= 0 && write(fd, "new", 3) == 3 && !close(fd) &&
	   !strcmp(read_file(D "/made", buf, sizeof(buf)), "new"),
	   "O_CREAT through a dangling link makes its target");
	ok(fails(mkdir(D "/dang", 0755)) == EEXIST, "mkdir on a link: EEXIST");
}

/*
 * "" with AT_EMPTY_PATH or readlinkat's own: the dirfd's file (EBADF for
 * a bad one); readlinkat of a file that is not a link: ENOENT for "",
 * EINVAL by name.  access X_OK as root: a file needs an execute bit.
 */
static void test_empty_path(void)
{
	char buf[16];
	struct stat st;
	int fd;

	write_file(D "/ef", "x");
	chmod(D "/ef", 0644);
	fd = open(D "/ef", O_RDONLY);
	ok(fails(syscall(SYS_readlinkat, 999, "", buf, sizeof(buf))) == EBADF &&
	   fails(syscall(SYS_readlinkat, fd, "", buf, sizeof(buf))) == ENOENT &&
	   fails(syscall(SYS_readlinkat, AT_FDCWD, "", buf, sizeof(buf))) == ENOENT &&
	   fails(readlink(D "/ef", buf, sizeof(buf))) == EINVAL,
	   "readlinkat(fd, \"\"): EBADF for a bad fd, ENOENT for a file; by name EINVAL");
	ok(linkat(fd, "", AT_FDCWD, D "/ef2", AT_EMPTY_PATH) == 0 &&
	   stat(D "/ef", &st) == 0 && st.st_nlink == 2 &&
	   fails(linkat(999, "", AT_FDCWD, D "/ef3", AT_EMPTY_PATH)) == EBADF &&
	   fails(linkat(fd, "", AT_FDCWD, D "/ef3", 0)) == ENOENT,
	   "linkat(fd, \"\", AT_EMPTY_PATH) links the open file; EBADF for a bad fd; ENOENT without the flag");
	close(fd);
	ok(fails(access(D "/ef", X_OK)) == EACCES && fails(access(D "/ef", R_OK | X_OK)) == EACCES &&
	   access(D "/ef", R_OK | W_OK) == 0 && chmod(D "/ef", 0001) == 0 &&
	   access(D "/ef", X_OK) == 0 && chmod(D, 0) == 0 && access(D, X_OK) == 0 &&
	   chmod(D, 0755) == 0,
	   "access X_OK as root: a file without an execute bit EACCES, with one 0; a directory 0");
	unlink(D "/ef");
	unlink(D "/ef2");
}

/*
 * A link whose walk goes on into a directory another tmpfs is mounted on
 * finds the mounted tree, not the directory under it — relative and
 * absolute targets, a link inside the mount that leads out of it, a
 * missing name below it — and after umount the directory again.
 */
static void test_mounts(void)
{
	char buf[32];
	struct stat st;

	mkdir(D "/m", 0755);
	write_file(D "/m/x", "under");
	if (mount("tmpfs", D "/m", "tmpfs", 0, NULL)) {
		ok(0, "mount tmpfs on " D "/m (errno %d)", errno);
		return;
	}
	ok(write_file(D "/m/x", "above") == 0 && symlink("m/x", D "/lmx") == 0 &&
	   !strcmp(read_file(D "/lmx", buf, sizeof(buf)), "above"),
	   "a relative link into a mount reads the mounted file");
	ok(symlink("m", D "/lm") == 0 && !strcmp(read_file(D "/lm/x", buf, sizeof(buf)), "above") &&
	   symlink(D "/m", D "/am") == 0 && !strcmp(read_file(D "/am/x", buf, sizeof(buf)), "above"),
	   "a link to the mount point, relative and absolute, leads into the mount");
	ok(symlink("../lmx", D "/m/out") == 0 && !strcmp(read_file(D "/m/out", buf, sizeof(buf)), "above") &&
	   symlink("..", D "/m/up") == 0 && stat(D "/m/up/lm/up/m", &st) == 0 && S_ISDIR(st.st_mode),
	   "links in the mount lead out of it and back");
	ok(fails(stat(D "/lm/nothing", &st)) == ENOENT && fails(stat(D "/lmx/y", &st)) == ENOTDIR,
	   "below a link into the mount: ENOENT, ENOTDIR");
	ok(rename(D "/m", D "/m") == 0 && syscall(SYS_renameat2, AT_FDCWD, D "/m", AT_FDCWD, D "/m", 2) == 0 &&
	   fails(rename(D "/m", D "/m2")) == EBUSY, "a mount point renamed onto itself: 0; elsewhere EBUSY");
	unlink(D "/m/out");
	unlink(D "/m/up");
	ok(umount(D "/m") == 0 && !strcmp(read_file(D "/lmx", buf, sizeof(buf)), "under") &&
	   !strcmp(read_file(D "/am/x", buf, sizeof(buf)), "under"),
	   "after umount the links find the directory under it");
}

/* The value of "key:\t" in text, in base, or -1 if it is not there. */
static long long field(const char *text, const char *key, int base)
{
	const char *p = strstr(text, key);

	return p ? strtoll(p + strlen(key) + 2, NULL, base) : -1;
}

static void test_fdinfo(void)
{
	char path[64], buf[256];
	struct stat st;
	int fd = open(D "/info", O_CREAT | O_RDWR | O_APPEND | O_CLOEXEC, 0644);

	ok(fd >= 0 && write(fd, "abcdef", 6) == 6 && lseek(fd, 3, SEEK_SET) == 3 && !fstat(fd, &st),
	   "a file to look at");
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	read_file(path, buf, sizeof(buf));
	ok(field(buf, "pos", 10) == 3 && field(buf, "flags", 8) == (O_RDWR | O_APPEND | O_CLOEXEC | 0100000) &&
	   field(buf, "ino", 10) == (long long)st.st_ino && field(buf, "mnt_id", 10) > 0,
	   "fdinfo: pos, flags (O_CLOEXEC from the fd, O_LARGEFILE as 64-bit Linux adds), mnt_id, ino");
	ok((fcntl(fd, F_GETFL) & 0100000) && fails(open("/proc/self/fdinfo/999", O_RDONLY)) == ENOENT,
	   "F_GETFL shows O_LARGEFILE; an fd not open has no fdinfo (ENOENT)");
	close(fd);
	unlink(D "/info");
}

static void test_loops(void)
{
	char a[64], b[64];
	struct stat st;
	int i;

	ok(symlink("loop2", D "/loop1") == 0 && symlink("loop1", D "/loop2") == 0 &&
	   fails(stat(D "/loop1", &st)) == ELOOP && fails(open(D "/loop1/x", O_RDONLY)) == ELOOP,
	   "two links naming each other: ELOOP");
	snprintf(a, sizeof(a), D "/c0");
	symlink("f", a);
	for (i = 1; i <= 40; i++) {
		snprintf(a, sizeof(a), D "/c%d", i);
		snprintf(b, sizeof(b), "c%d", i - 1);
		symlink(b, a);
	}
	ok(stat(D "/c39", &st) == 0 && S_ISREG(st.st_mode),
	   "a chain of 40 links resolves");
	ok(fails(stat(D "/c40", &st)) == ELOOP, "a chain of 41 links: ELOOP");
	ok(fails(open(D "/lf", O_RDONLY | O_NOFOLLOW)) == ELOOP,
	   "O_NOFOLLOW on a link: ELOOP");
	i = open(D "/ld/g", O_RDONLY | O_NOFOLLOW);
	ok(i >= 0, "O_NOFOLLOW follows a link before the last component");
	close(i);
}

static void test_names(void)
{
	struct stat st;
	struct dirent *e;
	DIR *dir;
	char cwd[256];
	int lnk = -1, reg = -1;

	ok(link(D "/lf", D "/hard") == 0 && lstat(D "/hard", &st) == 0 && S_ISLNK(st.st_mode) &&
	   st.st_nlink == 2,
	   "link without AT_SYMLINK_FOLLOW links the link itself");
	ok(linkat(AT_FDCWD, D "/lf", AT_FDCWD, D "/hard2", AT_SYMLINK_FOLLOW) == 0 &&
	   lstat(D "/hard2", &st) == 0 && S_ISREG(st.st_mode) && st.st_ino == ino_of(D "/f"),
	   "linkat with AT_SYMLINK_FOLLOW links the target");
	ok(rename(D "/lf", D "/lf2") == 0 && ino_of(D "/lf2") == ino_of(D "/f") &&
	   unlink(D "/lf2") == 0 && ino_of(D "/f") != 0 && fails(lstat(D "/lf2", &st)) == ENOENT,
	   "rename moves a link, unlink removes it and not its target");
	dir = opendir(D);
	while (dir && (e = readdir(dir))) {
		if (!strcmp(e->d_name, "l"))
			lnk = e->d_type;
		if (!strcmp(e->d_name, "f"))
			reg = e->d_type;
	}
	if (dir)
		closedir(dir);
	ok(lnk == DT_LNK && reg == DT_REG, "getdents: d_type DT_LNK for a link (%d), DT_REG (%d)",
	   lnk, reg);
	ok(chdir(D "/ld/sub") == 0 && getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, D "/d/sub") &&
	   chdir("..") == 0 && getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, D "/d"),
	   "chdir through a link: getcwd is the physical path, \"..\" its parent (%s)", cwd);
	chdir("/");
}

/* Remove path and, for a directory, everything below it (links themselves, never what they name). */
static void remove_tree(const char *path)
{
	char sub[512];
	struct dirent *e;
	struct stat st;
	DIR *dir;

	if (lstat(path, &st) || !S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	dir = opendir(path);
	while (dir && (e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
			remove_tree(sub);
		}
	if (dir)
		closedir(dir);
	rmdir(path);
}

static void test_proc(void)
{
	char buf[64], want[64];
	struct stat st;

	snprintf(want, sizeof(want), "%d", getpid());
	memset(buf, 0, sizeof(buf));
	ok(readlink("/proc/self", buf, sizeof(buf)) == (ssize_t)strlen(want) && !strcmp(buf, want) &&
	   lstat("/proc/self", &st) == 0 && S_ISLNK(st.st_mode) &&
	   stat("/proc/self", &st) == 0 && S_ISDIR(st.st_mode),
	   "/proc/self is a link to the caller's pid (%s)", buf);
	snprintf(want, sizeof(want), "%d/task/%ld", getpid(), (long)syscall(SYS_gettid));
	memset(buf, 0, sizeof(buf));
	ok(readlink("/proc/thread-self", buf, sizeof(buf)) == (ssize_t)strlen(want) &&
	   !strcmp(buf, want) && stat("/proc/thread-self/status", &st) == 0,
	   "/proc/thread-self is a link to <pid>/task/<tid> (%s)", buf);
	ok(stat("/proc/self/status", &st) == 0 && S_ISREG(st.st_mode),
	   "/proc/self/status is reached through the link");
}

/* readlink of path into buf (size bytes), NUL-terminated; "" on failure. */
static const char *link_of(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Is fd listed in /proc/self/fd? */
static bool fd_listed(int fd)
{
	char want[16];
	struct dirent *e;
	bool found = false;
	DIR *dir = opendir("/proc/self/fd");

	snprintf(want, sizeof(want), "%d", fd);
	while (dir && (e = readdir(dir)))
		found |= !strcmp(e->d_name, want) && e->d_type == DT_LNK;
	if (dir)
		closedir(dir);
	return found;
}

static void test_proc_links(void)
{
	char buf[256], path[64];
	struct stat a, b;
	int fd, p[2];

	ok(stat("/proc/self/exe", &a) == 0 && stat(link_of("/proc/self/exe", buf, sizeof(buf)), &b) == 0 &&
	   a.st_ino == b.st_ino && a.st_dev == b.st_dev,
	   "/proc/self/exe names this program's file (%s)", buf);
	chdir(D "/d");
	ok(!strcmp(link_of("/proc/self/cwd", buf, sizeof(buf)), D "/d"),
	   "/proc/self/cwd is the working directory (%s)", buf);
	chdir("/");
	ok(!strcmp(link_of("/proc/self/root", buf, sizeof(buf)), "/"), "/proc/self/root is /");
	write_file(D "/once", "x");
	fd = open(D "/once", O_RDONLY);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ok(!strcmp(link_of(path, buf, sizeof(buf)), D "/once") && fd_listed(fd),
	   "/proc/self/fd/N names the open file, fd/ lists it (%s)", buf);
	unlink(D "/once");
	ok(!strcmp(link_of(path, buf, sizeof(buf)), D "/once (deleted)"),
	   "an unlinked file's link says \" (deleted)\" (%s)", buf);
	{
		int again = open(path, O_RDONLY);
		char c = 0;

		ok(again >= 0 && read(again, &c, 1) == 1 && c == 'x' && !fstat(again, &a) &&
		   !fstat(fd, &b) && a.st_ino == b.st_ino,
		   "open of the link reopens the deleted file (a magic link)");
		close(again);
		again = open(path, O_CREAT | O_WRONLY, 0644);
		ok(again >= 0 && !fstat(again, &a) && a.st_ino == b.st_ino &&
		   fails(access(D "/once (deleted)", F_OK)) == ENOENT,
		   "O_CREAT on it opens that file too, nothing is made");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", again);
		ok(!strcmp(link_of(path, buf, sizeof(buf)), D "/once (deleted)"),
		   "and the new fd has its name (%s)", buf);
		close(again);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	close(fd);
	ok(fails(lstat(path, &a)) == ENOENT, "a closed fd's link is gone");
	{
		int pidfd = syscall(SYS_pidfd_open, getpid(), 0);

		snprintf(path, sizeof(path), "/proc/self/fd/%d", pidfd);
		ok(pidfd >= 0 && fails(open(path, O_RDONLY)) == ENXIO, "a pidfd cannot be reopened: ENXIO");
		close(pidfd);
	}
	pipe(p);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	ok(!strncmp(link_of(path, buf, sizeof(buf)), "pipe:[", 6), "a pipe's link: pipe:[N] (%s)",
	   buf);
	{
		char w[64], c[3] = "";
		int r2, w2;

		snprintf(w, sizeof(w), "/proc/self/fd/%d", p[1]);
		symlink(path, D "/stdin-like");
		w2 = open(w, O_WRONLY);
		r2 = open(D "/stdin-like", O_RDONLY);           /* as /dev/stdin -> /proc/self/fd/0 */
		ok(w2 >= 0 && r2 >= 0 && write(w2, "hi", 2) == 2 && read(r2, c, 2) == 2 && !strcmp(c, "hi"),
		   "a pipe's ends open again through its links, also behind a link (no wait for a partner)");
		close(w2);
		close(r2);
		unlink(D "/stdin-like");
	}
	close(p[0]);
	close(p[1]);
}

/* In a child, chroot into D/jail: where absolute paths, ".." and links then lead; 0 if all held. */
static int jailed(void)
{
	char buf[256];
	struct stat root, up;

	if (chroot(D "/jail") || syscall(SYS_getcwd, buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "(unreachable)", 13))
		return 1;       /* the working directory stays, outside the new root */
	if (chdir("/") || !getcwd(buf, sizeof(buf)) || strcmp(buf, "/"))
		return 2;
	if (strcmp(read_file("/etc/x", buf, sizeof(buf)), "in"))
		return 3;
	if (stat("/", &root) || stat("/../..", &up) || root.st_ino != up.st_ino ||
	    strcmp(read_file("/../../etc/x", buf, sizeof(buf)), "in"))
		return 4;       /* ".." stops at the root */
	if (strcmp(read_file("/abs", buf, sizeof(buf)), "in") || chdir("/etc") ||
	    !getcwd(buf, sizeof(buf)) || strcmp(buf, "/etc"))
		return 5;       /* an absolute link's target starts at the root too */
	if (symlink("made", "/rel") || close(open("/rel", O_CREAT | O_WRONLY, 0644)) ||
	    stat("/made", &up))
		return 6;       /* O_CREAT through a relative link makes its target in the root */
	if (fails(mkdir("/", 0755)) != EEXIST || fails(rmdir("/")) != EBUSY)
		return 7;       /* "/" is the root, not a name in the directory above */
	return 0;
}

static void test_chroot(void)
{
	int status;

	mkdir(D "/jail", 0755);
	mkdir(D "/jail/etc", 0755);
	write_file(D "/jail/etc/x", "in");
	symlink("/etc/x", D "/jail/abs");
	status = exit_status_of(jailed);
	ok(!status, "chroot: absolute paths, \"..\" and links stay in the new root; getcwd from it (%d)",
	   status);
	ok(fails(chroot(D "/jail/etc/x")) == ENOTDIR && fails(chroot(D "/nothing")) == ENOENT,
	   "chroot of a file: ENOTDIR, of nothing: ENOENT");
}

int main(void)
{
	mount_proc_sys();
	mkdir("/tmp", 0777);
	mkdir(D, 0755);
	test_basics();
	test_walk();
	test_dangling();
	test_loops();
	test_empty_path();
	test_mounts();
	test_fdinfo();
	test_names();
	test_proc();
	test_proc_links();
	test_chroot();
	remove_tree(D);
	return tap_done();
}
