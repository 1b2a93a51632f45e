/*
 * The kernel's own page tables (init_pgd), built once at boot with the
 * generic mm/pgtable.c code:
 *
 *   PAGE_OFFSET + pa  ->  pa      every 2 MiB chunk holding RAM, RW, NX, global
 *   KERNEL_VMA  + pa  ->  pa      the kernel image in 4 KiB pages:
 *                                 .text RX, .rodata R NX, .data/.bss RW NX,
 *                                 but no page under the boot stack (a guard)
 *
 * Early table pages come from memblock below 1 GiB, the part the boot
 * tables (boot/boot.asm) map at PAGE_OFFSET.  User page tables copy the
 * kernel half of init_pgd (arch_pgd_init).
 */
#include "linux/errno.h"
#include "arch/x86_64/x86.h"
#include <asm/uaccess.h>
#include <asm/arch.h>
#include <asm/cpu.h>
#include "linux/pgtable.h"
#include "linux/memblock.h"
#include "linux/printk.h"
#include "linux/string.h"

#define BOOT_MAPPED_LIMIT (1UL << 30)

extern char _text[], _etext[], _rodata[], _erodata[], _data[], _kernel_end[];
extern char _kernel_phys_start[], boot_stack_guard[];

pgd_t *init_pgd;

static phys_addr_t early_table_alloc(void)
{
	return memblock_alloc(PAGE_SIZE, PAGE_SIZE);
}

static pgprot_t kernel_image_prot(const char *va)
{
	if (va >= _text && va < _etext)
		return PAGE_KERNEL_EXEC;
	if (va >= _rodata && va < _erodata)
		return PAGE_KERNEL_RO;
	return PAGE_KERNEL;
}

static void map_or_die(unsigned long va, phys_addr_t pa, pgprot_t prot, enum pt_level l)
{
	int ret = pgtable_map(init_pgd, va, pa >> PAGE_SHIFT, prot, l);

	if (ret && ret != -EEXIST)
		panic("mmu_init: cannot map %#lx (%d)", va, ret);
}

void mmu_init(void)
{
	const struct memblock_type *mem = &memblock.memory;

	memblock.alloc_limit = BOOT_MAPPED_LIMIT;
	pgtable_early_alloc = early_table_alloc;
	init_pgd = pgd_alloc();
	if (!init_pgd)
		panic("mmu_init: no memory for init_pgd");
	for (unsigned int i = 0; i < mem->cnt; i++) {
		phys_addr_t pa = ALIGN_DOWN(mem->regions[i].base, PMD_SIZE);
		phys_addr_t end = mem->regions[i].base + mem->regions[i].size;

		for (; pa < end; pa += PMD_SIZE)
			map_or_die(PAGE_OFFSET + pa, pa, PAGE_KERNEL, PT_PMD);
	}
	for (char *va = _text; va < _kernel_end; va += PAGE_SIZE)
		if (va != boot_stack_guard)     /* overflow -> #PF -> #DF on IST1 */
			map_or_die((unsigned long)va, __pa(va), kernel_image_prot(va), PT_PTE);
	write_cr3(__pa(init_pgd));
	memblock.alloc_limit = ~0UL;
}

/*
 * Map [pa, pa + size) at its direct-map address (Linux's ioremap_prot):
 * device registers uncached (the local APIC, the IOAPIC), firmware tables
 * read-only.  Pages already mapped (RAM, or an earlier call) stay as they
 * are.  At boot only, on the boot CPU: the new tables hang under init_pgd's
 * direct-map slot, which every pgd shares (arch_pgd_init).
 */
void *ioremap_prot(phys_addr_t pa, size_t size, pgprot_t prot)
{
	for (phys_addr_t p = ALIGN_DOWN(pa, PAGE_SIZE); p < pa + size; p += PAGE_SIZE) {
		int ret = pgtable_map(init_pgd, PAGE_OFFSET + p, p >> PAGE_SHIFT, prot, PT_PTE);

		if (ret && ret != -EEXIST)
			panic("ioremap_prot: cannot map %#lx (%d)", (unsigned long)p, ret);
	}
	return __va(pa);
}

/* After mem_map exists, tables come from the buddy. */
void mmu_early_done(void)
{
	pgtable_early_alloc = NULL;
}

void arch_pgd_init(pgd_t *pgd)
{
	if (init_pgd)
		memcpy(pgd + USER_PGD_PTRS, init_pgd + USER_PGD_PTRS,
		       (PTRS_PER_TABLE - USER_PGD_PTRS) * sizeof(pgval_t));
}

int pgval_decode(pgval_t e, char *buf, size_t size)
{
	if (e && !pgval_present(e))     /* a swap-format entry: migration (linux/swapops.h) */
		return snprintf(buf, size, "- swap type %u offset %#lx%s", __pgval_swp_type(e),
				__pgval_swp_offset(e), pgval_swp_soft_dirty(e) ? " SD" : "");
	return snprintf(buf, size, "%s%s%s%s%s%s%s%s",
			e & _PAGE_PRESENT ? "P" : "-", e & _PAGE_RW ? " W" : " R",
			e & _PAGE_USER ? " U" : " K", e & _PAGE_ACCESSED ? " A" : "",
			e & _PAGE_DIRTY ? " D" : "", e & _PAGE_PSE ? " PS" : "",
			pgval_protnone(e) ? " PROTNONE" : e & _PAGE_GLOBAL ? " G" : "",
			e & _PAGE_NX ? " NX" : " X");
}

extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

const struct exception_table_entry *search_exception_tables(unsigned long addr)
{
	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == addr)
			return e;
	return NULL;
}
