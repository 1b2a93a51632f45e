/* Host stand-in: each test thread is a CPU with its own count (hostenv.c). */
#ifndef ASM_PREEMPT_H
#define ASM_PREEMPT_H

extern __thread int host_preempt_count;

static inline int preempt_count(void) { return host_preempt_count; }
static inline void preempt_count_set(int pc) { host_preempt_count = pc; }
static inline void __preempt_count_add(int val) { host_preempt_count += val; }
static inline void __preempt_count_sub(int val) { host_preempt_count -= val; }

#endif
