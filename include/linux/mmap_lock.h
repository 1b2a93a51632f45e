/*
 * The mmap_lock (Linux's include/linux/mmap_lock.h): one reader/writer
 * semaphore per mm.  Faults, /proc walks and get_user_pages take it for
 * read; whatever changes the VMA list or tears page tables down (mmap,
 * munmap, mprotect, mremap, madvise's zaps, brk, fork of the parent, exec,
 * exit) takes it for write.  It is the outermost mm lock: see mm/rmap.c.
 */
#ifndef _LINUX_MMAP_LOCK_H
#define _LINUX_MMAP_LOCK_H

#include "linux/rwsem.h"
#include "linux/printk.h"
#include "linux/mm_types.h"

static inline void mmap_init_lock(struct mm_struct *mm)
{
	init_rwsem(&mm->mmap_lock, "mmap_lock");
}

static inline void mmap_read_lock(struct mm_struct *mm)
{
	down_read(&mm->mmap_lock);
}

static inline bool mmap_read_trylock(struct mm_struct *mm)
{
	return down_read_trylock(&mm->mmap_lock);
}

static inline void mmap_read_unlock(struct mm_struct *mm)
{
	up_read(&mm->mmap_lock);
}

static inline void mmap_write_lock(struct mm_struct *mm)
{
	down_write(&mm->mmap_lock);
}

/* A second mm's mmap_lock under the first (fork: the child's, SINGLE_DEPTH_NESTING). */
static inline void mmap_write_lock_nested(struct mm_struct *mm, unsigned int subclass)
{
	down_write_nested(&mm->mmap_lock, subclass);
}

static inline void mmap_write_unlock(struct mm_struct *mm)
{
	up_write(&mm->mmap_lock);
}

static inline void mmap_write_downgrade(struct mm_struct *mm)
{
	downgrade_write(&mm->mmap_lock);
}

static inline void mmap_assert_locked(struct mm_struct *mm)
{
	if (!rwsem_is_locked(&mm->mmap_lock))
		panic("mmap_assert_locked: mmap_lock of mm %u not held", mm->mm_id);
}

static inline void mmap_assert_write_locked(struct mm_struct *mm)
{
	if (!rwsem_is_write_locked(&mm->mmap_lock))
		panic("mmap_assert_write_locked: mmap_lock of mm %u not held for write", mm->mm_id);
}

#endif
