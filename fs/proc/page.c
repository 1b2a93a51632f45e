/*
 * The page views of /proc: Linux's kpagecount and kpageflags (one 64-bit
 * record per PFN, at the file position / 8), and foliOS's own folio view
 * /proc/folio/<pfn> (a text file of the folio's counts).
 */
#include "fs/proc/internal.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "mm/mm.h"
#include "mm/rmap.h"
#include "mm/mm_id.h"
#include "mm/pgtable.h"
#include "mm/rmap_trace.h"

/* Does the page of this PFN belong to a folio (not free, a table, slab or reserved)? */
static bool pfn_is_folio(struct page *page)
{
	return !PageBuddy(compound_head(page)) && !PageReserved(page) && !PageTable(page) &&
	       !PageSlab(compound_head(page)) && page_ref_count(compound_head(page));
}

/* How often the page is mapped: precise, or the folio's average without PAGE_MAPCOUNT. */
static u64 kpagecount_record(struct inode *inode, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	struct folio *folio = page_folio(page);

	return pfn_is_folio(page) ? proc_page_mapcount(folio, page) : 0;
}

/* Linux's KPF_ bits (include/uapi/linux/kernel-page-flags.h) that foliOS has. */
#define KPF_LOCKED              0
#define KPF_UPTODATE            3
#define KPF_DIRTY               4
#define KPF_SLAB                7
#define KPF_BUDDY               10
#define KPF_MMAP                11
#define KPF_ANON                12
#define KPF_SWAPBACKED          14
#define KPF_COMPOUND_HEAD       15
#define KPF_COMPOUND_TAIL       16
#define KPF_NOPAGE              20
#define KPF_THP                 22
#define KPF_ZERO_PAGE           24
#define KPF_PGTABLE             26
#define KPF_RESERVED            32

/*
 * The folio flags of a page (today's Linux stable_page_flags() reads them
 * from the folio, so a tail page shows its folio's): anon memory is
 * always uptodate, swap-backed and dirty (nothing to be clean against); a
 * page-cache folio shows its own flags, shmem's swapbacked too.
 */
static u64 kpageflags_folio(const struct folio *folio)
{
	u64 k = 0;

	if (folio_test_anon(folio))
		return BIT(KPF_ANON) | BIT(KPF_SWAPBACKED) | BIT(KPF_DIRTY) | BIT(KPF_UPTODATE);
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

/* Linux's stable_page_flags() for one PFN. */
static u64 kpageflags_record(struct inode *inode, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	struct folio *folio = page_folio(page);
	u64 k = 0;

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
	if (!page_ref_count(compound_head(page)))
		return BIT(KPF_NOPAGE);         /* inside a free buddy block */
	if (folio_test_large(folio))
		k |= BIT(PageHead(page) ? KPF_COMPOUND_HEAD : KPF_COMPOUND_TAIL);
	if (is_huge_zero_pfn(pfn))
		return k | BIT(KPF_THP) | BIT(KPF_ZERO_PAGE);
	/* a large anon or page-cache folio is a THP of any size, as Linux's */
	if (folio_test_large(folio) && (folio_test_anon(folio) || folio->mapping))
		k |= BIT(KPF_THP);
	k |= kpageflags_folio(folio);
	if (folio_mapped(folio))
		k |= BIT(KPF_MMAP);
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
 * page-cache folio the inode number of its file ("inode", 0 if none), and
 * the page's index: its page offset in the file, or for anon memory its
 * linear page index, the rmap's key.  The anon_vma's and address_space's
 * addresses stay in the kernel.
 */
static void folio_show_mapping(struct seq_file *m, const struct folio *folio,
			       const struct page *page)
{
	enum folio_kind kind = folio_kind(folio);
	const struct address_space *mapping = folio->mapping;
	bool cached = kind == FOLIO_KIND_FILE || kind == FOLIO_KIND_SHMEM;

	seq_printf(m, "mapping: %s\ninode: %lu\nindex: %lu\n", folio_kind_name(kind),
		   cached && mapping->host ? mapping->host->i_ino : 0UL,
		   folio->index + (unsigned long)(page - &folio->page));
}

/*
 * The counts are logical values; "[pid N]" names the task of an MM ID.  A
 * zero page (never in any rmap: all counts 0) gets a last line
 * "zero_page: 4K" or "zero_page: huge".
 */
static int folio_show(struct seq_file *m, void *v)
{
	long pfn = PROC_I(m->private)->arg;
	struct page *page = pfn_to_page(pfn);
	struct folio *folio = page_folio(page);
	bool large = folio_test_large(folio);
	char flags[128];

	page_flag_names(folio->flags | (page->flags & BIT(PG_anon_exclusive)), flags, sizeof(flags));
	seq_printf(m, "pfn: %ld\nhead_pfn: %lu\norder: %u\nrefcount: %d\nlarge_mapcount: %d\n"
		   "entire_mapcount: %d\n", pfn, folio_pfn(folio), folio_order(folio),
		   folio_ref_count(folio), folio_mapcount(folio),
		   large ? folio_entire_mapcount(folio) : 0);
	if (large)
		seq_printf(m, "pincount: %d\n", atomic_read(&folio->_pincount));
	seq_printf(m, "maybe_dma_pinned: %d\n", folio_maybe_dma_pinned(folio));
	folio_show_mapping(m, folio, page);
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		seq_printf(m, "nr_pages_mapped: %d\npage_mapcount: %d\n",
			   large ? folio_nr_pages_mapped(folio) : folio_mapcount(folio),
			   large ? folio_precise_page_mapcount(folio, page) : folio_mapcount(folio));
	for (int i = 0; i < 2; i++) {
		unsigned int id = large ? folio_mm_id(folio, i) : MM_ID_DUMMY;

		seq_printf(m, "mm_id%d: %u [pid %d]\nmm_id%d_mapcount: %d\n", i, id,
			   id ? mm_id_to_pid(id) : 0, i, large ? folio->_mm_id_mapcount[i] + 1 : 0);
	}
	seq_printf(m, "maybe_mapped_shared: %d\nanon_exclusive: %d\npartially_mapped: %d\n"
		   "flags: %s\n", folio_maybe_mapped_shared(folio), PageAnonExclusive(page),
		   folio_order(folio) > 1 && folio_test_partially_mapped(folio), flags);
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
