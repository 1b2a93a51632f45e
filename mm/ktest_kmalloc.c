/*
 * ktest suite "kmalloc": size classes, reuse, large allocations, accounting.
 *
 * Lock order: see mm/rmap.c; only kmalloc()/kfree() take locks.
 */
#include "linux/ktest.h"
#include "linux/string.h"
#include "linux/mm.h"

/* Objects of every size are distinct, aligned, writable and accounted. */
static void kmalloc_sizes(struct ktest *t)
{
	static const size_t sizes[] = { 1, 16, 17, 100, 512, 2048, 2049, 4096, 10000, 100000 };
	void *p[ARRAY_SIZE(sizes)];
	unsigned long bytes = kmalloc_bytes;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i]);
		KTEST_ASSERT(t, p[i]);
		KTEST_EXPECT(t, IS_ALIGNED((unsigned long)p[i], 16));
		memset(p[i], (int)i, sizes[i]);
	}
	KTEST_EXPECT(t, kmalloc_bytes - bytes >= 1 + 16 + 17 + 100 + 512 + 2048 + 2049 + 4096 + 10000 + 100000);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		const unsigned char *b = p[i];

		KTEST_EXPECT_EQ(t, b[sizes[i] - 1], i);
		kfree(p[i]);
	}
	KTEST_EXPECT_EQ(t, kmalloc_bytes, bytes);
	KTEST_EXPECT(t, kmalloc(0) == NULL);
}

/* Fill several slab pages of one class, free all: the pages go back. */
static void kmalloc_slab_pages(struct ktest *t)
{
	enum { N = 600 };                   /* > 2 pages of 64-byte objects */
	static void *objs[N];
	unsigned long free_before = zone.free_pages;

	for (int i = 0; i < N; i++) {
		objs[i] = kzalloc(64);
		KTEST_ASSERT(t, objs[i]);
	}
	KTEST_EXPECT(t, zone.free_pages <= free_before - N * 64 / PAGE_SIZE);
	for (int i = 0; i < N; i += 2)
		kfree(objs[i]);
	for (int i = 1; i < N; i += 2)
		kfree(objs[i]);
	KTEST_EXPECT_EQ(t, zone.free_pages, free_before);
}

static const struct ktest_case kmalloc_cases[] = {
	KTEST_CASE(kmalloc_sizes),
	KTEST_CASE(kmalloc_slab_pages),
};
KTEST_SUITE(kmalloc, kmalloc_cases);
