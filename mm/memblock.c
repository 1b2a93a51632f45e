/*
 * memblock: the boot-time view of physical memory, before the buddy exists.
 *
 * Two sorted lists of disjoint ranges: "memory" (usable RAM from the boot
 * loader's map) and "reserved" (kernel image, boot data, early allocations).
 * memblock_alloc() hands out the lowest free range; once the buddy starts,
 * memblock_free_ranges() gives it everything that is memory and not reserved.
 *
 * Lock order: see mm/rmap.c; none; used on one CPU before interrupts are
 * enabled.
 */
#include "linux/memblock.h"
#include "linux/printk.h"

struct memblock memblock = { .alloc_limit = ~0UL };

/* Insert [base, base+size) into a sorted list, merging overlaps and neighbours. */
static void memblock_insert(struct memblock_type *t, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size;
	unsigned int i = 0, j;

	if (!size)
		return;
	while (i < t->cnt && t->regions[i].base + t->regions[i].size < base)
		i++;
	/* regions i..j-1 touch or overlap the new range: fold them in */
	for (j = i; j < t->cnt && t->regions[j].base <= end; j++) {
		base = MIN(base, t->regions[j].base);
		end = MAX(end, t->regions[j].base + t->regions[j].size);
	}
	if (i == j) {
		if (t->cnt == MEMBLOCK_MAX_REGIONS)
			panic("memblock_insert: more than %d regions", MEMBLOCK_MAX_REGIONS);
		for (j = t->cnt; j > i; j--)
			t->regions[j] = t->regions[j - 1];
		t->cnt++;
		j = i + 1;
	} else {
		unsigned int removed = j - i - 1, k;

		for (k = i + 1; k + removed < t->cnt; k++)
			t->regions[k] = t->regions[k + removed];
		t->cnt -= removed;
	}
	t->regions[i].base = base;
	t->regions[i].size = end - base;
}

void memblock_add(phys_addr_t base, phys_addr_t size)
{
	memblock_insert(&memblock.memory, base, size);
}

void memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	memblock_insert(&memblock.reserved, base, size);
}

static bool type_contains(const struct memblock_type *t, phys_addr_t pa)
{
	for (unsigned int i = 0; i < t->cnt; i++)
		if (pa >= t->regions[i].base && pa < t->regions[i].base + t->regions[i].size)
			return true;
	return false;
}

bool memblock_is_reserved(phys_addr_t pa)
{
	return type_contains(&memblock.reserved, pa);
}

bool memblock_is_memory(phys_addr_t pa)
{
	return type_contains(&memblock.memory, pa);
}

/*
 * Call fn(base, end) for each range that is memory and not reserved, in
 * ascending order.  Returns the first nonzero value fn returns, else 0.
 */
int memblock_free_ranges(int (*fn)(phys_addr_t, phys_addr_t, void *), void *arg)
{
	const struct memblock_type *r = &memblock.reserved;

	for (unsigned int i = 0; i < memblock.memory.cnt; i++) {
		phys_addr_t base = memblock.memory.regions[i].base;
		phys_addr_t end = base + memblock.memory.regions[i].size;

		for (unsigned int k = 0; k < r->cnt && base < end; k++) {
			phys_addr_t rb = r->regions[k].base;
			phys_addr_t re = rb + r->regions[k].size;
			int ret;

			if (re <= base || rb >= end)
				continue;
			if (rb > base && (ret = fn(base, rb, arg)))
				return ret;
			base = MAX(base, re);
		}
		if (base < end) {
			int ret = fn(base, end, arg);

			if (ret)
				return ret;
		}
	}
	return 0;
}

struct alloc_req {
	phys_addr_t size, align, found;
};

static int try_fit(phys_addr_t base, phys_addr_t end, void *arg)
{
	struct alloc_req *req = arg;
	phys_addr_t pa = ALIGN_UP(base, req->align);

	if (pa < end && end - pa >= req->size && pa + req->size <= memblock.alloc_limit) {
		req->found = pa;
		return 1;
	}
	return 0;
}

/* Reserve and return the lowest free, aligned range of size bytes; 0 if none. */
phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	struct alloc_req req = { size, align, 0 };

	if (!memblock_free_ranges(try_fit, &req))
		return 0;
	memblock_reserve(req.found, size);
	return req.found;
}

phys_addr_t memblock_end_of_ram(void)
{
	const struct memblock_type *m = &memblock.memory;

	return m->cnt ? m->regions[m->cnt - 1].base + m->regions[m->cnt - 1].size : 0;
}

phys_addr_t memblock_phys_mem_size(void)
{
	phys_addr_t total = 0;

	for (unsigned int i = 0; i < memblock.memory.cnt; i++)
		total += memblock.memory.regions[i].size;
	return total;
}
