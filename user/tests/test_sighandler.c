/*
 * Guest test (TAP): signal handlers with Linux's semantics — SA_SIGINFO's
 * siginfo (kill's SI_USER with si_pid/si_uid, tgkill's SI_TKILL, a
 * SIGSEGV's si_addr with SEGV_MAPERR or SEGV_ACCERR, SIGFPE and SIGILL
 * codes, SIGCHLD's CLD_EXITED/CLD_KILLED), the frame (16-byte alignment, red zone, sigcontext's cr2 and
 * FPU image), xmm and MXCSR preserved across a handler that clobbers
 * them, siglongjmp out of SIGSEGV, a handler that fixes the fault and
 * returns, SA_ONSTACK on a sigaltstack (a broken stack pointer survived),
 * sigaltstack's errors, SA_RESETHAND, SA_NODEFER, sa_mask, blocking and
 * rt_sigpending, real-time signals queued, rt_sigsuspend and pause —
 * and frames user space forged (kernel RIP, IOPL, bad FPU image, no
 * SA_RESTORER, handlers outside user space, a huge altstack): each ends
 * in SIGSEGV, never in a panic.  Interrupted calls and poll are in
 * test_poll.  Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"
#include "x86_user.h"

#pragma GCC diagnostic ignored "-Wunused-parameter"     /* handlers take what they ignore */

#define KERNEL_ADDR     0xffffffff81000000UL
#define FP_XSTATE_MAGIC1 0x46505853U
#define IOPL_MASK       0x3000UL

static sigjmp_buf jb;
static volatile sig_atomic_t hits, nested, depth;
static siginfo_t last_info;
static unsigned long last_cr2, last_trapno, uc_addr, uc_rsp;
static unsigned int handler_mxcsr;

static void sa(int sig, void (*fn)(int, siginfo_t *, void *), int flags, const sigset_t *mask)
{
	struct sigaction act = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	if (mask)
		act.sa_mask = *mask;
	sigaction(sig, &act, NULL);
}

static void dfl(int sig)
{
	signal(sig, SIG_DFL);
}

/* Records what it was given; counts. */
static void record(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	last_info = *si;
	last_cr2 = uc->uc_mcontext.gregs[REG_CR2];
	last_trapno = uc->uc_mcontext.gregs[REG_TRAPNO];
	uc_addr = (unsigned long)uc;
	uc_rsp = uc->uc_mcontext.gregs[REG_RSP];
	handler_mxcsr = get_mxcsr();
	hits++;
}

/* Records, then jumps out (a fault handler that cannot return). */
static void record_and_jump(int sig, siginfo_t *si, void *uc)
{
	record(sig, si, uc);
	siglongjmp(jb, 1);
}

static void test_siginfo(void)
{
	sa(SIGUSR1, record, 0, NULL);
	hits = 0;
	kill(getpid(), SIGUSR1);
	ok(hits == 1 && last_info.si_signo == SIGUSR1 && last_info.si_code == SI_USER &&
	   last_info.si_pid == getpid() && last_info.si_uid == getuid(),
	   "kill: the handler runs once with SI_USER, si_pid, si_uid");
	ok(uc_addr % 16 == 0, "frame: rsp + 8 is 16-byte aligned at handler entry");
	ok(uc_rsp - (uc_addr - 8) >= 128, "frame: below the interrupted rsp's 128-byte red zone");
	ok(handler_mxcsr == 0x1f80, "the handler starts with MXCSR in its init state (%#x)",
	   handler_mxcsr);
	syscall(SYS_tgkill, getpid(), gettid(), SIGUSR1);
	ok(hits == 2 && last_info.si_code == SI_TKILL && last_info.si_pid == getpid(),
	   "tgkill: SI_TKILL with si_pid");
	syscall(SYS_tkill, gettid(), SIGUSR1);
	ok(hits == 3 && last_info.si_code == SI_TKILL, "tkill: SI_TKILL");
	ok(syscall(SYS_tgkill, getpid() + 100000, gettid(), SIGUSR1) == -1 && errno == ESRCH,
	   "tgkill of no such thread group: ESRCH");
	dfl(SIGUSR1);
}

