/* Memory system calls: mmap (anonymous, private), munmap, brk. */
#include "kernel/syscalls.h"
#include "kernel/task.h"
#include "mm/mm_api.h"
#include <asm/page.h>

#define MAP_SHARED      0x01
#define MAP_PRIVATE     0x02
#define MAP_ANONYMOUS   0x20
#define ENODEV          19

/*
 * mmap: anonymous private memory only.  Checks in Linux's order: offset
 * alignment, length 0 (EINVAL), then file / mapping type, then do_mmap_anon.
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, long fd, unsigned long off)
{
	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (!len)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return fd < 0 ? -EBADF : -ENODEV;       /* no file mappings yet */
	if ((flags & (MAP_SHARED | MAP_PRIVATE)) != MAP_PRIVATE)
		return -EINVAL;                         /* MAP_SHARED: later */
	return do_mmap_anon(current->mm, addr, len, calc_vm_prot_bits(prot),
			    flags & (MAP_FIXED | MAP_FIXED_NOREPLACE));
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
