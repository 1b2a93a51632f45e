/*
 * mm's sanity checks that show the object they are about (Linux's
 * include/linux/mmdebug.h): VM_BUG_ON_FOLIO(cond, folio) dumps the folio
 * and panics, VM_WARN_ON_ONCE_FOLIO(cond, folio) dumps it and warns the
 * first time (counted in nr_warnings, which fails a ktest or host test).
 * The plain VM_WARN_ON_ONCE(cond, "what") is in linux/printk.h.
 *
 * Linux compiles these to nothing without CONFIG_DEBUG_VM.  foliOS keeps
 * its mm checks on in every build, as it does VM_WARN_ON_ONCE: each is a
 * test of a flag or a field the caller has at hand, with the dump out of
 * the way of the fast path.  Which lock a folio check stands for (the
 * folio lock, mostly) is said where it is used.
 */
#ifndef _LINUX_MMDEBUG_H
#define _LINUX_MMDEBUG_H

#include "linux/printk.h"

struct page;
struct folio;

/* mm/debug.c */
void dump_page(const struct page *page, const char *reason);
void dump_folio(const struct folio *folio, const struct page *page);

#define VM_BUG_ON_FOLIO(cond, folio) do {                                    \
	if (unlikely(cond)) {                                                \
		dump_page(&(folio)->page, "VM_BUG_ON_FOLIO(" #cond ")");     \
		dump_folio(folio, NULL);                                     \
		BUG_ON(true, "VM_BUG_ON_FOLIO(" #cond ")");                  \
	}                                                                    \
} while (0)

/* Evaluates to cond, as VM_WARN_ON_ONCE does. */
#define VM_WARN_ON_ONCE_FOLIO(cond, folio) ({                                \
	static bool __warned;                                                \
	bool __c = !!(cond);                                                 \
	if (unlikely(__c) && !__warned) {                                    \
		__warned = true;                                             \
		dump_page(&(folio)->page, "VM_WARN_ON_ONCE_FOLIO(" #cond ")"); \
		dump_folio(folio, NULL);                                     \
		warn_slowpath(__FILE__, __LINE__, "VM_WARN_ON_ONCE_FOLIO(" #cond ")"); \
	}                                                                    \
	__c;                                                                 \
})

#endif
