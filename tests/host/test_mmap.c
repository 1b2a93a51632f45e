/*
 * Host tests of the address-space code: VMAs (mm/mmap.c), anon faults,
 * zap and copy-on-write (mm/memory.c), fork's copy (mm/fork.c) — checked
 * through the software MMU and the rmap state of the folios involved.
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include "linux/mmap_lock.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE 0x10000000UL

MM_TEST_FIXTURE()

static int nr_vmas(struct mm_struct *m)
{
	struct vm_area_struct *v;
	int n = 0;
	unsigned long last = 0;

	list_for_each_entry(v, &m->mmap, vm_list) {
		assert_true(v->vm_start >= last && v->vm_start < v->vm_end);
		last = v->vm_end;
		n++;
	}
	return n;
}

/* munmap in the middle splits a VMA; the list stays sorted; MAP_FIXED replaces and merges. */
static void test_vma_split_and_fixed(void **state)
{
	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 16 * PAGE_SIZE, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 16; i++)
		user_write(mm, BASE + i * PAGE_SIZE, 0x40 + i);
	assert_int_equal(do_munmap(mm, BASE + 4 * PAGE_SIZE, 4 * PAGE_SIZE), 0);
	assert_int_equal(nr_vmas(mm), 2);
	assert_int_equal(read_byte(mm, BASE + 5 * PAGE_SIZE, ACC_USER), -1);
	assert_int_equal(read_byte(mm, BASE + 9 * PAGE_SIZE, ACC_USER), 0x49);
	assert_int_equal(do_mmap(mm, NULL, BASE, PAGE_SIZE, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	assert_int_equal(nr_vmas(mm), 2);       /* merged with the rest, as Linux's mmap_region */
	assert_int_equal(find_vma(mm, BASE)->vm_end, BASE + 4 * PAGE_SIZE);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), -1);            /* replaced: not faulted yet */
	assert_int_equal(read_byte(mm, BASE + PAGE_SIZE, ACC_USER), 0x41);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 11);
	assert_int_equal(do_munmap(mm, BASE + 1, PAGE_SIZE), -EINVAL);
}

/*
 * A fault never grants more than the VMA allows: the access checks are
 * the callers' (the trap's access_error, fixup_user_fault, GUP), and a
 * write fault on a read-only private VMA — what FOLL_FORCE asks — gets
 * its own copy, mapped read-only (Linux's maybe_mkwrite).
 */
static void test_fault_permissions(void **state)
{
	struct vm_area_struct *ro;

	(void)state;
	ro = vma_create(mm, BASE, BASE + PAGE_SIZE, VM_READ);
	assert_int_equal(handle_mm_fault(ro, BASE, 0), 0);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 0);
	assert_int_equal(handle_mm_fault(ro, BASE, FAULT_FLAG_WRITE), 0);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 0);
	assert_int_equal(read_byte(mm, BASE, ACC_USER | ACC_WRITE), -1);
	assert_null(find_vma(mm, BASE + PAGE_SIZE));
}

/* brk grows and shrinks the heap and refuses to run into a mapping. */
static void test_brk(void **state)
{
	(void)state;
	mm->start_brk = mm->brk = BASE;
	assert_int_equal(do_brk(mm, BASE + 3 * PAGE_SIZE + 5), BASE + 3 * PAGE_SIZE + 5);
	user_write(mm, BASE + 3 * PAGE_SIZE, 1);
	assert_int_equal(do_brk(mm, BASE + PAGE_SIZE), BASE + PAGE_SIZE);
	assert_int_equal(read_byte(mm, BASE + 3 * PAGE_SIZE, ACC_USER), -1);
	assert_int_equal(do_mmap(mm, NULL, BASE + 8 * PAGE_SIZE, PAGE_SIZE, PROT_READ,
				      MAP_PRIVATE | MAP_FIXED, 0),
			 BASE + 8 * PAGE_SIZE);
	assert_int_equal(do_brk(mm, BASE + 10 * PAGE_SIZE), BASE + PAGE_SIZE);  /* refused */
	assert_int_equal(do_brk(mm, BASE - 1), BASE + PAGE_SIZE);
}

/*
 * fork: both sides see the same pages write-protected, each page mapped
 * twice (rmap), not exclusive; a write copies in the writer and leaves the
 * other side's page; once a page is alone again, a write reuses it.
 */
