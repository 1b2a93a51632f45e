/*
 * Guest test (TAP): what ps, top, uptime, dmesg and id read.  /proc/self/cmdline
 * and environ (the exec's strings), /proc/uptime, /proc/loadavg,
 * /proc/stat (cpu lines, ctxt, btime, processes, procs_running), the CPU
 * times and start time in /proc/self/stat, and the credential calls
 * answering as root (getresuid, getgroups, setuid(0)...), and the kernel
 * log through syslog(2) (dmesg's klogctl); /proc/self/status's signal
 * sets (pending to the thread and the process, blocked, ignored, caught)
 * and capability sets, as ps -o and pgrep read them.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <signal.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <errno.h>
#include <grp.h>
#include <sys/klog.h>
#include <string.h>
#include <time.h>

/* Read path whole into buf (size bytes, NUL added); the length, or -1. */
static long slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	long n = 0, r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return n;
}

/* The strings of v joined with a NUL after each, as /proc shows them, into buf; the length. */
static long joined(char **v, char *buf, size_t size)
{
	long n = 0;

	for (; *v && n + strlen(*v) + 1 < size; v++) {
		memcpy(buf + n, *v, strlen(*v) + 1);
		n += strlen(*v) + 1;
	}
	return n;
}

static void test_args(char **argv, char **envp)
{
	static char got[8192], want[8192];
	long n = slurp("/proc/self/cmdline", got, sizeof(got)), w = joined(argv, want, sizeof(want));

	ok(n == w && !memcmp(got, want, n), "/proc/self/cmdline is argv, NUL after each (%ld bytes)", n);
	n = slurp("/proc/self/environ", got, sizeof(got));
	w = joined(envp, want, sizeof(want));
	ok(n == w && !memcmp(got, want, n), "/proc/self/environ is the exec's envp (%ld bytes)", n);
}

