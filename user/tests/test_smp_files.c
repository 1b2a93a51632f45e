/*
 * Threads that share an fd table and a working directory (CLONE_FILES,
 * CLONE_FS), on other CPUs at once:
 *
 * - a close by one thread while another is blocked in read() on the same
 *   fd: as on Linux the read holds the file, so the pipe keeps its reader,
 *   a write to the pipe succeeds (no EPIPE) and the blocked read gets the
 *   bytes.  A kernel whose system calls borrow the table's file without a
 *   reference frees the file at the close: the write then sees no reader;
 * - fd churn: one thread keeps dup2()-ing a pipe onto an fd and closing it
 *   while others fstat, read (0 bytes), lseek and fcntl that fd: each call
 *   succeeds on the pipe or fails with EBADF, never anything else, and the
 *   kernel does not crash;
 * - cwd churn: one thread keeps changing directory between two directories
 *   while others ask getcwd and open a file by a relative name: getcwd is
 *   always one of the two, the open finds the file that directory has;
 * - shared file position: threads read one regular file through one fd a
 *   few bytes at a time; as on Linux (f_pos_lock) every byte is read by
 *   exactly one of them, none twice and none skipped.
 *
 * The same static binary runs on Linux (../shared/peer/linux-peer.sh
 * --mounts: /tmp is a tmpfs there).
 */
#include "smp_util.h"
#include <fcntl.h>
#include <sys/stat.h>

#define CHURN_NS        (1500000000ULL)
#define NR_USERS        3
#define CHURN_FD        40

static int pipefd[2];
static char got[8];
static ssize_t got_len = -2;

static void *blocked_reader(void *arg)
{
	got_len = read(pipefd[0], got, 5);
	return arg;
}

/* A thread's state letter from /proc/self/task/<tid>/stat, or 0. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	if (read_text(path, buf, sizeof(buf)) || !(p = strrchr(buf, ')')))
		return 0;
	return p[2];
}

static pid_t reader_tid;

static void *blocked_reader_tid(void *arg)
{
	reader_tid = gettid();
	return blocked_reader(arg);
}

static void test_close_while_reading(void)
{
	pthread_t t;
	ssize_t w;

	if (pipe(pipefd) || pthread_create(&t, NULL, blocked_reader_tid, NULL)) {
		ok(0, "pipe and a reader thread");
		return;
	}
	for (int i = 0; i < 500 && (!reader_tid || thread_state(reader_tid) != 'S'); i++)
		usleep(2000);
	usleep(20000);
	ok(close(pipefd[0]) == 0, "close the read end while a thread is blocked reading it");
	signal(SIGPIPE, SIG_IGN);
	w = write(pipefd[1], "hello", 5);
	ok(w == 5, "a write after the close still finds the blocked reader (returned %zd, %s)",
	   w, w < 0 ? strerror(errno) : "ok");
	close(pipefd[1]);               /* if the write failed, EOF ends the read */
	pthread_join(t, NULL);
	ok(got_len == 5 && !memcmp(got, "hello", 5),
	   "the blocked read returns the 5 bytes written after the close (got %zd)", got_len);
	signal(SIGPIPE, SIG_DFL);
}

static volatile int stop;
static long bad_calls, good_calls;

static void *fd_user(void *arg)
{
	long bad = 0, good = 0;
	struct stat st;
	char c;

	while (!stop) {
		int r1 = fstat(CHURN_FD, &st), e1 = errno;
		ssize_t r2 = read(CHURN_FD, &c, 0);
		int e2 = errno;
		off_t r3 = lseek(CHURN_FD, 0, SEEK_CUR);
		int e3 = errno;
		int r4 = fcntl(CHURN_FD, F_GETFL), e4 = errno;

		good += (r1 == 0 && S_ISFIFO(st.st_mode)) + (r2 == 0) + (r4 >= 0);
		bad += (r1 && e1 != EBADF) + (r1 == 0 && !S_ISFIFO(st.st_mode)) +
		       (r2 < 0 && e2 != EBADF) + (r2 > 0) + (r3 >= 0) +
		       (r3 < 0 && e3 != ESPIPE && e3 != EBADF) + (r4 < 0 && e4 != EBADF);
	}
	__atomic_add_fetch(&bad_calls, bad, __ATOMIC_RELAXED);
	__atomic_add_fetch(&good_calls, good, __ATOMIC_RELAXED);
	return arg;
}

static void test_fd_churn(void)
{
	pthread_t t[NR_USERS];
	long rounds = 0;
	uint64_t t0;

	if (pipe(pipefd)) {
		ok(0, "pipe");
		return;
	}
	stop = 0;
	for (int i = 0; i < NR_USERS; i++)
		pthread_create(&t[i], NULL, fd_user, NULL);
	for (t0 = now_ns(); now_ns() - t0 < CHURN_NS; rounds++) {
		dup2(pipefd[rounds & 1], CHURN_FD);
		if (!(rounds & 63))
			sched_yield();  /* one CPU: let the users in while the fd is open too */
		close(CHURN_FD);
	}
	stop = 1;
	for (int i = 0; i < NR_USERS; i++)
		pthread_join(t[i], NULL);
	ok(bad_calls == 0 && good_calls > 0,
	   "fd churn: %ld dup2+close rounds, %ld calls found the pipe, %ld gave a wrong answer",
	   rounds, good_calls, bad_calls);
	close(pipefd[0]);
	close(pipefd[1]);
}

