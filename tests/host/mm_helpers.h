/*
 * Helpers of the address-space host tests: user-like reads and writes of
 * an mm through the software MMU, faulting pages in as a CPU would.
 * Include after <cmocka.h>.
 */
#ifndef TESTS_HOST_MM_HELPERS_H
#define TESTS_HOST_MM_HELPERS_H

#include "tests/host/softmmu.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include "mm/deferred_split.h"
#include "linux/vmstat.h"

/* Is addr mapped in this mm, and to what byte value (via the soft MMU)? */
static inline int read_byte(struct mm_struct *m, unsigned long addr, unsigned int access)
{
	phys_addr_t pa;

	if (softmmu_translate((pgd_t *)m->pgd, addr, access, &pa) != SOFTMMU_OK)
		return -1;
	return *(unsigned char *)__va(pa);
}

/* Touch addr like a user write: fault it in, then write through the MMU. */
static inline void user_write(struct mm_struct *m, unsigned long addr, unsigned char v)
{
	phys_addr_t pa;

	if (softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER | ACC_WRITE, &pa) != SOFTMMU_OK) {
		struct vm_area_struct *vma = find_vma(m, addr);

		assert_non_null(vma);
		assert_int_equal(handle_mm_fault(vma, addr, FAULT_FLAG_WRITE | FAULT_FLAG_USER), 0);
		assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER | ACC_WRITE, &pa),
				 SOFTMMU_OK);
	}
	*(unsigned char *)__va(pa) = v;
}

/* An mm's process exits: its mappings go, then the mm. */
static inline void mm_exit(struct mm_struct *m)
{
	exit_mmap(m);
	mmdrop(m);
}

/*
 * A test's setup (cmocka): a 64 MiB machine booted, its memory counts
 * kept in *before, and a fresh mm with Linux's mmap base.
 */
static inline struct mm_struct *mm_test_boot(struct mem_counts *before)
{
	struct mm_struct *m;

	host_machine_boot(64UL << 20);
	mem_counts_snapshot(before);
	m = mm_alloc();
	m->mmap_base = MMAP_BASE;
	return m;
}

/*
 * A test's teardown: m (if any) exits; every page, table and byte is back
 * to *before, no anon page or THP is counted, the deferred split queue is
 * empty, no bad page and no warning; then the machine goes.
 */
static inline void mm_test_shutdown(struct mm_struct *m, const struct mem_counts *before)
{
	struct mem_counts after;

	if (m)
		mm_exit(m);
	rcu_barrier();                  /* the page cache's nodes, freed a grace period late */
	mem_counts_snapshot(&after);
	assert_true(mem_counts_equal(before, &after));
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 0);
	assert_int_equal(global_node_page_state(NR_ANON_THPS), 0);
	assert_int_equal(deferred_split_count(), 0);
	assert_int_equal(nr_bad_pages, 0);
	assert_int_equal(nr_warnings, 0);
	host_machine_shutdown();
}

/*
 * The cmocka fixture of a test program with one mm, "mm": boot() makes the
 * machine and the mm (MM_TEST_BOOT), shutdown() lets it exit and checks
 * that everything came back (MM_TEST_FIXTURE: both).
 */
#define MM_TEST_BOOT()							\
	static struct mm_struct *mm;					\
	static struct mem_counts before;				\
	static int boot(void **state)					\
	{								\
		(void)state;						\
		mm = mm_test_boot(&before);				\
		return 0;						\
	}

#define MM_TEST_FIXTURE()						\
	MM_TEST_BOOT()							\
	static int shutdown(void **state)				\
	{								\
		(void)state;						\
		mm_test_shutdown(mm, &before);				\
		return 0;						\
	}

#endif
