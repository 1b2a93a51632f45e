/* Memory system calls: mmap (anonymous, private), munmap, mremap, brk. */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "mm/mm_api.h"
#include "linux/fs.h"
#include <asm/page.h>


/*
 * mmap of a file: -ENODEV unless its f_op has mmap (none has yet); else
 * the range is mapped as do_mmap_anon() maps it, then the file's mmap
 * sets the VMA up (Linux's mmap_region + call_mmap), undone if it fails.
 * vm_file and vm_pgoff come with the page cache.
 */
static long mmap_file(struct file *file, unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flags)
{
	long ret;
	int err;

	if (!file->f_op->mmap)
		return -ENODEV;
	ret = do_mmap_anon(current->mm, addr, len, calc_vm_prot_bits(prot), flags);
	if (ret < 0)
		return ret;
	err = file->f_op->mmap(file, find_vma(current->mm, ret));
	if (err) {
		do_munmap(current->mm, ret, len);
		return err;
	}
	return ret;
}

/*
 * mmap: anonymous private memory, or a file whose f_op can map it.
 * Checks in Linux's order: offset alignment, the file (EBADF, ENODEV),
 * then do_mmap_anon's (length, placement, mapping type, limits).
 * MAP_POPULATE (without MAP_NONBLOCK) faults the new memory in.
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, long fd, unsigned long off)
{
	struct file *file;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (flags & MAP_ANONYMOUS) {
		long ret = do_mmap_anon(current->mm, addr, len, calc_vm_prot_bits(prot), flags);

		if (ret >= 0 && (flags & (MAP_POPULATE | MAP_NONBLOCK)) == MAP_POPULATE)
			mm_populate(current->mm, ret, len);
		return ret;
	}
	file = fget(fd);
	return file ? mmap_file(file, addr, len, prot, flags) : -EBADF;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	return do_munmap(current->mm, addr, len);
}

long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr)
{
	return do_mremap(current->mm, addr, old_len, new_len, flags, new_addr);
}

long sys_brk(unsigned long brk)
{
	return do_brk(current->mm, brk);
}

long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot)
{
	return do_mprotect(current->mm, addr, len, prot);
}

long sys_madvise(unsigned long addr, unsigned long len, int advice)
{
	return do_madvise(current->mm, addr, len, advice);
}
