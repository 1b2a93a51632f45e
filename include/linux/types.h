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
#ifndef CONFIG_LOCKDEP                  /* the lock validator: kernel debug builds */
#define CONFIG_LOCKDEP 0
#endif


#endif
