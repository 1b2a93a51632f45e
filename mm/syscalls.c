/*
 * Memory system calls: mmap (anonymous or of a file, private or shared),
 * munmap, mremap, brk, mprotect, madvise, the mlock family (their work
 * and locking in mm/mlock.c).  Each takes current's mmap_lock as Linux's:
 * for write where the VMA list or the tables' shape changes,
 * for read where only pages are faulted or zapped (MAP_POPULATE, and the
 * madvise advice madvise_need_mmap_write() lets through).  None touches
 * user memory with the lock held (a fault there would take it again).
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/fs.h"
#include "linux/capability.h"
#include "linux/pid.h"
#include "linux/slab.h"
#include "uapi/linux/uio.h"
#include "uapi/linux/mman.h"
#include <asm/page.h>


/*
 * mmap: anonymous memory, or a file whose f_op can map it (do_mmap).
 * Checks in Linux's order: offset alignment, the file (EBADF), then
 * do_mmap's.  MAP_POPULATE (without MAP_NONBLOCK) faults the new memory
 * in, and so does a locked mapping (MAP_LOCKED, mlockall's MCL_FUTURE).
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, long fd, unsigned long off)
{
	struct file *file = NULL;
	bool populate;
	long ret;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		file = fget(fd);
		if (!file)
			return -EBADF;
	}
	mmap_write_lock(current->mm);
	ret = do_mmap(current->mm, file, addr, len, prot, flags, off >> PAGE_SHIFT);
	populate = ret >= 0 && ((find_vma(current->mm, ret)->vm_flags & VM_LOCKED) ||
				(flags & (MAP_POPULATE | MAP_NONBLOCK)) == MAP_POPULATE);
	mmap_write_unlock(current->mm);
	if (file)
		fput(file);             /* the VMA took its own */
	if (populate) {
		mmap_read_lock(current->mm);
		mm_populate(current->mm, ret, len);
		mmap_read_unlock(current->mm);
	}
	return ret;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	long ret;

	mmap_write_lock(current->mm);
	ret = do_munmap(current->mm, addr, len);
	mmap_write_unlock(current->mm);
	return ret;
}

long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr)
{
	long ret;

	mmap_write_lock(current->mm);
	ret = do_mremap(current->mm, addr, old_len, new_len, flags, new_addr);
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	/* a locked mapping's new part is faulted in, as Linux's mremap does */
	if (ret >= 0 && new_len > old_len && (find_vma(current->mm, ret)->vm_flags & VM_LOCKED)) {
		mmap_write_downgrade(current->mm);
		mm_populate(current->mm, ret + old_len, new_len - old_len);
		mmap_read_unlock(current->mm);
		return ret;
	}
	mmap_write_unlock(current->mm);
	return ret;
}

/* brk; after mlockall(MCL_FUTURE) the heap's new part is faulted in, as Linux's. */
long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->mm;
	unsigned long old;
	long ret;

	mmap_write_lock(mm);
	old = mm->brk;
	ret = do_brk(mm, brk);
	if ((mm->def_flags & VM_LOCKED) && (unsigned long)ret > old) {
		mmap_write_downgrade(mm);
		mm_populate(mm, ALIGN_UP(old, PAGE_SIZE), ALIGN_UP(ret, PAGE_SIZE) - ALIGN_UP(old, PAGE_SIZE));
		mmap_read_unlock(mm);
		return ret;
	}
	mmap_write_unlock(mm);
	return ret;
}

long sys_mlock(unsigned long start, size_t len)
{
	return do_mlock(current->mm, start, len, VM_LOCKED);
}

/* mlock2: mlock, or with MLOCK_ONFAULT lock each page only as it faults.  -EINVAL for other flags. */
long sys_mlock2(unsigned long start, size_t len, int flags)
{
	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(current->mm, start, len,
			VM_LOCKED | (flags & MLOCK_ONFAULT ? VM_LOCKONFAULT : 0));
}

long sys_munlock(unsigned long start, size_t len)
{
	return do_munlock(current->mm, start, len);
}

long sys_mlockall(int flags)
{
	return do_mlockall(current->mm, flags);
}

long sys_munlockall(void)
{
	return do_munlockall(current->mm);
}

long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot)
{
	long ret;

	mmap_write_lock(current->mm);
	ret = do_mprotect(current->mm, addr, len, prot);
	mmap_write_unlock(current->mm);
	return ret;
}

long sys_madvise(unsigned long addr, unsigned long len, int advice)
{
	bool write = madvise_need_mmap_write(advice);
	long ret;

	if (write)
		mmap_write_lock(current->mm);
	else
		mmap_read_lock(current->mm);
	ret = do_madvise(current->mm, addr, len, advice);
	if (write)
		mmap_write_unlock(current->mm);
	else
		mmap_read_unlock(current->mm);
	return ret;
}

/*
 * process_madvise(pidfd, iovec, vlen, advice, flags): advise another
 * process's memory (Linux's): only the hints that change nothing it could
 * see — MADV_COLD, MADV_PAGEOUT, MADV_WILLNEED, MADV_COLLAPSE.  Each
 * iovec range in turn, as madvise(2) would; the bytes advised before the
 * first error, else the error.  EINVAL (flags, advice, a bad iovec), EBADF
 * (no pidfd), ESRCH (no such process, or one without memory), EPERM (no
 * CAP_SYS_NICE; Linux also asks for ptrace read access, which every
 * process of foliOS's one root user has).
 */
long sys_process_madvise(int pidfd, const void *uvec, unsigned long vlen, int advice,
			 unsigned int flags)
{
	struct iovec *iov;
	struct mm_struct *mm;
	long err, done = 0;
	unsigned long i;

	if (flags)
		return -EINVAL;
	iov = import_iovec(uvec, vlen, &err);
	if (err)
		return err;
	mm = pidfd_get_mm(pidfd, &err);
	if (!mm)
		goto out;
	err = -EINVAL;
	if (advice != MADV_COLD && advice != MADV_PAGEOUT && advice != MADV_WILLNEED &&
	    advice != MADV_COLLAPSE)
		goto out_mm;
	err = -EPERM;
	if (!capable(CAP_SYS_NICE))
		goto out_mm;
	for (i = 0, err = 0; i < vlen && !err; i++) {
		bool write = madvise_need_mmap_write(advice);

		write ? mmap_write_lock(mm) : mmap_read_lock(mm);
		err = do_madvise(mm, (unsigned long)iov[i].iov_base, iov[i].iov_len, advice);
		write ? mmap_write_unlock(mm) : mmap_read_unlock(mm);
		if (!err)
			done += iov[i].iov_len;
	}
out_mm:
	mmput(mm);
out:
	kfree(iov);
	return done ? done : err;
}
