/*
 * Host stand-in for arch/x86_64/include/asm/page.h: "physical memory" is
 * one mmap()ed block of the test process, physical address 0 at
 * host_phys_base (tests/host/hostenv.c).
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include "linux/types.h"

#define PAGE_SHIFT      12
#define PAGE_SIZE       (1UL << PAGE_SHIFT)
#define PAGE_MASK       (~(PAGE_SIZE - 1))
#define TASK_SIZE_MAX   0x00007ffffffff000UL

extern char *host_phys_base;

static inline void *__va(phys_addr_t pa)
{
	return host_phys_base + pa;
}

static inline phys_addr_t __pa_direct(const void *va)
{
	return (phys_addr_t)((const char *)va - host_phys_base);
}

static inline phys_addr_t __pa(const void *va)
{
	return (phys_addr_t)((const char *)va - host_phys_base);
}

#endif
