/* difftest's shared constants and slots (user/difftest.c includes the rest). */
#ifndef DIFFTEST_H
#define DIFFTEST_H

#include "../x86_user.h"

#define PG              4096UL
#define PMD             (2UL << 20)
/* The arena: far from where either kernel puts the binary, brk, mmaps or stack. */
#define ARENA           0x100000000000UL
#define WORLD           (16UL << 20)            /* the modelled part of the arena */
#define WORLD_PAGES     (WORLD / PG)
#define NEAR            (1UL << 32)             /* addresses printed as A+x */
#define KADDR           0xffffffff81000000UL    /* kernel half on both */
#define MAX_STEPS       2000
#define RUNNER_TIMEOUT_MS 20000
#define SELF_FAR        (48L << 10)             /* below any build's size of difftest */
#define ARENA_DIR       "/tmp/difftest"         /* the runner's working directory */
#define THP_DIR         "/sys/kernel/mm/transparent_hugepage/"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

/* model[] per page: PROT_* bits (1, 2, 4) and these. */
#define M_MAPPED        0x10
#define M_UNKNOWN       0x20    /* a failed mprotect may have changed it: probe only */

/* What an open file is: its bytes are compared only where both kernels agree on them. */
enum { F_NONE, F_SELF, F_KNOB, F_DIR, F_PROC };

#define NR_PIPES        3
#define NR_KIDS         4
#define NR_FILES        8

struct pipe_slot {
	int used, fd[2];        /* fd[i] < 0 once closed */
	long bytes;             /* in the pipe, by the runner's count */
};

struct child_slot {
	int used, pid, hold;    /* hold: the write end the child reads for EOF */
	int reaped;
};

void close_extra_fds(int keep1, int keep2);
int fd_reserved(int fd);

#endif
