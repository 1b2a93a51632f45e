/*
 * ktest suite "paging": mm/pgtable.c on the live kernel page tables
 * (init_pgd, loaded in CR3) and on a fresh user root.  Accesses that must
 * fault go through read_u64_nofault()/write_u64_nofault(), whose faults the
 * page-fault handler turns into -EFAULT via the exception table.
 *
 * Lock order: see mm/rmap.c; none here: the tables are the test's own.
 */
#include "linux/errno.h"
#include "linux/ktest.h"
#include "linux/string.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include <asm/uaccess.h>

extern pgd_t *init_pgd;

/* An unused, canonical kernel range (Linux's vmalloc area) for test maps. */
#define TEST_VA         0xffffc90000000000UL

static unsigned long pt_pages(void)
{
	return READ_ONCE(nr_pagetable_pages);
}

/* A 4 KiB mapping works both ways, then faults once unmapped. */
static void paging_map_pte(struct ktest *t)
{
	struct page *page = alloc_page(__GFP_ZERO);
	u64 *direct, val = 0;
	struct pgwalk w;
	pgval_t old;

	KTEST_ASSERT(t, page);
	direct = page_address(page);
	direct[3] = 0x1234abcd;
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, page_to_pfn(page), PAGE_KERNEL, PT_PTE), 0);
	KTEST_EXPECT_EQ(t, read_u64_nofault(&val, (u64 *)TEST_VA + 3), 0);
	KTEST_EXPECT_EQ(t, val, 0x1234abcd);
	KTEST_EXPECT_EQ(t, write_u64_nofault((u64 *)TEST_VA + 7, 0x55aa), 0);
	KTEST_EXPECT_EQ(t, direct[7], 0x55aa);
	KTEST_EXPECT_EQ(t, pgtable_lookup(init_pgd, TEST_VA + 24, &w), PT_PTE);
	KTEST_EXPECT_EQ(t, w.phys, ((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT) + 24);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PTE, &old), 0);
	KTEST_EXPECT_EQ(t, pgval_pfn(old), page_to_pfn(page));
	KTEST_EXPECT_EQ(t, read_u64_nofault(&val, (u64 *)TEST_VA), -EFAULT);
	KTEST_EXPECT_EQ(t, pgtable_lookup(init_pgd, TEST_VA, &w), 0);
	__free_page(page);
}

/* A 2 MiB PMD leaf maps 512 pages at once; no PTE can go inside it. */
static void paging_map_pmd(struct ktest *t)
{
	struct page *page = alloc_pages(__GFP_ZERO, HPAGE_PMD_ORDER);
	unsigned long pfn;
	struct pgwalk w;
	u64 *direct, val = 0;

	KTEST_ASSERT(t, page);
	pfn = page_to_pfn(page);
	direct = page_address(page);
	direct[PMD_SIZE / 8 - 1] = 0xfeed;
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, pfn, PAGE_KERNEL, PT_PMD), 0);
	KTEST_EXPECT_EQ(t, read_u64_nofault(&val, (u64 *)(TEST_VA + PMD_SIZE) - 1), 0);
	KTEST_EXPECT_EQ(t, val, 0xfeed);
	KTEST_EXPECT_EQ(t, write_u64_nofault((u64 *)(TEST_VA + PMD_SIZE / 2), 7), 0);
	KTEST_EXPECT_EQ(t, direct[PMD_SIZE / 16], 7);
	KTEST_EXPECT_EQ(t, pgtable_lookup(init_pgd, TEST_VA + 0x12345, &w), PT_PMD);
	KTEST_EXPECT(t, pmd_trans_huge(__pmd(w.entry[PT_PMD])));
	KTEST_EXPECT_EQ(t, w.phys, ((phys_addr_t)pfn << PAGE_SHIFT) + 0x12345);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA + PAGE_SIZE, pfn, PAGE_KERNEL, PT_PTE), -EEXIST);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PTE, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PMD, NULL), 0);
	KTEST_EXPECT_EQ(t, read_u64_nofault(&val, (u64 *)TEST_VA), -EFAULT);
	__free_pages(page, HPAGE_PMD_ORDER);
}

/* Misuse gets an errno, never a corrupted table. */
static void paging_errors(struct ktest *t)
{
	struct page *page = alloc_page(0);
	unsigned long pfn;

	KTEST_ASSERT(t, page);
	pfn = page_to_pfn(page);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA + 8, pfn, PAGE_KERNEL, PT_PTE), -EINVAL);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, pfn, PAGE_KERNEL, PT_PUD), -EINVAL);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, pfn | 1, PAGE_KERNEL, PT_PMD), -EINVAL);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PTE, NULL), -ENOENT);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, pfn, PAGE_KERNEL, PT_PTE), 0);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, pfn, PAGE_KERNEL, PT_PTE), -EEXIST);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, ALIGN_DOWN(pfn, HPAGE_PMD_NR), PAGE_KERNEL,
				    PT_PMD), -EEXIST);        /* a PTE table is in the way */
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PMD, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PTE, NULL), 0);
	__free_page(page);
}

