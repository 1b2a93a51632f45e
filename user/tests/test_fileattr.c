/*
 * Guest test (TAP): a file's mode, owner and times as Linux keeps them
 * on tmpfs.  umask (what open, mkdir take away), chmod/fchmod/fchmodat
 * (through a link, type kept, setuid kept), chown/fchown/lchown/fchownat
 * (-1 keeps, setuid and group-executable setgid cleared, a link's own
 * owner), the three times (all "now" at creation; write and truncate move
 * mtime and ctime; a change of entries moves the directory's; a lost
 * name moves ctime; a read moves an old atime, relatime), and
 * utimensat/futimens/utimes/utime (given times to the nanosecond,
 * UTIME_NOW, UTIME_OMIT, EINVAL, both omitted is 0 without a lookup,
 * AT_SYMLINK_NOFOLLOW), stat and statx alike.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include "statx_abi.h"
#include <errno.h>
#include <string.h>
#include <time.h>
#include <utime.h>
#include <sys/stat.h>
#include <sys/time.h>

#define D       "/tmp/fa"

static int fails(long ret)
{
	return ret < 0 ? errno : 0;
}

static struct stat st_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		memset(&st, 0, sizeof(st));
	return st;
}

static int make_file(const char *path, mode_t mode)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, mode);

	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : 0;
}

/* Set path's atime and mtime to whole seconds a and m (0: leave it). */
static int set_times(const char *path, time_t a, time_t m, int flags)
{
	struct timespec ts[2] = { { a, a ? 0 : UTIME_OMIT }, { m, m ? 0 : UTIME_OMIT } };

	return utimensat(AT_FDCWD, path, ts, flags);
}

/* Is t within a few seconds of now? */
static int is_now(time_t t)
{
	time_t now = time(NULL);

	return t <= now && t >= now - 5;
}

static void test_umask(void)
{
	mode_t old = umask(027);

	ok(umask(old) == 027, "umask returns the mask it replaces");
	umask(027);
	make_file(D "/um", 0666);
	mkdir(D "/umd", 0777);
	ok((st_of(D "/um").st_mode & 07777) == 0640 && (st_of(D "/umd").st_mode & 07777) == 0750,
	   "open and mkdir take the umask away (%o, %o)", st_of(D "/um").st_mode & 07777,
	   st_of(D "/umd").st_mode & 07777);
	umask(old);
}

static void test_chmod(void)
{
	int fd;

	make_file(D "/m", 0644);
	set_times(D "/m", 1000, 1000, 0);
	ok(chmod(D "/m", 0600) == 0 && st_of(D "/m").st_mode == (S_IFREG | 0600) &&
	   is_now(st_of(D "/m").st_ctime) && st_of(D "/m").st_mtime == 1000,
	   "chmod: the permission bits change, the type stays, ctime is now, mtime stays");
	ok(chmod(D "/m", 04755) == 0 && st_of(D "/m").st_mode == (S_IFREG | 04755),
	   "chmod keeps a setuid bit it is given");
	fd = open(D "/m", O_RDONLY);
	ok(fchmod(fd, 0640) == 0 && st_of(D "/m").st_mode == (S_IFREG | 0640), "fchmod");
	close(fd);
	symlink("m", D "/ml");
	ok(fchmodat(AT_FDCWD, D "/ml", 0604, 0) == 0 && (st_of(D "/m").st_mode & 07777) == 0604 &&
	   (st_of(D "/ml").st_mode & 07777) == 0777,
	   "fchmodat through a link changes the target, the link stays 0777");
	ok(fails(chmod(D "/nothing", 0600)) == ENOENT, "chmod of a missing file: ENOENT");
}

