/*
 * Host tests: lib/chacha.c's block function gives RFC 8439's test vector
 * (section 2.3.2), so kernel/random.c's CRNG is ChaCha20 and not a lookalike.
 * In foliOS's layout (Linux's crng: a 64-bit counter and a 64-bit nonce)
 * the RFC's 32-bit counter 1 and 96-bit nonce 00:00:00:09 00:00:00:4a
 * 00:00:00:00 are counter 0x0900000000000001 and nonce 0x4a000000.
 */
#include "tests/host/hostenv.h"
#include "linux/chacha.h"
#include <setjmp.h>
#include <cmocka.h>

static void test_rfc8439_block(void **state)
{
	static const u32 want[CHACHA_BLOCK_WORDS] = {
		0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
		0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
		0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
		0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2,
	};
	u32 key[CHACHA_KEY_WORDS], out[CHACHA_BLOCK_WORDS];

	(void)state;
	for (int i = 0; i < CHACHA_KEY_WORDS; i++)      /* bytes 00 01 02 ... 1f, little-endian words */
		key[i] = (4 * i) | (4 * i + 1) << 8 | (4 * i + 2) << 16 | (u32)(4 * i + 3) << 24;
	chacha20_block(key, 0x0900000000000001ULL, 0x4a000000ULL, out);
	assert_memory_equal(out, want, sizeof(want));
}

/* Another counter gives another block: the stream does not repeat. */
static void test_counter_changes_block(void **state)
{
	u32 key[CHACHA_KEY_WORDS] = { 1 }, a[CHACHA_BLOCK_WORDS], b[CHACHA_BLOCK_WORDS];

	(void)state;
	chacha20_block(key, 0, 0, a);
	chacha20_block(key, 1, 0, b);
	assert_memory_not_equal(a, b, sizeof(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc8439_block),
		cmocka_unit_test(test_counter_changes_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
