/*
 * tmpfs directories on several CPUs at once (issue 31).  For CHURN_NS,
 * churner threads and a churner process each create, rename (in the
 * directory, a file into a subdirectory, a directory with its subtree to
 * a second directory and back), link, unlink, mkdir and rmdir names of
 * their own in one tmpfs directory, and all of them race on two shared
 * names; meanwhile
 * threads list the directory with getdents64 through a small buffer (so
 * a pass takes many calls), open and stat names in it by absolute and
 * dirfd-relative paths, a thread mounts and unmounts a tmpfs below it,
 * and a process whose working directory a thread keeps moving between
 * the two directories opens a file there by a relative name:
 *
 * - a getdents pass never gives a name twice, never a name no one made,
 *   and gives each name that exists throughout (the stable ones) once;
 * - an open or stat of a stable name always succeeds, on its own inode;
 *   a stat of a churn name succeeds or gives ENOENT;
 * - each churner's calls on its own names all succeed, but a directory
 *   moved into its own subtree: EINVAL;
 * - on the shared names, exclusive creates and unlinks (mkdirs and
 *   rmdirs) either succeed or fail with EEXIST/ENOENT, and what
 *   succeeded adds up to whether the name exists at the end;
 * - the moving working directory: getcwd is one of its two paths; the
 *   relative open finds its file (foliOS looks a relative name up by the
 *   directory's path, so a move in between may also give ENOENT);
 * - afterwards the directory holds exactly the stable names (and the
 *   shared ones that exist), with st_nlink and st_size (tmpfs: 20 bytes
 *   an entry) to match.
 *
 * The same static binary runs on Linux (../shared/peer/linux-peer.sh
 * --mounts: /tmp is a tmpfs there).
 */
#include "smp_util.h"
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define CHURN_NS        (1500000000ULL)
#define D               "/tmp/smp_dirs"
#define D2              "/tmp/smp_dirs2"
#define NR_STABLE       12
#define NR_CHURN_THREADS 2
#define NR_LISTERS      2
#define MAX_NAMES       64

/* One getdents64 record (Linux's struct linux_dirent64). */
struct dent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* What every churner counts, in a shared mapping so the process adds its own. */
struct counts {
	int stop;                       /* set when CHURN_NS is over */
	long rounds, bad;               /* bad: a call on a private name failed */
	char first_bad[96];
	long f_made, f_gone, d_made, d_gone, shared_bad;
	long passes, dup, garbage, stable_wrong;
	long opens, open_bad;
	long cwd_ok, cwd_enoent, cwd_bad, moves, move_bad;
	long mounts, mount_bad;
};
static struct counts *cnt;

static int stopped(void)
{
	return __atomic_load_n(&cnt->stop, __ATOMIC_RELAXED);
}

static void add(long *c, long n)
{
	__atomic_add_fetch(c, n, __ATOMIC_RELAXED);
}

/* Count a failed call on a private name; the first one is kept for the report. */
static void bad_call(const char *what, const char *name)
{
	if (__atomic_fetch_add(&cnt->bad, 1, __ATOMIC_RELAXED) == 0)
		snprintf(cnt->first_bad, sizeof(cnt->first_bad), "%s %s: %s", what, name,
			 strerror(errno));
}

static void expect(int ret, const char *what, const char *name)
{
	if (ret)
		bad_call(what, name);
}

static int create_excl(const char *path)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);

	return fd < 0 ? -1 : close(fd);
}

/* One round on the churner's own names: "<tag>_a" and so on. */
static void churn_private(const char *tag)
{
	char a[48], b[48], l[48], d[48], df[64], ds[64], into[64], d2[48], d2f[64], e[48], ef[64],
	     es[64];
	struct stat st;

	snprintf(a, sizeof(a), D "/%s_a", tag);
	snprintf(b, sizeof(b), D "/%s_b", tag);
	snprintf(l, sizeof(l), D "/%s_l", tag);
	snprintf(d, sizeof(d), D "/%s_d", tag);
	snprintf(df, sizeof(df), "%s/f", d);
	snprintf(ds, sizeof(ds), "%s/s", d);
	snprintf(into, sizeof(into), "%s/s/x", d);
	snprintf(d2, sizeof(d2), D2 "/%s_d", tag);
	snprintf(d2f, sizeof(d2f), "%s/f", d2);
	snprintf(e, sizeof(e), D "/%s_e", tag);
	snprintf(ef, sizeof(ef), "%s/f", e);
	snprintf(es, sizeof(es), "%s/s", e);
	expect(create_excl(a), "create", a);
	expect(rename(a, b), "rename", a);
	expect(link(b, l), "link", b);
	expect(mkdir(d, 0755), "mkdir", d);
	expect(mkdir(ds, 0755), "mkdir", ds);
	expect(rename(l, df), "rename into a subdirectory", l);
	if (!rename(d, into) || errno != EINVAL)
		bad_call("rename into its own subtree (not EINVAL)", d);
	expect(rename(d, d2), "rename to the second directory", d);
	if (stat(d2f, &st) || st.st_nlink != 2)
		bad_call("stat (2 links) of", d2f);
	expect(rename(d2, e), "rename back as", e);
	expect(unlink(ef), "unlink", ef);
	expect(rmdir(es), "rmdir", es);
	expect(rmdir(e), "rmdir", e);
	expect(unlink(b), "unlink", b);
}

