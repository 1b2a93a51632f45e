/* Page migration of anon folios (mm/migrate.c). */
#ifndef MM_MIGRATE_H
#define MM_MIGRATE_H

#include "mm/folio.h"
#include "mm/mm_types.h"

int migrate_anon_folio(struct folio *src, struct mm_struct *held);

#endif
