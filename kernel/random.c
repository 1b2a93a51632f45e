/*
 * Random numbers (Linux's drivers/char/random.c, simply): one ChaCha20
 * CRNG for the whole kernel, behind get_random_bytes(), getrandom(2),
 * /dev/urandom and /dev/random (the same since Linux 5.18), and exec's
 * AT_RANDOM bytes.
 *
 *   seeding   at boot, and again every CRNG_RESEED_INTERVAL: the CPU's
 *             RDSEED, else RDRAND, output, the TSC's low bits sampled
 *             around each (timing jitter) and the wall clock, folded
 *             into the key by ChaCha20 itself (key = block(key ^ seed));
 *             writes to /dev/(u)random are folded in the same way.
 *   output    fast key erasure (Linux's crng_fast_key_erasure): one block
 *             of the base key gives the next base key (its first 32
 *             bytes) and a key for this request alone (the next 32); the
 *             request's bytes are that key's stream, made outside the
 *             lock, so a later compromise of the state cannot give back
 *             earlier output.
 *
 * Locks: base_crng.lock guards the key and its counter (irqsave: taken
 * briefly, never with a user copy).  Lock order: see linux/random.h.
 */
#include "linux/chacha.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/random.h"
#include "linux/sched.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/time64.h"
#include "linux/uaccess.h"
#include <asm/archrandom.h>
#include <asm/arch.h>
#include <asm/timex.h>

#define CRNG_RESEED_INTERVAL    (60 * HZ)       /* Linux's */

static struct {
	u32 key[CHACHA_KEY_WORDS];
	u64 generation;                 /* blocks drawn from this key */
	unsigned long seeded_at;        /* jiffies of the last seeding */
	spinlock_t lock;
} base_crng = { .lock = SPINLOCK_INIT("base_crng.lock") };

/* Fold material (words, at most a block's) into the base key.  base_crng.lock held. */
static void crng_mix(const u32 *material, int words)
{
	u32 block[CHACHA_BLOCK_WORDS], key[CHACHA_KEY_WORDS];

	memcpy(key, base_crng.key, sizeof(key));
	for (int i = 0; i < words; i++)
		key[i % CHACHA_KEY_WORDS] ^= material[i];
	chacha20_block(key, ++base_crng.generation, words, block);
	memcpy(base_crng.key, block, sizeof(base_crng.key));
	memset(block, 0, sizeof(block));
	memset(key, 0, sizeof(key));
}

/* Fresh seed material: RDSEED or RDRAND words, TSC jitter, the time. */
static void crng_seed_material(u32 seed[CHACHA_BLOCK_WORDS])
{
	for (int i = 0; i < CHACHA_BLOCK_WORDS; i += 2) {
		unsigned long v = 0, t = get_cycles();

		if (!rdseed_long(&v))
			rdrand_long(&v);
		v ^= (get_cycles() - t) << 32 ^ t;
		seed[i] = v;
		seed[i + 1] = v >> 32;
	}
	seed[CHACHA_BLOCK_WORDS - 1] ^= (u32)(ktime_get_real_ns() / NSEC_PER_SEC);
}

/*
 * A key for one request (Linux's crng_make_state): the base key's next
 * block becomes the new base key and this key; reseeded first when the
 * interval has passed.
 */
static void crng_make_key(u32 key[CHACHA_KEY_WORDS])
{
	u32 block[CHACHA_BLOCK_WORDS], seed[CHACHA_BLOCK_WORDS];
	bool reseed = (long)(jiffies - base_crng.seeded_at) >= CRNG_RESEED_INTERVAL;
	unsigned long flags;

	if (reseed)
		crng_seed_material(seed);
	spin_lock_irqsave(&base_crng.lock, flags);
	if (reseed) {
		crng_mix(seed, CHACHA_BLOCK_WORDS);
		base_crng.seeded_at = jiffies;
	}
	chacha20_block(base_crng.key, ++base_crng.generation, 0, block);
	memcpy(base_crng.key, block, sizeof(base_crng.key));
	spin_unlock_irqrestore(&base_crng.lock, flags);
	memcpy(key, block + CHACHA_KEY_WORDS, CHACHA_KEY_WORDS * sizeof(u32));
	memset(block, 0, sizeof(block));
}

