/*
 * MM IDs: a small integer per mm_struct for the MM ID slots of large folios
 * (Linux's mm_alloc_id()/mm_free_id() in kernel/fork.c, on an IDA).
 */
#ifndef _LINUX_SCHED_MM_H
#define _LINUX_SCHED_MM_H

#include "linux/types.h"
#include "linux/idr.h"
#include "linux/mm_types.h"

void mm_ids_init(void);
int mm_alloc_id(struct mm_struct *mm);
void mm_free_id(struct mm_struct *mm);
unsigned long mm_ids_in_use(void);
struct mm_struct *mm_alloc(void);
void mmdrop(struct mm_struct *mm);
void mmgrab(struct mm_struct *mm);
void __mmput(struct mm_struct *mm);
void mmput_new(struct mm_struct *mm);

#endif
