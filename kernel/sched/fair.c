/*
 * Load balancing between the run queues (the idea of Linux's
 * kernel/sched/fair.c load_balance and newidle_balance, simply): when a
 * CPU goes idle, and at each tick, it pulls one queued task from the
 * busiest other CPU if that one has two runnable tasks more than it (one
 * running, one waiting, for an idle puller).  Only a task whose mask allows
 * the puller moves, and never one still on a CPU.
 */
#include "kernel/sched/sched.h"

/* Lock two run queues, the lower CPU's first (so two pullers never deadlock). */
static void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a->cpu > b->cpu) {
		struct rq *t = a;

		a = b;
		b = t;
	}
	spin_lock(&a->lock);
	spin_lock(&b->lock);
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
