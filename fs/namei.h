/*
 * What fs/namei.c and fs/namei_link.c share: the text walk's helpers and
 * the link-following walk.  Internal to path lookup.
 */
#ifndef _FS_NAMEI_H
#define _FS_NAMEI_H

#include "linux/types.h"

struct inode;

long must_be_dir(char *p);
void path_pop(char *out, size_t *w, const char *root);
long link_walk(const char *in, char *out, const char *root, unsigned int flags,
	       struct inode **last, bool *jumped);

#endif
