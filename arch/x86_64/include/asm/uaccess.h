/*
 * Memory accesses that may fault.  A fault on the marked instruction jumps
 * to a fixup via the exception table (section __ex_table) instead of
 * panicking, and the access returns -EFAULT.  Later, copy_from_user() and
 * friends are built the same way.
 */
#ifndef ASM_UACCESS_H
#define ASM_UACCESS_H

#include "linux/errno.h"
#include "linux/types.h"
#include <asm/arch.h>

struct exception_table_entry {
	unsigned long insn;     /* address of the instruction that may fault */
	unsigned long fixup;    /* where to continue when it does */
};

const struct exception_table_entry *search_exception_tables(unsigned long addr);

#define _ASM_EXTABLE(from, to)                                                \
	".pushsection __ex_table, \"a\"\n"                                    \
	".balign 8\n"                                                         \
	".quad " #from ", " #to "\n"                                          \
	".popsection\n"

/* With SMAP, the kernel may touch user pages only between stac and clac. */
static inline void stac(void)
{
	if (cpu_has_smap)
		__asm__ __volatile__("stac" ::: "memory");
}

static inline void clac(void)
{
	if (cpu_has_smap)
		__asm__ __volatile__("clac" ::: "memory");
}

/* *dst = *src for a kernel address that may be unmapped; 0 or -EFAULT. */
static inline int read_u64_nofault(u64 *dst, const u64 *src)
{
	int err = 0;
	u64 v = 0;

	__asm__ __volatile__("1: movq (%2), %1\n"
			     "2:\n"
			     ".pushsection .text.fixup, \"ax\"\n"
			     "3: movl %3, %0\n"
			     "   jmp 2b\n"
			     ".popsection\n"
			     _ASM_EXTABLE(1b, 3b)
			     : "+r"(err), "+r"(v) : "r"(src), "i"(-EFAULT) : "memory");
	if (!err)
		*dst = v;
	return err;
}

/* *dst = v for a kernel address that may be unmapped or read-only. */
static inline int write_u64_nofault(u64 *dst, u64 v)
{
	int err = 0;

	__asm__ __volatile__("1: movq %1, (%2)\n"
			     "2:\n"
			     ".pushsection .text.fixup, \"ax\"\n"
			     "3: movl %3, %0\n"
			     "   jmp 2b\n"
			     ".popsection\n"
			     _ASM_EXTABLE(1b, 3b)
			     : "+r"(err) : "r"(v), "r"(dst), "i"(-EFAULT) : "memory");
	return err;
}

#endif
