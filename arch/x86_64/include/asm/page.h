/*
 * x86-64 virtual memory layout (4-level paging, 48-bit addresses):
 *
 *   0x0000000000000000 - 0x00007fffffffffff  user space (128 TiB)
 *   0xffff888000000000 - ...                 direct map of all RAM (PAGE_OFFSET)
 *   0xffffffff80000000 - 0xffffffffbfffffff  kernel image (KERNEL_VMA, -mcmodel=kernel)
 *
 *   virtual address bits:
 *   63      48 47    39 38    30 29    21 20    12 11         0
 *   [ sign   ][ PML4  ][ PDPT  ][  PD   ][  PT   ][  offset   ]
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include "linux/types.h"

#define PAGE_SHIFT      12
#define PAGE_SIZE       (1UL << PAGE_SHIFT)
#define PAGE_MASK       (~(PAGE_SIZE - 1))
#define PAGE_OFFSET     0xffff888000000000UL
#define KERNEL_VMA      0xffffffff80000000UL
#define TASK_SIZE_MAX   0x00007ffffffff000UL

/* Direct map: every physical address has a kernel virtual address. */
static inline void *__va(phys_addr_t pa)
{
	return (void *)(pa + PAGE_OFFSET);
}

/* Physical address of a direct-map address (a buddy page: a page table, a folio). */
static inline phys_addr_t __pa_direct(const void *va)
{
	return (unsigned long)va - PAGE_OFFSET;
}

/* Physical address of a direct-map or kernel-image address. */
static inline phys_addr_t __pa(const void *va)
{
	unsigned long v = (unsigned long)va;

	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - PAGE_OFFSET;
}

#endif
