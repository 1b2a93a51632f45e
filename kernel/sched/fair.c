/*
 * Fair shares (the idea of Linux's CFS, kernel/sched/fair.c, simply) and
 * load balancing between the run queues.
 *
 * Each task's vruntime grows with the CPU time it gets, scaled by its
 * weight (its nice value's, Linux's table: each step of nice is about 10 %
 * of CPU time against a task one step away): nice 0 counts time as it is,
 * nice 19 68 times faster, nice -20 87 times slower.  A CPU runs the queued
 * task with the smallest vruntime; the tick makes the running one give way
 * whenever others wait (kernel/sched/core.c), so over time each runnable
 * task gets CPU time in proportion to its weight, and equal ones take
 * turns.  rq->min_vruntime follows the smallest vruntime of the running
 * and the queued tasks, never moving back (update_min_vruntime); a task
 * that leaves a queue keeps its vruntime relative to it, and one that
 * wakes from a sleep takes up the place it had, at most half a latency
 * below min_vruntime (place_entity): it runs next, ahead of the tasks
 * that ran while it slept, taking the CPU at once when it is well behind
 * the running one (check_preempt_wakeup_fair), but cannot bank sleep.  A new task
 * starts no earlier than its parent and a slice after min_vruntime
 * (Linux's task_fork_fair with START_DEBIT): a stream of short-lived
 * children cannot keep a CPU-bound task from running.  The queue is a
 * list searched at each pick (Linux: a red-black tree): a few tasks per CPU.
 *
 * Load balancing (Linux's load_balance and newidle_balance, simply): when
 * a CPU goes idle, and at each tick, it pulls one queued task from the
 * busiest other CPU if that one has two runnable tasks more than it (one
 * running, one waiting, for an idle puller).  Only a task whose mask
 * allows the puller moves, and never one still on a CPU.
 *
 * Locks: the run queue's (rq->lock) for everything of its tasks here.
 */
#include "kernel/sched/sched.h"
#include "linux/time64.h"

#define NICE_0_LOAD             1024
#define SCHED_LATENCY_NS        6000000         /* Linux's sysctl_sched_latency */
#define WAKEUP_GRAN_NS          1000000         /* Linux's sysctl_sched_wakeup_granularity */

/* The weight of nice -20 .. 19 (Linux's sched_prio_to_weight). */
static const unsigned int sched_prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

/* a before b on the vruntime clock (which may wrap: Linux's entity_before) */
static bool vruntime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* The weight of a task of nice value nice. */
static unsigned int nice_weight(int nice)
{
	return sched_prio_to_weight[nice + 20];
}

/*
 * min_vruntime moves up to the smaller of the running task's vruntime (if
 * it is runnable) and the smallest queued one, never back (Linux's
 * update_min_vruntime): waking and new tasks are placed against it.
 */
static void update_min_vruntime(struct rq *rq)
{
	struct task_struct *curr = rq->curr, *p;
	bool any = curr != rq->idle && curr->on_rq;
	u64 v = any ? curr->vruntime : rq->min_vruntime;

	list_for_each_entry(p, &rq->queue, run_list)
		if (!any || vruntime_before(p->vruntime, v)) {
			v = p->vruntime;
			any = true;
		}
	if (vruntime_before(rq->min_vruntime, v))
		rq->min_vruntime = v;
}

/*
 * curr's vruntime grows by the time since rq->curr_start, weighted
 * (Linux's update_curr), and min_vruntime follows, so a task that wakes
 * meanwhile is placed by the time that went by.
 */
void update_curr_fair(struct rq *rq)
{
	u64 now = ktime_get_ns(), delta = now - rq->curr_start;
	struct task_struct *curr = rq->curr;

	if ((s64)delta < 0)
		delta = 0;      /* stamped by another CPU whose clock read later */
	rq->curr_start = now;
	if (curr == rq->idle)
		return;
	curr->vruntime += delta * NICE_0_LOAD / nice_weight(READ_ONCE(curr->nice));
	update_min_vruntime(rq);
}

/*
 * Should p, just queued on rq, take the CPU from the task running there
 * now (Linux's check_preempt_wakeup)?  If it is behind that one by more
 * than a wakeup granularity (its weight's share of 1 ms) — a sleeper
 * placed with its credit — it runs at once, not at the next tick.  A new
 * task starts a slice on (task_fork_fair), so a fork does not switch.
 * rq locked.
 */
bool check_preempt_wakeup_fair(struct rq *rq, struct task_struct *p)
{
	u64 gran = WAKEUP_GRAN_NS * NICE_0_LOAD / nice_weight(p->nice);

	if (rq->curr == rq->idle)
		return false;
	update_curr_fair(rq);
	return (s64)(rq->curr->vruntime - p->vruntime) > (s64)gran;
}

