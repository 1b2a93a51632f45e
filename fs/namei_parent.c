/*
 * The parent of a path about to be created, removed or renamed (Linux's
 * filename_parentat, the part of fs/namei.c that fs/namei_ops.c and
 * O_CREAT use): the directory holding the last component, and that
 * component as text, resolved as fs/namei.c resolves a whole path.
 *
 * Locking: as fs/namei.c's lookups; the lookup's buffers stay with the
 * caller's struct path_parent until path_parent_put().
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/string.h"
#include "fs/namei.h"

/* The kind of name's last component: "." or "..", the root ("/"), or a name. */
static int last_type(const char *name, const char *normalized, const char *root)
{
	size_t n = strlen(name), len;

	while (n && name[n - 1] == '/')
		n--;
	len = 0;
	while (len < n && name[n - len - 1] != '/')
		len++;
	if (len == 1 && name[n - 1] == '.')
		return LAST_DOT;
	if (len == 2 && !strncmp(name + n - 2, "..", 2))
		return LAST_DOTDOT;
	return strcmp(normalized, root) ? LAST_NORM : LAST_ROOT;    /* "/" is the root, chroot's too */
}

/*
 * The directory out names but for its last component, looked up with
 * that component cut off (out itself unchanged): referenced, or NULL
 * if it is missing or not a directory; nd as lookup_text() leaves it.
 */
static struct inode *parent_dir(char *out, struct nameidata *nd)
{
	char *slash = strrchr(out, '/');
	struct inode *dir;

	if (slash)
		*slash = '\0';
	dir = lookup_text(slash ? out : "", nd);
	if (slash)
		*slash = '/';
	if (!IS_ERR_OR_NULL(dir) && !S_ISDIR(dir->i_mode)) {
		iput(dir);
		dir = NULL;
	}
	return dir;
}

/*
 * Resolve the parent directory of a kernel copy of a path name, relative
 * to dirfd (Linux's filename_parentat): pp->dir referenced if the last
 * component is a plain name (pp->type LAST_NORM), pp->last that name,
 * never followed if it is a link.  The parent as text first, else by
 * link_walk(), from where the text's walk stopped in a mount if it did;
 * the walk's cursor is then the parent, if it knows it.  A last
 * component longer than NAME_MAX is pp->last_err (-ENAMETOOLONG), for the
 * caller to give where Linux's lookup of it would (rename: after both
 * parents).  0 or -errno (ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG, EBADF,
 * ENOMEM); after 0 the caller calls path_parent_put().
 */
long path_parentat(int dirfd, const char *name, struct path_parent *pp)
{
	struct nameidata nd = { 0 };
	struct walk_bufs w;
	char *p, *slash;
	long err = walk_bufs_alloc(&w, name);

	pp->dir = NULL;
	pp->buf = w.in;
	pp->grown = NULL;
	pp->last_err = 0;
	pp->last[0] = '\0';
	pp->trailing = false;
	if (err)
		return err;
	err = absolute(dirfd, name, &w, &pp->trailing);
	if (w.dead && only_dots(name)) {        /* "." of a removed directory: as Linux's */
		iput(w.dead);
		w.dead = NULL;
		w.out[0] = '\0';
		pp->path = w.out;
		pp->type = LAST_DOT;
		goto done;
	}
	if (err)
		goto fail;
	pp->path = p = w.out;
	if (!normalize(w.in, p, w.root)) {
		pp->type = last_type(name, p, w.root);
		if (pp->type != LAST_NORM)
			goto done;
		pp->dir = parent_dir(p, &nd);
	}
	if (IS_ERR_OR_NULL(pp->dir)) {
		err = link_walk(&w, nd.dir ? w.out : w.in, &nd, LOOKUP_PARENT, &pp->dir);
		pp->grown = w.grown;
		pp->path = p = w.out;
		if (err)
			goto fail;
		pp->type = last_type(name, p, w.root);
		if (pp->type != LAST_NORM)
			goto done;
		if (nd.dir) {
			pp->dir = nd.dir;       /* the walk stopped before the last component */
			nd.dir = NULL;
		} else {
			pp->dir = parent_dir(p, NULL);
		}
		err = IS_ERR(pp->dir) ? PTR_ERR(pp->dir) : !pp->dir ? -ENOENT : 0;
		if (err)
			goto fail;
	}
	slash = strrchr(p, '/');
	if (strlen(slash ? slash + 1 : p) > NAME_MAX)
		pp->last_err = -ENAMETOOLONG;   /* Linux's lookup of it says so, later */
	else
		strlcpy(pp->last, slash ? slash + 1 : p, sizeof(pp->last));
done:
	nd_put(&nd);
	return 0;
fail:
	nd_put(&nd);
	if (!IS_ERR_OR_NULL(pp->dir))
		iput(pp->dir);
	pp->dir = NULL;
	walk_bufs_free(&w);
	return err;
}

void path_parent_put(struct path_parent *pp)
{
	struct walk_bufs w = { .in = pp->buf, .grown = pp->grown };

	if (pp->dir)
		iput(pp->dir);
	walk_bufs_free(&w);
}
