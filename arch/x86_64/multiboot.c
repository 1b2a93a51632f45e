/*
 * Multiboot2 boot information (GRUB): the memory map goes to memblock, the
 * command line and modules (the initrd) to boot_info.  Runs before the real
 * direct map exists: the boot tables map the first 1 GiB at PAGE_OFFSET.
 */
#include <asm/arch.h>
#include <asm/page.h>
#include "mm/memblock.h"
#include "kernel/printk.h"

#define MB2_BOOTLOADER_MAGIC 0x36d76289
#define MB2_TAG_END          0
#define MB2_TAG_CMDLINE      1
#define MB2_TAG_MODULE       3
#define MB2_TAG_MMAP         6
#define MB2_MEMORY_AVAILABLE 1

struct mb2_tag { u32 type, size; };
struct mb2_module { u32 type, size, mod_start, mod_end; char string[]; };
struct mb2_mmap { u32 type, size, entry_size, entry_version; };
struct mb2_mmap_entry { u64 addr, len; u32 type, reserved; };

struct boot_info boot_info = { .cmdline = "" };

static void parse_mmap(const struct mb2_mmap *m)
{
	const u8 *p = (const u8 *)(m + 1), *end = (const u8 *)m + m->size;

	for (; p + m->entry_size <= end; p += m->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;

		pr_info("BIOS-e820: [mem %#018lx-%#018lx] %s\n", (unsigned long)e->addr,
			(unsigned long)(e->addr + e->len - 1),
			e->type == MB2_MEMORY_AVAILABLE ? "usable" : "reserved");
		if (e->type == MB2_MEMORY_AVAILABLE)
			memblock_add(ALIGN_UP(e->addr, PAGE_SIZE),
				     ALIGN_DOWN(e->addr + e->len, PAGE_SIZE) -
				     ALIGN_UP(e->addr, PAGE_SIZE));
	}
}

/* Only the command line, first: it sets the log level for the rest. */
void multiboot_cmdline(unsigned long magic, unsigned long info_pa)
{
	const u8 *info = __va(info_pa);
	u32 total = *(const u32 *)info;

	if (magic != MB2_BOOTLOADER_MAGIC)
		return;
	for (const u8 *p = info + 8; p < info + total; p += ALIGN_UP(((const struct mb2_tag *)p)->size, 8)) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == MB2_TAG_END)
			break;
		if (tag->type == MB2_TAG_CMDLINE)
			boot_info.cmdline = (const char *)(tag + 1);
	}
}

/* Walk the tags of the info block at physical address info_pa. */
void multiboot_parse(unsigned long magic, unsigned long info_pa)
{
	const u8 *info = __va(info_pa);
	u32 total = *(const u32 *)info;

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("multiboot_parse: bad magic %#lx", magic);
	memblock_reserve(ALIGN_DOWN(info_pa, PAGE_SIZE),
			 ALIGN_UP(info_pa + total, PAGE_SIZE) - ALIGN_DOWN(info_pa, PAGE_SIZE));
	for (const u8 *p = info + 8; p < info + total; p += ALIGN_UP(((const struct mb2_tag *)p)->size, 8)) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == MB2_TAG_END)
			break;
		if (tag->type == MB2_TAG_MMAP) {
			parse_mmap((const void *)tag);
		} else if (tag->type == MB2_TAG_MODULE &&
			   boot_info.nr_modules < ARRAY_SIZE(boot_info.modules)) {
			const struct mb2_module *m = (const void *)tag;
			struct boot_module *bm = &boot_info.modules[boot_info.nr_modules++];

			bm->start = m->mod_start;
			bm->end = m->mod_end;
			bm->name = m->string;
			memblock_reserve(ALIGN_DOWN(bm->start, PAGE_SIZE),
					 ALIGN_UP(bm->end, PAGE_SIZE) - ALIGN_DOWN(bm->start, PAGE_SIZE));
		}
	}
}
