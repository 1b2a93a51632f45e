/*
 * The ELF loader (Linux's fs/binfmt_elf.c) for execve: ELF64 executables
 * from any page-cache file system (the initrd, tmpfs), ET_EXEC and ET_DYN
 * (PIE, loaded at ELF_PIE_BASE), static or dynamic.  A dynamic one names
 * its interpreter (PT_INTERP: ld.so, an ET_DYN), which is mapped too, at
 * an address mmap picks (Linux's load_elf_interp), and runs first: it
 * finds the program by AT_PHDR/AT_ENTRY and itself by AT_BASE.  Headers
 * are read with kernel_read (Linux's load_elf_phdrs).
 *
 * A new mm gets each PT_LOAD segment mapped MAP_PRIVATE from the file at
 * its offset (Linux's elf_map): the pages come from the file's page cache
 * on fault, so every process running a program shares its text, and a
 * write to data copies the page into anon memory.  The bss past the file
 * bytes is anonymous, the rest of its first page zeroed (padzero).  A heap
 * follows the last segment and an 8 MiB stack VMA sits under STACK_TOP.
 * The initial stack follows the SysV x86-64 ABI:
 *
 *   rsp -> argc, argv[0..argc-1], NULL, envp[..], NULL, auxv pairs, AT_NULL
 *          ... 16 random bytes (AT_RANDOM), "x86_64" (AT_PLATFORM), the
 *          argument and environment strings, the file name (AT_EXECFN),
 *          a NULL word at STACK_TOP - 8
 *
 * Under the interpreter (or the program's segments) exec maps the vDSO
 * (arch_setup_additional_pages: [vvar] and [vdso], AT_SYSINFO_EHDR).
 *
 * The new mm is current's while it is built (padzero writes to it, as
 * Linux's loader does after exec_mmap); the old mm (and its MM ID) is
 * released only once the new one is complete, and is current's again if
 * building failed.  Being current's, the new mm is published: /proc may
 * walk it already, so its VMAs change under its mmap_lock for write, as
 * Linux's vm_mmap() takes it, dropped around the writes to user memory
 * (their faults take it for read).
 */
#include "linux/random.h"
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/pagemap.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/binfmts.h"
#include "linux/namei.h"
#include "linux/time64.h"
#include "linux/sched/mm.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/pgtable.h"
#include "linux/fs.h"
#include <asm/arch.h>
#include <asm/elf.h>
#include <asm/timex.h>
#include "uapi/linux/auxvec.h"

#define ELF_PIE_BASE 0x555555554000UL
#define PT_LOAD   1
#define PT_INTERP 3
#define ET_EXEC   2
#define ET_DYN    3
#define PF_X 1
#define PF_W 2
#define PF_R 4
#define AUXV_WORDS 42                   /* the auxv pairs create_elf_tables writes, AT_NULL's too */

