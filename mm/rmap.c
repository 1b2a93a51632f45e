/*
 * Anon rmap accounting (Linux's mm/rmap.c; the MM-ID large-mapcount helpers
 * are in linux/rmap.h, as in Linux's include/linux/rmap.h; the anon_vma half
 * of Linux's rmap.c — chains, walk, folio_move_anon_rmap — is mm/anon_vma.c).
 *
 * Every function takes the folio, the pages concerned and the vma whose mm
 * maps or unmaps them; the caller owns that mm (see the lock order below)
 * and holds a folio reference.  Mapcount changes of a large folio happen
 * under the folio's mapcount bit lock.  Each entry point starts with its one
 * observation hook, rmap_observe() (mm/rmap_observe.h): the mapcount trace
 * and the shadow exact counter see the operation through it, and are
 * nowhere else in here; off, the hook is one NOP.
 *
 * What changes, per operation (logical values; the table of docs/large-folio-series.md):
 *   new anon folio  PTEs: LM = n, slot0 = (mm, n)    PMD: EM = LM = 1, slot0 = (mm, 1)
 *   add PTEs/PMD    LM += n, this mm's slot += n (a new slot if needed)
 *   dup (fork)      as add, for the child's mm; AnonExclusive cleared
 *   remove          LM -= n, slot -= n, slot freed at 0; "shared" cleared
 *                   when one slot holds all mappings again
 * CONFIG_MAPCOUNT_PAGES has no EM: TMP (total mapped pages) moves with LM,
 * by 1 per PTE and 512 per PMD; a folio of order 9 or more starts mapped
 * by PMDs (a 4 MiB one by two: LM = 2, TMP = 1024).
 *
 * Lock ordering in mm (Linux keeps its table here too): an indented lock
 * may be taken while the one above it is held, never the other way round;
 * locks on separate branches are never held together.  The kernel's
 * locks form one tree; this is mm's part.  The other subsystems keep
 * theirs in their own headers, each saying where it joins this one: the
 * file system's (f_pos_lock, s_vfs_rename_mutex, inode->i_rwsem,
 * namespace_sem, pipe->mutex, and its spinlocks) in include/linux/fs.h,
 * the tasks' and the scheduler's (tasklist_lock, wq_head->lock, pi_lock,
 * rq->lock, futexes, itimer_lock) in include/linux/sched.h, the tty's in
 * include/linux/tty.h, a rw_semaphore's wait_lock in linux/rwsem.h, the
 * IDA's in linux/idr.h, the CRNG's in linux/random.h, RCU's in
 * linux/rcupdate.h, printk's and lockdep's in linux/printk.h.
 *
 * Sleeping locks (never under a spinlock or the bit lock: might_sleep()):
 * oom_lock (mutex, mm/oom_kill.c): one OOM killer at a time; taken by
 * trylock, under a fault's mmap_lock too (an allocation's OOM), and under
 * it a victim's mmap_lock only by trylock, and tasklist_lock alone.
 * inode->i_rwsem and the fs locks above it, pipe->mutex (include/linux/fs.h),
 * held across user copies, whose faults take
 *   mmap_lock (rwsem, linux/mmap_lock.h): the VMA list; read: faults, gup,
 *   /proc, MADV_DONTNEED; write: mmap, munmap, mprotect, mremap, brk, exit,
 *   exec (the new mm), fork (the parent's, then the child's: swapoff may
 *   reach the child on swap_mmlist); swapon_mutex is above it (try_to_unuse)
 *     folio lock (PG_locked, linux/page-flags.h): page-cache add/remove,
 *     split, truncation, a file fault from ->fault to its PTE, migration
 *     (source and destination), pageout and swap-in (docs/swap.md); under a
 *     PTL only folio_trylock (reuse); a fault that meets a migration entry
 *     sleeps until it is unlocked.  Pageout holds a batch of folio locks
 *     while their writes are in flight: nobody sleeps on a folio lock while
 *     holding another (only folio_trylock then)
 *       i_mmap_rwsem (include/linux/fs.h): a file's i_mmap; write: link,
 *       unlink, a VMA's range moves, its zap frees tables; read:
 *       rmap_walk_file, truncate
 *         anon_vma->root->rwsem (mm/anon_vma.c): an anon_vma tree's chains;
 *         write: link, unlink, a VMA's range moves, its zap frees tables,
 *         split and migration (across unmap, freeze and remap: PTLs in turn
 *         under it), MADV_COLLAPSE; read: rmap_walk_anon
 * Spinlocks (preemption off while held; irq: always irqsave, a handler takes it):
 *     pmd_lock (split)       linux/pgtable.h    a PMD table's entries, in its page
 *       pte lock (split)     linux/pgtable.h    a PTE table's entries, in its page;
 *                                               fork: the child's, then the parent's
 *         page_table_lock    linux/mm_types.h   PGD/PUD entries, deposited tables
 *       (the locks below may be taken under a PTL, and wq_head->lock:
 *        a migration entry's wait, include/linux/sched.h)
 *   rmap_trace_op_lock       mm/rmap_trace.c    one traced rmap operation at a time,
 *                                               its observation hook to its return
 *                                               (mm/rmap_observe.c): the bit lock,
 *                                               split_queue_lock, mapcount_shadow_lock,
 *                                               rmap_trace_lock, zone.lock under it
 *     rmap_trace_lock  irq   mm/rmap_trace.c    the trace ring
 *     zone.lock        irq   mm/page_alloc.c    the buddy's free lists
 *   shmem_inode_info->lock   mm/shmem.c         alloced, swapped, i_blocks, each
 *                                               insertion, a move to or from swap
 *     i_pages.xa_lock        mm/filemap.c       a page cache's tree, nrpages, its
 *                                               references; a file split's frozen
 *                                               refcount (lookups: RCU, no lock)
 *       split_queue_lock, kmalloc_lock, zone.lock, lru_lock
 *   shmem_swaplist_lock      mm/shmem_swap.c    the inodes with pages in swap
 *   lruvec->lru_lock   irq   mm/swap.c          the LRU lists, their counts, each
 *                                               listed folio's PG_lru/active/
 *                                               unevictable (linux/mmzone.h)
 *   cpu_fbatches[].lock irq  mm/swap.c          a CPU's batch of folios to be listed
 *   split_queue_lock   irq   mm/deferred_split.c the deferred split queue
 *   mapcount_shadow_lock irq mm/mapcount_shadow.c the shadow exact counter
 *   folio mapcount bit lock  linux/rmap.h       bit FOLIO_MM_IDS_LOCK_BITNUM of
 *                                               folio->_mm_ids: the MM ID slots
 *   huge_zero_lock     irq   mm/huge_memory.c   the huge zero folio's refcount
 *   mlock_lock               mm/mlock.c         a folio's mlock_count with PG_mlocked
 *   kmalloc_lock       irq   mm/kmalloc.c       the slab lists
 *     zone.lock
 * Other subsystems' locks above kmalloc_lock and zone.lock say so in their
 * tables; call_rcu() and printk may come under any lock.
 *
 * Lockdep (kernel/locking/lockdep.c, in the builds make test runs) checks
 * the whole tree and the irq column at run time.  It does not see the bit
 * lock (interrupts stay on; no handler takes it; /proc/lock_stat counts
 * its spins).  Page tables: see linux/pgtable.h for which lock guards which
 * entries; no page-table lock, and no spinlock at all, is held across an
 * allocation that may reclaim (__GFP_DIRECT_RECLAIM: reclaim takes other
 * mms' rmap and page-table locks, and sleeps for the disk).  The rmap
 * functions drop the bit lock before deferred_split_folio() takes
 * split_queue_lock and before they return, where their observers (the
 * shadow's mapcount_shadow_lock, the trace's rmap_trace_lock) run.
 *
 * What a function expects held is asserted where Linux asserts it:
 * mmap_assert_locked()/_write_locked() (the VMA calls, find_vma, faults;
 * an mm no task has yet is exempt: linux/mmap_lock.h),
 * VM_BUG_ON_FOLIO(!folio_test_locked()) (folio_move_anon_rmap,
 * rmap_walk_file, remove_migration_ptes), lockdep_assert_held() on PTLs,
 * anon_vma and rmap locks.  The rmap calls below need the PTL of the
 * entries they account but are not given it: unchecked, as in Linux.
 */
