/*
 * The page cache (Linux's mm/filemap.c): see include/linux/pagemap.h.
 *
 *   mapping->i_pages   pgoff:  0   1   2   3   4 ... 511  512
 *                              [A] [B] [C] [C] [ ]     [ ]  [D]
 *
 *   A, B: order-0 folios; C: an order-1 folio in both of its slots;
 *   D: a 2 MiB folio at index 512 (in slots 512..1023).  A lookup of any
 *   index finds the folio; folio->index is its first.
 *
 * The cache holds folio_nr_pages() references on each folio it caches;
 * lookups take one more for their caller.  Reading a page nobody cached
 * fills a new folio through mapping->a_ops->read_folio (the initrd), or
 * reads zeros where there is none (a shmem hole stays a hole).
 *
 * Locking (Linux's, see the lock order in mm/rmap.c):
 *   i_pages.xa_lock   the tree, nrpages, folio->mapping and ->index of a
 *                     cached folio and the cache's references: taken by
 *                     every insertion and removal, and by a split, which
 *                     freezes the refcount under it (mm/truncate.c).
 *   RCU               lookups take no lock, as Linux's: under
 *                     rcu_read_lock() they walk the tree (lib/xarray.c),
 *                     take a reference with folio_try_get() and check the
 *                     slot still holds the folio (filemap_get_entry).
 *   the folio lock    held to insert, fill (read_folio), remove, truncate
 *                     or split a folio, and by a fault from ->fault to its
 *                     PTE (mm/memory_file.c): whoever holds it and still
 *                     sees folio->mapping set knows truncation has not
 *                     taken the folio out.
 *   inode_lock        i_size and writes (the file systems' write paths,
 *                     truncation, fallocate); reads and faults need only
 *                     the folio's reference and lock.
 */
#include "linux/swap.h"
#include "linux/pagemap.h"
#include "linux/wait.h"
#include "linux/rcupdate.h"
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/mm.h"
#include "linux/rmap.h"
#include "linux/vmstat.h"
#include "linux/pgtable.h"
#include "linux/swapops.h"
#include "linux/shmem_fs.h"

/* An empty page cache for host (Linux's address_space_init_once, and inode_init_once's part). */
void address_space_init_once(struct address_space *mapping, struct inode *host)
{
	memset(mapping, 0, sizeof(*mapping));
	mapping->host = host;
	xa_init(&mapping->i_pages, "mapping->i_pages");
	INIT_LIST_HEAD(&mapping->i_mmap);
	init_rwsem(&mapping->i_mmap_rwsem, "mapping->i_mmap_rwsem");
}

/*
 * What the cache holds at index (Linux's filemap_get_entry): a folio,
 * with a new reference; a value entry (shmem's swapped-out page,
 * xa_is_value), which needs none; or NULL.  Takes no lock: under
 * rcu_read_lock() it loads the slot, takes a reference with
 * folio_try_get(), then reads the slot again (xas_reload).  Meanwhile the
 * folio may have been removed, freed and even reused: folio_try_get()
 * fails on a free or frozen (being split) folio, and a reference that
 * landed on a page which is something else now is dropped again (every
 * page's last put frees it, whoever drops it: mm/page_alloc.c).  The
 * caller that locks the folio rechecks folio->mapping, as it may have
 * left the cache since.
 */
void *filemap_get_entry(struct address_space *mapping, pgoff_t index)
{
	XA_STATE(xas, &mapping->i_pages, index);
	struct folio *folio;

	rcu_read_lock();
repeat:
	folio = xas_load(&xas);
	if (xa_is_retry(folio))
		goto repeat;
	if (!folio || xa_is_value(folio))
		goto out;
	if (!folio_try_get(folio))
		goto repeat;
	if (unlikely(folio != xas_reload(&xas))) {
		folio_put(folio);
		goto repeat;
	}
out:
	rcu_read_unlock();
	return folio;
}

/* The folio caching index, with a new reference; NULL if none (Linux's filemap_get_folio). */
struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index)
{
	void *entry = filemap_get_entry(mapping, index);

	return xa_is_value(entry) ? NULL : entry;
}

/*
 * The first entry at an index in [*index, max], *index set to it; NULL if
 * none (one step of Linux's find_get_entries): a folio with a new
 * reference, or a value entry (a shmem page in swap).  Lockless, as
 * filemap_get_entry; the recheck walks to the index found again.
 */
