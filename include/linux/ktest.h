/*
 * ktest: in-kernel self-tests, run with "ktest" (or "ktest=SUITE,SUITE…") on the
 * command line, reported as KTAP.  Each case runs with a leak check around
 * it: free pages, per-order free blocks, page-table pages and kmalloc bytes
 * must be back to where they were, and no WARN or bad page may have fired.
 */
#ifndef _LINUX_KTEST_H
#define _LINUX_KTEST_H

#include "linux/types.h"

struct ktest {
	const char *name;
	bool failed;
	int expected_bad_pages;         /* a case that provokes bad_page() says so */
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	size_t nr_cases;
};

#define KTEST_CASE(fn) { #fn, fn }
#define KTEST_SUITE(sname, case_array)                                        \
	static const struct ktest_suite __ktest_##sname                       \
	__attribute__((used, section(".ktest_suites"), aligned(8))) = {       \
		#sname, case_array, ARRAY_SIZE(case_array) }

__printf(4, 5) void ktest_fail(struct ktest *t, const char *file, int line,
			       const char *fmt, ...);
void ktest_diag(const char *fmt, ...) __printf(1, 2);

/* Check cond; on failure record it with the condition's text, and go on. */
#define KTEST_EXPECT(t, cond) do {                                           \
	if (!(cond))                                                         \
		ktest_fail(t, __FILE__, __LINE__, "expected %s", #cond);     \
} while (0)
/* Compare two integers, printing both on failure. */
#define KTEST_EXPECT_EQ(t, a, b) do {                                        \
	long long __a = (long long)(a), __b = (long long)(b);                \
	if (__a != __b)                                                      \
		ktest_fail(t, __FILE__, __LINE__, "%s == %lld, expected %s == %lld", \
			   #a, __a, #b, __b);                                \
} while (0)
/* Stop the case on failure (e.g. when later steps need this one). */
#define KTEST_ASSERT(t, cond) do {                                           \
	if (!(cond)) {                                                       \
		ktest_fail(t, __FILE__, __LINE__, "assertion %s", #cond);    \
		return;                                                      \
	}                                                                    \
} while (0)

/* Run the suites the filter names ("" = all); returns the failed case count. */
int ktest_run_all(const char *filter);

#endif
