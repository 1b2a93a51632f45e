/* Memory system calls: mmap (anonymous, private), munmap, brk. */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "mm/mm_api.h"
#include "linux/fs.h"
#include <asm/page.h>


/*
 * mmap: anonymous private memory only.  Checks in Linux's order: offset
 * alignment, the file (EBADF; no file can be mapped yet: ENODEV), then
 * do_mmap_anon's (length, placement, mapping type, limits).
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, long fd, unsigned long off)
{
	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return !fget(fd) ? -EBADF : -ENODEV;    /* no file mappings yet */
	return do_mmap_anon(current->mm, addr, len, calc_vm_prot_bits(prot), flags);
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	return do_munmap(current->mm, addr, len);
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