#define DIR_A   "/tmp/smp_files_a"
#define DIR_B   "/tmp/smp_files_b"

static long cwd_bad, cwd_good;

static void *cwd_user(void *arg)
{
	long bad = 0, good = 0;
	char buf[256], tag;

	while (!stop) {
		int fd = open("tag", O_RDONLY);

		if (!getcwd(buf, sizeof(buf)) || (strcmp(buf, DIR_A) && strcmp(buf, DIR_B)))
			bad++;
		if (fd < 0 || read(fd, &tag, 1) != 1 || (tag != 'a' && tag != 'b'))
			bad++;
		else
			good++;
		if (fd >= 0)
			close(fd);
	}
	__atomic_add_fetch(&cwd_bad, bad, __ATOMIC_RELAXED);
	__atomic_add_fetch(&cwd_good, good, __ATOMIC_RELAXED);
	return arg;
}

static int make_dir_with_tag(const char *dir, const char *tag)
{
	char path[64];
	int fd;

	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/tag", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, tag, 1) != 1)
		return -1;
	return close(fd);
}

static void test_cwd_churn(void)
{
	pthread_t t[NR_USERS];
	long rounds = 0;
	uint64_t t0;

	if (make_dir_with_tag(DIR_A, "a") || make_dir_with_tag(DIR_B, "b") || chdir(DIR_A)) {
		ok(0, "make %s and %s", DIR_A, DIR_B);
		return;
	}
	stop = 0;
	for (int i = 0; i < NR_USERS; i++)
		pthread_create(&t[i], NULL, cwd_user, NULL);
	for (t0 = now_ns(); now_ns() - t0 < CHURN_NS; rounds++) {
		if (chdir(rounds & 1 ? DIR_A : DIR_B))
			cwd_bad++;
		if (!(rounds & 63))
			sched_yield();  /* one CPU: let the users in */
	}
	stop = 1;
	for (int i = 0; i < NR_USERS; i++)
		pthread_join(t[i], NULL);
	ok(cwd_bad == 0 && cwd_good > 0,
	   "cwd churn: %ld chdirs, %ld relative opens found the tag, %ld wrong answers",
	   rounds, cwd_good, cwd_bad);
	chdir("/");
	unlink(DIR_A "/tag");
	unlink(DIR_B "/tag");
	rmdir(DIR_A);
	rmdir(DIR_B);
}

#define POS_FILE        "/tmp/smp_files_pos"
#define POS_WORDS       16384
#define POS_READERS     3

static int pos_fd;
static int pos_seen[POS_WORDS];         /* how often each word was read */
static long pos_odd;                    /* reads that did not return one whole word */

/* Word k of the file holds k: each 4-byte read says where it read. */
static void *pos_reader(void *arg)
{
	unsigned int word;
	ssize_t n;

	while ((n = read(pos_fd, &word, sizeof(word))) > 0) {
		if (n != sizeof(word) || word >= POS_WORDS)
			__atomic_add_fetch(&pos_odd, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&pos_seen[word], 1, __ATOMIC_RELAXED);
	}
	return arg;
}

static void test_shared_pos(void)
{
	static unsigned int words[POS_WORDS];
	pthread_t t[POS_READERS];
	int once = 0, twice = 0, never = 0;

	for (unsigned int k = 0; k < POS_WORDS; k++)
		words[k] = k;
	pos_fd = open(POS_FILE, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (pos_fd < 0 || write(pos_fd, words, sizeof(words)) != sizeof(words) ||
	    lseek(pos_fd, 0, SEEK_SET) != 0) {
		ok(0, "write %s", POS_FILE);
		return;
	}
	for (int i = 0; i < POS_READERS; i++)
		pthread_create(&t[i], NULL, pos_reader, NULL);
	for (int i = 0; i < POS_READERS; i++)
		pthread_join(t[i], NULL);
	for (int k = 0; k < POS_WORDS; k++) {
		once += pos_seen[k] == 1;
		twice += pos_seen[k] > 1;
		never += pos_seen[k] == 0;
	}
	ok(once == POS_WORDS && !pos_odd,
	   "%d threads reading one fd 4 bytes at a time: %d of %d words read once, %d more than "
	   "once, %d never, %ld odd reads", POS_READERS, once, POS_WORDS, twice, never, pos_odd);
	close(pos_fd);
	unlink(POS_FILE);
}

int main(void)
{
	mount_proc_sys();
	test_close_while_reading();
	test_fd_churn();
	test_cwd_churn();
	test_shared_pos();
	return tap_done();
}
