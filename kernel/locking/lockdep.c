/*
 * The lock validator (Linux's kernel/locking/lockdep.c, small): lock
 * classes by name, each task's stack of held locks, the graph of "taken
 * while held" dependencies with a cycle check, the hardirq-safety of each
 * class, and sleeping in atomic context.  Every report panics, so a run of
 * make test cannot go on past one (a ktest case lockdep_expecting one says so with
 * lockdep_expect_reports and only counts it).
 *
 * Locking: the class table and the graph are guarded by graph_lock, a raw
 * spinning word taken with interrupts off; lockdep_recursion[cpu] keeps
 * lockdep out of the locks its own printing takes.  A report turns lockdep
 * off and drops graph_lock before it prints (as Linux's
 * debug_locks_off_graph_unlock): printk's logbuf_lock comes before it.  A task's held-lock
 * stack is only touched by that task (and by the interrupt handlers that
 * run on its stack, which leave it as they found it).
 */
#include "kernel/locking/lockdep_internals.h"
#include "linux/sched.h"
#include "linux/smp.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/preempt.h"
#include <asm/irqflags.h>
#include <asm/processor.h>

struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
unsigned int nr_lock_classes;
struct lock_list list_entries[MAX_LOCKDEP_ENTRIES];
unsigned int nr_list_entries, max_lockdep_depth;
bool debug_locks = IS_ENABLED(CONFIG_LOCKDEP);

static int graph_lock_word;
static int lockdep_recursion[NR_CPUS];
static struct lockdep_held boot_held[NR_CPUS]; /* no task yet: boot, ktest, an AP's idle loop */
bool lockdep_expecting;                 /* ktest: count reports, print nothing */
static unsigned long nr_reports;
static const char *pending_report;      /* panic with this once the graph lock is dropped */
static bool graph_released[NR_CPUS];    /* this CPU's report dropped graph_lock */

/* Before a report prints: lockdep off, graph_lock free for the other CPUs. */
void report_begin(void)
{
	unsigned int cpu = smp_processor_id();

	if (graph_released[cpu])
		return;
	debug_locks = false;
	graph_released[cpu] = true;
	__atomic_store_n(&graph_lock_word, 0, __ATOMIC_RELEASE);
}

struct lockdep_held *held_locks(void)
{
	struct task_struct *t = current;

	return t ? &t->lockdep : &boot_held[smp_processor_id()];
}

