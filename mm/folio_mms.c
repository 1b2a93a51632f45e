/*
 * Holding off every process that maps a folio while its struct pages
 * change (split, migration): foliOS's stand-in for the unmap half of
 * Linux's split and migration protocol.
 *
 * Linux makes a folio's mappings unreachable before it rewrites the
 * folio: try_to_migrate() replaces each PTE by a migration entry, a fault
 * or GUP that meets one waits for the folio lock, and
 * remove_migration_ptes() puts the PTEs back afterwards.  foliOS has no
 * migration entries yet.  Instead, under the folio lock, it takes for
 * write, by trylock, the mmap_lock of every mm the rmap walk finds (so
 * faults, fork, munmap, mprotect, mremap, madvise, exit and GUP of those
 * mms wait) and the i_mmap_rwsem of every file those VMAs map (so a
 * truncation does not unmap the folio's private copies).  Then nothing
 * maps or unmaps the folio; a reference taken without those locks
 * (folio_try_get, as /proc does) fails while its refcount is frozen.
 *
 *   split_folio_to_order:  folio lock -> folio_lock_mms (trylocks) ->
 *                          anon_vma lock (write) -> count, freeze, rewrite
 *
 * Trylocks, because the usual order is the other way round (mmap_lock,
 * then the folio lock); a busy lock makes the split fail with -EAGAIN,
 * and the deferred split queue tries again later.  The mm whose
 * mmap_lock the caller already holds (a fault that reclaims, mbind) is
 * held off only if the caller holds it for write, or if no other task
 * uses that mm (mm_users 1: the caller's own read lock is enough).
 *
 * Lock order: see mm/rmap.c.
 */
#include "mm/folio_mms.h"
#include "mm/rmap.h"
#include "mm/mmap_lock.h"
#include "linux/fs.h"

/* What the collecting walk adds to: every lock it took. */
struct lock_mms_walk {
	struct folio_mms *fm;
	int err;
};

/* Is mm held off already: the caller's own, held as the file's comment says? */
static bool mm_held_by_caller(const struct folio_mms *fm, struct mm_struct *mm)
{
	return mm == fm->held &&
	       (rwsem_is_write_locked(&mm->mmap_lock) || READ_ONCE(mm->mm_users) == 1);
}

/* Take sem for write by trylock unless fm holds it already. */
static int lock_once(struct folio_mms *fm, struct rw_semaphore *sem)
{
	for (int i = 0; i < fm->nr; i++)
		if (fm->locked[i] == sem)
			return 0;
	if (fm->nr == FOLIO_MMS_MAX)
		return -EBUSY;
	if (!down_write_trylock(sem))
		return -EAGAIN;
	fm->locked[fm->nr++] = sem;
	return 0;
}

/* rmap_one of folio_lock_mms(): lock vma's mm and file; stop at the first failure. */
static bool lock_mms_one(struct folio *folio, struct vm_area_struct *vma, unsigned long address,
			 void *arg)
{
	struct lock_mms_walk *w = arg;
	struct mm_struct *mm = vma->vm_mm;

	if (mm == w->fm->held)
		w->err = mm_held_by_caller(w->fm, mm) ? 0 : -EAGAIN;
	else
		w->err = lock_once(w->fm, &mm->mmap_lock);
	if (!w->err && vma->vm_file && vma->vm_file->f_mapping)
		w->err = lock_once(w->fm, &vma->vm_file->f_mapping->i_mmap_rwsem);
	return !w->err;
}

/*
 * Hold off every mm that maps the locked anon folio (see above); held is
 * the mm whose mmap_lock the caller holds, or NULL.  0 with fm to give
 * to folio_unlock_mms(), or -EAGAIN (a lock was busy) or -EBUSY (more
 * mms and files than FOLIO_MMS_MAX) with nothing held.
 */
int folio_lock_mms(struct folio *folio, struct folio_mms *fm, struct mm_struct *held)
{
	struct lock_mms_walk w = { .fm = fm };
	struct rmap_walk_control rwc = { .arg = &w, .rmap_one = lock_mms_one };

	VM_WARN_ON_ONCE(!folio_test_locked(folio), "folio_lock_mms: folio not locked");
	fm->nr = 0;
	fm->held = held;
	rmap_walk_anon(folio, &rwc, false);
	if (w.err)
		folio_unlock_mms(fm);
	return w.err;
}

/* Let the mms and files folio_lock_mms() held off go on. */
void folio_unlock_mms(struct folio_mms *fm)
{
	while (fm->nr)
		up_write(fm->locked[--fm->nr]);
}