struct elf64_ehdr {
	u8 e_ident[16];
	u16 e_type, e_machine;
	u32 e_version;
	u64 e_entry, e_phoff, e_shoff;
	u32 e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
	u32 p_type, p_flags;
	u64 p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

/*
 * Read and check file's ELF header into *eh and its program headers into
 * a new buffer (*php, the caller's to free): an x86-64 ELF64 executable
 * or shared object with at least one and at most a page of program
 * headers, as Linux's load_elf_phdrs.  0, -ENOEXEC or -ENOMEM.
 */
static int elf_read_headers(struct file *file, struct elf64_ehdr *eh, struct elf64_phdr **php)
{
	unsigned long size;
	struct elf64_phdr *ph;
	loff_t pos = 0;

	if (kernel_read(file, eh, sizeof(*eh), &pos) != sizeof(*eh))
		return -ENOEXEC;
	size = (unsigned long)eh->e_phnum * sizeof(*ph);
	if (memcmp(eh->e_ident, "\177ELF\2\1", 6) || eh->e_machine != 62 ||
	    (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) || eh->e_phentsize != sizeof(*ph) ||
	    !size || size > PAGE_SIZE)
		return -ENOEXEC;
	ph = kmalloc(size);
	if (!ph)
		return -ENOMEM;
	pos = eh->e_phoff;
	if (kernel_read(file, ph, size, &pos) != (long)size) {
		kfree(ph);
		return -ENOEXEC;
	}
	*php = ph;
	return 0;
}

/*
 * The interpreter a dynamic executable names (PT_INTERP: a NUL-ended
 * path), opened for exec; NULL with *err 0 for a static one, NULL with
 * *err set if it cannot be (-ENOEXEC for a bad PT_INTERP, the open's error).
 */
static struct file *elf_open_interp(struct file *file, const struct elf64_ehdr *eh,
				    const struct elf64_phdr *ph, long *err)
{
	struct file *interp = NULL;
	char *name;

	*err = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		loff_t pos = ph[i].p_offset;

		if (ph[i].p_type != PT_INTERP)
			continue;
		*err = -ENOEXEC;
		if (ph[i].p_filesz < 2 || ph[i].p_filesz > PATH_MAX)
			return NULL;
		name = kmalloc(ph[i].p_filesz);
		if (!name) {
			*err = -ENOMEM;
			return NULL;
		}
		if (kernel_read(file, name, ph[i].p_filesz, &pos) == (long)ph[i].p_filesz &&
		    !name[ph[i].p_filesz - 1])
			interp = open_exec(name, err);
		kfree(name);
		return interp;
	}
	return NULL;
}

/* The PROT_* bits of a segment's p_flags. */
static unsigned long elf_prot(u32 p_flags)
{
	return (p_flags & PF_R ? PROT_READ : 0) | (p_flags & PF_W ? PROT_WRITE : 0) |
	       (p_flags & PF_X ? PROT_EXEC : 0);
}

/*
 * Zero from addr to the end of its page (Linux's padzero): the bss that
 * shares the segment's last file page.  The write copies that page out of
 * the page cache.  0 or -EFAULT (a segment that is not writable).
 */
static int padzero(unsigned long addr)
{
	unsigned long n = PAGE_SIZE - (addr & ~PAGE_MASK);

	if (n == PAGE_SIZE)
		return 0;
	return copy_to_user((void *)addr, page_address(pfn_to_page(zero_pfn)), n) ? -EFAULT : 0;
}

/*
 * Map one PT_LOAD segment into current's (new) mm, as Linux's elf_load:
 * its file pages MAP_PRIVATE from file, then the bss: the rest of the last
 * file page zeroed, anonymous pages after it.  0 or -errno (-ENOEXEC for a
 * segment outside the file or user space, misaligned or overlapping).
 */
static int load_segment(struct file *file, const struct elf64_phdr *ph, unsigned long bias)
{
	unsigned long start = ALIGN_DOWN(ph->p_vaddr + bias, PAGE_SIZE);
	unsigned long end = ALIGN_UP(ph->p_vaddr + bias + ph->p_memsz, PAGE_SIZE);
	unsigned long file_end = ph->p_vaddr + bias + ph->p_filesz;
	unsigned long bss = ALIGN_UP(file_end, PAGE_SIZE), prot = elf_prot(ph->p_flags);
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	long ret = 0;

	if (ph->p_filesz > ph->p_memsz)
		return -EINVAL;                 /* Linux's too */
	if (ph->p_offset + ph->p_filesz > (u64)i_size_read(file_inode(file)) ||
	    end > TASK_SIZE_MAX || end < start || ((ph->p_vaddr - ph->p_offset) & ~PAGE_MASK))
		return -ENOEXEC;
	if (!ph->p_filesz)
		bss = start;
	mmap_write_lock(mm);
	vma = find_vma(mm, start);
	if (vma && vma->vm_start < end)
		ret = -ENOEXEC;                 /* overlaps a segment mapped before */
	else if (ph->p_filesz)
		ret = do_mmap(mm, file, start, bss - start, prot, MAP_PRIVATE | MAP_FIXED,
			      ph->p_offset >> PAGE_SHIFT);
	if (ret >= 0 && end > bss)
		ret = do_mmap(mm, NULL, bss, end - bss, prot, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, 0);
	mmap_write_unlock(mm);
	if (ret < 0)
		return ret;
	if (ph->p_memsz > ph->p_filesz && padzero(file_end) && (prot & PROT_WRITE))
		return -EFAULT;
	return 0;
}

