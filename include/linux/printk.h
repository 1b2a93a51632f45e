/*
 * Kernel log: printk with Linux's log levels, panic, and sanity checks.
 * Lock order (the kernel's tree: mm/rmap.c): logbuf_lock (irq: always
 * irqsave, kernel/printk.c) serializes whole printk calls, which may come
 * under any other lock; under it only lockdep's graph_lock (a raw word,
 * kernel/locking/lockdep.c).
 */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

#include "linux/types.h"

/* Levels as Linux's KERN_*; the level travels as a "\001N" prefix. */
#define KERN_EMERG   "\0010"
#define KERN_ALERT   "\0011"
#define KERN_CRIT    "\0012"
#define KERN_ERR     "\0013"
#define KERN_WARNING "\0014"
#define KERN_NOTICE  "\0015"
#define KERN_INFO    "\0016"
#define KERN_DEBUG   "\0017"

extern int console_loglevel;

__printf(1, 2) int printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list ap);
unsigned long console_output_begin(void);
void console_write_locked(const char *s, size_t n);
void console_output_end(unsigned long flags);
__printf(1, 2) __noreturn void panic(const char *fmt, ...);
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

#define pr_emerg(...)  printk(KERN_EMERG __VA_ARGS__)
#define pr_err(...)    printk(KERN_ERR __VA_ARGS__)
#define pr_warn(...)   printk(KERN_WARNING __VA_ARGS__)
#define pr_notice(...) printk(KERN_NOTICE __VA_ARGS__)
#define pr_info(...)   printk(KERN_INFO __VA_ARGS__)
#define pr_debug(...)  printk(KERN_DEBUG __VA_ARGS__)

/* Count of WARN()s hit since boot: ktest fails a run that warned. */
extern unsigned long nr_warnings;
void warn_slowpath(const char *file, int line, const char *cond);

/*
 * VM_WARN_ON_ONCE(cond, "invariant"): report a broken invariant by name once,
 * keep running.  Evaluates to cond so callers can bail out.
 */
#define WARN_ON_ONCE(cond, what) ({                                          \
	static bool __warned;                                                \
	bool __c = !!(cond);                                                 \
	if (unlikely(__c) && !__warned) {                                    \
		__warned = true;                                             \
		warn_slowpath(__FILE__, __LINE__, what);                     \
	}                                                                    \
	__c;                                                                 \
})
#define VM_WARN_ON_ONCE(cond, what) WARN_ON_ONCE(cond, what)
#define BUG_ON(cond, what) do {                                              \
	if (unlikely(cond))                                                  \
		panic("%s:%d: %s", __FILE__, __LINE__, what);                \
} while (0)

#endif
