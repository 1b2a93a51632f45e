/*
 * From memblock to the buddy (Linux's mm/mm_init.c): size and place the
 * memmap, then free every page that is RAM and not reserved.
 *
 * Lock order: see mm/rmap.c; runs once at boot, before interrupts and tasks.
 */
#include "linux/mm.h"
#include "linux/memblock.h"
#include "linux/sched/mm.h"
#include "mm/deferred_split.h"
#include "linux/vmstat.h"
#include "linux/huge_mm.h"
#include "linux/pgtable.h"
#include "mm/rmap_trace.h"
#include "linux/fault-inject.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/swap.h"

static int free_to_buddy(phys_addr_t base, phys_addr_t end, void *arg)
{
	unsigned long start_pfn = ALIGN_UP(base, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long end_pfn = end >> PAGE_SHIFT;

	(void)arg;
	if (start_pfn < end_pfn)
		free_range_to_buddy(start_pfn, end_pfn);
	return 0;
}

/* Build mem_map for all of RAM, hand free memory to the buddy, reset mm state. */
void mem_init(void)
{
	unsigned long nr_pfns = memblock_end_of_ram() >> PAGE_SHIFT;
	size_t map_bytes = ALIGN_UP(nr_pfns * sizeof(struct page), PAGE_SIZE);
	phys_addr_t map_pa = memblock_alloc(map_bytes, PAGE_SIZE);

	if (!map_pa)
		panic("mem_init: no room for the memmap (%zu bytes)", map_bytes);
	mem_map_init(nr_pfns, __va(map_pa));
	init_zero_pfn();
	memblock_free_ranges(free_to_buddy, NULL);
	setup_per_zone_wmarks();
	lru_init();
	kmalloc_init();
	mm_ids_init();
	deferred_split_init();
	thp_policy_init();
	huge_zero_init();
	rmap_trace_init();
	fault_inject_init();
	memset(vm_node_stat, 0, sizeof(vm_node_stat));
	pr_info("Memory: %luK/%luK available (memmap %zuK at pfn %#lx)\n",
		zone.free_pages * (PAGE_SIZE / 1024),
		(unsigned long)(memblock_phys_mem_size() / 1024), map_bytes / 1024,
		(unsigned long)(map_pa >> PAGE_SHIFT));
}
