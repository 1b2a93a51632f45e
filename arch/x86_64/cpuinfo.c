/*
 * What /proc/cpuinfo shows of each CPU (Linux's arch/x86/kernel/cpu/proc.c
 * and the cpuinfo_x86 that identify_cpu fills): CPUID's vendor, family,
 * model, name and feature flags, read by each CPU itself as it comes up.
 */
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include "linux/seq_file.h"
#include "linux/string.h"

struct cpuinfo_x86 {
	char x86_vendor_id[16];
	char x86_model_id[64];
	unsigned int x86, x86_model, x86_stepping;      /* family, model, stepping */
	unsigned int cpuid_level, x86_phys_bits, x86_virt_bits;
	u32 edx1, ecx1, edx81, ecx81, ebx7;             /* CPUID feature words */
	u32 apicid;
};

static struct cpuinfo_x86 cpu_data[NR_CPUS];

/* Linux's names of the feature bits shown: CPUID word, bit, name. */
static const struct { u8 word, bit; const char *name; } x86_cap_flags[] = {
	{ 0, 0, "fpu" }, { 0, 1, "vme" }, { 0, 2, "de" }, { 0, 3, "pse" }, { 0, 4, "tsc" },
	{ 0, 5, "msr" }, { 0, 6, "pae" }, { 0, 7, "mce" }, { 0, 8, "cx8" }, { 0, 9, "apic" },
	{ 0, 11, "sep" }, { 0, 12, "mtrr" }, { 0, 13, "pge" }, { 0, 14, "mca" },
	{ 0, 15, "cmov" }, { 0, 16, "pat" }, { 0, 17, "pse36" }, { 0, 19, "clflush" },
	{ 0, 23, "mmx" }, { 0, 24, "fxsr" }, { 0, 25, "sse" }, { 0, 26, "sse2" },
	{ 0, 28, "ht" }, { 2, 11, "syscall" }, { 2, 20, "nx" }, { 2, 26, "pdpe1gb" },
	{ 2, 27, "rdtscp" }, { 2, 29, "lm" }, { 1, 0, "pni" }, { 1, 1, "pclmulqdq" },
	{ 1, 9, "ssse3" }, { 1, 12, "fma" }, { 1, 13, "cx16" }, { 1, 19, "sse4_1" },
	{ 1, 20, "sse4_2" }, { 1, 21, "x2apic" }, { 1, 22, "movbe" }, { 1, 23, "popcnt" },
	{ 1, 25, "aes" }, { 1, 26, "xsave" }, { 1, 28, "avx" }, { 1, 29, "f16c" },
	{ 1, 30, "rdrand" }, { 1, 31, "hypervisor" }, { 3, 0, "lahf_lm" }, { 3, 5, "abm" },
	{ 4, 0, "fsgsbase" }, { 4, 3, "bmi1" }, { 4, 5, "avx2" }, { 4, 7, "smep" },
	{ 4, 8, "bmi2" }, { 4, 9, "erms" }, { 4, 18, "rdseed" }, { 4, 19, "adx" },
	{ 4, 20, "smap" },
};

/* Read this CPU's CPUID into cpu_data[cpu] (each CPU for itself, at bring-up). */
void identify_cpu(unsigned int cpu)
{
	struct cpuinfo_x86 *c = &cpu_data[cpu];
	u32 a, b, *name = (u32 *)c->x86_model_id, unused;

	cpuid(0, 0, &c->cpuid_level, (u32 *)&c->x86_vendor_id[0], (u32 *)&c->x86_vendor_id[8],
	      (u32 *)&c->x86_vendor_id[4]);
	if (c->cpuid_level >= 7)
		cpuid(7, 0, &unused, &c->ebx7, &unused, &unused);
	cpuid(1, 0, &a, &b, &c->ecx1, &c->edx1);
	c->x86 = ((a >> 8) & 0xf) + (((a >> 8) & 0xf) == 0xf ? (a >> 20) & 0xff : 0);
	c->x86_model = ((a >> 4) & 0xf) | (c->x86 >= 6 ? ((a >> 16) & 0xf) << 4 : 0);
	c->x86_stepping = a & 0xf;
	cpuid(0x80000001, 0, &unused, &unused, &c->ecx81, &c->edx81);
	for (u32 leaf = 0; leaf < 3; leaf++)
		cpuid(0x80000002 + leaf, 0, &name[leaf * 4], &name[leaf * 4 + 1],
		      &name[leaf * 4 + 2], &name[leaf * 4 + 3]);
	cpuid(0x80000008, 0, &a, &unused, &unused, &unused);
	c->x86_phys_bits = a & 0xff;
	c->x86_virt_bits = (a >> 8) & 0xff;
	c->apicid = cpu_apicid[cpu];
}

static bool cpu_has(const struct cpuinfo_x86 *c, unsigned int word, unsigned int bit)
{
	const u32 words[] = { c->edx1, c->ecx1, c->edx81, c->ecx81, c->ebx7 };

	return words[word] & BIT(bit);
}

/* One CPU's block of /proc/cpuinfo, in Linux's format (show_cpuinfo). */
void show_cpuinfo(struct seq_file *m, unsigned int cpu)
{
	const struct cpuinfo_x86 *c = &cpu_data[cpu];
	const char *model = c->x86_model_id;

	while (*model == ' ')                   /* Intel pads the name on the left */
		model++;
	seq_printf(m, "processor\t: %u\nvendor_id\t: %.12s\ncpu family\t: %u\n"
		   "model\t\t: %u\nmodel name\t: %.48s\nstepping\t: %u\n",
		   cpu, c->x86_vendor_id, c->x86, c->x86_model, model,
		   c->x86_stepping);
	seq_printf(m, "cpu MHz\t\t: %lu.%03lu\nphysical id\t: 0\nsiblings\t: %u\n"
		   "core id\t\t: %u\ncpu cores\t: %u\napicid\t\t: %u\nfpu\t\t: yes\n"
		   "cpuid level\t: %u\nflags\t\t:", tsc_khz / 1000, tsc_khz % 1000,
		   nr_cpu_ids, cpu, nr_cpu_ids, c->apicid, c->cpuid_level);
	for (size_t i = 0; i < ARRAY_SIZE(x86_cap_flags); i++)
		if (cpu_has(c, x86_cap_flags[i].word, x86_cap_flags[i].bit))
			seq_printf(m, " %s", x86_cap_flags[i].name);
	seq_printf(m, "\nbogomips\t: %lu.%02lu\nclflush size\t: 64\ncache_alignment\t: 64\n"
		   "address sizes\t: %u bits physical, %u bits virtual\n\n",
		   tsc_khz / 500, (tsc_khz / 5) % 100, c->x86_phys_bits, c->x86_virt_bits);
}
