/*
 * The anon reverse map (the anon_vma half of Linux's mm/rmap.c; the
 * mapcount half is mm/rmap.c): which VMAs may map an anon folio.
 *
 *   parent vma P --avc--> AV_P (root)          folio->mapping = AV_P | ANON
 *   fork: child vma C --avc--> AV_P            (anon_vma_clone: C may map
 *                     --avc--> AV_C (root AV_P)  everything P maps)
 *   C's new folios point to AV_C: P is not linked to it, so a walk of
 *   those folios never visits P.
 *
 * A VMA split or an mremap copy clones its chains (both halves may map the
 * old folios); a VMA that goes unlinks them (unlink_anon_vmas), and an
 * anon_vma whose list empties drops the hold its chains had on it.  A
 * non-root anon_vma holds its root.  The walk visits each VMA on the
 * folio's anon_vma whose page offsets cover the folio, at the address
 * vma_address() gives.
 *
 * Linux's reuse heuristic (anon_vma_clone reusing an anon_vma with no VMAs
 * and few children, via num_children and num_active_vmas) and
 * find_mergeable_anon_vma() are left out: a long chain of forks gives long
 * chains, which costs memory, not correctness.
 *
 * Lock order: see mm/rmap.c.  The root's rwsem (anon_vma_lock_write/read)
 * is held for write around every chain link and unlink and around a move
 * of a linked VMA's range (split, merge, mremap), and for read around a
 * walk, so a walker sees each VMA once and at its true range.  A walker
 * may find a folio's anon_vma while its last VMA goes: as Linux, it reads
 * folio->mapping under rcu_read_lock(), and an anon_vma is freed a grace
 * period after its last reference went (Linux's slab is
 * SLAB_TYPESAFE_BY_RCU, which keeps the memory an anon_vma that long;
 * foliOS frees it by call_rcu).  See folio_get_anon_vma().
 */
#include "linux/errno.h"
#include "linux/rcupdate.h"
#include "linux/slab.h"
#include "linux/rmap.h"
#include "linux/mmap_lock.h"

static struct anon_vma *anon_vma_alloc(void)
{
	struct anon_vma *anon_vma = kzalloc(sizeof(*anon_vma));

	if (!anon_vma)
		return NULL;
	init_rwsem(&anon_vma->rwsem, "anon_vma->rwsem");
	atomic_set(&anon_vma->refcount, 1);
	anon_vma->root = anon_vma;
	INIT_LIST_HEAD(&anon_vma->rb_root);
	return anon_vma;
}

static void get_anon_vma(struct anon_vma *anon_vma)
{
	atomic_inc(&anon_vma->refcount);
}

static void anon_vma_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct anon_vma, rcu));
}

/*
 * Drop a reference; the last one frees the anon_vma and drops its root's.
 * The free waits for a grace period: a folio_get_anon_vma() that read a
 * folio's pointer to it may still be looking at its refcount.
 */
void put_anon_vma(struct anon_vma *anon_vma)
{
	struct anon_vma *root = anon_vma->root;

	if (!atomic_dec_and_test(&anon_vma->refcount))
		return;
	VM_WARN_ON_ONCE(!list_empty(&anon_vma->rb_root), "put_anon_vma: freeing a linked anon_vma");
	call_rcu(&anon_vma->rcu, anon_vma_free_rcu);
	if (root != anon_vma)
		put_anon_vma(root);
}

/* Link vma to anon_vma through avc; the caller holds the tree's lock for write. */
static void anon_vma_chain_link(struct vm_area_struct *vma, struct anon_vma_chain *avc,
				struct anon_vma *anon_vma)
{
	lockdep_assert_held_write(&anon_vma->root->rwsem);
	avc->vma = vma;
	avc->anon_vma = anon_vma;
	list_add(&avc->same_vma, &vma->anon_vma_chain);
	list_add_tail(&avc->rb, &anon_vma->rb_root);
}

/*
 * The first anon fault of vma: give it an anon_vma of its own, the root
 * of a new tree (Linux's __anon_vma_prepare, without looking for a
 * mergeable neighbour's).  The mmap_lock, held at least for read, keeps
 * vma; page_table_lock decides between two faults.  0 or -ENOMEM.
 */
int __anon_vma_prepare(struct vm_area_struct *vma)
{
	struct anon_vma_chain *avc;
	struct anon_vma *anon_vma;

	mmap_assert_locked(vma->vm_mm);
	might_sleep();
	avc = kzalloc(sizeof(*avc));
	if (!avc)
		return -ENOMEM;
	anon_vma = anon_vma_alloc();
	if (!anon_vma) {
		kfree(avc);
		return -ENOMEM;
	}
	/* Faults of other threads may prepare the same vma: one wins (Linux's). */
	anon_vma_lock_write(anon_vma);
	spin_lock(&vma->vm_mm->page_table_lock);
	if (likely(!vma->anon_vma)) {
		vma->anon_vma = anon_vma;
		anon_vma_chain_link(vma, avc, anon_vma);
		avc = NULL;
	}
	spin_unlock(&vma->vm_mm->page_table_lock);
	anon_vma_unlock_write(anon_vma);
	if (!avc)
		anon_vma = NULL;
	if (anon_vma)
		put_anon_vma(anon_vma);
	kfree(avc);
	return 0;
}

