/*
 * The initrd, a "cpio -H newc" archive loaded by GRUB as a module:
 *
 *   "070701" + 13 fields of 8 hex digits (ino mode uid gid nlink mtime
 *   filesize devmajor devminor rdevmajor rdevminor namesize check),
 *   the name (namesize bytes with its NUL), padding to 4, the data,
 *   padding to 4; the entry named "TRAILER!!!" ends the archive.
 *
 * Each entry gets an inode at boot, kept for ever in a list (the list's
 * reference); a regular file's i_private is its data in the archive, a
 * directory's its path, a symbolic link's i_link a copy of its text.  A regular file is read and mapped through its
 * page cache (i_data, include/linux/pagemap.h): read_folio copies the
 * archive's bytes into a folio, and every read(), mmap and exec of the
 * file shares that folio — one copy of each program's text however many
 * processes run it.  As Linux unpacks its initramfs into the page cache of
 * ramfs at boot, every page is read in at boot and stays: the cache is
 * part of the memory the kernel holds before user space starts (the leak
 * check's baseline), not something each exec adds.  The ELF loader reads
 * the headers in place.  Read-only, no lock.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/initrd.h"
#include "linux/pagemap.h"
#include "linux/panic.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/seq_file.h"
#include "linux/mm.h"
#include "linux/page-flags.h"

#define NEWC_HDR_LEN 110

static const u8 *archive;
static unsigned long archive_size;


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
	f->uid = hexfield(hdr, 2);
	f->gid = hexfield(hdr, 3);
	f->mtime = hexfield(hdr, 5);
	f->data = archive + data_off;
	f->size = filesize;
	*off = ALIGN_UP(data_off + filesize, 4);
	return true;
}

struct initrd_inode {
	struct initrd_file entry;
	struct initrd_inode *next;      /* in its hash chain */
	struct inode vfs_inode;
};

/*
 * The inodes by path: every lookup that no mount or /proc answers ends
 * here, and BusyBox's applet links make hundreds of entries, so a walk of
 * a list per lookup would cost more than the rest of a stat.
 */
#define INITRD_HASH_BITS 9
static struct initrd_inode *initrd_hash[1 << INITRD_HASH_BITS];
static struct initrd_inode **initrd_by_index;  /* the same inodes in archive order */
static unsigned int initrd_count;
static struct super_block initrd_sb;

/* The index-th entry of the archive; false past the end. */
bool initrd_entry(unsigned int index, struct initrd_file *f)
{
	if (index >= initrd_count)
		return false;
	*f = initrd_by_index[index]->entry;
	return true;
}

/* FNV-1a of a path, folded to INITRD_HASH_BITS. */
static unsigned int initrd_hashfn(const char *path)
{
	u32 h = 2166136261u;

	while (*path)
		h = (h ^ (u8)*path++) * 16777619u;
	return (h ^ (h >> INITRD_HASH_BITS) ^ (h >> 2 * INITRD_HASH_BITS)) &
	       ((1 << INITRD_HASH_BITS) - 1);
}

/*
 * Copy the file's bytes at folio's position into it (Linux's read_folio;
 * the page cache hands over a locked, zeroed folio, so the part past the
 * end of the file stays zero).  Always 0: the archive is in memory.
 */
static int initrd_read_folio(struct file *file, struct folio *folio)
{
	const struct address_space *mapping = folio->mapping;   /* a page-cache folio's */
	struct inode *inode = mapping->host;
	const u8 *data = inode->i_private;
	loff_t pos = (loff_t)folio->index << PAGE_SHIFT;
	size_t size = folio_nr_pages(folio) << PAGE_SHIFT;

	if (pos < inode->i_size)
		memcpy(page_address(folio_page(folio, 0)), data + pos,
		       MIN(size, (size_t)(inode->i_size - pos)));
	return 0;
}

static const struct address_space_operations initrd_aops = {
	.read_folio = initrd_read_folio,
};

/* Opens are read-only (may_open: EROFS), so mmap refuses MAP_SHARED writable ones: EACCES. */
static const struct file_operations initrd_file_operations = {
	.llseek = generic_file_llseek,
	.read = filemap_read,
	.mmap = generic_file_mmap,
	.fsync = noop_fsync,
};

/* Is name a direct child of dir ("" is the root)?  Returns its base name. */
static const char *child_name(const char *name, const char *dir)
{
	size_t n = strlen(dir);

	if (n && (strncmp(name, dir, n) || name[n] != '/'))
		return NULL;
	name += n ? n + 1 : 0;
	return *name && !strchr(name, '/') ? name : NULL;
}

/*
 * The children of a directory, from archive index ctx->pos on (the
 * position counts every archive entry; d_ino is the position + 2).
 */
static int initrd_readdir(struct file *file, struct dir_context *ctx)
{
	const char *dir = file_inode(file)->i_private;
	struct initrd_file e;

	for (; initrd_entry(ctx->pos, &e); ctx->pos++) {
		const char *child = child_name(e.name, dir);

		if (!child || !strcmp(e.name, "."))
			continue;
		if (!dir_emit(ctx, child, strlen(child), ctx->pos + 2, S_DT(e.mode)))
			break;
	}
	return 0;
}

