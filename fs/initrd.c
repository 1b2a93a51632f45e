/*
 * The initrd, a "cpio -H newc" archive loaded by GRUB as a module:
 *
 *   "070701" + 13 fields of 8 hex digits (ino mode uid gid nlink mtime
 *   filesize devmajor devminor rdevmajor rdevminor namesize check),
 *   the name (namesize bytes with its NUL), padding to 4, the data,
 *   padding to 4; the entry named "TRAILER!!!" ends the archive.
 *
 * Files are looked up in place; nothing is copied.  Read-only, no lock.
 */
#include "linux/initrd.h"
#include "linux/printk.h"
#include "linux/string.h"

#define NEWC_HDR_LEN 110

static const u8 *archive;
static unsigned long archive_size;

void initrd_init(const void *start, unsigned long size)
{
	archive = start;
	archive_size = size;
}

static unsigned long hexfield(const u8 *hdr, int index)
{
	char buf[9];

	memcpy(buf, hdr + 6 + 8 * index, 8);
	buf[8] = '\0';
	return simple_strtoul(buf, NULL, 16);
}

/* Decode the entry at *off into f and advance *off; false at the end. */
static bool next_entry(unsigned long *off, struct initrd_file *f)
{
	const u8 *hdr = archive + *off;
	unsigned long namesize, filesize, data_off;

	if (!archive || *off + NEWC_HDR_LEN > archive_size || memcmp(hdr, "070701", 6))
		return false;
	namesize = hexfield(hdr, 11);
	filesize = hexfield(hdr, 6);
	data_off = ALIGN_UP(*off + NEWC_HDR_LEN + namesize, 4);
	if (data_off + filesize > archive_size)
		return false;
	f->name = (const char *)hdr + NEWC_HDR_LEN;
	if (!strcmp(f->name, "TRAILER!!!"))
		return false;
	while (f->name[0] == '.' && f->name[1] == '/')
		f->name += 2;
	f->mode = hexfield(hdr, 1);
	f->data = archive + data_off;
	f->size = filesize;
	*off = ALIGN_UP(data_off + filesize, 4);
	return true;
}

/* The index-th entry of the archive; false past the end. */
bool initrd_entry(unsigned int index, struct initrd_file *f)
{
	unsigned long off = 0;

	for (unsigned int i = 0; next_entry(&off, f); i++)
		if (i == index)
			return true;
	return false;
}

/* Find path (absolute or relative to "/") in the archive. */
bool initrd_lookup(const char *path, struct initrd_file *f)
{
	unsigned long off = 0;

	while (*path == '/')
		path++;
	while (next_entry(&off, f))
		if (!strcmp(f->name, path))
			return true;
	return false;
}
