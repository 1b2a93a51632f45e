/*
 * Which folio sizes shmem may allocate (Linux's shmem huge policy in
 * mm/shmem.c, 6.11+): the top-level
 *     /sys/kernel/mm/transparent_hugepage/shmem_enabled
 *         always | within_size | advise | never | deny | force
 * which sets the internal mount's huge= (MAP_SHARED|MAP_ANONYMOUS and
 * memfds: Linux's shm_mnt) and, as deny or force, overrides every tmpfs
 * mount's; one knob per size for anonymous shmem
 *     .../hugepages-<size>kB/shmem_enabled  always | inherit | within_size | advise | never
 * ("inherit": as the top level's answer for 2 MiB); and each tmpfs
 * mount's huge= option.  Per-size settings are bits in four order masks
 * (huge_shmem_orders_{always,inherit,madvise,within_size}), as Linux's.
 *
 * Lock order: see mm/rmap.c; each setting is a word written whole.
 */
#include "linux/errno.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/shmem_fs.h"
#include "uapi/linux/statfs.h"
#include "linux/huge_mm.h"
#include "linux/pgtable.h"

#define MAYBE_PMD_ORDER                 BIT(HPAGE_PMD_ORDER)

static int shmem_huge = SHMEM_HUGE_NEVER;
struct shmem_sb_info *shm_mnt_sbinfo;   /* set by shmem_init(); NULL in host tests */
static unsigned long huge_shmem_orders_always;
static unsigned long huge_shmem_orders_inherit = BIT(HPAGE_PMD_ORDER);
static unsigned long huge_shmem_orders_madvise;
static unsigned long huge_shmem_orders_within_size;

/*
 * Of within_size_orders, those whose aligned block around index ends
 * inside the file's size, or inside write_end if larger (Linux's
 * shmem_get_orders_within_size).
 */
static unsigned long shmem_get_orders_within_size(struct inode *inode,
						  unsigned long within_size_orders,
						  pgoff_t index, loff_t write_end)
{
	loff_t i_size = ALIGN_UP(MAX(write_end, inode->i_size), (loff_t)PAGE_SIZE);
	int order = within_size_orders ? highest_order(within_size_orders) : -1;

	while (order >= 0) {
		pgoff_t aligned_index = ALIGN_UP(index + 1, 1UL << order);

		if ((unsigned long)(i_size >> PAGE_SHIFT) >= aligned_index)
			return within_size_orders;
		order = next_order(&within_size_orders, order);
	}
	return 0;
}

/*
 * The orders the mount's huge= (with shmem_enabled's deny and force)
 * allows a regular file at index (Linux's shmem_huge_global_enabled): a
 * fault (vma set) tries 2 MiB only, a write or fallocate any size.
 */
static unsigned long shmem_huge_global_enabled(struct inode *inode, pgoff_t index,
					       loff_t write_end, bool shmem_huge_force,
					       const struct vm_area_struct *vma)
{
	unsigned long within;

	if (!S_ISREG(inode->i_mode) || shmem_huge == SHMEM_HUGE_DENY)
		return 0;
	if (shmem_huge_force || shmem_huge == SHMEM_HUGE_FORCE)
		return MAYBE_PMD_ORDER;
	switch (SHMEM_SB(inode->i_sb)->huge) {
	case SHMEM_HUGE_ALWAYS:
		return vma ? MAYBE_PMD_ORDER : THP_ORDERS_ALL_FILE_DEFAULT;
	case SHMEM_HUGE_WITHIN_SIZE:
		within = vma ? MAYBE_PMD_ORDER : THP_ORDERS_ALL_FILE_DEFAULT;
		within = shmem_get_orders_within_size(inode, within, index, write_end);
		if (within)
			return within;
		/* fallthrough */
	case SHMEM_HUGE_ADVISE:
		if (vma && (vma->vm_flags & VM_HUGEPAGE))
			return MAYBE_PMD_ORDER;
		/* fallthrough */
	default:
		return 0;
	}
}

/* Is vma MAP_SHARED|MAP_ANONYMOUS memory (Linux's vma_is_anon_shmem)? */
bool vma_is_anon_shmem(const struct vm_area_struct *vma)
{
	struct inode *inode = vma->vm_file ? file_inode(vma->vm_file) : NULL;

	return inode && inode->i_sb && inode->i_sb->s_magic == TMPFS_MAGIC &&
	       (SHMEM_I(inode)->flags & SHMEM_F_ANON);
}

/*
 * The folio orders (a mask) shmem may allocate for inode at index (Linux's
 * shmem_allowable_huge_orders): a tmpfs file or memfd follows its mount's
 * huge policy; anonymous shmem (vma_is_anon_shmem) the per-size knobs,
 * "inherit" taking the top level's answer.  vma is the faulting VMA or
 * NULL, write_end a write's end or 0.
 */