/* len random bytes into buf (kernel memory; Linux's get_random_bytes). */
void get_random_bytes(void *buf, size_t len)
{
	u32 key[CHACHA_KEY_WORDS], block[CHACHA_BLOCK_WORDS];

	crng_make_key(key);
	for (u64 i = 0; len; i++) {
		size_t n = MIN(len, (size_t)CHACHA_BLOCK_SIZE);

		chacha20_block(key, i, 0, block);
		memcpy(buf, block, n);
		buf = (char *)buf + n;
		len -= n;
	}
	memset(block, 0, sizeof(block));
	memset(key, 0, sizeof(key));
}

/* Boot: the first seed (Linux's random_init). */
void random_init(void)
{
	u32 seed[CHACHA_BLOCK_WORDS];
	unsigned long flags;

	crng_seed_material(seed);
	spin_lock_irqsave(&base_crng.lock, flags);
	crng_mix(seed, CHACHA_BLOCK_WORDS);
	base_crng.seeded_at = jiffies;
	spin_unlock_irqrestore(&base_crng.lock, flags);
}

/*
 * count random bytes to the user buffer, a block at a time from one
 * request key (Linux's get_random_bytes_user): the bytes done; a signal
 * ends a long one early (-ERESTARTSYS if nothing was done), as Linux's
 * every PAGE_SIZE; -EFAULT.
 */
static long get_random_bytes_user(char *ubuf, size_t count)
{
	u32 key[CHACHA_KEY_WORDS], block[CHACHA_BLOCK_WORDS];
	size_t done = 0;

	count = MIN(count, MAX_RW_COUNT);
	crng_make_key(key);
	for (u64 i = 0; done < count; i++) {
		size_t n = MIN(count - done, (size_t)CHACHA_BLOCK_SIZE);

		if (done && !(done % 4096) && signal_pending(current))
			break;
		chacha20_block(key, i, 0, block);
		if (copy_to_user(ubuf + done, block, n)) {
			done = done ? done : (size_t)-EFAULT;
			break;
		}
		done += n;
	}
	memset(block, 0, sizeof(block));
	memset(key, 0, sizeof(key));
	return done;
}

/*
 * getrandom(buf, len, flags): GRND_NONBLOCK, GRND_RANDOM, GRND_INSECURE
 * (not with GRND_RANDOM): EINVAL for others.  The CRNG is seeded from
 * boot on, so none of them ever waits.
 */
long sys_getrandom(void *buf, unsigned long len, unsigned int flags)
{
	if ((flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE)) ||
	    (flags & (GRND_RANDOM | GRND_INSECURE)) == (GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	return get_random_bytes_user(buf, len);
}

static long random_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	return get_random_bytes_user(ubuf, count);
}

/* A write to /dev/(u)random: its bytes are folded into the key (Linux's write_pool); all taken. */
static long random_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	u32 words[CHACHA_BLOCK_WORDS];
	unsigned long flags;
	size_t done = 0;

	while (done < count) {
		size_t n = MIN(count - done, sizeof(words));

		memset(words, 0, sizeof(words));
		if (copy_from_user(words, ubuf + done, n))
			return done ? (long)done : -EFAULT;
		spin_lock_irqsave(&base_crng.lock, flags);
		crng_mix(words, CHACHA_BLOCK_WORDS);
		spin_unlock_irqrestore(&base_crng.lock, flags);
		done += n;
	}
	return done;
}

const struct file_operations random_fops = {
	.read = random_read,
	.write = random_write,
};
