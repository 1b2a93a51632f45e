/* Freestanding string and memory functions, in C (gcc may also call memcpy/memset). */
#include "linux/string.h"
#include <asm/word-at-a-time.h>

/*
 * Byte-at-a-time memset and memcpy, for an architecture without its own
 * (<asm/string.h> defines __HAVE_ARCH_MEMSET/MEMCPY where it has them).
 */
#ifndef __HAVE_ARCH_MEMSET
void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}
#endif

#ifndef __HAVE_ARCH_MEMCPY
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}
#endif

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] - y[i];
	return 0;
}

/*
 * The offset of the first byte of s that is NUL or c (c = 0: the NUL),
 * eight bytes at a time from the aligned word that holds s[0]: an
 * aligned word never crosses a page, so reading around the string within
 * it is harmless (Linux's word-at-a-time strlen); the bytes before s are
 * made 0xff in both tests so that they neither match nor borrow.  Paths
 * are walked with it, and under --icount every instruction per byte shows.
 */
typedef u64 __attribute__((may_alias)) u64_alias;      /* chars read as words */

static size_t find_byte(const char *s, int c)
{
	const u64 pattern = 0x0101010101010101ULL * (unsigned char)c;
	unsigned long off = (unsigned long)s & 7;
	const u64_alias *p = (const u64_alias *)(s - off);
	u64 before = off ? ~0ULL >> (64 - 8 * off) : 0;
	u64 w = *p, hit = has_zero(w | before) | has_zero((w ^ pattern) | before);

	while (!hit) {
		w = *++p;
		hit = has_zero(w) | has_zero(w ^ pattern);
	}
	return (const char *)p - s + find_zero(hit);
}

size_t strlen(const char *s)
{
	return find_byte(s, 0);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	if (reject[0] && !reject[1])
		return find_byte(s, reject[0]);         /* one byte: a path's "/" */

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strchr(const char *s, int c)
{
	s += find_byte(s, c);
	return *s == (char)c ? (char *)s : NULL;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/* Parse an unsigned number; base 0 means 0x-prefixed hex or decimal. */
unsigned long simple_strtoul(const char *s, const char **end, unsigned int base)
{
	unsigned long v = 0;

	if (base == 0) {
		base = 10;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			base = 16;
			s += 2;
		}
	}
	for (;; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	if (end)
		*end = s;
	return v;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	do {
		if (*s == (char)c)
			last = s;
	} while (*s++);
	return (char *)last;
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (!strncmp(haystack, needle, n))
			return (char *)haystack;
	return n ? NULL : (char *)haystack;
}
