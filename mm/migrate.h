/* Page migration of anon folios (mm/migrate.c). */
#ifndef MM_MIGRATE_H
#define MM_MIGRATE_H

#include "linux/page-flags.h"
#include "linux/mm_types.h"
#include "linux/pgtable.h"

int migrate_anon_folio(struct folio *src);
void remove_migration_ptes(struct folio *src, struct folio *dst);
void migration_entry_wait(struct mm_struct *mm, pmd_t *pmd, unsigned long address);
void pmd_migration_entry_wait(struct mm_struct *mm, pmd_t *pmd);

#endif
