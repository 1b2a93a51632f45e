/*
 * Guest test (TAP): each process owns its FPU/SSE/AVX registers.  Two
 * processes keep distinct values in xmm0-15, the x87 stack, the x87 control
 * word and MXCSR across sched_yield, a blocking pipe read and timer
 * preemption; compiler-vectorised code gets the right answer while another
 * process computes; fork copies MXCSR and the x87 control word, execve resets
 * them to Linux's defaults; unmasked SSE and x87 divide-by-zero kill with
 * SIGFPE; with AVX, the upper halves of ymm0-15 survive too.
 * Runs unchanged on Linux.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"
#include "x86_user.h"

#define MXCSR_DEFAULT   0x1f80
#define FCW_DEFAULT     0x037f
#define MXCSR_TEST      0x7f80          /* round toward zero, all exceptions masked */
#define FCW_TEST        0x027f          /* 53-bit precision, all exceptions masked */
#define SPIN            (-1L)           /* hold_regs: busy-wait instead of a system call */

static unsigned long long ticks_per_ms;


/* What hold_regs puts into the registers and reads back. */
struct regs {
	unsigned char xmm[16][16];
	double st[8];
	unsigned int mxcsr;
	unsigned short fcw;
};

static unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* TSC ticks per millisecond, from a 20 ms busy wait on the clock. */
static void calibrate(void)
{
	unsigned long long t0 = now_ns(), c0 = rdtsc();

	while (now_ns() - t0 < 20000000)
		;
	ticks_per_ms = (rdtsc() - c0) / 20;
}

#define XMM_LOAD(i)  "movdqu " #i "*16(%[in]), %%xmm" #i "\n\t"
#define XMM_STORE(i) "movdqu %%xmm" #i ", " #i "*16(%[out])\n\t"
#define XMM_ALL(m)   m(0) m(1) m(2) m(3) m(4) m(5) m(6) m(7) \
		     m(8) m(9) m(10) m(11) m(12) m(13) m(14) m(15)
#define ST_LOAD(i)   "fldl " #i "*8+256(%[in])\n\t"
#define ST_STORE(i)  "fstpl " #i "*8+256(%[out])\n\t"

/*
 * The event a register holder waits through, as a string of instructions:
 * system call rax(rdi, rsi, rdx), or for rax == SPIN a busy wait of rdi TSC
 * ticks.  rax: the call's result (0 for SPIN); rcx, rdx, r8, r11 clobbered.
 */
#define EVENT_ASM                                                   \
	"cmp $-1, %%rax\n\t"                                        \
	"je 1f\n\t"                                                 \
	"syscall\n\t"                                               \
	"jmp 3f\n"                                                  \
	"1:\n\t"                                                    \
	"rdtsc\n\t"                                                 \
	"shl $32, %%rdx\n\t"                                        \
	"or %%rdx, %%rax\n\t"                                       \
	"mov %%rax, %%r8\n"                                         \
	"2:\n\t"                                                    \
	"rdtsc\n\t"                                                 \
	"shl $32, %%rdx\n\t"                                        \
	"or %%rdx, %%rax\n\t"                                       \
	"sub %%r8, %%rax\n\t"                                       \
	"cmp %%rdi, %%rax\n\t"                                      \
	"jb 2b\n\t"                                                 \
	"xor %%eax, %%eax\n"                                        \
	"3:\n\t"

#define EVENT_REGS(nr, a0, a1, a2)                                  \
	register long rax __asm__("rax") = nr;                      \
	register long rdi __asm__("rdi") = a0;                      \
	register long rsi __asm__("rsi") = a1;                      \
	register long rdx __asm__("rdx") = a2

#define XMM_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/*
 * Load in's registers, wait through the event (EVENT_ASM) and store the
 * registers into out.  No compiled code runs in between, so whatever changed
 * them was the kernel or another process.  Returns the system call's result.
 */
