/*
 * Guest test (TAP): the scheduler's system calls as Linux's.
 * sched_getaffinity shows the online CPUs (those of
 * /sys/devices/system/cpu/online where it exists) in one long, with
 * EINVAL for a short or odd size; sched_setaffinity to each CPU in turn
 * moves the caller there (getcpu and /proc/self/stat field 39 say so,
 * /proc/self/status shows Cpus_allowed_list), EINVAL for an empty or
 * offline-only mask, ESRCH for no such pid; a child pinned by its parent
 * runs on that CPU; two processes ping-pong through pipes with
 * sched_yield; a blocked pipe reader and wait4 wake when their event
 * comes.  Latency on one CPU shared with 4 threads that live in system
 * calls (reads of /dev/zero back to back: almost all their time is in the
 * kernel, where the tick used to go unseen): a 20 ms nanosleep ends
 * within 60 ms, a child forked by a parent that stays in system calls
 * runs within 100 ms (the tick reaches the scheduler wherever it lands,
 * issue 31); the
 * fork+exit+wait time beside them is printed (rdtsc: cycles under
 * --icount).  On two CPUs or more: a reader that slept on a pipe, woken
 * by a writer on another CPU while its own CPU is busy with a spinner,
 * runs at once (wakeup preemption), not at that CPU's next tick.  Runs unchanged on Linux (linux-peer.sh --mounts --smp 4).
 * Locks: none of its own; its threads meet at the stop flag and join.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <x86intrin.h>
#include "tap.h"

#define NR_BUSY 4

static long raw_getaffinity(int pid, unsigned long len, void *mask)
{
	long r = syscall(SYS_sched_getaffinity, pid, len, mask);

	return r < 0 ? -errno : r;
}

static long raw_setaffinity(int pid, unsigned long len, const void *mask)
{
	long r = syscall(SYS_sched_setaffinity, pid, len, mask);

	return r < 0 ? -errno : r;
}

static int raw_getcpu(void)
{
	unsigned int cpu = ~0u, node = ~0u;

	if (syscall(SYS_getcpu, &cpu, &node, NULL))
		return -errno;
	return node == 0 ? (int)cpu : -1;
}

/* The online CPUs from /sys/devices/system/cpu/online ("0-3,5"), or 0 if it is not there. */
static unsigned long sysfs_online(void)
{
	char buf[128] = "", *p = buf;
	unsigned long mask = 0;
	int fd = open("/sys/devices/system/cpu/online", O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	close(fd);
	while (*p >= '0' && *p <= '9') {
		long a = strtol(p, &p, 10), b = a;

		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		for (long c = a; c <= b && c < 64; c++)
			mask |= 1UL << c;
		if (*p == ',')
			p++;
	}
	return mask;
}

/* Field 39 of /proc/self/stat (processor), or -1. */
static int stat_processor(void)
{
	char buf[1024] = "", *p;
	int fd = open("/proc/self/stat", O_RDONLY), field = 2;

	if (fd < 0)
		return -1;
	buf[read(fd, buf, sizeof(buf) - 1) > 0 ? strlen(buf) : 0] = 0;
	close(fd);
	p = strrchr(buf, ')');
	for (p = p ? strtok(p + 1, " ") : NULL; p; p = strtok(NULL, " "))
		if (++field == 39)
			return atoi(p);
	return -1;
}

/* The Cpus_allowed_list line of /proc/self/status, or "". */
static void status_cpus_list(char *out, size_t size)
{
	static char buf[4096];
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	char *p;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strstr(buf, "Cpus_allowed_list:");
	snprintf(out, size, "%.*s", p ? (int)strcspn(p + 18, "\n") : 0, p ? p + 18 : "");
	for (p = out; *p == '\t' || *p == ' '; )
		memmove(p, p + 1, strlen(p));
}

static void test_getaffinity(unsigned long *online)
{
	unsigned long mask[16] = { 0 }, sys = sysfs_online();
	long r = raw_getaffinity(0, sizeof(mask), mask);

	ok(r == sizeof(long) && mask[0] != 0, "sched_getaffinity returns one long (%ld), a CPU set", r);
	*online = mask[0];
	if (sys)
		ok(mask[0] == sys, "it is the online CPUs (%#lx, sysfs %#lx)", mask[0], sys);
	else
		skip("no /sys/devices/system/cpu/online");
	ok(raw_getaffinity(0, 4, mask) == -EINVAL, "size not a multiple of a long: EINVAL");
	ok(raw_getaffinity(0, 0, mask) == -EINVAL, "size 0: EINVAL");
	ok(raw_getaffinity(0, sizeof(long), (void *)1) == -EFAULT, "bad address: EFAULT");
	ok(raw_getaffinity(INT_MAX, sizeof(mask), mask) == -ESRCH, "no such pid: ESRCH");
	ok(sched_getcpu() >= 0 && (*online >> sched_getcpu() & 1), "sched_getcpu is an online CPU");
}

static void test_setaffinity(unsigned long online)
{
	unsigned long none = 0, far = 1UL << 63, all = ~0UL;
	int moved = 0, want = 0;
	char list[64];

	ok(raw_setaffinity(0, sizeof(long), &none) == -EINVAL, "empty mask: EINVAL");
	ok(raw_setaffinity(0, sizeof(long), &far) == -EINVAL, "only an offline CPU: EINVAL");
	ok(raw_setaffinity(INT_MAX, sizeof(long), &all) == -ESRCH, "no such pid: ESRCH");
	ok(raw_setaffinity(0, sizeof(long), NULL) == -EFAULT, "bad address: EFAULT");
	for (int cpu = 0; cpu < 64; cpu++) {
		unsigned long one = 1UL << cpu;
		char expect[16];

		if (!(online & one))
			continue;
		want++;
		snprintf(expect, sizeof(expect), "%d", cpu);
		status_cpus_list(list, sizeof(list));
		if (raw_setaffinity(0, sizeof(long), &one) == 0 && raw_getcpu() == cpu &&
		    sched_getcpu() == cpu && stat_processor() == cpu &&
		    (status_cpus_list(list, sizeof(list)), !strcmp(list, expect)))
			moved++;
	}
	ok(moved == want, "pinned to each online CPU in turn, getcpu, stat and status follow (%d/%d)",
	   moved, want);
	ok(raw_setaffinity(0, sizeof(all), &all) == 0 && raw_getaffinity(0, sizeof(long), &none) == 8 &&
	   none == online, "all CPUs again: the mask reads back as the online ones");
}

/* The parent pins its child (by pid) to the last online CPU; the child reports where it runs. */
static void test_pin_child(unsigned long online)
{
	int cpu = 63 - __builtin_clzl(online), fds[2], got = -1, status;
	unsigned long one = 1UL << cpu;
	char go;
	pid_t pid;

	xpipe(fds, 0);
	pid = xfork();
	if (pid == 0) {
		read(fds[0], &go, 1);
		got = sched_getcpu();
		write(fds[1], &got, sizeof(got));
		_exit(0);
	}
	ok(raw_setaffinity(pid, sizeof(one), &one) == 0, "setaffinity of a child by pid");
	write(fds[1], "g", 1);
	waitpid(pid, &status, 0);
	read(fds[0], &got, sizeof(got));
	close(fds[0]);
	close(fds[1]);
	ok(got == cpu, "the child ran on CPU %d (%d)", cpu, got);
}

/* Parent and child on one CPU bounce a counter through two pipes, yielding each round. */
static void test_yield_pingpong(void)
{
	int ab[2], ba[2], n = 0, status, rounds = 200, ok_rounds = 0;
	unsigned long cpu0 = 1;
	pid_t pid;

	xpipe(ab, 0);
	xpipe(ba, 0);
	raw_setaffinity(0, sizeof(cpu0), &cpu0);
	pid = xfork();
	if (pid == 0) {
		while (read(ab[0], &n, sizeof(n)) == sizeof(n) && n < 2 * rounds) {
			sched_yield();
			n++;
			write(ba[1], &n, sizeof(n));
		}
		_exit(0);
	}
	for (int i = 0; i < rounds; i++) {
		int sent = 2 * i;

		write(ab[1], &sent, sizeof(sent));
		ok_rounds += sched_yield() == 0 && read(ba[0], &n, sizeof(n)) == sizeof(n) && n == sent + 1;
	}
	n = 2 * rounds;
	write(ab[1], &n, sizeof(n));
	waitpid(pid, &status, 0);
	ok(ok_rounds == rounds && WIFEXITED(status), "sched_yield ping-pong over pipes: %d/%d rounds",
	   ok_rounds, rounds);
	close(ab[0]), close(ab[1]), close(ba[0]), close(ba[1]);
	cpu0 = ~0UL;
	raw_setaffinity(0, sizeof(cpu0), &cpu0);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* A reader blocked on an empty pipe wakes for a late write, then sees EOF; wait4 wakes for a late exit. */
static void test_wakeups(void)
{
	int fds[2], status = 0;
	char c = 0;
	pid_t pid;

	xpipe(fds, 0);
	pid = xfork();
	if (pid == 0) {
		close(fds[0]);
		sleep_ms(50);
		write(fds[1], "x", 1);
		sleep_ms(50);
		_exit(7);
	}
	close(fds[1]);
	ok(read(fds[0], &c, 1) == 1 && c == 'x', "a blocked pipe reader wakes for the write");
	ok(read(fds[0], &c, 1) == 0, "and for the writer's exit (EOF)");
	pid = waitpid(pid, &status, 0) == pid ? pid : -1;
	ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 7,
	   "wait4 wakes for the child's exit (status %#x)", status);
	close(fds[0]);
}

/* The threads that live in system calls, until busy_stop. */
static volatile int busy_stop;
static pthread_t busy[NR_BUSY];
static int zero_fd;

/* One system call that keeps the CPU in the kernel: a 16 KiB read of /dev/zero. */
static void kernel_work(void)
{
	static __thread char buf[16384];

	read(zero_fd, buf, sizeof(buf));
}

static void *syscall_loop(void *arg)
{
	while (!busy_stop)
		kernel_work();
	return arg;
}

static void busy_start(void)
{
	busy_stop = 0;
	for (int i = 0; i < NR_BUSY; i++)
		pthread_create(&busy[i], NULL, syscall_loop, NULL);
}

static void busy_end(void)
{
	busy_stop = 1;
	for (int i = 0; i < NR_BUSY; i++)
		pthread_join(busy[i], NULL);
}

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* Ten 20 ms sleeps beside the busy threads: the worst must end within 60 ms. */
static void test_sleep_beside_syscalls(void)
{
	long worst = 0;

	busy_start();
	for (int i = 0; i < 10; i++) {
		long t0 = now_us();

		sleep_ms(20);
		t0 = now_us() - t0;
		worst = t0 > worst ? t0 : worst;
	}
	busy_end();
	ok(worst < 60000, "20 ms nanosleeps beside %d threads in system calls: worst %ld us",
	   NR_BUSY, worst);
}

/*
 * The parent stays in system calls for 300 ms after fork, beside the busy
 * threads; the child reports when it first ran: within 100 ms (a turn
 * after each of the five, at most).
 */
static void test_child_runs_beside_syscalls(void)
{
	long t_fork, t_child = -1;
	int fds[2];
	pid_t pid;

	xpipe(fds, 0);
	busy_start();
	t_fork = now_us();
	pid = xfork();
	if (pid == 0) {
		t_child = now_us();
		write(fds[1], &t_child, sizeof(t_child));
		_exit(0);
	}
	while (now_us() - t_fork < 300000)
		for (int i = 0; i < 100; i++)
			kernel_work();
	busy_end();
	read(fds[0], &t_child, sizeof(t_child));
	waitpid(pid, NULL, 0);
	close(fds[0]);
	close(fds[1]);
	ok(t_child >= t_fork && t_child - t_fork < 100000,
	   "a child forked by a parent in system calls, beside %d threads in them, ran after %ld us",
	   NR_BUSY, t_child - t_fork);
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/* fork + child _exit + waitpid beside the busy threads: printed, median of 5. */
static void test_fork_exit_beside_syscalls(void)
{
	unsigned long long t[5];
	int reaped = 0;

	busy_start();
	for (int r = 0; r < 5; r++) {
		unsigned long long t0 = __rdtsc();
		pid_t pid = xfork();

		if (pid == 0)
			_exit(0);
		reaped += waitpid(pid, NULL, 0) == pid;
		t[r] = __rdtsc() - t0;
	}
	busy_end();
	qsort(t, 5, sizeof(t[0]), cmp_ull);
	printf("# fork+exit+wait beside %d threads in system calls: %llu cycles (median of 5)\n",
	       NR_BUSY, t[2]);
	ok(reaped == 5, "fork+exit+wait beside threads in system calls: %d/5 reaped", reaped);
}

/* The latency tests on one CPU (the first allowed), so that all compete for it. */
static void test_latency_on_one_cpu(unsigned long online)
{
	unsigned long one = online & -online, all = ~0UL;

	zero_fd = open("/dev/zero", O_RDONLY);
	raw_setaffinity(0, sizeof(one), &one);
	test_sleep_beside_syscalls();
	test_child_runs_beside_syscalls();
	test_fork_exit_beside_syscalls();
	raw_setaffinity(0, sizeof(all), &all);
	close(zero_fd);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* A child on CPU cpu (a bit of online) that runs fn, then exits. */
static pid_t pinned_child(unsigned long cpu, void (*fn)(int), int arg)
{
	pid_t pid = xfork();

	if (pid == 0) {
		raw_setaffinity(0, sizeof(cpu), &cpu);
		fn(arg);
		_exit(0);
	}
	return pid;
}

static void spin_forever(int unused)
{
	(void)unused;
	for (;;)
		;
}

/* Write the time to fd every 15 ms (longer than a tick), WAKE_ROUNDS times. */
#define WAKE_ROUNDS     20
static void write_times(int fd)
{
	for (int i = 0; i < WAKE_ROUNDS; i++) {
		long t;

		sleep_ms(15);
		t = now_us();
		write(fd, &t, sizeof(t));
	}
}

static void test_wakeup_preempts(unsigned long online)
{
	unsigned long first = online & -online, second = (online & ~first) & -(online & ~first);
	unsigned long all = ~0UL;
	long lat[WAKE_ROUNDS], t;
	pid_t spinner, writer;
	int fds[2], got = 0;

	if (!second) {
		ok(1, "# SKIP wakeup preemption needs two CPUs");
		return;
	}
	xpipe(fds, 0);
	raw_setaffinity(0, sizeof(first), &first);
	spinner = pinned_child(first, spin_forever, 0);
	writer = pinned_child(second, write_times, fds[1]);
	while (got < WAKE_ROUNDS && read(fds[0], &t, sizeof(t)) == sizeof(t))
		lat[got++] = now_us() - t;
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	waitpid(writer, NULL, 0);
	raw_setaffinity(0, sizeof(all), &all);
	close(fds[0]);
	close(fds[1]);
	qsort(lat, got, sizeof(lat[0]), cmp_long);
	ok(got == WAKE_ROUNDS && lat[got / 2] < 2000,
	   "a sleeping reader woken from another CPU preempts a spinner: median %ld us",
	   got ? lat[got / 2] : -1L);
}

int main(void)
{
	unsigned long online = 0;

	mount_proc_sys();
	test_getaffinity(&online);
	test_setaffinity(online);
	test_pin_child(online);
	test_yield_pingpong();
	test_wakeups();
	test_latency_on_one_cpu(online);
	test_wakeup_preempts(online);
	ok(sched_yield() == 0, "sched_yield returns 0");
	return tap_done();
}
