/*
 * The ktest runner: KTAP version 1 on the console, one subtest per suite.
 *
 *   KTAP version 1
 *   1..2
 *       KTAP version 1
 *       # Subtest: buddy
 *       1..6
 *       ok 1 buddy_split
 *       ...
 *   ok 1 buddy
 *   # ktest: 12 passed, 0 failed
 *
 * KTAP lines bypass printk's timestamps and log level: they are the output.
 */
#include "linux/ktest.h"
#include "linux/printk.h"
#include "linux/rcupdate.h"
#include "linux/string.h"
#include "linux/mm.h"
#include <asm/arch.h>

extern const struct ktest_suite __start_ktest_suites[], __stop_ktest_suites[];

static __printf(1, 2) void ktap(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	uart_write(buf, MIN((size_t)n, sizeof(buf) - 1));
}

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ktap("        # %s: %s:%d: %s\n", t->name, file, line, buf);
	t->failed = true;
}

void ktest_diag(const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ktap("        # %s\n", buf);
}

/* Run one case between two allocator snapshots; true if it passed. */
static bool run_case(const struct ktest_case *c)
{
	struct ktest t = { .name = c->name };
	struct mem_counts before, after;
	unsigned long warns = nr_warnings, bad = nr_bad_pages;

	rcu_barrier();                  /* frees by RCU count where they were queued */
	mem_counts_snapshot(&before);
	c->run(&t);
	rcu_barrier();
	mem_counts_snapshot(&after);
	if (!mem_counts_equal(&before, &after)) {
		mem_counts_print_diff(&before, &after);
		ktest_fail(&t, __FILE__, __LINE__, "memory leaked (see leak: lines)");
	}
	if (nr_warnings != warns)
		ktest_fail(&t, __FILE__, __LINE__, "%lu warning(s)", nr_warnings - warns);
	if (nr_bad_pages - bad != (unsigned long)t.expected_bad_pages)
		ktest_fail(&t, __FILE__, __LINE__, "%lu bad page report(s), expected %d",
			   nr_bad_pages - bad, t.expected_bad_pages);
	return !t.failed;
}

/* Does the filter ("" = all, or suite names separated by commas) take suite name? */
static bool filter_takes(const char *filter, const char *name)
{
	size_t len = strlen(name);

	if (!*filter)
		return true;
	for (const char *f = filter; f; f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL)
		if (!strncmp(f, name, len) && (f[len] == ',' || !f[len]))
			return true;
	return false;
}

int ktest_run_all(const char *filter)
{
	const struct ktest_suite *s;
	int nr_suites = 0, suite_no = 0, passed = 0, failed = 0;

	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		nr_suites += filter_takes(filter, s->name);
	ktap("KTAP version 1\n1..%d\n", nr_suites);
	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++) {
		int suite_failed = 0;

		if (!filter_takes(filter, s->name))
			continue;
		ktap("    KTAP version 1\n    # Subtest: %s\n    1..%zu\n", s->name, s->nr_cases);
		for (size_t i = 0; i < s->nr_cases; i++) {
			bool ok = run_case(&s->cases[i]);

			ktap("    %sok %zu %s\n", ok ? "" : "not ", i + 1, s->cases[i].name);
			ok ? passed++ : (failed++, suite_failed++);
		}
		ktap("%sok %d %s\n", suite_failed ? "not " : "", ++suite_no, s->name);
	}
	ktap("# ktest: %d passed, %d failed\n", passed, failed);
	return failed;
}
