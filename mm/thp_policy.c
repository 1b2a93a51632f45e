/*
 * Which folio sizes an anonymous fault may use (Linux's THP policy knobs in
 * mm/huge_memory.c): the top-level
 *     /sys/kernel/mm/transparent_hugepage/enabled   always | madvise | never
 * and one knob per supported size
 *     .../hugepages-<size>kB/enabled     always | inherit | madvise | never
 * "inherit" follows the top-level setting.  The same settings come from the
 * kernel command line: transparent_hugepage=<mode> and
 * thp_anon=16K,32K:always;64K-256K:inherit;2M:never (Linux 6.12 syntax).
 *
 * Each per-size setting is one bit in one of three order masks, as Linux
 * keeps them: huge_anon_orders_{always,madvise,inherit}.  A VMA's allowed
 * orders come from the masks, the top-level mode and its MADV_(NO)HUGEPAGE
 * flag; a fault then keeps those orders whose aligned range fits the VMA.
 *
 * Lock order: see mm/rmap.c; the settings are words written whole; readers
 * may see an old value, as in Linux.
 */
#include "linux/errno.h"
#include "linux/huge_mm.h"
#include "linux/pgtable.h"
#include "linux/string.h"
#include "linux/printk.h"

enum thp_mode { THP_NEVER, THP_MADVISE, THP_ALWAYS, THP_INHERIT };

static enum thp_mode thp_global;
int thp_use_zero_page = 1;
static unsigned long huge_anon_orders_always;
static unsigned long huge_anon_orders_madvise;
static unsigned long huge_anon_orders_inherit;

/* Linux's defaults: top level "always", 2 MiB "inherit", other sizes "never". */
void thp_policy_init(void)
{
	thp_global = THP_ALWAYS;
	huge_anon_orders_always = 0;
	huge_anon_orders_madvise = 0;
	huge_anon_orders_inherit = BIT(HPAGE_PMD_ORDER);
}

static const char *const thp_mode_names[] = {
	[THP_ALWAYS] = "always", [THP_INHERIT] = "inherit",
	[THP_MADVISE] = "madvise", [THP_NEVER] = "never",
};

/* The mode named by the first len bytes of s (a trailing newline allowed), or -1. */
static int thp_mode_parse(const char *s, size_t len, bool allow_inherit)
{
	if (len && s[len - 1] == '\n')
		len--;
	for (int m = THP_NEVER; m <= THP_INHERIT; m++) {
		if (m == THP_INHERIT && !allow_inherit)
			continue;
		if (strlen(thp_mode_names[m]) == len && !strncmp(s, thp_mode_names[m], len))
			return m;
	}
	return -1;
}

static enum thp_mode thp_order_mode(unsigned int order)
{
	if (huge_anon_orders_always & BIT(order))
		return THP_ALWAYS;
	if (huge_anon_orders_madvise & BIT(order))
		return THP_MADVISE;
	if (huge_anon_orders_inherit & BIT(order))
		return THP_INHERIT;
	return THP_NEVER;
}

static void thp_order_set(unsigned int order, enum thp_mode mode)
{
	huge_anon_orders_always &= ~BIT(order);
	huge_anon_orders_madvise &= ~BIT(order);
	huge_anon_orders_inherit &= ~BIT(order);
	if (mode == THP_ALWAYS)
		huge_anon_orders_always |= BIT(order);
	else if (mode == THP_MADVISE)
		huge_anon_orders_madvise |= BIT(order);
	else if (mode == THP_INHERIT)
		huge_anon_orders_inherit |= BIT(order);
}

/*
 * The text of a knob, Linux's way: every choice, the current one in
 * brackets ("[always] madvise never").  order < 0 is the top level.
 * Returns the length, as snprintf.
 */
int thp_enabled_show(int order, char *buf, size_t size)
{
	static const enum thp_mode top[] = { THP_ALWAYS, THP_MADVISE, THP_NEVER };
	static const enum thp_mode per_size[] = { THP_ALWAYS, THP_INHERIT, THP_MADVISE, THP_NEVER };
	const enum thp_mode *modes = order < 0 ? top : per_size;
	int n = order < 0 ? 3 : 4, len = 0;
	enum thp_mode cur = order < 0 ? thp_global : thp_order_mode(order);

	for (int i = 0; i < n; i++)
		len += snprintf(buf + len, size > (size_t)len ? size - len : 0,
				modes[i] == cur ? "%s[%s]" : "%s%s", i ? " " : "",
				thp_mode_names[modes[i]]);
	len += snprintf(buf + len, size > (size_t)len ? size - len : 0, "\n");
	return len;
}

