/*
 * /proc/pgtable_floor (foliOS's own, for make bench): the floor under fork
 * and munmap.  Writing "ADDR LEN" (hex or decimal) measures the bare
 * page-table work over that range of the writer's mm; reading gives
 * "copy C clear C ptes N pmds N" of the last measurement, whoever asked.
 *
 * Locks: the writer's mmap_lock for read while its tables are read (no
 * munmap frees them meanwhile); last_floor is written and read racily
 * (a benchmark's number).
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/pgtable.h"
#include <asm/timex.h>

/* What pgtable_floor() measured: cycles to copy and to clear, entries seen. */
struct pgtable_floor {
	u64 copy, clear;
	unsigned long ptes, pmds;
};

static struct pgtable_floor last_floor;

static u64 floor_clock(void)
{
	return get_cycles();
}

/*
 * The floor under fork and munmap (make bench): the bare page-table work
 * for [start, end) with no rmap, no refcount and no TLB flush — every
 * present PTE read and written write-protected into a scratch table (and
 * every PMD leaf likewise), then every present PTE's scratch slot cleared.
 * The live tables are only read.  clock() is the caller's cycle counter.
 */
static void pgtable_floor(pgd_t *pgd, unsigned long start, unsigned long end, pte_t *scratch,
		   u64 (*clock)(void), struct pgtable_floor *r)
{
	for (int pass = 0; pass < 2; pass++) {
		unsigned long addr = start, next;
		u64 t0 = clock();
		pmd_t *pmd;

		for (; (pmd = pmd_entry_next(pgd, &addr, end, &next)); addr = next) {
			unsigned long i, nr = (next - addr) >> PAGE_SHIFT;
			pte_t *pte;

			if (!pmd_present(*pmd) && !pmd_trans_huge(*pmd))
				continue;       /* a PMD migration entry: no table, no leaf */
			if (pmd_trans_huge(*pmd)) {
				scratch[0] = pass ? __pte(0) : pmd_pte(pmd_wrprotect(*pmd));
				r->pmds += !pass;
				continue;
			}
			pte = pte_offset_kernel(pmd, addr);
			for (i = 0; i < nr; i++) {
				if (!pte_present(pte[i]))
					continue;
				scratch[i] = pass ? __pte(0) : pte_wrprotect(pte[i]);
				r->ptes += !pass;
			}
		}
		*(pass ? &r->clear : &r->copy) = clock() - t0;
	}
}

static int pgtable_floor_store(struct file *file, char *buf, size_t len)
{
	struct mm_struct *mm = current->mm;
	unsigned long addr, size;
	const char *p;
	char cmd[64];
	pte_t *scratch;

	strlcpy(cmd, buf, sizeof(cmd));
	addr = simple_strtoul(cmd, &p, 0);
	while (*p == ' ')
		p++;
	size = simple_strtoul(p, &p, 0);
	if (!size || addr + size < addr || addr + size > TASK_SIZE_MAX || !mm)
		return -EINVAL;
	scratch = pte_alloc_one();
	if (!scratch)
		return -ENOMEM;
	memset(&last_floor, 0, sizeof(last_floor));
	mmap_read_lock(mm);
	pgtable_floor(mm->pgd, addr, addr + size, scratch, floor_clock, &last_floor);
	mmap_read_unlock(mm);
	pte_free(scratch);
	return 0;
}

static int pgtable_floor_show(struct seq_file *m, void *v)
{
	seq_printf(m, "copy %lu clear %lu ptes %lu pmds %lu\n", last_floor.copy, last_floor.clear,
		   last_floor.ptes, last_floor.pmds);
	return 0;
}

const struct proc_dir_entry proc_pgtable_floor = {
	"pgtable_floor", pgtable_floor_show, pgtable_floor_store,
};
