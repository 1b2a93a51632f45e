/*
 * The software MMU (see softmmu.h, which also says why it needs no lock)
 * and the host's arch hooks for mm/.
 */
#include "tests/host/softmmu.h"
#include <stdio.h>
#include <string.h>

#define TLB_SIZE 64

struct tlb_entry {
	bool valid;
	pgd_t *pgd;
	unsigned long vbase, size;      /* the leaf's whole range */
	phys_addr_t pbase;
	bool write, user, exec;
};

/*
 * One TLB per host thread, as one per CPU: a flush reaches only the
 * flushing thread's, as a local flush without a shootdown would.
 */
static _Thread_local struct tlb_entry tlb[TLB_SIZE];
unsigned long softmmu_flushes;

void softmmu_reset(void)
{
	softmmu_flush_local();
	softmmu_flushes = 0;
}

/* Drop every translation this thread ("CPU") cached, as a CR3 reload. */
void softmmu_flush_local(void)
{
	memset(tlb, 0, sizeof(tlb));
}

static struct tlb_entry *tlb_slot(unsigned long va)
{
	return &tlb[(va >> PAGE_SHIFT) % TLB_SIZE];
}

static enum softmmu_result check(const struct tlb_entry *e, unsigned int access)
{
	if ((access & ACC_WRITE) && !e->write)
		return SOFTMMU_PROTECTION;
	if ((access & ACC_USER) && !e->user)
		return SOFTMMU_PROTECTION;
	if ((access & ACC_EXEC) && !e->exec)
		return SOFTMMU_PROTECTION;
	return SOFTMMU_OK;
}

/*
 * Walk the tables like hardware, each entry read once (another thread may
 * be changing it); the leaf's pointer and the value read in *leaf, *val.
 */
static enum softmmu_result walk(pgd_t *pgd, unsigned long va, struct tlb_entry *out,
				pgval_t **leaf, pgval_t *val)
{
	pgval_t *table = &pgd->pgd;

	*out = (struct tlb_entry){ .valid = true, .pgd = pgd, .write = true, .user = true,
				   .exec = true };
	for (enum pt_level l = PT_PGD; l >= PT_PTE; l--) {
		pgval_t *e = &table[pt_index(va, l)], v = __atomic_load_n(e, __ATOMIC_ACQUIRE);

		if (!(v & SW_P))        /* what the MMU sees: PROT_NONE faults */
			return SOFTMMU_NOT_PRESENT;
		out->write &= pgval_write(v);
		out->user &= pgval_user(v);
		out->exec &= pgval_exec(v);
		if (l == PT_PTE || pgval_huge(v)) {
			if (l == PT_PGD)
				return SOFTMMU_PROTECTION;      /* no 512 GiB pages */
			out->size = level_size(l);
			out->vbase = va & ~(out->size - 1);
			out->pbase = (phys_addr_t)pgval_pfn(v) << PAGE_SHIFT;
			*leaf = e;
			*val = v;
			return SOFTMMU_OK;
		}
		table = __va((phys_addr_t)pgval_pfn(v) << PAGE_SHIFT);
	}
	return SOFTMMU_NOT_PRESENT;
}

/*
 * Walk, check, and set A (and D for a write) in the leaf as a CPU does:
 * by compare-and-swap against the value the walk read, walking again if
 * the entry changed meanwhile — never into an entry that was cleared or
 * write-protected under it (x86 sets them by a locked update of a
 * present entry only).
 */
static enum softmmu_result walk_and_mark(pgd_t *pgd, unsigned long va, unsigned int access,
					 struct tlb_entry *fresh)
{
	pgval_t *leaf, val;
	enum softmmu_result r;

	do {
		r = walk(pgd, va, fresh, &leaf, &val);
		if (r == SOFTMMU_OK)
			r = check(fresh, access);
		if (r != SOFTMMU_OK)
			return r;
	} while (!__atomic_compare_exchange_n(leaf, &val,
					      val | SW_A | ((access & ACC_WRITE) ? SW_D : 0), false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return SOFTMMU_OK;
}

enum softmmu_result softmmu_translate(pgd_t *pgd, unsigned long va, unsigned int access,
				      phys_addr_t *pa)
{
	struct tlb_entry *slot = tlb_slot(va), fresh;
	enum softmmu_result r;

	if (slot->valid && slot->pgd == pgd && va - slot->vbase < slot->size &&
	    check(slot, access) == SOFTMMU_OK) {
		*pa = slot->pbase + (va - slot->vbase);
		return SOFTMMU_OK;
	}
	r = walk_and_mark(pgd, va, access, &fresh);
	if (r != SOFTMMU_OK)
		return r;
	*slot = fresh;
	*pa = fresh.pbase + (va - fresh.vbase);
	return SOFTMMU_OK;
}

/* Like invlpg: drop every cached translation whose leaf covers addr. */
static void invlpg(unsigned long addr)
{
	for (int i = 0; i < TLB_SIZE; i++)
		if (addr - tlb[i].vbase < tlb[i].size)
			tlb[i].valid = false;
}

/*
 * One CPU's shootdown, with the kernel's rules: one invlpg per stride up
 * to the ceiling, else every translation of mm's tables.
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			unsigned int stride_shift, bool freed_tables)
{
	(void)freed_tables;
	__atomic_add_fetch(&softmmu_flushes, 1, __ATOMIC_RELAXED);
	if (end == TLB_FLUSH_ALL || (end - start) >> stride_shift > TLB_SINGLE_PAGE_FLUSH_CEILING) {
		for (int i = 0; i < TLB_SIZE; i++)
			if (tlb[i].pgd == mm->pgd)
				tlb[i].valid = false;
		return;
	}
	for (unsigned long addr = start; addr < end; addr += 1UL << stride_shift)
		invlpg(addr);
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	__atomic_add_fetch(&softmmu_flushes, 1, __ATOMIC_RELAXED);
	for (unsigned long addr = start; addr < end; addr += PAGE_SIZE)
		invlpg(addr);
}

void flush_tlb_all(void)
{
	softmmu_reset();
}

void arch_pgd_init(pgd_t *pgd)
{
	(void)pgd;
}

int pgval_decode(pgval_t e, char *buf, size_t size)
{
	if (e && !pgval_present(e))     /* a swap-format entry: migration (linux/swapops.h) */
		return snprintf(buf, size, "- swap type %u offset %#lx%s", __pgval_swp_type(e),
				__pgval_swp_offset(e), pgval_swp_soft_dirty(e) ? " SD" : "");
	return snprintf(buf, size, "%s%s%s%s%s%s%s%s", e & SW_P ? "P" : "-",
			e & SW_W ? " W" : " R", e & SW_U ? " U" : " K", e & SW_A ? " A" : "",
			e & SW_D ? " D" : "", e & SW_LEAF ? " LEAF" : "", e & SW_NONE ? " PROTNONE" : "",
			e & SW_X ? " X" : " NX");
}
