/*
 * Sequence counters (Linux's include/linux/seqlock.h, the seqcount_t
 * part): one writer at a time changes a few words; readers on other CPUs
 * take no lock and retry if a write overlapped their reads.
 *
 *   writer:  begin (count odd) -> stores -> end (count even)
 *   reader:  seq = begin (waits out an odd count) -> loads -> retry(seq)?
 *
 * The fences order the count against the data: a reader that saw the
 * same even count before and after its loads saw no write in between.
 * The data are read and written with READ_ONCE/WRITE_ONCE.
 */
#ifndef _LINUX_SEQLOCK_H
#define _LINUX_SEQLOCK_H

#include "linux/compiler.h"
#include <asm/processor.h>

typedef struct seqcount {
	unsigned int sequence;
} seqcount_t;

static inline void write_seqcount_begin(seqcount_t *s)
{
	WRITE_ONCE(s->sequence, s->sequence + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void write_seqcount_end(seqcount_t *s)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	WRITE_ONCE(s->sequence, s->sequence + 1);
}

static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	while ((seq = READ_ONCE(s->sequence)) & 1)
		cpu_relax();
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return seq;
}

static inline bool read_seqcount_retry(const seqcount_t *s, unsigned int seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return READ_ONCE(s->sequence) != seq;
}

#endif
