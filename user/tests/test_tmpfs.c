/*
 * Guest test (TAP): tmpfs with Linux's semantics and errnos — /tmp and
 * /dev/shm mounted from boot; create, open flags (O_CREAT|O_EXCL|O_TRUNC|
 * O_APPEND|O_TMPFILE), read/write/pread/pwrite/readv/writev (short at a
 * fault of the user's buffer), SEEK_DATA/
 * SEEK_HOLE, truncate, fallocate (reserve, KEEP_SIZE, punch hole), unlink
 * of an open file, rename/renameat2 (RENAME_NOREPLACE, RENAME_EXCHANGE),
 * mkdir/rmdir, link, getdents, chdir/
 * fchdir/getcwd, stat's
 * sizes and blocks, statfs; a mount with size= (ENOSPC) and huge= (a 2 MiB
 * file in one 2 MiB folio: st_blocks; a hole punched into it); the shell's
 * redirections and ls -l, cp, mkdir, rm, cat on /tmp.  Every file
 * is removed again: the runner's leak check covers the page cache.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "thp_util.h"

#define TMPFS_MAGIC     0x01021994
#define D               "/tmp/tt"       /* this test's directory */

static long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_blocks;
}

static long fsize(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_size;
}

/* Did the call fail with errno e? */
static int fails(long ret, int e)
{
	return ret == -1 && errno == e;
}

static void test_mounts(void)
{
	struct statfs sf = { 0 };
	int r = statfs("/tmp", &sf);

	ok(!r && sf.f_type == TMPFS_MAGIC && sf.f_bsize == 4096 &&
	   (long)sf.f_blocks == meminfo_kb("MemTotal") / 8,
	   "statfs /tmp: tmpfs, 4 KiB blocks, half of MemTotal (%ld)", (long)sf.f_blocks);
	ok(!statfs("/dev/shm", &sf) && sf.f_type == TMPFS_MAGIC, "/dev/shm is a tmpfs");
	r = open("/tmp", O_RDONLY | O_DIRECTORY);
	ok(!fstatfs(r, &sf) && sf.f_type == TMPFS_MAGIC && sf.f_namelen == 255, "fstatfs of /tmp");
	close(r);
}

static void test_create(void)
{
	int fd = open(D "/a", O_CREAT | O_EXCL | O_RDWR, 0644);
	char buf[16] = { 0 };
	struct stat st;

	ok(fd >= 0, "open O_CREAT|O_EXCL creates");
	ok(fails(open(D "/a", O_CREAT | O_EXCL | O_RDWR, 0644), EEXIST), "O_EXCL again: EEXIST");
	ok(write(fd, "hello", 5) == 5 && !fstat(fd, &st) && st.st_size == 5 && st.st_blocks == 8 &&
	   st.st_mode == (S_IFREG | 0644) && st.st_nlink == 1,
	   "write 5 bytes: size 5, 8 blocks, mode 0100644, 1 link");
	ok(pread(fd, buf, sizeof(buf), 1) == 4 && !memcmp(buf, "ello", 4), "pread at 1");
	ok(pwrite(fd, "x", 1, 10) == 1 && fsize(fd) == 11 && pread(fd, buf, 11, 0) == 11 &&
	   !memcmp(buf, "hello\0\0\0\0\0x", 11), "pwrite past the end: the gap reads as zeros");
	close(fd);
	fd = open(D "/a", O_WRONLY | O_APPEND);
	ok(lseek(fd, 0, SEEK_SET) == 0 && write(fd, "Z", 1) == 1 && fsize(fd) == 12,
	   "O_APPEND writes at the end whatever the position");
	ok((fcntl(fd, F_GETFL) & O_APPEND) && !fcntl(fd, F_SETFL, 0) && lseek(fd, 0, SEEK_SET) == 0 &&
	   write(fd, "Y", 1) == 1 && fsize(fd) == 12, "F_SETFL clears O_APPEND: writes go to the position");
	close(fd);
	fd = open(D "/a", O_RDWR | O_TRUNC);
	ok(fd >= 0 && fsize(fd) == 0 && blocks(fd) == 0, "O_TRUNC empties the file and its blocks");
	close(fd);
}

static void test_vectors(void)
{
	int fd = open(D "/v", O_CREAT | O_RDWR, 0600);
	char a[3], b[4];
	struct iovec w[2] = { { "abc", 3 }, { "defg", 4 } }, r[2] = { { a, 3 }, { b, 4 } };

	ok(writev(fd, w, 2) == 7 && lseek(fd, 0, SEEK_SET) == 0 && readv(fd, r, 2) == 7 &&
	   !memcmp(a, "abc", 3) && !memcmp(b, "defg", 4), "writev then readv");
	ok(read(fd, a, 1) == 0, "read at the end: 0");
	close(fd);
	unlink(D "/v");
}

