/*
 * The host stand-ins for kernel/ services used by mm/ (see hostenv.h).
 * Locks: each test thread is a CPU; the stand-ins' sleeps yield to the
 * host's scheduler and hold no lock of their own.
 */
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "linux/sched/signal.h"
#include "linux/printk.h"
#include "linux/wait.h"
#include "linux/rcupdate.h"
#include <pthread.h>
#include "linux/memblock.h"
#include "linux/mm.h"
#include "linux/uaccess.h"
#include "linux/swap.h"
#include "linux/errno.h"
#include "linux/capability.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sched.h>

char *host_phys_base;
static size_t host_phys_size;
int console_loglevel = 0;
unsigned long nr_warnings;
static char log_capture[1 << 16];
static size_t log_len;

const char *host_log(void)
{
	return log_capture;
}

void host_log_clear(void)
{
	log_len = 0;
	log_capture[0] = '\0';
}

int vprintk(const char *fmt, va_list ap)
{
	int n;

	if (fmt[0] == '\001' && fmt[1])
		fmt += 2;
	n = vsnprintf(log_capture + log_len, sizeof(log_capture) - log_len, fmt, ap);
	if (n > 0)
		log_len = MIN(log_len + n, sizeof(log_capture) - 1);
	if (getenv("FOLIOS_HOST_VERBOSE"))
		fputs(log_capture + log_len - MIN((size_t)n, log_len), stderr);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void panic(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "host panic: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", log_capture);
	abort();
}

void warn_slowpath(const char *file, int line, const char *cond)
{
	nr_warnings++;
	printk(KERN_WARNING "WARNING: %s:%d: %s\n", file, line, cond);
}

void host_machine_shutdown(void)
{
	rcu_barrier();                  /* callbacks free memory of this machine */
	if (host_phys_base)
		munmap(host_phys_base, host_phys_size);
	host_phys_base = NULL;
}

/*
 * Boot a machine like kmain does: RAM from 1 MiB up (the first MiB is
 * "firmware"), memblock, memmap, buddy.  Resets all allocator state.
 */
void host_machine_boot(size_t bytes)
{
	host_machine_shutdown();
	host_phys_size = bytes;
	host_phys_base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (host_phys_base == MAP_FAILED)
		panic("host_machine_boot: mmap of %zu bytes failed", bytes);
	memset(&memblock, 0, sizeof(memblock));
	memblock.alloc_limit = ~0UL;
	memset(&zone, 0, sizeof(zone));
	nr_pagetable_pages = 0;
	nr_bad_pages = 0;
	nr_warnings = 0;
	memset(host_rlimit, 0xff, sizeof(host_rlimit));
	softmmu_reset();
	host_log_clear();
	memblock_add(1UL << 20, bytes - (1UL << 20));
	mem_init();
	lru_add_batch_size = 1;         /* no folio waits in a batch: refcounts as the tests expect */
}

/* The mapcount trace's PID: the host tests have no tasks. */
int rmap_trace_pid(void)
{
	return 0;
}

/* lib/string.c's number parser, for mm/ code built on the host. */
unsigned long simple_strtoul(const char *s, const char **end, unsigned int base)
{
	char *e;
	unsigned long v = strtoul(s, &e, base);

	if (end)
		*end = e;
	return v;
}

/* The host tests' resource limits: one set for the whole fake machine. */
unsigned long host_rlimit[RLIM_NLIMITS][2];

unsigned long rlimit(unsigned int resource)
{
	return host_rlimit[resource][0];
}

unsigned long rlimit_max(unsigned int resource)
{
	return host_rlimit[resource][1];
}

/* The host tests run as root with every capability (mm/mlock.c asks for CAP_IPC_LOCK). */
bool capable(int cap)
{
	return true;
}

/* Fault injection's task filter: the host tests have no tasks. */
bool fault_inject_task_allowed(void)
{
	return true;
}

unsigned long host_min_flt, host_maj_flt;

/* The host's "task" is the test: it counts faults as one (handle_mm_fault). */
void task_account_fault(bool major)
{
	__atomic_add_fetch(major ? &host_maj_flt : &host_min_flt, 1, __ATOMIC_RELAXED);
}

/* User memory: the host tests' "user" buffers are ordinary host memory. */
unsigned long copy_to_user(void *udst, const void *src, unsigned long n)
{
	memcpy(udst, src, n);
	return 0;
}

/* A VMA's file reference dropped: the host tests' files are static (a test may count them). */
struct file;
__attribute__((weak)) void fput(struct file *f)
{
}

/* MAP_SHARED|MAP_ANONYMOUS: mm/shmem.c is not built for the host, so there is no shmem object. */
struct vm_area_struct;
int shmem_zero_setup(struct vm_area_struct *vma)
{
	return -ENOMEM;
}

/* Nor shmem's swap: no page cache on the host holds a value entry for read(2) to swap in. */
struct inode;
struct folio;
int shmem_get_folio(struct inode *inode, unsigned long index, long long write_end,
		    struct folio **foliop, int sgp)
{
	panic("shmem_get_folio: no shmem on the host");
}

/* MADV_REMOVE's hole punch: the host tests' files have no fallocate. */
long vfs_fallocate(struct file *file, int mode, long offset, long len)
{
	return -EOPNOTSUPP;
}

/*
 * RCU (<linux/rcupdate.h>): a callback waits on a list until rcu_barrier(),
 * which the tests call between phases, with no thread inside a reader
 * (their threads joined), and host_machine_shutdown() calls.  So whatever
 * the threads of a concurrent test do, no node a reader may hold is freed
 * under it.  Grace periods themselves are the kernel's (kernel/rcu/tree.c,
 * tested by ktest rcu).
 */
static pthread_mutex_t host_rcu_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rcu_head *host_rcu_head, **host_rcu_tail = &host_rcu_head;

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	head->func = func;
	head->next = NULL;
	pthread_mutex_lock(&host_rcu_lock);
	*host_rcu_tail = head;
	host_rcu_tail = &head->next;
	pthread_mutex_unlock(&host_rcu_lock);
}

/* Run every queued callback, in queue order. */
void rcu_barrier(void)
{
	struct rcu_head *list, *next;

	pthread_mutex_lock(&host_rcu_lock);
	list = host_rcu_head;
	host_rcu_head = NULL;
	host_rcu_tail = &host_rcu_head;
	pthread_mutex_unlock(&host_rcu_lock);
	for (; list; list = next) {
		next = list->next;
		list->func(list);
	}
}

/* Each host thread is a CPU for preempt_count (<asm/preempt.h>). */
__thread int host_preempt_count;

/* A long loop's scheduling point (<linux/preempt.h>): the host's scheduler preempts on its own. */
/* The host tests have no kswapd, and no tasks to reclaim for: they call try_to_free_pages. */
void wakeup_kswapd(unsigned int order)
{
}

struct page *__alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
	return NULL;
}

void cond_resched(void)
{
}

/* The sleeping locks' sleep (<linux/wait.h>): a host thread yields and tries again. */
void wait_var_trylock(void *var, bool (*trylock)(void *var))
{
	while (!trylock(var))
		sched_yield();
}

void wait_var_unlock(void *var, bool (*ready)(void *var), spinlock_t *lock)
{
	bool go = ready(var);

	spin_unlock(lock);
	if (!go)
		sched_yield();
}

void wake_up_var(void *var)
{
}