/* Spin in user mode for about ms milliseconds of wall time. */
static void spin(long ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static void test_system_files(void)
{
	static char buf[16384];
	double up, idle, l1, l5, l15;
	unsigned long long user, nice, sys, cidle, ctxt, btime;
	int running, total, last, procs, prun;
	char *p;

	ok(slurp("/proc/uptime", buf, sizeof(buf)) > 0 &&
	   sscanf(buf, "%lf %lf", &up, &idle) == 2 && up > 0 && idle >= 0,
	   "/proc/uptime: seconds up and idle");
	ok(slurp("/proc/loadavg", buf, sizeof(buf)) > 0 &&
	   sscanf(buf, "%lf %lf %lf %d/%d %d", &l1, &l5, &l15, &running, &total, &last) == 6 &&
	   running >= 1 && total >= running && last > 0,
	   "/proc/loadavg: three averages, running/total, the last pid");
	{
		struct sysinfo si;

		ok(!sysinfo(&si) && si.loads[2] / 65536.0 > l15 - 0.02 && si.loads[2] / 65536.0 < l15 + 0.02 &&
		   si.procs >= total / 2, "sysinfo: the 15-minute load as /proc/loadavg's (%.2f), %u threads",
		   si.loads[2] / 65536.0, si.procs);
	}
	slurp("/proc/stat", buf, sizeof(buf));
	ok(sscanf(buf, "cpu %llu %llu %llu %llu", &user, &nice, &sys, &cidle) == 4 &&
	   strstr(buf, "\ncpu0 "), "/proc/stat: the cpu line and cpu0");
	p = strstr(buf, "\nctxt ");
	ok(p && sscanf(p, "\nctxt %llu", &ctxt) == 1 && ctxt > 0, "/proc/stat: ctxt");
	p = strstr(buf, "\nbtime ");
	ok(p && sscanf(p, "\nbtime %llu", &btime) == 1 &&
	   (long long)btime >= (long long)(time(NULL) - up) - 2 &&
	   (long long)btime <= (long long)(time(NULL) - up) + 2,
	   "/proc/stat: btime is the boot's wall-clock second");
	p = strstr(buf, "\nprocesses ");
	ok(p && sscanf(p, "\nprocesses %d\nprocs_running %d", &procs, &prun) == 2 && procs > 0 &&
	   prun >= 1, "/proc/stat: processes, procs_running");
}

/* Fields 14, 15 (utime, stime) and 22 (starttime) of /proc/self/stat, in clock ticks. */
static int self_times(unsigned long *utime, unsigned long *stime, unsigned long long *start)
{
	char buf[1024], *p;

	if (slurp("/proc/self/stat", buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	return sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %*d %*d %*d %*d "
		      "%*d %*d %llu", utime, stime, start) == 3 ? 0 : -1;
}

static void test_self_stat(void)
{
	unsigned long utime, stime;
	unsigned long long start;
	double up;
	char buf[64];

	spin(300);
	slurp("/proc/uptime", buf, sizeof(buf));
	sscanf(buf, "%lf", &up);
	ok(self_times(&utime, &stime, &start) == 0 && utime + stime > 0 && utime + stime <= 100 * up &&
	   start <= (unsigned long long)(100 * up),
	   "/proc/self/stat: utime+stime after a 300 ms spin (%lu+%lu), starttime (%llu)", utime,
	   stime, start);
}

static void test_creds(void)
{
	uid_t r = 1, e = 1, s = 1;
	gid_t gr = 1, ge = 1, gs = 1;

	ok(getresuid(&r, &e, &s) == 0 && !r && !e && !s && getresgid(&gr, &ge, &gs) == 0 &&
	   !gr && !ge && !gs, "getresuid, getresgid: root");
	ok(getgroups(0, NULL) >= 0, "getgroups answers (%d groups)", getgroups(0, NULL));
	ok(setuid(0) == 0 && setgid(0) == 0 && setresuid(-1, 0, -1) == 0 && setreuid(0, 0) == 0,
	   "root may stay root: setuid(0), setgid(0), setresuid, setreuid");
}

static void test_syslog(void)
{
	static char buf[1 << 17];
	int size = klogctl(10, NULL, 0), n = size > 0 ? klogctl(3, buf, size) : -1, m;

	ok(size >= 4096 && n > 0 && n <= size && buf[n - 1] == '\n',
	   "syslog: the log's size (%d), READ_ALL gives whole lines (%d bytes)", size, n);
	m = klogctl(3, buf, 100);
	ok(m >= 0 && m <= 100 && (!m || buf[0] == '<' || buf[0] == '['),
	   "READ_ALL into 100 bytes: the last whole lines that fit (%d bytes)", m);
	errno = 0;
	ok(klogctl(99, buf, 1) == -1 && errno == EINVAL, "syslog of an unknown action: EINVAL");
}

static void on_hup(int sig)
{
	(void)sig;
}

/* The hex value of status's line "name:\t..." in buf, or ~0 if there is none. */
static unsigned long long status_hex(const char *buf, const char *name)
{
	const char *p = strstr(buf, name);

	return p ? strtoull(p + strlen(name) + 2, NULL, 16) : ~0ULL;
}

static void test_status_sigs(void)
{
	static char buf[4096];
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, on_hup);
	raise(SIGUSR1);                         /* to this thread */
	kill(getpid(), SIGUSR2);                /* to the process */
	slurp("/proc/self/status", buf, sizeof(buf));
	ok(status_hex(buf, "SigPnd") == 1ULL << (SIGUSR1 - 1) &&
	   status_hex(buf, "ShdPnd") == 1ULL << (SIGUSR2 - 1) &&
	   (status_hex(buf, "SigBlk") & 0xffffffffULL) == ((1ULL << (SIGUSR1 - 1)) | (1ULL << (SIGUSR2 - 1))) &&
	   (status_hex(buf, "SigBlk") >> (SIGRTMIN + 1 - 1) & 1) &&
	   (status_hex(buf, "SigIgn") >> (SIGPIPE - 1) & 1) && (status_hex(buf, "SigCgt") >> (SIGHUP - 1) & 1),
	   "status: SigPnd, ShdPnd, SigBlk, SigIgn, SigCgt");
	ok(status_hex(buf, "CapEff") != ~0ULL && (status_hex(buf, "CapEff") & 1) &&
	   status_hex(buf, "CapBnd") == status_hex(buf, "CapPrm") && status_hex(buf, "CapInh") == 0 &&
	   strstr(buf, "NoNewPrivs:\t0\n"), "status: root's capability sets, NoNewPrivs 0");
	signal(SIGUSR1, SIG_IGN);               /* the pending ones go, unblocked */
	signal(SIGUSR2, SIG_IGN);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

int main(int argc, char **argv, char **envp)
{
	(void)argc;
	mount_proc_sys();
	test_args(argv, envp);
	test_system_files();
	test_self_stat();
	test_creds();
	test_syslog();
	test_status_sigs();
	return tap_done();
}