#include "linux/errno.h"
#include "linux/rmap.h"
#include "mm/deferred_split.h"
#include "mm/internal.h"
#include "linux/vmstat.h"
#include "linux/pgtable.h"
#include "mm/rmap_observe.h"


struct bit_spin_lock_stats mapcount_lock_stats[NR_CPUS];

/* Which mapcount mode this kernel was built in, for debuggers (scripts/gdb). */
const bool config_page_mapcount = IS_ENABLED(CONFIG_PAGE_MAPCOUNT);
const bool config_mapcount_pages = IS_ENABLED(CONFIG_MAPCOUNT_PAGES);

/*
 * Move the mapped-memory counters (Linux's __folio_mod_stat): nr pages
 * became mapped (< 0: unmapped) — AnonPages or, for a page-cache folio,
 * Mapped — and nr_pmdmapped pages gained or lost their first PMD mapping:
 * AnonHugePages, ShmemPmdMapped (a shmem folio: PG_swapbacked) or
 * FilePmdMapped.
 */
static void __folio_mod_stat(struct folio *folio, int nr, int nr_pmdmapped)
{
	const bool anon = folio_test_anon(folio);

	if (nr)
		mod_node_page_state(anon ? NR_ANON_MAPPED : NR_FILE_MAPPED, nr);
	if (!nr_pmdmapped)
		return;
	if (anon)
		mod_node_page_state(NR_ANON_THPS, nr_pmdmapped);
	else
		mod_node_page_state(folio_test_swapbacked(folio) ? NR_SHMEM_PMDMAPPED :
				    NR_FILE_PMDMAPPED, nr_pmdmapped);
}

