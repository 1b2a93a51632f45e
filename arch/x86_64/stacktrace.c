/*
 * Frame-pointer backtraces (the kernel is built with -fno-omit-frame-pointer):
 *
 *   rbp -> [ saved rbp of the caller ][ return address ]
 *
 * The walk stops at a zero rbp (set at boot), a non-kernel or misaligned
 * address, or after 32 frames.
 */
#include <asm/arch.h>
#include <asm/page.h>
#include <asm/uaccess.h>
#include "kernel/printk.h"
#include "kernel/ksyms.h"

static void print_frame(unsigned long addr)
{
	char sym[96];

	ksym_format(addr, sym, sizeof(sym));
	printk(KERN_EMERG " [<%016lx>] %s\n", addr, sym);
}

void arch_backtrace(unsigned long rbp, unsigned long rip)
{
	printk(KERN_EMERG "Call Trace:\n");
	if (rip)
		print_frame(rip);
	for (int depth = 0; depth < 32 && rbp; depth++) {
		u64 next, ret;

		if (rbp < PAGE_OFFSET || (rbp & 7) ||
		    read_u64_nofault(&next, (const u64 *)rbp) ||
		    read_u64_nofault(&ret, (const u64 *)rbp + 1) || !ret)
			break;
		print_frame(ret);
		rbp = next;
	}
}