/*
 * A buffer that ends 100 bytes into an unmapped page: read and write stop
 * at the fault and return what they copied, as Linux's filemap_read and
 * generic_perform_write; nothing copied at all is EFAULT.
 */
static void test_short_copy(void)
{
	char *m = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *edge = m + PAGE - 100, buf[300];
	int fd = open(D "/s", O_CREAT | O_RDWR, 0600);

	munmap(m + PAGE, PAGE);
	memset(buf, 'x', sizeof(buf));
	memset(edge, 'y', 100);
	ok(pwrite(fd, buf, 300, 0) == 300 && pread(fd, edge, 300, 0) == 100 && edge[99] == 'x',
	   "pread into a buffer that faults after 100 bytes: 100");
	ok(pwrite(fd, edge, 300, 1000) == 100 && fsize(fd) == 1100,
	   "pwrite from a buffer that faults after 100 bytes: 100, the file 1100 bytes");
	ok(fails(pread(fd, m + PAGE, 10, 0), EFAULT), "pread into an unmapped page: EFAULT");
	close(fd);
	unlink(D "/s");
	munmap(m, PAGE);
}

static void test_seek(void)
{
	int fd = open(D "/s", O_CREAT | O_RDWR, 0600);

	ok(!ftruncate(fd, 1 << 20) && pwrite(fd, "d", 1, 65536) == 1 &&
	   pwrite(fd, "d", 1, 524288) == 1 && blocks(fd) == 16, "a sparse 1 MiB file: 2 pages");
	ok(lseek(fd, 0, SEEK_DATA) == 65536 && lseek(fd, 65536, SEEK_HOLE) == 69632,
	   "SEEK_DATA finds the first page, SEEK_HOLE its end");
	ok(lseek(fd, 69632, SEEK_DATA) == 524288 && lseek(fd, 600000, SEEK_HOLE) == 600000,
	   "SEEK_DATA the second page; SEEK_HOLE in a hole stays");
	ok(fails(lseek(fd, 600000, SEEK_DATA), ENXIO) && fails(lseek(fd, 1 << 20, SEEK_HOLE), ENXIO),
	   "SEEK_DATA after the last data, SEEK_HOLE at EOF: ENXIO");
	ok(lseek(fd, 524289, SEEK_HOLE) == 528384, "SEEK_HOLE inside data: the page's end");
	close(fd);
	unlink(D "/s");
}

static void test_truncate(void)
{
	int fd = open(D "/t", O_CREAT | O_RDWR, 0600);
	char buf[8192], z[100] = { 0 };

	memset(buf, 'a', sizeof(buf));
	ok(write(fd, buf, sizeof(buf)) == 8192 && blocks(fd) == 16, "8 KiB: 16 blocks");
	ok(!ftruncate(fd, 100) && blocks(fd) == 8 && !ftruncate(fd, 8192) &&
	   pread(fd, buf, 8192, 0) == 8192 && buf[99] == 'a' && !memcmp(buf + 100, z, 100),
	   "ftruncate down frees pages and zeroes the cut tail; up again reads zeros");
	ok(!truncate(D "/t", 3) && fsize(fd) == 3, "truncate(path)");
	ok(fails(truncate(D, 0), EISDIR) && fails(ftruncate(fd, -1), EINVAL) &&
	   fails(truncate(D "/t", -1), EINVAL), "truncate: EISDIR, EINVAL");
	close(fd);
	fd = open(D "/t", O_RDONLY);
	ok(fails(ftruncate(fd, 0), EINVAL), "ftruncate of a read-only fd: EINVAL");
	close(fd);
	unlink(D "/t");
}

static void test_fallocate(void)
{
	int fd = open(D "/f", O_CREAT | O_RDWR, 0600);
	char c = 1;

	ok(!fallocate(fd, 0, 0, 16384) && fsize(fd) == 16384 && blocks(fd) == 32,
	   "fallocate 16 KiB: size and 32 blocks");
	ok(fails(lseek(fd, 0, SEEK_DATA), ENXIO) && pread(fd, &c, 1, 4096) == 1 && !c,
	   "reserved pages read as zeros and seek as a hole");
	ok(!fallocate(fd, FALLOC_FL_KEEP_SIZE, 16384, 8192) && fsize(fd) == 16384 &&
	   blocks(fd) == 48, "KEEP_SIZE: blocks past EOF, size kept");
	ok(!fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4096, 8192) &&
	   blocks(fd) == 32 && fsize(fd) == 16384, "PUNCH_HOLE frees 2 pages");
	ok(fails(fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, 4096), EOPNOTSUPP) &&
	   fails(fallocate(fd, 0x100, 0, 4096), EOPNOTSUPP) && fails(fallocate(fd, 0, 0, 0), EINVAL),
	   "fallocate: EOPNOTSUPP, EINVAL");
	close(fd);
	unlink(D "/f");
}

