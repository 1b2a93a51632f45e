/*
 * /proc/sys/vm/drop_caches (Linux's fs/drop_caches.c; the write is parsed
 * in fs/proc/proc_sysctl.c).  Bit 1 drops the page cache nobody uses,
 * bit 2 the slab caches, bit 4 silences the line each write logs.
 *
 * Only folios a file can read back are dropped (invalidate_mapping_pages):
 * the initrd's, clean and unmapped.  tmpfs and shmem folios are the data's
 * only copy and always stay, as in Linux.  foliOS's kmalloc keeps no
 * caches of free objects to shrink, so bit 2 has nothing to do.
 */
#include "linux/fs.h"
#include "linux/pagemap.h"
#include "linux/printk.h"
#include "linux/sched.h"

/*
 * Drop the unused page cache of every inode (Linux's drop_pagecache_sb,
 * for all super blocks): each inode is held while the list lock is
 * dropped for the invalidation (which may sleep), so its place in the
 * list stays valid; the previous one is put after.
 */
static void drop_pagecache(void)
{
	struct inode *inode, *toput = NULL;

	spin_lock(&inode_sb_list_lock);
	list_for_each_entry(inode, &inode_sb_list, i_sb_list) {
		if (!inode->i_mapping || !inode->i_mapping->nrpages ||
		    !atomic_add_unless(&inode->i_count, 1, 0))
			continue;
		spin_unlock(&inode_sb_list_lock);
		invalidate_mapping_pages(inode->i_mapping, 0, ~0UL);
		if (toput)
			iput(toput);
		toput = inode;
		spin_lock(&inode_sb_list_lock);
	}
	spin_unlock(&inode_sb_list_lock);
	if (toput)
		iput(toput);
}

/* Carry out a write of what (1 to 4) to drop_caches (Linux's drop_caches_sysctl_handler). */
void drop_caches(int what)
{
	static bool stfu;

	if (what & 1)
		drop_pagecache();
	if (!stfu)
		pr_info("%s (%d): drop_caches: %d\n", current->comm, current->pid, what);
	stfu |= what & 4;
}
