/*
 * Guest test (TAP): job control as Linux has it.  Stopping and continuing
 * a process (SIGSTOP, SIGTSTP, SIGCONT, SIGKILL of a stopped one; every
 * thread stops), what the parent sees (wait4 with WUNTRACED and
 * WCONTINUED, each reported once; waitid's CLD_STOPPED/CLD_CONTINUED;
 * SIGCHLD's si_code, none on a stop with SA_NOCLDSTOP), a handler or
 * SIG_IGN for SIGTSTP, orphaned process groups (SIGTSTP discarded;
 * SIGHUP then SIGCONT when a group with a stopped member is orphaned),
 * sessions (setsid, getsid, setpgid's EPERM), and the terminal:
 * /dev/ttyS0 becomes a session leader's controlling tty, /dev/tty names
 * it, TIOCGPGRP/TIOCSPGRP/TIOCGSID, a background read gets SIGTTIN (EIO
 * when ignored), ^Z stops the foreground group, TIOCNOTTY and the
 * leader's exit let the tty go.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh); as PID 1 there
 * it runs the tests in a child, whose children have a parent in the
 * session (a child of init is orphaned).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

/* The state letter of /proc/<pid>/stat, or '?' if it cannot be read. */
static char state_of(pid_t pid)
{
	char path[64], buf[256], *p;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] ? p[2] : '?';
}

/* Poll up to 5 s for pid's state to become want; the state last seen. */
static char wait_state(pid_t pid, char want)
{
	char s = '?';

	for (int i = 0; i < 500 && (s = state_of(pid)) != want; i++)
		usleep(10000);
	return s;
}

/* A child that sleeps until killed; in a process group of its own if asked. */
static pid_t spawn_sleeper(bool own_group)
{
	pid_t pid = xfork();

	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		for (;;)
			pause();
	}
	if (own_group)
		setpgid(pid, pid);              /* both sides: no race with the signals below */
	return pid;
}

/* Kill pid and reap it; its wait status. */
static int kill_reap(pid_t pid)
{
	int st = 0;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return st;
}

static volatile int chld_code, chld_status, chld_count;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_count++;
}

static void set_chld_handler(int flags)
{
	struct sigaction sa = { .sa_sigaction = on_chld, .sa_flags = SA_SIGINFO | SA_RESTART | flags };

	sigaction(SIGCHLD, &sa, NULL);
}

static void test_stop_continue(void)
{
	pid_t pid;
	int st = 0;

	set_chld_handler(0);
	pid = spawn_sleeper(false);
	chld_count = 0;
	kill(pid, SIGSTOP);
	ok(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	   "SIGSTOP: wait4 with WUNTRACED reports the stop");
	ok(wait_state(pid, 'T') == 'T', "/proc/<pid>/stat says T (stopped)");
	ok(chld_count == 1 && chld_code == CLD_STOPPED && chld_status == SIGSTOP,
	   "SIGCHLD with CLD_STOPPED and the stop signal (code %d status %d)", chld_code,
	   chld_status);
	ok(waitpid(pid, &st, WUNTRACED | WNOHANG) == 0, "a stop is reported once");
	kill(pid, SIGCONT);
	st = 0;
	ok(waitpid(pid, &st, WCONTINUED) == pid && WIFCONTINUED(st),
	   "SIGCONT: wait4 with WCONTINUED reports it");
	ok(chld_code == CLD_CONTINUED && chld_status == SIGCONT,
	   "SIGCHLD with CLD_CONTINUED and SIGCONT (code %d status %d)", chld_code, chld_status);
	ok(waitpid(pid, &st, WCONTINUED | WNOHANG) == 0 && wait_state(pid, 'S') == 'S',
	   "a continue is reported once; the child sleeps again (S)");
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	st = kill_reap(pid);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "SIGKILL ends a stopped process");

	set_chld_handler(SA_NOCLDSTOP);
	pid = spawn_sleeper(false);
	chld_count = 0;
	kill(pid, SIGSTOP);
	ok(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) && chld_count == 0,
	   "SA_NOCLDSTOP: no SIGCHLD for a stop, wait4 still reports it");
	kill_reap(pid);
	signal(SIGCHLD, SIG_DFL);
}

