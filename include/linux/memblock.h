/* Early physical memory: the boot-time range list the buddy is built from. */
#ifndef _LINUX_MEMBLOCK_H
#define _LINUX_MEMBLOCK_H

#include "linux/types.h"

#define MEMBLOCK_MAX_REGIONS 64

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
};

struct memblock_type {
	unsigned int cnt;
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
};

struct memblock {
	struct memblock_type memory;    /* all usable RAM */
	struct memblock_type reserved;  /* kernel, boot data, early allocations */
	phys_addr_t alloc_limit;        /* early allocations stay below this */
};

extern struct memblock memblock;

void memblock_add(phys_addr_t base, phys_addr_t size);
void memblock_reserve(phys_addr_t base, phys_addr_t size);
phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align);
phys_addr_t memblock_end_of_ram(void);
phys_addr_t memblock_phys_mem_size(void);
bool memblock_is_reserved(phys_addr_t pa);
bool memblock_is_memory(phys_addr_t pa);
int memblock_free_ranges(int (*fn)(phys_addr_t base, phys_addr_t end, void *arg),
			 void *arg);

#endif
