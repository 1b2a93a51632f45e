/*
 * Frame-pointer backtraces (the kernel is built with -fno-omit-frame-pointer):
 *
 *   rbp -> [ saved rbp of the caller ][ return address ]
 *
 * The walk stops at a zero rbp (set at boot), a non-kernel or misaligned
 * address, or after 32 frames.  show_regs() prints a trap frame and its
 * backtrace for panic().
 */
#include <asm/arch.h>
#include <asm/page.h>
#include <asm/uaccess.h>
#include "linux/printk.h"
#include "linux/ksyms.h"
#include <asm/cpu.h>

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

/* The caller's registers as a trap frame, for panics outside traps. */
noinline_fn void arch_save_regs(struct pt_regs *r)
{
	__asm__ __volatile__(
		"mov %%rax, 0x70(%0)\n mov %%rbx, 0x68(%0)\n mov %%rcx, 0x60(%0)\n"
		"mov %%rdx, 0x58(%0)\n mov %%rsi, 0x50(%0)\n mov %%rdi, 0x48(%0)\n"
		"mov %%r8, 0x38(%0)\n mov %%r9, 0x30(%0)\n mov %%r10, 0x28(%0)\n"
		"mov %%r11, 0x20(%0)\n mov %%r12, 0x18(%0)\n mov %%r13, 0x10(%0)\n"
		"mov %%r14, 0x08(%0)\n mov %%r15, 0x00(%0)\n"
		: : "r"(r) : "memory");
	/* as if trapped at our return address, in the caller's frame */
	r->rbp = *(u64 *)__builtin_frame_address(0);
	r->rip = (u64)__builtin_return_address(0);
	r->rsp = (u64)__builtin_frame_address(0) + 16;
	__asm__ __volatile__("mov %%cs, %0\n mov %%ss, %1\n pushfq\n popq %2"
			     : "=r"(r->cs), "=r"(r->ss), "=r"(r->rflags));
	r->vector = r->error_code = 0;
}

/* The registers of a trap frame, then the backtrace from it (for panics). */
void show_regs(const struct pt_regs *r)
{
	char sym[96];

	ksym_format(r->rip, sym, sizeof(sym));
	pr_emerg("RIP: %04lx:%016lx %s\n", (unsigned long)r->cs, (unsigned long)r->rip, sym);
	pr_emerg("RSP: %04lx:%016lx EFLAGS: %08lx\n", (unsigned long)r->ss,
		 (unsigned long)r->rsp, (unsigned long)r->rflags);
	pr_emerg("RAX: %016lx RBX: %016lx RCX: %016lx\n", r->rax, r->rbx, r->rcx);
	pr_emerg("RDX: %016lx RSI: %016lx RDI: %016lx\n", r->rdx, r->rsi, r->rdi);
	pr_emerg("RBP: %016lx R08: %016lx R09: %016lx\n", r->rbp, r->r8, r->r9);
	pr_emerg("R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	pr_emerg("R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	pr_emerg("CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
		 read_cr0(), read_cr2(), read_cr3(), read_cr4());
	arch_backtrace(r->rbp, r->rip);
}