static int touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	return fd < 0 ? -1 : close(fd);
}

static long nlink(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_nlink;
}

/*
 * renameat2 RENAME_EXCHANGE: both names must exist (ENOENT); the two
 * trade places, a file with a directory too, across directories, the
 * directory's subtree and link counts following; neither may be above
 * the other (EINVAL); NOREPLACE with it is EINVAL.  Uses D/l2 (a file),
 * D/rd (a directory holding g) and D/re (holding sub/f).
 */
static void test_exchange(void)
{
	struct stat a, b;
	long nre, nrd;

	stat(D "/l2", &a);
	stat(D "/rd", &b);
	nre = nlink(D "/re");
	nrd = nlink(D "/rd");
	ok(!syscall(SYS_renameat2, AT_FDCWD, D "/l2", AT_FDCWD, D "/rd/g", 2) &&
	   !syscall(SYS_renameat2, AT_FDCWD, D "/l2", AT_FDCWD, D "/rd/g", 2),
	   "RENAME_EXCHANGE of two files, and back");
	ok(!syscall(SYS_renameat2, AT_FDCWD, D "/l2", AT_FDCWD, D "/re/sub", 2) &&
	   !access(D "/l2/f", F_OK) && !stat(D "/re/sub", &b) && b.st_ino == a.st_ino &&
	   nlink(D "/re") == nre - 1 && !mkdir(D "/l2/deeper", 0755) && !access(D "/l2/deeper", F_OK),
	   "a file and a directory in another directory trade places; the subtree and link counts follow");
	ok(!syscall(SYS_renameat2, AT_FDCWD, D "/l2", AT_FDCWD, D "/re/sub", 2) && !rmdir(D "/re/sub/deeper") &&
	   !access(D "/re/sub/f", F_OK) && nlink(D "/re") == nre && nlink(D "/rd") == nrd,
	   "and back");
	ok(fails(syscall(SYS_renameat2, AT_FDCWD, D "/l2", AT_FDCWD, D "/none", 2), ENOENT) &&
	   fails(syscall(SYS_renameat2, AT_FDCWD, D "/none", AT_FDCWD, D "/l2", 2), ENOENT) &&
	   fails(syscall(SYS_renameat2, AT_FDCWD, D "/re", AT_FDCWD, D "/re/sub", 2), EINVAL) &&
	   fails(syscall(SYS_renameat2, AT_FDCWD, D "/re/sub", AT_FDCWD, D "/re", 2), EINVAL) &&
	   fails(syscall(SYS_renameat2, AT_FDCWD, D "/l2", AT_FDCWD, D "/rd/g", 3), EINVAL),
	   "RENAME_EXCHANGE: a missing name ENOENT, one above the other EINVAL, with NOREPLACE EINVAL");
}

static void test_names(void)
{
	ok(!touch(D "/r1") && !rename(D "/r1", D "/r2") && fails(access(D "/r1", F_OK), ENOENT) &&
	   !access(D "/r2", F_OK), "rename moves the name");
	ok(!touch(D "/r1") && fails(syscall(SYS_renameat2, AT_FDCWD, D "/r1", AT_FDCWD, D "/r2",
					    1 /* RENAME_NOREPLACE */), EEXIST),
	   "renameat2 RENAME_NOREPLACE onto a name: EEXIST");
	ok(fails(syscall(SYS_renameat2, AT_FDCWD, D "/r1", AT_FDCWD, D "/r1", 1), EEXIST) &&
	   !syscall(SYS_renameat2, AT_FDCWD, D "/r1", AT_FDCWD, D "/r1", 0),
	   "renameat2 of a name onto itself: EEXIST with RENAME_NOREPLACE, else 0");
	{
		struct stat d, f;

		ok(!mkdir(D "/sg", 0755) && !chown(D "/sg", 0, 1000) && !chmod(D "/sg", 02755) &&
		   !mkdir(D "/sg/d", 0700) && !touch(D "/sg/f") && !stat(D "/sg/d", &d) &&
		   !stat(D "/sg/f", &f) && d.st_mode == (S_IFDIR | 02700) && d.st_gid == 1000 &&
		   !(f.st_mode & S_ISGID) && f.st_gid == 1000,
		   "in a set-group-ID directory: new names take its group, a new directory its bit");
		rmdir(D "/sg/d");
		unlink(D "/sg/f");
		rmdir(D "/sg");
	}
	ok(!syscall(SYS_renameat2, AT_FDCWD, D "/r1", AT_FDCWD, D "/r2", 0) &&
	   fails(access(D "/r1", F_OK), ENOENT), "renameat2 flags 0 replaces");
	ok(!mkdir(D "/rd", 0755) && fails(rename(D "/r2", D "/rd"), EISDIR) &&
	   fails(rename(D "/rd", D "/r2"), ENOTDIR), "rename file onto dir: EISDIR, dir onto file: ENOTDIR");
	ok(!mkdir(D "/rd/sub", 0755) && fails(rename(D "/rd", D "/rd/sub/x"), EINVAL),
	   "rename a directory into itself: EINVAL");
	ok(!mkdir(D "/re", 0755) && !touch(D "/rd/sub/f") && !rename(D "/rd", D "/re") &&
	   !access(D "/re/sub/f", F_OK), "rename a directory over an empty one: its subtree moves");
	ok(!mkdir(D "/rd", 0755) && !touch(D "/rd/g") && fails(rename(D "/re", D "/rd"), ENOTEMPTY),
	   "rename over a non-empty directory: ENOTEMPTY");
	ok(!link(D "/r2", D "/l2") && nlink(D "/r2") == 2 && !unlink(D "/r2") && nlink(D "/l2") == 1,
	   "link: two names, two links; unlink one");
	ok(fails(link(D "/rd", D "/l3"), EPERM) && fails(link(D "/l2", D "/rd/g"), EEXIST),
	   "link: a directory EPERM, onto a name EEXIST");
	ok(fails(rename(D "/l2", "/l2"), EXDEV), "rename out of the tmpfs: EXDEV");
	test_exchange();
	unlink(D "/l2");
	unlink(D "/rd/g");
	unlink(D "/re/sub/f");
	rmdir(D "/re/sub");
	ok(!rmdir(D "/re") && !rmdir(D "/rd"), "the renamed directories removed");
}

