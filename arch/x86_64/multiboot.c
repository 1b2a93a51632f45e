/*
 * Multiboot2 boot information (GRUB): the memory map goes to memblock, the
 * command line and modules (the initrd) to boot_info.  Runs before the real
 * direct map exists: the boot tables map the first 1 GiB at PAGE_OFFSET.
 */
#include <asm/arch.h>
#include <asm/page.h>
#include "linux/memblock.h"
#include "linux/printk.h"

#define MB2_BOOTLOADER_MAGIC 0x36d76289
#define MB2_TAG_END          0
#define MB2_TAG_CMDLINE      1
#define MB2_TAG_MODULE       3
#define MB2_TAG_MMAP         6
#define MB2_TAG_ACPI_OLD     14         /* a copy of the ACPI 1.0 RSDP */
#define MB2_TAG_ACPI_NEW     15         /* a copy of the ACPI 2.0+ RSDP (has the XSDT) */
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

/* The tag after tag (the first one for NULL), or NULL at the end tag. */
static const struct mb2_tag *next_tag(const u8 *info, const struct mb2_tag *tag)
{
	const u8 *p = tag ? (const u8 *)tag + ALIGN_UP(tag->size, 8) : info + 8;

	if (p >= info + *(const u32 *)info)
		return NULL;
	tag = (const void *)p;
	return tag->type == MB2_TAG_END ? NULL : tag;
}

/* Reserve the whole pages that [start, end) touches. */
static void reserve_pages(phys_addr_t start, phys_addr_t end)
{
	memblock_reserve(ALIGN_DOWN(start, PAGE_SIZE),
			 ALIGN_UP(end, PAGE_SIZE) - ALIGN_DOWN(start, PAGE_SIZE));
}

/* Only the command line, first: it sets the log level for the rest. */
void multiboot_cmdline(unsigned long magic, unsigned long info_pa)
{
	const u8 *info = __va(info_pa);

	if (magic != MB2_BOOTLOADER_MAGIC)
		return;
	for (const struct mb2_tag *tag = next_tag(info, NULL); tag; tag = next_tag(info, tag))
		if (tag->type == MB2_TAG_CMDLINE)
			boot_info.cmdline = (const char *)(tag + 1);
}

/* Walk the tags of the info block at physical address info_pa. */
void multiboot_parse(unsigned long magic, unsigned long info_pa)
{
	const u8 *info = __va(info_pa);

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("multiboot_parse: bad magic %#lx", magic);
	reserve_pages(info_pa, info_pa + *(const u32 *)info);
	for (const struct mb2_tag *tag = next_tag(info, NULL); tag; tag = next_tag(info, tag)) {
		if (tag->type == MB2_TAG_MMAP) {
			parse_mmap((const void *)tag);
		} else if (tag->type == MB2_TAG_MODULE &&
			   boot_info.nr_modules < ARRAY_SIZE(boot_info.modules)) {
			const struct mb2_module *m = (const void *)tag;
			struct boot_module *bm = &boot_info.modules[boot_info.nr_modules++];

			bm->start = m->mod_start;
			bm->end = m->mod_end;
			bm->name = m->string;
			reserve_pages(bm->start, bm->end);
		} else if (tag->type == MB2_TAG_ACPI_NEW ||
			   (tag->type == MB2_TAG_ACPI_OLD && !boot_info.acpi_rsdp)) {
			boot_info.acpi_rsdp = tag + 1;
		}
	}
}
