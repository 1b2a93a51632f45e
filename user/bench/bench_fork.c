/*
 * Benchmark: fork + child _exit + waitpid of a process with 1, 16 and 64 MiB
 * of touched 4 KiB anon memory (THP off where the kernel has it, so Linux
 * uses 4 KiB pages too).  Guest cycles by rdtsc; run under --icount (one
 * cycle per instruction) on foliOS and on the Linux peer.  Median of 5.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <x86intrin.h>

#ifndef MADV_NOHUGEPAGE
#define MADV_NOHUGEPAGE 15
#endif

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static const int sizes_mib[] = { 1, 16, 64 };

	for (unsigned int s = 0; s < 3; s++) {
		size_t len = (size_t)sizes_mib[s] << 20;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned long long t[5];

		if (p == MAP_FAILED)
			return 1;
		madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t i = 0; i < len; i += 4096)
			p[i] = 1;
		for (int r = 0; r < 5; r++) {
			unsigned long long t0 = __rdtsc();
			pid_t pid = fork();

			if (pid == 0)
				_exit(0);
			waitpid(pid, NULL, 0);
			t[r] = __rdtsc() - t0;
		}
		qsort(t, 5, sizeof(t[0]), cmp);
		printf("bench fork+exit+wait %2d MiB: %llu cycles (median of 5)\n", sizes_mib[s], t[2]);
		munmap(p, len);
	}
	return 0;
}