static void test_fork_cow(void **state)
{
	struct mm_struct *child;
	struct folio *f;
	phys_addr_t pa, pa2;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 8; i++)
		user_write(mm, BASE + i * PAGE_SIZE, 'p');
	child = dup_mm(mm);
	assert_non_null(child);
	assert_int_equal(softmmu_translate((pgd_t *)mm->pgd, BASE, ACC_USER | ACC_WRITE, &pa),
			 SOFTMMU_PROTECTION);
	assert_int_equal(softmmu_translate((pgd_t *)child->pgd, BASE, ACC_USER, &pa2), SOFTMMU_OK);
	softmmu_translate((pgd_t *)mm->pgd, BASE, ACC_USER, &pa);
	assert_int_equal(pa, pa2);                              /* same page */
	f = page_folio(pfn_to_page(pa >> PAGE_SHIFT));
	assert_int_equal(folio_mapcount(f), 2);
	assert_int_equal(folio_ref_count(f), 2);
	assert_false(PageAnonExclusive(&f->page));
	user_write(child, BASE, 'c');                           /* child copies */
	assert_int_equal(read_byte(child, BASE, ACC_USER), 'c');
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 'p');
	assert_int_equal(folio_mapcount(f), 1);
	user_write(mm, BASE, 'P');                              /* parent alone: reuse */
	softmmu_translate((pgd_t *)mm->pgd, BASE, ACC_USER, &pa2);
	assert_int_equal(pa2, pa);
	assert_true(PageAnonExclusive(&f->page));
	exit_mmap(child);                                       /* child exits */
	mmdrop(child);
	user_write(mm, BASE + PAGE_SIZE, 'Q');                  /* refcount 1: reuse */
	assert_int_equal(read_byte(mm, BASE + PAGE_SIZE, ACC_USER), 'Q');
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 8);
}

/*
 * mprotect splits VMAs and merges them back (RO then RW on one page leaves
 * one VMA); write access returns only to exclusive pages.
 */
