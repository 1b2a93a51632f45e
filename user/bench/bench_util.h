/*
 * What the guest benchmarks share: the median of their runs.
 */
#ifndef USER_BENCH_BENCH_UTIL_H
#define USER_BENCH_BENCH_UTIL_H

/* The median of the n cycle counts in t (sorted in place). */
static inline unsigned long long median_of(unsigned long long *t, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (t[j] < t[i]) {
				unsigned long long x = t[i];

				t[i] = t[j];
				t[j] = x;
			}
	return t[n / 2];
}

#endif
