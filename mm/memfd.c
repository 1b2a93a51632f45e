/*
 * memfd_create and file seals (Linux's mm/memfd.c).  A memfd is an
 * unlinked shmem file on the internal mount named "memfd:NAME"
 * (/proc/<pid>/fd shows "/memfd:NAME (deleted)").  Every shmem inode is
 * born with F_SEAL_SEAL (no seals may be added); MFD_ALLOW_SEALING clears
 * it, and then fcntl(F_ADD_SEALS) may add:
 *
 *   F_SEAL_SHRINK  no truncation below the size      (EPERM)
 *   F_SEAL_GROW    no growth: write, truncate, fallocate beyond it (EPERM)
 *   F_SEAL_WRITE   no write, no writable shared mapping; refused (EBUSY)
 *                  while one exists (mapping_deny_writable) or a page
 *                  is pinned
 *   F_SEAL_FUTURE_WRITE  like WRITE for new writes and mappings only
 *   F_SEAL_SEAL    no further seals
 *
 * Locking: the seals change under inode_lock, which writes, truncation
 * and fallocate hold while they test them (mm/shmem.c); mmap races with
 * F_SEAL_WRITE through i_mmap_writable's atomic handshake
 * (include/linux/fs.h), never by reading the seals alone.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/pagemap.h"
#include "linux/shmem_fs.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "uapi/linux/memfd.h"
#include "linux/mm.h"
#include "linux/rmap.h"

#define F_SEAL_EXEC     0x0020          /* Linux 6.3+: the mode's x bits are fixed */
#define F_ALL_SEALS     (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | \
			 F_SEAL_FUTURE_WRITE | F_SEAL_EXEC)
#define MFD_ALL_FLAGS   (MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB | MFD_NOEXEC_SEAL | MFD_EXEC)
#define MFD_HUGE_SHIFT  26              /* MFD_HUGETLB's page-size field */
#define MFD_HUGE_MASK   0x3fU

/* The seals of a shmem file, or NULL for any other file (Linux's memfd_file_seals_ptr). */
static unsigned int *memfd_file_seals_ptr(struct file *file)
{
	if (!shmem_mapping(file->f_mapping))
		return NULL;
	return &SHMEM_I(file_inode(file))->seals;
}

/*
 * -EBUSY if a page of mapping is pinned (Linux waits a while first:
 * memfd_wait_for_pins).  The walk holds xa_lock: the folios it looks at
 * stay cached meanwhile.
 */
static int memfd_check_pins(struct address_space *mapping)
{
	struct folio *folio;
	unsigned long index;
	int err = 0;

	xa_lock(&mapping->i_pages);
	xa_for_each_range(&mapping->i_pages, index, folio, 0, ~0UL) {
		if (xa_is_value(folio))
			continue;               /* a page in swap: nobody can pin it there */
		if (folio_maybe_dma_pinned(folio)) {
			err = -EBUSY;
			break;
		}
		index = folio->index + folio_nr_pages(folio) - 1;
	}
	xa_unlock(&mapping->i_pages);
	return err;
}

/*
 * F_ADD_SEALS (Linux's memfd_add_seals), under inode_lock: 0, -EPERM,
 * -EINVAL or -EBUSY.  F_SEAL_WRITE first denies new writable mappings
 * (-EBUSY while one exists), then checks the pins; a pin undoes the denial.
 */
static long memfd_add_seals(struct file *file, unsigned int seals)
{
	unsigned int *file_seals;
	struct inode *inode = file_inode(file);
	long err = 0;

	if (!(file->f_mode & FMODE_WRITE))
		return -EPERM;
	if (seals & ~F_ALL_SEALS)
		return -EINVAL;
	file_seals = memfd_file_seals_ptr(file);
	if (!file_seals)
		return -EINVAL;
	inode_lock(inode);
	if (*file_seals & F_SEAL_SEAL) {
		err = -EPERM;
		goto unlock;
	}
	if ((seals & F_SEAL_WRITE) && !(*file_seals & F_SEAL_WRITE)) {
		err = mapping_deny_writable(file->f_mapping);
		if (err)
			goto unlock;
		err = memfd_check_pins(file->f_mapping);
		if (err) {
			mapping_allow_writable(file->f_mapping);
			goto unlock;
		}
	}
	if ((seals & F_SEAL_EXEC) && (inode->i_mode & 0111))
		seals |= F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE;
	*file_seals |= seals;
unlock:
	inode_unlock(inode);
	return err;
}

/* fcntl's F_ADD_SEALS and F_GET_SEALS; -EINVAL for a file that is not shmem. */
long memfd_fcntl(struct file *file, unsigned int cmd, unsigned int arg)
{
	unsigned int *seals;

	if (cmd == F_ADD_SEALS)
		return memfd_add_seals(file, arg);
	seals = memfd_file_seals_ptr(file);
	return cmd == F_GET_SEALS && seals ? (long)*seals : -EINVAL;
}

/* memfd_create's flags check, in Linux's order: 0 or -EINVAL. */
static long memfd_check_flags(unsigned int flags)
{
	unsigned int allowed = MFD_ALL_FLAGS;

	if (flags & MFD_HUGETLB)
		allowed |= MFD_HUGE_MASK << MFD_HUGE_SHIFT;
	if (flags & ~allowed)
		return -EINVAL;
	if ((flags & MFD_EXEC) && (flags & MFD_NOEXEC_SEAL))
		return -EINVAL;
	return 0;
}

/* Copy the user's name in as "memfd:NAME": the name (kfree it), or NULL with *err set. */
static char *memfd_name(const char *uname, long *err)
{
	size_t prefix = strlen(MFD_NAME_PREFIX);
	char *name = kmalloc(prefix + MFD_NAME_MAX_LEN + 1);
	long len;

	*err = -ENOMEM;
	if (!name)
		return NULL;
	memcpy(name, MFD_NAME_PREFIX, prefix);
	len = strncpy_from_user(name + prefix, uname, MFD_NAME_MAX_LEN + 1);
	*err = len == -ENAMETOOLONG ? -EINVAL : len < 0 ? len : 0;
	if (!*err)
		return name;
	kfree(name);
	return NULL;
}

/*
 * memfd_create(name, flags): a new memfd, open O_RDWR.  The fd, or
 * -EINVAL (flags, a name over 249 bytes), -EFAULT, -ENOSYS (MFD_HUGETLB:
 * foliOS has no hugetlbfs), -EMFILE, -ENOMEM.
 */
long sys_memfd_create(const char *uname, unsigned int flags)
{
	struct file *file;
	char *name;
	long err = memfd_check_flags(flags), fd;

	if (err)
		return err;
	name = memfd_name(uname, &err);
	if (!name)
		return err;
	file = flags & MFD_HUGETLB ? ERR_PTR(-ENOSYS) : shmem_file_setup(name, 0, 0);
	kfree(name);
	if (IS_ERR(file))
		return PTR_ERR(file);
	if (flags & MFD_NOEXEC_SEAL) {
		file_inode(file)->i_mode &= ~0111;
		SHMEM_I(file_inode(file))->seals = F_SEAL_EXEC;
	} else if (flags & MFD_ALLOW_SEALING) {
		SHMEM_I(file_inode(file))->seals &= ~F_SEAL_SEAL;
	}
	fd = fd_install(file, flags & MFD_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}
