/*
 * Dumps of struct page and struct folio for bad-page reports and debugging.
 *
 * Lock order: see mm/rmap.c; none taken: the dumps read the fields without
 * the folio's mapcount bit lock, so one racing an rmap update may be torn.
 */
#include "linux/page-flags.h"
#include "linux/rmap.h"
#include "linux/printk.h"

/* "name|name" for the PG_ bits set in flags. */
void page_flag_names(unsigned long flags, char *buf, size_t size)
{
	int n = 0;

	buf[0] = '\0';
	for (int b = PAGEFLAGS_FIRST; b < NR_PAGEFLAGS; b++)
		if (flags & BIT(b))
			n += snprintf(buf + n, size - n, "%s%s", n ? "|" : "", pageflag_names[b]);
}

void dump_page(const struct page *page, const char *reason)
{
	char names[128];

	page_flag_names(page->flags, names, sizeof(names));
	pr_err("  pfn:%#lx refcount:%d mapcount:%d mapping:%p index:%#lx private:%#lx\n",
	       page_to_pfn(page), page_ref_count(page), atomic_read(&page->_mapcount) + 1,
	       page->mapping, page->index, page->private);
	pr_err("  flags: %#lx(%s)\n", page->flags, names);
	if (PageTail(page))
		pr_err("  tail of pfn %#lx\n", page_to_pfn(compound_head(page)));
	if (reason)
		pr_err("  page dumped because: %s\n", reason);
}

/*
 * Report a page whose state is wrong for what is being done with it (Linux's
 * bad_page()).  The page is leaked, not freed: its memory may still be in use.
 */
void bad_page(const struct page *page, const char *reason)
{
	pr_err("BUG: Bad page state: pfn %#lx: %s\n", page_to_pfn(page), reason);
	dump_page(page, reason);
	if (PageTail(page) || PageHead(page))
		dump_folio(page_folio(page), page);
	nr_bad_pages++;
}

/*
 * Every field of a folio, logical values (stored value + 1 for mapcounts),
 * and the state of one of its pages (page may be NULL for the head).
 */
void dump_folio(const struct folio *folio, const struct page *page)
{
	if (!page)
		page = &folio->page;
	pr_err("folio pfn:%#lx order:%u refcount:%d mapping:%p index:%#lx\n",
	       folio_pfn(folio), folio_order(folio), folio_ref_count(folio),
	       folio->mapping, folio->index);
	if (!folio_test_large(folio)) {
		pr_err("  mapcount:%d anon_exclusive:%d\n", atomic_read(&folio->_mapcount) + 1,
		       PageAnonExclusive(&folio->page));
		return;
	}
	pr_err("  large_mapcount:%d pmd_mappings:%d total_mapped_pages:%lu pincount:%d\n",
	       folio_large_mapcount(folio), folio_nr_pmd_mappings(folio),
	       folio_total_mapped_pages(folio), atomic_read(&folio->_pincount));
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		pr_err("  nr_pages_mapped:%#x page %lu mapcount:%d\n",
		       atomic_read(&folio->_nr_pages_mapped), (unsigned long)(page - &folio->page),
		       atomic_read(&page->_mapcount) + 1);
	pr_err("  mm_id0:%u mm_id0_mapcount:%d mm_id1:%u mm_id1_mapcount:%d\n",
	       folio_mm_id(folio, 0), folio->_mm_id_mapcount[0] + 1,
	       folio_mm_id(folio, 1), folio->_mm_id_mapcount[1] + 1);
	pr_err("  maybe_mapped_shared:%d mapcount_locked:%d partially_mapped:%d anon_exclusive:%d\n",
	       folio_test_large_maybe_mapped_shared(folio),
	       (int)test_bit(FOLIO_MM_IDS_LOCK_BITNUM, &folio->_mm_ids),
	       folio_test_partially_mapped(folio), PageAnonExclusive(page));
}