static long hold_regs(const struct regs *in, struct regs *out, long nr, long a0, long a1, long a2)
{
	EVENT_REGS(nr, a0, a1, a2);

	__asm__ __volatile__(
		XMM_ALL(XMM_LOAD)
		"fninit\n\t"
		"fldcw 324(%[in])\n\t"
		"ldmxcsr 320(%[in])\n\t"
		ST_LOAD(7) ST_LOAD(6) ST_LOAD(5) ST_LOAD(4)
		ST_LOAD(3) ST_LOAD(2) ST_LOAD(1) ST_LOAD(0)
		EVENT_ASM
		ST_STORE(0) ST_STORE(1) ST_STORE(2) ST_STORE(3)
		ST_STORE(4) ST_STORE(5) ST_STORE(6) ST_STORE(7)
		"stmxcsr 320(%[out])\n\t"
		"fnstcw 324(%[out])\n\t"
		"ldmxcsr %[mxcsr]\n\t"
		"fldcw %[fcw]\n\t"
		XMM_ALL(XMM_STORE)
		: "+a"(rax), "+d"(rdx)
		: [in] "r"(in), [out] "r"(out), "D"(rdi), "S"(rsi),
		  [mxcsr] "m"((unsigned int){ MXCSR_DEFAULT }), [fcw] "m"((unsigned short){ FCW_DEFAULT })
		: "rcx", "r8", "r11", "memory", "cc", XMM_CLOBBERS);
	return rax;
}

_Static_assert(__builtin_offsetof(struct regs, st) == 256, "hold_regs' offsets");
_Static_assert(__builtin_offsetof(struct regs, mxcsr) == 320, "hold_regs' offsets");
_Static_assert(__builtin_offsetof(struct regs, fcw) == 324, "hold_regs' offsets");

/* A register set that differs for each `who` and in every byte. */
static void pattern(struct regs *r, int who)
{
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			r->xmm[i][j] = (unsigned char)(who * 37 + i * 16 + j + 1);
	for (int i = 0; i < 8; i++)
		r->st[i] = who * 1000.25 + i + 0.5;
	r->mxcsr = who & 1 ? MXCSR_TEST : 0x3f80;       /* toward zero / round down */
	r->fcw = who & 1 ? FCW_TEST : 0x077f;            /* 53 bit, round down */
}

/* Did the registers come back as they went in? */
static int same_regs(const struct regs *a, const struct regs *b)
{
	return !memcmp(a->xmm, b->xmm, sizeof(a->xmm)) && !memcmp(a->st, b->st, sizeof(a->st)) &&
	       a->mxcsr == b->mxcsr && a->fcw == b->fcw;
}

/* Hold `who`'s registers over one event ten times; 1 if they always survived. */
static int survives(int who, long nr, long a0, long a1, long a2)
{
	struct regs in, out;

	pattern(&in, who);
	for (int i = 0; i < 10; i++) {
		memset(&out, 0, sizeof(out));
		hold_regs(&in, &out, nr, a0, a1, a2);
		if (!same_regs(&in, &out))
			return 0;
	}
	return 1;
}

static int wait_status(pid_t pid)
{
	int status = -1;

	return pid > 0 && waitpid(pid, &status, 0) == pid ? status : -1;
}

