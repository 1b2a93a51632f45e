/*
 * /proc/<pid>/maps' PROCMAP_QUERY ioctl (Linux 6.11's do_procmap_query in
 * fs/proc/task_mmu.c): one VMA of the file's bound mm, found by address
 * and permissions, described in binary with the name maps prints.
 *
 * Locks: the lookup holds the mm as fs/proc/task_walk.c says.
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/namei.h"
#include "linux/slab.h"
#include "linux/err.h"
#include "linux/mm.h"
#include "uapi/linux/fs.h"

#define PROCMAP_QUERY_VALID_FLAGS_MASK  (PROCMAP_QUERY_VMA_READABLE | PROCMAP_QUERY_VMA_WRITABLE | \
	PROCMAP_QUERY_VMA_EXECUTABLE | PROCMAP_QUERY_VMA_SHARED | \
	PROCMAP_QUERY_COVERING_OR_NEXT_VMA | PROCMAP_QUERY_FILE_BACKED_VMA)

/* The query flags' permission bits as vm_flags bits. */
static unsigned long procmap_vm_flags(u64 flags)
{
	return (flags & PROCMAP_QUERY_VMA_READABLE ? VM_READ : 0) |
	       (flags & PROCMAP_QUERY_VMA_WRITABLE ? VM_WRITE : 0) |
	       (flags & PROCMAP_QUERY_VMA_EXECUTABLE ? VM_EXEC : 0) |
	       (flags & PROCMAP_QUERY_VMA_SHARED ? VM_MAYSHARE : 0);
}

/*
 * Linux's query_matching_vma: the VMA covering addr that has every
 * permission asked for (and a file if asked); with COVERING_OR_NEXT_VMA
 * the first such VMA ending above addr.  ERR_PTR(-ENOENT) if none.
 */
static struct vm_area_struct *query_matching_vma(struct mm_struct *mm, unsigned long addr,
						 u64 flags)
{
	unsigned long want = procmap_vm_flags(flags);
	struct vm_area_struct *vma;

	while ((vma = find_vma(mm, addr))) {
		bool match = (vma->vm_flags & want) == want &&
			     (vma->vm_file || !(flags & PROCMAP_QUERY_FILE_BACKED_VMA));

		if (match && ((flags & PROCMAP_QUERY_COVERING_OR_NEXT_VMA) || vma->vm_start <= addr))
			return vma;
		if (!(flags & PROCMAP_QUERY_COVERING_OR_NEXT_VMA))
			break;
		addr = vma->vm_end;
	}
	return ERR_PTR(-ENOENT);
}

/*
 * Linux's copy_struct_from_user: usize bytes at uarg into karg, zero
 * filled past them; bytes past karg's size must be zero (-E2BIG if not).
 */
static int procmap_copy_in(struct procmap_query *karg, const char *uarg, u64 usize)
{
	char tail[64];

	memset(karg, 0, sizeof(*karg));
	if (copy_from_user(karg, uarg, usize < sizeof(*karg) ? usize : sizeof(*karg)))
		return -EFAULT;
	for (u64 off = sizeof(*karg); off < usize; off += sizeof(tail)) {
		u64 n = usize - off < sizeof(tail) ? usize - off : sizeof(tail);

		if (copy_from_user(tail, uarg + off, n))
			return -EFAULT;
		for (u64 i = 0; i < n; i++)
			if (tail[i])
				return -E2BIG;
	}
	return 0;
}

/* The range, permissions, page size and file fields of karg for vma. */
static void procmap_fill(struct procmap_query *karg, struct vm_area_struct *vma)
{
	unsigned long f = vma->vm_flags;
	unsigned long dev = vma->vm_file ? inode_dev(file_inode(vma->vm_file)) : 0;

	karg->vma_start = vma->vm_start;
	karg->vma_end = vma->vm_end;
	karg->vma_flags = (f & VM_READ ? PROCMAP_QUERY_VMA_READABLE : 0) |
			  (f & VM_WRITE ? PROCMAP_QUERY_VMA_WRITABLE : 0) |
			  (f & VM_EXEC ? PROCMAP_QUERY_VMA_EXECUTABLE : 0) |
			  (f & VM_MAYSHARE ? PROCMAP_QUERY_VMA_SHARED : 0);
	karg->vma_page_size = PAGE_SIZE;
	karg->vma_offset = vma->vm_file ? (u64)vma->vm_pgoff << PAGE_SHIFT : 0;
	karg->inode = vma->vm_file ? file_inode(vma->vm_file)->i_ino : 0;
	karg->dev_major = dev >> 8;
	karg->dev_minor = dev & 0xff;
	karg->build_id_size = 0;
}

