/*
 * The vDSO's pages in every process (Linux's arch/x86/entry/vdso/vma.c):
 * exec maps, under the interpreter, the [vvar] page — the clocks' state,
 * include/vdso/datapage.h — and above it the vDSO image, linux-vdso.so.1,
 * built from arch/x86_64/vdso/ and carried in the kernel's rodata:
 *
 *      base            [vvar]  1 page    r--p   vdso_data (kernel .data)
 *      base + 4096     [vdso]  N pages   r-xp   vdso_image_start..end
 *                      ^ AT_SYSINFO_EHDR
 *
 * Both are special mappings (mm/mmap.c): their pages are the kernel's own,
 * mapped by special PTEs on fault, never copied, counted or reclaimed.
 * Unlike Linux, whose vDSO text pages are ordinary pages a debugger may
 * write a breakpoint into (a COW copy), foliOS's vDSO is a PFN map that
 * stays read-only: mprotect cannot add PROT_WRITE (no VM_MAYWRITE).
 *
 * getcpu in user mode reads the CPU number from TSC_AUX with rdtscp;
 * setup_getcpu() puts it there on each CPU as it comes up.
 *
 * Locks: none of its own.  The mappings are made while exec builds the new
 * mm, under its mmap_lock for write (the mm is the exec'ing task's already:
 * /proc may reach it); the data page's writers are named in datapage.h.
 */
#include "linux/errno.h"
#include "linux/binfmts.h"
#include "linux/time64.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include <asm/cpu.h>
#include <asm/page.h>
#include "vdso/datapage.h"

#define MSR_TSC_AUX             0xc0000103
#define CPUID_80000001_RDTSCP   BIT(27)         /* EDX */

/* The [vvar] page: a page of its own, so that no other kernel data shows. */
static union {
	struct vdso_data data;
	u8 page[PAGE_SIZE];
} vvar_store __attribute__((aligned(PAGE_SIZE))) = {
	.data = { .tick_nsec = TICK_NSEC },
};

struct vdso_data *const vdso_data = &vvar_store.data;

extern const char vdso_image_start[], vdso_image_end[];         /* vdso/vdso-image.asm */

static struct vm_special_mapping vvar_mapping = { .name = "[vvar]" };
static struct vm_special_mapping vdso_mapping = { .name = "[vdso]" };

static bool cpu_has_rdtscp(void)
{
	u32 a, b, c, d;

	cpuid(0x80000000, 0, &a, &b, &c, &d);
	if (a < 0x80000001)
		return false;
	cpuid(0x80000001, 0, &a, &b, &c, &d);
	return d & CPUID_80000001_RDTSCP;
}

/* This CPU's number into TSC_AUX, for rdtscp (Linux's setup_getcpu; node 0). */
void setup_getcpu(unsigned int cpu)
{
	if (cpu_has_rdtscp())
		wrmsr(MSR_TSC_AUX, cpu);
}

/* At boot, before the first exec: where the two mappings' pages are. */
void vdso_init(void)
{
	vvar_mapping.pfn = __pa(&vvar_store) >> PAGE_SHIFT;
	vvar_mapping.nr_pages = 1;
	vdso_mapping.pfn = __pa(vdso_image_start) >> PAGE_SHIFT;
	vdso_mapping.nr_pages = (vdso_image_end - vdso_image_start) >> PAGE_SHIFT;
	vdso_data->has_rdtscp = cpu_has_rdtscp();
}

/*
 * Map [vvar] and [vdso] into mm, the new mm exec is building, at the
 * highest free place below its mmap base (Linux's map_vdso, which takes
 * the mmap_lock for write: the mm is current's already, /proc may look
 * at it); the vDSO's address (AT_SYSINFO_EHDR) in *ehdr.  0 or -ENOMEM.
 */
int arch_setup_additional_pages(struct mm_struct *mm, unsigned long *ehdr)
{
	unsigned long image_len = vdso_mapping.nr_pages << PAGE_SHIFT;
	long addr;
	int ret = 0;

	mmap_write_lock(mm);
	addr = get_unmapped_area(mm, 0, PAGE_SIZE + image_len, 0);
	if (addr < 0)
		ret = addr;
	else if (!_install_special_mapping(mm, addr, PAGE_SIZE,
					   VM_READ | VM_MAYREAD | VM_IO | VM_DONTDUMP, &vvar_mapping) ||
		 !_install_special_mapping(mm, addr + PAGE_SIZE, image_len,
					   VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYEXEC, &vdso_mapping))
		ret = -ENOMEM;
	else
		*ehdr = addr + PAGE_SIZE;
	mmap_write_unlock(mm);
	return ret;
}
