/*
 * mm's interface to the rest of the kernel: memmap and the page helpers
 * (pfn <-> page <-> address, reference counts), and the address-space
 * calls the system calls and the fault handler use (Linux's mm/mmap.c
 * and mm/memory.c entry points).
 *
 * Locks: the do_* calls that change the VMA list want the mmap_lock held
 * for write, the faults and population for read (linux/mmap_lock.h: the
 * system calls, the fault handler and gup take it; mmap_assert_locked()
 * checks).  A caller that owns an mm nobody else can reach — no task has
 * it yet: a test's, a fork child's being copied — may leave it unlocked.
 * Order: mm/rmap.c.
 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include "linux/errno.h"
#include "linux/mm_types.h"
#include "linux/mmdebug.h"
#include "linux/gfp.h"
#include "uapi/linux/resource.h"
#include "uapi/linux/mman.h"

extern struct page *mem_map;
extern unsigned long max_pfn;           /* one past the highest RAM pfn */
extern unsigned long nr_bad_pages;      /* bad_page() reports since boot */

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < max_pfn;
}

static inline void *page_address(const struct page *page)
{
	return __va((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT);
}

static inline struct page *virt_to_page(const void *va)
{
	return pfn_to_page(__pa(va) >> PAGE_SHIFT);
}

static inline int page_ref_count(const struct page *page)
{
	return atomic_read(&page->_refcount);
}

static inline void set_page_count(struct page *page, int v)
{
	atomic_set(&page->_refcount, v);
}

static inline void page_ref_add(struct page *page, int nr)
{
	atomic_add(nr, &page->_refcount);
}

static inline void get_page(struct page *page)
{
	atomic_inc(&page->_refcount);
}

/* A reference unless the count is 0 (the page is being freed or is frozen). */
static inline bool get_page_unless_zero(struct page *page)
{
	return atomic_add_unless(&page->_refcount, 1, 0);
}

/*
 * Freeze the count at 0 if it is exactly count (Linux's page_ref_freeze):
 * then nobody can take a reference (get_page_unless_zero fails) until
 * page_ref_unfreeze() sets it again.  True if frozen.
 */
static inline bool page_ref_freeze(struct page *page, int count)
{
	return atomic_cmpxchg(&page->_refcount, count, 0) == count;
}

static inline void page_ref_unfreeze(struct page *page, int count)
{
	__atomic_store_n(&page->_refcount.counter, count, __ATOMIC_RELEASE);
}

/* Drop a reference; true when it was the last one. */
static inline bool put_page_testzero(struct page *page)
{
	return atomic_dec_and_test(&page->_refcount);
}

void page_flag_names(unsigned long flags, char *buf, size_t size);
void bad_page(const struct page *page, const char *reason);

#define STACK_TOP       0x00007ffffffff000UL
#define STACK_SIZE_MAX  (8UL << 20)
#define MMAP_BASE       0x00007f0000000000UL

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

/*
 * What a fault is (Linux's enum fault_flag, its values): the access a
 * trap or a get_user_pages() asks for.  foliOS never drops the mmap_lock
 * in a fault (no I/O to wait for), so Linux's retry flags have no use yet.
 */
#define FAULT_FLAG_WRITE        BIT(0)  /* a write */
#define FAULT_FLAG_USER         BIT(6)  /* from user mode */
#define FAULT_FLAG_REMOTE       BIT(7)  /* not the running task's mm (FOLL_REMOTE) */
#define FAULT_FLAG_INSTRUCTION  BIT(8)  /* an instruction fetch */
#define FAULT_FLAG_UNSHARE      BIT(10) /* make a R/O-mapped anon page exclusive, not writable */

/* The errno a get_user_pages() caller sees for a failed fault (Linux's vm_fault_to_errno). */
static inline int vm_fault_to_errno(vm_fault_t vm_fault)
{
	if (vm_fault & VM_FAULT_OOM)
		return -ENOMEM;
	if (vm_fault & (VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV))
		return -EFAULT;
	return 0;
}

/*
 * get_user_pages() flags, with Linux's values (gup_test passes them from
 * user space): what the caller will do with the pages and which reference
 * it takes.  FOLL_GET: a plain reference, dropped by put_page();
 * FOLL_PIN: a pin (folio_maybe_dma_pinned()), dropped by unpin_user_page().
 */
#define FOLL_WRITE      BIT(0)  /* the caller writes the pages */
#define FOLL_GET        BIT(1)
#define FOLL_FORCE      BIT(3)  /* ignore the VMA's R/W permissions (ptrace, /proc/pid/mem) */
#define FOLL_LONGTERM   BIT(8)  /* held for an indefinite time */
#define FOLL_REMOTE     BIT(18) /* the pages are not current's (get_user_pages_remote) */
#define FOLL_PIN        BIT(19)

/*
 * One fault, as it goes down the levels (Linux's struct vm_fault):
 * __handle_mm_fault fills the first part; each level adds what it found.
 * A file VMA's ->fault returns 0 with vmf->page set to the page to map (a
 * folio reference the caller owns), VM_FAULT_OOM, VM_FAULT_SIGBUS (no
 * page there, e.g. beyond EOF) or VM_FAULT_NOPAGE (it mapped a frame
 * itself).
 */
struct vm_fault {
	struct vm_area_struct *vma;     /* the VMA the address is in */
	unsigned long address;          /* the faulting address, page-aligned */
	unsigned int flags;             /* FAULT_FLAG_* */
	pgoff_t pgoff;                  /* a file VMA's: the address's page in the file */
	pmd_t *pmd;                     /* the PMD entry of address */
	pte_t orig_pte;                 /* the PTE as the PTE level read it, unlocked */
	struct page *page;              /* ->fault's page; the page a write fault found */
	pte_t *pte;                     /* the PTE of address, once looked up */
	spinlock_t *ptl;                /* the lock of *pte (or *pmd) when held */
};

/* What a file's VMAs do (Linux's vm_operations_struct); set by f_op->mmap. */
struct vm_operations_struct {
	void (*open)(struct vm_area_struct *vma);       /* a copy was made (fork, split) */
	void (*close)(struct vm_area_struct *vma);      /* the VMA goes */
	vm_fault_t (*fault)(struct vm_fault *vmf);
	const char *(*name)(struct vm_area_struct *vma);        /* maps' name, e.g. "[vdso]" */
};

/*
 * Pages of the kernel's own that a process maps (Linux's
 * vm_special_mapping: the vDSO and its data page): nr_pages frames from
 * pfn on, shown in maps as name.
 */
struct vm_special_mapping {
	const char *name;
	unsigned long pfn, nr_pages;
};

struct vm_area_struct *_install_special_mapping(struct mm_struct *mm, unsigned long addr,
						unsigned long len, unsigned long vm_flags,
						const struct vm_special_mapping *sm);
vm_fault_t vmf_insert_pfn(struct vm_area_struct *vma, unsigned long addr, unsigned long pfn);

/* Where a mapping of len fits (mm/mmap.c): mremap's move, the vDSO. */
long get_unmapped_area(struct mm_struct *mm, unsigned long addr, unsigned long len,
		       unsigned long flags);

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *vma_create(struct mm_struct *mm, unsigned long start,
				  unsigned long end, unsigned long vm_flags);
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
long do_mmap(struct mm_struct *mm, struct file *file, unsigned long addr, unsigned long len,
	     unsigned long prot, unsigned long flags, unsigned long pgoff);
unsigned long do_brk(struct mm_struct *mm, unsigned long brk);
long do_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
	       unsigned long new_len, unsigned long flags, unsigned long new_addr);