void *filemap_get_next_entry(struct address_space *mapping, pgoff_t *index, pgoff_t max)
{
	pgoff_t start = *index;
	struct folio *folio;

	rcu_read_lock();
repeat:
	*index = start;
	folio = xa_find(&mapping->i_pages, index, max);
	if (!folio || xa_is_value(folio))
		goto out;
	if (!folio_try_get(folio))
		goto repeat;
	if (unlikely(folio != xa_load(&mapping->i_pages, *index))) {
		folio_put(folio);
		goto repeat;
	}
out:
	rcu_read_unlock();
	return folio;
}

/*
 * The first folio caching an index in [*index, max], with a new reference,
 * *index set to an index it caches; NULL if none.  Value entries are
 * passed over, each in a lookup of its own.  May sleep (cond_resched).
 */
struct folio *filemap_get_next_folio(struct address_space *mapping, pgoff_t *index, pgoff_t max)
{
	void *entry;

	while (xa_is_value(entry = filemap_get_next_entry(mapping, index, max)) && *index < max) {
		++*index;
		cond_resched();
	}
	return xa_is_value(entry) ? NULL : entry;
}

/*
 * Does mapping cache a folio (or hold a swapped-out shmem page) at some
 * index of [first, last]?  Lockless;
 * only a hint, as the answer may change as soon as it is given (an
 * insertion checks again under xa_lock: filemap_add_folio's -EEXIST).
 */
bool filemap_range_has_folio(struct address_space *mapping, pgoff_t first, pgoff_t last)
{
	bool found;

	rcu_read_lock();
	found = xa_find(&mapping->i_pages, &first, last);
	rcu_read_unlock();
	return found;
}

/*
 * Count nr pages of folio in or (nr < 0) out of the page cache's
 * counters: Cached, and Shmem / ShmemHugePages for shmem's folios
 * (Linux's __filemap_add_folio and shmem_update_stats).
 */
static void filemap_account_folio(struct folio *folio, long nr)
{
	bool shmem = folio_test_swapbacked(folio);

	mod_node_page_state(NR_FILE_PAGES, nr);
	if (shmem)
		mod_node_page_state(NR_SHMEM, nr);
	if (folio_test_pmd_mappable(folio))
		mod_node_page_state(shmem ? NR_SHMEM_THPS : NR_FILE_THPS, nr);
}

/*
 * Cache folio (not in any cache, index aligned to its size) at index of
 * mapping, in every slot it covers, where the cache holds expected now
 * (NULL: nothing in the range; else the value entry of a swapped-out
 * shmem page, order 0 only): folio->mapping and ->index are set, the
 * cache takes folio_nr_pages() references (Linux's __filemap_add_folio).
 * 0, -EEXIST (the range holds something else: another task got there
 * first) or -ENOMEM (nothing changed).  The check and the store are one
 * step under xa_lock, so of two tasks adding at once exactly one succeeds.
 */
int __filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index,
			void *expected)
{
	long nr = folio_nr_pages(folio);
	pgoff_t found = index;
	int err = 0;

	VM_WARN_ON_ONCE(folio->mapping || !IS_ALIGNED(index, nr) || (expected && nr > 1),
			"filemap_add_folio: folio cached, or index not aligned");
	folio_ref_add(folio, nr);
	xa_lock(&mapping->i_pages);
	if (expected ? xa_load(&mapping->i_pages, index) != expected :
		       xa_find(&mapping->i_pages, &found, index + nr - 1) != NULL) {
		err = -EEXIST;
	} else {
		/* set before a lookup can find it; a folio that stays out is not touched */
		folio->mapping = mapping;
		folio->index = index;
		if (xa_store_range(&mapping->i_pages, index, index + nr - 1, folio)) {
			folio->mapping = NULL;
			err = -ENOMEM;
		}
	}
	if (!err)
		mapping->nrpages += nr;
	xa_unlock(&mapping->i_pages);
	if (err) {
		folio_put_refs(folio, nr);
		return err;
	}
	filemap_account_folio(folio, nr);
	return 0;
}

int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index)
{
	int err = __filemap_add_folio(mapping, folio, index, NULL);

	if (!err)
		folio_add_lru(folio);
	return err;
}

/*
 * Take folio out of its page cache and drop the cache's references
 * (Linux's filemap_remove_folio).  No page table may map it; the caller
 * holds a reference of its own (and, as in Linux, the folio lock).
 */
void filemap_remove_folio(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	long nr = folio_nr_pages(folio);

	VM_WARN_ON_ONCE(folio_mapped(folio), "filemap_remove_folio: still mapped");
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	xa_lock(&mapping->i_pages);
	xa_store_range(&mapping->i_pages, folio->index, folio->index + nr - 1, NULL);
	mapping->nrpages -= nr;
	folio->mapping = NULL;
	xa_unlock(&mapping->i_pages);
	filemap_account_folio(folio, -nr);
	folio_put_refs(folio, nr);
}

