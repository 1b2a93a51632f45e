/*
 * ktest suite "swap_pte": the x86-64 swap-format entry is Linux's bit for
 * bit (<asm/pgtable.h>): type in bits 59-63, the offset inverted in bits
 * 9-58, soft-dirty in bit 1; no entry is none, present, PROT_NONE or a
 * PMD leaf, whatever its type and offset.
 */
#include "linux/ktest.h"
#include "linux/swapops.h"

/* A pair Linux's __swp_entry() encodes as 0xf7fdffffffdb9600 (worked by hand from its macros). */
static void swap_pte_linux_bits(struct ktest *t)
{
	pte_t pte = swp_entry_to_pte(swp_entry(SWP_MIGRATION_WRITE, BIT(40) | 0x1234));

	KTEST_EXPECT_EQ(t, SWP_MIGRATION_WRITE, 30);
	KTEST_EXPECT_EQ(t, pte_val(pte), 0xf7fdffffffdb9600UL);
	KTEST_EXPECT_EQ(t, pte_val(pte_swp_mksoft_dirty(pte)), 0xf7fdffffffdb9602UL);
}

/* Round trips at the corners: never none, present, PROT_NONE or a leaf. */
static void swap_pte_round_trip(struct ktest *t)
{
	static const unsigned long offsets[] = { 0, 1, 0x1234, BIT(40) | BIT(41) | 0xfffff,
						 BIT(__SWP_OFFSET_BITS) - 2 };
	static const unsigned int types[] = { 0, 1, MAX_SWAPFILES - 1, SWP_MIGRATION_READ,
					      SWP_MIGRATION_WRITE, 31 };

	for (unsigned int k = 0; k < ARRAY_SIZE(types); k++)
		for (unsigned int i = 0; i < ARRAY_SIZE(offsets); i++) {
			unsigned int type = types[k];
			swp_entry_t e = swp_entry(type, offsets[i]);
			pte_t pte = swp_entry_to_pte(e);
			pmd_t pmd = swp_entry_to_pmd(e);

			KTEST_EXPECT(t, is_swap_pte(pte) && !pte_protnone(pte));
			KTEST_EXPECT(t, !pmd_leaf(pmd) && is_swap_pmd(pmd));
			KTEST_EXPECT_EQ(t, swp_type(pte_to_swp_entry(pte)), type);
			KTEST_EXPECT_EQ(t, swp_offset(pte_to_swp_entry(pte)), offsets[i]);
			KTEST_EXPECT(t, pte_swp_soft_dirty(pte_swp_mksoft_dirty(pte)) &&
				     !pte_swp_soft_dirty(pte));
		}
}

static const struct ktest_case swap_pte_cases[] = {
	KTEST_CASE(swap_pte_linux_bits),
	KTEST_CASE(swap_pte_round_trip),
};
KTEST_SUITE(swap_pte, swap_pte_cases);