/* A child's exit: SIGCHLD with CLD_EXITED, its pid and exit code; a kill: CLD_KILLED. */
static void test_sigchld(void)
{
	pid_t pid;
	int st;

	sa(SIGCHLD, record, SA_RESTART, NULL);
	hits = 0;
	pid = fork();
	if (pid == 0)
		_exit(5);
	while (waitpid(pid, &st, 0) != pid)
		;
	ok(hits == 1 && last_info.si_signo == SIGCHLD && last_info.si_code == CLD_EXITED &&
	   last_info.si_pid == pid && last_info.si_status == 5,
	   "SIGCHLD: CLD_EXITED, si_pid, si_status = the exit code");
	pid = fork();
	if (pid < 0) {
		ok(0, "fork for CLD_KILLED");   /* kill(-1) would hit every process */
		dfl(SIGCHLD);
		return;
	}
	if (pid == 0)
		pause();
	kill(pid, SIGTERM);
	while (waitpid(pid, &st, 0) != pid)
		;
	ok(hits == 2 && last_info.si_code == CLD_KILLED && last_info.si_status == SIGTERM,
	   "SIGCHLD: CLD_KILLED, si_status = the signal");
	dfl(SIGCHLD);
}

static void test_segv(void)
{
	char *p = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile char *q;

	munmap(p + 4096, 4096);
	sa(SIGSEGV, record_and_jump, 0, NULL);
	hits = 0;
	q = p + 4096 + 123;
	if (!sigsetjmp(jb, 1))
		*q = 1;
	ok(hits == 1 && last_info.si_code == SEGV_MAPERR && last_info.si_addr == q &&
	   last_cr2 == (unsigned long)q && last_trapno == 14,
	   "SIGSEGV on nothing mapped: SEGV_MAPERR, si_addr, sigcontext cr2 and trapno 14");
	q = p + 77;
	if (!sigsetjmp(jb, 1))
		*q = 1;
	ok(hits == 2 && last_info.si_code == SEGV_ACCERR && last_info.si_addr == q,
	   "SIGSEGV writing a read-only page: SEGV_ACCERR, si_addr");
	q = (char *)KERNEL_ADDR;
	if (!sigsetjmp(jb, 1))
		(void)*q;
	ok(hits == 3 && last_info.si_signo == SIGSEGV, "siglongjmp out of SIGSEGV, thrice: mask restored");
	munmap(p, 4096);
	dfl(SIGSEGV);
}

static char *fix_page;

/* Makes the page writable and returns: the write runs again and succeeds. */
static void fix_and_return(int sig, siginfo_t *si, void *uc)
{
	hits++;
	mprotect(fix_page, 4096, PROT_READ | PROT_WRITE);
}

static void test_fix_and_return(void)
{
	fix_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sa(SIGSEGV, fix_and_return, 0, NULL);
	hits = 0;
	*(volatile char *)fix_page = 42;
	ok(hits == 1 && fix_page[0] == 42, "a SIGSEGV handler that fixes the fault returns; the write is redone");
	munmap(fix_page, 4096);
	dfl(SIGSEGV);
}

/* Integer division by zero and ud2: SIGFPE's FPE_INTDIV and SIGILL's ILL_ILLOPN at the instruction. */
static void test_fpe_ill(void)
{
	extern char ud2_here[];
	unsigned int x = 100;

	sa(SIGFPE, record_and_jump, 0, NULL);
	sa(SIGILL, record_and_jump, 0, NULL);
	hits = 0;
	if (!sigsetjmp(jb, 1))
		__asm__ volatile("xor %%edx, %%edx\ndivl %1" : "+a"(x) : "r"(0) : "rdx");
	ok(hits == 1 && last_info.si_signo == SIGFPE && last_info.si_code == FPE_INTDIV,
	   "integer divide by zero: SIGFPE, FPE_INTDIV (%d %d %d)", hits, last_info.si_signo,
	   last_info.si_code);
	if (!sigsetjmp(jb, 1))
		__asm__ volatile(".globl ud2_here\nud2_here: ud2");
	ok(hits == 2 && last_info.si_signo == SIGILL && last_info.si_code == ILL_ILLOPN &&
	   last_info.si_addr == (void *)ud2_here, "ud2: SIGILL, ILL_ILLOPN, si_addr at the instruction");
	dfl(SIGFPE);
	dfl(SIGILL);
}

static unsigned long fp_magic, fp_xmm0;
static unsigned short handler_fcw;

