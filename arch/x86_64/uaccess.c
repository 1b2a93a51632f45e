/*
 * Copying to and from user memory.  The copy is "rep movsq" then "rep
 * movsb", each with an exception-table entry: a fault the page-fault
 * handler cannot resolve (see do_page_fault), or any fault while page
 * faults are disabled, ends the copy early, and rcx says how much is left.
 * With SMAP, the kernel may touch user pages only between stac and clac.
 *
 * Locks: none taken here; a fault takes the mmap_lock for reading, so
 * every entry point calls might_fault() (linux/uaccess.h): never under a
 * spinlock or with interrupts off unless page faults are disabled.
 */
#include "linux/errno.h"
#include "linux/string.h"
#include <asm/arch.h>
#include <asm/page.h>
#include <asm/uaccess.h>
#include <asm/word-at-a-time.h>
#include "linux/uaccess.h"
#include "linux/sched.h"
#include "linux/mm_types.h"

void pagefault_disable(void)
{
	current->pagefault_disabled++;
	barrier();
}

void pagefault_enable(void)
{
	barrier();
	current->pagefault_disabled--;
}

bool pagefault_disabled(void)
{
	return current->pagefault_disabled != 0;
}

/*
 * might_fault()'s check (Linux's __might_fault in mm/memory.c): unless
 * page faults are disabled, the caller must be able to sleep, and the
 * fault's mmap_lock is taken in the validator's eyes (acquired and
 * released at once), so a lock held here that the fault path also
 * takes, or the mmap_lock itself, is reported now rather than the day
 * the page is absent.
 */
void __might_fault(const char *file, int line)
{
	struct mm_struct *mm = current->mm;

	if (pagefault_disabled())
		return;
	__might_sleep(file, line, false);
	if (mm) {
		rwsem_acquire(&mm->mmap_lock, 0, false, _RET_IP_);
		rwsem_release(&mm->mmap_lock, _RET_IP_);
	}
}

bool access_ok(unsigned long addr, unsigned long size)
{
	return addr + size >= addr && addr + size <= TASK_SIZE_MAX;
}

/*
 * Copy n bytes; returns the number of bytes NOT copied.  Eight bytes per
 * step, then the tail byte by byte (Linux's copy_user_generic_string):
 * under TCG each iteration of a rep instruction costs alike, so movsq
 * copies a page in 512 steps where movsb takes 4096.  If the qword copy
 * faults, what is left is redone byte by byte up to the faulting byte, so
 * the count not copied is exact.
 */
static unsigned long copy_user_generic(void *dst, const void *src, unsigned long n)
{
	unsigned long tail = n & 7;

	n >>= 3;
	stac();
	__asm__ __volatile__("1: rep movsq\n"
			     "   movq %[tail], %%rcx\n"
			     "   jmp 2f\n"
			     "3: leaq (%[tail], %%rcx, 8), %%rcx\n"
			     "2: rep movsb\n"
			     "4:\n"
			     _ASM_EXTABLE(1b, 3b)
			     _ASM_EXTABLE(2b, 4b)
			     : "+D"(dst), "+S"(src), "+c"(n) : [tail] "r"(tail) : "memory");
	clac();
	return n;
}

unsigned long copy_from_user(void *dst, const void *usrc, unsigned long n)
{
	might_fault();
	if (!access_ok((unsigned long)usrc, n))
		return n;
	return copy_user_generic(dst, usrc, n);
}

unsigned long copy_to_user(void *udst, const void *src, unsigned long n)
{
	might_fault();
	if (!access_ok((unsigned long)udst, n))
		return n;
	return copy_user_generic(udst, src, n);
}

/*
 * Copy a NUL-terminated string of at most size-1 characters.  Returns its
 * length, -EFAULT, or -ENAMETOOLONG if it does not fit.  Eight bytes at a
 * time where the word lies in one page (Linux's do_strncpy_from_user):
 * access is granted per page, so such a word faults only if its first
 * byte does, and reading past the NUL within the page is harmless; near
 * a page's end, byte by byte.
 */
long strncpy_from_user(char *dst, const char *usrc, long size)
{
	long i = 0;

	might_fault();
	while (i < size) {
		unsigned long uaddr = (unsigned long)usrc + i;
		u64 word, zero;

		if (i + 8 <= size && (uaddr & (PAGE_SIZE - 1)) <= PAGE_SIZE - 8) {
			int err = -EFAULT;

			if (access_ok(uaddr, 8)) {
				stac();
				err = read_u64_nofault(&word, (const u64 *)uaddr);
				clac();
			}
			if (err)
				return err;
			zero = has_zero(word);
			if (zero)               /* what follows the NUL is not the string's: zeros */
				word &= zero_bytemask(zero);
			memcpy(dst + i, &word, 8);
			if (zero)
				return i + find_zero(zero);
			i += 8;
			continue;
		}
		if (copy_from_user(dst + i, usrc + i, 1))
			return -EFAULT;
		if (!dst[i])
			return i;
		i++;
	}
	return -ENAMETOOLONG;
}