static void test_chown(void)
{
	struct stat st;
	int fd;

	make_file(D "/o", 0644);
	ok(chown(D "/o", 1000, 2000) == 0 && st_of(D "/o").st_uid == 1000 &&
	   st_of(D "/o").st_gid == 2000, "chown sets the owner and the group");
	ok(chown(D "/o", -1, 3000) == 0 && st_of(D "/o").st_uid == 1000 &&
	   st_of(D "/o").st_gid == 3000, "chown with -1 keeps that id");
	chmod(D "/o", 06755);
	ok(chown(D "/o", 0, 0) == 0 && (st_of(D "/o").st_mode & 07777) == 0755,
	   "chown clears setuid and a group-executable setgid (%o)", st_of(D "/o").st_mode & 07777);
	chmod(D "/o", 02745);
	chown(D "/o", 0, 0);
	ok((st_of(D "/o").st_mode & 07777) == 02745,
	   "chown keeps setgid without group execute (%o)", st_of(D "/o").st_mode & 07777);
	symlink("o", D "/ol");
	ok(lchown(D "/ol", 7, 8) == 0 && st_of(D "/ol").st_uid == 7 && st_of(D "/o").st_uid == 0,
	   "lchown changes the link's owner, not the target's");
	ok(fchownat(AT_FDCWD, D "/ol", 9, 9, 0) == 0 && st_of(D "/o").st_uid == 9,
	   "fchownat without AT_SYMLINK_NOFOLLOW follows the link");
	fd = open(D "/o", O_RDONLY);
	ok(fchown(fd, 5, 6) == 0 && fstat(fd, &st) == 0 && st.st_uid == 5 && st.st_gid == 6,
	   "fchown");
	close(fd);
	ok(fails(fchownat(AT_FDCWD, D "/o", 0, 0, 0x8000)) == EINVAL, "fchownat with a bad flag: EINVAL");
}

static void test_times(void)
{
	struct stat st;
	char buf[4];
	int fd;

	make_file(D "/t", 0644);
	st = st_of(D "/t");
	ok(is_now(st.st_atime) && st.st_atime == st.st_mtime && st.st_mtime == st.st_ctime,
	   "a new file: atime, mtime and ctime are now");
	set_times(D "/t", 1000, 1000, 0);
	fd = open(D "/t", O_WRONLY);
	write(fd, "abc", 3);
	st = st_of(D "/t");
	ok(is_now(st.st_mtime) && is_now(st.st_ctime) && st.st_atime == 1000,
	   "write: mtime and ctime become now, atime stays");
	set_times(D "/t", 1000, 1000, 0);
	ftruncate(fd, 1);
	close(fd);
	ok(is_now(st_of(D "/t").st_mtime), "ftruncate: mtime becomes now");
	set_times(D "/t", 1000, 2000, 0);
	fd = open(D "/t", O_RDONLY);
	read(fd, buf, 1);
	close(fd);
	ok(is_now(st_of(D "/t").st_atime), "read of a file whose atime is before its mtime: atime now");
	set_times(D, 1000, 1000, 0);
	make_file(D "/t2", 0644);
	ok(is_now(st_of(D).st_mtime) && is_now(st_of(D).st_ctime),
	   "a new name: the directory's mtime and ctime become now");
	link(D "/t2", D "/t3");
	set_times(D "/t2", 1000, 1000, 0);
	set_times(D, 1000, 1000, 0);
	unlink(D "/t3");
	ok(is_now(st_of(D "/t2").st_ctime) && st_of(D "/t2").st_mtime == 1000 &&
	   is_now(st_of(D).st_mtime), "unlink: the file's ctime and the directory's mtime become now");
	ok(st_of("/proc/self/exe").st_mode && stat("/proc/self/exe", &st) == 0 &&
	   st.st_mtime > 1000000000L, "the program's file has its archive's mtime (%ld)",
	   (long)st.st_mtime);
}

