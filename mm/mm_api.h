/*
 * The address-space interface the kernel's system calls and fault handler
 * use (Linux's mm/mmap.c and mm/memory.c entry points).
 *
 * Locking: one task per mm for now (no threads); callers run on the mm's
 * own task or hold it exclusively (exec, exit).  Later: mmap_lock.
 */
#ifndef MM_MM_API_H
#define MM_MM_API_H

#include "mm/mm_types.h"

#define STACK_TOP       0x00007ffffffff000UL
#define STACK_SIZE_MAX  (8UL << 20)
#define MMAP_BASE       0x00007f0000000000UL

#define MADV_NORMAL     0
#define MADV_WILLNEED   3
#define MADV_DONTNEED   4
#define MADV_HUGEPAGE   14
#define MADV_NOHUGEPAGE 15

/* Fault flags. */
#define FAULT_FLAG_WRITE        BIT(0)
#define FAULT_FLAG_EXEC         BIT(1)
#define FAULT_FLAG_USER         BIT(2)

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *vma_create(struct mm_struct *mm, unsigned long start,
				  unsigned long end, unsigned long vm_flags);
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
long do_mmap_anon(struct mm_struct *mm, unsigned long addr, unsigned long len,
		  unsigned long vm_flags, bool fixed);
unsigned long do_brk(struct mm_struct *mm, unsigned long brk);
void exit_mmap(struct mm_struct *mm);
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long vm_flags);
int do_madvise(struct mm_struct *mm, unsigned long start, unsigned long len, int advice);
void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end);
struct mm_struct *dup_mm(struct mm_struct *oldmm);

int handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags);
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);
int install_anon_page(struct vm_area_struct *vma, unsigned long addr, struct page **pagep);

#endif
