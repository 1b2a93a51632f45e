/*
 * Host tests of the anon reverse map (mm/anon_vma.c): the anon_vma_chain
 * lists fork builds (fork of a fork), that a VMA split and an mremap
 * copy clone, that unmapping and exit unlink; what rmap_walk_anon()
 * visits; folio->mapping and folio->index; and that every anon_vma and
 * chain is freed in the end (the leak check).
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE 0x10000000UL

MM_TEST_FIXTURE()

static int list_len(const struct list_head *head)
{
	const struct list_head *p;
	int n = 0;

	for (p = head->next; p != head; p = p->next)
		n++;
	return n;
}

/* The folio mapped at addr in m. */
static struct folio *folio_of(struct mm_struct *m, unsigned long addr)
{
	phys_addr_t pa;

	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER, &pa), SOFTMMU_OK);
	return page_folio(pfn_to_page(pa >> PAGE_SHIFT));
}

struct visits {
	int n;
	struct mm_struct *mm[8];
	unsigned long addr[8];
};

static bool record_visit(struct folio *folio, struct vm_area_struct *vma, unsigned long addr,
			 void *arg)
{
	struct visits *v = arg;

	v->mm[v->n] = vma->vm_mm;
	v->addr[v->n++] = addr;
	return true;
}

static struct visits walk(struct folio *folio)
{
	struct visits v = { 0 };
	struct rmap_walk_control rwc = { .arg = &v, .rmap_one = record_visit };

	rmap_walk_anon(folio, &rwc, false);
	return v;
}

/* Fork of a fork: each generation adds one anon_vma and one chain; the walks see who may map what. */
static void test_fork_of_fork(void **state)
{
	struct mm_struct *child, *grandchild;
	struct vm_area_struct *pv, *cv, *gv;
	struct visits v;
	struct folio *f, *cf;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	pv = find_vma(mm, BASE);
	assert_null(pv->anon_vma);                      /* no fault yet */
	user_write(mm, BASE, 'p');
	assert_non_null(pv->anon_vma);
	assert_ptr_equal(pv->anon_vma->root, pv->anon_vma);
	f = folio_of(mm, BASE);
	assert_ptr_equal(folio_anon_vma(f), pv->anon_vma);
	assert_int_equal(f->index, BASE >> PAGE_SHIFT);
	child = dup_mm(mm);
	cv = find_vma(child, BASE);
	assert_int_equal(list_len(&cv->anon_vma_chain), 2);
	assert_ptr_equal(cv->anon_vma->root, pv->anon_vma);
	grandchild = dup_mm(child);
	gv = find_vma(grandchild, BASE);
	assert_int_equal(list_len(&gv->anon_vma_chain), 3);
	assert_int_equal(list_len(&pv->anon_vma->rb_root), 3);  /* all may map the parent's folio */
	v = walk(f);
	assert_int_equal(v.n, 3);
	user_write(child, BASE + PAGE_SIZE, 'c');               /* the child's own folio */
	cf = folio_of(child, BASE + PAGE_SIZE);
	assert_ptr_equal(folio_anon_vma(cf), cv->anon_vma);
	v = walk(cf);
	assert_int_equal(v.n, 2);                               /* child and grandchild, not the parent */
	mm_exit(child);                                         /* the middle generation goes */
	assert_int_equal(list_len(&pv->anon_vma->rb_root), 2);
	v = walk(f);
	assert_int_equal(v.n, 2);
	assert_true(v.mm[0] == mm || v.mm[1] == mm);
	mm_exit(grandchild);
}

/* munmap in the middle and mprotect split a VMA: both halves keep the chains and page offsets. */
static void test_split_and_unlink(void **state)
{
	struct vm_area_struct *head, *tail;
	struct folio *f;
	struct visits v;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 8; i++)
		user_write(mm, BASE + i * PAGE_SIZE, 'a' + i);
	assert_int_equal(do_munmap(mm, BASE + 2 * PAGE_SIZE, 2 * PAGE_SIZE), 0);
	head = find_vma(mm, BASE);
	tail = find_vma(mm, BASE + 4 * PAGE_SIZE);
	assert_ptr_not_equal(head, tail);
	assert_ptr_equal(head->anon_vma, tail->anon_vma);
	assert_int_equal(list_len(&head->anon_vma->rb_root), 2);
	assert_int_equal(tail->vm_pgoff, (BASE >> PAGE_SHIFT) + 4);
	f = folio_of(mm, BASE + 5 * PAGE_SIZE);
	v = walk(f);
	assert_int_equal(v.n, 1);                               /* only the tail covers its index */
	assert_int_equal(v.addr[0], BASE + 5 * PAGE_SIZE);
	assert_int_equal(do_munmap(mm, BASE, 2 * PAGE_SIZE), 0);
	assert_int_equal(list_len(&tail->anon_vma->rb_root), 1);
	assert_int_equal(do_mprotect(mm, BASE + 5 * PAGE_SIZE, PAGE_SIZE, PROT_READ), 0);
	assert_int_equal(do_mprotect(mm, BASE + 5 * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	assert_int_equal(find_vma(mm, BASE + 4 * PAGE_SIZE)->vm_end, BASE + 8 * PAGE_SIZE);
}

/* mremap moves the page tables: the folio keeps its index; the walk finds the new address. */
static void test_mremap_walk(void **state)
{
	const unsigned long dst = BASE + 64 * PAGE_SIZE;
	struct mm_struct *child;
	struct folio *f;
	struct visits v;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE + PAGE_SIZE, 'x');
	f = folio_of(mm, BASE + PAGE_SIZE);
	child = dup_mm(mm);
	assert_int_equal(do_mremap(child, BASE, 4 * PAGE_SIZE, 4 * PAGE_SIZE,
				   MREMAP_MAYMOVE | MREMAP_FIXED, dst + PAGE_SIZE), dst + PAGE_SIZE);
	assert_ptr_equal(folio_of(child, dst + 2 * PAGE_SIZE), f);
	assert_int_equal(f->index, (BASE >> PAGE_SHIFT) + 1);
	assert_int_equal(folio_mapcount(f), 2);
	v = walk(f);
	assert_int_equal(v.n, 2);
	assert_true((v.mm[0] == child && v.addr[0] == dst + 2 * PAGE_SIZE) ||
		    (v.mm[1] == child && v.addr[1] == dst + 2 * PAGE_SIZE));
	user_write(child, dst + 2 * PAGE_SIZE, 'y');            /* COW in the child */
	assert_int_equal(read_byte(mm, BASE + PAGE_SIZE, ACC_USER), 'x');
	assert_int_equal(folio_mapcount(f), 1);
	assert_int_equal(do_mremap(mm, BASE, PAGE_SIZE, 0, 0, 0), -EINVAL);
	assert_int_equal(do_mremap(mm, BASE + 8 * PAGE_SIZE, PAGE_SIZE, 2 * PAGE_SIZE, 0, 0),
			 -EFAULT);
	mm_exit(child);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fork_of_fork, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_split_and_unlink, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mremap_walk, boot, shutdown),
	};

	return cmocka_run_group_tests_name("anon_vma", tests, NULL, NULL);
}