static int exited_ok(int st)
{
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Parent and child each hold their own registers over the same kind of event. */
static void test_two_processes(void)
{
	pid_t pid = fork();
	int fds[2], good;

	if (pid == 0)
		_exit(survives(2, SYS_sched_yield, 0, 0, 0) ? 0 : 1);
	good = survives(1, SYS_sched_yield, 0, 0, 0);
	ok(good && exited_ok(wait_status(pid)), "xmm, x87 stack, MXCSR, x87 CW survive sched_yield");

	pid = fork();
	if (pid == 0)
		_exit(survives(4, SPIN, 5 * ticks_per_ms, 0, 0) ? 0 : 1);
	good = survives(3, SPIN, 5 * ticks_per_ms, 0, 0);
	ok(good && exited_ok(wait_status(pid)), "registers survive timer preemption (2 x 50 ms busy)");

	if (pipe(fds)) {
		ok(0, "registers survive a blocking pipe read # pipe failed");
		return;
	}
	pid = fork();
	if (pid == 0) {
		char c;
		struct regs in, out;

		pattern(&in, 6);
		hold_regs(&in, &out, SYS_read, fds[0], (long)&c, 1);
		_exit(same_regs(&in, &out) ? 0 : 1);
	}
	good = survives(5, SPIN, 2 * ticks_per_ms, 0, 0);       /* the child blocks meanwhile */
	write(fds[1], "x", 1);
	ok(good && exited_ok(wait_status(pid)), "registers survive a blocking pipe read");
	close(fds[0]);
	close(fds[1]);
}

#define VN 4096
typedef unsigned int v4u __attribute__((vector_size(16)));

/* A sum gcc keeps in xmm registers (vector extension) plus an -O2 vectorised loop. */
static unsigned int checksum(const unsigned int *a, const unsigned int *b, unsigned int *c)
{
	v4u acc = { 0, 0, 0, 0 };
	unsigned int sum = 0;

	for (int i = 0; i < VN; i++)
		c[i] = a[i] * 3 + (b[i] ^ 0x5a5a5a5a);
	for (int i = 0; i < VN; i += 4) {
		v4u x;

		memcpy(&x, c + i, sizeof(x));
		acc = acc * 31 + x;
	}
	for (int i = 0; i < 4; i++)
		sum = sum * 7 + acc[i];
	return sum;
}

static unsigned int a_[2][VN], b_[2][VN], c_[VN], d_[VN];

/* Process who's inputs, and the checksum they give computed alone. */
static unsigned int checksum_inputs(int who)
{
	for (int i = 0; i < VN; i++) {
		a_[who][i] = i * 2654435761u + who;
		b_[who][i] = i * 40503u ^ who;
	}
	return checksum(a_[who], b_[who], c_);
}

/* Recompute who's checksum and a copy of its array for 100 ms; 1 if always right. */
static int checksum_steady(int who, unsigned int want)
{
	int good = 1;

	for (unsigned long long t0 = now_ns(); now_ns() - t0 < 100000000; ) {
		good &= checksum(a_[who], b_[who], c_) == want;
		memcpy(d_, c_, sizeof(c_));
		good &= !memcmp(c_, d_, sizeof(c_));
	}
	return good;
}

static void test_vectorised(void)
{
	unsigned int want0 = checksum_inputs(0), want1 = checksum_inputs(1);
	pid_t pid = fork();
	int good;

	if (pid == 0)
		_exit(checksum_steady(1, want1) ? 0 : 1);
	good = checksum_steady(0, want0);
	ok(good && exited_ok(wait_status(pid)),
	   "vectorised -O2 loop and memcpy right while another process computes");
}

/* fork copies the control registers; execve resets them (argv[0]: this program). */
static void test_fork_exec(const char *self)
{
	pid_t pid;
	int st;

	set_mxcsr(MXCSR_TEST);
	set_fcw(FCW_TEST);
	pid = fork();
	if (pid == 0)
		_exit(get_mxcsr() == MXCSR_TEST && get_fcw() == FCW_TEST ? 0 : 1);
	set_mxcsr(MXCSR_DEFAULT);               /* the child's copy must not follow */
	set_fcw(FCW_DEFAULT);
	st = wait_status(pid);
	ok(exited_ok(st), "a forked child starts with the parent's MXCSR 0x7f80 and x87 CW 0x27f");

	pid = fork();
	if (pid == 0) {
		char *args[] = { (char *)self, "exec-check", NULL };

		set_mxcsr(MXCSR_TEST);
		set_fcw(FCW_TEST);
		execve(self, args, args + 2);
		_exit(2);
	}
	st = wait_status(pid);
	ok(exited_ok(st), "after execve MXCSR is 0x1f80 and x87 CW 0x37f");
	if (!exited_ok(st))
		printf("# exec-check status %#x\n", st);
}

/*
 * A child that divides by zero with the exception unmasked must die of
 * SIGFPE.  QEMU's TCG (7.2) never raises #XM: it only sets MXCSR.ZE, on
 * Linux too; the child then exits 3 and the check is skipped.
 */
static void test_sigfpe(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		double one = 1.0, zero = 0.0;

		set_mxcsr(MXCSR_DEFAULT & ~0x200);      /* unmask divide-by-zero */
		__asm__ __volatile__("divsd %1, %0" : "+x"(one) : "x"(zero));
		_exit(get_mxcsr() & 0x4 ? 3 : 0);
	}
	st = wait_status(pid);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 3)
		skip("SSE divide by zero, unmasked: this CPU raises no #XM");
	else
		ok(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGFPE,
		   "SSE divide by zero, unmasked: SIGFPE");

	pid = fork();
	if (pid == 0) {
		set_fcw(FCW_DEFAULT & ~0x4);
		__asm__ __volatile__("fldz; fld1; fdiv %st(1), %st; fwait; fninit");
		_exit(0);
	}
	st = wait_status(pid);
	ok(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGFPE, "x87 divide by zero, unmasked: SIGFPE");
}

