/* Fixed-width types and the few compiler helpers every file needs. */
#ifndef FOLIOS_TYPES_H
#define FOLIOS_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t  u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t   s8;
typedef int16_t  s16;
typedef int32_t  s32;
typedef int64_t  s64;
typedef u64 phys_addr_t;

#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)  (((x) + ((a) - 1)) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((typeof(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((typeof(x))(a) - 1)) == 0)
#define MIN(a, b)       ((a) < (b) ? (a) : (b))
#define MAX(a, b)       ((a) > (b) ? (a) : (b))
#define BIT(n)          (1UL << (n))
#define likely(x)       __builtin_expect(!!(x), 1)
#define unlikely(x)     __builtin_expect(!!(x), 0)
#define __noreturn      __attribute__((noreturn))
#define noinline_fn     __attribute__((noinline))
#ifndef __always_inline                 /* glibc's <sys/cdefs.h> has the same, for host builds */
#define __always_inline inline __attribute__((always_inline))
#endif
#define __unused        __attribute__((unused))
#define __printf(a, b)  __attribute__((format(printf, a, b)))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define READ_ONCE(x)    (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#define barrier()       __asm__ __volatile__("" ::: "memory")

/* Build-time configuration as C constants: both sides always compile. */
#define IS_ENABLED(option) (option)
#ifndef CONFIG_NO_PAGE_MAPCOUNT
#define CONFIG_NO_PAGE_MAPCOUNT 0
#endif
#define CONFIG_PAGE_MAPCOUNT (!CONFIG_NO_PAGE_MAPCOUNT)

#define EPERM   1
#define ENOENT  2
#define ESRCH   3
#define EINTR   4
#define EIO     5
#define E2BIG   7
#define ENOEXEC 8
#define EBADF   9
#define ECHILD  10
#define EAGAIN  11
#define ENOMEM  12
#define EFAULT  14
#define EBUSY   16
#define EEXIST  17
#define EINVAL  22
#define ENOSPC  28
#define ERANGE  34
#define ENOSYS  38

#endif
