/* Printing a CPU mask (Linux's lib/cpumask.c and bitmap_print_to_pagebuf). */
#include "linux/cpumask.h"
#include "linux/printk.h"

/*
 * Write m as ranges, "0-3,6", plus a newline, as sysfs's
 * /sys/devices/system/cpu/online shows it; returns the length.
 */
int cpumap_print_list(char *buf, size_t size, const struct cpumask *m)
{
	unsigned int first, last;
	int n = 0;

	for (first = cpumask_next_from(0, m); first < NR_CPUS;
	     first = cpumask_next_from(last + 1, m)) {
		for (last = first; last + 1 < NR_CPUS && cpumask_test_cpu(last + 1, m); last++)
			;
		n += snprintf(buf + n, size - n, n ? ",%u" : "%u", first);
		if (last > first)
			n += snprintf(buf + n, size - n, "-%u", last);
	}
	return n + snprintf(buf + n, size - n, "\n");
}