/*
 * Reclaim's removal (the page-cache half of Linux's __remove_mapping):
 * take the locked, unmapped folio out of its cache only if the cache's
 * references and refs more (the caller's) are all it has, leaving shadow
 * in its slots (NULL, or shmem's swap entry: Linux's
 * shmem_delete_from_page_cache).  The count is frozen meanwhile, so no
 * lockless lookup takes the folio and no write(2) copies into it after
 * the check.  True if done, the cache's references dropped.
 */
bool filemap_remove_folio_frozen(struct folio *folio, void *shadow, int refs)
{
	struct address_space *mapping = folio->mapping;
	long nr = folio_nr_pages(folio);

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	xa_lock(&mapping->i_pages);
	if (folio_mapped(folio) || !folio_ref_freeze(folio, nr + refs)) {
		xa_unlock(&mapping->i_pages);
		return false;
	}
	/* every slot exists: storing into them allocates nothing, cannot fail */
	xa_store_range(&mapping->i_pages, folio->index, folio->index + nr - 1, shadow);
	mapping->nrpages -= nr;
	folio->mapping = NULL;
	folio_ref_unfreeze(folio, refs);
	xa_unlock(&mapping->i_pages);
	filemap_account_folio(folio, -nr);
	return true;
}

/*
 * A page-cache folio was written.  Only shmem's folios are writable, and
 * like Linux's (noop_dirty_folio) they do not count in Dirty: memory is
 * their only home, there is nothing to write back.
 */
void folio_mark_dirty(struct folio *folio)
{
	folio_set_dirty(folio);
}

/*
 * vma maps (part of) mapping's file: link it on i_mmap, which Linux keeps
 * as an interval tree.  Both under i_mmap_lock_write, which file rmap
 * walkers (rmap_walk_file, truncation's unmap) take for read.
 */
void vma_interval_tree_insert(struct vm_area_struct *vma, struct address_space *mapping)
{
	i_mmap_lock_write(mapping);
	list_add_tail(&vma->shared, &mapping->i_mmap);
	i_mmap_unlock_write(mapping);
}

void vma_interval_tree_remove(struct vm_area_struct *vma, struct address_space *mapping)
{
	i_mmap_lock_write(mapping);
	list_del(&vma->shared);
	INIT_LIST_HEAD(&vma->shared);
	i_mmap_unlock_write(mapping);
}

/*
 * A new order-0 folio for index, cached and filled by a_ops->read_folio
 * (Linux's filemap_create_folio and filemap_read_folio; it comes zeroed,
 * so read_folio only copies the file's bytes in).  Returns it with a
 * reference, or an ERR_PTR: -ENOMEM, -EEXIST or read_folio's error (the
 * folio is dropped again).
 */
static struct folio *filemap_create_folio(struct file *file, struct address_space *mapping,
					  pgoff_t index)
{
	struct folio *folio = folio_alloc(GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0);
	int err;

	if (!folio)
		return ERR_PTR(-ENOMEM);
	folio_lock(folio);
	err = filemap_add_folio(mapping, folio, index);
	if (!err) {
		err = mapping->a_ops->read_folio(file, folio);
		if (err)
			filemap_remove_folio(folio);
	}
	if (!err)
		folio_set_uptodate(folio);
	folio_unlock(folio);
	if (err) {
		folio_put(folio);
		return ERR_PTR(err);
	}
	return folio;
}

static bool mapping_can_read_folio(const struct address_space *mapping)
{
	return mapping->a_ops && mapping->a_ops->read_folio;
}

/*
 * Wait until a folio another task is reading in is filled (Linux's
 * filemap_update_page): filemap_create_folio() keeps it locked from its
 * insertion until read_folio is done.  0 if it holds the file's data,
 * -EAGAIN if it left the cache meanwhile (its read failed, or truncation
 * took it: look again), -EIO if it is cached but was never filled.
 */
static int filemap_wait_uptodate(struct address_space *mapping, struct folio *folio)
{
	int err = 0;

	if (folio_test_uptodate(folio))
		return 0;
	folio_lock(folio);
	if (folio->mapping != mapping)
		err = -EAGAIN;
	else if (!folio_test_uptodate(folio))
		err = -EIO;
	folio_unlock(folio);
	return err;
}

/*
 * A shmem page in swap (the cache holds its swap entry): swapped in, as
 * Linux's shmem_file_read_iter does through shmem_get_folio; NULL if the
 * file shrank below it meanwhile (the caller sees EOF).
 */