/* A read-only kernel mapping rejects writes (CR0.WP). */
static void paging_readonly(struct ktest *t)
{
	struct page *page = alloc_page(__GFP_ZERO);
	u64 val = 0;

	KTEST_ASSERT(t, page);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, page_to_pfn(page), PAGE_KERNEL_RO, PT_PTE), 0);
	KTEST_EXPECT_EQ(t, read_u64_nofault(&val, (u64 *)TEST_VA), 0);
	KTEST_EXPECT_EQ(t, write_u64_nofault((u64 *)TEST_VA, 1), -EFAULT);
	KTEST_EXPECT_EQ(t, ((u64 *)page_address(page))[0], 0);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PTE, NULL), 0);
	__free_page(page);
}

/*
 * Table pages appear and go away level by level: two PTEs in one PT share
 * it; one in another PUD range needs its own PD and PT.
 */
static void paging_tables_freed(struct ktest *t)
{
	unsigned long base = pt_pages();
	struct page *page = alloc_page(0);
	unsigned long pfn, far = TEST_VA + PUD_SIZE;

	KTEST_ASSERT(t, page);
	pfn = page_to_pfn(page);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA, pfn, PAGE_KERNEL, PT_PTE), 0);
	KTEST_EXPECT_EQ(t, pt_pages(), base + 3);       /* PUD, PMD, PTE tables */
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, TEST_VA + PAGE_SIZE, pfn, PAGE_KERNEL, PT_PTE), 0);
	KTEST_EXPECT_EQ(t, pt_pages(), base + 3);
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, far, pfn, PAGE_KERNEL, PT_PTE), 0);
	KTEST_EXPECT_EQ(t, pt_pages(), base + 5);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, far, PT_PTE, NULL), 0);
	KTEST_EXPECT_EQ(t, pt_pages(), base + 3);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA, PT_PTE, NULL), 0);
	KTEST_EXPECT_EQ(t, pt_pages(), base + 3);
	KTEST_EXPECT_EQ(t, pgtable_unmap(init_pgd, TEST_VA + PAGE_SIZE, PT_PTE, NULL), 0);
	KTEST_EXPECT_EQ(t, pt_pages(), base);
	KTEST_EXPECT(t, pgd_none(init_pgd[pgd_index(TEST_VA)]));
	__free_page(page);
}

/* A user root shares the kernel half and tears down cleanly. */
static void paging_user_pgd(struct ktest *t)
{
	pgd_t *pgd = pgd_alloc();
	struct page *small = alloc_page(0), *huge = alloc_pages(0, HPAGE_PMD_ORDER);
	struct pgwalk w;

	KTEST_ASSERT(t, pgd && small && huge);
	KTEST_EXPECT_EQ(t, pgd_val(pgd[pgd_index(PAGE_OFFSET)]), pgd_val(init_pgd[pgd_index(PAGE_OFFSET)]));
	KTEST_EXPECT_EQ(t, pgtable_map(pgd, 0x400000, page_to_pfn(small), PAGE_USER_RW, PT_PTE), 0);
	KTEST_EXPECT_EQ(t, pgtable_map(pgd, 0x40000000, page_to_pfn(huge), PAGE_USER_RW, PT_PMD), 0);
	KTEST_EXPECT_EQ(t, pgtable_lookup(pgd, 0x400123, &w), PT_PTE);
	KTEST_EXPECT(t, pgval_user(w.entry[PT_PTE]) && pgval_write(w.entry[PT_PTE]));
	KTEST_EXPECT_EQ(t, pgtable_lookup(pgd, 0x40000000 + 0x1fffff, &w), PT_PMD);
	KTEST_EXPECT_EQ(t, pgtable_lookup(init_pgd, 0x400123, &w), 0);  /* not live in CR3 */
	KTEST_EXPECT_EQ(t, pgtable_unmap(pgd, 0x400000, PT_PTE, NULL), 0);
	KTEST_EXPECT_EQ(t, pgtable_unmap(pgd, 0x40000000, PT_PMD, NULL), 0);
	pgtable_free_range(pgd, 0, TASK_SIZE_MAX);
	pgd_free(pgd);
	__free_page(small);
	__free_pages(huge, HPAGE_PMD_ORDER);
}

static const struct ktest_case paging_cases[] = {
	KTEST_CASE(paging_map_pte),
	KTEST_CASE(paging_map_pmd),
	KTEST_CASE(paging_errors),
	KTEST_CASE(paging_readonly),
	KTEST_CASE(paging_tables_freed),
	KTEST_CASE(paging_user_pgd),
};
KTEST_SUITE(paging, paging_cases);
