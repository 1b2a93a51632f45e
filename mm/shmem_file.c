/*
 * A shmem file's file operations (Linux's, in mm/shmem.c): write(2) page
 * by page into the page cache, read(2) through it (mm/filemap.c, which
 * swaps a page in from swap), lseek's SEEK_DATA/SEEK_HOLE, fallocate
 * (reserving and punching holes) and the size change of truncate(2),
 * with memfd's seals checked on each.  The data itself — finding,
 * allocating and truncating folios — is mm/shmem.c's.
 *
 * Locking: inode_lock around writes, truncation, fallocate and lseek's
 * hole search (i_size changes only under it, so O_APPEND writes never
 * overlap and a write never races a truncation); reads take none.  The
 * rest is mm/shmem.c's.
 */
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "linux/shmem_fs.h"
#include "linux/uaccess.h"
#include "uapi/linux/falloc.h"
#include "uapi/linux/fs.h"
#include "linux/mm.h"

/* Seals forbid this size change?  -EPERM or 0. */
static int shmem_check_size_seals(struct inode *inode, loff_t newsize)
{
	unsigned int seals = SHMEM_I(inode)->seals;

	if ((seals & F_SEAL_SHRINK) && newsize < inode->i_size)
		return -EPERM;
	if ((seals & F_SEAL_GROW) && newsize > inode->i_size)
		return -EPERM;
	return 0;
}

/*
 * Change a file's size (ATTR_SIZE; the caller holds inode_lock):
 * shrinking unmaps the cut part from every mapping and frees its folios,
 * then unmaps again for the private copies a racing write fault made
 * meanwhile (as Linux's).  0, -EPERM (sealed) or -EFBIG.
 */
static int shmem_setsize(struct inode *inode, loff_t newsize)
{
	loff_t oldsize = inode->i_size, holebegin;
	int err;

	if (newsize > inode->i_sb->s_maxbytes)
		return -EFBIG;
	err = shmem_check_size_seals(inode, newsize);
	if (err)
		return err;
	i_size_write(inode, newsize);
	if (newsize >= oldsize)
		return 0;
	holebegin = ALIGN_UP(newsize, (loff_t)PAGE_SIZE);
	if (oldsize > holebegin)
		unmap_mapping_range(inode->i_mapping, holebegin, 0, 1);
	shmem_truncate_range(inode, newsize, -1);
	if (oldsize > holebegin)
		unmap_mapping_range(inode->i_mapping, holebegin, 0, 1);
	return 0;
}

/*
 * A file's change of attributes (Linux's shmem_setattr, from
 * notify_change under inode_lock): the size, then mode, owner and times.
 */
static int shmem_setattr(struct inode *inode, struct iattr *attr)
{
	int err = 0;

	inode_assert_locked(inode);
	if (attr->ia_valid & ATTR_SIZE)
		err = shmem_setsize(inode, attr->ia_size);
	if (!err)
		setattr_copy(inode, attr);
	return err;
}

const struct inode_operations shmem_inode_operations = {
	.setattr = shmem_setattr,
};

/* May a write of the page-sized chunk [pos, pos + len) go ahead?  Linux's shmem_write_begin seal checks. */
static int shmem_write_seals(struct inode *inode, loff_t pos, size_t len)
{
	unsigned int seals = SHMEM_I(inode)->seals;

	if (seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE))
		return -EPERM;
	if ((seals & F_SEAL_GROW) && pos + (loff_t)len > inode->i_size)
		return -EPERM;
	return 0;
}

/*
 * Copy one chunk, inside one page, from the user into the cache.  Bytes
 * copied (fewer than n if ubuf faults part way, as Linux's
 * generic_perform_write) or -errno.
 */
static long shmem_write_chunk(struct inode *inode, const char *ubuf, size_t n, loff_t pos,
			      loff_t write_end)
{
	pgoff_t index = pos >> PAGE_SHIFT;
	struct folio *folio;
	int err = shmem_write_seals(inode, pos, n);
	unsigned long left;

	if (!err)
		err = shmem_get_folio(inode, index, write_end, &folio, SGP_WRITE);
	if (err)
		return err;
	left = copy_from_user((char *)page_address(folio_file_page(folio, index)) +
			      (pos & ~PAGE_MASK), ubuf, n);
	folio_mark_dirty(folio);
	folio_put(folio);
	if (left == n)
		return -EFAULT;
	n -= left;
	if (pos + (loff_t)n > inode->i_size)
		i_size_write(inode, pos + n);
	return n;
}

/* shmem_file_write's body, inode_lock held. */
static long shmem_file_write_locked(struct file *file, const char *ubuf, size_t count,
				    loff_t *pos)
{
	struct inode *inode = file_inode(file);
	size_t done = 0;

	if (file->f_flags & O_APPEND)
		*pos = inode->i_size;
	if (*pos >= inode->i_sb->s_maxbytes && count)
		return -EFBIG;
	count = MIN(count, (size_t)(inode->i_sb->s_maxbytes - *pos));
	while (done < count) {
		size_t n = MIN(PAGE_SIZE - (*pos & ~PAGE_MASK), count - done);
		long ret = shmem_write_chunk(inode, ubuf + done, n, *pos, *pos + (count - done));

		if (ret < 0)
			return done ? (long)done : ret;
		done += ret;
		*pos += ret;
		if ((size_t)ret < n)
			break;
	}
	return done;
}