/* Large-folio PTE add with per-page mapcounts: pages going 0 -> 1 count. */
static int __folio_add_rmap_ptes_pagemapcount(struct folio *folio, struct page *page,
					      int nr_pages, struct vm_area_struct *vma)
{
	atomic_t *mapped = &folio->_nr_pages_mapped;
	int first = 0, nr = 0, orig_nr_pages = nr_pages;

	do {
		first += atomic_inc_and_test(&page->_mapcount);
	} while (page++, --nr_pages > 0);
	if (first && atomic_add_return_relaxed(first, mapped) < ENTIRELY_MAPPED)
		nr = first;
	folio_add_large_mapcount(folio, orig_nr_pages, orig_nr_pages, vma);
	return nr;
}

/* Large-folio PMD add with _nr_pages_mapped: the first PMD maps the rest. */
static int __folio_add_rmap_pmd_pagemapcount(struct folio *folio, struct vm_area_struct *vma,
					     int *nr_pmdmapped)
{
	atomic_t *mapped = &folio->_nr_pages_mapped;
	int nr = 0;

	if (atomic_inc_and_test(&folio->_entire_mapcount)) {
		nr = atomic_add_return_relaxed(ENTIRELY_MAPPED, mapped);
		if (nr < ENTIRELY_MAPPED + ENTIRELY_MAPPED) {
			*nr_pmdmapped = folio_large_nr_pages(folio);
			nr = MAX(*nr_pmdmapped - (nr & FOLIO_PAGES_MAPPED), 0);
		} else {
			nr = 0;         /* raced ahead of a remove of ENTIRELY_MAPPED */
		}
	}
	folio_add_large_mapcount(folio, 1, HPAGE_PMD_NR, vma);
	return nr;
}

/*
 * The RFC's add: nr_pages pages by mappings of this level.  The folio
 * counts as mapped from its first mapping; PMD statistics move when the
 * first PMD mappings come (total - mapcount, 511 per PMD, was 0).
 * foliOS counts them for every folio a PMD can map; the RFC, which maps
 * no anon folio larger than a PMD yet, for PMD-sized ones.
 */
static int __folio_add_rmap_mapped_pages(struct folio *folio, int nr_pages,
					 struct vm_area_struct *vma, enum rmap_level level,
					 int *nr_pmdmapped)
{
	const int nr_mappings = nr_pages >> rmap_level_to_order(level);
	unsigned long nr_mapped_pages;
	int mapcount;

	mapcount = folio_add_return_large_mapcount(folio, nr_mappings, nr_pages, vma,
						   &nr_mapped_pages);
	if (level == RMAP_LEVEL_PMD &&
	    nr_mapped_pages - mapcount == (unsigned long)(nr_pages - nr_mappings))
		*nr_pmdmapped = folio_large_nr_pages(folio);
	return mapcount == nr_mappings ? folio_large_nr_pages(folio) : 0;
}

/*
 * Account nr_pages new mappings (PTE level) or one PMD mapping.  Returns
 * how many pages became mapped (what NR_ANON_MAPPED grows by); sets
 * *nr_pmdmapped to the folio size on its first PMD mapping.
 */
