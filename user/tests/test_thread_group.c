/*
 * Guest test (TAP): thread groups as Linux's — getpid is the group's,
 * gettid each thread's own; /proc/<pid>/task lists the threads and
 * /proc/<pid>/task/<tid>/ shows each (status Tgid/Pid/Threads, comm,
 * stat, maps); tgkill reaches the named thread, a process signal a thread
 * that does not block it; exit_group and a fatal signal end every thread
 * with the group's status; a leader that exits first stays unreaped
 * while its threads run; exec from a thread leaves one thread with the
 * process's PID.  Runs unchanged on Linux (../shared/peer/linux-peer.sh
 * --mounts).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

#define NTHREADS 3

static const char *self;
static sem_t stop;

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* A thread that records its TID and waits until stop is posted. */
struct member {
	pthread_t thread;
	volatile pid_t tid, pid;
};

static void *member_thread(void *arg)
{
	struct member *m = arg;

	m->pid = getpid();
	m->tid = gettid_();
	while (sem_wait(&stop))         /* EINTR: a handler ran here */
		;
	return NULL;
}

static void start_members(struct member *m, int n)
{
	for (int i = 0; i < n; i++) {
		m[i].tid = 0;
		pthread_create(&m[i].thread, NULL, member_thread, &m[i]);
	}
	for (int i = 0; i < n; i++)
		while (!m[i].tid)
			sleep_ms(1);
}

static void stop_members(struct member *m, int n)
{
	for (int i = 0; i < n; i++)
		sem_post(&stop);
	for (int i = 0; i < n; i++)
		pthread_join(m[i].thread, NULL);
}

/* The "key:" value of a /proc file, or -1. */
static long proc_field(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			v = atol(line + strlen(key));
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* Does a readable, non-empty file exist at path? */
static int has_text(const char *path)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	int n = f ? (int)fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	return n > 0;
}

static void test_ids_and_proc(void)
{
	struct member m[NTHREADS];
	char path[128];
	int distinct = 1, entries = 0, views = 0;
	DIR *d;
	struct dirent *e;

	start_members(m, NTHREADS);
	for (int i = 0; i < NTHREADS; i++)
		distinct &= m[i].pid == getpid() && m[i].tid != getpid() &&
			    (i == 0 || m[i].tid != m[i - 1].tid);
	ok(getpid() == gettid_() && distinct,
	   "getpid is the group's in every thread, gettid each thread's own");
	snprintf(path, sizeof(path), "/proc/%d/task", getpid());
	d = opendir(path);
	while (d && (e = readdir(d)))
		entries += e->d_name[0] != '.';
	if (d)
		closedir(d);
	ok(entries == NTHREADS + 1, "/proc/<pid>/task lists %d threads", entries);
	ok(proc_field("/proc/self/status", "Threads:") == NTHREADS + 1,
	   "/proc/self/status: Threads: %d", NTHREADS + 1);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", getpid(), m[1].tid);
	ok(proc_field(path, "Tgid:") == getpid() && proc_field(path, "Pid:") == m[1].tid,
	   "/proc/<pid>/task/<tid>/status: Tgid the process, Pid the thread");
	for (const char *const *f = (const char *const[]){ "comm", "stat", "maps", NULL }; *f; f++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", getpid(), m[1].tid, *f);
		views += has_text(path);
	}
	ok(views == 3, "/proc/<pid>/task/<tid>/ has comm, stat, maps");
	stop_members(m, NTHREADS);
}

static volatile pid_t handled_by;

static void record_tid(int sig)
{
	(void)sig;
	handled_by = gettid_();
}

static void test_signals(void)
{
	struct sigaction sa = { .sa_handler = record_tid };
	struct member m[2];
	sigset_t set;

	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	start_members(m, 1);            /* it does not block SIGUSR1 ... */
	pthread_sigmask(SIG_BLOCK, &set, NULL);     /* ... the main thread now does */
	handled_by = 0;
	kill(getpid(), SIGUSR1);
	for (int i = 0; i < 200 && !handled_by; i++)
		sleep_ms(1);
	ok(handled_by == m[0].tid, "kill: a thread that does not block the signal takes it");
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	stop_members(m, 1);

	start_members(m, 2);
	handled_by = 0;
	syscall(SYS_tgkill, getpid(), m[1].tid, SIGUSR1);
	for (int i = 0; i < 200 && !handled_by; i++)
		sleep_ms(1);
	ok(handled_by == m[1].tid, "tgkill: the handler runs in the thread named");
	errno = 0;
	ok(syscall(SYS_tgkill, getpid() + 100000, m[1].tid, SIGUSR1) == -1 && errno == ESRCH,
	   "tgkill with another tgid: ESRCH");
	stop_members(m, 2);
}

