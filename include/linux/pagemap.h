/*
 * The page cache (Linux's include/linux/pagemap.h and mm/filemap.c,
 * mm/truncate.c): each inode's struct address_space holds the folios of
 * its data, indexed by page offset in the file.
 *
 *   inode->i_mapping --> address_space
 *                          i_pages: xarray  pgoff -> folio (a large folio
 *                                   in each of its slots; folio->index is
 *                                   its first pgoff, naturally aligned)
 *                          i_mmap:  the VMAs mapping the file
 *                                   (vma->shared links them)
 *
 * A folio in the page cache has folio->mapping = the address_space (bit 0
 * clear: not anon), folio->index its first page offset, and holds one
 * reference per page for the cache (Linux's rule: a 2 MiB folio in the
 * cache has refcount >= 512).  Each PTE or PMD mapping it holds one more
 * reference, as for anon folios.  Lookups return a new reference.
 *
 * Locking: the tree under i_pages.xa_lock; the folio lock (PG_locked) is
 * held to insert, fill, remove, truncate or split a page-cache folio and
 * by a fault until the folio is mapped; i_size under inode_lock
 * (mm/filemap.c says which does what).  Lock order: see mm/rmap.c.
 */
#ifndef _LINUX_PAGEMAP_H
#define _LINUX_PAGEMAP_H

#include "linux/fs.h"
#include "linux/mm_types.h"
#include "linux/page-flags.h"

struct folio;
struct vm_area_struct;
struct vm_fault;

/* address_space->flags */
#define AS_LARGE_FOLIO_SUPPORT  0       /* large folios may be added */
#define AS_UNEVICTABLE          1       /* reclaim never takes its pages (ramfs-like: the initrd) */

static inline void mapping_set_unevictable(struct address_space *mapping)
{
	set_bit(AS_UNEVICTABLE, &mapping->flags);
}

static inline bool mapping_unevictable(const struct address_space *mapping)
{
	return test_bit(AS_UNEVICTABLE, &mapping->flags);
}

void address_space_init_once(struct address_space *mapping, struct inode *host);

/* The page of folio that holds file page index (Linux's folio_file_page). */
static inline struct page *folio_file_page(struct folio *folio, pgoff_t index)
{
	return folio_page(folio, index - folio->index);
}

/* mm/filemap.c */
void *filemap_get_entry(struct address_space *mapping, pgoff_t index);
struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index);
void *filemap_get_next_entry(struct address_space *mapping, pgoff_t *index, pgoff_t max);
struct folio *filemap_get_next_folio(struct address_space *mapping, pgoff_t *index, pgoff_t max);
bool filemap_range_has_folio(struct address_space *mapping, pgoff_t first, pgoff_t last);
int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index);
int __filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index,
			void *expected);
void filemap_remove_folio(struct folio *folio);
bool filemap_remove_folio_frozen(struct folio *folio, void *shadow, int refs);
void folio_mark_dirty(struct folio *folio);
long filemap_read(struct file *file, char *ubuf, size_t count, loff_t *pos);
long kernel_read(struct file *file, void *buf, size_t count, loff_t *pos);
int generic_file_mmap(struct file *file, struct vm_area_struct *vma);
void vma_interval_tree_insert(struct vm_area_struct *vma, struct address_space *mapping);
void vma_interval_tree_remove(struct vm_area_struct *vma, struct address_space *mapping);

vm_fault_t filemap_fault(struct vm_fault *vmf);
extern const struct vm_operations_struct generic_file_vm_ops;

/* mm/truncate.c */
void unmap_mapping_pages(struct address_space *mapping, pgoff_t first, pgoff_t nr, bool even_cows);
void unmap_mapping_range(struct address_space *mapping, loff_t holebegin, loff_t holelen,
			 int even_cows);
void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend);
void truncate_inode_pages_final(struct address_space *mapping);
void truncate_pagecache(struct inode *inode, loff_t newsize);
void truncate_pagecache_range(struct inode *inode, loff_t lstart, loff_t lend);
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start,
				       pgoff_t end);
int split_file_folio_to_order(struct folio *folio, unsigned int new_order);
bool truncate_folio(struct folio *folio, loff_t lstart, loff_t lend);

#endif