static __always_inline int __folio_add_rmap(struct folio *folio, struct page *page,
					    int nr_pages, struct vm_area_struct *vma,
					    enum rmap_level level, int *nr_pmdmapped)
{
	unsigned long unused;
	int nr;

	__folio_rmap_sanity_checks(folio, page, nr_pages, level);
	if (level == RMAP_LEVEL_PTE && !folio_test_large(folio))
		return atomic_inc_and_test(&folio->_mapcount);
	if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		return __folio_add_rmap_mapped_pages(folio, nr_pages, vma, level, nr_pmdmapped);
	if (level == RMAP_LEVEL_PTE) {
		if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
			return __folio_add_rmap_ptes_pagemapcount(folio, page, nr_pages, vma);
		nr = folio_add_return_large_mapcount(folio, nr_pages, nr_pages, vma, &unused);
		/* Was completely unmapped: now the whole folio counts as mapped. */
		return nr == nr_pages ? folio_large_nr_pages(folio) : 0;
	}
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		return __folio_add_rmap_pmd_pagemapcount(folio, vma, nr_pmdmapped);
	if (atomic_inc_and_test(&folio->_entire_mapcount))
		*nr_pmdmapped = folio_large_nr_pages(folio);
	nr = folio_add_return_large_mapcount(folio, 1, HPAGE_PMD_NR, vma, &unused);
	return nr == 1 ? folio_large_nr_pages(folio) : 0;
}

/*
 * A new anon folio's page becomes AnonExclusive: with a plain store while
 * nobody else can see the folio, atomically once the swap cache shows it
 * (a swap-in: a task waiting for its lock sets PG_waiters in the same
 * word, and a plain store could lose that bit, and the wake-up with it).
 */
static __always_inline void new_anon_page_exclusive(struct folio *folio, struct page *page)
{
	if (unlikely(folio_test_swapcache(folio)))
		SetPageAnonExclusive(page);
	else
		__SetPageAnonExclusive(page);
}

/*
 * Mark a folio anon (Linux's __folio_set_anon): its mapping is vma's
 * anon_vma with PAGE_MAPPING_ANON set, its index the page offset of
 * address in vma (linear_page_index), which mremap keeps as it moves the
 * page: rmap_walk_anon() finds each mapping from the two.  A folio that
 * may be shared already (a swap-in of an entry fork copied) takes the
 * root of vma's anon_vma tree, the oldest, so the walk finds the other
 * processes' mappings too.
 */
static void __folio_set_anon(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address, bool exclusive)
{
	struct anon_vma *anon_vma = vma->anon_vma;

	VM_WARN_ON_ONCE(!anon_vma, "new anon folio in a vma without anon_vma");
	if (!exclusive)
		anon_vma = anon_vma->root;
	folio->mapping = (void *)((unsigned long)anon_vma | PAGE_MAPPING_ANON);
	folio->index = linear_page_index(vma, address);
}

/*
 * The RFC's new large folio: below PMD order mapped by PTEs, else by PMDs
 * (a 4 MiB folio by two), AnonExclusive on the first page of each
 * mapping.  Returns the pages now mapped; *nr_pmdmapped for a PMD mapping.
 */
static int __folio_add_new_anon_rmap_mapped_pages(struct folio *folio,
						  struct vm_area_struct *vma, bool exclusive,
						  int *nr_pmdmapped)
{
	const unsigned int mapping_order = folio_test_pmd_mappable(folio) ? HPAGE_PMD_ORDER : 0;
	const int nr = folio_large_nr_pages(folio);

	if (exclusive)
		for (int i = 0; i < nr; i += 1 << mapping_order)
			new_anon_page_exclusive(folio, folio_page(folio, i));
	folio_set_large_mapcount(folio, nr >> mapping_order, nr, vma);
	if (mapping_order)
		*nr_pmdmapped = nr;
	return nr;
}

/*
 * Map a folio that was just allocated for vma at address: every page by a
 * PTE (order < PMD order), or the whole folio by PMDs (one, except for a
 * folio larger than a PMD with CONFIG_MAPCOUNT_PAGES).  With
 * RMAP_EXCLUSIVE the pages are PageAnonExclusive.  No lock needed: nobody
 * else can see the folio yet.
 */
