/*
 * ktest suite "protection": proves that the CPU protections foliOS turns on
 * are on, by provoking each and seeing the fault.
 *   SMAP: a kernel read of a user page outside stac/clac faults (and the
 *         exception table turns it into -EFAULT); inside stac/clac it works.
 *   SMEP: the kernel calling into an executable user page faults.
 *   NX:   the kernel calling into a direct-map (data) page faults.
 * The calls go through exec_probe_addr (arch/x86_64/traps.c), so the
 * instruction-fetch fault returns to the caller instead of oopsing.
 */
#include "linux/errno.h"
#include "linux/ktest.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include <asm/uaccess.h>
#include <asm/arch.h>

extern pgd_t *init_pgd;
extern unsigned long exec_probe_addr;
extern int exec_probe_faults;

#define PROBE_USER_VA   0x10000000UL    /* a user address, nothing else maps it at boot */
#define RET_INSN        0xc3

/* Call a one-byte "ret" at addr; true if fetching it faulted. */
static bool call_faults(unsigned long addr)
{
	int before = exec_probe_faults;

	exec_probe_addr = addr;
	((void (*)(void))addr)();
	exec_probe_addr = 0;
	return exec_probe_faults != before;
}

/* A zeroed page with "ret" first, mapped at the user address with prot. */
static struct page *map_user_page(struct ktest *t, pgprot_t prot)
{
	struct page *page = alloc_page(__GFP_ZERO);

	if (!page)
		return NULL;
	*(u8 *)page_address(page) = RET_INSN;
	*(u64 *)((u8 *)page_address(page) + 8) = 0x5a5a;
	KTEST_EXPECT_EQ(t, pgtable_map(init_pgd, PROBE_USER_VA, page_to_pfn(page), prot, PT_PTE), 0);
	return page;
}

static void unmap_user_page(struct page *page)
{
	pgtable_unmap(init_pgd, PROBE_USER_VA, PT_PTE, NULL);
	__free_page(page);
}

static void protection_smap(struct ktest *t)
{
	struct page *page = map_user_page(t, PAGE_USER_RW);
	u64 val = 0;

	KTEST_ASSERT(t, page);
	KTEST_EXPECT(t, cpu_has_smap);
	KTEST_EXPECT_EQ(t, read_u64_nofault(&val, (u64 *)(PROBE_USER_VA + 8)), -EFAULT);
	stac();
	KTEST_EXPECT_EQ(t, read_u64_nofault(&val, (u64 *)(PROBE_USER_VA + 8)), 0);
	clac();
	KTEST_EXPECT_EQ(t, val, 0x5a5a);
	unmap_user_page(page);
}

static void protection_smep(struct ktest *t)
{
	struct page *page = map_user_page(t, PAGE_USER_RX);

	KTEST_ASSERT(t, page);
	KTEST_EXPECT(t, cpu_has_smep);
	KTEST_EXPECT(t, call_faults(PROBE_USER_VA));
	unmap_user_page(page);
}

static void protection_nx(struct ktest *t)
{
	struct page *page = alloc_page(__GFP_ZERO);

	KTEST_ASSERT(t, page);
	*(u8 *)page_address(page) = RET_INSN;
	KTEST_EXPECT(t, call_faults((unsigned long)page_address(page)));
	__free_page(page);
}

static const struct ktest_case protection_cases[] = {
	KTEST_CASE(protection_smap),
	KTEST_CASE(protection_smep),
	KTEST_CASE(protection_nx),
};
KTEST_SUITE(protection, protection_cases);