/* Clobbers every xmm register and MXCSR; notes the frame's FPU image. */
static void clobber_fpu(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	char *fx = (char *)uc->uc_mcontext.fpregs;

	fp_magic = fx ? *(unsigned int *)(fx + 464) : 0;
	fp_xmm0 = fx ? *(unsigned long *)(fx + 160) : 0;
	uc_addr = (unsigned long)fx;
	__asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n"
			 "movdqa %%xmm0, %%xmm1\nmovdqa %%xmm0, %%xmm7\nmovdqa %%xmm0, %%xmm8\n"
			 "movdqa %%xmm0, %%xmm15\n" ::: "xmm0", "xmm1", "xmm7", "xmm8", "xmm15");
	set_mxcsr(0x1f80 | 0x6000);
	handler_fcw = get_fcw();
	set_fcw(0x0c7f);
	hits++;
}

/*
 * xmm0, xmm7, xmm8, xmm15 and MXCSR set, a signal sent with no libc code
 * in between, the registers read back: what the handler did is undone.
 */
static void test_fpu(void)
{
	unsigned long in[4] = { 0x1111111111111111, 0x7777777777777777, 0x8888888888888888,
				0xffff0000ffff0000 }, out[4];
	long nr = SYS_tgkill, pid = getpid(), tid = gettid();
	unsigned int mx;
	unsigned short fcw;

	sa(SIGUSR1, clobber_fpu, 0, NULL);
	hits = 0;
	set_fcw(0x027f);                                /* x87 at 53-bit precision */
	set_mxcsr(0x1f80 | 0x2000);                     /* round down */
	__asm__ volatile("movq %[i0], %%xmm0\nmovq %[i1], %%xmm7\nmovq %[i2], %%xmm8\n"
			 "movq %[i3], %%xmm15\nsyscall\n"
			 "movq %%xmm0, %[o0]\nmovq %%xmm7, %[o1]\nmovq %%xmm8, %[o2]\nmovq %%xmm15, %[o3]\n"
			 : [o0] "=m"(out[0]), [o1] "=m"(out[1]), [o2] "=m"(out[2]), [o3] "=m"(out[3]),
			   "+a"(nr)
			 : "D"(pid), "S"(tid), "d"((long)SIGUSR1), [i0] "m"(in[0]), [i1] "m"(in[1]),
			   [i2] "m"(in[2]), [i3] "m"(in[3])
			 : "rcx", "r11", "memory", "xmm0", "xmm7", "xmm8", "xmm15");
	mx = get_mxcsr();
	fcw = get_fcw();
	set_mxcsr(0x1f80);
	set_fcw(0x037f);
	ok(hits == 1 && !memcmp(in, out, sizeof(in)), "xmm0/7/8/15 preserved across a handler that clobbers them");
	ok(mx == (0x1f80 | 0x2000), "MXCSR preserved across the handler (%#x)", mx);
	ok(fcw == 0x027f && handler_fcw == 0x037f,
	   "the x87 control word too (%#x); the handler started with the init one (%#x)", fcw, handler_fcw);
	ok(uc_addr && uc_addr % 64 == 0 && fp_xmm0 == in[0],
	   "the frame's FPU image is 64-byte aligned and holds the interrupted xmm0");
	ok(fp_magic == FP_XSTATE_MAGIC1 || fp_magic == 0, "its software bytes carry FP_XSTATE_MAGIC1 (XSAVE) (%#lx)",
	   fp_magic);
	dfl(SIGUSR1);
}

static char *altstack;

static void on_altstack(int sig, siginfo_t *si, void *uc)
{
	stack_t cur;
	char here;

	record(sig, si, uc);
	depth = &here >= altstack && &here < altstack + 65536;
	nested = sigaltstack(NULL, &cur) == 0 ? cur.ss_flags : -1;
	cur.ss_flags = 0;
	nested |= sigaltstack(&cur, NULL) == -1 ? errno << 8 : 0;
	siglongjmp(jb, 1);
}

static void disarmed(int sig, siginfo_t *si, void *uc)
{
	stack_t cur;

	nested = sigaltstack(NULL, &cur) ? -1 : cur.ss_flags;
}

/* Points rsp at nothing and pushes: only an SA_ONSTACK handler can run. */
static void broken_stack(void)
{
	__asm__ volatile("mov %%rsp, %%rbx\nmov $16, %%rsp\npush $0\nmov %%rbx, %%rsp" ::: "rbx", "memory");
}