/* The names getdents gives for dir, joined by ' ' in order, into buf. */
static void list_dir(const char *dir, char *buf, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	buf[0] = '\0';
	while (d && (e = readdir(d)))
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", *buf ? " " : "", e->d_name);
	if (d)
		closedir(d);
}

static void test_dirs(void)
{
	char names[256];
	struct stat st;

	ok(!mkdir(D "/d", 0755) && fails(mkdir(D "/d", 0755), EEXIST) && nlink(D "/d") == 2 &&
	   !stat(D "/d", &st) && st.st_size == 40 && st.st_mode == (S_IFDIR | 0755),
	   "mkdir; again EEXIST; 2 links, size 40 (tmpfs: 20 an entry)");
	ok(!mkdir(D "/d/s", 0700) && nlink(D "/d") == 3 && !touch(D "/d/f"),
	   "a subdirectory adds a link to its parent");
	list_dir(D "/d", names, sizeof(names));
	ok(!strcmp(names, ". .. f s"), "getdents: \". .. f s\", newest first as Linux (%s)", names);
	ok(fails(rmdir(D "/d"), ENOTEMPTY) && fails(unlink(D "/d"), EISDIR) &&
	   fails(rmdir(D "/d/f"), ENOTDIR) && fails(rmdir(D "/d/."), EINVAL),
	   "rmdir: ENOTEMPTY, ENOTDIR, EINVAL; unlink of a directory: EISDIR");
	ok(fails(open(D "/d/f/x", O_CREAT | O_WRONLY, 0644), ENOTDIR) &&
	   fails(open(D "/nodir/x", O_CREAT | O_WRONLY, 0644), ENOENT) &&
	   fails(open(D "/d", O_WRONLY), EISDIR) && fails(open(D "/d", O_CREAT | O_WRONLY, 0644), EISDIR),
	   "open: ENOTDIR, ENOENT, EISDIR");
	ok(fails(open(D "/d/f/", O_CREAT | O_WRONLY, 0644), EISDIR) &&
	   fails(open("/", O_CREAT | O_RDONLY, 0644), EISDIR), "O_CREAT of \"f/\" or \"/\": EISDIR");
	ok(fails(unlink(D "/d/f/"), ENOTDIR) && fails(unlink(D "/d/none"), ENOENT),
	   "unlink: ENOTDIR (trailing slash), ENOENT");
	ok(!unlink(D "/d/f") && !rmdir(D "/d/s") && nlink(D "/d") == 2 && !rmdir(D "/d"),
	   "emptied directory removed");
}

