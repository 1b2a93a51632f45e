/*
 * Inodes (Linux's fs/inode.c): allocated by a file system, referenced by
 * lookups and open files, destroyed by its super block at the last iput().
 * The initrd and the console keep a reference of their own, so theirs live
 * for ever; pipes and /proc files go with their last user.
 */
#include "linux/fs.h"
#include "linux/pagemap.h"
#include "linux/mm.h"

/*
 * The inodes put on it by inode_sb_list_add, until their last iput: what
 * drop_caches walks (Linux keeps one such list per super block,
 * sb->s_inodes, and walks every super block).  Inodes a file system
 * fills in itself (/proc's, the console's) are on no list.
 */
LIST_HEAD(inode_sb_list);
spinlock_t inode_sb_list_lock = SPINLOCK_INIT("inode_sb_list_lock");

void inode_sb_list_add(struct inode *inode)
{
	spin_lock(&inode_sb_list_lock);
	list_add_tail(&inode->i_sb_list, &inode_sb_list);
	spin_unlock(&inode_sb_list_lock);
}

/*
 * Set up a zeroed inode of sb with one reference and one link (Linux's
 * inode_init_always).  Its i_data is an empty page cache; i_mapping stays
 * NULL unless the file system gives the inode a page cache.
 */
void inode_init_always(struct super_block *sb, struct inode *inode)
{
	atomic_set(&inode->i_count, 1);
	inode->i_nlink = 1;
	inode->i_sb = sb;
	address_space_init_once(&inode->i_data, inode);
	init_rwsem(&inode->i_rwsem, "inode->i_rwsem");
}

/* A new inode of sb with one reference (sb's destroy_inode frees it); NULL if out of memory. */
struct inode *new_inode(struct super_block *sb)
{
	struct inode *inode = kzalloc(sizeof(*inode));

	if (inode) {
		inode_init_always(sb, inode);
		inode_sb_list_add(inode);
	}
	return inode;
}

void ihold(struct inode *inode)
{
	atomic_inc(&inode->i_count);
}

/* A new reference to inode, or NULL if its last one is gone (Linux's igrab): it is being freed. */
struct inode *igrab(struct inode *inode)
{
	return atomic_add_unless(&inode->i_count, 1, 0) ? inode : NULL;
}

/*
 * Drop a reference; the last one takes the inode off inode_sb_list, frees
 * its page cache and destroys it.  Processes on other CPUs open and close
 * pipes at once: the count is atomic, the list under its lock.
 */
void iput(struct inode *inode)
{
	if (!atomic_dec_and_test(&inode->i_count))
		return;
	if (inode->i_sb_list.next) {
		spin_lock(&inode_sb_list_lock);
		list_del(&inode->i_sb_list);
		spin_unlock(&inode_sb_list_lock);
	}
	if (inode->i_mapping)
		truncate_inode_pages_final(inode->i_mapping);
	locks_free_lock_context(inode);
	if (inode->i_sb && inode->i_sb->s_op && inode->i_sb->s_op->destroy_inode)
		inode->i_sb->s_op->destroy_inode(inode);
	else
		kfree(inode);
}

/* A fresh inode number for a file without one of its own (a pipe). */
unsigned long get_next_ino(void)
{
	static unsigned long last_ino = 1;

	return __atomic_add_fetch(&last_ino, 1, __ATOMIC_RELAXED);  /* pipes on other CPUs too */
}