static void __folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma,
				      unsigned long address, rmap_t flags)
{
	const bool exclusive = flags & RMAP_EXCLUSIVE;
	int nr = 1, nr_pmdmapped = 0;

	__folio_set_anon(folio, vma, address, exclusive);
	if (!folio_test_large(folio)) {
		atomic_set(&folio->_mapcount, 0);
		if (exclusive)
			new_anon_page_exclusive(folio, &folio->page);
	} else if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES)) {
		nr = __folio_add_new_anon_rmap_mapped_pages(folio, vma, exclusive, &nr_pmdmapped);
	} else if (!folio_test_pmd_mappable(folio)) {
		nr = folio_large_nr_pages(folio);
		for (int i = 0; i < nr; i++) {
			struct page *page = folio_page(folio, i);

			if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
				atomic_set(&page->_mapcount, 0);
			if (exclusive)
				new_anon_page_exclusive(folio, page);
		}
		folio_set_large_mapcount(folio, nr, nr, vma);
		if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
			atomic_set(&folio->_nr_pages_mapped, nr);
	} else {
		nr = folio_large_nr_pages(folio);
		atomic_set(&folio->_entire_mapcount, 0);
		folio_set_large_mapcount(folio, 1, nr, vma);
		if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
			atomic_set(&folio->_nr_pages_mapped, ENTIRELY_MAPPED);
		if (exclusive)
			new_anon_page_exclusive(folio, &folio->page);
		nr_pmdmapped = nr;
	}
	VM_WARN_ON_ONCE(address < vma->vm_start || address + ((unsigned long)nr << PAGE_SHIFT) > vma->vm_end,
			"new anon folio outside its vma");
	__folio_mod_stat(folio, nr, nr_pmdmapped);
}

noinline_fn void folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address, rmap_t flags)
{
	rmap_observe(folio, &folio->page, folio_nr_pages(folio), vma, RMAP_TRACE_NEW);
	/* Shared from the start, it is locked against other mappers (Linux's check). */
	VM_WARN_ON_ONCE_FOLIO(!(flags & RMAP_EXCLUSIVE) && !folio_test_locked(folio), folio);
	if (!folio_test_swapbacked(folio))      /* set already if in the swap cache, and seen */
		__folio_set_swapbacked(folio);  /* anon memory's only home is swap: the anon LRU */
	__folio_add_new_anon_rmap(folio, vma, address, flags);
	mod_mthp_stat(folio_order(folio), MTHP_STAT_NR_ANON, 1);
	/* Linux does this as it adds the folio to an LRU list (folio_add_lru_vma) */
	mlock_vma_folio(folio, vma, folio_test_pmd_mappable(folio));
}

/*
 * An existing anon folio mapped again must belong to vma's anon_vma tree
 * and sit where its index says (Linux's __page_check_anon_rmap).
 */
static __always_inline void __page_check_anon_rmap(const struct folio *folio,
						   const struct page *page,
						   const struct vm_area_struct *vma,
						   unsigned long address)
{
	VM_WARN_ON_ONCE(!vma->anon_vma || folio_anon_vma(folio)->root != vma->anon_vma->root,
			"anon page mapped in a vma of another anon_vma tree");
	VM_WARN_ON_ONCE(folio->index + (unsigned long)(page - &folio->page) !=
			linear_page_index(vma, address), "anon page mapped away from its index");
	VM_WARN_ON_ONCE(address < vma->vm_start || address >= vma->vm_end,
			"anon page mapped outside its vma");
}

static __always_inline void __folio_add_anon_rmap(struct folio *folio, struct page *page,
						   int nr_pages, struct vm_area_struct *vma,
						   unsigned long address, rmap_t flags,
						   enum rmap_level level)
{
	int nr, nr_pmdmapped = 0;

