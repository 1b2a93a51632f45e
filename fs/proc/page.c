/*
 * The page views of /proc: Linux's kpagecount and kpageflags (one 64-bit
 * record per PFN, at the file position / 8), and foliOS's own folio view
 * /proc/folio/<pfn> (a text file of the folio's counts).
 *
 * Locks: a folio is read under a reference (kpage_folio_get()), its
 * mapcounts under its mapcount lock, a page-cache folio's file under the
 * folio lock, the task list (mm_id_to_pid) under tasklist_lock.
 */
#include "fs/proc/internal.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/mm.h"
#include "linux/rmap.h"
#include "linux/sched/mm.h"
#include "linux/pgtable.h"
#include "linux/rmap_trace.h"

/* A page the kernel holds for itself (free, a table, slab, reserved): no folio's. */
static bool kpage_is_kernel(struct page *page)
{
	return PageBuddy(page) || PageReserved(page) || PageTable(page) ||
	       PageSlab(compound_head(page));
}

/* Does folio look like memory of a user mapping or the page cache (worth a reference)? */
static bool kpage_user_folio(struct folio *folio)
{
	return folio_test_large(folio) || READ_ONCE(folio->mapping);
}

#define KPAGE_TRIES     1000    /* a folio frozen for a split is unfrozen within a few µs */

/*
 * A reference on the folio page belongs to, so its fields can be read
 * together (Linux's folio_try_get, then snapshot_page's page_folio
 * recheck: the page may have been freed, split off or reused meanwhile):
 * NULL if the page is a kernel page, no folio's, or the folio stays
 * frozen (a split on another CPU).  Only folios of user memory or the
 * page cache are referenced: a speculative reference on a kernel
 * allocation of several pages would free only its first page at the put.
 */
static struct folio *kpage_folio_get(struct page *page)
{
	for (int tries = 0; tries < KPAGE_TRIES; tries++) {
		struct folio *folio = page_folio(page);

		if (kpage_is_kernel(page) || !kpage_user_folio(folio))
			return NULL;
		if (folio_try_get(folio)) {
			if (folio == page_folio(page) && kpage_user_folio(folio))
				return folio;
			folio_put(folio);
		} else if (!page_ref_count(&folio->page) && PageBuddy(&folio->page)) {
			return NULL;            /* freed */
		}
		cpu_relax();
	}
	return NULL;
}

/*
 * How often the page is mapped: precise, or the folio's average without
 * PAGE_MAPCOUNT; 0 for a page that is no folio's.  The large mapcount is
 * read under the folio's mapcount lock (a consistent slot state).
 */
static u64 kpagecount_record(struct inode *inode, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	struct folio *folio = kpage_folio_get(page);
	int count;

	if (!folio)
		return 0;
	if (folio_test_large(folio))
		folio_lock_large_mapcount(folio);
	count = proc_page_mapcount(folio, page);
	if (folio_test_large(folio))
		folio_unlock_large_mapcount(folio);
	folio_put(folio);
	return count;
}

/* Linux's KPF_ bits (include/uapi/linux/kernel-page-flags.h) that foliOS has. */
#define KPF_LOCKED              0
#define KPF_REFERENCED          2
#define KPF_UPTODATE            3
#define KPF_DIRTY               4
#define KPF_LRU                 5
#define KPF_ACTIVE              6
#define KPF_SLAB                7
#define KPF_BUDDY               10
#define KPF_MMAP                11
#define KPF_ANON                12
#define KPF_SWAPBACKED          14
#define KPF_COMPOUND_HEAD       15
#define KPF_COMPOUND_TAIL       16
#define KPF_UNEVICTABLE         18
#define KPF_NOPAGE              20
#define KPF_THP                 22
#define KPF_ZERO_PAGE           24
#define KPF_PGTABLE             26
#define KPF_RESERVED            32
#define KPF_MLOCKED             33

/*
 * The folio flags of a page (today's Linux stable_page_flags() reads them
 * from the folio, so a tail page shows its folio's): anon memory is
 * always uptodate, swap-backed and dirty (nothing to be clean against); a
 * page-cache folio shows its own flags, shmem's swapbacked too; both
 * show where they are on the LRU (lru, active, referenced, unevictable)
 * and whether they are mlocked.
 */
static u64 kpageflags_folio(const struct folio *folio)
{
	u64 k = 0;

	if (folio_test_lru(folio))
		k |= BIT(KPF_LRU);
	if (folio_test_active(folio))
		k |= BIT(KPF_ACTIVE);
	if (folio_test_referenced(folio))
		k |= BIT(KPF_REFERENCED);
	if (folio_test_unevictable(folio))
		k |= BIT(KPF_UNEVICTABLE);
	if (folio_test_mlocked(folio))
		k |= BIT(KPF_MLOCKED);
	if (folio_test_anon(folio))
		return k | BIT(KPF_ANON) | BIT(KPF_SWAPBACKED) | BIT(KPF_DIRTY) | BIT(KPF_UPTODATE);
	if (folio_test_locked(folio))
		k |= BIT(KPF_LOCKED);
	if (folio_test_uptodate(folio))
		k |= BIT(KPF_UPTODATE);
	if (folio_test_dirty(folio))
		k |= BIT(KPF_DIRTY);
	if (folio_test_swapbacked(folio))
		k |= BIT(KPF_SWAPBACKED);
	return k;
}

