/*
 * Fault injection (see linux/fault-inject.h): decides, per call, whether
 * alloc_pages() or kmalloc() pretends to be out of memory, or a bio to a
 * disk that asked for it fails (block/bio.c).  A seeded xorshift PRNG
 * makes a run reproducible.
 *
 * Lock order: see mm/rmap.c; none of its own: CPUs deciding at once may
 * race on the PRNG state and the counters, which only shifts which call
 * fails and makes the counts approximate under --smp (exact with --smp 1);
 * the failures left (times) are taken by compare-and-swap, so a limit is
 * never overrun.
 */
#include "linux/errno.h"
#include "linux/fault-inject.h"
#include "linux/string.h"

struct fault_attr fail_page_alloc, failslab, fail_make_request;
static u64 prng_state = 0x9e3779b97f4a7c15ULL;
static bool armed;

/* Boot-time setup (and between host tests): nothing injected. */
void fault_inject_init(void)
{
	memset(&fail_page_alloc, 0, sizeof(fail_page_alloc));
	memset(&failslab, 0, sizeof(failslab));
	memset(&fail_make_request, 0, sizeof(fail_make_request));
	armed = false;
}

void fault_inject_seed(u64 seed)
{
	prng_state = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

/* From now on (user space runs), the enabled attributes fail calls. */
void fault_inject_arm(bool on)
{
	armed = on;
}

static u64 prng_next(void)
{
	prng_state ^= prng_state << 13;
	prng_state ^= prng_state >> 7;
	prng_state ^= prng_state << 17;
	return prng_state;
}

/* A signed decimal field of "a,b,c,d", advancing *s past its comma. */
static long next_field(const char **s, bool *ok)
{
	const char *end;
	bool neg = **s == '-';
	unsigned long v = simple_strtoul(*s + neg, &end, 10);

	if (end == *s + neg)
		*ok = false;
	*s = *end == ',' ? end + 1 : end;
	return neg ? -(long)v : (long)v;
}

/* "interval,probability,space,times", Linux's boot syntax.  0 or -EINVAL. */
int setup_fault_attr(struct fault_attr *attr, const char *str)
{
	bool ok = true;
	long interval = next_field(&str, &ok), probability = next_field(&str, &ok);
	long space = next_field(&str, &ok), times = next_field(&str, &ok);

	if (!ok || *str || interval < 1 || probability < 0 || probability > 100 || space < 0)
		return -EINVAL;
	attr->interval = interval;
	attr->probability = probability;
	attr->space = space;
	attr->times = times;
	attr->calls = attr->failures = 0;
	attr->enabled = probability > 0 && times != 0;
	return 0;
}

/* Take one of the failures left, unless none is (Linux's atomic_dec_not_zero on times). */
static bool take_failure(struct fault_attr *attr)
{
	long t = READ_ONCE(attr->times);

	do {
		if (!t)
			return false;
		if (t < 0)
			return true;            /* no limit */
	} while (!__atomic_compare_exchange_n(&attr->times, &t, t - 1, false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

/* Should this call fail?  Counts the call; false unless armed and chosen. */
bool should_fail(struct fault_attr *attr)
{
	if (!armed || !attr->enabled || !fault_inject_task_allowed())
		return false;
	if (attr->calls++ < attr->space || attr->calls % attr->interval)
		return false;
	if (prng_next() % 100 >= attr->probability || !take_failure(attr))
		return false;
	attr->failures++;
	return true;
}