	VM_WARN_ON_ONCE(!folio_test_anon(folio), "anon rmap of a non-anon folio");
	__page_check_anon_rmap(folio, page, vma, address);
	nr = __folio_add_rmap(folio, page, nr_pages, vma, level, &nr_pmdmapped);
	__folio_mod_stat(folio, nr, nr_pmdmapped);
	mlock_vma_folio(folio, vma, level == RMAP_LEVEL_PMD);
	/* A mapping's exclusivity lives in the flag of its first page. */
	if (flags & RMAP_EXCLUSIVE)
		for (int i = 0; i < nr_pages; i += 1 << rmap_level_to_order(level))
			SetPageAnonExclusive(page + i);
	VM_WARN_ON_ONCE(!folio_test_large(folio) && PageAnonExclusive(page) &&
			atomic_read(&folio->_mapcount) > 0, "exclusive small folio mapped more than once");
	if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		return;
	for (int i = 0; i < nr_pages; i++) {
		VM_WARN_ON_ONCE(folio_test_large(folio) && folio_entire_mapcount(folio) > 1 &&
				PageAnonExclusive(page + i),
				"exclusive page of a folio mapped by several PMDs");
		if (IS_ENABLED(CONFIG_NO_PAGE_MAPCOUNT))
			continue;
		/* While PTE-mapping a THP we have a PMD and a PTE mapping. */
		VM_WARN_ON_ONCE(atomic_read(&page[i]._mapcount) > 0 && PageAnonExclusive(page + i),
				"exclusive page mapped more than once");
	}
}

/* Map nr_pages pages of an anon folio, by PTEs of vma's mm. */
noinline_fn void folio_add_anon_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
			      struct vm_area_struct *vma, unsigned long address, rmap_t flags)
{
	rmap_observe(folio, page, nr_pages, vma, RMAP_TRACE_ADD_PTES);
	__folio_add_anon_rmap(folio, page, nr_pages, vma, address, flags, RMAP_LEVEL_PTE);
}

/* Map a whole PMD-sized anon folio by one PMD of vma's mm. */
noinline_fn void folio_add_anon_rmap_pmd(struct folio *folio, struct page *page,
			     struct vm_area_struct *vma, unsigned long address, rmap_t flags)
{
	rmap_observe(folio, page, HPAGE_PMD_NR, vma, RMAP_TRACE_ADD_PMD);
	__folio_add_anon_rmap(folio, page, HPAGE_PMD_NR, vma, address, flags, RMAP_LEVEL_PMD);
}

/*
 * Map pages of a page-cache folio (Linux's __folio_add_file_rmap): the
 * counts and the MM owner slots move exactly as for an anon folio
 * (__folio_add_rmap), only the counters differ; no page is ever
 * AnonExclusive, and a file folio is never queued for deferred split.
 */
static __always_inline void __folio_add_file_rmap(struct folio *folio, struct page *page,
						   int nr_pages, struct vm_area_struct *vma,
						   enum rmap_level level)
{
	int nr, nr_pmdmapped = 0;

	VM_WARN_ON_ONCE(folio_test_anon(folio), "file rmap of an anon folio");
	nr = __folio_add_rmap(folio, page, nr_pages, vma, level, &nr_pmdmapped);
	__folio_mod_stat(folio, nr, nr_pmdmapped);
	mlock_vma_folio(folio, vma, level == RMAP_LEVEL_PMD);
}

/* Map nr_pages pages of a page-cache folio, by PTEs of vma's mm. */
noinline_fn void folio_add_file_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
					  struct vm_area_struct *vma)
{
	rmap_observe(folio, page, nr_pages, vma, RMAP_TRACE_ADD_PTES);
	__folio_add_file_rmap(folio, page, nr_pages, vma, RMAP_LEVEL_PTE);
}

/* Map a whole PMD-sized page-cache folio by one PMD of vma's mm. */
noinline_fn void folio_add_file_rmap_pmd(struct folio *folio, struct page *page,
					 struct vm_area_struct *vma)
{
	rmap_observe(folio, page, HPAGE_PMD_NR, vma, RMAP_TRACE_ADD_PMD);
	__folio_add_file_rmap(folio, page, HPAGE_PMD_NR, vma, RMAP_LEVEL_PMD);
}

/*
 * fork: the child's mm (dst_vma) maps the pages its parent (src_vma) maps.
 * The pages stop being exclusive to the parent.  Returns 0, or -EBUSY if
 * an exclusive page may be pinned for DMA: then the caller must copy it.
 * Without per-page mapcounts the mapcount work is one update of the folio,
 * however many pages.
 */
static __always_inline int __folio_try_dup_anon_rmap(struct folio *folio, struct page *page,
						     int nr_pages, struct vm_area_struct *dst_vma,
						     struct vm_area_struct *src_vma,
						     enum rmap_level level)
{
	const bool maybe_pinned = folio_needs_cow_for_dma(src_vma, folio);

