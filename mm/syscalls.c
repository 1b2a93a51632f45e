/* Memory system calls: mmap (anonymous or of a file, private or shared), munmap, mremap, brk. */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "mm/mm_api.h"
#include "linux/fs.h"
#include <asm/page.h>


/*
 * mmap: anonymous memory, or a file whose f_op can map it (do_mmap).
 * Checks in Linux's order: offset alignment, the file (EBADF), then
 * do_mmap's.  MAP_POPULATE (without MAP_NONBLOCK) faults the new memory in.
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, long fd, unsigned long off)
{
	struct file *file = NULL;
	long ret;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		file = fget(fd);
		if (!file)
			return -EBADF;
	}
	ret = do_mmap(current->mm, file, addr, len, prot, flags, off >> PAGE_SHIFT);
	if (ret >= 0 && (flags & (MAP_POPULATE | MAP_NONBLOCK)) == MAP_POPULATE)
		mm_populate(current->mm, ret, len);
	return ret;
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
