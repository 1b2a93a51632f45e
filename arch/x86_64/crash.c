/* The x86 halves of the deliberate crashes of kernel/crash.c. */
#include <asm/arch.h>

/* Push until the stack runs into its guard page. */
void arch_crash_stack_overflow(void)
{
	__asm__ __volatile__("1: pushq $0\n jmp 1b" ::: "memory");
}

void arch_crash_divide(void)
{
	__asm__ __volatile__("xor %%ecx, %%ecx\n div %%ecx" ::: "eax", "ecx", "edx");
}
