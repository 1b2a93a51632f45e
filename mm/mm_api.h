/*
 * The address-space interface the kernel's system calls and fault handler
 * use (Linux's mm/mmap.c and mm/memory.c entry points).
 *
 * Lock order: see mm/rmap.c.  One task per mm (no threads): callers run on
 * the mm's own task or hold it alone (exec, exit); that ownership is the lock.
 */
#ifndef MM_MM_API_H
#define MM_MM_API_H

#include "mm/mm_types.h"
#include "uapi/linux/resource.h"

#define STACK_TOP       0x00007ffffffff000UL
#define STACK_SIZE_MAX  (8UL << 20)
#define MMAP_BASE       0x00007f0000000000UL

#define PROT_READ               0x1
#define PROT_WRITE              0x2
#define PROT_EXEC               0x4
#define PROT_SEM                0x8
#define PROT_GROWSDOWN          0x01000000
#define PROT_GROWSUP            0x02000000

#define MAP_SHARED              0x01
#define MAP_PRIVATE             0x02
#define MAP_TYPE                0x0f
#define MAP_FIXED               0x10
#define MAP_ANONYMOUS           0x20
#define MAP_NORESERVE           0x4000
#define MAP_FIXED_NOREPLACE     0x100000

#define MADV_NORMAL             0
#define MADV_RANDOM             1
#define MADV_SEQUENTIAL         2
#define MADV_WILLNEED           3
#define MADV_DONTNEED           4
#define MADV_FREE               8
#define MADV_REMOVE             9
#define MADV_DONTFORK           10
#define MADV_DOFORK             11
#define MADV_MERGEABLE          12
#define MADV_UNMERGEABLE        13
#define MADV_HUGEPAGE           14
#define MADV_NOHUGEPAGE         15
#define MADV_DONTDUMP           16
#define MADV_DODUMP             17
#define MADV_WIPEONFORK         18
#define MADV_KEEPONFORK         19
#define MADV_COLD               20
#define MADV_PAGEOUT            21
#define MADV_POPULATE_READ      22
#define MADV_POPULATE_WRITE     23
#define MADV_DONTNEED_LOCKED    24

/* The VMA access flags of PROT_* bits (the same bits, as in Linux). */
static inline unsigned long calc_vm_prot_bits(unsigned long prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE : 0) |
	       (prot & PROT_EXEC ? VM_EXEC : 0);
}

/* Linux's stack_guard_gap: no mapping is placed this close below a stack. */
#define STACK_GUARD_GAP         (256UL << PAGE_SHIFT)
/* Linux's mmap_min_addr (Debian's default): no hint or brk below it. */
#define MMAP_MIN_ADDR           0x10000UL

/* Fault flags. */
#define FAULT_FLAG_WRITE        BIT(0)
#define FAULT_FLAG_EXEC         BIT(1)
#define FAULT_FLAG_USER         BIT(2)

/* The running task's soft and hard limits (kernel/resource.c; the host tests set their own). */
unsigned long rlimit(unsigned int resource);
unsigned long rlimit_max(unsigned int resource);

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *vma_create(struct mm_struct *mm, unsigned long start,
				  unsigned long end, unsigned long vm_flags);
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
long do_mmap_anon(struct mm_struct *mm, unsigned long addr, unsigned long len,
		  unsigned long vm_flags, unsigned long flags);
unsigned long do_brk(struct mm_struct *mm, unsigned long brk);
void exit_mmap(struct mm_struct *mm);
unsigned long mm_vm_pages(struct mm_struct *mm, bool data_only);
bool may_expand_vm(struct mm_struct *mm, unsigned long flags, unsigned long npages);
int vm_enough_memory(unsigned long pages);
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long prot);
int do_madvise(struct mm_struct *mm, unsigned long start, unsigned long len, int advice);
void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end);
struct mm_struct *dup_mm(struct mm_struct *oldmm);

int handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags);
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);
int install_anon_page(struct vm_area_struct *vma, unsigned long addr, struct page **pagep);

#endif