/*
 * The flags of a page of a folio held (kpage_folio_get()): compound head
 * or tail, THP (a large anon or page-cache folio, of any size, as
 * Linux's), the folio's flags, mapped.
 */
static u64 kpageflags_of_folio(struct folio *folio, struct page *page, unsigned long pfn)
{
	u64 k = 0;

	if (folio_test_large(folio))
		k |= BIT(page == &folio->page ? KPF_COMPOUND_HEAD : KPF_COMPOUND_TAIL);
	if (is_huge_zero_pfn(pfn))
		return k | BIT(KPF_THP) | BIT(KPF_ZERO_PAGE);
	if (folio_test_large(folio) && (folio_test_anon(folio) || folio->mapping))
		k |= BIT(KPF_THP);
	k |= kpageflags_folio(folio);
	if (folio_mapped(folio))
		k |= BIT(KPF_MMAP);
	return k;
}

/*
 * Linux's stable_page_flags() for one PFN: a kernel page by its type, a
 * folio's page read under a reference, any other page in use none, one
 * inside a free buddy block (or a folio being freed or split) KPF_NOPAGE.
 */
static u64 kpageflags_record(struct inode *inode, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	struct folio *folio;
	u64 k;

	if (is_zero_pfn(pfn))
		return BIT(KPF_ZERO_PAGE) | BIT(KPF_RESERVED);  /* reserved, as Linux's */
	if (PageReserved(page))
		return BIT(KPF_RESERVED);
	if (PageBuddy(page))
		return BIT(KPF_BUDDY);
	if (PageTable(page))
		return BIT(KPF_PGTABLE);
	if (PageSlab(compound_head(page)))
		return BIT(KPF_SLAB);
	folio = kpage_folio_get(page);
	if (!folio)
		return page_ref_count(compound_head(page)) ? 0 : BIT(KPF_NOPAGE);
	k = kpageflags_of_folio(folio, page, pfn);
	folio_put(folio);
	return k;
}

static long kpagecount_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return proc_read_records(file, ubuf, count, pos, max_pfn, kpagecount_record);
}

static long kpageflags_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return proc_read_records(file, ubuf, count, pos, max_pfn, kpageflags_record);
}

static const struct file_operations proc_kpagecount_operations = {
	.llseek = seq_lseek,
	.read = kpagecount_read,
};

static const struct file_operations proc_kpageflags_operations = {
	.llseek = seq_lseek,
	.read = kpageflags_read,
};

const struct proc_dir_entry proc_kpagecount = { "kpagecount", .proc_fops = &proc_kpagecount_operations };
const struct proc_dir_entry proc_kpageflags = { "kpageflags", .proc_fops = &proc_kpageflags_operations };

/*
 * What the folio holds: "mapping: anon", "file", "shmem" or "none"; for a
 * page-cache folio the inode number of its file ("inode", 0 if none; read
 * under the folio lock, which keeps the folio in its file and so the
 * inode alive), and the page's index: its page offset in the file, or for
 * anon memory its linear page index, the rmap's key.  The anon_vma's and
 * address_space's addresses stay in the kernel.  The folio is held.
 */
static void folio_show_mapping(struct seq_file *m, struct folio *folio, const struct page *page)
{
	enum folio_kind kind = folio_kind(folio);
	unsigned long ino = 0;

	if (kind == FOLIO_KIND_FILE || kind == FOLIO_KIND_SHMEM) {
		const struct address_space *mapping;

		folio_lock(folio);
		mapping = folio->mapping;
		if (mapping && mapping->host)
			ino = mapping->host->i_ino;
		folio_unlock(folio);
	}
	seq_printf(m, "mapping: %s\ninode: %lu\nindex: %lu\n", folio_kind_name(kind), ino,
		   folio->index + (unsigned long)(page - &folio->page));
}

/* A large folio's mapcounts that must agree, read at once under its mapcount lock. */
struct folio_counts {
	int large_mapcount, entire_mapcount, nr_pages_mapped, page_mapcount, mm_id_mapcount[2];
	unsigned long total_mapped_pages;
	unsigned int mm_id[2];
	bool shared;
};

static void folio_read_counts(struct folio *folio, struct page *page, struct folio_counts *c)
{
	bool large = folio_test_large(folio);

	if (large)
		folio_lock_large_mapcount(folio);
	c->large_mapcount = folio_mapcount(folio);
	c->total_mapped_pages = folio_total_mapped_pages(folio);
	c->entire_mapcount = folio_entire_mapcount(folio);
	c->nr_pages_mapped = large ? folio_nr_pages_mapped(folio) : folio_mapcount(folio);
	c->page_mapcount = large ? folio_precise_page_mapcount(folio, page) : folio_mapcount(folio);
	for (int i = 0; i < 2; i++) {
		c->mm_id[i] = large ? folio_mm_id(folio, i) : MM_ID_DUMMY;
		c->mm_id_mapcount[i] = large ? folio->_mm_id_mapcount[i] + 1 : 0;
	}
	c->shared = folio_maybe_mapped_shared(folio);
	if (large)
		folio_unlock_large_mapcount(folio);
}

