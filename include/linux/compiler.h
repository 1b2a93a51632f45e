/* Compiler attributes and the small helpers every file needs. */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#include <stddef.h>

#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)  (((x) + ((a) - 1)) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((typeof(x))(a) - 1))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
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
/*
 * A load or store the compiler must do exactly once, as written: of a
 * word another CPU (or its MMU) may change meanwhile.  Under
 * ThreadSanitizer (make tsan-host) a relaxed atomic, which TSan knows is
 * a racy access by design (Linux's KCSAN reads READ_ONCE so too); the
 * kernel's is the volatile access Linux's is.
 */
#if !defined(__SANITIZE_THREAD__) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __SANITIZE_THREAD__ 1           /* clang's way of saying it */
#endif
#endif
#ifdef __SANITIZE_THREAD__
#define READ_ONCE(x)    __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#else
#define READ_ONCE(x)    (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#endif
#define barrier()       __asm__ __volatile__("" ::: "memory")

/*
 * CPU memory barriers (Linux's asm/barrier.h), on the compiler's atomics so
 * the host build shares them.  smp_store_mb: a store, then a full barrier
 * (set_current_state); release/acquire pair a publishing store with the
 * load that sees it (task->on_cpu).
 */
#define smp_mb()                        __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_store_mb(x, v)              __atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)
#define smp_store_release(p, v)         __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p)             __atomic_load_n((p), __ATOMIC_ACQUIRE)

#endif
