/*
 * Special mappings (Linux's _install_special_mapping in mm/mmap.c): a
 * range of a process that shows frames of the kernel's own — the vDSO's
 * code and data page — described by a struct vm_special_mapping.  Such a
 * VMA is a PFN map (VM_PFNMAP): its ->fault puts in a special PTE for the
 * frame at the faulting page's offset (vmf_insert_pfn), so rmap, the
 * refcounts and RSS never see those frames; fork does not copy the PTEs
 * (the child faults them in again), munmap and exit just clear them.
 * The VMA cannot grow (VM_DONTEXPAND) and GUP refuses it.
 *
 * Locks: the caller of _install_special_mapping holds the mmap_lock for
 * write (exec's arch_setup_additional_pages() too: vma_create() asserts
 * it); the fault runs under the mmap_lock for read and takes the PTE
 * table's lock.
 */
#include "linux/errno.h"
#include "mm/internal.h"
#include "linux/mm.h"

static const struct vm_special_mapping *vma_special(struct vm_area_struct *vma)
{
	return vma->vm_private_data;
}

/* The faulting page's frame; VM_FAULT_SIGBUS past the mapping's pages. */
static vm_fault_t special_mapping_fault(struct vm_fault *vmf)
{
	const struct vm_special_mapping *sm = vma_special(vmf->vma);

	if (vmf->pgoff >= sm->nr_pages)
		return VM_FAULT_SIGBUS;
	return vmf_insert_pfn(vmf->vma, vmf->address, sm->pfn + vmf->pgoff);
}

static const char *special_mapping_name(struct vm_area_struct *vma)
{
	return vma_special(vma)->name;
}

static const struct vm_operations_struct special_mapping_vmops = {
	.fault = special_mapping_fault,
	.name = special_mapping_name,
};

/*
 * Map sm's frames at [addr, addr + len) of mm with vm_flags (plus
 * VM_PFNMAP, VM_DONTEXPAND and, as any new VMA, VM_SOFTDIRTY), page 0 at
 * addr.  The new VMA, or NULL if out of memory or asked for a writable
 * one.  The range must be free.
 */
struct vm_area_struct *_install_special_mapping(struct mm_struct *mm, unsigned long addr,
						unsigned long len, unsigned long vm_flags,
						const struct vm_special_mapping *sm)
{
	struct vm_area_struct *vma;

	/* A write fault would take a special PTE for the zero page and copy zeros. */
	if (WARN_ON_ONCE(vm_flags & (VM_WRITE | VM_MAYWRITE), "special mappings are read-only"))
		return NULL;
	vma = vma_create(mm, addr, addr + len, vm_flags | VM_PFNMAP | VM_DONTEXPAND | VM_SOFTDIRTY);
	if (!vma)
		return NULL;
	vma->vm_pgoff = 0;
	vma->vm_ops = &special_mapping_vmops;
	vma->vm_private_data = (void *)sm;
	return vma;
}
