/*
 * A software MMU for host tests: translates virtual addresses through the
 * page tables mm/pgtable.c builds, with x86's rules (all levels must allow
 * a write or a user access; huge leaves at PUD/PMD), sets accessed/dirty
 * bits like hardware, and caches translations in a small TLB that only
 * the flushes of <asm/tlbflush.h> invalidate (as one CPU would), so a
 * missing flush shows up as a stale translation.
 *
 * Locks: none.  Each host thread is a CPU with its own TLB; a walk reads
 * each entry once and sets A/D by compare-and-swap, so it races with the
 * kernel's page-table updates exactly as a CPU's MMU does.
 */
#ifndef TESTS_HOST_SOFTMMU_H
#define TESTS_HOST_SOFTMMU_H

#include "linux/types.h"
#include "linux/pgtable.h"

#define ACC_WRITE BIT(0)
#define ACC_USER  BIT(1)
#define ACC_EXEC  BIT(2)

enum softmmu_result { SOFTMMU_OK, SOFTMMU_NOT_PRESENT, SOFTMMU_PROTECTION };

enum softmmu_result softmmu_translate(pgd_t *pgd, unsigned long va, unsigned int access,
				      phys_addr_t *pa);
void softmmu_reset(void);
void softmmu_flush_local(void);
extern unsigned long softmmu_flushes;

#endif