/* Everyone races on "shared_f" and "shared_d": count what succeeded. */
static void churn_shared(void)
{
	int r;

	r = create_excl(D "/shared_f");
	add(r ? &cnt->shared_bad : &cnt->f_made, !r || errno != EEXIST);
	r = unlink(D "/shared_f");
	add(r ? &cnt->shared_bad : &cnt->f_gone, !r || errno != ENOENT);
	r = mkdir(D "/shared_d", 0755);
	add(r ? &cnt->shared_bad : &cnt->d_made, !r || errno != EEXIST);
	r = rmdir(D "/shared_d");
	add(r ? &cnt->shared_bad : &cnt->d_gone, !r || errno != ENOENT);
}

static void churn(const char *tag)
{
	for (long i = 0; !stopped(); i++) {
		churn_private(tag);
		for (int k = 0; k < 4; k++)
			churn_shared();
		add(&cnt->rounds, 1);
		if (!(i & 7))
			sched_yield();  /* one CPU: let the others in */
	}
}

static void *churn_thread(void *arg)
{
	char tag[8];

	snprintf(tag, sizeof(tag), "c%ld", (long)arg);
	churn(tag);
	return NULL;
}

/* Could the churn or the setup have made this name? */
static int valid_name(const char *n)
{
	if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "shared_f") ||
	    !strcmp(n, "shared_d") || !strcmp(n, "mv") || !strcmp(n, "mnt"))
		return 1;
	if (n[0] == 's' && n[1] >= '0' && n[1] <= '9' && n[2] >= '0' && n[2] <= '9' && !n[3])
		return atoi(n + 1) < NR_STABLE;
	return (n[0] == 'c' || n[0] == 'p') && n[1] >= '0' && n[1] <= '9' && n[2] == '_' &&
	       strchr("abdel", n[3]) && n[3] && !n[4];
}

/*
 * Read a whole listing of fd from position 0, through a small buffer,
 * into names (a name too long for a slot reads as "?"); the count, or -1.
 */
static int read_names(int fd, char names[MAX_NAMES][16])
{
	char buf[256] __attribute__((aligned(8)));
	int n = 0;
	long got;

	if (lseek(fd, 0, SEEK_SET))
		return -1;
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			struct dent64 *de = (struct dent64 *)(buf + off);

			off += de->d_reclen;
			if (n < MAX_NAMES)
				strcpy(names[n++], strlen(de->d_name) < 16 ? de->d_name : "?");
		}
	}
	return got < 0 || n == MAX_NAMES ? -1 : n;
}

/* How many of names[0..n) equal name. */
static int count_name(char names[MAX_NAMES][16], int n, const char *name)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += !strcmp(names[i], name);
	return c;
}

/* One getdents pass over fd, checked; 0 if it was right. */
static int list_pass(int fd)
{
	char names[MAX_NAMES][16], stable[8];
	int n = read_names(fd, names), wrong = 0;

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		add(&cnt->garbage, !valid_name(names[i]));
		add(&cnt->dup, count_name(names, i, names[i]) > 0);
	}
	for (int i = 0; i < NR_STABLE; i++) {
		snprintf(stable, sizeof(stable), "s%02d", i);
		wrong += count_name(names, n, stable) != 1;
	}
	add(&cnt->stable_wrong, wrong);
	return 0;
}

static void *lister(void *arg)
{
	int fd = open(D, O_RDONLY | O_DIRECTORY);

	while (!stopped() && fd >= 0)
		if (list_pass(fd) == 0)
			add(&cnt->passes, 1);
		else
			add(&cnt->garbage, 1);
	if (fd >= 0)
		close(fd);
	return arg;
}

static ino_t stable_ino[NR_STABLE];

/*
 * Open, read and stat stable names by absolute and dirfd-relative paths;
 * stat churn names, which come and go (ENOENT).
 */