static void test_sigaltstack(void)
{
	stack_t ss = { .ss_size = 65536 }, old;

	altstack = malloc(65536);
	ss.ss_sp = altstack;
	memset(&old, 0xff, sizeof(old));
	ok(sigaltstack(NULL, &old) == 0 && old.ss_flags == SS_DISABLE, "sigaltstack: disabled at start");
	ok(!memcmp((char *)&old + offsetof(stack_t, ss_flags) + sizeof(int), "\0\0\0\0", 4),
	   "the old stack_t's padding comes back zeroed (no kernel bytes)");
	ss.ss_size = MINSIGSTKSZ - 1;
	ok(sigaltstack(&ss, NULL) == -1 && errno == ENOMEM, "sigaltstack below MINSIGSTKSZ: ENOMEM");
	ss.ss_size = 65536;
	ss.ss_flags = 0x1234;
	ok(sigaltstack(&ss, NULL) == -1 && errno == EINVAL, "sigaltstack with unknown flags: EINVAL");
	ss.ss_flags = 0;
	ok(sigaltstack(&ss, NULL) == 0 && sigaltstack(NULL, &old) == 0 && old.ss_sp == altstack &&
	   old.ss_size == 65536 && old.ss_flags == 0, "sigaltstack set, read back");
	sa(SIGSEGV, on_altstack, SA_ONSTACK, NULL);
	hits = depth = nested = 0;
	if (!sigsetjmp(jb, 1))
		broken_stack();
	ok(hits == 1 && depth && last_info.si_code == SEGV_MAPERR,
	   "a fault with rsp broken: the SA_ONSTACK handler runs on the alternate stack");
	ok(nested == (SS_ONSTACK | EPERM << 8), "in the handler: SS_ONSTACK, and changing the stack is EPERM (%#x)", nested);
	ss.ss_flags = SS_AUTODISARM;
	sigaltstack(&ss, NULL);
	sa(SIGUSR1, disarmed, SA_ONSTACK, NULL);
	nested = 0;
	kill(getpid(), SIGUSR1);
	ok(nested == SS_DISABLE && sigaltstack(NULL, &old) == 0 && (unsigned int)old.ss_flags == SS_AUTODISARM &&
	   old.ss_sp == altstack, "SS_AUTODISARM: disabled while the handler runs, back after");
	dfl(SIGUSR1);
	ss.ss_flags = SS_DISABLE;
	ok(sigaltstack(&ss, NULL) == 0 && sigaltstack(NULL, &old) == 0 && old.ss_flags == SS_DISABLE,
	   "SS_DISABLE");
	dfl(SIGSEGV);
	free(altstack);
}

static void count(int sig, siginfo_t *si, void *uc)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	if (sig == SIGUSR1) {
		depth = sigismember(&cur, SIGUSR2) + 2 * sigismember(&cur, SIGUSR1);
		kill(getpid(), SIGUSR2);                /* blocked: after we return */
		nested = hits;
	}
	hits++;
}

static volatile sig_atomic_t active;

/* The first call sends its own signal again; depth is how deep the calls nested. */
static void reenter(int sig, siginfo_t *si, void *uc)
{
	int me = ++active;

	if (++nested == 1)
		kill(getpid(), sig);
	if (me > depth)
		depth = me;
	active--;
}

static void bump(int sig, siginfo_t *si, void *uc)
{
	hits++;
}

static void test_flags(void)
{
	struct sigaction now;
	sigset_t mask;

	sa(SIGUSR1, bump, SA_RESETHAND, NULL);
	hits = 0;
	kill(getpid(), SIGUSR1);
	sigaction(SIGUSR1, NULL, &now);
	ok(hits == 1 && now.sa_handler == SIG_DFL, "SA_RESETHAND: runs once, then SIG_DFL");
	sa(SIGUSR1, reenter, SA_NODEFER, NULL);
	depth = nested = 0;
	kill(getpid(), SIGUSR1);
	ok(depth == 2 && nested == 2, "SA_NODEFER: the handler is re-entered by its own signal");
	sa(SIGUSR1, reenter, 0, NULL);
	depth = nested = 0;
	kill(getpid(), SIGUSR1);
	ok(depth == 1 && nested == 2, "without it: the signal is blocked, delivered after the return");
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sa(SIGUSR1, count, 0, &mask);
	sa(SIGUSR2, count, 0, NULL);
	hits = depth = 0;
	nested = -1;
	kill(getpid(), SIGUSR1);
	ok(depth == 3 && nested == 0 && hits == 2,
	   "sa_mask and the signal itself blocked in the handler; SIGUSR2 waits for its return");
	sigprocmask(SIG_BLOCK, NULL, &mask);
	ok(!sigismember(&mask, SIGUSR1) && !sigismember(&mask, SIGUSR2), "the mask is back after the handler");
	sa(SIGUSR1, count, SA_RESTART | 0x400 /* SA_UNSUPPORTED */, NULL);
	sigaction(SIGUSR1, NULL, &now);
	ok((now.sa_flags & SA_RESTART) && !(now.sa_flags & 0x400),
	   "a flag Linux does not know reads back cleared (%#x)", (unsigned int)now.sa_flags);
	dfl(SIGUSR1);
	dfl(SIGUSR2);
}

