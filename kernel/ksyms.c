/*
 * Symbol lookup for backtraces.  The final link embeds a table of the
 * kernel's text symbols, sorted by address (Linux's kallsyms, simplified):
 *
 *   ksyms_nr           number of symbols
 *   ksyms_addrs[i]     start address of symbol i
 *   ksyms_names        their NUL-terminated names, in the same order
 *
 * The first link embeds an empty table; see the Makefile.
 */
#include "linux/ksyms.h"
#include "linux/printk.h"
#include "linux/string.h"

extern const unsigned long ksyms_nr;
extern const unsigned long ksyms_addrs[];
extern const char ksyms_names[];
extern char _etext[];

int ksym_format(unsigned long addr, char *buf, size_t size)
{
	unsigned long lo = 0, hi = ksyms_nr, end;
	const char *name = ksyms_names;

	if (!ksyms_nr || addr < ksyms_addrs[0] || addr >= (unsigned long)_etext)
		return snprintf(buf, size, "?");
	while (hi - lo > 1) {           /* last symbol starting at or below addr */
		unsigned long mid = (lo + hi) / 2;

		if (ksyms_addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	for (unsigned long i = 0; i < lo; i++)
		name += strlen(name) + 1;
	end = lo + 1 < ksyms_nr ? ksyms_addrs[lo + 1] : (unsigned long)_etext;
	return snprintf(buf, size, "%s+%#lx/%#lx", name, addr - ksyms_addrs[lo],
			end - ksyms_addrs[lo]);
}
