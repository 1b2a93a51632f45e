/* Helpers of the host benchmarks (bench_rmap, bench_mm): a clock and medians. */
#ifndef TESTS_HOST_BENCH_UTIL_H
#define TESTS_HOST_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);   /* not the time other tasks ran */
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts v). */
static inline double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

#endif