static void test_mask_pending(void)
{
	sigset_t set, pend, old;

	sa(SIGUSR1, bump, 0, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	hits = 0;
	kill(getpid(), SIGUSR1);
	sigpending(&pend);
	ok(hits == 0 && sigismember(&pend, SIGUSR1) && !sigismember(&pend, SIGUSR2),
	   "blocked: not delivered, rt_sigpending shows it");
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigpending(&pend);
	ok(hits == 1 && !sigismember(&pend, SIGUSR1), "unblocked: delivered before sigprocmask returns");
	sigfillset(&set);
	sigprocmask(SIG_SETMASK, &set, &old);
	sigprocmask(SIG_SETMASK, &old, &set);
	ok(!sigismember(&set, SIGKILL) && !sigismember(&set, SIGSTOP) && sigismember(&set, SIGTERM),
	   "SIGKILL and SIGSTOP cannot be blocked");
	dfl(SIGUSR1);
}

static int rt_count[65];

static void rt_record(int sig, siginfo_t *si, void *uc)
{
	rt_count[sig]++;
}

static void test_rt_queue(void)
{
	int a = SIGRTMIN + 1, b = SIGRTMIN + 4;
	sigset_t set, old;

	sa(a, rt_record, 0, NULL);
	sa(b, rt_record, 0, NULL);
	sa(SIGUSR1, rt_record, 0, NULL);
	sigemptyset(&set);
	sigaddset(&set, a);
	sigaddset(&set, b);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	kill(getpid(), b);
	kill(getpid(), a);
	kill(getpid(), b);
	kill(getpid(), a);
	kill(getpid(), a);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ok(rt_count[a] == 3 && rt_count[b] == 2 && rt_count[SIGUSR1] == 1,
	   "real-time signals queue (3 + 2), a standard one does not (1)");
	sigaddset(&set, SIGRTMAX);
	sigprocmask(SIG_BLOCK, &set, &old);
	ok(kill(getpid(), SIGRTMAX) == 0 && sigpending(&set) == 0 && sigismember(&set, SIGRTMAX),
	   "kill of signal 64: pending while blocked");
	signal(SIGRTMAX, SIG_IGN);
	sigpending(&set);
	ok(!sigismember(&set, SIGRTMAX), "setting SIG_IGN discards it");
	sigprocmask(SIG_SETMASK, &old, NULL);
	dfl(SIGRTMAX);
	dfl(a);
	dfl(b);
	dfl(SIGUSR1);
}

/* A child that sends sig to its parent after ms milliseconds. */
static pid_t signal_later(int sig, long ms)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		struct timespec ts = { 0, ms * 1000000 };

		nanosleep(&ts, NULL);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

static void test_suspend(void)
{
	sigset_t block, empty, now;
	pid_t pid;
	int r;

	sa(SIGUSR1, bump, 0, NULL);
	sigemptyset(&empty);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	hits = 0;
	kill(getpid(), SIGUSR1);
	r = sigsuspend(&empty);
	sigprocmask(SIG_BLOCK, NULL, &now);
	ok(r == -1 && errno == EINTR && hits == 1 && sigismember(&now, SIGUSR1),
	   "sigsuspend with a pending signal: handler, EINTR, the mask back");
	pid = signal_later(SIGUSR1, 30);
	r = pid < 0 ? 0 : sigsuspend(&empty);   /* no child to wake us: do not sleep */
	ok(r == -1 && errno == EINTR && hits == 2, "sigsuspend sleeps until a child's signal");
	waitpid(pid, NULL, 0);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	pid = signal_later(SIGUSR1, 30);
	r = pid < 0 ? 0 : pause();
	ok(r == -1 && errno == EINTR && hits == 3, "pause: EINTR after the handler");
	waitpid(pid, NULL, 0);
	dfl(SIGUSR1);
}

/* Run fn in a child; its wait status. */
static int in_child(void (*fn)(void))
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		fn();
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return st;
}

