/*
 * The host tests' fake file (test_file_fault, test_truncate): a 4 MiB
 * shmem-like file whose ->fault caches a zeroed folio of fault_order
 * around the faulting offset, one mm to map it, and folio_at() to see what
 * a virtual address maps.  Header-only: one copy per test program.
 */
#ifndef TESTS_HOST_FAKE_FILE_H
#define TESTS_HOST_FAKE_FILE_H

#include "linux/errno.h"
#include "linux/pagemap.h"
#include "tests/host/hostenv.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE    0x40000000UL    /* 2 MiB aligned */
#define RW      (PROT_READ | PROT_WRITE)

static struct mm_struct *mm;
static struct mem_counts before;
static struct inode inode;
static struct file file;
static unsigned int fault_order;        /* the order of the folios ->fault caches */

/* The tests' file is static: a reference dropped only counts down. */
void fput(struct file *f)
{
	atomic_dec(&f->f_count);
}

/*
 * ->fault of the fake file: the cached folio at pgoff, or a new zeroed
 * shmem folio of fault_order cached around it; VM_FAULT_SIGBUS past EOF.
 */
static vm_fault_t fake_fault(struct vm_fault *vmf)
{
	struct address_space *mapping = vmf->vma->vm_file->f_mapping;
	struct folio *folio;

	if (vmf->pgoff >= DIV_ROUND_UP(mapping->host->i_size, PAGE_SIZE))
		return VM_FAULT_SIGBUS;
	folio = filemap_get_folio(mapping, vmf->pgoff);
	if (!folio) {
		folio = folio_alloc(__GFP_ZERO, fault_order);
		if (!folio)
			return VM_FAULT_OOM;
		__folio_set_swapbacked(folio);
		assert_int_equal(filemap_add_folio(mapping, folio,
						   ALIGN_DOWN(vmf->pgoff, 1UL << fault_order)), 0);
		folio_set_uptodate(folio);
	}
	vmf->page = folio_page(folio, vmf->pgoff - folio->index);
	return 0;
}

static const struct vm_operations_struct fake_vm_ops = { .fault = fake_fault };

static int fake_mmap(struct file *f, struct vm_area_struct *vma)
{
	vma->vm_ops = &fake_vm_ops;
	return 0;
}

static const struct file_operations fake_fops = { .mmap = fake_mmap };

/* A machine, an mm, and a 4 MiB file opened read-write with folios of order. */
static int boot_order(unsigned int order)
{
	mm = mm_test_boot(&before);
	memset(&inode, 0, sizeof(inode));
	address_space_init_once(&inode.i_data, &inode);
	inode.i_mapping = &inode.i_data;
	inode.i_size = 4 << 20;
	file = (struct file){ .f_count = ATOMIC_INIT(1), .f_mode = FMODE_READ | FMODE_WRITE,
			      .f_inode = &inode, .f_mapping = &inode.i_data, .f_op = &fake_fops };
	fault_order = order;
	return 0;
}

static int boot0(void **state) { (void)state; return boot_order(0); }
static int boot4(void **state) { (void)state; return boot_order(4); }
static int boot9(void **state) { (void)state; return boot_order(HPAGE_PMD_ORDER); }

static struct folio *folio_at(struct mm_struct *m, unsigned long addr)
{
	struct pgwalk w;

	if (!pgtable_lookup(m->pgd, addr, &w))
		return NULL;
	return page_folio(pfn_to_page(w.phys >> PAGE_SHIFT));
}

#endif
