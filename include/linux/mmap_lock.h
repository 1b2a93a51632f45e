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

/*
 * The mmap_lock is held (for write): Linux's assertions, made where Linux
 * makes them (find_vma, __anon_vma_prepare, the VMA changes, GUP).  With
 * CONFIG_LOCKDEP this task must hold it, else somebody must (the count:
 * one load, so every build keeps them); a WARN if not.
 *
 * The rule foliOS adds (linux/mm.h): an mm no task has yet can be reached
 * by its creator only — a test's, a ktest's, the child's while dup_mm()
 * copies into it — which may change it without the lock.  It is not
 * asserted until it is published: given to a task (fork, exec:
 * mm_publish()), from when /proc, ptrace and the task's other threads may
 * reach it.  exec builds its new mm as current's, so it takes the lock.
 */
#define mmap_assert_locked(mm) do {                                          \
	struct mm_struct *__mm = (mm);                                       \
									     \
	if (READ_ONCE(__mm->published))                                      \
		rwsem_assert_held(&__mm->mmap_lock);                         \
} while (0)

#define mmap_assert_write_locked(mm) do {                                    \
	struct mm_struct *__mm = (mm);                                       \
									     \
	if (READ_ONCE(__mm->published))                                      \
		rwsem_assert_held_write(&__mm->mmap_lock);                   \
} while (0)

/* mm becomes a task's (fork's copy of it, exec's new one): others may reach it now. */
static inline void mm_publish(struct mm_struct *mm)
{
	WRITE_ONCE(mm->published, true);
}

#endif