/* Names of 253 to 255 bytes (NAME_MAX) are listed: their getdents64 records take 280 bytes. */
static void test_long_names(void)
{
	char path[300], names[1024];
	int listed = 0;

	for (int len = 253; len <= 255; len++) {
		snprintf(path, sizeof(path), D "/%0*d", len, len);
		listed += !touch(path);
	}
	snprintf(path, sizeof(path), D "/%0256d", 256);
	ok(listed == 3 && fails(open(path, O_CREAT | O_WRONLY, 0644), ENAMETOOLONG),
	   "names of 253, 254, 255 bytes made; 256 ENAMETOOLONG");
	list_dir(D, names, sizeof(names));
	ok(strstr(names, "0253 ") && strstr(names, "0254 ") && strstr(names, "0255"),
	   "getdents lists the three long names");
	ok(fails(rename(path, D "/none/x"), ENOENT) && fails(rename(path, D "/0253/x"), ENOENT) &&
	   fails(rename(D "/none/x", path), ENOENT) && fails(rename(path, D "/x"), ENAMETOOLONG) &&
	   fails(rename(D "/x", path), ENOENT),
	   "rename with a 256-byte name: the other name's parent first (ENOENT), then ENAMETOOLONG");
	for (int len = 253; len <= 255; len++) {
		snprintf(path, sizeof(path), D "/%0*d", len, len);
		unlink(path);
	}
}

/* Calls relative to an open directory keep working after the directory is renamed. */
static void test_relative(void)
{
	int dfd, fd;

	mkdir(D "/rel", 0755);
	dfd = open(D "/rel", O_RDONLY | O_DIRECTORY);
	fd = openat(dfd, "f", O_CREAT | O_RDWR, 0600);
	ok(fd >= 0 && !mkdirat(dfd, "sub", 0755) && !access(D "/rel/f", F_OK) &&
	   !access(D "/rel/sub", F_OK), "openat O_CREAT and mkdirat relative to a directory fd");
	close(fd);
	ok(!rename(D "/rel", D "/moved") && !unlinkat(dfd, "f", 0) &&
	   !unlinkat(dfd, "sub", AT_REMOVEDIR) && fails(access(D "/moved/f", F_OK), ENOENT),
	   "after the directory's rename, unlinkat through its fd reaches the moved entries");
	ok(fails(unlinkat(dfd, "x", 0x1), EINVAL), "unlinkat: a bad flag EINVAL");
	close(dfd);
	ok(!rmdir(D "/moved"), "rmdir the moved directory");
}

/*
 * The working directory: relative names start there, fork inherits it,
 * getcwd names it (ERANGE if the buffer is short, ENOENT once removed).
 */
static void test_cwd(void)
{
	char buf[64];
	int root = open("/", O_RDONLY | O_DIRECTORY), fd, status;
	struct stat st;
	pid_t pid;

	mkdir(D "/wd", 0755);
	ok(!chdir(D "/wd") && getcwd(buf, sizeof(buf)) && !strcmp(buf, D "/wd"),
	   "chdir, then getcwd: %s", buf);
	ok(!lstat(".", &st) && S_ISDIR(st.st_mode) && !lstat(D "/wd", &st) && S_ISDIR(st.st_mode),
	   "lstat (musl's SYS_lstat) of the working directory");
	fd = open("f", O_CREAT | O_RDWR, 0600);
	ok(fd >= 0 && !access(D "/wd/f", F_OK) && !access("./f", F_OK) && !access("../wd/f", F_OK),
	   "a relative open creates the file in the working directory");
	close(fd);
	pid = fork();
	if (pid == 0)
		_exit(access("f", F_OK) ? 1 : 0);
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0, "fork's child inherits it");
	ok(!getcwd(buf, 4) && errno == ERANGE, "getcwd into 4 bytes: ERANGE");
	ok(fails(chdir(D "/wd/f"), ENOTDIR) && fails(chdir(D "/none"), ENOENT),
	   "chdir to a file ENOTDIR, to nothing ENOENT");
	ok(!unlink("f") && !rmdir(D "/wd") && !getcwd(buf, sizeof(buf)) && errno == ENOENT,
	   "getcwd after its directory was removed: ENOENT");
	{
		struct stat st;
		int fd = open(".", O_RDONLY | O_DIRECTORY);

		ok(!chdir(".") && !chdir("./.") && !stat(".", &st) && S_ISDIR(st.st_mode) &&
		   st.st_nlink == 0 && fd >= 0 && fails(stat("x", &st), ENOENT) &&
		   fails(mkdir("x", 0755), ENOENT),
		   "in a removed directory \".\" is still it (0 links); names in it ENOENT");
		ok(fails(mkdir(".", 0755), EEXIST) && fails(rmdir("."), EINVAL) &&
		   fails(unlink("."), EISDIR) && fails(open(".", O_CREAT | O_WRONLY, 0644), EISDIR),
		   "and \".\" there as a name to make or remove: EEXIST, EINVAL, EISDIR, as anywhere");
		if (fd >= 0)
			close(fd);
	}
	ok(!fchdir(root) && getcwd(buf, sizeof(buf)) && !strcmp(buf, "/") &&
	   fails(fchdir(-1), EBADF), "fchdir back to /, fchdir(-1) EBADF");
	close(root);
}

