/*
 * Holding off every process that maps a folio while split or migration
 * rewrites it (mm/folio_mms.c).
 */
#ifndef MM_FOLIO_MMS_H
#define MM_FOLIO_MMS_H

#include "mm/folio.h"
#include "mm/mm_types.h"
#include "linux/rwsem.h"

#define FOLIO_MMS_MAX   32      /* mms and files one split may hold off */

struct folio_mms {
	struct mm_struct *held;         /* the caller's mm, locked by the caller */
	int nr;
	struct rw_semaphore *locked[FOLIO_MMS_MAX];     /* mmap_locks, i_mmap_rwsems: for write */
};

int folio_lock_mms(struct folio *folio, struct folio_mms *fm, struct mm_struct *held);
void folio_unlock_mms(struct folio_mms *fm);

#endif