unsigned long shmem_allowable_huge_orders(struct inode *inode, struct vm_area_struct *vma,
					  pgoff_t index, loff_t write_end, bool shmem_huge_force)
{
	unsigned long mask = huge_shmem_orders_always, global;

	if (vma && vma_thp_disabled(vma))
		return 0;
	global = shmem_huge_global_enabled(inode, index, write_end, shmem_huge_force, vma);
	if (!vma || !vma_is_anon_shmem(vma))
		return global;
	if (shmem_huge == SHMEM_HUGE_DENY)
		return 0;
	if (shmem_huge == SHMEM_HUGE_FORCE)
		return huge_shmem_orders_inherit;
	mask |= shmem_get_orders_within_size(inode, huge_shmem_orders_within_size, index, 0);
	if (vma->vm_flags & VM_HUGEPAGE)
		mask |= huge_shmem_orders_madvise;
	if (global)
		mask |= huge_shmem_orders_inherit;
	return THP_ORDERS_ALL_FILE_DEFAULT & mask;
}

/* The knobs' words in Linux's order; the top level's values are SHMEM_HUGE_* (index - 4 for deny, force). */
static const char *const top_names[] = {
	"always", "within_size", "advise", "never", "deny", "force",
};
static const int top_values[] = {
	SHMEM_HUGE_ALWAYS, SHMEM_HUGE_WITHIN_SIZE, SHMEM_HUGE_ADVISE, SHMEM_HUGE_NEVER,
	SHMEM_HUGE_DENY, SHMEM_HUGE_FORCE,
};
enum { SZ_ALWAYS, SZ_INHERIT, SZ_WITHIN_SIZE, SZ_ADVISE, SZ_NEVER, NR_SZ };
static const char *const size_names[] = {
	"always", "inherit", "within_size", "advise", "never",
};
static unsigned long *const size_masks[] = {
	&huge_shmem_orders_always, &huge_shmem_orders_inherit, &huge_shmem_orders_within_size,
	&huge_shmem_orders_madvise, NULL,
};

/* The per-size setting of order: SZ_*. */
static int size_setting(int order)
{
	for (int i = 0; i < SZ_NEVER; i++)
		if (*size_masks[i] & BIT(order))
			return i;
	return SZ_NEVER;
}

/* Every choice, the current one in brackets; order < 0 is the top level.  Length, as snprintf. */
int shmem_enabled_show(int order, char *buf, size_t size)
{
	int n = order < 0 ? (int)ARRAY_SIZE(top_names) : NR_SZ, len = 0;

	for (int i = 0; i < n; i++) {
		bool cur = order < 0 ? top_values[i] == shmem_huge : i == size_setting(order);

		len += snprintf(buf + len, size > (size_t)len ? size - len : 0,
				cur ? "%s[%s]" : "%s%s", i ? " " : "",
				order < 0 ? top_names[i] : size_names[i]);
	}
	return len + snprintf(buf + len, size > (size_t)len ? size - len : 0, "\n");
}

/* The index of the word buf names in names, or -1 (a trailing newline allowed). */
static int parse_word(const char *buf, size_t len, const char *const *names, int n)
{
	if (len && buf[len - 1] == '\n')
		len--;
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(buf, names[i], len))
			return i;
	return -1;
}

/*
 * Set a knob (Linux's shmem_enabled_store / thpsize_shmem_enabled_store):
 * force is refused while a size other than 2 MiB inherits, and a size
 * other than 2 MiB cannot inherit while the top level is force.
 * 0 or -EINVAL.
 */
int shmem_enabled_store(int order, const char *buf, size_t len)
{
	int i = order < 0 ? parse_word(buf, len, top_names, ARRAY_SIZE(top_names)) :
			    parse_word(buf, len, size_names, NR_SZ);

	if (i < 0 || (order >= 0 && !(THP_ORDERS_ALL_FILE_DEFAULT & BIT(order))))
		return -EINVAL;
	if (order < 0) {
		if (top_values[i] == SHMEM_HUGE_FORCE && huge_shmem_orders_inherit != MAYBE_PMD_ORDER)
			return -EINVAL;
		shmem_huge = top_values[i];
		if (shmem_huge > SHMEM_HUGE_DENY && shm_mnt_sbinfo)
			shm_mnt_sbinfo->huge = shmem_huge;
		return 0;
	}
	if (i == SZ_INHERIT && shmem_huge == SHMEM_HUGE_FORCE && order != HPAGE_PMD_ORDER)
		return -EINVAL;
	for (int m = 0; m < SZ_NEVER; m++)
		*size_masks[m] &= ~BIT(order);
	if (size_masks[i])
		*size_masks[i] |= BIT(order);
	return 0;
}