static void test_tmpfile(void)
{
	int fd = open(D, O_TMPFILE | O_RDWR, 0600);
	char names[256], c = 0;
	struct stat st;

	ok(fd >= 0 && !fstat(fd, &st) && st.st_nlink == 0 && write(fd, "t", 1) == 1 &&
	   pread(fd, &c, 1, 0) == 1 && c == 't', "O_TMPFILE: a file without a name (0 links)");
	list_dir(D, names, sizeof(names));
	ok(!strcmp(names, ". .. a"), "it is not in the directory (%s)", names);
	close(fd);
	ok(fails(open(D, O_TMPFILE | O_RDONLY, 0600), EINVAL), "O_TMPFILE read-only: EINVAL");
}

/* Where the initrd is read-only (foliOS), creating in / is EROFS; Linux's initramfs is writable. */
static void test_rofs(void)
{
	int fd = open("/tt_rofs", O_CREAT | O_WRONLY, 0644);

	if (fd >= 0) {
		close(fd);
		unlink("/tt_rofs");
		skip("the root file system is writable here (Linux's initramfs)");
		return;
	}
	ok(errno == EROFS && fails(mkdir("/tt_rofs", 0755), EROFS) && fails(mkdir("/bin", 0755), EEXIST),
	   "the initrd: create and mkdir EROFS, mkdir of an existing name EEXIST");
}

/* An unlinked file lives while open; its last close frees its pages. */
static void test_unlinked(void)
{
	static char buf[65536];
	int fd = open(D "/u", O_CREAT | O_RDWR, 0600);
	struct stat st;

	memset(buf, 'u', sizeof(buf));
	ok(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && !unlink(D "/u") &&
	   fails(access(D "/u", F_OK), ENOENT), "unlink of an open file: the name goes");
	memset(buf, 0, sizeof(buf));
	ok(!fstat(fd, &st) && st.st_nlink == 0 && st.st_blocks == 128 &&
	   pread(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf) && buf[65535] == 'u',
	   "its data stays readable through the fd (0 links, 128 blocks)");
	close(fd);
	test_tmpfile();
	test_rofs();
}

static void test_size_mount(void)
{
	static char buf[1 << 20];
	struct statfs sf;
	int fd;

	mkdir(D "/m", 0755);
	ok(!mount("tmpfs", D "/m", "tmpfs", 0, "size=1M") && !statfs(D "/m", &sf) &&
	   sf.f_blocks == 256 && sf.f_bfree == 256, "mount size=1M: 256 blocks free");
	fd = open(D "/m/big", O_CREAT | O_RDWR, 0600);
	ok(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && fails(write(fd, buf, 1), ENOSPC),
	   "1 MiB fits, one byte more is ENOSPC");
	ok(!statfs(D "/m", &sf) && sf.f_bfree == 0, "statfs: no block free");
	close(fd);
	ok(!unlink(D "/m/big") && !statfs(D "/m", &sf) && sf.f_bfree == 256, "unlink frees them");
	ok(fails(mount("tmpfs", D "/m", "tmpfs", 0, "huge=sometimes"), EINVAL) &&
	   fails(mount("tmpfs", D "/a", "tmpfs", 0, NULL), ENOTDIR), "mount: bad option EINVAL, a file ENOTDIR");
	ok(!umount(D "/m") && !rmdir(D "/m"), "umount, rmdir");
}

/* Is the folio at pfn 2 MiB: /proc/folio's order on foliOS, kpageflags THP on Linux? */
static int is_pmd_folio(unsigned long pfn)
{
	struct folio_view v;

	if (!folio_view_pfn(pfn, &v))
		return v.order == 9;
	return !!(kpageflags(pfn) & (1ULL << KPF_THP));
}

/*
 * Is the 2 MiB at p (2 MiB-aligned, mapped from a file) one 2 MiB folio:
 * every page faulted in, PFNs contiguous from a 2 MiB-aligned one,
 * kpageflags THP?
 */
static int one_pmd_folio(const volatile char *p)
{
	unsigned long pfn;

	for (size_t i = 0; i < PMD_SIZE; i += PAGE)
		(void)p[i];
	pfn = pfn_of((const char *)p);
	return pfn && !(pfn % 512) && pfns_contiguous((const char *)p, PMD_SIZE / PAGE) && is_pmd_folio(pfn);
}

/* Map fd's first 2 MiB MAP_SHARED at a 2 MiB boundary; NULL if files cannot be mapped shared. */
static char *map_pmd(int fd, int prot)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	if (p && mmap(p, PMD_SIZE, prot, MAP_SHARED | MAP_FIXED, fd, 0) == p)
		return p;
	if (p)
		munmap(p, PMD_SIZE);
	return NULL;
}

