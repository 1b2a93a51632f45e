/*
 * VMAs: creating, copying, splitting, merging and freeing them (Linux's
 * mm/vma.c), and what a VMA of a file holds while it lives:
 *
 *   vma->vm_file    a reference to the file (get_file ... fput)
 *   vma->shared     its link in the file's mapping->i_mmap, where the
 *                   file rmap walk and truncation find it
 *   i_mmap_writable +1 while it is a MAP_SHARED mapping that may be
 *                   made writable (memfd's F_SEAL_WRITE needs 0: see
 *                   mapping_map_writable in include/linux/fs.h)
 *   vm_ops->open/close  told of every copy (split, mremap, fork) and of
 *                   every VMA that goes
 *
 * Each mm keeps its VMAs in a list sorted by address.
 *
 * Lock order: see mm/rmap.c; the caller holds the mm's mmap_lock for
 * write (linux/mm.h; asserted where a VMA is made, split, merged or
 * freed).  i_mmap changes under the file's i_mmap_rwsem
 * (vma_interval_tree_insert/remove); i_mmap_writable is atomic.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/pagemap.h"
#include "mm/internal.h"
#include "linux/mm.h"
#include "linux/rmap.h"
#include "linux/mmap_lock.h"

/*
 * Insert a VMA for [start, end), before the first VMA that starts at or
 * after end (so a VMA being split may still overlap it for a moment).
 * An anonymous VMA: no file, no vm_ops.  NULL if out of memory.
 */
struct vm_area_struct *vma_create(struct mm_struct *mm, unsigned long start,
				  unsigned long end, unsigned long vm_flags)
{
	struct vm_area_struct *vma, *pos;
	struct list_head *before = &mm->mmap;

	mmap_assert_write_locked(mm);
	vma = kzalloc(sizeof(*vma));
	if (!vma)
		return NULL;
	vma->vm_start = start;
	vma->vm_end = end;
	vma->vm_mm = mm;
	vma->vm_flags = vm_flags;
	vma->vm_pgoff = start >> PAGE_SHIFT;
	INIT_LIST_HEAD(&vma->anon_vma_chain);
	INIT_LIST_HEAD(&vma->shared);
	list_for_each_entry(pos, &mm->mmap, vm_list) {
		if (pos->vm_start >= end) {
			before = &pos->vm_list;
			break;
		}
	}
	list_add_tail(&vma->vm_list, before);
	return vma;
}

/*
 * Link vma, whose vm_file is set, into its file's i_mmap (Linux's
 * vma_link_file); a shared mapping that may become writable counts in
 * i_mmap_writable.  A file without a page cache (a device) has no i_mmap.
 */
void vma_link_file(struct vm_area_struct *vma)
{
	struct address_space *mapping = vma->vm_file->f_mapping;

	if (!mapping)
		return;
	if (vma_is_shared_maywrite(vma))
		mapping_allow_writable(mapping);
	vma_interval_tree_insert(vma, mapping);
}

/* The reverse of vma_link_file (Linux's __remove_shared_vm_struct). */
static void vma_unlink_file(struct vm_area_struct *vma)
{
	struct address_space *mapping = vma->vm_file->f_mapping;

	if (!mapping)
		return;
	if (vma_is_shared_maywrite(vma))
		mapping_unmap_writable(mapping);
	vma_interval_tree_remove(vma, mapping);
}

/*
 * new is a copy of old (a split, an mremap move, a fork): it maps the same
 * file with the same vm_ops and private data — its own file reference and i_mmap link —
 * and vm_ops->open hears of it (Linux's vm_area_dup + get_file + vma_link
 * + vm_ops->open).
 */
void vma_dup_file(struct vm_area_struct *new, struct vm_area_struct *old)
{
	new->vm_ops = old->vm_ops;
	new->vm_private_data = old->vm_private_data;
	if (old->vm_file) {
		new->vm_file = get_file(old->vm_file);
		vma_link_file(new);
	}
	if (new->vm_ops && new->vm_ops->open)
		new->vm_ops->open(new);
}

/*
 * Take vma out of its mm and free it (Linux's remove_vma): vm_ops->close,
 * out of its file's i_mmap, the file reference dropped (which may be the
 * last: an unlinked file's page cache goes with it), its anon_vma chains
 * unlinked.  Its pages must be zapped already.
 */
