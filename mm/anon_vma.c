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
 * Lock order: see mm/rmap.c.  Linux takes anon_vma->root's rwsem around
 * every list change and walk below; foliOS has one CPU and one task per mm
 * and takes nothing yet — each place Linux locks says so.
 */
#include "linux/errno.h"
#include "linux/slab.h"
#include "mm/rmap.h"

static struct anon_vma *anon_vma_alloc(void)
{
	struct anon_vma *anon_vma = kzalloc(sizeof(*anon_vma));

	if (!anon_vma)
		return NULL;
	atomic_set(&anon_vma->refcount, 1);
	anon_vma->root = anon_vma;
	INIT_LIST_HEAD(&anon_vma->rb_root);
	return anon_vma;
}

static void get_anon_vma(struct anon_vma *anon_vma)
{
	atomic_inc(&anon_vma->refcount);
}

/* Drop a reference; the last one frees the anon_vma and drops its root's. */
void put_anon_vma(struct anon_vma *anon_vma)
{
	struct anon_vma *root = anon_vma->root;

	if (!atomic_dec_and_test(&anon_vma->refcount))
		return;
	VM_WARN_ON_ONCE(!list_empty(&anon_vma->rb_root), "put_anon_vma: freeing a linked anon_vma");
	kfree(anon_vma);
	if (root != anon_vma)
		put_anon_vma(root);
}

/* Link vma to anon_vma through avc (Linux: under anon_vma_lock_write(root)). */
static void anon_vma_chain_link(struct vm_area_struct *vma, struct anon_vma_chain *avc,
				struct anon_vma *anon_vma)
{
	avc->vma = vma;
	avc->anon_vma = anon_vma;
	list_add(&avc->same_vma, &vma->anon_vma_chain);
	list_add_tail(&avc->rb, &anon_vma->rb_root);
}

/*
 * The first anon fault of vma: give it an anon_vma of its own, the root
 * of a new tree (Linux's __anon_vma_prepare, without looking for a
 * mergeable neighbour's).  0 or -ENOMEM.
 */
int __anon_vma_prepare(struct vm_area_struct *vma)
{
	struct anon_vma_chain *avc = kzalloc(sizeof(*avc));
	struct anon_vma *anon_vma;

	if (!avc)
		return -ENOMEM;
	anon_vma = anon_vma_alloc();
	if (!anon_vma) {
		kfree(avc);
		return -ENOMEM;
	}
	/* Faults of other threads may prepare the same vma: one wins (Linux's). */
	spin_lock(&vma->vm_mm->page_table_lock);
	if (likely(!vma->anon_vma)) {
		vma->anon_vma = anon_vma;
		anon_vma_chain_link(vma, avc, anon_vma);
		anon_vma = NULL;
		avc = NULL;
	}
	spin_unlock(&vma->vm_mm->page_table_lock);
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
		anon_vma_chain_link(dst, avc, pavc->anon_vma);
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
	anon_vma_chain_link(vma, avc, anon_vma);
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

		list_del(&avc->rb);
		list_del(&avc->same_vma);
		kfree(avc);
		if (list_empty(&anon_vma->rb_root))
			put_anon_vma(anon_vma);
	}
	vma->anon_vma = NULL;
}

/*
 * The folio's anon_vma with a reference held, or NULL if the folio is not
 * mapped (then its anon_vma may be gone: nothing keeps it for an unmapped
 * folio).  The caller ends with put_anon_vma() (Linux's folio_get_anon_vma).
 */
struct anon_vma *folio_get_anon_vma(const struct folio *folio)
{
	struct anon_vma *anon_vma = folio_anon_vma(folio);

	if (!anon_vma || !folio_mapped(folio))
		return NULL;
	get_anon_vma(anon_vma);
	return anon_vma;
}

/*
 * Call rwc->rmap_one(folio, vma, address) for every VMA that may map the
 * mapped anon folio, address being where the folio's first page (or, if
 * that lies before the VMA, the VMA's start) would be (Linux's
 * rmap_walk_anon; Linux holds the root's lock for read throughout).
 */
void rmap_walk_anon(struct folio *folio, struct rmap_walk_control *rwc)
{
	unsigned long nr = folio_nr_pages(folio), pgoff_start = folio->index;
	struct anon_vma *anon_vma = folio_get_anon_vma(folio);
	struct anon_vma_chain *avc;

	if (!anon_vma)
		return;
	list_for_each_entry(avc, &anon_vma->rb_root, rb) {
		struct vm_area_struct *vma = avc->vma;
		unsigned long address = vma_address(vma, pgoff_start, nr);

		if (address == (unsigned long)-EFAULT)
			continue;
		if (!rwc->rmap_one(folio, vma, address, rwc->arg))
			break;
	}
	put_anon_vma(anon_vma);
}
