/*
 * The ChaCha20 block function (Linux's lib/crypto/chacha.c; RFC 8439):
 * 16 words of state — 4 constants, a 256-bit key, a 64-bit block counter
 * and a 64-bit nonce (Linux's crng layout) — make 64 bytes of stream by
 * 20 rounds of quarter rounds, the input added back at the end.
 */
#include "linux/chacha.h"

#define ROTL32(v, n)    (((v) << (n)) | ((v) >> (32 - (n))))
#define QR(a, b, c, d) (                                        \
	a += b, d ^= a, d = ROTL32(d, 16),                      \
	c += d, b ^= c, b = ROTL32(b, 12),                      \
	a += b, d ^= a, d = ROTL32(d, 8),                       \
	c += d, b ^= c, b = ROTL32(b, 7))

/* One 64-byte block of key's stream at counter with nonce into out. */
void chacha20_block(const u32 key[CHACHA_KEY_WORDS], u64 counter, u64 nonce,
		    u32 out[CHACHA_BLOCK_WORDS])
{
	u32 in[CHACHA_BLOCK_WORDS] = {
		0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,  /* "expand 32-byte k" */
		key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
		(u32)counter, (u32)(counter >> 32), (u32)nonce, (u32)(nonce >> 32),
	};
	u32 *x = out;

	for (int i = 0; i < CHACHA_BLOCK_WORDS; i++)
		x[i] = in[i];
	for (int i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < CHACHA_BLOCK_WORDS; i++)
		x[i] += in[i];
}