void remove_vma(struct vm_area_struct *vma)
{
	mmap_assert_write_locked(vma->vm_mm);
	if (vma->vm_ops && vma->vm_ops->close)
		vma->vm_ops->close(vma);
	if (vma->vm_file) {
		vma_unlink_file(vma);
		fput(vma->vm_file);
	}
	unlink_anon_vmas(vma);
	list_del(&vma->vm_list);
	kfree(vma);
}

/*
 * A new VMA of vma's mm for [start, end) with vma's flags, page offset
 * pgoff, file and anon_vma, linked to every anon_vma vma is (Linux's
 * vm_area_dup + anon_vma_clone).  NULL on ENOMEM.
 */
static struct vm_area_struct *vma_dup_range(struct vm_area_struct *vma, unsigned long start,
					    unsigned long end, unsigned long pgoff)
{
	struct vm_area_struct *new = vma_create(vma->vm_mm, start, end, vma->vm_flags);

	if (!new)
		return NULL;
	new->vm_pgoff = pgoff;
	new->anon_vma = vma->anon_vma;
	if (anon_vma_clone(new, vma)) {
		unlink_anon_vmas(new);
		list_del(&new->vm_list);
		kfree(new);
		return NULL;
	}
	vma_dup_file(new, vma);
	return new;
}

/* The VMA after vma in its mm, or NULL (Linux's vma_next, on foliOS's list). */
static struct vm_area_struct *vma_next(struct vm_area_struct *vma)
{
	if (vma->vm_list.next == &vma->vm_mm->mmap)
		return NULL;
	return list_entry(vma->vm_list.next, struct vm_area_struct, vm_list);
}

/*
 * The highest level (PT_PTE..PT_PUD) up to which the tables serving addr
 * are reached by no VMA of vma's mm but vma, or 0 if even the PTE table
 * is another's too: the tables an unmap of vma may free (Linux's
 * free_pgtables between floor and ceiling).  Another VMA's table stays:
 * that VMA's rmap walkers may be in it, holding its rmap lock, not ours.
 */
enum pt_level vma_table_ceiling(struct vm_area_struct *vma, unsigned long addr)
{
	enum pt_level level;

	for (level = PT_PTE; level < PT_PGD; level++) {
		unsigned long span = level_size(level + 1), base = ALIGN_DOWN(addr, span);
		struct vm_area_struct *v = find_vma(vma->vm_mm, base);

		for (; v && v->vm_start < base + span; v = vma_next(v))
			if (v != vma)
				return level - 1;
	}
	return PT_PUD;
}

/*
 * Lock vma's rmap trees for write (Linux's take_rmap_locks): its file's
 * i_mmap, then its anon_vma tree.  Held while vma's range or page offset
 * changes or its page tables move, so no rmap walker sees a VMA where its
 * pages are not.
 */
void take_rmap_locks(struct vm_area_struct *vma)
{
	if (vma->vm_file && vma->vm_file->f_mapping)
		i_mmap_lock_write(vma->vm_file->f_mapping);
	if (vma->anon_vma)
		anon_vma_lock_write(vma->anon_vma);
}

/*
 * vma's rmap locks are held for write (take_rmap_locks()): where a zap
 * frees page tables, only they keep other processes' rmap walkers out.
 */
void rmap_locks_assert_held(struct vm_area_struct *vma)
{
	if (vma->vm_file && vma->vm_file->f_mapping)
		i_mmap_assert_write_locked(vma->vm_file->f_mapping);
	if (vma->anon_vma)
		lockdep_assert_held_write(&vma->anon_vma->root->rwsem);
}

void drop_rmap_locks(struct vm_area_struct *vma)
{
	if (vma->anon_vma)
		anon_vma_unlock_write(vma->anon_vma);
	if (vma->vm_file && vma->vm_file->f_mapping)
		i_mmap_unlock_write(vma->vm_file->f_mapping);
}

/*
 * Split vma at addr (inside it): vma keeps [start, addr); returns the rest,
 * which keeps its page offsets and may map the same anon folios (Linux's
 * __split_vma).  NULL on ENOMEM.
 */