static void test_utimensat(void)
{
	struct timespec ts[2] = { { 123456, 789 }, { 234567, 999999999 } };
	struct timeval tv[2] = { { 3000, 5 }, { 4000, 6 } };
	struct utimbuf ub = { 5000, 6000 };
	struct stat st;
	int fd;

	make_file(D "/u", 0644);
	ok(utimensat(AT_FDCWD, D "/u", ts, 0) == 0 && stat(D "/u", &st) == 0 &&
	   st.st_atim.tv_sec == 123456 && st.st_atim.tv_nsec == 789 &&
	   st.st_mtim.tv_sec == 234567 && st.st_mtim.tv_nsec == 999999999 && is_now(st.st_ctime),
	   "utimensat sets atime and mtime to the nanosecond, ctime to now");
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1] = (struct timespec){ 0, UTIME_NOW };
	ok(utimensat(AT_FDCWD, D "/u", ts, 0) == 0 && st_of(D "/u").st_atime == 123456 &&
	   is_now(st_of(D "/u").st_mtime), "UTIME_OMIT keeps atime, UTIME_NOW makes mtime now");
	set_times(D "/u", 1000, 1000, 0);
	ok(utimensat(AT_FDCWD, D "/u", NULL, 0) == 0 && is_now(st_of(D "/u").st_atime) &&
	   is_now(st_of(D "/u").st_mtime), "utimensat with no times: both now");
	ts[0] = (struct timespec){ 1, 1000000000 };
	ok(fails(utimensat(AT_FDCWD, D "/u", ts, 0)) == EINVAL, "tv_nsec of 10^9: EINVAL");
	ts[0].tv_nsec = ts[1].tv_nsec = UTIME_OMIT;
	ok(utimensat(AT_FDCWD, D "/no/such/file", ts, 0) == 0,
	   "both UTIME_OMIT: 0, the path not even looked up");
	fd = open(D "/u", O_RDONLY);
	ts[0] = (struct timespec){ 7000, 0 };
	ts[1] = (struct timespec){ 8000, 0 };
	ok(futimens(fd, ts) == 0 && st_of(D "/u").st_atime == 7000 && st_of(D "/u").st_mtime == 8000,
	   "futimens");
	close(fd);
	ok(utimes(D "/u", tv) == 0 && stat(D "/u", &st) == 0 && st.st_atime == 3000 &&
	   st.st_atim.tv_nsec == 5000 && st.st_mtime == 4000, "utimes (microseconds)");
	ok(utime(D "/u", &ub) == 0 && st_of(D "/u").st_atime == 5000 &&
	   st_of(D "/u").st_mtime == 6000, "utime (seconds)");
	symlink("u", D "/ul");
	ok(set_times(D "/ul", 11, 12, AT_SYMLINK_NOFOLLOW) == 0 && st_of(D "/ul").st_mtime == 12 &&
	   st_of(D "/u").st_mtime == 6000, "AT_SYMLINK_NOFOLLOW sets the link's own times");
	ok(fails(utimensat(AT_FDCWD, D "/u", NULL, 0x1)) == EINVAL, "utimensat with a bad flag: EINVAL");
}

/* statx agrees with stat on owner and times. */
static void test_statx(void)
{
	struct statx_rec stx;
	struct stat st;

	make_file(D "/x", 0644);
	chown(D "/x", 42, 43);
	set_times(D "/x", 1234, 5678, 0);
	ok(statx(AT_FDCWD, D "/x", 0, STATX_BASIC_STATS, &stx) == 0 && stat(D "/x", &st) == 0 &&
	   stx.stx_uid == 42 && stx.stx_gid == 43 && stx.times[STX_ATIME] == 1234 &&
	   stx.times[STX_MTIME] == 5678 && stx.times[STX_CTIME] == st.st_ctime &&
	   (stx.stx_mask & (STATX_UID | STATX_ATIME | STATX_MTIME | STATX_CTIME)) ==
	   (STATX_UID | STATX_ATIME | STATX_MTIME | STATX_CTIME),
	   "statx: owner and times as stat has them");
}

static const char *const names[] = {
	"um", "umd", "m", "ml", "o", "ol", "t", "t2", "u", "ul", "x",
};

int main(void)
{
	mount_proc_sys();
	mkdir("/tmp", 0777);
	mkdir(D, 0755);
	test_umask();
	test_chmod();
	test_chown();
	test_times();
	test_utimensat();
	test_statx();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[64];

		snprintf(path, sizeof(path), D "/%s", names[i]);
		if (unlink(path))
			rmdir(path);
	}
	rmdir(D);
	return tap_done();
}