static struct folio *filemap_read_swapped(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio;
	int err = shmem_get_folio(mapping->host, index, 0, &folio, SGP_READ);

	if (err == -EINVAL)
		return NULL;
	return err ? ERR_PTR(err) : folio;
}

/*
 * filemap_get_or_read_folio's slow half: folio (NULL: none) is not
 * uptodate, or missing, or a value entry.
 */
static noinline_fn struct folio *filemap_read_folio_slow(struct file *file,
							 struct address_space *mapping,
							 pgoff_t index, struct folio *folio)
{
	if (xa_is_value(folio))
		return filemap_read_swapped(mapping, index);
	for (;;) {
		int err;

		if (!folio)
			folio = filemap_create_folio(file, mapping, index);
		if (IS_ERR(folio) && PTR_ERR(folio) != -EEXIST)
			return folio;
		if (!IS_ERR(folio)) {
			err = filemap_wait_uptodate(mapping, folio);
			if (!err)
				return folio;
			folio_put(folio);
			if (err != -EAGAIN)
				return ERR_PTR(err);
		}
		folio = filemap_get_folio(mapping, index);
	}
}

/*
 * The folio holding page index of file, with a reference: from the cache,
 * else read in through a_ops->read_folio, or from swap (shmem); NULL for
 * a hole of a file that cannot be read in (shmem).  A folio of a file that reads its data is
 * returned only once filled.  Two tasks missing at once both create a
 * folio; the one that loses the insertion (-EEXIST) looks again and waits
 * for the winner's.  An ERR_PTR: -ENOMEM, -EIO or read_folio's error.
 */
static inline struct folio *filemap_get_or_read_folio(struct file *file,
						      struct address_space *mapping, pgoff_t index)
{
	struct folio *folio = filemap_get_entry(mapping, index);

	if (likely(!xa_is_value(folio) &&
		   (!mapping_can_read_folio(mapping) || (folio && folio_test_uptodate(folio)))))
		return folio;
	return filemap_read_folio_slow(file, mapping, index, folio);
}

/*
 * Copy up to n bytes (not past the page) at file position pos to ubuf
 * (a kernel buffer if kernel): from the cache, read in if a_ops can, else
 * zeros (a hole); none at or past EOF.  The bytes copied (fewer than n at
 * EOF, or if ubuf faults part way; 0 at EOF), or -EFAULT if ubuf faulted
 * at once, or an errno of filemap_get_or_read_folio().  i_size is read
 * after the lookup, as Linux's filemap_read does: a truncation that took
 * the page out before it was found is seen, so no zeros are read past the
 * new end.  No lock is held across the copy, which may fault (ubuf may
 * map this very page): the reference keeps the folio.  The read is a use
 * no page table records: folio_mark_accessed tells reclaim.
 */
static long filemap_copy_page(struct file *file, loff_t pos, size_t n, char *ubuf, bool kernel)
{
	pgoff_t index = pos >> PAGE_SHIFT;
	struct folio *folio = filemap_get_or_read_folio(file, file->f_mapping, index);
	const char *src = __va((phys_addr_t)zero_pfn << PAGE_SHIFT);
	loff_t size = i_size_read(file->f_mapping->host);
	unsigned long left = 0;

	if (IS_ERR(folio))
		return PTR_ERR(folio);
	n = pos < size ? MIN(n, (size_t)(size - pos)) : 0;
	if (folio)
		src = page_address(folio_page(folio, index - folio->index));
	if (n && kernel)
		memcpy(ubuf, src + (pos & ~PAGE_MASK), n);
	else if (n)
		left = copy_to_user(ubuf, src + (pos & ~PAGE_MASK), n);
	if (folio) {
		folio_mark_accessed(folio);
		folio_put(folio);
	}
	return n && left == n ? -EFAULT : (long)(n - left);
}

/* filemap_read into user memory, or kernel_read into the kernel's. */
static long __filemap_read(struct file *file, char *buf, size_t count, loff_t *pos, bool kernel)
{
	size_t done = 0;

	while (done < count && *pos < i_size_read(file->f_mapping->host)) {
		size_t n = MIN(PAGE_SIZE - (*pos & ~PAGE_MASK), count - done);
		long copied = filemap_copy_page(file, *pos, n, buf + done, kernel);

		if (copied < 0)
			return done ? (long)done : copied;
		done += copied;
		*pos += copied;
		if ((size_t)copied < n)
			break;                  /* EOF, or ubuf faulted: a short read, as Linux's */
	}
	return done;
}