/*
 * Link dst to every anon_vma src is linked to: a split half, an mremap
 * copy or a fork child may map all the folios src may (Linux's
 * anon_vma_clone; dst->anon_vma is the caller's).  0, or -ENOMEM with dst
 * left unlinked.
 */
int anon_vma_clone(struct vm_area_struct *dst, struct vm_area_struct *src)
{
	struct anon_vma_chain *pavc;

	list_for_each_entry_reverse(pavc, &src->anon_vma_chain, same_vma) {
		struct anon_vma_chain *avc = kzalloc(sizeof(*avc));

		if (!avc) {
			dst->anon_vma = NULL;
			unlink_anon_vmas(dst);
			return -ENOMEM;
		}
		anon_vma_lock_write(pavc->anon_vma);
		anon_vma_chain_link(dst, avc, pavc->anon_vma);
		anon_vma_unlock_write(pavc->anon_vma);
	}
	return 0;
}

/*
 * fork: the child's vma may map all its parent pvma may, and gets its own
 * anon_vma (in pvma's tree) for the folios it will fault or copy itself
 * (Linux's anon_vma_fork).  0 or -ENOMEM (vma left unlinked).
 */
int anon_vma_fork(struct vm_area_struct *vma, struct vm_area_struct *pvma)
{
	struct anon_vma_chain *avc;
	struct anon_vma *anon_vma;

	vma->anon_vma = NULL;
	if (!pvma->anon_vma)
		return 0;
	if (anon_vma_clone(vma, pvma))
		return -ENOMEM;
	anon_vma = anon_vma_alloc();
	avc = anon_vma ? kzalloc(sizeof(*avc)) : NULL;
	if (!avc) {
		if (anon_vma)
			put_anon_vma(anon_vma);
		unlink_anon_vmas(vma);
		return -ENOMEM;
	}
	anon_vma->root = pvma->anon_vma->root;
	get_anon_vma(anon_vma->root);
	vma->anon_vma = anon_vma;
	anon_vma_lock_write(anon_vma);
	anon_vma_chain_link(vma, avc, anon_vma);
	anon_vma_unlock_write(anon_vma);
	return 0;
}

/*
 * vma goes away (or, for MREMAP_DONTUNMAP, its pages moved out): unlink
 * all its chains; an anon_vma no VMA links any more loses the chains' hold
 * (Linux's unlink_anon_vmas).  Its folios are all unmapped by now.
 */
void unlink_anon_vmas(struct vm_area_struct *vma)
{
	while (!list_empty(&vma->anon_vma_chain)) {
		struct anon_vma_chain *avc = list_first_entry(&vma->anon_vma_chain,
							      struct anon_vma_chain, same_vma);
		struct anon_vma *anon_vma = avc->anon_vma;
		bool empty;

		anon_vma_lock_write(anon_vma);
		list_del(&avc->rb);
		empty = list_empty(&anon_vma->rb_root);
		anon_vma_unlock_write(anon_vma);
		list_del(&avc->same_vma);
		kfree(avc);
		if (empty)
			put_anon_vma(anon_vma);
	}
	vma->anon_vma = NULL;
}

/*
 * The folio's anon_vma with a reference held, or NULL if the folio is not
 * mapped (then its anon_vma may be gone: nothing keeps it for an unmapped
 * folio).  The caller holds a folio reference and ends with put_anon_vma()
 * (Linux's folio_get_anon_vma).  While the folio is mapped, some VMA on
 * its anon_vma maps it, so the anon_vma is alive; rcu_read_lock() keeps
 * its memory until the reference is taken, or found to be 0 already.
 */
struct anon_vma *folio_get_anon_vma(const struct folio *folio)
{
	struct anon_vma *anon_vma;

	rcu_read_lock();
	anon_vma = folio_anon_vma(folio);
	if (anon_vma && (!folio_mapped(folio) || !atomic_add_unless(&anon_vma->refcount, 1, 0)))
		anon_vma = NULL;
	rcu_read_unlock();
	return anon_vma;
}

/*
 * Call rwc->rmap_one(folio, vma, address) for every VMA that may map the
 * mapped anon folio, address being where the folio's first page (or, if
 * that lies before the VMA, the VMA's start) would be (Linux's
 * rmap_walk_anon).  The caller holds a folio reference; with locked, it
 * also holds the folio's anon_vma's lock (and a reference to it), else
 * the walk takes it for read.
 */
void rmap_walk_anon(struct folio *folio, struct rmap_walk_control *rwc, bool locked)
{
	unsigned long nr = folio_nr_pages(folio), pgoff_start = folio->index;
	struct anon_vma *anon_vma = locked ? folio_anon_vma(folio) : folio_get_anon_vma(folio);
	struct anon_vma_chain *avc;

	if (locked) {
		/* The caller's hold keeps the folio in this tree (Linux's check). */
		VM_BUG_ON_FOLIO(!anon_vma, folio);
		lockdep_assert_held(&anon_vma->root->rwsem);
	}
	if (!anon_vma)
		return;
	if (!locked)
		anon_vma_lock_read(anon_vma);
	list_for_each_entry(avc, &anon_vma->rb_root, rb) {
		struct vm_area_struct *vma = avc->vma;
		unsigned long address = vma_address(vma, pgoff_start, nr);

		if (address == (unsigned long)-EFAULT)
			continue;
		if (!rwc->rmap_one(folio, vma, address, rwc->arg))
			break;
	}
	if (!locked) {
		anon_vma_unlock_read(anon_vma);
		put_anon_vma(anon_vma);
	}
}
