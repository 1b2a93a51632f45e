/*
 * mprotect racing with writes: a writer thread (on another CPU where
 * affinity exists) stores an ever-growing counter into one page; the main
 * thread makes the page read-only, reads the counter, lets the writer try
 * on for a while, reads it again and makes the page writable.  Once
 * mprotect(PROT_READ) has returned, no CPU may still write through an old
 * writable TLB entry: the two reads of every window must agree, and every
 * write the writer tried inside a window must have faulted (SIGSEGV
 * counted against the windows).  At the end the page holds exactly the
 * writes that succeeded: none lost.  Without threads: the single-thread
 * answers (a write to a read-only page faults, then succeeds after RW).
 */
#include "smp_util.h"

#define WINDOWS         400
#define TIME_NS         4000000000ULL

static volatile uint64_t *page;                 /* the page flipped RO/RW */
static volatile uint64_t attempts, faults, done_writes;
static volatile int stop;

/* One attempt: counter+1 into the page; counted as a write or a fault, then an attempt. */
static void try_write(void)
{
	sigjmp_buf jb;

	SEGV_TRY(jb) {
		*page = done_writes + 1;
		done_writes++;
	} else {
		faults++;
	}
	SEGV_END();
	attempts++;
}

static void *writer(void *arg)
{
	(void)arg;
	pin_cpu(1);
	while (!stop)
		try_write();
	return NULL;
}

/* Wait until the writer made two more attempts (bounded). */
static void let_writer_try(void)
{
	uint64_t a = attempts, end = now_ns() + 50000000;

	while (attempts < a + 3 && now_ns() < end)
		sched_yield();
}

static void threaded(void)
{
	uint64_t end = now_ns() + TIME_NS;
	unsigned long through = 0, unfaulted = 0, tried = 0;
	pthread_t t;
	int w, err;

	if ((err = try_thread(&t, writer, NULL))) {
		skip("no threads");
		return;
	}
	pin_cpu(0);
	for (w = 0; w < WINDOWS && now_ns() < end; w++) {
		uint64_t before, after, a0, a1, f0, f1;

		mprotect((void *)page, PAGE, PROT_READ);
		before = *page;
		a0 = attempts, f0 = faults;
		let_writer_try();
		a1 = attempts, f1 = faults;
		after = *page;
		mprotect((void *)page, PAGE, PROT_READ | PROT_WRITE);
		through += after != before;
		tried += a1 - a0 >= 2;
		unfaulted += a1 - a0 >= 2 && f1 - f0 < a1 - a0 - 1;
		let_writer_try();
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("# %d read-only windows, %llu writes, %llu SIGSEGVs, writer tried in %lu windows\n",
	       w, (unsigned long long)done_writes, (unsigned long long)faults, tried);
	ok(w > 0 && !through, "no write went through a read-only PTE (%lu windows changed)", through);
	ok(tried > 0 && !unfaulted, "every write tried inside a read-only window faulted (%lu did not)",
	   unfaulted);
	ok(*page == done_writes, "no write lost: the page holds the count of successful writes");
}

static void sequential(void)
{
	mprotect((void *)page, PAGE, PROT_READ);
	try_write();
	ok(faults == 1 && *page == 0, "a write to a read-only page faults and changes nothing");
	mprotect((void *)page, PAGE, PROT_READ | PROT_WRITE);
	try_write();
	ok(faults == 1 && *page == 1, "after mprotect(RW) the write goes through");
}

int main(void)
{
	mount_proc_sys();
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# test_smp_mprotect: %d CPUs\n", nr_cpus());
	segv_catch();
	page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		ok(0, "mmap");
		return tap_done();
	}
	sequential();
	threaded();
	munmap((void *)page, PAGE);
	return tap_done();
}
