/* CPU feature setup: SMEP/SMAP where present, RDRAND/RDSEED, global pages, user rdtsc, the FPU. */
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/elf.h>
#include <asm/fpu.h>
#include "linux/printk.h"

bool cpu_has_smep, cpu_has_smap, cpu_has_rdrand, cpu_has_rdseed;
u32 elf_hwcap;                          /* CPUID 1's EDX: AT_HWCAP (asm/elf.h) */

void cpu_features_init(void)
{
	u32 a, b, c, d;
	unsigned long cr4 = read_cr4();

	cpuid(0, 0, &a, &b, &c, &d);
	if (a >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		cpu_has_smep = b & BIT(7);
		cpu_has_smap = b & BIT(20);
		cpu_has_rdseed = b & BIT(18);
	}
	cpuid(1, 0, &a, &b, &c, &d);
	cpu_has_rdrand = c & BIT(30);
	elf_hwcap = d;
	if (cpu_has_smep)
		cr4 |= X86_CR4_SMEP;
	if (cpu_has_smap)
		cr4 |= X86_CR4_SMAP;
	cr4 |= X86_CR4_PGE;
	cr4 &= ~X86_CR4_TSD;            /* rdtsc works in user mode, as on Linux */
	write_cr4(cr4);
	pr_info("cpu: NX on, SMEP %s, SMAP %s\n", cpu_has_smep ? "on" : "absent",
		cpu_has_smap ? "on" : "absent");
	fpu__init_system(boot_info.cmdline);
}