/* AVX usable: the CPU has it and the kernel enabled it in XCR0 (x87|SSE|YMM). */
static int have_avx(void)
{
	unsigned int a, b, c, d;

	__asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 27)) || !(c & (1u << 28)))     /* OSXSAVE, AVX */
		return 0;
	__asm__ __volatile__("xgetbv" : "=a"(a), "=d"(d) : "c"(0));
	return (a & 6) == 6;
}

#define YMM_LOAD(i)  "vmovdqu " #i "*32(%[in]), %%ymm" #i "\n\t"
#define YMM_STORE(i) "vmovdqu %%ymm" #i ", " #i "*32(%[out])\n\t"

/* hold_regs for ymm0-15, all 256 bits. */
static void hold_ymm(const unsigned char in[16][32], unsigned char out[16][32], long nr, long a0)
{
	EVENT_REGS(nr, a0, 0, 0);

	__asm__ __volatile__(
		XMM_ALL(YMM_LOAD)
		EVENT_ASM
		XMM_ALL(YMM_STORE)
		"vzeroupper\n\t"
		: "+a"(rax), "+d"(rdx)
		: [in] "r"(in), [out] "r"(out), "D"(rdi), "S"(rsi)
		: "rcx", "r8", "r11", "memory", "cc", XMM_CLOBBERS);
}

/* Hold who's ymm values over ten events; 1 if they survived every time. */
static int ymm_survives(int who, long nr, long a0)
{
	unsigned char in[16][32], out[16][32];

	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 32; j++)
			in[i][j] = (unsigned char)(who * 59 + i * 32 + j + 1);
	for (int i = 0; i < 10; i++) {
		memset(out, 0, sizeof(out));
		hold_ymm(in, out, nr, a0);
		if (memcmp(in, out, sizeof(in)))
			return 0;
	}
	return 1;
}

static void test_avx(void)
{
	pid_t pid;
	int good;

	if (!have_avx()) {
		skip("ymm upper halves survive a switch: no AVX");
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(ymm_survives(2, SYS_sched_yield, 0) && ymm_survives(2, SPIN, 3 * ticks_per_ms)
		      ? 0 : 1);
	good = ymm_survives(1, SYS_sched_yield, 0) && ymm_survives(1, SPIN, 3 * ticks_per_ms);
	ok(good && exited_ok(wait_status(pid)), "ymm0-15 (upper halves too) survive yield and preemption");
}


int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exec-check"))
		return get_mxcsr() == MXCSR_DEFAULT && get_fcw() == FCW_DEFAULT ? 0 : 1;
	printf("TAP version 13\n");
	calibrate();
	test_two_processes();
	test_vectorised();
	test_fork_exec(argv[0]);
	test_sigfpe();
	test_avx();
	return tap_done();
}