static void *opener(void *arg)
{
	int dfd = open(D, O_RDONLY | O_DIRECTORY);
	char path[64], name[8], got[8];
	struct stat st;

	for (int i = 0; !stopped(); i = (i + 1) % NR_STABLE) {
		int fd, bad;

		snprintf(name, sizeof(name), "s%02d", i);
		snprintf(path, sizeof(path), D "/%s", name);
		fd = i & 1 ? open(path, O_RDONLY) : openat(dfd, name, O_RDONLY);
		bad = fd < 0 || read(fd, got, 3) != 3 || memcmp(got, name, 3);
		bad |= fstatat(dfd, name, &st, 0) || st.st_ino != stable_ino[i];
		bad |= stat(path, &st) || st.st_ino != stable_ino[i];
		if (fd >= 0)
			close(fd);
		snprintf(path, sizeof(path), D "/%s_%c", i & 1 ? "c1" : "p0", "abdle"[i % 5]);
		bad |= stat(path, &st) && errno != ENOENT;      /* a churn name: there or not */
		add(bad ? &cnt->open_bad : &cnt->opens, 1);
	}
	if (dfd >= 0)
		close(dfd);
	return arg;
}

/* Move D/mv to D2/mv and back: the cwd process's working directory. */
static void *mover(void *arg)
{
	for (long i = 0; !stopped(); i++) {
		int r = i & 1 ? rename(D2 "/mv", D "/mv") : rename(D "/mv", D2 "/mv");

		add(r ? &cnt->move_bad : &cnt->moves, 1);
		if (!(i & 7))
			sched_yield();
	}
	return arg;
}

/* Mount a tmpfs on D/mnt, make a file in it, unmount (lazily): lookups cross it meanwhile. */
static void *mounter(void *arg)
{
	while (!stopped()) {
		int fd, bad = mount("tmpfs", D "/mnt", "tmpfs", 0, "size=1M");

		fd = bad ? -1 : open(D "/mnt/f", O_CREAT | O_WRONLY, 0644);
		bad |= fd < 0 || close(fd);
		bad |= umount2(D "/mnt", MNT_DETACH);
		add(bad ? &cnt->mount_bad : &cnt->mounts, 1);
		sched_yield();
	}
	return arg;
}

/* The process whose working directory moves: relative opens and getcwd. */
static void cwd_user(const char *unused)
{
	char buf[64], c;

	(void)unused;
	while (chdir(D "/mv") && chdir(D2 "/mv"))
		if (stopped())
			_exit(1);
	while (!stopped()) {
		int fd = open("f", O_RDONLY);

		if (fd >= 0)
			add(read(fd, &c, 1) == 1 && c == 'm' ? &cnt->cwd_ok : &cnt->cwd_bad, 1);
		else
			add(errno == ENOENT ? &cnt->cwd_enoent : &cnt->cwd_bad, 1);
		if (fd >= 0)
			close(fd);
		if (!getcwd(buf, sizeof(buf)) || (strcmp(buf, D "/mv") && strcmp(buf, D2 "/mv")))
			add(&cnt->cwd_bad, 1);
	}
	_exit(0);
}

static pid_t fork_doing(void (*fn)(const char *), const char *tag)
{
	pid_t pid = fork();

	if (pid == 0) {
		fn(tag);
		_exit(0);
	}
	return pid;
}

/* The stable files (each holds its name), D/mv with its file, D/mnt, and D2. */
static int setup(void)
{
	char path[64];
	struct stat st;
	int fd;

	if (mkdir(D, 0755) || mkdir(D2, 0755) || mkdir(D "/mv", 0755) || mkdir(D "/mnt", 0755))
		return -1;
	for (int i = 0; i < NR_STABLE; i++) {
		snprintf(path, sizeof(path), D "/s%02d", i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0 || write(fd, path + strlen(D) + 1, 3) != 3 || close(fd) ||
		    stat(path, &st))
			return -1;
		stable_ino[i] = st.st_ino;
	}
	fd = open(D "/mv/f", O_CREAT | O_WRONLY, 0644);
	return fd < 0 || write(fd, "m", 1) != 1 ? -1 : close(fd);
}

/* Is name one that should be left after the churn (the shared ones as given)? */
static int expected_after(const char *name, int has_f, int has_d)
{
	if (!strcmp(name, "shared_f") || !strcmp(name, "shared_d"))
		return name[7] == 'f' ? has_f : has_d;
	return valid_name(name) && name[0] != 'c' && name[0] != 'p';
}