static int forge;

/* Edits the interrupted context: the frame rt_sigreturn is given is forged. */
static void forger(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	if (forge == 1)
		uc->uc_mcontext.gregs[REG_RIP] = KERNEL_ADDR;
	if (forge == 2)
		uc->uc_mcontext.gregs[REG_RIP] = 0x8000000000001000UL;
	if (forge == 3)
		uc->uc_mcontext.gregs[REG_EFL] |= IOPL_MASK;
	if (forge == 4)
		uc->uc_mcontext.fpregs = (void *)16;
	if (forge == 5)
		((unsigned int *)uc->uc_mcontext.fpregs)[6] = 0xffffffff;       /* MXCSR */
}

static void forged_frame(void)
{
	unsigned long flags;

	sa(SIGUSR1, forger, 0, NULL);
	kill(getpid(), SIGUSR1);
	__asm__ volatile("pushf\npop %0" : "=r"(flags));
	_exit(flags & IOPL_MASK ? 1 : 7);
}

static void handler_in_kernel(void)
{
	struct sigaction act = { .sa_handler = (void (*)(int))KERNEL_ADDR };

	sigaction(SIGUSR1, &act, NULL);
	kill(getpid(), SIGUSR1);
}

static void handler_noncanonical(void)
{
	struct sigaction act = { .sa_handler = (void (*)(int))0x8000000000000000UL };

	sigaction(SIGUSR1, &act, NULL);
	kill(getpid(), SIGUSR1);
}

static void ignore(int sig)
{
}

/* rt_sigaction by hand without SA_RESTORER: x86-64 has no frame to return to. */
static void no_restorer(void)
{
	unsigned long act[4] = { (unsigned long)ignore, 0, 0, 0 };

	raw_syscall(SYS_rt_sigaction, SIGUSR1, (long)act, 0, 8, 0, 0);
	kill(getpid(), SIGUSR1);
}

static void sigreturn_on_nothing(void)
{
	__asm__ volatile("mov $4096, %%rsp\nmov %0, %%eax\nsyscall" : : "i"(SYS_rt_sigreturn) : "memory");
}

static void huge_altstack(void)
{
	stack_t ss = { .ss_sp = (void *)0x7ffffffff000UL, .ss_size = 1UL << 62 };

	if (sigaltstack(&ss, NULL))
		_exit(3);
	sa(SIGUSR1, record, SA_ONSTACK, NULL);
	kill(getpid(), SIGUSR1);
}

static int killed_by(int st, int sig)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

static void test_hostile(void)
{
	static const char *const what[] = { "", "a kernel RIP", "a non-canonical RIP" };
	int st;

	for (forge = 1; forge <= 2; forge++)
		ok(killed_by(in_child(forged_frame), SIGSEGV), "rt_sigreturn to %s: SIGSEGV", what[forge]);
	forge = 3;
	st = in_child(forged_frame);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 7, "rt_sigreturn cannot raise IOPL");
	forge = 4;
	ok(killed_by(in_child(forged_frame), SIGSEGV), "rt_sigreturn with an unmapped FPU image: SIGSEGV");
	forge = 5;
	st = in_child(forged_frame);
	ok(killed_by(st, SIGSEGV) || WIFEXITED(st),
	   "rt_sigreturn with reserved MXCSR bits: SIGSEGV (an emulator's XRSTOR may take them: no crash) (%#x)",
	   st);
	ok(killed_by(in_child(handler_in_kernel), SIGSEGV), "a handler at a kernel address: SIGSEGV");
	ok(killed_by(in_child(handler_noncanonical), SIGSEGV), "a non-canonical handler: SIGSEGV");
	ok(killed_by(in_child(no_restorer), SIGSEGV), "no SA_RESTORER: SIGSEGV");
	ok(killed_by(in_child(sigreturn_on_nothing), SIGSEGV), "rt_sigreturn with no frame: SIGSEGV");
	st = in_child(huge_altstack);
	ok(killed_by(st, SIGSEGV), "a 2^62-byte sigaltstack past user space: accepted, its frame SIGSEGV (%#x)", st);
}

int main(void)
{
	test_siginfo();
	test_sigchld();
	test_segv();
	test_fix_and_return();
	test_fpe_ill();
	test_fpu();
	test_sigaltstack();
	test_flags();
	test_mask_pending();
	test_rt_queue();
	test_suspend();
	test_hostile();
	return tap_done();
}