/* Push bytes onto the new user stack; false if the stack is exhausted. */
static bool push_bytes(unsigned long *sp, const void *data, unsigned long len)
{
	*sp -= len;
	return !copy_to_user((void *)*sp, data, len);
}

/*
 * Write count pointers to the consecutive strings at user address *str
 * (kernel copy *k), then NULL, at *vec; advance all three.  false on a fault.
 */
static bool put_pointers(unsigned long *vec, unsigned long *str, const char **k, int count)
{
	for (int i = 0; i <= count; i++, *vec += sizeof(long)) {
		unsigned long ptr = i < count ? *str : 0;

		if (copy_to_user((void *)*vec, &ptr, sizeof(ptr)))
			return false;
		if (i < count) {
			unsigned long len = strlen(*k) + 1;

			*str += len;
			*k += len;
		}
	}
	return true;
}

/* Where exec put things in the new mm, for the auxiliary vector. */
struct elf_layout {
	unsigned long bias;             /* the program's load bias */
	unsigned long phdr_addr;        /* its program headers (AT_PHDR) */
	unsigned long interp_base;      /* the interpreter's bias (AT_BASE), 0 if static */
	unsigned long vdso;             /* the vDSO's ELF header (AT_SYSINFO_EHDR) */
};

/*
 * Lay out the strings (as Linux, under a NULL word at the top), the
 * platform's name (AT_PLATFORM), AT_RANDOM's bytes, then argc/argv/envp/
 * auxv (see the top of this file; Linux's create_elf_tables, whose auxv
 * order this keeps); the new rsp, or 0 if it does not fit.
 */
static unsigned long create_elf_tables(struct exec_args *a, const struct elf64_ehdr *eh,
				       const struct elf_layout *l)
{
	unsigned long sp = STACK_TOP - sizeof(long), str, platform, random, vec, argc = a->argc;
	const char *k = a->buf;
	u64 rnd[2];

	get_random_bytes(rnd, sizeof(rnd));
	if (!push_bytes(&sp, a->buf, a->len))
		return 0;
	str = sp;
	if (!push_bytes(&sp, ELF_PLATFORM, sizeof(ELF_PLATFORM)))
		return 0;
	platform = sp;
	sp = ALIGN_DOWN(sp, 16);
	if (!push_bytes(&sp, rnd, sizeof(rnd)))
		return 0;
	random = sp;
	sp = ALIGN_DOWN(sp - (1 + a->argc + 1 + a->envc + 1 + AUXV_WORDS) * sizeof(long), 16);
	vec = sp + sizeof(long);
	current->mm->arg_start = str;           /* /proc/<pid>/cmdline and environ */
	if (copy_to_user((void *)sp, &argc, sizeof(argc)) || !put_pointers(&vec, &str, &k, a->argc))
		return 0;
	current->mm->arg_end = current->mm->env_start = str;
	if (!put_pointers(&vec, &str, &k, a->envc))
		return 0;
	current->mm->env_end = str;
	{
		unsigned long auxv[] = {
			AT_SYSINFO_EHDR, l->vdso, AT_MINSIGSTKSZ, get_sigframe_size(),
			AT_HWCAP, ELF_HWCAP, AT_PAGESZ, PAGE_SIZE, AT_CLKTCK, USER_HZ,
			AT_PHDR, l->phdr_addr, AT_PHENT, sizeof(struct elf64_phdr),
			AT_PHNUM, eh->e_phnum, AT_BASE, l->interp_base, AT_FLAGS, 0,
			AT_ENTRY, eh->e_entry + l->bias,
			AT_UID, 0, AT_EUID, 0, AT_GID, 0, AT_EGID, 0, AT_SECURE, 0,
			AT_RANDOM, random, AT_HWCAP2, ELF_HWCAP2,
			AT_EXECFN, str, AT_PLATFORM, platform, AT_NULL, 0 };  /* str: the file name */

		_Static_assert(sizeof(auxv) == AUXV_WORDS * sizeof(long), "AUXV_WORDS: the auxv's size");
		return copy_to_user((void *)vec, auxv, sizeof(auxv)) ? 0 : sp;
	}
}

