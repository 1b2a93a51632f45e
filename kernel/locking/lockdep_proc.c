/*
 * The validator's /proc files (Linux's kernel/locking/lockdep_proc.c):
 * /proc/lockdep (every class, its usage, and the classes taken while it is
 * held), /proc/lockdep_stats (the counts against the table sizes) and
 * /proc/lock_stat (per class: contentions, cycles waited, acquisitions,
 * summed over the CPUs; with the mapcount bit lock's row always, lockdep
 * or not; writing "0" clears the counts, as Linux's does, so a benchmark
 * can read what one run of it cost).  Read without the graph lock: a snapshot that may be torn by
 * a concurrent first use, never pointing outside the tables.
 */
#include "kernel/locking/lockdep_internals.h"
#include "linux/proc_fs.h"
#include "linux/string.h"
#include "linux/rmap.h"

static void print_name(struct seq_file *m, const struct lock_class *class)
{
	if (class->subclass)
		seq_printf(m, "%s/%u", class->name, class->subclass);
	else
		seq_printf(m, "%s", class->name);
}

static int lockdep_show(struct seq_file *m, void *v)
{
	unsigned int n = READ_ONCE(nr_lock_classes);

	seq_printf(m, "all lock classes:\n");
	for (unsigned int i = 0; i < n; i++) {
		struct lock_class *class = &lock_classes[i];

		seq_printf(m, "FD: %4u BD: %4u %c%c: ", class->nr_after, class->nr_before,
			   class->usage_mask & BIT(LOCK_USED_IN_HARDIRQ) ? '+' : '.',
			   class->usage_mask & BIT(LOCK_ENABLED_HARDIRQ) ? '+' : '.');
		print_name(m, class);
		seq_printf(m, "\n");
		for (int e = class->locks_after; e >= 0; e = list_entries[e].next) {
			seq_printf(m, " -> ");
			print_name(m, list_entries[e].class);
			seq_printf(m, "\n");
		}
	}
	return 0;
}

static int lockdep_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, " lock-classes:                  %5u [max: %u]\n", nr_lock_classes,
		   MAX_LOCKDEP_KEYS);
	seq_printf(m, " direct dependencies:           %5u [max: %u]\n", nr_list_entries,
		   MAX_LOCKDEP_ENTRIES);
	seq_printf(m, " max locking depth:             %5u\n", max_lockdep_depth);
	seq_printf(m, " reports:                       %5lu\n", lockdep_nr_reports());
	seq_printf(m, " debug_locks:                   %5d\n", debug_locks);
	return 0;
}

static void lock_stat_row(struct seq_file *m, const char *name, unsigned long contentions,
			  unsigned long long waittime, unsigned long acquisitions)
{
	seq_printf(m, "%40s: %14lu %16llu %14lu\n", name, contentions, waittime, acquisitions);
}

/* The mapcount bit lock: the sum over CPUs, then each CPU that took it. */
static void mapcount_lock_stat_show(struct seq_file *m)
{
	struct bit_spin_lock_stats sum = { 0 };

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		sum.acquisitions += mapcount_lock_stats[cpu].acquisitions;
		sum.contentions += mapcount_lock_stats[cpu].contentions;
		sum.spins += mapcount_lock_stats[cpu].spins;
		sum.cycles += mapcount_lock_stats[cpu].cycles;
	}
	lock_stat_row(m, "folio mapcount bit lock", sum.contentions, sum.cycles, sum.acquisitions);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct bit_spin_lock_stats *st = &mapcount_lock_stats[cpu];

		if (st->acquisitions)
			seq_printf(m, "%40s%d: acquisitions %lu contentions %lu spins %lu cycles %llu\n",
				   "cpu", cpu, st->acquisitions, st->contentions, st->spins, st->cycles);
	}
}

static int lock_stat_show(struct seq_file *m, void *v)
{
	unsigned int n = READ_ONCE(nr_lock_classes);
	char name[48];

	seq_printf(m, "lock_stat version 0.4 (foliOS: waittime in cycles)\n");
	seq_printf(m, "%40s  %14s %16s %14s\n", "class name", "contentions", "waittime-total",
		   "acquisitions");
	mapcount_lock_stat_show(m);
	for (unsigned int i = 0; i < n; i++) {
		struct lock_class *class = &lock_classes[i];
		struct lock_class_stats sum = { 0 };

		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			sum.contentions += class->stats[cpu].contentions;
			sum.waittime += class->stats[cpu].waittime;
			sum.acquisitions += class->stats[cpu].acquisitions;
		}
		snprintf(name, sizeof(name), class->subclass ? "%s/%u" : "%s", class->name,
			 class->subclass);
		lock_stat_row(m, name, sum.contentions, sum.waittime, sum.acquisitions);
	}
	return 0;
}

/*
 * Linux's lock_stat_write: "0" zeroes every CPU's counts of every class
 * and of the mapcount bit lock; anything else is accepted and ignored.
 * Counts taken on other CPUs meanwhile may survive the clear or be lost.
 */
static int lock_stat_write(struct file *file, char *buf, size_t len)
{
	unsigned int n = READ_ONCE(nr_lock_classes);

	if (!len || buf[0] != '0')
		return 0;
	memset(mapcount_lock_stats, 0, sizeof(mapcount_lock_stats));
	for (unsigned int i = 0; i < n; i++)
		memset(lock_classes[i].stats, 0, sizeof(lock_classes[i].stats));
	return 0;
}

const struct proc_dir_entry proc_lockdep = { "lockdep", lockdep_show };
const struct proc_dir_entry proc_lockdep_stats = { "lockdep_stats", lockdep_stats_show };
const struct proc_dir_entry proc_lock_stat = { "lock_stat", lock_stat_show, lock_stat_write };