void exit_mmap(struct mm_struct *mm);

/*
 * Bytes of page tables mm holds (Linux's mm_pgtables_bytes, its OOM
 * score's third part): its PUD, PMD and PTE tables and the PTE tables
 * deposited for PMD leaves, not the root.  mm_add_pgtables() moves it by
 * nr whole tables as they are hooked in or deposited (nr > 0) and
 * unhooked or withdrawn (Linux's mm_inc_nr_ptes/pmds/puds and decs).
 */
static inline unsigned long mm_pgtables_bytes(const struct mm_struct *mm)
{
	long bytes = atomic_long_read(&mm->pgtables_bytes);

	return bytes > 0 ? bytes : 0;
}

static inline void mm_add_pgtables(struct mm_struct *mm, long nr)
{
	atomic_long_add(nr * (long)PAGE_SIZE, &mm->pgtables_bytes);
}
unsigned long mm_vm_pages(struct mm_struct *mm, bool data_only);
bool may_expand_vm(struct mm_struct *mm, unsigned long flags, unsigned long npages);
int vm_enough_memory(unsigned long pages);
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long prot);
int do_madvise(struct mm_struct *mm, unsigned long start, unsigned long len, int advice);
bool madvise_need_mmap_write(int behavior);
int __mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len,
		  bool ignore_errors);

/*
 * Fault in [start, start + len) for MAP_POPULATE, a locked mmap or brk,
 * mlockall (Linux's mm_populate): what fails is left as it is — the
 * mapping has succeeded.  mmap_lock held for read.
 */
static inline void mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	__mm_populate(mm, start, len, true);
}

/* mlock.c: the mlock system calls' work, and RLIMIT_MEMLOCK. */
int do_mlock(struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long flags);
int do_munlock(struct mm_struct *mm, unsigned long start, unsigned long len);
int do_mlockall(struct mm_struct *mm, int flags);
int do_munlockall(struct mm_struct *mm);
unsigned long mm_locked_vm(struct mm_struct *mm);
bool can_do_mlock(void);
bool mlock_future_ok(struct mm_struct *mm, unsigned long flags, unsigned long len);
void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end);
struct mm_struct *dup_mm(struct mm_struct *oldmm);

vm_fault_t handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags);
/* Count a page fault the running task took (kernel/sched/cputime.c; the host tests count their own). */
void task_account_fault(bool major);
int fixup_user_fault(struct mm_struct *mm, unsigned long address, unsigned int fault_flags);
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);

/* gup.c: taking references to the pages of an address space. */
long pin_user_pages(unsigned long start, unsigned long nr_pages, unsigned int gup_flags,
		    struct page **pages);
long get_user_pages(unsigned long start, unsigned long nr_pages, unsigned int gup_flags,
		    struct page **pages);
long get_user_pages_remote(struct mm_struct *mm, unsigned long start, unsigned long nr_pages,
			   unsigned int gup_flags, struct page **pages);
long pin_user_pages_remote(struct mm_struct *mm, unsigned long start, unsigned long nr_pages,
			   unsigned int gup_flags, struct page **pages);
void unpin_user_page(struct page *page);
void unpin_user_pages(struct page **pages, unsigned long npages);
int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, int len,
		     unsigned int gup_flags);

#endif
