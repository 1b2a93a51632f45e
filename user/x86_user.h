/*
 * What the user tests do with x86 itself: a system call with no libc in
 * between (the raw return value, -errno included), and the SSE and x87
 * control registers.  Header-only.
 */
#ifndef USER_X86_USER_H
#define USER_X86_USER_H

static inline long raw_syscall(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline unsigned int get_mxcsr(void)
{
	unsigned int m;

	__asm__ volatile("stmxcsr %0" : "=m"(m));
	return m;
}

static inline void set_mxcsr(unsigned int m)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(m));
}

static inline unsigned short get_fcw(void)
{
	unsigned short cw;

	__asm__ volatile("fnstcw %0" : "=m"(cw));
	return cw;
}

static inline void set_fcw(unsigned short cw)
{
	__asm__ volatile("fldcw %0" : : "m"(cw));
}

#endif