static void test_waitid_tstp(void)
{
	pid_t pid = spawn_sleeper(true);
	siginfo_t si = { 0 };

	kill(pid, SIGTSTP);
	ok(waitid(P_PID, pid, &si, WSTOPPED) == 0 && si.si_code == CLD_STOPPED &&
	   si.si_status == SIGTSTP && si.si_pid == pid,
	   "SIGTSTP stops a group with a parent in the session: waitid CLD_STOPPED");
	kill(pid, SIGCONT);
	memset(&si, 0, sizeof(si));
	ok(waitid(P_PID, pid, &si, WCONTINUED) == 0 && si.si_code == CLD_CONTINUED &&
	   si.si_status == SIGCONT, "waitid CLD_CONTINUED");
	kill_reap(pid);
}

static int tstp_pipe[2];

static void on_tstp(int sig)
{
	(void)sig;
	write(tstp_pipe[1], "t", 1);
}

static void test_tstp_caught(void)
{
	char c = 0;
	pid_t pid;

	pipe(tstp_pipe);
	pid = xfork();
	if (pid == 0) {
		signal(SIGTSTP, on_tstp);
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	usleep(50000);
	kill(pid, SIGTSTP);
	ok(read(tstp_pipe[0], &c, 1) == 1 && c == 't' && wait_state(pid, 'S') == 'S',
	   "SIGTSTP with a handler runs it; no stop");
	kill_reap(pid);
	pid = xfork();
	if (pid == 0) {
		signal(SIGTSTP, SIG_IGN);
		setpgid(0, 0);
		write(tstp_pipe[1], "r", 1);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	read(tstp_pipe[0], &c, 1);
	kill(pid, SIGTSTP);
	usleep(100000);
	ok(state_of(pid) == 'S', "an ignored SIGTSTP does not stop");
	kill(pid, SIGSTOP);
	ok(wait_state(pid, 'T') == 'T', "SIGSTOP stops it all the same");
	kill_reap(pid);
	close(tstp_pipe[0]);
	close(tstp_pipe[1]);
}

static volatile long *counters;

static void *count_forever(void *arg)
{
	long i = (long)arg;

	for (;;)
		counters[i]++;
	return NULL;
}

/* Two threads counting: a stop stops both, a continue restarts both. */
static void test_threads(void)
{
	long before[2];
	pthread_t t;
	pid_t pid;
	int st;

	counters = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = xfork();
	if (pid == 0) {
		pthread_create(&t, NULL, count_forever, (void *)1L);
		count_forever((void *)0L);
	}
	while (!counters[0] || !counters[1])
		usleep(1000);
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	before[0] = counters[0];
	before[1] = counters[1];
	usleep(100000);
	ok(WIFSTOPPED(st) && counters[0] == before[0] && counters[1] == before[1],
	   "SIGSTOP stops every thread of the process");
	kill(pid, SIGCONT);
	for (int i = 0; i < 500 && (counters[0] == before[0] || counters[1] == before[1]); i++)
		usleep(10000);
	ok(counters[0] != before[0] && counters[1] != before[1],
	   "SIGCONT continues every thread");
	kill_reap(pid);
	munmap((void *)counters, 4096);
}

static int hup_pipe[2];

static void on_hup(int sig)
{
	(void)sig;
	write(hup_pipe[1], "h", 1);
	_exit(0);
}

/*
 * A grandchild in a group of its own, whose parent (in another group)
 * exits: the group is orphaned.  The grandchild's pid comes back through
 * pipe p, the middle process is reaped.  Stopped first if asked.
 */
static pid_t orphan_grandchild(int p[2], bool stopped)
{
	pid_t mid = xfork(), g;
	int st;

	if (mid == 0) {
		g = xfork();
		if (g == 0) {
			setpgid(0, 0);
			for (;;)
				pause();
		}
		setpgid(g, g);
		if (stopped) {
			kill(g, SIGSTOP);
			waitpid(g, &st, WUNTRACED);
		}
		write(p[1], &g, sizeof(g));
		_exit(0);                       /* orphans g's group */
	}
	waitpid(mid, &st, 0);
	return read(p[0], &g, sizeof(g)) == sizeof(g) ? g : -1;
}

/*
 * Orphaned groups: a stopped member gets SIGHUP and SIGCONT when its
 * group is orphaned (its handler, inherited, reports through hup_pipe);
 * SIGTSTP to an orphaned group is discarded.
 */
static void test_orphaned(void)
{
	int p[2];
	pid_t g;
	char c = 0;

	pipe(p);
	pipe(hup_pipe);
	signal(SIGHUP, on_hup);                 /* inherited, set before the stop */
	g = orphan_grandchild(p, true);
	signal(SIGHUP, SIG_DFL);
	close(hup_pipe[1]);
	ok(g > 0 && read(hup_pipe[0], &c, 1) == 1 && c == 'h',
	   "orphaning a group with a stopped member sends SIGHUP and SIGCONT");
	close(hup_pipe[0]);
	g = orphan_grandchild(p, false);
	kill(g, SIGTSTP);
	usleep(100000);
	ok(g > 0 && state_of(g) == 'S', "SIGTSTP to an orphaned group is discarded (state %c)",
	   state_of(g));
	kill(g, SIGSTOP);
	ok(wait_state(g, 'T') == 'T', "SIGSTOP stops an orphaned group's member");
	kill(g, SIGKILL);
	close(p[0]);
	close(p[1]);
}

static void test_sessions(void)
{
	int p[2], st;
	pid_t pid;
	long got[3];

	pid = xfork();
	if (pid == 0) {
		setpgid(0, 0);
		errno = 0;
		_exit(setsid() == -1 && errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "setsid by a process group leader: EPERM");
	pipe(p);
	pid = xfork();
	if (pid == 0) {
		got[0] = setsid();
		got[1] = getsid(0);
		got[2] = getpgid(0);
		write(p[1], got, sizeof(got));
		errno = 0;
		_exit(setpgid(0, getppid()) == -1 && errno == EPERM ? 0 : 1);
	}
	read(p[0], got, sizeof(got));
	waitpid(pid, &st, 0);
	ok(got[0] == pid && got[1] == pid && got[2] == pid,
	   "setsid: a new session and group, both the caller's pid");
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a session leader cannot change its group: EPERM");
	ok(getsid(pid) == -1 && errno == ESRCH, "getsid of a reaped process: ESRCH");
	close(p[0]);
	close(p[1]);
}

/* In a child: open /dev/ttyS0 as a new session's leader; the fd or -1. */
static int open_ctty(void)
{
	setsid();
	return open("/dev/ttyS0", O_RDWR);
}

/* A child of the session leader in its own group: reads tty (ignoring SIGTTIN if asked). */
static pid_t spawn_reader(int tty, bool ignore)
{
	pid_t pid = xfork();
	char c;

	if (pid == 0) {
		setpgid(0, 0);
		if (ignore)
			signal(SIGTTIN, SIG_IGN);
		errno = 0;
		_exit(read(tty, &c, 1) == -1 && errno == EIO ? 3 : 4);
	}
	setpgid(pid, pid);
	return pid;
}

/* The session leader's checks, as exit status bits: bit n set = check n failed. */
static int tty_leader(void)
{
	int tty = open_ctty(), fd, st, fails = 0;
	struct termios saved, quiet;
	pid_t pid;

	if (tty < 0)
		return 0xff;
	fd = open("/dev/tty", O_RDWR);
	fails |= (tcgetsid(tty) != getpid() || tcgetpgrp(tty) != getpid() || fd < 0) << 0;
	close(fd);
	pid = spawn_reader(tty, false);
	fails |= !(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) &&
		   WSTOPSIG(st) == SIGTTIN) << 1;
	kill_reap(pid);
	pid = spawn_reader(tty, true);
	fails |= !(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 3) << 2;
	errno = 0;
	fails |= !(tcsetpgrp(tty, 99999) == -1 && errno == ESRCH) << 3;
	tcgetattr(tty, &saved);
	quiet = saved;
	quiet.c_lflag &= ~(ECHO | ECHOCTL);
	tcsetattr(tty, TCSANOW, &quiet);
	pid = spawn_sleeper(true);
	fails |= !(tcsetpgrp(tty, pid) == 0 && tcgetpgrp(tty) == pid) << 4;
	ioctl(tty, TIOCSTI, "\032");            /* ^Z, as typed */
	fails |= !(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) &&
		   WSTOPSIG(st) == SIGTSTP) << 5;
	signal(SIGTTOU, SIG_IGN);               /* as a shell does, to take the foreground back */
	fails |= !(tcsetpgrp(tty, getpid()) == 0 && tcgetpgrp(tty) == getpid()) << 6;
	tcsetattr(tty, TCSANOW, &saved);
	kill_reap(pid);
	signal(SIGHUP, SIG_IGN);                /* TIOCNOTTY hangs up the foreground: us */
	fails |= !(ioctl(tty, TIOCNOTTY) == 0 && open("/dev/tty", O_RDWR) == -1 &&
		   errno == ENXIO) << 7;
	return fails;
}

/* Does a new session leader (a child, which exits at once) get the terminal? */
static bool leader_takes_tty(void)
{
	pid_t pid = xfork();
	int st = 0;

	if (pid == 0) {
		int tty = open_ctty();

		_exit(tty >= 0 && tcgetsid(tty) == getpid() ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void test_tty(void)
{
	pid_t pid;
	int st = 0;

	errno = 0;
	ok(open("/dev/tty", O_RDWR) == -1 && errno == ENXIO,
	   "/dev/tty without a controlling terminal: ENXIO");
	pid = xfork();
	if (pid == 0)
		_exit(tty_leader());
	waitpid(pid, &st, 0);
	st = WIFEXITED(st) ? WEXITSTATUS(st) : 0x100;
	ok(st != 0xff, "a session leader's open of /dev/ttyS0 succeeds");
	ok(!(st & 1), "it is the session's terminal: TIOCGSID, TIOCGPGRP, /dev/tty opens");
	ok(!(st & 2), "a background read: SIGTTIN stops the reader");
	ok(!(st & 4), "a background read with SIGTTIN ignored: EIO");
	ok(!(st & 8), "TIOCSPGRP to a group that does not exist: ESRCH");
	ok(!(st & 16), "TIOCSPGRP moves the foreground group, TIOCGPGRP says so");
	ok(!(st & 32), "^Z stops the foreground group with SIGTSTP");
	ok(!(st & 64), "a background leader ignoring SIGTTOU takes the foreground back");
	ok(!(st & 128), "TIOCNOTTY: the session has no terminal any more (/dev/tty ENXIO)");
	ok(leader_takes_tty() && leader_takes_tty(),
	   "a session leader's exit lets the terminal go to the next one");
}

static int run_tests(void)
{
	test_stop_continue();
	test_waitid_tstp();
	test_tstp_caught();
	test_threads();
	test_orphaned();
	test_sessions();
	test_tty();
	return tap_done();
}

int main(void)
{
	pid_t pid;
	int st;

	mount_proc_sys();
	if (getpid() != 1)
		return run_tests();
	pid = xfork();                           /* PID 1's children are orphans: test below it */
	if (pid == 0)
		_exit(run_tests());
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
