/*
 * What fs/namei.c, fs/namei_link.c and fs/namei_parent.c share: a
 * lookup's buffers, where a walk stands, the text walk's steps and the
 * link-following walk.  Internal to path lookup.
 */
#ifndef _FS_NAMEI_H
#define _FS_NAMEI_H

#include "linux/types.h"
#include "linux/namei.h"

struct inode;

/*
 * The buffers of one lookup of a name, freed by walk_bufs_free(): in, the
 * absolute path, and out, the resolved one, each walk_size() bytes (a
 * small kmalloc: out is never longer than in while it is resolved as
 * text); out moves to a bigger buffer of its own (grown, out_size bytes,
 * WALK_MAX at most) when followed links make it longer.
 */
struct walk_bufs {
	char *in, *out;
	size_t out_size;
	char *grown;
	bool jumped;            /* out is a magic link's file's name, not a path walked */
	struct inode *dead;     /* the removed directory a relative name started in (a reference) */
	char root[DIR_PATH_MAX];        /* the caller's root directory's path: "" but after chroot */
};

/*
 * Where a walk stands (Linux's nameidata, its path part): the directory
 * the text resolved so far names, when it is known.  In a tmpfs mount
 * with no mount below it (walkable) the next component is that
 * directory's i_op->lookup, until the mount table changes; otherwise
 * the text is looked up whole.
 */
struct nameidata {
	struct inode *dir;      /* a reference, or NULL: not known */
	size_t at;              /* lookup_text's answer: the offset of the component dir holds */
	struct inode *found;    /* that component's inode if it was found (a reference) */
	bool walkable;
	unsigned int mount_seq; /* the mount table walkable was read from (mounts_changed) */
};

int walk_bufs_alloc(struct walk_bufs *w, const char *name);
void walk_bufs_free(struct walk_bufs *w);
int walk_out_reserve(struct walk_bufs *w, size_t need);
long absolute(int dirfd, const char *name, struct walk_bufs *w, bool *trailing);
long normalize(const char *in, char *out, const char *root);
bool only_dots(const char *name);
struct inode *dir_lookup(struct inode *dir, const char *name);
void nd_put(struct nameidata *nd);
struct inode *lookup_text(const char *p, struct nameidata *nd);
long must_be_dir(char *p);
void path_pop(char *out, size_t *w, const char *root);
long link_walk(struct walk_bufs *w, const char *in, struct nameidata *nd, unsigned int flags,
	       struct inode **last);

#endif