/*
 * A new task's vruntime, relative to its queue's min_vruntime until it is
 * placed (Linux's task_fork_fair with START_DEBIT): its parent's (current,
 * on rq, locked), but at least one slice on — the share of a latency one
 * more task on rq would get, weighted by its nice value.
 */
void task_fork_fair(struct rq *rq, struct task_struct *p)
{
	u64 slice = SCHED_LATENCY_NS / (rq->nr_running + 1) * NICE_0_LOAD / nice_weight(p->nice);
	s64 parent;

	update_curr_fair(rq);
	parent = current->vruntime - rq->min_vruntime;
	p->vruntime = parent > (s64)slice ? (u64)parent : slice;
}

/*
 * The queued task with the smallest vruntime (the first of equals, so
 * equal tasks take turns) — but not the one that just called sched_yield
 * if another can run (Linux's skip buddy) — or NULL; min_vruntime moves
 * up to it, and the chosen task's time counts from now.
 */
struct task_struct *pick_next_task_fair(struct rq *rq)
{
	struct task_struct *p, *best = NULL;

	list_for_each_entry(p, &rq->queue, run_list)
		if (p != rq->skip && (!best || vruntime_before(p->vruntime, best->vruntime)))
			best = p;
	if (!best && rq->skip && rq->skip->on_rq && !list_empty(&rq->queue))
		best = rq->skip;                /* alone: the yield gives nothing away */
	rq->skip = NULL;
	update_min_vruntime(rq);
	rq->curr_start = ktime_get_ns();
	return best;
}

/*
 * p joins rq: its relative vruntime put on rq's clock — a sleeper waking
 * on the CPU it slept on where it stood then, as Linux keeps a sleeping
 * entity's vruntime, so that the time others ran meanwhile puts it
 * ahead — but no further back than half a latency before min_vruntime
 * (Linux's place_entity): it runs soon, and preempts a CPU-bound task
 * (check_preempt_wakeup_fair), without having banked its sleep.
 */
void place_entity(struct rq *rq, struct task_struct *p, bool sleeper)
{
	u64 floor = rq->min_vruntime - SCHED_LATENCY_NS / 2;

	if (sleeper && p->sleep_cpu == rq->cpu)
		p->vruntime += p->sleep_min_vruntime;
	else
		p->vruntime += rq->min_vruntime;
	if (sleeper && vruntime_before(p->vruntime, floor))
		p->vruntime = floor;
}

/* Lock two run queues, the lower CPU's first (so two pullers never deadlock). */
static void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a->cpu > b->cpu) {
		struct rq *t = a;

		a = b;
		b = t;
	}
	spin_lock(&a->lock);
	spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);
}

static void double_rq_unlock(struct rq *a, struct rq *b)
{
	spin_unlock(&a->lock);
	spin_unlock(&b->lock);
}

/* The online CPU other than this one with at least imbalance more runnable tasks, most first. */
static struct rq *find_busiest_queue(struct rq *this_rq, unsigned int imbalance)
{
	unsigned int most = READ_ONCE(this_rq->nr_running) + imbalance - 1, cpu;
	struct rq *busiest = NULL;

	for_each_online_cpu(cpu) {
		unsigned int n = READ_ONCE(cpu_rq(cpu)->nr_running);

		if (cpu != this_rq->cpu && n > most) {
			most = n;
			busiest = cpu_rq(cpu);
		}
	}
	return busiest;
}

/* Move queued task p from src to dst (both locked), as Linux's move_queued_task. */
static void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p)
{
	list_del(&p->run_list);
	deactivate_task(src, p);
	WRITE_ONCE(p->cpu, dst->cpu);
	update_curr_fair(dst);          /* min_vruntime as of now, as activate_task's */
	place_entity(dst, p, false);
	list_add_tail(&p->run_list, &dst->queue);
	dst->nr_running++;
	WRITE_ONCE(p->on_rq, 1);
}

/*
 * Pull one task to this_rq from the busiest queue if that one has at least
 * two more runnable tasks (checked again under both locks).  Whether a
 * task moved.  Interrupts off, no run queue lock held.
 */
bool load_balance(struct rq *this_rq)
{
	struct rq *busiest = find_busiest_queue(this_rq, 2);
	struct task_struct *p;
	bool moved = false;

	if (!busiest)
		return false;
	double_rq_lock(this_rq, busiest);
	if (busiest->nr_running >= this_rq->nr_running + 2) {
		list_for_each_entry(p, &busiest->queue, run_list) {
			if (cpumask_test_cpu(this_rq->cpu, &p->cpus_mask) && !READ_ONCE(p->on_cpu)) {
				move_queued_task(busiest, this_rq, p);
				moved = true;
				break;
			}
		}
	}
	double_rq_unlock(this_rq, busiest);
	return moved;
}
