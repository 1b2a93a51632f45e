/*
 * The life of an mm_struct (Linux's mm_init()/__mmdrop() in kernel/fork.c):
 * a root page table sharing the kernel half, and an MM ID.
 *
 * Lock order: see mm/rmap.c.
 */
#include "linux/sched/mm.h"
#include "linux/pgtable.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/swap.h"
#include "mm/internal.h"

/* A new, empty mm with one user; NULL when out of memory or MM IDs. */
struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm));

	if (!mm)
		return NULL;
	mm->pgd = pgd_alloc();
	if (!mm->pgd)
		goto fail_nopgd;
	if (mm_alloc_id(mm))
		goto fail_noid;
	atomic_set(&mm->mm_count, 1);
	mm->mm_users = 1;
	mm->flags = SUID_DUMP_USER;
	mmap_init_lock(mm);
	spin_lock_init(&mm->page_table_lock, "page_table_lock");
	INIT_LIST_HEAD(&mm->mmap);
	INIT_LIST_HEAD(&mm->pgtables_deposited);
	INIT_LIST_HEAD(&mm->mmlist);
	return mm;

fail_noid:
	pgd_free(mm->pgd);
fail_nopgd:
	kfree(mm);
	return NULL;
}

/*
 * The last user of mm is gone (Linux's __mmput): its mappings torn down,
 * off swapoff's list, the struct's reference dropped.  mmput() (kernel/
 * fork.c) calls it after letting go of the executable; so does a fork
 * that failed, for the child it was building.
 */
void __mmput(struct mm_struct *mm)
{
	exit_mmap(mm);
	swap_mmlist_del(mm);
	mmdrop(mm);
}

/* A user of mm that never had an executable stops (a failed fork's child). */
void mmput_new(struct mm_struct *mm)
{
	if (!__atomic_sub_fetch(&mm->mm_users, 1, __ATOMIC_ACQ_REL))
		__mmput(mm);
}

/* Keep the struct (not the mappings) alive, e.g. for an open pagemap. */
void mmgrab(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_count);
}

/*
 * Drop a reference; the last one frees an mm whose user mappings are gone
 * (exit_mmap): its page tables, its MM ID (any folio slot still naming it
 * would now be a bug), the struct.
 */
void mmdrop(struct mm_struct *mm)
{
	if (!atomic_dec_and_test(&mm->mm_count))
		return;
	pgtable_free_range(mm->pgd, 0, TASK_SIZE_MAX);
	pgd_free(mm->pgd);
	mm_free_id(mm);
	kfree(mm);
}