/*
 * write(2) (Linux's shmem_file_write_iter, under inode_lock): page by
 * page into the cache, the file growing as it goes; O_APPEND writes at
 * the end, which stays put until the write is done.  Bytes written (short
 * at the first error after some), or -EPERM (sealed), -EFBIG, -ENOSPC,
 * -EFAULT.  The copy from the user may fault, even on this file's own
 * pages: only inode_lock (a sleeping lock above the mmap_lock, which a
 * fault takes) and a folio reference are held across it.
 */
static long shmem_file_write(struct file *file, const char *ubuf, size_t count, loff_t *pos)
{
	struct inode *inode = file_inode(file);
	long ret;

	inode_lock(inode);
	ret = shmem_file_write_locked(file, ubuf, count, pos);
	if (ret > 0)
		inode_touch_mtime(inode);       /* Linux's file_update_time */
	inode_unlock(inode);
	return ret;
}

/* read(2): the page cache's (filemap_read), then atime (file_accessed). */
static long shmem_file_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	long ret = filemap_read(file, ubuf, count, pos);

	file_accessed(file);
	return ret;
}

/*
 * Where the next data (a PG_uptodate folio, or a page in swap) or hole at
 * or after offset is (Linux's mapping_seek_hole_data for shmem); -ENXIO
 * at or past EOF or when no data follows.
 */
static loff_t shmem_seek_hole_data(struct inode *inode, loff_t offset, int whence)
{
	pgoff_t index = offset >> PAGE_SHIFT, end = (inode->i_size - 1) >> PAGE_SHIFT;

	if (offset < 0 || offset >= inode->i_size)
		return -ENXIO;
	while (index <= end) {
		void *entry = filemap_get_entry(inode->i_mapping, index);
		struct folio *folio = xa_is_value(entry) ? NULL : entry;
		bool data = xa_is_value(entry) || (folio && folio_test_uptodate(folio));
		pgoff_t next = folio ? folio->index + folio_nr_pages(folio) : index + 1;

		if (folio)
			folio_put(folio);
		if (data == (whence == SEEK_DATA))
			return MAX(offset, (loff_t)index << PAGE_SHIFT);
		index = next;
	}
	return whence == SEEK_DATA ? -ENXIO : inode->i_size;
}

/*
 * lseek: SEEK_DATA and SEEK_HOLE see the holes, under inode_lock (as
 * Linux's: no truncation or fallocate moves them meanwhile); the rest as
 * generic_file_llseek.
 */
static loff_t shmem_file_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file_inode(file);
	loff_t pos;

	if (whence != SEEK_DATA && whence != SEEK_HOLE)
		return generic_file_llseek(file, offset, whence);
	inode_lock(inode);
	pos = shmem_seek_hole_data(inode, offset, whence);
	if (pos >= 0)
		pos = vfs_setpos(file, pos, MAX_LFS_FILESIZE);
	inode_unlock(inode);
	return pos;
}

/* Reserve [offset, end) (Linux's shmem_fallocate without PUNCH_HOLE).  0 or -errno. */
static long shmem_reserve_range(struct inode *inode, loff_t offset, loff_t end)
{
	for (pgoff_t index = offset >> PAGE_SHIFT; index <= (pgoff_t)((end - 1) >> PAGE_SHIFT);) {
		struct folio *folio;
		int err = shmem_get_folio(inode, index, end, &folio, SGP_FALLOC);

		if (err)
			return err;
		index = folio->index + folio_nr_pages(folio);
		folio_put(folio);
	}
	return 0;
}

/*
 * fallocate (Linux's shmem_fallocate, under inode_lock): mode 0 or
 * FALLOC_FL_KEEP_SIZE reserves the range (the file grows unless
 * KEEP_SIZE), PUNCH_HOLE|KEEP_SIZE frees it.  0, or -EOPNOTSUPP (another
 * mode), -EPERM (sealed), -ENOSPC, -ENOMEM, -EFBIG.  A reservation that
 * fails part way keeps what it got.
 */
static long shmem_fallocate(struct file *file, int mode, loff_t offset, loff_t len)
{
	struct inode *inode = file_inode(file);
	loff_t end = offset + len;
	unsigned int seals;
	long err = 0;

	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;
	inode_lock(inode);
	seals = SHMEM_I(inode)->seals;         /* F_ADD_SEALS holds inode_lock too */
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		loff_t unmap_start = ALIGN_UP(offset, (loff_t)PAGE_SIZE);
		loff_t unmap_end = ALIGN_DOWN(end, (loff_t)PAGE_SIZE);

		if (seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) {
			err = -EPERM;
			goto out;
		}
		if (unmap_end > unmap_start)
			unmap_mapping_range(inode->i_mapping, unmap_start, unmap_end - unmap_start, 0);
		shmem_truncate_range(inode, offset, end - 1);
		goto out;
	}
	if ((seals & F_SEAL_GROW) && end > inode->i_size) {
		err = -EPERM;
		goto out;
	}
	err = shmem_reserve_range(inode, offset, end);
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > inode->i_size && !err)
		i_size_write(inode, end);
out:
	inode_unlock(inode);
	return err;
}

const struct file_operations shmem_file_operations = {
	.llseek = shmem_file_llseek,
	.read = shmem_file_read,
	.write = shmem_file_write,
	.mmap = shmem_mmap,
	.fallocate = shmem_fallocate,
	.fsync = noop_fsync,
};
