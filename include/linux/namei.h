/* Path-name lookup (fs/namei.c). */
#ifndef _LINUX_NAMEI_H
#define _LINUX_NAMEI_H

#include "linux/fs.h"
#include "uapi/linux/fcntl.h"

#define PATH_MAX        4096
#define NAME_MAX        255             /* the longest path component */
#define DIR_PATH_MAX    128             /* the longest path a directory inode keeps */
#define WALK_MAX        (PATH_MAX + DIR_PATH_MAX)       /* a path being walked */
#define MAXSYMLINKS     40              /* links one walk follows before ELOOP */
#define LOOKUP_FOLLOW   0x0001          /* follow a link at the end too */
#define LOOKUP_PARENT   0x0010          /* the parent of the end: never follow the end */
#define LOOKUP_EMPTY    0x4000          /* "" is allowed (AT_EMPTY_PATH) */
#define S_IALLUGO       07777
#define S_IRWXUGO       0777
#define S_ISVTX         01000

/* What a path's last component is (Linux's last_type) */
enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

/*
 * The parent directory of a path about to be created, removed or renamed
 * (Linux's filename_parentat): dir is a reference (NULL unless LAST_NORM),
 * last the final component, path the whole normalized path.
 */
struct path_parent {
	struct inode *dir;
	int type;                       /* LAST_* */
	bool trailing;                  /* the name ended in '/' */
	int last_err;                   /* -ENAMETOOLONG: last is too long (last is "" then) */
	char last[NAME_MAX + 1];
	const char *path;               /* in buf or grown, freed by path_parent_put() */
	char *buf, *grown;
};

char *getname(const char *upath, int flags, long *err);
long filename_lookup(int dirfd, const char *name, unsigned int flags, struct inode **inode,
		     char *path);
long path_lookupat(int dirfd, const char *name, unsigned int flags, struct inode **inode);
long user_path_at(int dirfd, const char *upath, unsigned int flags, struct inode **inode);
long user_path_at_flags(int dirfd, const char *upath, int at_flags, struct inode **inode);
const char *inode_get_link(struct inode *inode, char *buf);
long path_parentat(int dirfd, const char *name, struct path_parent *pp);
void path_parent_put(struct path_parent *pp);
struct inode *lookup_path(const char *path);

#endif