static void test_mprotect(void **state)
{
	struct mm_struct *child;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 8; i++)
		user_write(mm, BASE + i * PAGE_SIZE, 'm');
	assert_int_equal(do_mprotect(mm, BASE + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ), 0);
	assert_int_equal(nr_vmas(mm), 3);
	assert_int_equal(read_byte(mm, BASE + 2 * PAGE_SIZE, ACC_USER | ACC_WRITE), -1);
	assert_int_equal(read_byte(mm, BASE + 2 * PAGE_SIZE, ACC_USER), 'm');
	assert_int_equal(do_mprotect(mm, BASE + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	assert_int_equal(nr_vmas(mm), 1);
	assert_int_equal(read_byte(mm, BASE + 2 * PAGE_SIZE, ACC_USER | ACC_WRITE), 'm');
	assert_int_equal(do_mprotect(mm, BASE + 7 * PAGE_SIZE, 2 * PAGE_SIZE, PROT_READ), -ENOMEM);
	child = dup_mm(mm);                     /* pages now shared: not exclusive */
	assert_int_equal(do_mprotect(mm, BASE, PAGE_SIZE, PROT_READ), 0);
	assert_int_equal(do_mprotect(mm, BASE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	assert_int_equal(read_byte(mm, BASE, ACC_USER | ACC_WRITE), -1);   /* still COW */
	user_write(mm, BASE, 'n');
	assert_int_equal(read_byte(child, BASE, ACC_USER), 'm');
	exit_mmap(child);
	mmdrop(child);
}

/*
 * PROT_NONE of touched pages: the MMU faults on every access and the
 * fault handler refuses it, yet the pages stay mapped (same frames, same
 * rmap), fork copies the entries, and access comes back with the data.
 */
static void test_prot_none(void **state)
{
	struct mm_struct *child;
	phys_addr_t pa, pa2;
	struct folio *f;
	pte_t *pte;

	unsigned long min_flt = host_min_flt;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 4; i++)
		user_write(mm, BASE + i * PAGE_SIZE, 'g');
	assert_int_equal(host_min_flt - min_flt, 4);    /* handle_mm_fault counted each */
	softmmu_translate((pgd_t *)mm->pgd, BASE + PAGE_SIZE, ACC_USER, &pa);
	f = page_folio(pfn_to_page(pa >> PAGE_SHIFT));
	assert_int_equal(do_mprotect(mm, BASE + PAGE_SIZE, PAGE_SIZE, 0), 0);
	assert_int_equal(softmmu_translate((pgd_t *)mm->pgd, BASE + PAGE_SIZE, ACC_USER, &pa2),
			 SOFTMMU_NOT_PRESENT);
	assert_int_equal(softmmu_translate((pgd_t *)mm->pgd, BASE + PAGE_SIZE, 0, &pa2),
			 SOFTMMU_NOT_PRESENT);                  /* the kernel cannot reach it either */
	pte = test_find_pte(mm, BASE + PAGE_SIZE);
	assert_true(pte_present(*pte) && pte_protnone(*pte));
	assert_int_equal(pte_pfn(*pte), pa >> PAGE_SHIFT);
	assert_int_equal(folio_mapcount(f), 1);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 'g');  /* its neighbours are not touched */
	child = dup_mm(mm);                                     /* fork copies the PROT_NONE entry */
	assert_non_null(child);
	assert_int_equal(folio_mapcount(f), 2);
	assert_int_equal(softmmu_translate((pgd_t *)child->pgd, BASE + PAGE_SIZE, ACC_USER, &pa2),
			 SOFTMMU_NOT_PRESENT);
	assert_int_equal(do_mprotect(child, BASE + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	assert_int_equal(read_byte(child, BASE + PAGE_SIZE, ACC_USER), 'g');
	user_write(child, BASE + PAGE_SIZE, 'c');               /* copy-on-write, not in place */
	exit_mmap(child);
	mmdrop(child);
	assert_int_equal(folio_mapcount(f), 1);
	assert_int_equal(do_mprotect(mm, BASE + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	assert_int_equal(read_byte(mm, BASE + PAGE_SIZE, ACC_USER), 'g');
	assert_int_equal(do_mprotect(mm, BASE, 4 * PAGE_SIZE, 0), 0);
	assert_int_equal(do_munmap(mm, BASE, 4 * PAGE_SIZE), 0); /* zap frees PROT_NONE pages */
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 0);
}

/*
 * RLIMIT_DATA bounds private writable memory (mmap, mprotect to writable,
 * brk) and RLIMIT_AS every mapping; what MAP_FIXED replaces is not new.
 */
static void test_rlimits(void **state)
{
	(void)state;
	host_rlimit[RLIMIT_DATA][0] = 8 * PAGE_SIZE;
	assert_int_equal(do_mmap(mm, NULL, BASE, 6 * PAGE_SIZE, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	assert_int_equal(do_mmap(mm, NULL, BASE + 16 * PAGE_SIZE, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_FIXED, 0), -ENOMEM);
	assert_int_equal(do_mmap(mm, NULL, BASE, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	assert_int_equal(do_mmap(mm, NULL, BASE + 16 * PAGE_SIZE, 4 * PAGE_SIZE, PROT_READ,
				      MAP_PRIVATE | MAP_FIXED, 0),
			 BASE + 16 * PAGE_SIZE);
	assert_int_equal(do_mprotect(mm, BASE + 16 * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE),
			 -ENOMEM);
	assert_int_equal(mm_vm_pages(mm, true), 8);
	assert_int_equal(mm_vm_pages(mm, false), 12);
	mm->start_brk = mm->brk = BASE + 64 * PAGE_SIZE;
	assert_int_equal(do_brk(mm, mm->brk + PAGE_SIZE), BASE + 64 * PAGE_SIZE);
	host_rlimit[RLIMIT_DATA][0] = RLIM_INFINITY;
	host_rlimit[RLIMIT_AS][0] = 13 * PAGE_SIZE;
	assert_int_equal(do_brk(mm, mm->brk + PAGE_SIZE), BASE + 65 * PAGE_SIZE);
	assert_int_equal(do_mmap(mm, NULL, BASE + 32 * PAGE_SIZE, PAGE_SIZE, PROT_READ,
				      MAP_PRIVATE | MAP_FIXED, 0),
			 -ENOMEM);
}

/*
 * The mmap_lock assertions (linux/mmap_lock.h): an mm no task has, as every
 * test's here, may be changed unlocked; once published, the VMA calls want
 * the lock (this build reads its count): unlocked, or read-held where they
 * want it for write, they warn.
 */
static void test_mmap_assert_published(void **state)
{
	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PAGE_SIZE, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0), BASE);
	mm_publish(mm);
	mmap_write_lock(mm);
	assert_int_equal(do_munmap(mm, BASE, PAGE_SIZE), 0);
	mmap_write_unlock(mm);
	assert_int_equal(nr_warnings, 0);
	assert_null(find_vma(mm, BASE));
	assert_int_equal(nr_warnings, 1);
	mmap_read_lock(mm);
	assert_null(find_vma(mm, BASE));
	mmap_assert_write_locked(mm);
	mmap_read_unlock(mm);
	assert_int_equal(nr_warnings, 2);
	nr_warnings = 0;                                /* the expected ones */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_vma_split_and_fixed, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fault_permissions, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_brk, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fork_cow, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mprotect, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_prot_none, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_rlimits, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mmap_assert_published, boot, shutdown),
	};

	return cmocka_run_group_tests_name("mmap", tests, NULL, NULL);
}