/*
 * Map every PT_LOAD segment of file (program headers ph) into current's
 * mm with the load bias; set the data and brk bounds and *phdr_addr (where
 * the program headers land, for AT_PHDR; 0 if no segment holds them).
 * 0 or -errno.
 */
static int elf_map_segments(struct file *file, const struct elf64_ehdr *eh,
			    const struct elf64_phdr *ph, unsigned long bias,
			    unsigned long *phdr_addr)
{
	struct mm_struct *mm = current->mm;
	unsigned long brk = 0;

	for (int i = 0; i < eh->e_phnum; i++) {
		int ret;

		if (ph[i].p_type != PT_LOAD)
			continue;
		ret = load_segment(file, &ph[i], bias);
		if (ret)
			return ret;
		if (eh->e_phoff >= ph[i].p_offset && eh->e_phoff < ph[i].p_offset + ph[i].p_filesz)
			*phdr_addr = ph[i].p_vaddr + bias + eh->e_phoff - ph[i].p_offset;
		brk = MAX(brk, ALIGN_UP(ph[i].p_vaddr + bias + ph[i].p_memsz, PAGE_SIZE));
		/* Linux's start_data/end_data: the last segment's start, the end of file data. */
		mm->start_data = MAX(mm->start_data, ph[i].p_vaddr + bias);
		mm->end_data = MAX(mm->end_data, ph[i].p_vaddr + bias + ph[i].p_filesz);
	}
	mm->start_brk = mm->brk = brk;
	return 0;
}

/*
 * Map the interpreter (an ET_DYN: Linux's load_elf_interp) where mmap
 * finds room for its whole span: a PROT_NONE reservation of that size
 * picks the place and is unmapped again, then each segment goes there
 * (nothing else can map meanwhile: the new mm is only current's).
 * Its load bias (AT_BASE) in *bias; 0 or -errno.
 */