/* After the churn: exactly the stable names, the shared ones that exist, mv and mnt. */
static void check_after(void)
{
	int has_f = !access(D "/shared_f", F_OK), has_d = !access(D "/shared_d", F_OK);
	int want = 2 + NR_STABLE + 2 + has_f + has_d, fd = open(D, O_RDONLY | O_DIRECTORY);
	char names[MAX_NAMES][16];
	int n = fd < 0 ? -1 : read_names(fd, names), wrong = 0, st_err;
	struct stat st;

	ok(cnt->f_made - cnt->f_gone == has_f && cnt->d_made - cnt->d_gone == has_d &&
	   !cnt->shared_bad, "shared names: %ld+%ld creates, %ld+%ld removes, %d+%d left, "
	   "%ld wrong errors", cnt->f_made, cnt->d_made, cnt->f_gone, cnt->d_gone, has_f, has_d,
	   cnt->shared_bad);
	for (int i = 0; i < n; i++)
		wrong += !expected_after(names[i], has_f, has_d) || count_name(names, i, names[i]);
	if (fd >= 0)
		close(fd);
	st_err = stat(D, &st);
	ok(n == want && !wrong && !st_err && st.st_nlink == 2u + 2 + has_d &&
	   st.st_size == 20 * want,
	   "afterwards: %d names listed (want %d), %d unexpected, nlink %lu (want %d), "
	   "size %ld (want %d)", n, want, wrong, (unsigned long)st.st_nlink, 4 + has_d,
	   (long)st.st_size, 20 * want);
	unlink(D "/shared_f");
	rmdir(D "/shared_d");
}

static void cleanup(void)
{
	char path[64];

	for (int i = 0; i < NR_STABLE; i++) {
		snprintf(path, sizeof(path), D "/s%02d", i);
		unlink(path);
	}
	unlink(D "/mv/f");
	rmdir(D "/mv");
	rmdir(D "/mnt");
	rmdir(D);
	rmdir(D2);
}

static void churn_process(const char *tag)
{
	churn(tag);
}

int main(void)
{
	pthread_t t[NR_CHURN_THREADS + NR_LISTERS + 3];
	pid_t pids[2];
	int nt = 0, status, procs_ok = 1;
	uint64_t t0;

	mount_proc_sys();
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED || setup()) {
		ok(0, "set up %s", D);
		cleanup();
		return tap_done();
	}
	pids[0] = fork_doing(churn_process, "p0");
	pids[1] = fork_doing(cwd_user, NULL);
	for (long i = 0; i < NR_CHURN_THREADS; i++)
		pthread_create(&t[nt++], NULL, churn_thread, (void *)i);
	for (int i = 0; i < NR_LISTERS; i++)
		pthread_create(&t[nt++], NULL, lister, NULL);
	pthread_create(&t[nt++], NULL, opener, NULL);
	pthread_create(&t[nt++], NULL, mover, NULL);
	pthread_create(&t[nt++], NULL, mounter, NULL);
	for (t0 = now_ns(); now_ns() - t0 < CHURN_NS;)
		usleep(20000);
	cnt->stop = 1;
	for (int i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	rename(D2 "/mv", D "/mv");      /* where the mover left it */
	for (int i = 0; i < 2; i++)
		procs_ok &= waitpid(pids[i], &status, 0) == pids[i] && status == 0;
	ok(procs_ok && !cnt->bad && cnt->rounds > 0,
	   "churn: %ld rounds by 2 threads and a process, %ld failed calls%s%s", cnt->rounds,
	   cnt->bad, cnt->bad ? ", first: " : "", cnt->first_bad);
	ok(cnt->passes > 0 && !cnt->dup && !cnt->garbage && !cnt->stable_wrong,
	   "getdents: %ld passes, %ld names twice, %ld garbage, %ld stable names not seen once",
	   cnt->passes, cnt->dup, cnt->garbage, cnt->stable_wrong);
	ok(cnt->opens > 0 && !cnt->open_bad, "open/stat of stable names: %ld right, %ld wrong",
	   cnt->opens, cnt->open_bad);
	ok(cnt->moves > 0 && !cnt->move_bad && cnt->cwd_ok > 0 && !cnt->cwd_bad,
	   "moving cwd: %ld moves (%ld failed); relative opens %ld found, %ld ENOENT, %ld wrong",
	   cnt->moves, cnt->move_bad, cnt->cwd_ok, cnt->cwd_enoent, cnt->cwd_bad);
	ok(cnt->mounts > 0 && !cnt->mount_bad, "mount/umount below it: %ld, %ld failed",
	   cnt->mounts, cnt->mount_bad);
	check_after();
	cleanup();
	ok(access(D, F_OK) && access(D2, F_OK), "%s and %s removed", D, D2);
	return tap_done();
}
