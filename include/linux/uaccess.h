/*
 * User-memory access for system calls (implemented in arch/x86_64/uaccess.c).
 *
 * A user access may fault, and the fault takes the mmap_lock and may sleep
 * (allocate, copy a COW page, wait on a folio lock): so every access calls
 * might_fault(), and lockdep reports the first time a path makes one under
 * a spinlock or with interrupts off, whether or not the page is present
 * that time.  Code that must read user memory where it cannot sleep
 * (futex under its bucket lock) disables page faults around the access:
 * a fault then goes straight to the exception fixup, without the mm, and
 * the access fails (-EFAULT, or a short copy); the caller drops its locks,
 * faults the page in and tries again (Linux's pagefault_disable()).
 */
#ifndef _LINUX_UACCESS_H
#define _LINUX_UACCESS_H

#include "linux/types.h"
#include "linux/errno.h"
#include "linux/compiler.h"
#include "linux/lockdep.h"
#include "linux/preempt.h"

/*
 * Faults on user addresses fail instead of calling the mm, until the
 * matching pagefault_enable() (they nest: a count in the task).  Out of
 * line so this header stays free of struct task_struct (the host tests
 * include it); each is a compiler barrier, so no user access moves out
 * of the section.
 */
void pagefault_disable(void);
void pagefault_enable(void);
bool pagefault_disabled(void);

/*
 * The page-fault handler must not call the mm: faults disabled, or the
 * CPU in atomic context (a spinlock held, a hardirq) — Linux's
 * faulthandler_disabled().
 */
#define faulthandler_disabled() (pagefault_disabled() || in_atomic())

void __might_fault(const char *file, int line);

/* A user access follows: it may sleep unless page faults are disabled. */
#define might_fault() do {                                                   \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		__might_fault(__FILE__, __LINE__);                           \
} while (0)

bool access_ok(unsigned long addr, unsigned long size);
unsigned long copy_from_user(void *dst, const void *usrc, unsigned long n);
unsigned long copy_to_user(void *udst, const void *src, unsigned long n);
long strncpy_from_user(char *dst, const char *usrc, long size);

/*
 * x = *ptr and *ptr = x for one scalar of user memory (Linux's get_user,
 * put_user): 0 or -EFAULT (get_user then sets x to 0).
 */
#define get_user(x, ptr) ({                                                  \
	__typeof__(*(ptr)) __gu_val;                                         \
	int __gu_err = copy_from_user(&__gu_val, (ptr), sizeof(__gu_val)) ? -EFAULT : 0; \
	(x) = __gu_err ? 0 : __gu_val;                                       \
	__gu_err;                                                            \
})

#define put_user(x, ptr) ({                                                  \
	__typeof__(*(ptr)) __pu_val = (x);                                   \
	copy_to_user((ptr), &__pu_val, sizeof(__pu_val)) ? -EFAULT : 0;      \
})

#endif
