/*
 * Helpers of the address-space host tests: user-like reads and writes of
 * an mm through the software MMU, faulting pages in as a CPU would.
 * Include after <cmocka.h>.
 */
#ifndef TESTS_HOST_MM_HELPERS_H
#define TESTS_HOST_MM_HELPERS_H

#include "tests/host/softmmu.h"
#include "mm/mm_api.h"
#include "mm/pgtable.h"

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

#endif