/* mm_id_to_pid() with the task list walked under tasklist_lock. */
static int mm_id_pid(unsigned int mm_id)
{
	unsigned long flags;
	int pid;

	spin_lock_irqsave(&tasklist_lock, flags);
	pid = mm_id_to_pid(mm_id);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return pid;
}

/*
 * The view of a folio held (kpage_folio_get()): counts as logical values,
 * "[pid N]" naming the task of an MM ID.
 */
static void folio_show_held(struct seq_file *m, struct folio *folio, struct page *page, long pfn)
{
	bool large = folio_test_large(folio);
	struct folio_counts c;
	char flags[128];

	folio_read_counts(folio, page, &c);
	page_flag_names(folio->flags | (page->flags & BIT(PG_anon_exclusive)), flags, sizeof(flags));
	seq_printf(m, "pfn: %ld\nhead_pfn: %lu\norder: %u\nrefcount: %d\nlarge_mapcount: %d\n",
		   pfn, folio_pfn(folio), folio_order(folio), folio_ref_count(folio) - 1,
		   c.large_mapcount);
	if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		seq_printf(m, "entire_mapcount: %d\n", c.entire_mapcount);
	seq_printf(m, "total_mapped_pages: %lu\n", c.total_mapped_pages);
	if (large)
		seq_printf(m, "pincount: %d\n", atomic_read(&folio->_pincount));
	seq_printf(m, "maybe_dma_pinned: %d\n", folio_maybe_dma_pinned(folio));
	folio_show_mapping(m, folio, page);
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		seq_printf(m, "nr_pages_mapped: %d\npage_mapcount: %d\n", c.nr_pages_mapped,
			   c.page_mapcount);
	for (int i = 0; i < 2; i++)
		seq_printf(m, "mm_id%d: %u [pid %d]\nmm_id%d_mapcount: %d\n", i, c.mm_id[i],
			   c.mm_id[i] ? mm_id_pid(c.mm_id[i]) : 0, i, c.mm_id_mapcount[i]);
	seq_printf(m, "maybe_mapped_shared: %d\nanon_exclusive: %d\npartially_mapped: %d\n"
		   "flags: %s\n", c.shared, PageAnonExclusive(page),
		   folio_order(folio) > 1 && folio_test_partially_mapped(folio), flags);
}

/* The view of a page no folio holds now (free, a kernel page): itself, all counts 0. */
static void folio_show_bare(struct seq_file *m, struct page *page, long pfn)
{
	char flags[128];

	page_flag_names(page->flags, flags, sizeof(flags));
	seq_printf(m, "pfn: %ld\nhead_pfn: %ld\norder: 0\nrefcount: %d\nlarge_mapcount: 0\n",
		   pfn, pfn, page_ref_count(page));
	if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		seq_printf(m, "entire_mapcount: 0\n");
	seq_printf(m, "total_mapped_pages: 0\nmaybe_dma_pinned: 0\nmapping: none\ninode: 0\n"
		   "index: 0\n");
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		seq_printf(m, "nr_pages_mapped: 0\npage_mapcount: 0\n");
	for (int i = 0; i < 2; i++)
		seq_printf(m, "mm_id%d: 0 [pid 0]\nmm_id%d_mapcount: 0\n", i, i);
	seq_printf(m, "maybe_mapped_shared: 0\nanon_exclusive: 0\npartially_mapped: 0\n"
		   "flags: %s\n", flags);
}

/*
 * /proc/folio/<pfn>: the folio holding the PFN, its fields read together
 * under a reference (refcount shows the others' references), or the bare
 * page.  A zero page (never in any rmap: all counts 0) gets a last line
 * "zero_page: 4K" or "zero_page: huge".
 */
static int folio_show(struct seq_file *m, void *v)
{
	long pfn = PROC_I(m->private)->arg;
	struct page *page = pfn_to_page(pfn);
	struct folio *folio = kpage_folio_get(page);

	if (folio) {
		folio_show_held(m, folio, page, pfn);
		folio_put(folio);
	} else {
		folio_show_bare(m, page, pfn);
	}
	if (is_zero_pfn(pfn) || is_huge_zero_pfn(pfn))
		seq_printf(m, "zero_page: %s\n", is_zero_pfn(pfn) ? "4K" : "huge");
	return 0;
}

static const struct proc_dir_entry proc_folio = { "folio", folio_show };

/* /proc/folio/<pfn>: any PFN of RAM that the buddy manages; NULL if path is none. */
struct inode *proc_folio_lookup(const char *path)
{
	const char *end;
	unsigned long pfn;

	if (strncmp(path, "proc/folio/", 11))
		return NULL;
	pfn = simple_strtoul(path + 11, &end, 10);
	if (end == path + 11 || *end || pfn >= max_pfn ||
	    (PageReserved(pfn_to_page(pfn)) && !is_zero_pfn(pfn)))
		return NULL;
	return proc_get_inode(&proc_folio, pfn);
}
