/* The ChaCha20 block function (lib/chacha.c; Linux's crypto/chacha.h). */
#ifndef _LINUX_CHACHA_H
#define _LINUX_CHACHA_H

#include "linux/types.h"

#define CHACHA_KEY_WORDS        8
#define CHACHA_BLOCK_WORDS      16
#define CHACHA_BLOCK_SIZE       64

void chacha20_block(const u32 key[CHACHA_KEY_WORDS], u64 counter, u64 nonce,
		    u32 out[CHACHA_BLOCK_WORDS]);

#endif
