/*
 * The MM ID allocator.  Every mm_struct gets an ID in [MM_ID_MIN, MM_ID_MAX]
 * (31 bits) when it is created and gives it back at teardown, so a folio's
 * MM ID slot can name an mm in 31 bits instead of a pointer.  The IDs come
 * from an IDA (lib/ida.c).
 */
#include "linux/sched/mm.h"
#include "linux/page-flags.h"
#include "linux/mm.h"
#include "linux/printk.h"
#include "linux/string.h"

static struct ida mm_ida = IDA_INIT("mm_ida");

/* Boot-time setup: no MM IDs in use. */
void mm_ids_init(void)
{
	mm_ida = (struct ida)IDA_INIT("mm_ida");
}

/* Give mm an MM ID; 0, or -ENOSPC / -ENOMEM (mm keeps MM_ID_DUMMY). */
int mm_alloc_id(struct mm_struct *mm)
{
	int ret = ida_alloc_range(&mm_ida, MM_ID_MIN, MM_ID_MAX);

	if (ret < 0)
		return ret;
	mm->mm_id = ret;
	return 0;
}

void mm_free_id(struct mm_struct *mm)
{
	const mm_id_t id = mm->mm_id;

	mm->mm_id = MM_ID_DUMMY;
	if (id == MM_ID_DUMMY)
		return;
	if (WARN_ON_ONCE(id < MM_ID_MIN || id > MM_ID_MAX, "mm_free_id: ID out of range"))
		return;
	ida_free(&mm_ida, id);
}

unsigned long mm_ids_in_use(void)
{
	return READ_ONCE(mm_ida.nr_used);
}