/*
 * read() through the page cache (Linux's filemap_read, for f_op->read):
 * up to count bytes from *pos, not past i_size; *pos advances.  Returns
 * the bytes read, or an errno if none were (-EFAULT, -ENOMEM, -EIO..).
 */
long filemap_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return __filemap_read(file, ubuf, count, pos, false);
}

/*
 * The same into a kernel buffer (Linux's kernel_read, which goes through
 * f_op->read_iter): exec reads a program's headers so, from whatever
 * file system holds it.  Page-cache files only.
 */
long kernel_read(struct file *file, void *buf, size_t count, loff_t *pos)
{
	if (*pos < 0)
		return -EINVAL;         /* an offset from a file's own headers: anything */
	return __filemap_read(file, buf, count, pos, true);
}

/*
 * ->fault of a file's VMAs (generic_file_mmap's; Linux's filemap_fault):
 * the page at vmf->pgoff, from the cache or read in through read_folio,
 * in vmf->page with a reference.  The caller (__do_fault) locks the folio
 * and checks that it is still cached and inside i_size.
 * VM_FAULT_SIGBUS beyond EOF or if it cannot be read, VM_FAULT_OOM.
 */
vm_fault_t filemap_fault(struct vm_fault *vmf)
{
	struct file *file = vmf->vma->vm_file;
	struct address_space *mapping = file->f_mapping;
	struct folio *folio;

	if (vmf->pgoff >= DIV_ROUND_UP(i_size_read(mapping->host), PAGE_SIZE))
		return VM_FAULT_SIGBUS;
	folio = filemap_get_or_read_folio(file, mapping, vmf->pgoff);
	if (IS_ERR(folio))
		return PTR_ERR(folio) == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
	vmf->page = folio_page(folio, vmf->pgoff - folio->index);
	return 0;
}

const struct vm_operations_struct generic_file_vm_ops = {
	.fault = filemap_fault,
};

/*
 * f_op->mmap of a file read through the page cache (Linux's
 * generic_file_mmap): its faults read folios in, so it needs read_folio
 * (-ENOEXEC otherwise).
 */
int generic_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!file->f_mapping || !mapping_can_read_folio(file->f_mapping))
		return -ENOEXEC;
	vma->vm_ops = &generic_file_vm_ops;
	return 0;
}

/*
 * The folio lock's sleeping half (Linux's __folio_lock, folio_wake_bit in
 * mm/filemap.c, on the hashed wait_var_event queues): a waiter sets
 * PG_waiters before each try, so folio_unlock sees it and wakes every
 * sleeper, which all try again.  PG_waiters may stay set after the last
 * waiter got the lock: one wake-up for nobody.
 */
static bool folio_try_for_waiter(void *folio)
{
	set_bit(PG_waiters, &((struct folio *)folio)->flags);
	return folio_trylock(folio);
}

static bool folio_unlocked_for_waiter(void *folio)
{
	set_bit(PG_waiters, &((struct folio *)folio)->flags);
	return !folio_test_locked(folio);
}

void __folio_lock(struct folio *folio)
{
	wait_var_trylock(folio, folio_try_for_waiter);
}

/* Sleep until the folio is unlocked, without taking the lock. */
void folio_wait_locked(struct folio *folio)
{
	might_sleep();
	if (folio_test_locked(folio))
		wait_var_trylock(folio, folio_unlocked_for_waiter);
}

/* Tasks in migration_entry_wait_on_locked(); a split wakes each page's address if any. */
atomic_t nr_migration_waiters;

/*
 * Sleep until the folio that the migration entry names is unlocked
 * (Linux's migration_entry_wait_on_locked), with the PTE lock ptl held
 * on entry and dropped after queueing: while the entry is there, its
 * page is not freed.  No reference is taken, so a split's refcount
 * freeze does not fail for a waiter.  A split may rewrite the page's
 * struct page meanwhile, so the folio looked up may be the old head or
 * the page itself; split_folio_to_order() wakes every page's address when
 * nr_migration_waiters says someone waits.
 */
void migration_entry_wait_on_locked(swp_entry_t entry, spinlock_t *ptl)
{
	lockdep_assert_held(ptl);
	atomic_inc(&nr_migration_waiters);
	wait_var_unlock(pfn_swap_entry_folio(entry), folio_unlocked_for_waiter, ptl);
	atomic_dec(&nr_migration_waiters);
}

void folio_wake_bit(struct folio *folio)
{
	clear_bit(PG_waiters, &folio->flags);
	wake_up_var(folio);
}