/* Run body in a forked child that has NTHREADS sleeping threads; its wait status. */
static int in_threaded_child(void (*body)(struct member *m), int *pid_out)
{
	int status = -1;
	pid_t pid = xfork();

	if (pid == 0) {
		struct member m[NTHREADS];

		start_members(m, NTHREADS);
		body(m);
		_exit(99);
	}
	if (pid_out)
		*pid_out = pid;
	waitpid(pid, &status, 0);
	return status;
}

static void *exiter(void *arg)
{
	sleep_ms(20);
	exit((int)(long)arg);           /* exit_group */
}

static void exit_from_thread(struct member *m)
{
	pthread_t t;

	(void)m;
	pthread_create(&t, NULL, exiter, (void *)7L);
	for (;;)
		pause();
}

static void raise_term_in_thread(struct member *m)
{
	syscall(SYS_tgkill, getpid(), m[1].tid, SIGTERM);
	for (;;)
		pause();
}

static void wait_to_be_killed(struct member *m)
{
	(void)m;
	kill(getpid(), SIGKILL);
	for (;;)
		pause();
}

static void test_group_exit(void)
{
	int status = in_threaded_child(exit_from_thread, NULL);

	ok(WIFEXITED(status) && WEXITSTATUS(status) == 7,
	   "exit_group from a thread ends all threads: status %#x", status);
	status = in_threaded_child(raise_term_in_thread, NULL);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	   "a fatal SIGTERM to one thread ends the group");
	status = in_threaded_child(wait_to_be_killed, NULL);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "SIGKILL ends every thread of the process");
}

static void *late_exiter(void *arg)
{
	(void)arg;
	sleep_ms(150);
	exit(5);
}

/* The leader exits first (pthread_exit): the process lives on, unreaped. */
static void test_leader_exits_first(void)
{
	int status = -1;
	pid_t pid = xfork(), early;

	if (pid == 0) {
		pthread_t t;

		pthread_create(&t, NULL, late_exiter, NULL);
		pthread_exit(NULL);
	}
	sleep_ms(50);
	early = waitpid(pid, &status, WNOHANG);
	ok(early == 0, "a leader that exited before its thread is not reaped yet");
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 5,
	   "wait4 reports the group's exit once the last thread is gone (%#x)", status);
}

static pid_t exec_expect_pid;

static void *exec_thread(void *arg)
{
	char pidbuf[16];
	char *argv[] = { (char *)self, "exec-child", pidbuf, NULL };

	(void)arg;
	snprintf(pidbuf, sizeof(pidbuf), "%d", exec_expect_pid);
	execv(self, argv);
	_exit(98);
}

/* exec from a thread other than the leader: one thread left, with the process's PID. */
static void test_exec_from_thread(void)
{
	int status = -1;
	pid_t pid = xfork();

	if (pid == 0) {
		struct member m[2];
		pthread_t t;

		start_members(m, 2);
		exec_expect_pid = getpid();
		pthread_create(&t, NULL, exec_thread, NULL);
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "exec from a thread: the new program has the PID and one thread (%#x)", status);
}

/* The exec'd image of test_exec_from_thread: checks and exits 0 if right. */
static int exec_child(const char *expect)
{
	int good = getpid() == atoi(expect) && gettid_() == getpid() &&
		   proc_field("/proc/self/status", "Threads:") == 1;

	return good ? 0 : 1;
}

int main(int argc, char **argv)
{
	self = argv[0];
	if (argc == 3 && !strcmp(argv[1], "exec-child"))
		return exec_child(argv[2]);
	mount_proc_sys();
	sem_init(&stop, 0, 0);
	test_signals();
	test_ids_and_proc();
	test_group_exit();
	test_leader_exits_first();
	test_exec_from_thread();
	return tap_done();
}
