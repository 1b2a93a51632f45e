/*
 * getcpu in user mode (Linux's arch/x86/entry/vdso/vgetcpu.c): the kernel
 * put each CPU's number in its TSC_AUX register (arch/x86_64/vdso.c,
 * setup_getcpu; the NUMA node, always 0 here, above bit 12), which
 * rdtscp reads.  Without rdtscp the kernel is asked.
 */
#include "uapi/asm/unistd_64.h"
#include "arch/x86_64/vdso/vdso.h"

#define TSC_AUX_NODE_SHIFT 12

long __vdso_getcpu(unsigned int *cpu, unsigned int *node, void *unused)
{
	u32 lo, hi, aux;
	long ret;

	if (!vvar_page.has_rdtscp) {
		__asm__ __volatile__("syscall" : "=a"(ret)
				     : "0"(__NR_getcpu), "D"(cpu), "S"(node), "d"(unused)
				     : "rcx", "r11", "memory");
		return ret;
	}
	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	if (cpu)
		*cpu = aux & ((1U << TSC_AUX_NODE_SHIFT) - 1);
	if (node)
		*node = aux >> TSC_AUX_NODE_SHIFT;
	return 0;
}

long getcpu(unsigned int *, unsigned int *, void *) __attribute__((weak, alias("__vdso_getcpu")));
