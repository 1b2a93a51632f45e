/*
 * The walk that follows symbolic links (Linux's link_path_walk and
 * pick_link, the part of fs/namei.c about links): a path fs/namei.c could
 * not resolve as text is walked again component by component, each link's
 * text spliced in before what follows it, up to MAXSYMLINKS (ELOOP); a
 * last magic link (/proc/<pid>/fd/N) gives its file's inode instead.
 *
 * Locking: as fs/namei.c's lookups (each component is one lookup_path);
 * the walk's buffers are its own.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "fs/namei.h"

/* The text of a symbolic link: its i_link, or what its get_link writes into buf (PATH_MAX). */
const char *inode_get_link(struct inode *inode, char *buf)
{
	if (inode->i_link)
		return inode->i_link;
	if (!inode->i_op || !inode->i_op->get_link)
		return ERR_PTR(-EINVAL);
	return inode->i_op->get_link(inode, buf);
}

/*
 * A link_walk in progress: what is left to walk, with the links met so
 * far spliced in (rest, size bytes, a small kmalloc grown as targets
 * need, WALK_MAX at most); a buffer for links whose text is generated
 * (/proc's), made when one is met; the links followed; and the last
 * component's inode once it was looked up, for the caller to keep.
 */
struct link_walk {
	char *rest;
	size_t size;
	char *link;
	int links;
	struct inode *last;
	bool jumped;            /* last is a magic link's inode, out its file's name */
	const char *root;       /* the process's root directory's path (chroot) */
};

/*
 * Put the text of the link inode in front of the rest of the walk, which
 * starts at rest + next: "target/next", into rest (grown if it must be).
 * 0, or -ENAMETOOLONG / -ENOMEM / get_link's error.
 */
static long splice_link(struct link_walk *lw, struct inode *inode, size_t next)
{
	const char *target;
	size_t tlen, nlen = strlen(lw->rest + next), need;

	if (!inode->i_link && !lw->link && !(lw->link = kmalloc(PATH_MAX)))
		return -ENOMEM;
	target = inode_get_link(inode, lw->link);
	if (IS_ERR(target))
		return PTR_ERR(target);
	tlen = strlen(target);
	if (!tlen)
		return -ENOENT;
	need = tlen + 1 + nlen + 1;
	if (need > WALK_MAX)
		return -ENAMETOOLONG;
	if (need > lw->size) {
		char *grown = kmalloc(need);

		if (!grown)
			return -ENOMEM;
		memcpy(grown + tlen + 1, lw->rest + next, nlen + 1);
		kfree(lw->rest);
		lw->rest = grown;
		lw->size = need;
	} else {
		memmove(lw->rest + tlen + 1, lw->rest + next, nlen + 1);
	}
	memcpy(lw->rest, target, tlen);
	lw->rest[tlen] = '/';
	return 0;
}

/* Append component (len bytes) to out (at *w, WALK_MAX bytes): 0 or -ENAMETOOLONG. */
static long append(char *out, size_t *w, const char *component, size_t len)
{
	if (*w + 1 + len + 1 > WALK_MAX)
		return -ENAMETOOLONG;
	if (*w)
		out[(*w)++] = '/';
	memcpy(out + *w, component, len);
	*w += len;
	out[*w] = '\0';
	return 0;
}

/*
 * One component of link_walk, the last of out (w bytes), to follow if
 * it is a link: a link's text is spliced into the rest before what
 * follows it (at offset next) and out cut back to where that text
 * starts; a directory stays, and so does a last component, whose inode
 * lw->last keeps — a last magic link's target (jump_link), whose name
 * then replaces out.  Returns 1 if the walk goes on from the rest's
 * start, 0 to go on from next, or -errno.
 */
static long walk_component(struct link_walk *lw, char *out, size_t *w, size_t next)
{
	struct inode *inode = lookup_path(out);
	bool more = lw->rest[next];
	long err;

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	if (!inode)
		return more ? -ENOENT : 0;      /* a missing last one: the caller's lookup says */
	if (!more && S_ISLNK(inode->i_mode) && inode->i_op && inode->i_op->jump_link) {
		lw->last = inode->i_op->jump_link(inode, out);
		iput(inode);
		if (IS_ERR(lw->last)) {
			err = PTR_ERR(lw->last);
			lw->last = NULL;
			return err;
		}
		lw->jumped = true;
		return 0;
	}
	if (S_ISLNK(inode->i_mode)) {
		err = ++lw->links > MAXSYMLINKS ? -ELOOP : splice_link(lw, inode, next);
		iput(inode);
		if (err)
			return err;
		if (lw->rest[0] == '/') {
			*w = strlen(lw->root);  /* an absolute target starts at the root */
			memcpy(out, lw->root, *w);
		} else {
			while (*w && out[*w - 1] != '/')
				(*w)--;         /* a relative one in the link's directory */
			*w -= !!*w;
		}
		out[*w] = '\0';
		return 1;
	}
	if (!more) {
		lw->last = inode;
		return 0;
	}
	err = S_ISDIR(inode->i_mode) ? 0 : -ENOTDIR;
	iput(inode);
	return err;
}

/*
 * The walk that follows symbolic links (Linux's link_path_walk): in, an
 * absolute path, component by component into out (WALK_MAX bytes), which
 * never holds a link — so its ".." is plain text again; an absolute
 * link's target starts at root (the process's root directory's path).  The last
 * component is followed with LOOKUP_FOLLOW or a trailing '/' (never with
 * LOOKUP_PARENT); a missing last one is left for the caller's lookup.
 * *last gets the last component's inode (a reference) if the walk looked
 * it up, else NULL; *jumped says it is a magic link's target, whose file's
 * name is then in out.  0 or -errno (ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG,
 * ENOMEM).
 */
long link_walk(const char *in, char *out, const char *root, unsigned int flags,
		      struct inode **last, bool *jumped)
{
	struct link_walk lw = { .size = strlen(in) + 1, .root = root };
	size_t w = 0, r = 0;
	long err = 0;

	*last = NULL;
	lw.rest = kmalloc(lw.size);
	if (!lw.rest)
		return -ENOMEM;
	memcpy(lw.rest, in, lw.size);
	out[0] = '\0';
	while (lw.rest[r] && err >= 0) {
		const char *c = lw.rest + r;
		size_t len = strcspn(c, "/"), next = r + len;
		bool dot = len == 1 && c[0] == '.', dotdot = len == 2 && !strncmp(c, "..", 2);
		bool follow = (lw.rest[next] == '/' && !(flags & LOOKUP_PARENT)) || (flags & LOOKUP_FOLLOW);

		while (lw.rest[next] == '/')
			next++;
		if (dot || dotdot) {
			err = must_be_dir(out);
			if (dotdot)
				path_pop(out, &w, root);
		} else if (len) {
			err = append(out, &w, c, len);
			if (!err && (lw.rest[next] || follow))
				err = walk_component(&lw, out, &w, next);
			if (err == 1) {
				r = 0;
				continue;
			}
		}
		r = next;
	}
	kfree(lw.link);
	kfree(lw.rest);
	if (err >= 0)
		*last = lw.last;
	else if (lw.last)
		iput(lw.last);
	*jumped = err >= 0 && lw.jumped;
	return err < 0 ? err : 0;
}
