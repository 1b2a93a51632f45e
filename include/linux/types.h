/* Fixed-width types and the build-time configuration every file needs. */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>
#include "linux/compiler.h"

typedef uint8_t  u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t   s8;
typedef int16_t  s16;
typedef int32_t  s32;
typedef int64_t  s64;
typedef u64 phys_addr_t;
typedef unsigned long pgoff_t;  /* a page offset in a file */

/* Build-time configuration as C constants: both sides always compile. */
#define IS_ENABLED(option) (option)
#ifndef CONFIG_NO_PAGE_MAPCOUNT
#define CONFIG_NO_PAGE_MAPCOUNT 0
#endif
#define CONFIG_PAGE_MAPCOUNT (!CONFIG_NO_PAGE_MAPCOUNT)
/*
 * The third scheme (the 2026 RFC): a large folio's mapcounts count mapped
 * pages, a PMD 512 of them.  It keeps no per-page mapcounts either.
 */
#ifndef CONFIG_MAPCOUNT_PAGES
#define CONFIG_MAPCOUNT_PAGES 0
#endif
_Static_assert(!CONFIG_MAPCOUNT_PAGES || CONFIG_NO_PAGE_MAPCOUNT,
	       "CONFIG_MAPCOUNT_PAGES keeps no per-page mapcounts");
/*
 * The variant's name: the banner, build/<name>/, the tests' labels.  A
 * string literal, so that a label can be pasted around it.
 */
#if CONFIG_MAPCOUNT_PAGES
#define MAPCOUNT_VARIANT "mapcount-pages"
#elif CONFIG_NO_PAGE_MAPCOUNT
#define MAPCOUNT_VARIANT "no-page-mapcount"
#else
#define MAPCOUNT_VARIANT "page-mapcount"
#endif
#ifndef CONFIG_LOCKDEP                  /* the lock validator: kernel debug builds */
#define CONFIG_LOCKDEP 0
#endif


/* A time as seconds and nanoseconds (Linux's struct timespec64: linux/time64.h). */
struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

#endif