/* The file's 2 MiB folio seen through a mapping: one folio; a punched hole reads zeros there too. */
static void test_huge_mapped(int fd)
{
	char *p = map_pmd(fd, PROT_READ);

	if (!p) {
		skip("no MAP_SHARED of files yet");
		return;
	}
	ok(one_pmd_folio(p), "mapped: one 2 MiB folio (contiguous PFNs; /proc/folio order 9 or kpageflags THP)");
	ok(!fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 256 << 10, 64 << 10) &&
	   p[256 << 10] == 0 && p[(320 << 10) - 1] == 0 && p[(320 << 10) + 1] == (char)(((320 << 10) + 1) % 251),
	   "punch 64 KiB out of the mapped folio: the mapping reads zeros there, data around");
	munmap(p, PMD_SIZE);
}

/* debugfs split_huge_pages "<path>,0x<first>,0x<last>,<order>": the file's 2 MiB folio split (ShmemHugePages drops). */
static void test_split_file(const char *path)
{
	char cmd[128];
	long before = meminfo_kb("ShmemHugePages"), after;
	int r;

	if (before < 0) {
		skip("no ShmemHugePages in /proc/meminfo");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s,0x0,0x200,0", path);
	r = write_text("/sys/kernel/debug/split_huge_pages", cmd);
	after = meminfo_kb("ShmemHugePages");
	ok(!r && after == before - 2048, "debugfs split_huge_pages of the file: ShmemHugePages %ld -> %ld kB",
	   before, after);
}

/* 2 MiB written to a huge=always tmpfs is one 2 MiB folio: 4096 blocks even for one byte. */
static void test_huge_mount(void)
{
	static char buf[PMD_SIZE];
	int fd, bad = 0;
	long b;

	mkdir(D "/h", 0755);
	ok(!mount("tmpfs", D "/h", "tmpfs", 0, "size=8M,huge=always"), "mount huge=always");
	fd = open(D "/h/one", O_CREAT | O_RDWR, 0600);
	ok(write(fd, "1", 1) == 1 && blocks(fd) == 4096, "one byte: a 2 MiB folio (4096 blocks)");
	close(fd);
	fd = open(D "/h/two", O_CREAT | O_RDWR, 0600);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i % 251;
	ok(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && blocks(fd) == 4096,
	   "2 MiB: one 2 MiB folio");
	test_huge_mapped(fd);
	ok(!fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 256 << 10, 64 << 10),
	   "punch 64 KiB out of the middle of the folio");
	b = blocks(fd);
	ok(pread(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf), "read it back");
	test_split_file(D "/h/one");
	for (size_t i = 0; i < sizeof(buf); i++)
		bad += buf[i] != (i >= (256 << 10) && i < (320 << 10) ? 0 : (char)(i % 251));
	ok(!bad && (b == 4096 - 128 || b == 4096),
	   "the hole reads zeros, the rest intact; %ld blocks (split: 3968)", b);
	close(fd);
	unlink(D "/h/one");
	unlink(D "/h/two");
	ok(!umount(D "/h") && !rmdir(D "/h"), "umount, rmdir");
}

/*
 * A fault in a file of a huge=advise mount: a 2 MiB folio only with
 * MADV_HUGEPAGE; huge=within_size: only where i_size covers the 2 MiB.
 */
static int fault_is_pmd(const char *opts, loff_t size, int advise)
{
	int fd, ret = -1;
	char *p;

	if (mount("tmpfs", D "/h", "tmpfs", 0, opts))
		return -1;
	fd = open(D "/h/f", O_CREAT | O_RDWR, 0600);
	if (!ftruncate(fd, size) && (p = map_pmd(fd, PROT_READ | PROT_WRITE))) {
		if (advise)
			madvise(p, PMD_SIZE, MADV_HUGEPAGE);
		p[0] = 1;
		ret = is_pmd_folio(pfn_of(p));
		munmap(p, PMD_SIZE);
	}
	close(fd);
	unlink(D "/h/f");
	umount(D "/h");
	return ret;
}

static void test_huge_fault_policy(void)
{
	mkdir(D "/h", 0755);
	if (fault_is_pmd("huge=advise", PMD_SIZE, 1) < 0) {
		skip("no MAP_SHARED of files yet");
		rmdir(D "/h");
		return;
	}
	ok(fault_is_pmd("huge=advise", PMD_SIZE, 0) == 0 && fault_is_pmd("huge=advise", PMD_SIZE, 1) == 1,
	   "huge=advise: a 2 MiB folio only with MADV_HUGEPAGE");
	ok(fault_is_pmd("huge=within_size", PMD_SIZE, 0) == 1 &&
	   fault_is_pmd("huge=within_size", PMD_SIZE - PAGE, 0) == 0,
	   "huge=within_size: a 2 MiB folio only where the file covers it");
	ok(fault_is_pmd("huge=never", PMD_SIZE, 1) == 0, "huge=never: none even with MADV_HUGEPAGE");
	ok(!rmdir(D "/h"), "rmdir");
}