struct vm_area_struct *split_vma(struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *tail;

	mmap_assert_write_locked(vma->vm_mm);
	tail = vma_dup_range(vma, addr, vma->vm_end, linear_page_index(vma, addr));
	if (!tail)
		return NULL;
	split_huge_pmd_address(vma, addr);
	take_rmap_locks(vma);
	vma->vm_end = addr;
	drop_rmap_locks(vma);
	return tail;
}

/*
 * Make [start, end) (inside VMAs, no holes) begin and end on VMA
 * boundaries, splitting at most two VMAs.  0 or -ENOMEM.
 */
int split_vmas_at(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && vma->vm_start < start && !split_vma(vma, start))
		return -ENOMEM;
	vma = find_vma(mm, end);
	if (vma && vma->vm_start < end && !split_vma(vma, end))
		return -ENOMEM;
	return 0;
}

/*
 * May two VMAs' anon memory become one VMA's (Linux's
 * is_mergeable_anon_vma)?  Yes if they share their anon_vma, or neither
 * has one; if only one has, only while its chain is that one anon_vma:
 * a VMA forked from a parent also links the parent's, which the other
 * VMA's future folios must not join.
 */
static bool anon_vmas_mergeable(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	if (a->anon_vma && b->anon_vma)
		return a->anon_vma == b->anon_vma;
	if (a->anon_vma)
		return list_is_singular(&a->anon_vma_chain);
	return !b->anon_vma || list_is_singular(&b->anon_vma_chain);
}

/*
 * May prev and next, which touch, be one VMA (Linux's can_vma_merge_after,
 * is_mergeable_vma and is_mergeable_anon_vma)?  Equal flags but
 * VM_SOFTDIRTY, the same file (or none) and vm_ops, page offsets that run
 * on, no vm_ops->close (it could not be told), and anon memory that may
 * be one VMA's (anon_vmas_mergeable).
 */
static bool vma_can_merge(const struct vm_area_struct *prev, const struct vm_area_struct *next)
{
	return next->vm_start == prev->vm_end &&
	       !((next->vm_flags ^ prev->vm_flags) & ~VM_SOFTDIRTY) &&
	       prev->vm_file == next->vm_file && prev->vm_ops == next->vm_ops &&
	       prev->vm_private_data == next->vm_private_data &&
	       !(prev->vm_ops && prev->vm_ops->close) &&
	       prev->vm_pgoff + ((prev->vm_end - prev->vm_start) >> PAGE_SHIFT) == next->vm_pgoff &&
	       anon_vmas_mergeable(prev, next);
}

/*
 * Merge each VMA with the next one while vma_can_merge() allows.  The one
 * with the anon_vma chains survives; the other is removed.  The merged VMA
 * is soft-dirty if either was.
 */
void vma_merge_all(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *next;

	mmap_assert_write_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		while (vma->vm_list.next != &mm->mmap) {
			next = list_entry(vma->vm_list.next, struct vm_area_struct, vm_list);
			if (!vma_can_merge(vma, next))
				break;
			if (!vma->anon_vma && next->anon_vma) {
				next->vm_flags |= vma->vm_flags & VM_SOFTDIRTY;
				take_rmap_locks(next);
				next->vm_start = vma->vm_start;
				next->vm_pgoff = vma->vm_pgoff;
				drop_rmap_locks(next);
				list_del(&next->vm_list);
				list_add(&next->vm_list, vma->vm_list.prev);
				remove_vma(vma);
				vma = next;
				continue;
			}
			take_rmap_locks(vma);
			vma->vm_end = next->vm_end;
			drop_rmap_locks(vma);
			vma->vm_flags |= next->vm_flags & VM_SOFTDIRTY;
			remove_vma(next);
		}
	}
}

/*
 * The VMA an mremap moves [addr, addr + len) of vma to: a copy at addr with
 * page offset pgoff, so that linear_page_index() still gives each moved
 * page its folio->index (a file page its offset in the file) — or, if an
 * anonymous vma never faulted, addr's own page offset, as a new mapping
 * there would have (Linux's copy_vma).  NULL on ENOMEM.
 */
struct vm_area_struct *copy_vma(struct vm_area_struct *vma, unsigned long addr,
				unsigned long len, unsigned long pgoff)
{
	if (vma_is_anonymous(vma) && !vma->anon_vma)
		pgoff = addr >> PAGE_SHIFT;
	return vma_dup_range(vma, addr, addr + len, pgoff);
}
