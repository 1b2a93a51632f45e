/*
 * Guest test (TAP): restartable sequences and membarrier as Linux gives
 * them.  rseq registration's errors (EBUSY, EINVAL, EPERM, misalignment),
 * the area's cpu_id on every CPU the test may run on (it follows a
 * migration), a critical section interrupted by a signal resuming at its
 * abort address with rseq_cs cleared, a bad descriptor killing with
 * SIGSEGV, a forked child keeping the registration, unregistering.
 * membarrier: QUERY, the commands needing registration (EPERM before),
 * GLOBAL and the expedited ones, bad flags.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include "each_cpu.h"
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#define RSEQ_SIG                0x53053053
#define RSEQ_FLAG_UNREGISTER    1

struct rseq_area {
	uint32_t cpu_id_start, cpu_id;
	uint64_t rseq_cs;
	uint32_t flags, node_id, mm_cid;
} __attribute__((aligned(32)));

static struct rseq_area area, other;

static long rseq(void *a, uint32_t len, int flags, uint32_t sig)
{
	return syscall(SYS_rseq, a, len, flags, sig);
}

static long membarrier(int cmd, unsigned int flags, int cpu)
{
	return syscall(SYS_membarrier, cmd, flags, cpu);
}

static void check_register(void)
{
	char raw[96] __attribute__((aligned(32)));
	long ret = rseq(&area, sizeof(area), 0, RSEQ_SIG);

	ok(ret == 0, "rseq registers a 32-byte area (%ld)", ret);
	ok(area.cpu_id != (uint32_t)-1 && area.cpu_id == area.cpu_id_start,
	   "the kernel wrote cpu_id (%u) on the way back", area.cpu_id);
	errno = 0;
	ok(rseq(&area, sizeof(area), 0, RSEQ_SIG) == -1 && errno == EBUSY, "again: EBUSY");
	errno = 0;
	ok(rseq(&other, sizeof(other), 0, RSEQ_SIG) == -1 && errno == EINVAL,
	   "another area while registered: EINVAL");
	errno = 0;
	ok(rseq(&area, sizeof(area), 0, RSEQ_SIG + 1) == -1 && errno == EPERM,
	   "the same area with another signature: EPERM");
	errno = 0;
	ok(rseq(&area, sizeof(area), 2, RSEQ_SIG) == -1 && errno == EINVAL, "an unknown flag: EINVAL");
	errno = 0;
	ok(rseq(raw + 8, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG) == -1 && errno == EINVAL,
	   "unregistering an area that is not registered: EINVAL");
}

/* On CPU cpu: does the area name it? */
static int area_names_cpu(int cpu, void *unused)
{
	(void)unused;
	return *(volatile uint32_t *)&area.cpu_id == (uint32_t)cpu &&
	       *(volatile uint32_t *)&area.cpu_id_start == (uint32_t)cpu;
}

/* Pinned to each CPU of the affinity mask in turn, cpu_id names it. */
static void check_cpu_id(void)
{
	int tried, right = on_each_allowed_cpu(area_names_cpu, NULL, &tried);

	ok(tried > 0 && right == tried, "cpu_id follows the thread to each CPU (%d of %d)", right, tried);
}

static volatile int alarms;

static void on_alarm(int sig)
{
	alarms += sig == SIGALRM;
}

/*
 * A critical section that never ends by itself (a jump to itself) leaves
 * only by its abort address: where a signal's handler returns to, and
 * where a preemption resumes it.  1 if it aborted.
 */
static int run_endless_section(void)
{
	int aborted = 0;

	__asm__ __volatile__(
		"lea 3f(%%rip), %%rax\n\t"
		"mov %%rax, %[cs]\n\t"
		"1: jmp 1b\n\t"
		"2: jmp 5f\n\t"
		".pushsection .data, \"aw\"\n\t"
		".balign 32\n\t"
		"3: .long 0, 0\n\t"
		".quad 1b, 2b - 1b, 4f\n\t"
		".popsection\n\t"
		".long 0x53053053\n\t"
		"4: movl $1, %[aborted]\n\t"
		"5:\n\t"
		: [cs] "=m"(area.rseq_cs), [aborted] "+m"(aborted)
		: : "rax", "memory");
	return aborted;
}