/* Directories seek as Linux's dcache_dir_lseek: SEEK_SET and SEEK_CUR only. */
static const struct file_operations initrd_dir_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = initrd_readdir,
	.fsync = noop_fsync,
};

static struct inode initrd_root = {
	.i_mode = S_IFDIR | 0755, .i_nlink = 2, .i_ino = 1, .i_count = ATOMIC_INIT(1), .i_sb = &initrd_sb,
	.i_fop = &initrd_dir_operations, .i_private = (void *)"",
};

/* A link's text: the entry's data, which the archive does not end with a NUL. */
static const char *initrd_link_text(const struct initrd_file *e)
{
	char *text = kmalloc(e->size + 1);

	if (!text)
		panic("initrd_link_text: no memory for the links");
	memcpy(text, e->data, e->size);
	text[e->size] = '\0';
	return text;
}

/*
 * The inode of entry e, with its owner and (as atime, mtime and ctime)
 * the archive's mtime: directories S_IFDIR 0755, links their text, files their mode, data,
 * size, page cache and inode number ino (readdir's d_ino of the entry).
 */
static void initrd_fill_inode(struct inode *inode, const struct initrd_file *e, unsigned long ino)
{
	inode->i_sb = &initrd_sb;
	inode->i_uid = e->uid;
	inode->i_gid = e->gid;
	inode->i_atime = inode->i_mtime = inode->i_ctime = (struct timespec64){ e->mtime, 0 };
	atomic_set(&inode->i_count, 1);                     /* the cache's */
	inode->i_ino = 1;
	if (S_ISDIR(e->mode)) {
		inode->i_mode = S_IFDIR | 0755;
		inode->i_nlink = 2;
		inode->i_fop = &initrd_dir_operations;
		inode->i_private = (void *)e->name;
		return;
	}
	inode->i_mode = e->mode;
	inode->i_nlink = 1;
	inode->i_ino = ino;
	inode->i_size = e->size;
	if (S_ISLNK(e->mode)) {
		inode->i_link = initrd_link_text(e);
		return;
	}
	inode->i_blocks = (e->size + 511) / 512;
	inode->i_fop = &initrd_file_operations;
	inode->i_private = (void *)e->data;
	address_space_init_once(&inode->i_data, inode);
	inode->i_data.a_ops = &initrd_aops;
	mapping_set_unevictable(&inode->i_data);        /* ramfs's rule: its pages live for ever */
	inode->i_mapping = &inode->i_data;
}

/*
 * The inode of path (absolute or relative to "/"; "" is the root): a
 * reference for the caller, or NULL if the archive has no such entry.
 */
struct inode *initrd_iget(const char *path)
{
	struct initrd_inode *ii;

	while (*path == '/')
		path++;
	if (!*path) {
		ihold(&initrd_root);
		return &initrd_root;
	}
	for (ii = initrd_hash[initrd_hashfn(path)]; ii && strcmp(ii->entry.name, path); ii = ii->next)
		;
	if (!ii)
		return NULL;
	ihold(&ii->vfs_inode);
	return &ii->vfs_inode;
}

/*
 * Read every page of a regular file into its page cache (Linux's
 * populate_rootfs writing the initramfs into ramfs); the cache keeps each
 * folio for ever.  Panics if memory runs out: this is boot.
 */
static void initrd_fill_cache(struct inode *inode)
{
	for (pgoff_t index = 0; index < DIV_ROUND_UP(inode->i_size, PAGE_SIZE); index++) {
		struct folio *folio = folio_alloc(__GFP_ZERO, 0);

		if (!folio)
			panic("initrd_fill_cache: no memory for the page cache");
		folio_lock(folio);
		if (filemap_add_folio(inode->i_mapping, folio, index))
			panic("initrd_fill_cache: cannot cache page %lu", index);
		initrd_read_folio(NULL, folio);
		folio_set_uptodate(folio);
		folio_unlock(folio);
		folio_put(folio);               /* the cache holds its own reference */
	}
}

/*
 * Take the archive GRUB loaded and make the inode of each entry, in
 * archive order, with its files' data in the page cache.
 */
void initrd_init(const void *start, unsigned long size)
{
	unsigned long off = 0, index = 0;
	struct initrd_file e;

	archive = start;
	archive_size = size;
	while (next_entry(&off, &e))
		initrd_count++;
	initrd_by_index = kmalloc(initrd_count * sizeof(*initrd_by_index) + 1);
	if (!initrd_by_index)
		panic("initrd_init: no memory for the inodes");
	for (off = 0; next_entry(&off, &e); index++) {
		struct initrd_inode *ii = kzalloc(sizeof(*ii));

		if (!ii)
			panic("initrd_init: no memory for the inodes");
		ii->entry = e;
		initrd_fill_inode(&ii->vfs_inode, &e, index + 2);
		if (!strcmp(e.name, "."))               /* the root's own entry: its times */
			initrd_root.i_atime = initrd_root.i_mtime = initrd_root.i_ctime =
				ii->vfs_inode.i_mtime;
		if (S_ISREG(e.mode))
			initrd_fill_cache(&ii->vfs_inode);
		ii->next = initrd_hash[initrd_hashfn(e.name)];
		initrd_hash[initrd_hashfn(e.name)] = ii;
		initrd_by_index[index] = ii;
	}
}