/* Enter lockdep with interrupts off; false (nothing to do) when it is off or re-entered. */
bool lockdep_enter(unsigned long *flags)
{
	*flags = arch_local_irq_save();
	if (!debug_locks || lockdep_recursion[smp_processor_id()]) {
		arch_local_irq_restore(*flags);
		return false;
	}
	lockdep_recursion[smp_processor_id()] = 1;
	while (__atomic_exchange_n(&graph_lock_word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	return true;
}

/* Leave lockdep; a report made inside ends here, in a panic unless expected. */
void lockdep_exit(unsigned long flags)
{
	const char *what = pending_report;

	pending_report = NULL;
	if (!graph_released[smp_processor_id()])
		__atomic_store_n(&graph_lock_word, 0, __ATOMIC_RELEASE);
	graph_released[smp_processor_id()] = false;
	lockdep_recursion[smp_processor_id()] = 0;
	arch_local_irq_restore(flags);
	if (what)
		panic("lockdep: %s", what);
}

/* Record a report; the caller has printed it (unless expected). */
void lockdep_report(const char *what)
{
	nr_reports++;
	if (lockdep_expecting)
		return;
	debug_locks = false;            /* as Linux: one report, then quiet */
	pending_report = what;
}

void lockdep_expect_reports(bool on)
{
	lockdep_expecting = on;
}

unsigned long lockdep_nr_reports(void)
{
	return nr_reports;
}

/* The class of this lock and subclass, registered at its first use; NULL if full. */
static struct lock_class *look_up_lock_class(struct lockdep_map *map, unsigned int subclass)
{
	struct lock_class *class;
	unsigned int i;

	if (!subclass && map->class_cache)
		return &lock_classes[map->class_cache - 1];
	for (i = 0; i < nr_lock_classes; i++) {
		class = &lock_classes[i];
		if (class->subclass == subclass &&
		    (class->name == map->name || !strcmp(class->name, map->name)))
			goto found;
	}
	if (nr_lock_classes == MAX_LOCKDEP_KEYS) {
		lpr("BUG: MAX_LOCKDEP_KEYS too low!\n");
		lockdep_report("too many lock classes");
		return NULL;
	}
	class = &lock_classes[nr_lock_classes++];
	class->name = map->name ? map->name : "(unnamed)";
	class->subclass = subclass;
	class->locks_after = -1;
found:
	if (!subclass)
		map->class_cache = i + 1;
	return class;
}

static const char *const usage_str[] = { "IN-HARDIRQ-W", "HARDIRQ-ON-W" };

/* A class taken in a hardirq and also with interrupts on: the handler can deadlock on it. */
static void print_usage_bug(struct lock_class *class, enum lock_usage_bit prev,
			    enum lock_usage_bit new, unsigned long ip)
{
	print_banner("inconsistent lock state");
	lpr("inconsistent {%s} -> {%s} usage.\ntakes: ", usage_str[prev], usage_str[new]);
	print_lock_name(class);
	print_ip_sym(", at: ", ip);
	lpr("{%s} state was registered at:\n", usage_str[prev]);
	print_ip_sym("  ", class->usage_ip[prev]);
	lpr("\n Possible unsafe locking scenario:\n\n       CPU0\n       ----\n  lock(%s);\n"
	    "  <Interrupt>\n    lock(%s);\n\n *** DEADLOCK ***\n\n", class->name, class->name);
	print_held_locks(held_locks());
	lockdep_report("inconsistent lock state");
}

/* Mark the context class is taken in; report a hardirq-safe class taken with interrupts on. */
static void mark_usage(struct lock_class *class, bool hardirq, bool irqs_off, unsigned long ip)
{
	enum lock_usage_bit new, other;

	if (hardirq)
		new = LOCK_USED_IN_HARDIRQ, other = LOCK_ENABLED_HARDIRQ;
	else if (!irqs_off)
		new = LOCK_ENABLED_HARDIRQ, other = LOCK_USED_IN_HARDIRQ;
	else
		return;
	if (!(class->usage_mask & BIT(new))) {
		class->usage_mask |= BIT(new);
		class->usage_ip[new] = ip;
	}
	if (class->usage_mask & BIT(other))
		print_usage_bug(class, other, new, ip);
}

static struct lock_list *find_dependency(struct lock_class *from, struct lock_class *to)
{
	for (int e = from->locks_after; e >= 0; e = list_entries[e].next)
		if (list_entries[e].class == to)
			return &list_entries[e];
	return NULL;
}

/*
 * Is target reachable from source along recorded dependencies?  Breadth
 * first; parent[] (entries, by class index) then gives the path back.
 */
static bool check_path(struct lock_class *source, struct lock_class *target, int *parent)
{
	static unsigned int queue[MAX_LOCKDEP_KEYS];
	static bool seen[MAX_LOCKDEP_KEYS];
	unsigned int head = 0, tail = 0;

	memset(seen, 0, sizeof(seen));
	queue[tail++] = source - lock_classes;
	seen[source - lock_classes] = true;
	while (head < tail) {
		struct lock_class *c = &lock_classes[queue[head++]];

		for (int e = c->locks_after; e >= 0; e = list_entries[e].next) {
			unsigned int n = list_entries[e].class - lock_classes;

			if (seen[n])
				continue;
			seen[n] = true;
			parent[n] = e | (int)((c - lock_classes) << 16);
			if (&lock_classes[n] == target)
				return true;
			queue[tail++] = n;
		}
	}
	return false;
}

/* The chain next -> ... -> prev already recorded, printed from prev back to next. */
static void print_circular_chain(struct lock_class *next, struct lock_class *prev, int *parent)
{
	struct lock_class *c = prev;
	int n = 1;

	lpr("\nthe existing dependency chain (in reverse order) is:\n");
	while (c != next) {
		int p = parent[c - lock_classes];
		struct lock_class *from = &lock_classes[p >> 16];

		lpr("-> #%d ", n++);
		print_lock_name(c);
		lpr(" taken while holding ");
		print_lock_name(from);
		print_ip_sym(", at: ", list_entries[p & 0xffff].ip);
		c = from;
	}
}

static void print_circular_bug(struct held_lock *prev, struct lock_class *next,
			       unsigned long ip, int *parent)
{
	print_banner("possible circular locking dependency detected");
	lpr("is trying to acquire lock:\n");
	print_lock_name(next);
	print_ip_sym(", at: ", ip);
	lpr("\nbut task is already holding lock:\n");
	print_lock_name(prev->class);
	print_ip_sym(", at: ", prev->acquire_ip);
	lpr("\nwhich lock already depends on the new lock.\n");
	print_circular_chain(next, prev->class, parent);
	lpr("-> #0 ");
	print_lock_name(next);
	lpr(" taken while holding ");
	print_lock_name(prev->class);
	print_ip_sym(", at: ", ip);
	lpr("\n Possible unsafe locking scenario:\n\n       CPU0                    CPU1\n"
	    "       ----                    ----\n  lock(%s);\n                               lock(%s);\n"
	    "                               lock(%s);\n  lock(%s);\n\n *** DEADLOCK ***\n\n",
	    prev->class->name, next->name, prev->class->name, next->name);
	print_held_locks(held_locks());
	lockdep_report("possible circular locking dependency");
}

/* Record prev -> next unless it is there; report if next already leads to prev. */
static void check_prev_add(struct held_lock *prev, struct lock_class *next, unsigned long ip)
{
	static int parent[MAX_LOCKDEP_KEYS];
	struct lock_list *entry;

	if (find_dependency(prev->class, next))
		return;
	if (check_path(next, prev->class, parent)) {
		print_circular_bug(prev, next, ip, parent);
		return;
	}
	if (nr_list_entries == MAX_LOCKDEP_ENTRIES) {
		lpr("BUG: MAX_LOCKDEP_ENTRIES too low!\n");
		lockdep_report("too many lock dependencies");
		return;
	}
	entry = &list_entries[nr_list_entries];
	entry->class = next;
	entry->ip = ip;
	entry->next = prev->class->locks_after;
	prev->class->locks_after = nr_list_entries++;
	prev->class->nr_after++;
	next->nr_before++;
}

static void print_deadlock_bug(struct held_lock *prev, struct lock_class *next, unsigned long ip)
{
	print_banner("possible recursive locking detected");
	lpr("trying to acquire lock:\n");
	print_lock_name(next);
	print_ip_sym(", at: ", ip);
	lpr("\nbut task is already holding lock:\n");
	print_lock_name(prev->class);
	print_ip_sym(", at: ", prev->acquire_ip);
	lpr("\n Possible unsafe locking scenario:\n\n       CPU0\n       ----\n  lock(%s);\n"
	    "  lock(%s);\n\n *** DEADLOCK ***\n\n May be due to missing lock nesting notation\n\n",
	    next->name, next->name);
	print_held_locks(held_locks());
	lockdep_report("possible recursive locking");
}

/*
 * The dependencies a new lock adds: on each held lock of the same context
 * (a hardirq's locks start a chain of their own), down to the first one
 * not taken by trylock; the one below it already led there.  The same class
 * held twice is a self-deadlock (spin_lock_nested names a subclass).
 */
static void check_prevs_add(struct lockdep_held *h, struct lock_class *next,
			    bool hardirq, unsigned long ip)
{
	for (int i = h->depth - 1; i >= 0 && h->locks[i].hardirq == hardirq; i--)
		if (h->locks[i].class == next) {
			print_deadlock_bug(&h->locks[i], next, ip);
			return;
		}
	for (int i = h->depth - 1; i >= 0; i--) {
		struct held_lock *prev = &h->locks[i];

		if (prev->hardirq != hardirq)
			break;
		check_prev_add(prev, next, ip);
		if (!prev->trylock)
			break;
	}
}

static void __lock_acquire(struct lockdep_map *map, const void *instance, unsigned int subclass,
			   bool trylock, bool irqs_off, unsigned long ip)
{
	struct lockdep_held *h = held_locks();
	bool hardirq = in_hardirq();
	struct lock_class *class;
	struct held_lock *hl;

	if (subclass >= MAX_LOCKDEP_SUBCLASSES)
		panic("lock_acquire: subclass %u of %s", subclass, map->name);
	class = look_up_lock_class(map, subclass);
	if (!class)
		return;
	class->stats[smp_processor_id()].acquisitions++;
	mark_usage(class, hardirq, irqs_off, ip);
	if (!trylock)
		check_prevs_add(h, class, hardirq, ip);
	if (h->depth == MAX_LOCK_DEPTH) {
		lpr("BUG: MAX_LOCK_DEPTH too low!\n");
		print_held_locks(h);
		lockdep_report("too many locks held");
		return;
	}
	hl = &h->locks[h->depth++];
	*hl = (struct held_lock){ instance, class, ip, hardirq, trylock };
	if ((unsigned int)h->depth > max_lockdep_depth)
		max_lockdep_depth = h->depth;
}

/*
 * The lock at instance (of map's class and subclass) is about to be taken
 * (trylock: has been taken).  Checks the order against every dependency
 * recorded so far and the interrupt context; then it is held.
 */
void lock_acquire(struct lockdep_map *map, const void *instance, unsigned int subclass,
		  bool trylock, unsigned long ip)
{
	bool irqs_off = irqs_disabled();
	unsigned long flags;

	if (!lockdep_enter(&flags))
		return;
	__lock_acquire(map, instance, subclass, trylock, irqs_off, ip);
	lockdep_exit(flags);
}

static void print_unlock_imbalance_bug(const void *instance, unsigned long ip)
{
	print_banner("bad unlock balance detected!");
	lpr("is trying to release lock %p", instance);
	print_ip_sym(" at: ", ip);
	lpr("but there are no more locks to release!\n");
	print_held_locks(held_locks());
	lockdep_report("bad unlock balance");
}

/* The lock at instance is released; locks may go in any order. */
void lock_release(const void *instance, unsigned long ip)
{
	struct lockdep_held *h;
	unsigned long flags;
	int i;

	if (!lockdep_enter(&flags))
		return;
	h = held_locks();
	for (i = h->depth - 1; i >= 0 && h->locks[i].instance != instance; i--)
		;
	if (i < 0)
		print_unlock_imbalance_bug(instance, ip);
	else
		memmove(&h->locks[i], &h->locks[i + 1], (--h->depth - i) * sizeof(h->locks[0]));
	lockdep_exit(flags);
}

/* Does this task hold the lock at instance?  (true when lockdep is off) */
bool lock_is_held(const void *instance)
{
	struct lockdep_held *h = held_locks();

	if (!debug_locks)
		return true;
	for (int i = 0; i < h->depth; i++)
		if (h->locks[i].instance == instance)
			return true;
	return false;
}

/* A spinlock was found taken and spun on for cycles (for /proc/lock_stat). */
void lock_contended_stat(struct lockdep_map *map, unsigned long long cycles)
{
	struct lock_class_stats *st;
	unsigned long flags;

	if (!map->class_cache || !lockdep_enter(&flags))
		return;
	st = &lock_classes[map->class_cache - 1].stats[smp_processor_id()];
	st->contentions++;
	st->waittime += cycles;
	lockdep_exit(flags);
}