	VM_WARN_ON_ONCE(!folio_test_anon(folio), "dup of a non-anon folio");
	__folio_rmap_sanity_checks(folio, page, nr_pages, level);
	if (level == RMAP_LEVEL_PMD) {
		if (PageAnonExclusive(page)) {
			if (maybe_pinned)
				return -EBUSY;
			ClearPageAnonExclusive(page);
		}
		__folio_dup_rmap_pmd(folio, dst_vma);
		return 0;
	}
	if (maybe_pinned)
		for (int i = 0; i < nr_pages; i++)
			if (PageAnonExclusive(page + i))
				return -EBUSY;
	/* Test first: an atomic clear of a clear bit would still dirty the line. */
	if (!folio_test_large(folio)) {
		if (PageAnonExclusive(page))
			ClearPageAnonExclusive(page);
		atomic_inc(&folio->_mapcount);
		return 0;
	}
	for (struct page *end = page + nr_pages; page < end; page++) {
		if (PageAnonExclusive(page))
			ClearPageAnonExclusive(page);
		if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
			atomic_inc(&page->_mapcount);
	}
	folio_add_large_mapcount(folio, nr_pages, nr_pages, dst_vma);
	return 0;
}

noinline_fn int folio_try_dup_anon_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
				 struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma)
{
	rmap_observe(folio, page, nr_pages, dst_vma, RMAP_TRACE_DUP_PTES);
	return __folio_try_dup_anon_rmap(folio, page, nr_pages, dst_vma, src_vma, RMAP_LEVEL_PTE);
}

noinline_fn int folio_try_dup_anon_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma)
{
	rmap_observe(folio, page, HPAGE_PMD_NR, dst_vma, RMAP_TRACE_DUP_PMD);
	return __folio_try_dup_anon_rmap(folio, page, HPAGE_PMD_NR, dst_vma, src_vma,
					 RMAP_LEVEL_PMD);
}

/*
 * Large-folio PTE removal with per-page mapcounts.  Pages going 1 -> 0
 * leave _nr_pages_mapped; they are "newly unmapped" unless a PMD still maps
 * the folio.  Partially mapped: some page unmapped, some still mapped.
 */
static int __folio_remove_rmap_ptes_pagemapcount(struct folio *folio, struct page *page,
						 int nr_pages, struct vm_area_struct *vma,
						 bool *partially_mapped)
{
	atomic_t *mapped = &folio->_nr_pages_mapped;
	int last = 0, nr = 0;

	folio_sub_large_mapcount(folio, nr_pages, nr_pages, vma);
	do {
		last += atomic_add_negative(-1, &page->_mapcount);
	} while (page++, --nr_pages > 0);
	if (last && atomic_sub_return_relaxed(last, mapped) < ENTIRELY_MAPPED)
		nr = last;
	*partially_mapped = nr && atomic_read(mapped);
	return nr;
}

/* Large-folio PMD removal with _nr_pages_mapped: the last PMD unmaps the rest. */
static int __folio_remove_rmap_pmd_pagemapcount(struct folio *folio, struct vm_area_struct *vma,
						int *nr_pmdmapped, bool *partially_mapped)
{
	atomic_t *mapped = &folio->_nr_pages_mapped;
	int nr = 0;

	folio_sub_large_mapcount(folio, 1, HPAGE_PMD_NR, vma);
	if (atomic_add_negative(-1, &folio->_entire_mapcount)) {
		nr = atomic_sub_return_relaxed(ENTIRELY_MAPPED, mapped);
		if (nr < ENTIRELY_MAPPED) {
			*nr_pmdmapped = folio_large_nr_pages(folio);
			nr = MAX(*nr_pmdmapped - nr, 0);
		} else {
			nr = 0;         /* an add of ENTIRELY_MAPPED raced ahead */
		}
	}
	*partially_mapped = nr && nr < *nr_pmdmapped;
	return nr;
}

/*
 * Without per-page mapcounts: a folio counts as mapped until its last
 * mapping goes; it is certainly partially mapped when fewer mappings than
 * pages remain and no PMD maps it (or, for a PMD, when the last PMD went).
 */
