/* The freestanding subset of <string.h> the kernel uses. */
#ifndef _LINUX_STRING_H
#define _LINUX_STRING_H

#include "linux/types.h"
#include <asm/string.h>

void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strcspn(const char *s, const char *reject);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
size_t strlcpy(char *dst, const char *src, size_t size);
unsigned long simple_strtoul(const char *s, const char **end, unsigned int base);

#endif
