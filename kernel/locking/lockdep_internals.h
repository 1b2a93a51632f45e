/*
 * What lockdep.c shares with lockdep_proc.c (Linux's
 * kernel/locking/lockdep_internals.h): the classes and the dependency list.
 */
#ifndef _KERNEL_LOCKING_LOCKDEP_INTERNALS_H
#define _KERNEL_LOCKING_LOCKDEP_INTERNALS_H

#include "linux/lockdep.h"
#include "linux/cpumask.h"

#define MAX_LOCKDEP_KEYS        256
#define MAX_LOCKDEP_ENTRIES     4096

/* The usage bits: in which contexts a class was ever taken. */
enum lock_usage_bit {
	LOCK_USED_IN_HARDIRQ,           /* in an interrupt handler */
	LOCK_ENABLED_HARDIRQ,           /* with interrupts enabled */
	LOCK_USAGE_STATES
};

/* Per CPU, for /proc/lock_stat (Linux's struct lock_class_stats). */
struct lock_class_stats {
	unsigned long contentions;      /* found taken, spun */
	unsigned long acquisitions;
	unsigned long long waittime;    /* cycles spun */
};

struct lock_class {
	const char *name;
	unsigned int subclass;
	unsigned int usage_mask;        /* BIT(enum lock_usage_bit) */
	unsigned long usage_ip[LOCK_USAGE_STATES];      /* where each was first seen */
	int locks_after;                /* first of its "taken after" entries, -1: none */
	unsigned int nr_after, nr_before;
	struct lock_class_stats stats[NR_CPUS];
};

/* One dependency "class -> next" (Linux's struct lock_list). */
struct lock_list {
	struct lock_class *class;       /* the lock taken after */
	unsigned long ip;               /* where, the first time */
	int next;                       /* the next entry of the same class, -1 */
};

/* Guarded by lockdep's graph lock; read racily by /proc. */
extern struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
extern unsigned int nr_lock_classes;
extern struct lock_list list_entries[MAX_LOCKDEP_ENTRIES];
extern unsigned int nr_list_entries, max_lockdep_depth;
extern bool debug_locks;

/* lockdep.c: entering (graph_lock, interrupts off) and reporting */
extern bool lockdep_expecting;
bool lockdep_enter(unsigned long *flags);
void lockdep_exit(unsigned long flags);
void report_begin(void);
void lockdep_report(const char *what);
struct lockdep_held *held_locks(void);

/* Print a report's line: nothing while a ktest expects reports. */
#define lpr(...) do {                                                        \
	if (!lockdep_expecting) {                                            \
		report_begin();                                              \
		printk(__VA_ARGS__);                                         \
	}                                                                    \
} while (0)

/* lockdep_report.c */
void print_ip_sym(const char *prefix, unsigned long ip);
void print_lock_name(const struct lock_class *class);
void print_held_locks(struct lockdep_held *h);
void print_banner(const char *title);

#endif
