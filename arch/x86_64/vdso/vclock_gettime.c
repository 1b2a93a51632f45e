/*
 * The vDSO's clocks (Linux's arch/x86/entry/vdso/vclock_gettime.c over
 * lib/vdso/gettimeofday.c): clock_gettime, gettimeofday, time and
 * clock_getres in user mode, from the TSC and the [vvar] page
 * (include/vdso/datapage.h), with the very functions the kernel's own
 * clocks use.  A clock the page cannot tell (the CPU-time clocks, a bad
 * id) is asked of the kernel by a real system call, so the answer,
 * errno included, is always the system call's.
 *
 * This is user code: it runs in the calling thread, on its stack, and
 * may touch nothing but its arguments and the [vvar] page.
 */
#include "vdso/datapage.h"
#include "uapi/asm/unistd_64.h"
#include "arch/x86_64/vdso/vdso.h"

/* One second's worth of microseconds (NSEC_PER_SEC lives in a kernel header). */
#define NSEC_PER_SEC    1000000000ULL
#define NSEC_PER_USEC   1000ULL

static long vdso_syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ __volatile__("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return ret;
}

static u64 vdso_rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");  /* ordered, as Linux's */
	return (u64)hi << 32 | lo;
}

int __vdso_clock_gettime(int clock, struct __kernel_timespec *ts)
{
	u64 ns, res;

	if (!vdso_clock_ns(&vvar_page, clock, vdso_rdtsc(), &ns, &res))
		return vdso_syscall2(__NR_clock_gettime, clock, (long)ts);
	ts->tv_sec = ns / NSEC_PER_SEC;
	ts->tv_nsec = ns % NSEC_PER_SEC;
	return 0;
}

int __vdso_clock_getres(int clock, struct __kernel_timespec *res)
{
	u64 ns, r;

	if (!vdso_clock_ns(&vvar_page, clock, vdso_rdtsc(), &ns, &r))
		return vdso_syscall2(__NR_clock_getres, clock, (long)res);
	if (res) {
		res->tv_sec = 0;
		res->tv_nsec = r;
	}
	return 0;
}

int __vdso_gettimeofday(struct __kernel_old_timeval *tv, struct timezone *tz)
{
	u64 ns, res;

	if (tv) {
		vdso_clock_ns(&vvar_page, CLOCK_REALTIME, vdso_rdtsc(), &ns, &res);
		tv->tv_sec = ns / NSEC_PER_SEC;
		tv->tv_usec = ns % NSEC_PER_SEC / NSEC_PER_USEC;
	}
	if (tz) {
		tz->tz_minuteswest = READ_ONCE(vvar_page.tz_minuteswest);
		tz->tz_dsttime = READ_ONCE(vvar_page.tz_dsttime);
	}
	return 0;
}

long __vdso_time(long *t)
{
	u64 ns, res;
	long secs;

	vdso_clock_ns(&vvar_page, CLOCK_REALTIME, vdso_rdtsc(), &ns, &res);
	secs = ns / NSEC_PER_SEC;
	if (t)
		*t = secs;
	return secs;
}

/* The plain names too, as Linux's vDSO exports them (weak: a program's own win). */
int clock_gettime(int, struct __kernel_timespec *) __attribute__((weak, alias("__vdso_clock_gettime")));
int clock_getres(int, struct __kernel_timespec *) __attribute__((weak, alias("__vdso_clock_getres")));
int gettimeofday(struct __kernel_old_timeval *, struct timezone *)
	__attribute__((weak, alias("__vdso_gettimeofday")));
long time(long *) __attribute__((weak, alias("__vdso_time")));