static int __folio_remove_rmap_nopagemapcount(struct folio *folio, int nr_pages,
					      struct vm_area_struct *vma, enum rmap_level level,
					      int *nr_pmdmapped, bool *partially_mapped)
{
	unsigned long unused;
	bool last = false;
	int nr;

	if (level == RMAP_LEVEL_PMD) {
		last = atomic_add_negative(-1, &folio->_entire_mapcount);
		if (last)
			*nr_pmdmapped = folio_large_nr_pages(folio);
		nr = folio_sub_return_large_mapcount(folio, 1, HPAGE_PMD_NR, vma, &unused);
	} else {
		nr = folio_sub_return_large_mapcount(folio, nr_pages, nr_pages, vma, &unused);
	}
	if (!nr)
		return folio_large_nr_pages(folio);     /* now completely unmapped */
	if (level == RMAP_LEVEL_PMD)
		*partially_mapped = last && nr < folio_large_nr_pages(folio);
	else
		*partially_mapped = nr < folio_large_nr_pages(folio) &&
				    !folio_entire_mapcount(folio);
	return 0;
}

/*
 * The RFC's remove.  The folio is unmapped with its last mapping, its PMD
 * statistics go with its last PMD mapping (total == mapcount), and it is
 * certainly partially mapped while fewer pages than it has are mapped in
 * all (an average mapcount below 1).  That misses a folio unmapped in part
 * while shared (fork, then unmap half in both), until one mm alone maps it.
 */
static int __folio_remove_rmap_mapped_pages(struct folio *folio, int nr_pages,
					    struct vm_area_struct *vma, enum rmap_level level,
					    int *nr_pmdmapped, bool *partially_mapped)
{
	const int nr_mappings = nr_pages >> rmap_level_to_order(level);
	unsigned long nr_mapped_pages;
	int mapcount;

	mapcount = folio_sub_return_large_mapcount(folio, nr_mappings, nr_pages, vma,
						   &nr_mapped_pages);
	if (level == RMAP_LEVEL_PMD && nr_mapped_pages == (unsigned long)mapcount)
		*nr_pmdmapped = folio_large_nr_pages(folio);
	*partially_mapped = nr_mapped_pages && nr_mapped_pages < (unsigned long)folio_large_nr_pages(folio);
	return mapcount ? 0 : folio_large_nr_pages(folio);
}

static __always_inline void __folio_remove_rmap(struct folio *folio, struct page *page,
						 int nr_pages, struct vm_area_struct *vma,
						 enum rmap_level level)
{
	int nr = 0, nr_pmdmapped = 0;
	bool partially_mapped = false;

	__folio_rmap_sanity_checks(folio, page, nr_pages, level);
	if (!folio_test_large(folio))
		nr = atomic_add_negative(-1, &folio->_mapcount);
	else if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		nr = __folio_remove_rmap_mapped_pages(folio, nr_pages, vma, level,
						      &nr_pmdmapped, &partially_mapped);
	else if (IS_ENABLED(CONFIG_NO_PAGE_MAPCOUNT))
		nr = __folio_remove_rmap_nopagemapcount(folio, nr_pages, vma, level,
							&nr_pmdmapped, &partially_mapped);
	else if (level == RMAP_LEVEL_PTE)
		nr = __folio_remove_rmap_ptes_pagemapcount(folio, page, nr_pages, vma,
							   &partially_mapped);
	else
		nr = __folio_remove_rmap_pmd_pagemapcount(folio, vma, &nr_pmdmapped,
							  &partially_mapped);
	/* Queue a partially mapped anon large folio for deferred split, once. */
	if (partially_mapped && folio_test_anon(folio) && !folio_test_partially_mapped(folio))
		deferred_split_folio(folio, true);
	__folio_mod_stat(folio, -nr, -nr_pmdmapped);
	munlock_vma_folio(folio, vma, level == RMAP_LEVEL_PMD);
}

/* Unmap nr_pages pages of a folio that vma's mm maps by PTEs. */
noinline_fn void folio_remove_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
			    struct vm_area_struct *vma)
{
	rmap_observe(folio, page, nr_pages, vma, RMAP_TRACE_REMOVE_PTES);
	__folio_remove_rmap(folio, page, nr_pages, vma, RMAP_LEVEL_PTE);
}

/* Unmap a PMD-mapped folio from vma's mm. */
noinline_fn void folio_remove_rmap_pmd(struct folio *folio, struct page *page,
				       struct vm_area_struct *vma)
{
	rmap_observe(folio, page, HPAGE_PMD_NR, vma, RMAP_TRACE_REMOVE_PMD);
	__folio_remove_rmap(folio, page, HPAGE_PMD_NR, vma, RMAP_LEVEL_PMD);
}
