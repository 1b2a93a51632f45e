/*
 * What /sys/kernel/debug/split_huge_pages asks of mm (mm/huge_memory_debugfs.c;
 * fs/debugfs.c parses the text).
 */
#ifndef MM_HUGE_MEMORY_DEBUGFS_H
#define MM_HUGE_MEMORY_DEBUGFS_H

#include "linux/types.h"

struct mm_struct;
struct address_space;

void split_huge_pages_in_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			       unsigned int new_order);
void split_huge_pages_in_file(struct address_space *mapping, pgoff_t first, pgoff_t end,
			      unsigned int new_order);
void split_huge_pages_all(void);

#endif
