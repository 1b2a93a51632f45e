/*
 * The futex word's atomic update in user memory (Linux's
 * arch/x86/include/asm/futex.h).  Called with page faults disabled
 * (pagefault_disable, linux/uaccess.h): a fault goes to the fixup, and
 * the caller faults the page in and tries again.
 */
#ifndef ASM_FUTEX_H
#define ASM_FUTEX_H

#include "linux/errno.h"
#include "linux/types.h"
#include "linux/uaccess.h"
#include <asm/uaccess.h>

/*
 * *uaddr = newval if it holds oldval, in one locked cmpxchg; *uval gets
 * what it held.  0, or -EFAULT if uaddr is not a user address or the
 * access faulted (*uval then untouched).
 */
static inline int futex_atomic_cmpxchg_inatomic(u32 *uval, u32 *uaddr, u32 oldval, u32 newval)
{
	int ret = 0;

	if (!access_ok((unsigned long)uaddr, sizeof(u32)))
		return -EFAULT;
	stac();
	__asm__ __volatile__("1: lock cmpxchgl %3, %2\n"
			     "2:\n"
			     ".pushsection .text.fixup, \"ax\"\n"
			     "3: movl %4, %0\n"
			     "   jmp 2b\n"
			     ".popsection\n"
			     _ASM_EXTABLE(1b, 3b)
			     : "+r"(ret), "+a"(oldval), "+m"(*uaddr)
			     : "r"(newval), "i"(-EFAULT)
			     : "memory");
	clac();
	if (!ret)
		*uval = oldval;
	return ret;
}

#endif