/*
 * The maps name of the VMA karg describes (name, found under the
 * mmap_lock: in buf or a constant) with its NUL to the user's
 * vma_name_addr, its length in vma_name_size (0, nothing copied, for a
 * nameless VMA); -ENAMETOOLONG if it does not fit in min(vma_name_size,
 * PATH_MAX) bytes, -EFAULT.  Called with the mmap_lock dropped, as Linux.
 */
static int procmap_copy_name(struct procmap_query *karg, const char *name)
{
	size_t size = *name ? strlen(name) + 1 : 0;
	size_t room = karg->vma_name_size < PATH_MAX ? karg->vma_name_size : PATH_MAX;

	karg->vma_name_size = size;
	if (size > room)
		return -ENAMETOOLONG;
	if (size && copy_to_user((void *)(unsigned long)karg->vma_name_addr, name, size))
		return -EFAULT;
	return 0;
}

/*
 * The query's user struct at uarg into karg, checked (Linux's checks in
 * do_procmap_query's order): 0; -EINVAL for a bad size, unknown flags or
 * an address without its size; -E2BIG; -EFAULT.
 */
static int procmap_query_in(struct procmap_query *karg, const char *uarg, u64 *usize)
{
	int err;

	if (copy_from_user(usize, uarg, sizeof(*usize)))
		return -EFAULT;
	if (*usize > PAGE_SIZE)
		return -E2BIG;
	if (*usize < offsetof(struct procmap_query, query_addr) + sizeof(karg->query_addr))
		return -EINVAL;
	err = procmap_copy_in(karg, uarg, *usize);
	if (err)
		return err;
	if ((karg->query_flags & ~(u64)PROCMAP_QUERY_VALID_FLAGS_MASK) ||
	    !karg->vma_name_size != !karg->vma_name_addr ||
	    !karg->build_id_size != !karg->build_id_addr)
		return -EINVAL;
	return 0;
}

/*
 * PROCMAP_QUERY on a maps file whose inode holds an mm (Linux's
 * do_procmap_query): the struct at uarg in, the VMA's description out.
 * The VMA is looked up and described under the mmap_lock into kernel
 * memory, copied out after it is dropped.  0; what procmap_query_in()
 * gives; -ESRCH once the mm has no user; -ENOENT if no VMA matches;
 * -ENAMETOOLONG; -ENOMEM; -EFAULT.
 */
static long do_procmap_query(struct inode *inode, char *uarg)
{
	struct procmap_query karg;
	struct vm_area_struct *vma;
	struct mm_struct *mm;
	const char *name = "";
	char *buf = NULL;
	u64 usize;
	int err = procmap_query_in(&karg, uarg, &usize);

	if (err)
		return err;
	if (karg.vma_name_size && !(buf = kmalloc(PATH_MAX)))
		return -ENOMEM;
	mm = proc_mm_lock(inode);
	if (!mm) {
		kfree(buf);
		return -ESRCH;
	}
	vma = query_matching_vma(mm, karg.query_addr, karg.query_flags);
	if (!IS_ERR(vma)) {
		procmap_fill(&karg, vma);
		name = buf ? map_vma_name(vma, buf) : "";
	}
	proc_mm_unlock(mm);
	err = IS_ERR(vma) ? PTR_ERR(vma) : 0;
	if (!err && karg.vma_name_size)
		err = procmap_copy_name(&karg, name);
	kfree(buf);
	if (!err && copy_to_user(uarg, &karg, usize < sizeof(karg) ? usize : sizeof(karg)))
		err = -EFAULT;
	return err;
}

static long procfs_procmap_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd != PROCMAP_QUERY)
		return -ENOTTY;
	return do_procmap_query(file_inode(file), (char *)arg);
}

/* maps: the text file of maps_show, and the PROCMAP_QUERY ioctl. */
const struct file_operations proc_pid_maps_operations = {
	.open = proc_single_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.unlocked_ioctl = procfs_procmap_ioctl,
};
