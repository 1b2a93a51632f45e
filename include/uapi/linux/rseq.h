/* Restartable sequences (linux/rseq.h): the per-thread area and a critical section's descriptor. */
#ifndef _UAPI_LINUX_RSEQ_H
#define _UAPI_LINUX_RSEQ_H

#define RSEQ_FLAG_UNREGISTER            1
#define RSEQ_CPU_ID_UNINITIALIZED       (-1)
#define ORIG_RSEQ_SIZE                  32      /* the first ABI's size, and the alignment */

/* A critical section: [start_ip, start_ip + post_commit_offset), restarted at abort_ip. */
struct rseq_cs {
	unsigned int version;           /* 0 */
	unsigned int flags;             /* none may be set */
	unsigned long long start_ip, post_commit_offset, abort_ip;
} __attribute__((aligned(32)));

/* The thread's area, which the kernel updates on the way back to user mode. */
struct rseq {
	unsigned int cpu_id_start;      /* the CPU, always a valid number */
	unsigned int cpu_id;            /* the CPU, or RSEQ_CPU_ID_UNINITIALIZED */
	unsigned long long rseq_cs;     /* the running critical section's rseq_cs, or 0 */
	unsigned int flags;             /* none may be set */
	unsigned int node_id;           /* the NUMA node */
	unsigned int mm_cid;            /* an ID unique among the process's running threads */
} __attribute__((aligned(32)));

#endif
