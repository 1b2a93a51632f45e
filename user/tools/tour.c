/*
 * tour: the life of a 2 MiB folio, step by step, as docs/tour.md tells it:
 * the fault maps a THP with one PMD; fork shares it; the child's write
 * splits the child's PMD and copies one page; after the child exits the
 * parent's write reuses the whole THP; munmap of half of it splits the
 * PMD; deferred split gives the unmapped half back to the buddy.  Each
 * step prints what pagemap, /proc/folio and /proc/meminfo show.
 */
#include "thp_util.h"

static void show_folio(const char *who, const char *p)
{
	struct folio_view v;

	folio_at(p, &v);
	printf("  %s: pfn %#lx in folio %#lx order %ld: refcount %ld, large_mapcount %ld, "
	       "entire_mapcount %ld\n", who, pfn_of(p), v.head_pfn, v.order, v.refcount,
	       v.large_mapcount, v.entire_mapcount);
	printf("  %s: slot0 pid %ld (%ld), slot1 pid %ld (%ld), maybe_mapped_shared %ld, "
	       "partially_mapped %ld\n", who, v.mm_id_pid[0], v.mm_id_mapcount[0],
	       v.mm_id_pid[1], v.mm_id_mapcount[1], v.shared, v.partially_mapped);
}

int main(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);
	long huge = meminfo_kb("AnonHugePages"), free0;
	unsigned long pfn3;
	int go[2], rep[2], c = 0;
	pid_t child;

	printf("step 1: write one byte into 2 MiB of fresh anon memory (pid %d)\n", getpid());
	thp_only(2048);
	p[0] = 1;
	thp_only(0);
	printf("  pagemap: 512 pages on consecutive PFNs: %s\n", pfns_contiguous(p, 512) ? "yes" : "no");
	printf("  meminfo: AnonHugePages %+ld kB\n", meminfo_kb("AnonHugePages") - huge);
	show_folio("parent", p);
	pfn3 = pfn_of(p + 3 * PAGE);

	printf("step 2: fork; the child writes page 3\n");
	pipe(go), pipe(rep);
	if (!(child = fork())) {
		p[3 * PAGE] = 2;
		printf("  child: page 3 now at a new pfn: %s; page 4 still in the THP: %s\n",
		       pfn_of(p + 3 * PAGE) != pfn3 ? "yes" : "no",
		       pfn_of(p + 4 * PAGE) == pfn3 + 1 ? "yes" : "no");
		fflush(stdout);
		write(rep[1], &c, sizeof(c));
		read(go[0], &c, sizeof(c));
		_exit(0);
	}
	read(rep[0], &c, sizeof(c));
	show_folio("parent", p);

	printf("step 3: the child exits; the parent writes page 3\n");
	write(go[1], &c, sizeof(c));
	wait_exit(child);
	show_folio("parent", p);
	p[3 * PAGE] = 3;
	printf("  parent: page 3 kept its pfn (reused): %s\n", pfn_of(p + 3 * PAGE) == pfn3 ? "yes" : "no");
	show_folio("parent", p);

	printf("step 4: munmap the first 1 MiB\n");
	munmap(p, PMD_SIZE / 2);
	show_folio("parent", p + PMD_SIZE / 2);
	/*
	 * The child's fd table is freed after an RCU grace period (fs/file.c);
	 * the knob below waits for pending RCU frees (rcu_barrier), so let them
	 * happen first.  The knob also empties the per-CPU LRU batches, whose
	 * references may hold a few pages the child freed (its copies): MemFree
	 * is shown in MiB, the split's 256 pages.
	 */
	usleep(100000);
	free0 = meminfo_kb("MemFree");
	printf("step 5: echo 1 > /sys/kernel/mm/transparent_hugepage/split_deferred\n");
	split_deferred();
	printf("  meminfo: MemFree %+ld MiB\n", (meminfo_kb("MemFree") - free0) / 1024);
	show_folio("parent", p + PMD_SIZE / 2);
	munmap(p + PMD_SIZE / 2, PMD_SIZE / 2);
	return 0;
}