/* Set a knob from text; order < 0 is the top level.  0 or -EINVAL. */
int thp_enabled_store(int order, const char *buf, size_t len)
{
	int mode;

	if (order >= 0 && !(THP_ORDERS_ALL_ANON & BIT(order)))
		return -EINVAL;
	mode = thp_mode_parse(buf, len, order >= 0);
	if (mode < 0)
		return -EINVAL;
	if (order < 0)
		thp_global = mode;
	else
		thp_order_set(order, mode);
	return 0;
}

/* The anon order of a folio of "size" bytes, or -1 if foliOS has no such size. */
int thp_anon_order(unsigned long size)
{
	for (int order = 0; order <= THP_MAX_ANON_ORDER; order++)
		if ((PAGE_SIZE << order) == size && (THP_ORDERS_ALL_ANON & BIT(order)))
			return order;
	return -1;
}

/* "16K", "2M", "2048K" -> a supported anon order, or -1. */
static int thp_size_to_order(const char *s, size_t len)
{
	unsigned long size = 0;
	size_t i = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		size = size * 10 + (s[i] - '0');
	if (i + 1 != len || (s[i] != 'K' && s[i] != 'M'))
		return -1;
	return thp_anon_order(size << (s[i] == 'K' ? 10 : 20));
}

/* One "sizes:mode" group of thp_anon=, e.g. "16K,64K-256K:inherit".  0 or -EINVAL. */
static int thp_anon_parse_group(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len), *p = s;
	int mode;

	if (!colon)
		return -EINVAL;
	mode = thp_mode_parse(colon + 1, s + len - colon - 1, true);
	if (mode < 0)
		return -EINVAL;
	while (p < colon) {
		const char *end = memchr(p, ',', colon - p), *dash;
		int lo, hi;

		end = end ? end : colon;
		dash = memchr(p, '-', end - p);
		lo = thp_size_to_order(p, (dash ? dash : end) - p);
		hi = dash ? thp_size_to_order(dash + 1, end - dash - 1) : lo;
		if (lo < 0 || hi < lo)
			return -EINVAL;
		for (int order = lo; order <= hi; order++)
			if (THP_ORDERS_ALL_ANON & BIT(order))
				thp_order_set(order, mode);
		p = end + 1;
	}
	return 0;
}

/* thp_anon=<groups separated by ';'>.  0, or -EINVAL at the first bad group. */
int thp_anon_cmdline(const char *val)
{
	while (*val) {
		const char *semi = strchr(val, ';');
		size_t len = semi ? (size_t)(semi - val) : strlen(val);
		int ret = thp_anon_parse_group(val, len);

		if (ret)
			return ret;
		val += len + (semi != NULL);
	}
	return 0;
}

/* transparent_hugepage=always|madvise|never.  0 or -EINVAL. */
int thp_enabled_cmdline(const char *val)
{
	return thp_enabled_store(-1, val, strlen(val));
}

/*
 * The anon orders (a mask) a fault in vma may use, out of "orders" (Linux's
 * thp_vma_allowable_orders for anonymous VMAs): none with MADV_NOHUGEPAGE
 * or PR_SET_THP_DISABLE;
 * "always" sizes; "madvise" sizes with MADV_HUGEPAGE; "inherit" sizes when
 * the top level is always, or madvise with MADV_HUGEPAGE.
 */
unsigned long thp_vma_allowable_orders(const struct vm_area_struct *vma, unsigned long orders)
{
	bool madvised = vma->vm_flags & VM_HUGEPAGE;
	unsigned long mask = huge_anon_orders_always;

	if (vma_thp_disabled(vma))
		return 0;
	if (madvised)
		mask |= huge_anon_orders_madvise;
	if (thp_global == THP_ALWAYS || (madvised && thp_global == THP_MADVISE))
		mask |= huge_anon_orders_inherit;
	return orders & mask & THP_ORDERS_ALL_ANON;
}

/*
 * Does the naturally aligned 2^order block around addr lie inside vma,
 * and, for a file, map a block of the file aligned the same way?
 */
bool thp_vma_suitable_order(const struct vm_area_struct *vma, unsigned long addr,
			    unsigned int order)
{
	unsigned long size = PAGE_SIZE << order, haddr = addr & ~(size - 1);

	if (vma->vm_file && (((vma->vm_start >> PAGE_SHIFT) - vma->vm_pgoff) & ((1UL << order) - 1)))
		return false;
	return haddr >= vma->vm_start && haddr + size <= vma->vm_end;
}