/* shmem_enabled: Linux's words, the current one in brackets; the per-size knob where it exists (6.11+). */
static void test_knobs(void)
{
	char buf[128];
	int r = read_text(THP_DIR "shmem_enabled", buf, sizeof(buf));

	ok(!r && strstr(buf, "always within_size advise") && strstr(buf, "deny force"),
	   "shmem_enabled lists Linux's choices: %s", strtok(buf, "\n"));
	ok(!write_text(THP_DIR "shmem_enabled", "within_size") &&
	   !read_text(THP_DIR "shmem_enabled", buf, sizeof(buf)) && strstr(buf, "[within_size]") &&
	   !write_text(THP_DIR "shmem_enabled", "never"), "shmem_enabled takes within_size, then never");
	if (read_text(THP_DIR "hugepages-2048kB/shmem_enabled", buf, sizeof(buf))) {
		skip("no per-size shmem_enabled (Linux before 6.11)");
		return;
	}
	ok(strstr(buf, "always") && strstr(buf, "within_size advise never") && strstr(buf, "[inherit]"),
	   "hugepages-2048kB/shmem_enabled: %s", strtok(buf, "\n"));
}

/* The shell and the file tools on tmpfs (foliOS's /bin; Linux's peer has none). */
/*
 * Does ls -l's output (BusyBox's: mode, links, owner, group, size, date,
 * name) have a line for name with this mode, link count and size?
 */
static bool ls_line_is(const char *out, const char *name, const char *mode, int links, long size)
{
	char m[16], user[32], group[32], mon[8], day[8], when[8], n[64];
	int l;
	long sz;

	for (const char *line = out; line && *line; line = strchr(line, '\n'), line += !!line)
		if (sscanf(line, "%15s %d %31s %31s %ld %7s %7s %7s %63s", m, &l, user, group, &sz,
			   mon, day, when, n) == 9 && !strcmp(n, name))
			return !strcmp(m, mode) && l == links && sz == size;
	return false;
}

static void test_shell(void)
{
	char out[512];

	if (access("/bin/sh", X_OK) || access("/bin/cp", X_OK)) {
		skip("no /bin/sh and file tools");
		return;
	}
	ok(!run_output(out, sizeof(out), (char *[]){ "/bin/sh", "-c", "echo hi > " D "/x", NULL }) &&
	   !run_output(out, sizeof(out), (char *[]){ "/bin/sh", "-c", "echo ho >> " D "/x", NULL }) &&
	   !run_output(out, sizeof(out), (char *[]){ "/bin/cat", D "/x", NULL }) && !strcmp(out, "hi\nho\n"),
	   "sh: echo > and >> on /tmp, cat reads it back");
	ok(run_output(out, sizeof(out), (char *[]){ "/bin/sh", "-c", "cd " D "; cat x; cd; cat x", NULL }) == 1 &&
	   !strncmp(out, "hi\nho\n", 6), "sh: cd, and ';' between commands (the last cat, in /, fails)");
	ok(!run_output(out, sizeof(out), (char *[]){ "/bin/cp", D "/x", D "/y", NULL }) &&
	   !run_output(out, sizeof(out), (char *[]){ "/bin/mkdir", D "/dd", NULL }) &&
	   !run_output(out, sizeof(out), (char *[]){ "/bin/cp", D "/x", D "/dd", NULL }) &&
	   !run_output(out, sizeof(out), (char *[]){ "/bin/cat", D "/dd/x", NULL }) && !strcmp(out, "hi\nho\n"),
	   "cp to a file and into a directory, mkdir");
	ok(!run_output(out, sizeof(out), (char *[]){ "/bin/ls", "-l", D, NULL }) &&
	   ls_line_is(out, "x", "-rw-r--r--", 1, 6) && ls_line_is(out, "dd", "drwxr-xr-x", 2, 60),
	   "ls -l: mode, links, size, name (a tmpfs directory: 20 bytes an entry)");
	ok(!run_output(out, sizeof(out), (char *[]){ "/bin/rm", D "/x", D "/y", D "/dd/x", NULL }) &&
	   fails(access(D "/x", F_OK), ENOENT) && !rmdir(D "/dd") &&
	   run_output(out, sizeof(out), (char *[]){ "/bin/rm", D "/x", NULL }) == 1, "rm; rm of a missing file fails");
}

int main(void)
{
	mount_proc_sys();
	mkdir(D, 0755);
	test_mounts();
	test_create();
	test_vectors();
	test_short_copy();
	test_seek();
	test_truncate();
	test_fallocate();
	test_names();
	test_dirs();
	test_long_names();
	test_relative();
	test_cwd();
	test_unlinked();
	test_size_mount();
	test_huge_mount();
	test_huge_fault_policy();
	test_knobs();
	test_shell();
	unlink(D "/a");
	ok(!rmdir(D), "the test's directory removed");
	return tap_done();
}
