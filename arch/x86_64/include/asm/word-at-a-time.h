/*
 * Word-at-a-time string scanning (Linux's <asm/word-at-a-time.h>, its
 * little-endian core): eight bytes tested at once for a zero byte, for
 * strlen and friends (lib/string.c) and strncpy_from_user.
 */
#ifndef ASM_WORD_AT_A_TIME_H
#define ASM_WORD_AT_A_TIME_H

#include "linux/types.h"

/*
 * Nonzero if one of x's eight bytes is 0: bit 7 of each such byte is set.
 * Bytes above the first zero byte may be marked wrongly (the borrow), so
 * only the lowest mark counts: find_zero() names that byte.
 */
static inline u64 has_zero(u64 x)
{
	return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
}

/* The index (0-7) of the first zero byte has_zero() marked in mask (nonzero). */
static inline unsigned int find_zero(u64 mask)
{
	return __builtin_ctzll(mask) / 8;
}

/* The bytes before the first zero byte of mask (nonzero) kept, that one and those after cleared. */
static inline u64 zero_bytemask(u64 mask)
{
	return (mask ^ (mask - 1)) >> 8;
}

#endif