static void check_abort(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval t = { .it_value = { 0, 20000 } };
	int aborted, preempted = -1;

	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &t, NULL);
	do {            /* a preemption before the signal aborts it too: enter again */
		aborted = run_endless_section();
		preempted++;
	} while (aborted && !alarms && preempted < 10000);
	ok(aborted && alarms == 1, "a signal inside the critical section resumes at its abort address "
	   "(%d preemptions before)", preempted);
	ok(area.rseq_cs == 0, "and clears rseq_cs");
}

static void ignore_segv(int sig)
{
	(void)sig;
}

/*
 * A descriptor of version 1 is not Linux's: the thread dies of SIGSEGV at
 * the next event — even with a SIGSEGV handler, whose delivery meets the
 * same descriptor (Linux's force_sigsegv resets it).
 */
static void check_bad_descriptor(int with_handler)
{
	static struct { uint32_t version, flags; uint64_t start, len, abort; }
		__attribute__((aligned(32))) bad = { 1, 0, 0x1000, 0x10, 0x2000 };
	int status;
	pid_t pid = fork();

	if (!pid) {
		if (with_handler)
			signal(SIGSEGV, ignore_segv);
		area.rseq_cs = (uint64_t)(uintptr_t)&bad;
		sched_yield();
		raise(SIGALRM);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "a bad rseq_cs is SIGSEGV%s",
	   with_handler ? ", a SIGSEGV handler notwithstanding" : "");
}

/* A forked child keeps the registration (same area, its own copy): registering again is EBUSY. */
static void check_fork(void)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		long ret = rseq(&area, sizeof(area), 0, RSEQ_SIG);

		_exit(ret == -1 && errno == EBUSY && area.cpu_id != (uint32_t)-1 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forked child inherits the registration");
}

static void check_unregister(void)
{
	errno = 0;
	ok(rseq(&area, sizeof(area), RSEQ_FLAG_UNREGISTER, RSEQ_SIG + 1) == -1 && errno == EPERM,
	   "unregistering with another signature: EPERM");
	ok(rseq(&area, sizeof(area), RSEQ_FLAG_UNREGISTER, RSEQ_SIG) == 0 &&
	   area.cpu_id == (uint32_t)-1, "unregistering sets cpu_id to -1");
	ok(rseq(&other, sizeof(other), 0, RSEQ_SIG) == 0, "then another area registers");
}

static void check_membarrier(void)
{
	long q = membarrier(0, 0, 0);

	ok(q >= 0 && (q & 0x1ff) == 0x1ff, "membarrier QUERY lists the nine commands (%#lx)", q);
	errno = 0;
	ok(membarrier(8, 0, 0) == -1 && errno == EPERM, "PRIVATE_EXPEDITED before registering: EPERM");
	ok(membarrier(16, 0, 0) == 0 && membarrier(8, 0, 0) == 0,
	   "REGISTER_PRIVATE_EXPEDITED, then PRIVATE_EXPEDITED");
	errno = 0;
	ok(membarrier(32, 0, 0) == -1 && errno == EPERM, "PRIVATE_EXPEDITED_SYNC_CORE needs its own registration");
	ok(membarrier(64, 0, 0) == 0 && membarrier(32, 0, 0) == 0, "which then works");
	ok(membarrier(256, 0, 0) == 0 && membarrier(128, 0, 0) == 0 && membarrier(128, 1, 0) == 0,
	   "PRIVATE_EXPEDITED_RSEQ, also for one CPU");
	ok(membarrier(1, 0, 0) == 0, "GLOBAL (a grace period)");
	ok(membarrier(4, 0, 0) == 0 && membarrier(2, 0, 0) == 0, "GLOBAL_EXPEDITED");
	errno = 0;
	ok(membarrier(8, 1, 0) == -1 && errno == EINVAL, "a flag on PRIVATE_EXPEDITED: EINVAL");
	errno = 0;
	ok(membarrier(1 << 12, 0, 0) == -1 && errno == EINVAL, "an unknown command: EINVAL");
}

int main(void)
{
	mount_proc_sys();
	check_register();
	check_cpu_id();
	check_abort();
	check_bad_descriptor(0);
	check_bad_descriptor(1);
	check_fork();
	check_unregister();
	check_membarrier();
	return tap_done();
}
