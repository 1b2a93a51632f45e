/*
 * Resource limits as Linux's ABI has them (include/uapi/asm-generic/
 * resource.h): the RLIMIT_* numbers of getrlimit/setrlimit/prlimit64 and
 * struct rlimit (64-bit fields, so it is also prlimit64's struct rlimit64).
 */
#ifndef _UAPI_LINUX_RESOURCE_H
#define _UAPI_LINUX_RESOURCE_H

#define RLIMIT_CPU              0       /* CPU time in s */
#define RLIMIT_FSIZE            1       /* largest file */
#define RLIMIT_DATA             2       /* private writable memory, brk included */
#define RLIMIT_STACK            3       /* stack size */
#define RLIMIT_CORE             4       /* core file size */
#define RLIMIT_RSS              5
#define RLIMIT_NPROC            6
#define RLIMIT_NOFILE           7       /* open files */
#define RLIMIT_MEMLOCK          8
#define RLIMIT_AS               9       /* address space */
#define RLIMIT_LOCKS            10
#define RLIMIT_SIGPENDING       11
#define RLIMIT_MSGQUEUE         12
#define RLIMIT_NICE             13
#define RLIMIT_RTPRIO           14
#define RLIMIT_RTTIME           15
#define RLIM_NLIMITS            16

#define RLIM_INFINITY           (~0UL)

struct rlimit {
	unsigned long rlim_cur;
	unsigned long rlim_max;
};

#define RUSAGE_SELF     0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD   1

/* getrusage(2), wait4(2): 144 bytes */
struct rusage {
	long ru_utime[2], ru_stime[2];  /* user and system time: tv_sec, tv_usec */
	long ru_maxrss;                 /* largest resident set, KiB */
	long ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap, ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
_Static_assert(sizeof(struct rusage) == 144, "struct rusage is 144 bytes in Linux's ABI");

#endif
