/*
 * The host test environment for mm/: a fake machine (RAM as one mmap()ed
 * block, booted through memblock and mem_init like the kernel), printk into
 * a capture buffer, and panic as a test failure.
 */
#ifndef TESTS_HOST_HOSTENV_H
#define TESTS_HOST_HOSTENV_H

#include "linux/types.h"
#include "uapi/linux/resource.h"

/* Build a fresh machine with "bytes" of RAM (the old one is discarded). */
void host_machine_boot(size_t bytes);
void host_machine_shutdown(void);

/* The limits rlimit() reports (RLIM_INFINITY after each boot); tests lower them. */
extern unsigned long host_rlimit[RLIM_NLIMITS][2];
extern unsigned long host_min_flt, host_maj_flt;  /* task_account_fault()'s counts */

/* Everything printk'ed since the last host_log_clear(). */
const char *host_log(void);
void host_log_clear(void);

/* tests/host/hostswap.c: a swap device of slots slots in host memory. */
void host_swapon(unsigned int slots);
void host_swapoff(void);
extern int host_swap_fail_io;           /* I/Os to fail from now on */

/* A test group's name with the variant: "rmap (mapcount-pages)". */
#define VARIANT_LABEL(name) name " (" MAPCOUNT_VARIANT ")"

#endif