static int elf_map_interp(struct file *interp, const struct elf64_ehdr *eh,
			  const struct elf64_phdr *ph, unsigned long *bias)
{
	unsigned long lo = ~0UL, hi = 0;
	long base;

	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		lo = MIN(lo, ALIGN_DOWN(ph[i].p_vaddr, PAGE_SIZE));
		hi = MAX(hi, ALIGN_UP(ph[i].p_vaddr + ph[i].p_memsz, PAGE_SIZE));
	}
	if (eh->e_type != ET_DYN || hi <= lo || hi - lo > TASK_SIZE_MAX)
		return -ENOEXEC;
	mmap_write_lock(current->mm);
	base = do_mmap(current->mm, NULL, 0, hi - lo, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, 0);
	if (base >= 0)
		do_munmap(current->mm, base, hi - lo);
	mmap_write_unlock(current->mm);
	if (base < 0)
		return base;
	*bias = base - lo;
	for (int i = 0; i < eh->e_phnum; i++) {
		int ret = ph[i].p_type == PT_LOAD ? load_segment(interp, &ph[i], *bias) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

/* The program's and its interpreter's headers and files, while exec loads them. */
struct elf_image {
	struct elf64_ehdr eh, ieh;      /* the program's, the interpreter's ELF header */
	struct elf64_phdr *ph, *iph;    /* their program headers (kmalloc'd) */
	struct file *interp;            /* the interpreter, or NULL (static) */
};

static void elf_image_free(struct elf_image *im)
{
	kfree(im->ph);
	kfree(im->iph);
	if (im->interp)
		do_close_execat(im->interp);
}

/* Read the program's headers, and open the interpreter it names and read its. 0 or -errno. */
static int elf_image_read(struct exec_args *a, struct elf_image *im)
{
	long err = elf_read_headers(a->file, &im->eh, &im->ph);

	if (!err)
		im->interp = elf_open_interp(a->file, &im->eh, im->ph, &err);
	if (!err && im->interp)
		err = elf_read_headers(im->interp, &im->ieh, &im->iph);
	return err;
}

/*
 * Build current's new mm (the mm is current's already): the program's
 * segments at bias, the interpreter's (*interp_base), the stack VMA, the
 * initial stack; *sp.  0 or -errno.
 */
static int elf_build_mm(struct exec_args *a, struct elf_image *im, struct elf_layout *l,
			unsigned long *sp)
{
	long ret = elf_map_segments(a->file, &im->eh, im->ph, l->bias, &l->phdr_addr);

	if (!ret && im->interp)
		ret = elf_map_interp(im->interp, &im->ieh, im->iph, &l->interp_base);
	if (!ret) {
		mmap_write_lock(current->mm);
		if (!vma_create(current->mm, STACK_TOP - STACK_SIZE_MAX, STACK_TOP,
				VM_DATA_DEFAULT_FLAGS | VM_GROWSDOWN | VM_ACCOUNT))
			ret = -ENOMEM;
		mmap_write_unlock(current->mm);
	}
	if (!ret)
		ret = arch_setup_additional_pages(current->mm, &l->vdso);
	if (!ret) {
		*sp = create_elf_tables(a, &im->eh, l);
		ret = *sp ? 0 : -E2BIG;
	}
	return ret;
}

/*
 * Load the ELF executable a->file (Linux's load_elf_binary): build a new
 * mm with its segments, its interpreter's if it is dynamic, and the stack
 * VMA as current's, lay out the initial stack from a, and set *ip, *sp to
 * the entry point (the interpreter's, if any) and the stack pointer.  The
 * old mm goes only once all of that worked; on failure it is current's
 * again.  0 or -errno.
 */
int load_elf_binary(struct exec_args *a, unsigned long *ip, unsigned long *sp)
{
	struct mm_struct *mm, *old = current->mm;
	struct elf_image im = { .ph = NULL };
	struct elf_layout l = { 0 };
	int ret = elf_image_read(a, &im);

	if (ret)
		goto out;
	l.bias = im.eh.e_type == ET_DYN ? ELF_PIE_BASE : 0;
	ret = -ENOMEM;
	mm = mm_alloc();
	if (!mm)
		goto out;
	mm->mmap_base = MMAP_BASE;
	if (old)        /* PR_SET_THP_DISABLE lasts across exec; the program may dump again */
		mm->flags = (old->flags & MMF_INIT_MASK & ~MMF_DUMPABLE_MASK) | SUID_DUMP_USER;
	mm->start_stack = STACK_TOP;
	set_task_mm(current, mm);
	arch_switch_mm_and_stack(current);
	ret = elf_build_mm(a, &im, &l, sp);
	if (ret) {
		set_task_mm(current, old);
		arch_switch_mm_and_stack(current);
		exit_mmap(mm);
		mmdrop(mm);
		goto out;
	}
	*ip = im.interp ? im.ieh.e_entry + l.interp_base : im.eh.e_entry + l.bias;
	mm->exe_file = get_mm_exe_file_ref(a->file);    /* a script's: its interpreter, as Linux */
	complete_vfork_done(current);           /* a vfork parent has its mm back (exec_mm_release) */
	if (old)
		mmput(old);                     /* other threads may still use it until de_thread */
out:
	elf_image_free(&im);
	return ret;
}
